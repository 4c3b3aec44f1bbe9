#!/usr/bin/env python3
"""Record llama.cpp's tokenizer output for Promptscope's tokenizer tests.

Oracle: llama-cpp-python 0.3.36 (it builds llama.cpp 0c1e57098, the commit
the corpus in tests/corpus/tokenizer was recorded with), CPU only:

    CMAKE_ARGS="-DLLAMA_CURL=OFF -DLLAVA_BUILD=OFF" pip install llama-cpp-python==0.3.36

Each vocabulary is loaded with vocab_only=True. For every string it records

- ``ids``: llama_tokenize(vocab, text, add_special, parse_special);
- ``detok``: llama_detokenize(vocab, ids, remove_special=False,
  unparse_special=True) (what llama_vocab::detokenize(ids, special=true)
  and llama-server's detokenization give); ``detok_hex`` instead when it is
  not valid UTF-8;
- ``pieces`` (generated strings only): llama_token_to_piece(vocab, id,
  lstrip=0, special=True) per id, as hex.

Strings: every distinct text of tokenize.jsonl (detokenization goldens for
the corpus ids), plus generated strings that stress the pre-tokenizers
(mixed scripts and cases, every whitespace kind, digits, contractions,
special-token fragments), deterministic for a given --seed.

Usage:
    record.py --corpus tests/corpus/tokenizer --smollm2 PATH.gguf \
              --out crates/tokenizer/tests/golden
Writes <out>/<vocab>.jsonl, one line per (string, flags).
"""
import argparse
import ctypes
import json
import os
import random
import sys

VOCABS = ["llama-spm.gguf", "mistral-hf.gguf", "llama3.gguf", "qwen3.gguf", "gptoss.gguf",
          "deepseek3.gguf", "gemma3.gguf", "gemma4.gguf", "smollm2"]

POOLS = {
    "ascii_lower": "abcdefghijklmnopqrstuvwxyz",
    "ascii_upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "digits": "0123456789",
    "punct": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    "latin": "àáâäæçèéêëìíîïñòóôöøùúûüýÿßÀÁÂÄÆÇÈÉÊËÌÍÎÏÑÒÓÔÖØÙÚÛÜÝŸǅǈǋǲ",
    "greek_cyr": "αβγδεζΑΒΓΔΕΖабвгдежАБВГДЕЖ",
    "marks": "\u0300\u0301\u0302\u0308\u0327\u064b\u064e\u0650\u093f\u0947\u094d\u0e31\u0e34\u20dd\ufe0f\u200d",
    "cjk": "中文字日本語的一是不了人我在有他这",
    "kana": "ひらがなカタカナｱｲｳｴｵ",
    "hangul": "한국어안녕하세요",
    "indic_thai": "हिन्दीবাংলাதமிழ்ภาษาไทยខ្មែរမြန်မာ",
    "rtl": "العربيةעבריתفارسی",
    "digits_other": "٠١٢٣४५६७০১௧๑๒²³¼½Ⅻ①",
    "emoji": "😀👍🏽👩‍💻🇫🇷🏴󠁧󠁢󠁳󠁣󠁴󠁿1️⃣❤️✨🤖",
    "space": [" ", " ", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", "\r", "\u00a0", "\u2003", "\u3000",
              "\u0085", "\u2028", "\u000b", "\u000c", "\u001c", "\u200b", "\ufeff", "\u202f"],
    "contraction": ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ve", "'M", "'LL", "'D",
                    "’s", "'x", "''", "'"],
    "special": ["<|im_start|>", "<|im_end|>", "<|begin_of_text|>", "<|eot_id|>", "<s>", "</s>", "<unk>",
                "<start_of_turn>", "<end_of_turn>", "<|start|>", "<|channel|>", "<|message|>", "<|end|>",
                "<｜User｜>", "<｜Assistant｜>", "<think>", "</think>", "<tool_call>", "[INST]", "[/INST]",
                "<|turn>", "<turn|>", "<bos>", "<eos>", "<table>", "<|endoftext|>", "<|im_sta", "<|"],
    "odd": ["\u0000", "\u001b", "\u00ad", "\ue000", "\U0010fffd", "\ufffe", "\U0001d400", "\uff21\uff42",
            "ﬁ", "Å", "Å", "ⅷ", "\u0345", "ǰ", "İ", "ı"],
}


def generated(seed, n):
    rng = random.Random(seed)
    names = sorted(POOLS)
    out = []
    for i in range(n):
        parts = []
        for _ in range(rng.randint(1, 14)):
            pool = POOLS[rng.choice(names)]
            if isinstance(pool, str):
                k = rng.choice([1, 1, 2, 3, 5, 8])
                parts.append("".join(rng.choice(pool) for _ in range(k)))
            else:
                parts.append(rng.choice(pool))
            if rng.random() < 0.3:
                parts.append(" ")
        out.append("".join(parts))
    # Long runs the splitters treat specially.
    out += ["7" * 41, " " * 40 + "x", "\n" * 7 + "  x", "ABCDEFGHIJ" * 5, "abc" * 30 + "DEF" * 10,
            "Ä" * 25 + "b", "é" * 30, "'" * 9 + "s", "\t \t \n \r\n" * 6, "<|im_start|>" * 3 + "user"]
    return out


class Oracle:
    def __init__(self, path):
        global llama_cpp
        import llama_cpp

        llama_cpp.llama_backend_init()
        params = llama_cpp.llama_model_default_params()
        params.vocab_only = True
        self.model = llama_cpp.llama_model_load_from_file(path.encode(), params)
        if not self.model:
            raise RuntimeError(f"cannot load {path}")
        self.vocab = llama_cpp.llama_model_get_vocab(self.model)

    def tokenize(self, data, add_special, parse_special):
        n_max = len(data) * 2 + 16
        buf = (llama_cpp.llama_token * n_max)()
        n = llama_cpp.llama_tokenize(self.vocab, data, len(data), buf, n_max, add_special, parse_special)
        if n < 0:
            raise RuntimeError("buffer too small")
        return list(buf[:n])

    def detokenize(self, ids):
        arr = (llama_cpp.llama_token * max(1, len(ids)))(*ids)
        cap = 64 + 64 * len(ids)
        out = ctypes.create_string_buffer(cap)
        n = llama_cpp.llama_detokenize(self.vocab, arr, len(ids), out, cap, False, True)
        if n < 0:
            cap = -n
            out = ctypes.create_string_buffer(cap)
            n = llama_cpp.llama_detokenize(self.vocab, arr, len(ids), out, cap, False, True)
        return out.raw[:n]

    def piece(self, token):
        cap = 256
        out = ctypes.create_string_buffer(cap)
        n = llama_cpp.llama_token_to_piece(self.vocab, token, out, cap, 0, True)
        if n < 0:
            cap = -n
            out = ctypes.create_string_buffer(cap)
            n = llama_cpp.llama_token_to_piece(self.vocab, token, out, cap, 0, True)
        return out.raw[:n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--smollm2", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20240517)
    ap.add_argument("--generated", type=int, default=120)
    args = ap.parse_args()

    corpus_texts = {}
    with open(os.path.join(args.corpus, "tokenize.jsonl"), encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            corpus_texts.setdefault(c["vocab"], [])
            if c["text"] not in corpus_texts[c["vocab"]]:
                corpus_texts[c["vocab"]].append(c["text"])
    gen = generated(args.seed, args.generated)
    os.makedirs(args.out, exist_ok=True)
    for v in VOCABS:
        path = args.smollm2 if v == "smollm2" else os.path.join(args.corpus, v)
        o = Oracle(path)
        name = v.removesuffix(".gguf")
        lines = []
        for kind, texts, flags in (("corpus", corpus_texts[v], [(False, True)]),
                                   ("gen", gen, [(True, True), (False, False)])):
            for i, text in enumerate(texts):
                for add, parse in flags:
                    ids = o.tokenize(text.encode("utf-8"), add, parse)
                    rec = {
                        "id": f"{name}/{kind}{i}/add{int(add)}-parse{int(parse)}",
                        "text": text, "add_special": add, "parse_special": parse, "ids": ids,
                    }
                    detok = o.detokenize(ids)
                    try:
                        rec["detok"] = detok.decode("utf-8")
                    except UnicodeDecodeError:
                        rec["detok_hex"] = detok.hex()
                    if kind == "gen":
                        rec["pieces"] = [o.piece(t).hex() for t in ids]
                    lines.append(json.dumps(rec, ensure_ascii=False))
        with open(os.path.join(args.out, name + ".jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{name}: {len(lines)} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
