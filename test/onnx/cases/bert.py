# A 2-layer BERT-like encoder (hidden 128, 4 heads, seq 17, batch 2, ffn
# 512) written the way torch.onnx.export writes one: the word embedding a
# Gather of input_ids, position ids sliced from a buffer by the sequence
# length (Shape/Gather/Unsqueeze), LayerNormalization (opset 17), the
# attention mask turned additive ((1 - mask) * -10000), per layer Q/K/V
# MatMul + Add, Reshape to heads through Shape/Gather/Unsqueeze/Concat,
# Transpose, MatMul, Div by sqrt(d), Add mask, Softmax, MatMul, Transpose and
# Reshape back, output projection + residual + LayerNorm, and the FFN with
# Gelu in its erf form (Div, Erf, Add, Mul, Mul) + residual + LayerNorm.
# Batch and sequence are dynamic dimensions, pinned with --dim here
# (bert_dynamic.py imports the same graph with them symbolic).
import numpy as np
from onnxtest import erf, f32, model, node

B, S, H, HEADS, FFN, VOCAB, MAXPOS, LAYERS = 2, 17, 128, 4, 512, 97, 40, 2
D = H // HEADS
# f32 through two layers (contractions with K up to 512, softmax,
# layernorms renormalizing to unit scale): 1e-4 relative.
TOL = [1e-4]


def layernorm(x, g, b, eps=1e-12):
    m = x.mean(axis=-1, keepdims=True)
    v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b


def tokens(rng, b, s):
    """input_ids and an attention mask with padding at the end of every
    other sequence."""
    ids = rng.integers(0, VOCAB, (b, s)).astype(np.int64)
    mask = np.ones((b, s), np.int64)
    mask[1::2, s - s // 3:] = 0
    return ids, mask


def graph(rng):
    """(nodes, initializers, reference(ids, mask) -> last_hidden_state)."""
    i64 = lambda a: np.array(a, np.int64)  # noqa: E731
    inits = {
        "word_emb": f32(rng.standard_normal((VOCAB, H)) * 0.5),
        "pos_emb": f32(rng.standard_normal((MAXPOS, H)) * 0.5),
        "position_ids": i64(np.arange(MAXPOS)[None, :]),
        "emb_ln_g": f32(rng.uniform(0.8, 1.2, (H,))), "emb_ln_b": f32(rng.standard_normal((H,)) * 0.1),
    }

    def linear(name, k, n):
        inits[name + ".weight"] = f32(rng.standard_normal((k, n)) / np.sqrt(k))
        inits[name + ".bias"] = f32(rng.standard_normal((n,)) * 0.1)

    for l in range(LAYERS):
        for p in ("q", "k", "v", "o"):
            linear("l%d.%s" % (l, p), H, H)
        linear("l%d.ffn1" % l, H, FFN)
        linear("l%d.ffn2" % l, FFN, H)
        for ln in ("ln1", "ln2"):
            inits["l%d.%s.g" % (l, ln)] = f32(rng.uniform(0.8, 1.2, (H,)))
            inits["l%d.%s.b" % (l, ln)] = f32(rng.standard_normal((H,)) * 0.1)
    inits.update({"c_one": f32(1.0), "c_neg": f32(-10000.0), "c_sqrt_d": f32(np.sqrt(D)),
                  "c_sqrt2": f32(1.4142135), "c_half": f32(0.5),
                  "ax0": i64([0]), "ax12": i64([1, 2]), "c_heads": i64([HEADS]), "c_d": i64([D]),
                  "c_h": i64([H]), "zero": i64(0), "one": i64(1), "start0": i64([0]), "ax1": i64([1])})

    nodes = []

    def n(op, ins, outs, **kw):
        nodes.append(node(op, ins, outs, **kw))
        return outs[0]

    # Embeddings.
    word = n("Gather", ["word_emb", "input_ids"], ["word"])
    shape_ids = n("Shape", ["input_ids"], ["shape_ids"])
    seq = n("Gather", [shape_ids, "one"], ["seq"])
    seq_u = n("Unsqueeze", [seq, "ax0"], ["seq_u"])
    pos_ids = n("Slice", ["position_ids", "start0", seq_u, "ax1"], ["pos_ids"])
    pos = n("Gather", ["pos_emb", pos_ids], ["pos"])
    emb = n("Add", [word, pos], ["emb"])
    h = n("LayerNormalization", [emb, "emb_ln_g", "emb_ln_b"], ["h0"], axis=-1, epsilon=1e-12)
    # Additive attention mask [B, 1, 1, S].
    m4 = n("Unsqueeze", ["attention_mask", "ax12"], ["m4"])
    mf = n("Cast", [m4], ["mf"], to=1)
    inv = n("Sub", ["c_one", mf], ["inv"])
    add_mask = n("Mul", [inv, "c_neg"], ["add_mask"])

    def heads_shape(x, tag):
        """Concat(b, s, HEADS, D) from Shape(x), as torch exports view()."""
        sh = n("Shape", [x], [tag + ".shape"])
        b = n("Gather", [sh, "zero"], [tag + ".b"])
        s = n("Gather", [sh, "one"], [tag + ".s"])
        bu = n("Unsqueeze", [b, "ax0"], [tag + ".bu"])
        su = n("Unsqueeze", [s, "ax0"], [tag + ".su"])
        return n("Concat", [bu, su, "c_heads", "c_d"], [tag + ".target"], axis=0), bu, su

    def lin(x, name, tag):
        mm = n("MatMul", [x, name + ".weight"], [tag + ".mm"])
        return n("Add", [mm, name + ".bias"], [tag])

    for l in range(LAYERS):
        p = "l%d." % l
        q = lin(h, p + "q", p + "q")
        k = lin(h, p + "k", p + "k")
        v = lin(h, p + "v", p + "v")
        qt, _, _ = heads_shape(q, p + "q")
        qh = n("Transpose", [n("Reshape", [q, qt], [p + "q4"])], [p + "qh"], perm=[0, 2, 1, 3])
        kt, _, _ = heads_shape(k, p + "k")
        kh = n("Transpose", [n("Reshape", [k, kt], [p + "k4"])], [p + "khT"], perm=[0, 2, 3, 1])
        vt, bu, su = heads_shape(v, p + "v")
        vh = n("Transpose", [n("Reshape", [v, vt], [p + "v4"])], [p + "vh"], perm=[0, 2, 1, 3])
        sc = n("MatMul", [qh, kh], [p + "scores"])
        sc = n("Div", [sc, "c_sqrt_d"], [p + "scaled"])
        sc = n("Add", [sc, add_mask], [p + "masked"])
        pr = n("Softmax", [sc], [p + "probs"], axis=-1)
        ctx = n("MatMul", [pr, vh], [p + "ctx"])
        ctx = n("Transpose", [ctx], [p + "ctxT"], perm=[0, 2, 1, 3])
        back = n("Concat", [bu, su, "c_h"], [p + "back"], axis=0)
        ctx = n("Reshape", [ctx, back], [p + "ctx3"])
        ao = lin(ctx, p + "o", p + "attn_out")
        r1 = n("Add", [ao, h], [p + "res1"])
        h1 = n("LayerNormalization", [r1, p + "ln1.g", p + "ln1.b"], [p + "h1"], epsilon=1e-12)
        f = lin(h1, p + "ffn1", p + "ffn1")
        g = n("Div", [f, "c_sqrt2"], [p + "gd"])
        g = n("Erf", [g], [p + "ge"])
        g = n("Add", [g, "c_one"], [p + "g1"])
        g = n("Mul", [f, g], [p + "gm"])
        g = n("Mul", [g, "c_half"], [p + "gelu"])
        f2 = lin(g, p + "ffn2", p + "ffn2")
        r2 = n("Add", [f2, h1], [p + "res2"])
        h = n("LayerNormalization", [r2, p + "ln2.g", p + "ln2.b"], [p + "h2"], epsilon=1e-12)
    nodes.append(node("Identity", [h], ["last_hidden_state"]))

    W = {k: v.astype(np.float64) if v.dtype == np.float32 else v for k, v in inits.items()}

    def reference(ids, mask):
        """last_hidden_state in float64."""
        b, s = ids.shape
        x = layernorm(W["word_emb"][ids] + W["pos_emb"][np.arange(s)][None], W["emb_ln_g"], W["emb_ln_b"])
        am = (1.0 - mask[:, None, None, :].astype(np.float64)) * -10000.0
        for l in range(LAYERS):
            p = "l%d." % l
            L = lambda t, name: t @ W[p + name + ".weight"] + W[p + name + ".bias"]  # noqa: E731
            split = lambda t: t.reshape(b, s, HEADS, D).transpose(0, 2, 1, 3)  # noqa: E731
            q, k, v = split(L(x, "q")), split(L(x, "k")), split(L(x, "v"))
            sc = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D) + am
            e = np.exp(sc - sc.max(axis=-1, keepdims=True))
            ctx = (e / e.sum(axis=-1, keepdims=True)) @ v
            ctx = ctx.transpose(0, 2, 1, 3).reshape(b, s, H)
            x = layernorm(L(ctx, "o") + x, W[p + "ln1.g"], W[p + "ln1.b"])
            f = L(x, "ffn1")
            f = 0.5 * f * (1.0 + erf(f / np.sqrt(2.0)))
            x = layernorm(L(f, "ffn2") + x, W[p + "ln2.g"], W[p + "ln2.b"])
        return f32(x)

    return nodes, inits, reference


def make(rng):
    nodes, inits, reference = graph(rng)
    ids, mask = tokens(rng, B, S)
    return model(nodes, inputs=[("input_ids", ids), ("attention_mask", mask)],
                 outputs=[("last_hidden_state", reference(ids, mask))], initializers=list(inits.items()),
                 input_dims={"input_ids": ["batch", "sequence"], "attention_mask": ["batch", "sequence"]},
                 dims={"batch": B, "sequence": S})
