"""tessel.attention in the forms the GPU flash-attention kernel takes,
against float64 numpy softmax(Q K^T * scale + mask) V (see the .mlir)."""
import numpy as np
from e2eutil import to_bf16, bf16_to_f64


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def f64(x):
    return x.astype(np.float64)


def bert_inputs(r):
    pad = np.zeros((3, 77), np.float32)
    pad[1, 60:] = -10000.0  # padded keys, as BERT's extended mask
    pad[2, 33:] = np.float32(np.finfo(np.float32).min)
    return [r.standard_normal((3, 77, 5, 64)).astype(np.float16) for _ in range(3)] + [pad]


def bert_ref(q, k, v, pad):
    s = np.einsum("bmhk,bnhk->bhmn", f64(q), f64(k)) * 0.125 + f64(pad)[:, None, None, :]
    return [np.einsum("bhmn,bnhd->bmhd", softmax(s), f64(v)).astype(np.float16)]


def tall_inputs(r):
    return [r.standard_normal((4, 130, 129, 64)).astype(np.float16),
            r.standard_normal((4, 130, 100, 64)).astype(np.float16),
            r.standard_normal((4, 130, 100, 64)).astype(np.float16)]


def tall_ref(q, k, v):
    s = np.einsum("bhmk,bhnk->bhmn", f64(q), f64(k)) * 0.125
    return [np.einsum("bhmn,bhnd->bhmd", softmax(s), f64(v)).astype(np.float16)]


def wide_inputs(r):
    return [to_bf16(r.standard_normal((2, 3, 200, 128))),
            to_bf16(r.standard_normal((2, 3, 64, 128))),
            to_bf16(r.standard_normal((2, 3, 64, 128)))]


def wide_ref(q, k, v):
    scale = np.float64(np.float32(0.088388))
    s = np.einsum("bhmk,bhnk->bhmn", bf16_to_f64(q), bf16_to_f64(k)) * scale
    s = 5.0 * np.tanh(s / 5.0)
    return [np.einsum("bhmn,bhnd->bhmd", softmax(s), bf16_to_f64(v)).astype(np.float32)]


def narrow_inputs(r):
    mask = np.where(r.uniform(size=(16, 300)) < 0.3, -np.inf, r.uniform(-3, 1, (16, 300)))
    mask[:, 0] = 0.0
    return [r.standard_normal((7, 16, 32)).astype(np.float16),
            r.standard_normal((7, 300, 32)).astype(np.float16),
            r.standard_normal((7, 300, 16)).astype(np.float16),
            mask.astype(np.float16)]


def narrow_ref(q, k, v, mask):
    scale = np.float64(np.float32(0.17677669))
    s = np.einsum("bmk,bnk->bmn", f64(q), f64(k)) * scale + f64(mask)[None]
    return [np.einsum("bmn,bnd->bmd", softmax(s), f64(v)).astype(np.float16)]


def f32_inputs(r):
    mask = np.where(r.uniform(size=(2, 53, 37)) < 0.25, -np.inf, r.uniform(-2, 1, (2, 53, 37)))
    mask[:, 0, :] = 0.0  # every row keeps key 0
    return [r.standard_normal((2, 3, 37, 24)).astype(np.float32),
            r.standard_normal((2, 3, 53, 24)).astype(np.float32),
            r.standard_normal((2, 3, 53, 32)).astype(np.float32),
            mask.astype(np.float32)]


def f32_ref(q, k, v, mask):
    scale = np.float64(np.float32(0.2041241452))
    s = np.einsum("bhmk,bhnk->bhmn", f64(q), f64(k)) * scale
    s = s + f64(mask).transpose(0, 2, 1)[:, None, :, :]
    return [np.einsum("bhmn,bhnd->bhmd", softmax(s), f64(v)).astype(np.float32)]


ENTRIES = [
    # P is rounded to f16/bf16 before P V (as flash attention does) and the
    # result to f16: a few ulps of |o| <~ 3 (f16 2^-11, bf16 2^-8 each).
    ("bert_like", bert_inputs, bert_ref, 1e-2),
    ("tall", tall_inputs, tall_ref, 1e-2),
    ("bf16_wide", wide_inputs, wide_ref, 3e-2),
    ("narrow_masked", narrow_inputs, narrow_ref, 1e-2),
    # f32 dot products of 24 terms, a softmax over 53 (exp polynomial on
    # the cpu): 1e-5.
    ("f32_transposed_mask", f32_inputs, f32_ref, 1e-5),
]
