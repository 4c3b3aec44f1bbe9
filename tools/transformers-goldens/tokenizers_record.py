"""Builds five small tokenizer.json files of different model types with
Hugging Face `tokenizers` (trained here on our own text), and records the
token ids `tokenizers` gives for a set of texts, with and without special
tokens: tests/corpus/hf-tokenizer/*.json and ids.jsonl.

    v/bin/python tokenizers_record.py

Each ids.jsonl line: {"tokenizer", "text", "add_special_tokens", "ids"}.
"""
import json
import os

import tokenizers
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers, Regex

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../tests/corpus/hf-tokenizer")

CORPUS = """Promptscope shows the exact prompt a runtime builds from a conversation.
It counts tokens the way each runtime counts them, and it names where two runtimes part.
The quick brown fox jumps over the lazy dog; 1234567890 and 3.14159 are numbers.
Ollama, llama.cpp and transformers render chat templates: Jinja, Go templates, Python.
    Indented code: def f(x):\\n        return x ** 2  # squares
naïve café résumé — “quotes” ‘single’ … ellipsis; Zürich, São Paulo, Kraków.
日本語のテキストも少し。中文文本也有一点。한국어 텍스트.  Emoji: 🙂🚀✨ and symbols ~!@#$%^&*()
The user asked: "What is the weather in Paris?" The assistant answered: "It is sunny."
<think>reasoning goes here</think> tool calls look like {"name": "get_weather", "arguments": {"city": "Rome"}}
""" * 4

SPECIALS = ["<|im_start|>", "<|im_end|>", "<|endoftext|>"]


def byte_level_bpe():
    t = Tokenizer(models.BPE())
    t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    t.decoder = decoders.ByteLevel()
    t.post_processor = processors.ByteLevel(trim_offsets=False)
    t.train_from_iterator([CORPUS], trainers.BpeTrainer(vocab_size=600, special_tokens=SPECIALS,
                                                          initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return t


def split_regex_bpe():
    split = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
             r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
    t = Tokenizer(models.BPE(ignore_merges=True))
    t.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(split), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    t.decoder = decoders.ByteLevel()
    t.train_from_iterator([CORPUS], trainers.BpeTrainer(vocab_size=700, special_tokens=["<|begin_of_text|>", "<|eot_id|>"],
                                                          initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    t.post_processor = processors.TemplateProcessing(
        single="<|begin_of_text|> $A", pair="<|begin_of_text|> $A <|begin_of_text|> $B",
        special_tokens=[("<|begin_of_text|>", t.token_to_id("<|begin_of_text|>"))])
    return t


def sentencepiece_bpe():
    t = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    t.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    t.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    specials = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)]
    t.train_from_iterator([CORPUS], trainers.BpeTrainer(vocab_size=900, special_tokens=specials))
    t.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", t.token_to_id("<s>"))])
    return t


def wordpiece():
    t = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    t.normalizer = normalizers.BertNormalizer(lowercase=True)
    t.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    t.decoder = decoders.WordPiece()
    t.train_from_iterator([CORPUS], trainers.WordPieceTrainer(vocab_size=500, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    t.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", t.token_to_id("[CLS]")), ("[SEP]", t.token_to_id("[SEP]"))])
    return t


def unigram():
    t = Tokenizer(models.Unigram())
    t.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")])
    t.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    t.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    t.train_from_iterator([CORPUS], trainers.UnigramTrainer(vocab_size=400, special_tokens=["<pad>", "</s>", "<unk>"], unk_token="<unk>"))
    t.post_processor = processors.TemplateProcessing(
        single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", t.token_to_id("</s>"))])
    return t


TOKENIZERS = {
    "byte-level-bpe": byte_level_bpe,
    "split-regex-bpe": split_regex_bpe,
    "sentencepiece-bpe": sentencepiece_bpe,
    "wordpiece": wordpiece,
    "unigram": unigram,
}

TEXTS = [
    "Hello world",
    "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n",
    "  leading spaces, trailing spaces   ",
    "Numbers: 1234567890, 3.14159, -42",
    "naïve café résumé — “quotes” …",
    "日本語のテキスト、中文文本、한국어",
    "Emoji 🙂🚀✨ and unseen 🦀🧪",
    "tabs\tand\nnewlines\r\nand\n\n\nblank lines",
    "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}",
    "<think>reasoning</think>It is sunny.",
    "UPPER lower MiXeD can't won't I'm we'll they'd",
    "",
    "ﬁ ligature ① circled Ａ fullwidth",
    "Ωmega ß straße İstanbul",
    "[CLS] literal markers [SEP] <s> </s> <unk>",
]


def main():
    assert tokenizers.__version__ == "0.23.3", tokenizers.__version__
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "ids.jsonl"), "w", encoding="utf-8") as ids:
        for name, build in TOKENIZERS.items():
            t = build()
            path = os.path.join(OUT, f"{name}.json")
            t.save(path)
            t = Tokenizer.from_file(path)
            for text in TEXTS:
                for special in (False, True):
                    row = {"tokenizer": name, "text": text, "add_special_tokens": special,
                           "ids": t.encode(text, add_special_tokens=special).ids}
                    ids.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
