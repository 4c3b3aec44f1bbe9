#!/usr/bin/env python3
"""Tiny random Gemma 1, Gemma 2 and Phi-3 models and llama.cpp's logits.

No small Gemma 1, Gemma 2 or Phi-3 checkpoint is at hand, so the graph's
gemma and gemma2 switches (GeGLU, the embedding scale, post norms, the
8-position sliding window on every other layer, attention and final logit
soft-caps) and phi3's (fused QKV with a bias, fused gate/up, NEOX RoPE with
long and short rope factors and an attention factor, queries scaled before
K·Q, a sliding window llama.cpp ignores) are checked on random Q8_0
weights: this writes, for each architecture,
crates/inference/tests/golden/<arch>-synthetic.gguf (4 layers, 64 wide,
a 300-token SentencePiece vocabulary with byte tokens) and
<arch>-synthetic.json: llama.cpp's logits (as f32 bit patterns) after a
25-token prompt and after 8 greedy steps, and those steps' ids. For phi3
the JSON holds two runs: n_ctx 512 (past the 256-token original context:
the long factors) and n_ctx 200 (padded to 256 by llama.cpp: the short
ones).

Oracle: llama-cpp-python 0.3.36 on the reference build (tools/llama-cpp/
build.sh), one thread, flash attention off, f16 KV cache, n_ctx 512 (and
200 for phi3's second run).

Usage:
    synthetic.py [--out crates/inference/tests/golden]
"""
import argparse
import json
import os

import numpy as np
import gguf
import llama_cpp

W, L, NH, NKV, HD, FF = 64, 4, 4, 2, 32, 128
PHI3_HD = 16
PROMPT = [2] + [4 + (i * 37) % 290 for i in range(24)]


def vocab():
    tokens = ["<pad>", "<eos>", "<bos>", "<unk>"]
    types = [3, 3, 3, 2]
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    types += [6] * 256
    words = ["▁the", "▁a", "▁sea", "▁gull", "▁light", "▁house", "▁keeper", "▁wrote",
             "▁calm", "▁grey", "▁day", "▁night", "▁and", "▁was", "▁were", "▁of",
             "▁to", "▁in", "▁it", "▁is", "s", "ed", "ing", "▁on", "▁at", "▁by",
             "▁for", "▁with", "▁from", "▁up", "▁down", "▁over", "▁under", "▁old",
             "▁new", "▁red", "▁blue", "▁green", "▁cold", "▁warm"]
    tokens += words
    types += [1] * len(words)
    scores = [0.0] * 260 + [-float(i) for i in range(len(words))]
    return tokens, scores, types


def make(arch, path, seed):
    rng = np.random.default_rng(seed)
    tokens, scores, types = vocab()
    w = gguf.GGUFWriter(path, arch)
    w.add_context_length(2048)
    w.add_embedding_length(W)
    w.add_block_count(L)
    w.add_feed_forward_length(FF)
    w.add_head_count(NH)
    w.add_head_count_kv(NKV)
    hd = PHI3_HD if arch == "phi3" else HD
    w.add_key_length(hd)
    w.add_value_length(hd)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_rope_freq_base(10000.0)
    if arch == "gemma2":
        w.add_sliding_window(8)
        w.add_float32("gemma2.attn_logit_softcapping", 50.0)
        w.add_float32("gemma2.final_logit_softcapping", 30.0)
        w.add_float32("gemma2.rope.freq_base_swa", 5000.0)
    if arch == "phi3":
        w.add_uint32("phi3.rope.dimension_count", hd)
        w.add_uint32("phi3.rope.scaling.original_context_length", 256)
        w.add_float32("phi3.rope.scaling.attn_factor", 1.1902381)
        # llama.cpp warns and runs without it
        w.add_uint32("phi3.attention.sliding_window", 8)
    w.add_tokenizer_model("llama")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(2)
    w.add_eos_token_id(1)
    w.add_unk_token_id(3)
    w.add_pad_token_id(0)
    w.add_add_bos_token(True)
    w.add_add_eos_token(False)

    def q8(name, rows, cols, std):
        a = (rng.standard_normal((rows, cols)) * std).astype(np.float32)
        q = gguf.quants.quantize(a, gguf.GGMLQuantizationType.Q8_0)
        w.add_tensor(name, q, raw_shape=q.shape, raw_dtype=gguf.GGMLQuantizationType.Q8_0)

    def vec(name, n):
        w.add_tensor(name, (1.0 + 0.1 * rng.standard_normal(n)).astype(np.float32))

    q8("token_embd.weight", len(tokens), W, 0.3)
    vec("output_norm.weight", W)
    if arch == "phi3":
        w.add_tensor("rope_factors_long.weight",
                     (1.0 + 3.0 * rng.random(hd // 2)).astype(np.float32))
        w.add_tensor("rope_factors_short.weight",
                     (1.0 + 0.5 * rng.random(hd // 2)).astype(np.float32))
    for i in range(L):
        p = f"blk.{i}."
        vec(p + "attn_norm.weight", W)
        vec(p + "ffn_norm.weight", W)
        if arch == "phi3":
            q8(p + "attn_qkv.weight", (NH + 2 * NKV) * hd, W, 0.3)
            w.add_tensor(p + "attn_qkv.bias",
                         (0.1 * rng.standard_normal((NH + 2 * NKV) * hd)).astype(np.float32))
            q8(p + "attn_output.weight", W, NH * hd, 0.1)
            q8(p + "ffn_up.weight", 2 * FF, W, 0.2)
            q8(p + "ffn_down.weight", W, FF, 0.1)
            continue
        q8(p + "attn_q.weight", NH * HD, W, 0.3)
        q8(p + "attn_k.weight", NKV * HD, W, 0.3)
        q8(p + "attn_v.weight", NKV * HD, W, 0.2)
        q8(p + "attn_output.weight", W, NH * HD, 0.1)
        q8(p + "ffn_gate.weight", FF, W, 0.2)
        q8(p + "ffn_up.weight", FF, W, 0.2)
        q8(p + "ffn_down.weight", W, FF, 0.1)
        if arch == "gemma2":
            vec(p + "post_attention_norm.weight", W)
            vec(p + "post_ffw_norm.weight", W)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def logits(llm):
    ptr = llama_cpp.llama_get_logits_ith(llm.ctx, -1)
    return np.ctypeslib.as_array(ptr, shape=(llm.n_vocab(),)).astype(np.float32).copy()


def record(path, n_ctx=512):
    llm = llama_cpp.Llama(path, n_ctx=n_ctx, n_threads=1, verbose=False)
    llm.eval(PROMPT)
    first = logits(llm)
    gen, lg = [], first
    for _ in range(8):
        t = int(np.argmax(lg))
        gen.append(t)
        llm.eval([t])
        lg = logits(llm)
    bits = lambda a: [int(b) for b in a.view(np.uint32)]
    return {"n_ctx": n_ctx, "prompt_ids": PROMPT, "first_logits_bits": bits(first),
            "generated_ids": gen, "last_logits_bits": bits(lg)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="crates/inference/tests/golden")
    ap.add_argument("--arch", nargs="*", default=["gemma", "gemma2", "phi3"])
    a = ap.parse_args()
    for arch in a.arch:
        path = os.path.join(a.out, f"{arch}-synthetic.gguf")
        make(arch, path, {"gemma": 1, "gemma2": 2, "phi3": 3}[arch])
        with open(os.path.join(a.out, f"{arch}-synthetic.json"), "w") as f:
            if arch == "phi3":
                runs = [record(path, 512), record(path, 200)]
                assert runs[0]["first_logits_bits"] != runs[1]["first_logits_bits"]
                json.dump({"runs": runs}, f)
            else:
                json.dump(record(path), f)
            f.write("\n")
        print(arch, path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
