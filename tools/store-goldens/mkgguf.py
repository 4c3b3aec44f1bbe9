#!/usr/bin/env python3
"""Writes the three tiny GGUFs the fixture store is created from, besides
the vocab-only ones in tests/corpus/tokenizer: a LLaVA-style projector, a
LoRA adapter and an embedding model (`<arch>.pooling_type`). GGUF v3,
little-endian, 32-byte alignment, written with `struct` only; the bytes
depend on nothing but this file.

    python3 tools/store-goldens/mkgguf.py OUT_DIR
"""

import struct
import sys
from pathlib import Path

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
GGML_F32 = 0
ALIGN = 32


def _str(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def _scalar(t, v):
    fmt = {U8: "B", I8: "b", U16: "H", I16: "h", U32: "I", I32: "i", F32: "f", BOOL: "?", U64: "Q", I64: "q", F64: "d"}
    return _str(v) if t == STR else struct.pack("<" + fmt[t], v)


def _value(t, v):
    if t == ARR:
        et, items = v
        return struct.pack("<IQ", et, len(items)) + b"".join(_scalar(et, x) for x in items)
    return _scalar(t, v)


def gguf(kvs, tensors):
    """kvs: [(key, type, value)], arrays as (ARR, (elem_type, [values]));
    tensors: [(name, shape (ggml order), [float32 values])]."""
    out = bytearray(b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)))
    for k, t, v in kvs:
        out += _str(k) + struct.pack("<I", t) + _value(t, v)
    data = bytearray()
    for name, shape, values in tensors:
        n = 1
        for d in shape:
            n *= d
        assert n == len(values), name
        out += _str(name) + struct.pack("<I", len(shape)) + b"".join(struct.pack("<Q", d) for d in shape)
        out += struct.pack("<IQ", GGML_F32, len(data))
        data += struct.pack("<%df" % n, *values)
        data += b"\0" * (-len(data) % ALIGN)
    out += b"\0" * (-len(out) % ALIGN)
    return bytes(out + data)


def ramp(n, scale=0.125):
    return [((i % 7) - 3) * scale for i in range(n)]


# A LLaVA 1.5 style projector (mmproj) as older converters wrote it: no
# general.type and no clip.projector_type, so Ollama's create path both
# detects it by its clip keys and adds clip.projector_type = "mlp".
PROJECTOR = gguf([
    ("general.architecture", STR, "clip"),
    ("general.name", STR, "tiny-mmproj"),
    ("general.description", STR, "image encoder for LLaVA"),
    ("general.file_type", U32, 0),
    ("general.parameter_count", U64, 24),
    ("clip.has_text_encoder", BOOL, False),
    ("clip.has_vision_encoder", BOOL, True),
    ("clip.has_llava_projector", BOOL, True),
    ("clip.use_gelu", BOOL, False),
    ("clip.vision.image_size", U32, 336),
    ("clip.vision.patch_size", U32, 14),
    ("clip.vision.embedding_length", U32, 1024),
    ("clip.vision.feed_forward_length", U32, 4096),
    ("clip.vision.projection_dim", U32, 768),
    ("clip.vision.attention.head_count", U32, 16),
    ("clip.vision.attention.layer_norm_epsilon", F32, 1e-5),
    ("clip.vision.block_count", U32, 23),
    ("clip.vision.image_mean", ARR, (F32, [0.48145466, 0.4578275, 0.40821073])),
    ("clip.vision.image_std", ARR, (F32, [0.26862954, 0.26130258, 0.27577711])),
], [
    ("mm.0.weight", [4, 4], ramp(16)),
    ("mm.0.bias", [4], ramp(4)),
    ("mm.2.bias", [4], ramp(4, 0.25)),
])

# A LoRA adapter for the llama architecture (general.type = adapter).
ADAPTER = gguf([
    ("general.architecture", STR, "llama"),
    ("general.type", STR, "adapter"),
    ("general.name", STR, "tiny-lora"),
    ("general.file_type", U32, 0),
    ("adapter.type", STR, "lora"),
    ("adapter.lora.alpha", F32, 16.0),
], [
    ("blk.0.attn_q.weight.lora_a", [8, 2], ramp(16)),
    ("blk.0.attn_q.weight.lora_b", [2, 8], ramp(16, 0.0625)),
])

# A BERT-style embedding model: bert.pooling_type makes it an embedding model
# (no completion); general.file_type 0 (all F32) is what Ollama calls unknown.
EMBED_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s"]
EMBED = gguf([
    ("general.architecture", STR, "bert"),
    ("general.type", STR, "model"),
    ("general.name", STR, "embed-tiny"),
    ("general.file_type", U32, 0),
    ("general.parameter_count", U64, 72),
    ("bert.block_count", U32, 1),
    ("bert.context_length", U32, 512),
    ("bert.embedding_length", U32, 8),
    ("bert.feed_forward_length", U32, 16),
    ("bert.attention.head_count", U32, 2),
    ("bert.attention.layer_norm_epsilon", F32, 1e-12),
    ("bert.attention.causal", BOOL, False),
    ("bert.pooling_type", U32, 1),
    ("tokenizer.ggml.model", STR, "bert"),
    ("tokenizer.ggml.tokens", ARR, (STR, EMBED_TOKENS)),
    ("tokenizer.ggml.token_type", ARR, (I32, [3, 3, 3, 3, 3, 1, 1, 1])),
    ("tokenizer.ggml.unknown_token_id", U32, 1),
    ("tokenizer.ggml.seperator_token_id", U32, 3),
    ("tokenizer.ggml.padding_token_id", U32, 0),
    ("tokenizer.ggml.cls_token_id", U32, 2),
    ("tokenizer.ggml.mask_token_id", U32, 4),
], [
    ("token_embd.weight", [8, 8], ramp(64, 0.03125)),
    ("token_embd_norm.weight", [8], [1.0] * 8),
])

FILES = {"mmproj-tiny.gguf": PROJECTOR, "lora-tiny.gguf": ADAPTER, "embed-tiny.gguf": EMBED}


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, data in FILES.items():
        (out / name).write_bytes(data)


if __name__ == "__main__":
    main()
