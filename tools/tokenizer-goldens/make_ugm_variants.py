#!/usr/bin/env python3
"""Small synthetic UGM (t5) vocabularies for the Unigram goldens.

llama.cpp's models/ has one UGM vocabulary (ggml-vocab-nomic-bert-moe,
XLM-RoBERTa's: add_space_prefix and remove_extra_whitespaces on, no
user-defined, byte or unused tokens). These vocab-only GGUFs take its first
N tokens with their scores and its precompiled charsmap, add tokens of the
other types and flip the flags, so that the goldens recorded from libllama
(record_libllama.py) cover the rest of llm_tokenizer_ugm:

- ugm-synth-a: user-defined tokens (kept whole by normalize_prefix and
  scored 0), byte tokens, unused tokens; add_space_prefix off,
  remove_extra_whitespaces off, add_bos on, add_eos off;
- ugm-synth-b: no precompiled charsmap, add_space_prefix on,
  remove_extra_whitespaces off, no add_*_token keys and no special-token
  ids (llama.cpp's t5 defaults: eos 1, unk 2, pad 0, add_eos).

Usage:
    make_ugm_variants.py SRC.gguf OUTDIR
"""
import struct
import sys


def read_kv(path):
    f = open(path, "rb")
    assert f.read(4) == b"GGUF"
    struct.unpack("<I", f.read(4))
    _, nkv = struct.unpack("<QQ", f.read(16))
    fm = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}

    def s():
        n, = struct.unpack("<Q", f.read(8))
        return f.read(n)

    def val(t):
        if t in fm:
            return struct.unpack("<" + fm[t], f.read(struct.calcsize(fm[t])))[0]
        if t == 8:
            return s()
        at, = struct.unpack("<I", f.read(4))
        n, = struct.unpack("<Q", f.read(8))
        if at in fm:
            sz = struct.calcsize(fm[at])
            return (at, list(struct.unpack("<%d%s" % (n, fm[at]), f.read(sz * n))))
        return (at, [val(at) for _ in range(n)])

    out = {}
    for _ in range(nkv):
        k = s().decode()
        t, = struct.unpack("<I", f.read(4))
        out[k] = (t, val(t))
    return out


def write(path, kvs):
    fm = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
    out = bytearray(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)))

    def s(b):
        out.extend(struct.pack("<Q", len(b)) + b)

    for k, (t, v) in kvs:
        s(k.encode())
        out.extend(struct.pack("<I", t))
        if t == 8:
            s(v)
        elif t == 9:
            at, items = v
            out.extend(struct.pack("<IQ", at, len(items)))
            if at == 8:
                for x in items:
                    s(x)
            else:
                out.extend(struct.pack("<%d%s" % (len(items), fm[at]), *items))
        else:
            out.extend(struct.pack("<" + fm[t], v))
    while len(out) % 32:
        out.append(0)
    open(path, "wb").write(out)


def main():
    src, outdir = sys.argv[1], sys.argv[2]
    kv = read_kv(src)
    n = 6000
    toks = kv["tokenizer.ggml.tokens"][1][1][:n]
    scores = kv["tokenizer.ggml.scores"][1][1][:n]
    types = kv["tokenizer.ggml.token_type"][1][1][:n]
    charsmap = kv["tokenizer.ggml.precompiled_charsmap"][1]
    extra = [("<mask>", 0.0, 4), ("@@user@@", 0.0, 4), ("▁custom", 0.0, 4), ("ab", 0.0, 4), ("ell", 0.0, 4), ("▁Hello", 0.0, 4), ("<unused0>", -1.0, 5),
             ("▁zzq", -2.0, 5), ("<0x41>", 0.0, 6), ("<0x0A>", 0.0, 6), ("xq", -3.0, 2), ("▁▁", -1.5, 1)]
    toks_a, scores_a, types_a = list(toks), list(scores), list(types)
    for text, score, ttype in extra:
        # a text already among the first n tokens changes type in place
        # (token texts must stay unique)
        if text.encode() in toks_a:
            i = toks_a.index(text.encode())
            scores_a[i], types_a[i] = score, ttype
        else:
            toks_a.append(text.encode())
            scores_a.append(score)
            types_a.append(ttype)
    # the model's own hyperparameters, so that libllama loads the file
    common = [(k, v) for k, v in kv.items() if not k.startswith("tokenizer.")]
    common += [("tokenizer.ggml.model", (8, b"t5")), ("tokenizer.ggml.pre", (8, b"default"))]
    a = common + [
        ("tokenizer.ggml.tokens", (9, (8, toks_a))), ("tokenizer.ggml.scores", (9, (6, scores_a))),
        ("tokenizer.ggml.token_type", (9, (5, types_a))),
        ("tokenizer.ggml.add_space_prefix", (7, False)), ("tokenizer.ggml.remove_extra_whitespaces", (7, False)),
        ("tokenizer.ggml.precompiled_charsmap", (9, charsmap)),
        ("tokenizer.ggml.bos_token_id", (4, 0)), ("tokenizer.ggml.eos_token_id", (4, 2)),
        ("tokenizer.ggml.unknown_token_id", (4, 3)), ("tokenizer.ggml.padding_token_id", (4, 1)),
        ("tokenizer.ggml.add_bos_token", (7, True)), ("tokenizer.ggml.add_eos_token", (7, False)),
    ]
    write(f"{outdir}/ugm-synth-a.gguf", a)
    b = common + [
        ("tokenizer.ggml.tokens", (9, (8, toks))), ("tokenizer.ggml.scores", (9, (6, scores))),
        ("tokenizer.ggml.token_type", (9, (5, types))),
        ("tokenizer.ggml.add_space_prefix", (7, True)), ("tokenizer.ggml.remove_extra_whitespaces", (7, False)),
    ]
    write(f"{outdir}/ugm-synth-b.gguf", b)


if __name__ == "__main__":
    main()
