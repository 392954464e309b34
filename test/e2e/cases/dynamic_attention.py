"""tessel.attention with dynamic batch and sequence lengths, against float64
numpy softmax(Q K^T * scale + mask) V, at odd lengths, lengths at the
kernel's tile edges (64 keys, 64 query rows) and one query."""
import numpy as np


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def f64(x):
    return x.astype(np.float64)


def bert_inputs(b, s):
    def make(r):
        pad = np.zeros((b, s), np.float32)
        pad[-1, (s + 1) // 2:] = -10000.0  # padded keys, as BERT's mask
        return [r.standard_normal((b, s, 5, 64)).astype(np.float16)
                for _ in range(3)] + [pad]
    return make


def bert_ref(q, k, v, pad):
    s = np.einsum("bmhk,bnhk->bhmn", f64(q), f64(k)) * 0.125 + f64(pad)[:, None, None, :]
    return [np.einsum("bhmn,bnhd->bmhd", softmax(s), f64(v)).astype(np.float16)]


def decode_inputs(b, m, keys):
    return lambda r: [r.standard_normal((b, 4, m, 32)).astype(np.float16),
                      r.standard_normal((b, 4, keys, 32)).astype(np.float16),
                      r.standard_normal((b, 4, keys, 32)).astype(np.float16)]


def decode_ref(q, k, v):
    s = np.einsum("bhmk,bhnk->bhmn", f64(q), f64(k)) * np.float64(np.float32(0.17677669))
    return [np.einsum("bhmn,bhnd->bhmd", softmax(s), f64(v)).astype(np.float32)]


# f16 operands and P rounded to f16 (as the flash kernel does).
ENTRIES = (
    [("bert_like", bert_inputs(b, s), bert_ref, 4e-3)
     for b, s in [(1, 1), (3, 77), (2, 64), (1, 129)]] +
    [("decode", decode_inputs(b, m, keys), decode_ref, 4e-3)
     for b, m, keys in [(1, 1, 1), (2, 1, 63), (3, 1, 200), (1, 65, 128)]]
)
