#!/usr/bin/env python3
"""Writes the embedding recorder's cases (JSON lines), deterministic:
{"id", "route", "vocab", "kv", "params"?, "body"}. `vocab` is a
vocabulary-only GGUF of tests/corpus (the runner's tokenizer), `kv` the
GGUF keys the handlers read, as [type, value].

    gen_cases.py OUT
"""
import json
import sys

BGE = "tests/corpus/tokenizer/llama-vocab/ggml-vocab-bert-bge.gguf"
NOMIC = "tests/corpus/tokenizer/llama-vocab/ggml-vocab-nomic-bert-moe.gguf"
PHI3 = "tests/corpus/tokenizer/llama-vocab/ggml-vocab-phi-3.gguf"


def bert(ctx=512, pooling=1, **extra):
    kv = {"general.architecture": ["str", "bert"], "bert.embedding_length": ["u32", 8]}
    if ctx is not None:
        kv["bert.context_length"] = ["u32", ctx]
    if pooling is not None:
        kv["bert.pooling_type"] = ["u32", pooling]
    kv.update(extra)
    return kv


def nomic(ctx=512):
    return {"general.architecture": ["str", "nomic-bert-moe"], "nomic-bert-moe.context_length": ["u32", ctx],
            "nomic-bert-moe.pooling_type": ["u32", 1], "nomic-bert-moe.embedding_length": ["u32", 6],
            "tokenizer.ggml.bos_token_id": ["u32", 0], "tokenizer.ggml.eos_token_id": ["u32", 2]}


def phi3(ctx=4096, pooling=None):
    kv = {"general.architecture": ["str", "phi3"], "phi3.context_length": ["u32", ctx],
          "phi3.embedding_length": ["u32", 4], "tokenizer.ggml.bos_token_id": ["u32", 1],
          "tokenizer.ggml.eos_token_id": ["u32", 32000]}
    if pooling is not None:
        kv["phi3.pooling_type"] = ["u32", pooling]
    return kv


LONG = " ".join(["the quick brown fox jumps over the lazy dog"] * 80)  # ~720 words
MID = " ".join(f"word{i}" for i in range(40))
cases = []


def case(name, route, body, kv=None, vocab=BGE, params=None):
    c = {"id": f"{route}/{name}", "route": route, "vocab": vocab, "kv": kv or bert(),
         "body": body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)}
    if params:
        c["params"] = params
    cases.append(c)


M = "embed-case"
# -- input shapes
case("string", "embed", {"model": M, "input": "hello world"})
case("empty-string", "embed", {"model": M, "input": ""})
case("list", "embed", {"model": M, "input": ["hello", "world", "why is the sky blue?"]})
case("list-empty-string", "embed", {"model": M, "input": [""]})
case("list-empty", "embed", {"model": M, "input": []})
case("no-input", "embed", {"model": M})
case("null-input", "embed", {"model": M, "input": None})
case("number-input", "embed", {"model": M, "input": 5})
case("object-input", "embed", {"model": M, "input": {"text": "hi"}})
case("bool-input", "embed", {"model": M, "input": True})
case("list-number", "embed", {"model": M, "input": ["a", 1]})
case("list-null", "embed", {"model": M, "input": ["a", None]})
case("list-nested", "embed", {"model": M, "input": [["a"]]})
case("Input-key", "embed", '{"model":"embed-case","Input":"folded key"}')
case("unicode", "embed", {"model": M, "input": ["Ünïcödé straße", "中文字日本語", "😀 emoji", "tab\tand\nnewline"]})
case("special-text", "embed", {"model": M, "input": ["[CLS] hello [SEP]", "[CLS]", "[SEP]", "[MASK] x", "[PAD]"]})
case("whitespace", "embed", {"model": M, "input": [" ", "  leading", "trailing  "]})
# -- model names and decoding
case("no-model", "embed", {"input": "x"})
case("empty-model", "embed", {"model": "", "input": "x"})
case("bad-model", "embed", {"model": "bad model!", "input": "x"})
case("both-sources", "embed", {"model": "m:local:cloud", "input": "x"})
case("cloud", "embed", {"model": "m:cloud", "input": "x"})
case("bad-model-type", "embed", {"model": 5, "input": "x"})
case("bad-truncate", "embed", {"model": M, "input": "x", "truncate": "yes"})
case("bad-dimensions", "embed", {"model": M, "input": "x", "dimensions": 1.5})
case("bad-dimensions-str", "embed", {"model": M, "input": "x", "dimensions": "4"})
case("keep-alive", "embed", {"model": M, "input": "x", "keep_alive": "5m"})
case("keep-alive-num", "embed", {"model": M, "input": "x", "keep_alive": 300})
case("bad-keep-alive", "embed", {"model": M, "input": "x", "keep_alive": "5 minutes"})
case("bad-options", "embed", {"model": M, "input": "x", "options": "num_ctx"})
case("bad-option-type", "embed", {"model": M, "input": "x", "options": {"num_ctx": "512"}})
case("bad-option-bool", "embed", {"model": M, "input": "x", "options": {"use_mmap": 1}})
case("unknown-option", "embed", {"model": M, "input": "x", "options": {"nope": 1}})
case("not-object", "embed", '["x"]')
# -- dimensions
case("dimensions", "embed", {"model": M, "input": ["a b", "c"], "dimensions": 3})
case("dimensions-big", "embed", {"model": M, "input": "a", "dimensions": 100})
case("dimensions-neg", "embed", {"model": M, "input": "a", "dimensions": -2})
# -- truncation
case("long", "embed", {"model": M, "input": LONG})
case("long-list", "embed", {"model": M, "input": ["short", LONG]})
case("long-truncate-true", "embed", {"model": M, "input": LONG, "truncate": True})
case("long-truncate-false", "embed", {"model": M, "input": LONG, "truncate": False})
case("short-truncate-false", "embed", {"model": M, "input": "fits fine", "truncate": False})
case("num-ctx-16", "embed", {"model": M, "input": MID, "options": {"num_ctx": 16}})
case("num-ctx-16-false", "embed", {"model": M, "input": MID, "truncate": False, "options": {"num_ctx": 16}})
case("num-ctx-3", "embed", {"model": M, "input": "a b c d e", "options": {"num_ctx": 3}})
case("num-ctx-2", "embed", {"model": M, "input": "a b c d e", "options": {"num_ctx": 2}})
case("num-ctx-1", "embed", {"model": M, "input": "a b", "options": {"num_ctx": 1}})
case("num-ctx-0", "embed", {"model": M, "input": LONG, "options": {"num_ctx": 0}})
case("num-ctx-neg", "embed", {"model": M, "input": MID, "options": {"num_ctx": -5}})
case("num-ctx-float", "embed", {"model": M, "input": MID, "options": {"num_ctx": 10.7}})
case("num-ctx-big", "embed", {"model": M, "input": LONG, "options": {"num_ctx": 100000}})
case("num-batch-8", "embed", {"model": M, "input": MID, "options": {"num_batch": 8}})
case("num-batch-8-false", "embed", {"model": M, "input": MID, "truncate": False, "options": {"num_batch": 8}})
case("num-batch-2", "embed", {"model": M, "input": "a b c d", "options": {"num_batch": 2}})
case("num-batch-0", "embed", {"model": M, "input": LONG, "options": {"num_batch": 0}})
case("num-batch-short", "embed", {"model": M, "input": "a b", "options": {"num_batch": 8}})
case("params-num-ctx", "embed", {"model": M, "input": MID}, params={"num_ctx": 12})
case("params-under-request", "embed", {"model": M, "input": MID, "options": {"num_ctx": 20}}, params={"num_ctx": 12})
case("special-start", "embed", {"model": M, "input": "[CLS] " + MID, "options": {"num_ctx": 10}})
case("special-both", "embed", {"model": M, "input": "[PAD] " + MID + " [PAD]", "options": {"num_ctx": 10}})
case("subwords", "embed", {"model": M, "input": "unbelievably antidisestablishmentarianism tokenization", "options": {"num_ctx": 6}})
case("no-context-length", "embed", {"model": M, "input": "a"}, kv=bert(ctx=None))
case("ctx-300", "embed", {"model": M, "input": LONG}, kv=bert(ctx=300))
case("ctx-1000", "embed", {"model": M, "input": LONG}, kv=bert(ctx=1000))
case("ctx-1000-num-ctx", "embed", {"model": M, "input": LONG, "options": {"num_ctx": 1000}}, kv=bert(ctx=1000))
case("bos-eos-keys", "embed", {"model": M, "input": MID, "options": {"num_ctx": 10}},
     kv=bert(**{"tokenizer.ggml.bos_token_id": ["u32", 101], "tokenizer.ggml.eos_token_id": ["u32", 102]}))
case("bos-eos-keys-special", "embed", {"model": M, "input": "[CLS] " + MID + " [SEP]", "options": {"num_ctx": 10}},
     kv=bert(**{"tokenizer.ggml.bos_token_id": ["u32", 101], "tokenizer.ggml.eos_token_id": ["u32", 102]}))
case("bos-i32", "embed", {"model": M, "input": "[CLS] " + MID, "options": {"num_ctx": 10}},
     kv=bert(**{"tokenizer.ggml.bos_token_id": ["i32", 101]}))
case("arch-add-bos-false", "embed", {"model": M, "input": MID, "options": {"num_ctx": 10}},
     kv=bert(**{"bert.add_bos_token": ["bool", False], "bert.add_eos_token": ["bool", False]}))
case("tokenizer-add-bos-false", "embed", {"model": M, "input": MID, "options": {"num_ctx": 10}},
     kv=bert(**{"tokenizer.ggml.add_bos_token": ["bool", False]}))
case("pooling-none", "embed", {"model": M, "input": "hello"}, kv=bert(pooling=0))
case("pooling-none-false", "embed", {"model": M, "input": "hello", "truncate": False}, kv=bert(pooling=0))
case("pooling-mean", "embed", {"model": M, "input": "hello"}, kv=bert(pooling=1))
case("pooling-cls", "embed", {"model": M, "input": "hello"}, kv=bert(pooling=2))
case("not-embedding", "embed", {"model": M, "input": "hello"}, kv=bert(pooling=None))
case("not-embedding-empty", "embed", {"model": M, "input": []}, kv=bert(pooling=None))
# -- other vocabularies
case("nomic", "embed", {"model": M, "input": ["hello world", "<s> starts", "ends </s>"]}, kv=nomic(), vocab=NOMIC)
case("nomic-trunc", "embed", {"model": M, "input": MID, "options": {"num_ctx": 8}}, kv=nomic(), vocab=NOMIC)
case("nomic-trunc-special", "embed", {"model": M, "input": "<s> " + MID + " </s>", "options": {"num_ctx": 8}}, kv=nomic(), vocab=NOMIC)
case("nomic-empty", "embed", {"model": M, "input": [""]}, kv=nomic(), vocab=NOMIC)
case("phi3-chat-model", "embed", {"model": M, "input": "hello"}, kv=phi3(), vocab=PHI3)
case("phi3-pooling", "embed", {"model": M, "input": ["hello world", "<s>hi"]}, kv=phi3(pooling=1), vocab=PHI3)
case("phi3-pooling-trunc", "embed", {"model": M, "input": MID, "options": {"num_ctx": 8}}, kv=phi3(pooling=1), vocab=PHI3)
case("phi3-empty", "embed", {"model": M, "input": [""]}, kv=phi3(pooling=1), vocab=PHI3)
case("phi3-empty-false", "embed", {"model": M, "input": [""], "truncate": False}, kv=phi3(pooling=1), vocab=PHI3)
case("phi3-vision-floor", "embed", {"model": M, "input": MID, "options": {"num_ctx": 8}},
     kv=dict(phi3(pooling=1), **{"phi3.vision.block_count": ["u32", 2]}), vocab=PHI3)

# -- the legacy route
case("prompt", "embeddings", {"model": M, "prompt": "hello world"})
case("empty-prompt", "embeddings", {"model": M, "prompt": ""})
case("no-prompt", "embeddings", {"model": M})
case("prompt-number", "embeddings", {"model": M, "prompt": 5})
case("prompt-list", "embeddings", {"model": M, "prompt": ["a"]})
case("no-model", "embeddings", {"prompt": "x"})
case("bad-model", "embeddings", {"model": "bad model!", "prompt": "x"})
case("both-sources", "embeddings", {"model": "m:local:cloud", "prompt": "x"})
case("cloud", "embeddings", {"model": "m:cloud", "prompt": "x"})
case("long", "embeddings", {"model": M, "prompt": LONG})
case("num-ctx-16", "embeddings", {"model": M, "prompt": MID, "options": {"num_ctx": 16}})
case("num-batch-8", "embeddings", {"model": M, "prompt": MID, "options": {"num_batch": 8}})
case("not-embedding", "embeddings", {"model": M, "prompt": "hello"}, kv=bert(pooling=None))
case("pooling-none", "embeddings", {"model": M, "prompt": "hello"}, kv=bert(pooling=0))
case("bad-option-type", "embeddings", {"model": M, "prompt": "x", "options": {"num_batch": "8"}})
case("bad-keep-alive", "embeddings", {"model": M, "prompt": "x", "keep_alive": "forever"})
case("truncate-ignored", "embeddings", {"model": M, "prompt": LONG, "truncate": True})
case("phi3-empty-prompt", "embeddings", {"model": M, "prompt": ""}, kv=phi3(pooling=1), vocab=PHI3)
case("phi3-special", "embeddings", {"model": M, "prompt": "<s>"}, kv=phi3(pooling=1), vocab=PHI3)

with open(sys.argv[1], "w") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=False) + "\n")
print(f"{len(cases)} cases", file=sys.stderr)
