#!/usr/bin/env python3
"""Exports a Hugging Face Llama (LlamaForCausalLM: RoPE, RMSNorm, grouped
KV heads, SiLU MLP; random weights from a fixed seed, no download) to ONNX
with torch.onnx.export, its sequence length a dynamic axis, on the GPU
machine; writes transformers' greedy generation as the reference:

  DIR/llama.onnx           input_ids [1, sequence] -> logits [1, sequence, vocab]
                           (no KV cache: each step runs the whole sequence)
  DIR/prompt.npy           [1, P] int64
  DIR/greedy.npy           [1, P + N] int64: model.generate(do_sample=False)
  DIR/prompt_logits.npy    [1, P, vocab] f32: the forward pass on the prompt

  python3 export.py --out DIR [--layers 2] [--hidden 64] [--steps 32] [--dtype f32]
"""
import argparse
import os

import numpy as np
import torch
import transformers


class Logits(torch.nn.Module):
    """input_ids -> logits, without a KV cache: what the exports trace."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids):
        return self.m(input_ids=input_ids, use_cache=False).logits


def no_packed_sequences():
    """transformers looks for packed sequences (several documents in one
    row, from position ids that restart) with a cumulative sum over the
    positions; a generation loop never packs, and the detection answers
    "none" for one sequence, so the exports leave it out."""
    import transformers.masking_utils as masking
    if hasattr(masking, "find_packed_sequence_indices"):
        masking.find_packed_sequence_indices = lambda *args, **kwargs: None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=2)
    ap.add_argument("--vocab", type=int, default=256)
    ap.add_argument("--prompt", type=int, default=7)
    ap.add_argument("--steps", type=int, default=32)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    torch.manual_seed(0)
    config = transformers.LlamaConfig(
        vocab_size=a.vocab, hidden_size=a.hidden, intermediate_size=a.hidden * 3,
        num_hidden_layers=a.layers, num_attention_heads=a.heads,
        num_key_value_heads=a.kv_heads, max_position_embeddings=256, rms_norm_eps=1e-5,
        attn_implementation="eager")
    model = transformers.LlamaForCausalLM(config).eval()
    # Random weights at init are small; larger ones make greedy choices
    # clear-cut (no near-ties that rounding could flip).
    with torch.no_grad():
        for p in model.parameters():
            if p.dim() >= 2:
                p.mul_(4.0)
    g = torch.Generator().manual_seed(1)
    prompt = torch.randint(0, a.vocab, (1, a.prompt), generator=g)
    with torch.no_grad():
        logits = model(input_ids=prompt, use_cache=False).logits
        greedy = model.generate(prompt, max_new_tokens=a.steps, do_sample=False,
                                min_new_tokens=a.steps, eos_token_id=None, pad_token_id=0)

    no_packed_sequences()
    path = os.path.join(a.out, "llama.onnx")
    torch.onnx.export(Logits(model), (prompt,), path, input_names=["input_ids"],
                      output_names=["logits"],
                      dynamic_shapes={"input_ids": {1: torch.export.Dim("sequence", max=255)}},
                      external_data=False)
    np.save(os.path.join(a.out, "prompt.npy"), prompt.numpy())
    np.save(os.path.join(a.out, "greedy.npy"), greedy.numpy())
    np.save(os.path.join(a.out, "prompt_logits.npy"), logits.numpy().astype(np.float32))
    print("llama: %d parameters; greedy %s" % (sum(p.numel() for p in model.parameters()),
                                               greedy.numpy().tolist()))


if __name__ == "__main__":
    main()
