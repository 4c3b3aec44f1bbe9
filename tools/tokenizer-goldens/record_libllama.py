#!/usr/bin/env python3
"""Record llama.cpp's tokenizer output straight from a built libllama.

Where llama-cpp-python is not installed (record.py needs it), this calls the
libllama of the llama.cpp build it vendors (0c1e57098, the same commit)
through ctypes. shim.c, compiled on the fly with the system C compiler
against include/llama.h, loads the vocabulary with ``vocab_only = true``;
everything else is the public C API:

- ``ids``: llama_tokenize(vocab, text, add_special, parse_special);
- ``detok`` (or ``detok_hex`` when not valid UTF-8):
  llama_detokenize(vocab, ids, remove_special=false, unparse_special=true);
- ``detok_variants``: the hex of llama_detokenize for (remove_special,
  unparse_special) = (0,0), (1,0), (1,1);
- ``pieces`` / ``pieces_plain``: llama_token_to_piece(vocab, id, lstrip=0,
  special=true / false) per id, as hex.

Strings: every input of llama.cpp's own test-tokenizer-0 files
(models/*.inp), hand-made edge cases for UGM's normalization (whitespace
runs, the precompiled charsmap's full-width forms, ligatures, compatibility
characters, emoji, unknown characters, special tokens, invalid UTF-8 given
as ``text_hex``) and record.py's generated strings; with ``--rich
TOKENIZE_JSONL`` then every distinct text of the corpus' tokenize.jsonl and
the EMBED strings (what embedding models are fed). Each string is recorded
with all four (add_special, parse_special) flags.

Usage (from the repository root):

    python3 tools/tokenizer-goldens/record_libllama.py \
        --llama-cpp /root/.cache/promptscope/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp \
        --vocab nomic-bert-moe=$HOME/.cache/promptscope/upstream/llama.cpp-b11312/models/ggml-vocab-nomic-bert-moe.gguf \
        --out crates/tokenizer/tests/golden

Writes <out>/<name>.jsonl for every --vocab NAME=PATH.
"""
import argparse
import atexit
import ctypes
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record import generated  # noqa: E402

EDGE = [
    "", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \t\n ", "a", " a", "a ", " a ", "  a  b   c  ",
    "Hello World", " Hello World", "Hello  World", "Hello\tWorld\n", "Hello\u00a0World", "Hello\u3000World",
    "Hello\u2003World", "trailing   ", "   leading", "\u3000\u3000x\u3000\u3000",
    # full-width and half-width forms (NFKC in the charsmap)
    "ＡＢＣ１２３ｆｕｌｌｗｉｄｔｈ", "Ｈｅｌｌｏ，　Ｗｏｒｌｄ！", "ｶﾀｶﾅ ﾊﾝｶｸ", "ｱｲｳｴｵ",
    # ligatures and compatibility characters
    "ﬁﬂﬀﬃﬄ office", "ﬁnance", "Æsop œuvre", "① ② ⑩ ⑳", "㍿ ㌔ ㎏ ㎞", "™ ℃ ℉ №", "½ ¼ ¾ ²³",
    "Ⅻ ⅷ ⅰ", "… ‥", "ℌℍℎ", "𝐀𝐁𝐂 𝒶𝒷", "ǅ ǈ ǋ",
    # composed vs decomposed
    "Å Å Å", "é é", "ñ ñ", "가 가", "ﾞ ﾟ",
    # emoji
    "😀", "😀👍🏽👩‍💻", "🇫🇷🇩🇪", "1️⃣ ❤️ ✨ 🤖", "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
    # scripts, unknown and odd characters
    "中文字日本語的一是不了人", "한국어 안녕하세요", "العربية עברית", "हिन्दी தமிழ் ภาษาไทย", "𓀀𓀁 𐍈",
    "\ue000\uf8ff", "\U0010fffd", "\ufffd", "\ufeffBOM", "zero\u200bwidth\u200djoiner", "soft\u00adhyphen",
    "x\u0000y", "\u0000", "\u0001\u0002\u001b", "\u0085\u2028\u2029", "\u000b\u000c",
    "▁", "▁▁hello", "▁ ▁", "a▁b",
    # special tokens (with and without parse_special)
    "<s>", "</s>", "<unk>", "<pad>", "<mask>", "<s>hello</s>", "<s> hello </s>", "a<mask>b", "a <mask> b",
    "<mas", "<s><s>", "</s></s>x", "<pad><unk>", "<|endoftext|>", "[CLS] [SEP] [MASK]",
    # misc
    "I'm don't we'll", "https://example.com/a?b=c&d=e", "def f(x):\n    return x**2\n",
    "a" * 60, "ab" * 40, "1234567890" * 4, " " * 30 + "x" + " " * 30, "The  quick\n\n\nbrown   fox",
    "Ünïcödé tëxt", "straße STRASSE", "İstanbul ıi",
    # user-defined, unused, unknown-typed and byte tokens of ugm-synth-a
    "x@@user@@y", "@@use", "@@user@@@@user@@", "ab abc cab", "hello ell bell", "Hello World ▁Hello", " ▁custom",
    "<unused0>zzq xq", "A\nB", "ＡＢ ａｂ", "ab\u3000ab", "  @@user@@  ",
]

# With --rich: what embedding models are fed (queries and passages in many
# languages, their instruction prefixes), accents that BERT-style
# normalizers strip, CJK and its punctuation, punctuation runs, emoji,
# whitespace runs, long words, and text that looks like a special token.
EMBED = [
    # embedding prefixes and sentences
    "search_query: What is TSNE?", "search_document: TSNE is a dimensionality reduction algorithm",
    "query: how much protein should a female eat", "passage: As a general guideline, the CDC's average requirement",
    "Represent this sentence for searching relevant passages: Who wrote Hamlet?",
    "The cat sat on the mat.", "the cat sat on the mat", "THE CAT SAT ON THE MAT", "The Cat Sat On The Mat",
    "Paris is the capital of France.", "Berlin ist die Hauptstadt von Deutschland.",
    "Madrid es la capital de España.", "Roma è la capitale d'Italia.", "Lisboa é a capital de Portugal.",
    "Warszawa jest stolicą Polski.", "Ankara Türkiye'nin başkentidir.", "Hà Nội là thủ đô của Việt Nam.",
    "Москва — столица России.", "Київ — столиця України.", "Αθήνα είναι η πρωτεύουσα της Ελλάδας.",
    "القاهرة هي عاصمة مصر.", "ירושלים היא בירת ישראל.", "تهران پایتخت ایران است.",
    "नई दिल्ली भारत की राजधानी है।", "ঢাকা বাংলাদেশের রাজধানী।", "சென்னை தமிழ்நாட்டின் தலைநகரம்.",
    "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย", "ភ្នំពេញជារាជធានីនៃប្រទេសកម្ពុជា",
    "နေပြည်တော်သည် မြန်မာနိုင်ငံ၏ မြို့တော်ဖြစ်သည်။",
    "Երևանը Հայաստանի մայրաքաղաքն է։", "თბილისი საქართველოს დედაქალაქია.", "አዲስ አበባ የኢትዮጵያ ዋና ከተማ ናት።",
    "Nairobi ni mji mkuu wa Kenya.", "Reykjavík er höfuðborg Íslands.", "Helsinki on Suomen pääkaupunki.",
    "Budapest Magyarország fővárosa.", "Praha je hlavní město České republiky.", "București este capitala României.",
    "北京是中国的首都。", "東京は日本の首都です。", "서울은 대한민국의 수도입니다.", "台北是臺灣的首都。",
    "Xin chào, tôi tên là Nguyễn Văn Anh.", "Jakarta adalah ibu kota Indonesia.",
    "Kuala Lumpur ialah ibu negara Malaysia.",
    # accents and case (lowercasing, accent stripping, NFD)
    "Café", "CAFÉ", "café", "cafe\u0301", "ÉCOLE", "École élémentaire", "naïve façade", "Ångström", "Ærø Øresund",
    "Đà Nẵng", "Łódź Żółć", "Crème brûlée à la française", "Über Größe", "ĲSSELMEER ĳs", "Ǆemal ǅ ǆ",
    "ΆΈΉΊΌΎΏ άέήίόύώ", "ŞİŞLİ şişli", "Ñandú ñ", "Ça va?", "İ i\u0307 I ı", "ẞ ß", "Ḿ ḿ Ṁ", "ǖǘǚǜ",
    "a\u0308\u0301\u0323",
    # CJK and its punctuation
    "你好，世界！", "「こんにちは」と言った。", "『吾輩は猫である』", "【重要】お知らせ", "一、二、三。", "价格：１００元",
    "𠀀𠀁𠀂 𪚥", "豈更車賈", "ｈｔｔｐ：／／ｅｘａｍｐｌｅ．ｃｏｍ", "中文English混合text测试", "日本語とEnglishの混在",
    "한국어English혼합", "漢字かなカナ", "〜～・ー", "㊗️㊙️", "（括弧）［角括弧］｛波括弧｝",
    # punctuation
    "Hello,world!", "a.b.c", "...", "?!?!", "«quote» „Anführung“ “smart” ‘single’", "—dash– -hyphen- ‐‑‒",
    "¿Qué? ¡Hola!", "#hashtag @mention", "email@example.com", "C++ & C# | F#", "$100.00 €50,00 £3 ¥1000",
    "50% 3/4 1,000,000", "(a)[b]{c}<d>", "a--b---c", "x__y__z", "'''\"\"\"", "¶§†‡•", "..,,;;::!!", "~!@#$%^&*()_+",
    "https://www.example.com/path/to/page?query=value&x=1#frag", "C:\\Users\\name\\file.txt", "1.2.3.4:8080",
    # emoji
    "I love it ❤️", "👍👍👍", "👨‍👩‍👧‍👦 family", "🏳️‍🌈 🏳️‍⚧️", "👋🏻👋🏼👋🏽👋🏾👋🏿", "☺︎ ☺️", "#️⃣*️⃣", "🧑‍🚀🚀🌕",
    "🫠🫡🫶", "😂😂😂 lol", "©®™",
    # whitespace runs
    "a  b", "a   b", "a\t\tb", "a\n\n\nb", " " * 10, "\t" * 5, "\n" * 5, " \n " * 4, "x" + " " * 50 + "y",
    "\u3000" * 3, "\u00a0\u00a0x", "a\r\nb\r\nc", "  leading and trailing  ", "\n\nparagraph one\n\nparagraph two\n",
    # long words
    "pneumonoultramicroscopicsilicovolcanoconiosis", "Donaudampfschifffahrtsgesellschaftskapitän",
    "antidisestablishmentarianism", "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
    "supercalifragilisticexpialidocious" * 3, "x" * 99, "y" * 100, "z" * 101, "ab" * 150, "é" * 120,
    "中" * 120, "1" * 120, "HelloWorldThisIsCamelCaseText", "snake_case_identifier_name", "kebab-case-word-here",
    # special-token-looking text
    "[CLS]", "[SEP]", "[MASK]", "[UNK]", "[PAD]", "[cls]", "[ CLS ]", "[CLS][SEP]", "[CLS] hello [SEP]",
    "[CLS]hello[SEP]world[SEP]", "the [MASK] sat", "the[MASK]sat", "[MASK][MASK]", "[UNK]nown", "[CLS",
    "CLS]", "<S>", "< s >", "<s", "s>", "<mask>ed", "the <mask> sat", "<pad><pad>", "</s><s>",
    "<s>search_query: hi</s>", "##ing", "##", "un##able", "<0x41>", "<extra_id_0>", "<|endoftext|>x", "<unused0>",
    "[unused1]", "\u2581hello \u2581\u2581", "<|im_start|>user", "<｜begin▁of▁sentence｜>",
]

EDGE_BYTES = [b"\xff", b"a\xc3", b"\xe2\x82", b"abc\x80def", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80x",
              b"\xf8\x88\x80\x80\x80", b" \xfe "]


def llama_inputs(models):
    sep = "\n__ggml_vocab_test__\n"
    out = []
    for path in sorted(glob.glob(os.path.join(models, "*.inp"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        parts = text.split(sep)
        if parts and parts[-1] == "":
            parts.pop()
        for p in parts:
            # read_tests keeps the trailing newline of the last input
            if p not in out:
                out.append(p)
    return out


class Lib:
    def __init__(self, llama_cpp_dir):
        bindir = os.path.join(llama_cpp_dir, "build", "bin")
        self.tmp = tempfile.mkdtemp(prefix="ps-shim-")
        atexit.register(shutil.rmtree, self.tmp, True)
        so = os.path.join(self.tmp, "shim.so")
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim.c")
        subprocess.check_call([
            "cc", "-shared", "-fPIC", "-O1", "-o", so, src,
            "-I" + os.path.join(llama_cpp_dir, "include"), "-I" + os.path.join(llama_cpp_dir, "ggml", "include"),
            "-L" + bindir, "-lllama", "-lggml", "-lggml-base", "-Wl,-rpath," + bindir])
        self.shim = ctypes.CDLL(so)
        self.llama = ctypes.CDLL(os.path.join(bindir, "libllama.so"))
        self.shim.ps_load_vocab.restype = ctypes.c_void_p
        self.shim.ps_load_vocab.argtypes = [ctypes.c_char_p]
        L = self.llama
        L.llama_tokenize.restype = ctypes.c_int32
        L.llama_tokenize.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32,
                                     ctypes.POINTER(ctypes.c_int32), ctypes.c_int32, ctypes.c_bool, ctypes.c_bool]
        L.llama_detokenize.restype = ctypes.c_int32
        L.llama_detokenize.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32), ctypes.c_int32,
                                       ctypes.c_char_p, ctypes.c_int32, ctypes.c_bool, ctypes.c_bool]
        L.llama_token_to_piece.restype = ctypes.c_int32
        L.llama_token_to_piece.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_int32,
                                           ctypes.c_int32, ctypes.c_bool]


class Oracle:
    def __init__(self, lib, path):
        self.L = lib.llama
        self.vocab = lib.shim.ps_load_vocab(path.encode())
        if not self.vocab:
            raise RuntimeError(f"cannot load {path}")

    def tokenize(self, data, add_special, parse_special):
        n_max = len(data) * 4 + 16
        buf = (ctypes.c_int32 * n_max)()
        n = self.L.llama_tokenize(self.vocab, data, len(data), buf, n_max, add_special, parse_special)
        if n < 0:
            raise RuntimeError("buffer too small")
        return list(buf[:n])

    def detokenize(self, ids, remove_special, unparse_special):
        arr = (ctypes.c_int32 * max(1, len(ids)))(*ids)
        cap = 64 + 64 * len(ids)
        out = ctypes.create_string_buffer(cap)
        n = self.L.llama_detokenize(self.vocab, arr, len(ids), out, cap, remove_special, unparse_special)
        if n < 0:
            cap = -n
            out = ctypes.create_string_buffer(cap)
            n = self.L.llama_detokenize(self.vocab, arr, len(ids), out, cap, remove_special, unparse_special)
        return out.raw[:n]

    def piece(self, token, special):
        cap = 256
        out = ctypes.create_string_buffer(cap)
        n = self.L.llama_token_to_piece(self.vocab, token, out, cap, 0, special)
        if n < 0:
            cap = -n
            out = ctypes.create_string_buffer(cap)
            n = self.L.llama_token_to_piece(self.vocab, token, out, cap, 0, special)
        return out.raw[:n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp source dir with build/bin/libllama.so")
    ap.add_argument("--vocab", action="append", required=True, help="NAME=PATH.gguf")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20240517)
    ap.add_argument("--generated", type=int, default=60)
    ap.add_argument("--rich", metavar="TOKENIZE_JSONL",
                    help="also record every distinct text of this tokenize.jsonl, then the EMBED strings")
    args = ap.parse_args()

    lib = Lib(args.llama_cpp)
    texts = [("llama", t.encode("utf-8")) for t in llama_inputs(os.path.join(args.llama_cpp, "models"))]
    texts += [("edge", t.encode("utf-8")) for t in EDGE]
    texts += [("bytes", b) for b in EDGE_BYTES]
    texts += [("gen", t.encode("utf-8")) for t in generated(args.seed, args.generated)]
    if args.rich:
        corpus = []
        with open(args.rich, encoding="utf-8") as f:
            for line in f:
                t = json.loads(line)["text"]
                if t not in corpus:
                    corpus.append(t)
        texts += [("corpus", t.encode("utf-8")) for t in corpus]
        texts += [("embed", t.encode("utf-8")) for t in EMBED]
    os.makedirs(args.out, exist_ok=True)
    for spec in args.vocab:
        name, path = spec.split("=", 1)
        o = Oracle(lib, path)
        lines = []
        counters = {}
        for kind, data in texts:
            i = counters.get(kind, 0)
            counters[kind] = i + 1
            for add in (False, True):
                for parse in (False, True):
                    ids = o.tokenize(data, add, parse)
                    rec = {"id": f"{name}/{kind}{i}/add{int(add)}-parse{int(parse)}"}
                    try:
                        rec["text"] = data.decode("utf-8")
                    except UnicodeDecodeError:
                        rec["text_hex"] = data.hex()
                    rec.update({"add_special": add, "parse_special": parse, "ids": ids})
                    detok = o.detokenize(ids, False, True)
                    try:
                        rec["detok"] = detok.decode("utf-8")
                    except UnicodeDecodeError:
                        rec["detok_hex"] = detok.hex()
                    rec["detok_variants"] = {f"{int(r)}{int(u)}": o.detokenize(ids, r, u).hex()
                                             for r, u in ((False, False), (True, False), (True, True))}
                    rec["pieces"] = [o.piece(t, True).hex() for t in ids]
                    rec["pieces_plain"] = [o.piece(t, False).hex() for t in ids]
                    lines.append(json.dumps(rec, ensure_ascii=False))
        with open(os.path.join(args.out, name + ".jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{name}: {len(lines)} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
