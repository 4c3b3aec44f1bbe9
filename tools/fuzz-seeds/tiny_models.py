#!/usr/bin/env python3
"""Writes tiny but complete GGUF models (random weights) for the model_load
fuzz target's seed corpus (fuzz/seeds-model/): a llama, a qwen3 (q/k norms,
NEOX rope) and a gemma3 (sliding window, pre/post norms, GeGLU), each with
Q8_0 and F16 matrices and a 16-token vocabulary, under 100 KiB each;
and two llamas whose metadata disagrees with their tensors (a wider
embedding_length, more heads), which must be refused.

    python tiny_models.py OUT_DIR     (needs the gguf and numpy packages)
"""
import sys
from pathlib import Path

import numpy as np
import gguf

rng = np.random.default_rng(19)
W, FF, LAYERS, HEADS, KV, HD, VOCAB = 64, 128, 2, 2, 1, 32, 16


def tensor(w, name, shape, qtype):
    a = (rng.standard_normal(shape) * 0.05).astype(np.float32)
    if qtype == gguf.GGMLQuantizationType.F32:
        w.add_tensor(name, a)
    elif qtype == gguf.GGMLQuantizationType.F16:
        w.add_tensor(name, a.astype(np.float16))
    else:
        w.add_tensor(name, gguf.quants.quantize(a, qtype), raw_dtype=qtype)


def model(path, arch, width=W, heads=HEADS):
    w = gguf.GGUFWriter(str(path), arch)
    w.add_block_count(LAYERS)
    w.add_context_length(256)
    w.add_embedding_length(width)
    w.add_feed_forward_length(FF)
    w.add_head_count(heads)
    w.add_head_count_kv(KV)
    w.add_key_length(HD)
    w.add_value_length(HD)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    if arch == "gemma3":
        w.add_sliding_window(4)
    w.add_tokenizer_model("gpt2")
    w.add_token_list([f"t{i}".encode() for i in range(VOCAB)])
    w.add_token_types([1] * VOCAB)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    Q8, F16, F32 = (gguf.GGMLQuantizationType.Q8_0, gguf.GGMLQuantizationType.F16,
                    gguf.GGMLQuantizationType.F32)
    tensor(w, "token_embd.weight", (VOCAB, W), Q8)
    tensor(w, "output_norm.weight", (W,), F32)
    for i in range(LAYERS):
        p = f"blk.{i}."
        tensor(w, p + "attn_norm.weight", (W,), F32)
        tensor(w, p + "attn_q.weight", (HEADS * HD, W), Q8)
        tensor(w, p + "attn_k.weight", (KV * HD, W), Q8)
        tensor(w, p + "attn_v.weight", (KV * HD, W), F16)
        tensor(w, p + "attn_output.weight", (W, HEADS * HD), Q8)
        tensor(w, p + "ffn_norm.weight", (W,), F32)
        tensor(w, p + "ffn_gate.weight", (FF, W), Q8)
        tensor(w, p + "ffn_up.weight", (FF, W), Q8)
        tensor(w, p + "ffn_down.weight", (W, FF), Q8)
        if arch in ("qwen3", "gemma3"):
            tensor(w, p + "attn_q_norm.weight", (HD,), F32)
            tensor(w, p + "attn_k_norm.weight", (HD,), F32)
        if arch == "gemma3":
            tensor(w, p + "post_attention_norm.weight", (W,), F32)
            tensor(w, p + "post_ffw_norm.weight", (W,), F32)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
for arch in ("llama", "qwen3", "gemma3"):
    model(out / f"tiny-{arch}.gguf", arch)
    print(out / f"tiny-{arch}.gguf", (out / f"tiny-{arch}.gguf").stat().st_size)
model(out / "tiny-llama-bad-width.gguf", "llama", width=96)
model(out / "tiny-llama-bad-heads.gguf", "llama", heads=4)
