//! llama.cpp's own vocabularies (`models/ggml-vocab-*.gguf` of the
//! llama-cpp-python 0.3.36 sdist) against goldens recorded from its built
//! libllama by `tools/tokenizer-goldens/record_libllama.py`: every
//! test-tokenizer-0 input of `models/*.inp`, the recorder's hand-made edge
//! cases, invalid UTF-8 and generated strings, with all four
//! (add_special, parse_special) flags; for each, the ids, `llama_detokenize`
//! for every (remove_special, unparse_special) and each
//! `llama_token_to_piece` with special on and off. The UGM vocabulary
//! (nomic-bert-moe) is checked in `ugm.rs`.

mod common;

use tokenizer::VocabType;

fn check(name: &str, want: VocabType) {
    let gguf = common::corpus_file(&format!("llama-vocab/ggml-vocab-{name}.gguf"));
    let vocab = common::load_path(&gguf);
    assert_eq!(vocab.vocab_type(), want, "{name}");
    common::check_libllama_golden(&format!("{name}.jsonl.gz"), &vocab);
}

/// The vocabularies without a test-tokenizer-0 `.inp`/`.out`: Aquila (BPE,
/// no `tokenizer.ggml.pre`, so llama.cpp's default pre-tokenizer, with
/// scores), Baichuan (SPM) and GPT-NeoX (BPE, no `tokenizer.ggml.pre`: the
/// tokens and merges of `ggml-vocab-mpt.gguf` under the default
/// pre-tokenizer).
#[test]
fn aquila_matches_llama_cpp() {
    check("aquila", VocabType::Bpe);
}

#[test]
fn baichuan_matches_llama_cpp() {
    check("baichuan", VocabType::Spm);
}

#[test]
fn gpt_neox_matches_llama_cpp() {
    check("gpt-neox", VocabType::Bpe);
}

/// The three vocabularies that llama_vocab.rs checks on their few
/// test-tokenizer-0 inputs, over the recorder's wider set.
#[test]
fn command_r_deepseek_llm_qwen35_match_llama_cpp() {
    for name in ["command-r", "deepseek-llm", "qwen35"] {
        check(name, VocabType::Bpe);
    }
}

/// BAAI bge's WordPiece vocabulary, over the rich input set (`--rich`: also
/// every string of `tests/corpus/tokenizer/tokenize.jsonl` and the
/// embedding-model strings: sentences in 40 languages, accents, CJK
/// punctuation, emoji, whitespace runs, long words, `[CLS]`-like text).
#[test]
fn bert_bge_matches_llama_cpp() {
    let gguf = common::corpus_file("llama-vocab/ggml-vocab-bert-bge.gguf");
    let vocab = common::load_path(&gguf);
    assert_eq!(vocab.vocab_type(), VocabType::Wpm);
    common::check_libllama_golden("bert-bge.jsonl.gz", &vocab);
}

/// `~` in the deepseek-v3 pre-tokenizer's `\p{S}` (row
/// `unicode_symbol_tilde`): the corpus's DeepSeek V3 vocabulary over
/// strings with `~` before symbols and spaces (and every string of
/// record_libllama.py's own set), recorded from libllama at b11312
/// (`deepseek3-tilde.jsonl`) and at b10488 (`deepseek3-tilde-b10488.jsonl`;
/// 36 of the 1,512 lines differ: `x ~= y` is `x`, ` ~=`, ` y` at b11312 and
/// `x`, ` `, `~`, `=`, ` y` at b10488).
#[test]
fn deepseek3_tilde_at_each_build() {
    let gguf = common::corpus_file("deepseek3.gguf");
    for (golden, build) in [
        ("deepseek3-tilde.jsonl.gz", changes::Build::B11312),
        ("deepseek3-tilde-b10488.jsonl.gz", changes::Build::B10488),
    ] {
        let vocab = common::load_path_at(&gguf, build);
        assert_eq!(vocab.build(), build);
        common::check_libllama_golden(golden, &vocab);
        assert!(vocab
            .build_rules_applied()
            .iter()
            .any(|c| c.id == "unicode_symbol_tilde"));
    }
}
