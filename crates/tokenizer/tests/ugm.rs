//! The Unigram (UGM, `tokenizer.ggml.model = "t5"`) tokenizer against
//! llama.cpp itself: `tests/golden/<vocab>.jsonl` (or `.jsonl.gz`), recorded by
//! `tools/tokenizer-goldens/record_libllama.py` from the libllama of
//! llama.cpp 0c1e57098, holds for every string (llama.cpp's
//! test-tokenizer-0 inputs, hand-made normalization and whitespace edge
//! cases, invalid UTF-8, special tokens, generated strings) and all four
//! (add_special, parse_special) flags the ids, `llama_detokenize` for every
//! (remove_special, unparse_special) and each `llama_token_to_piece` with
//! special on and off. Every line must match exactly.

mod common;

use tokenizer::VocabType;

fn check(golden: &str, gguf: &str) {
    let vocab = common::load_path(&common::corpus_file(gguf));
    assert_eq!(vocab.vocab_type(), VocabType::Ugm);
    common::check_libllama_golden(golden, &vocab);
}

/// nomic-embed-text-v2-moe's vocabulary, over the rich input set
/// (`--rich`: also the corpus strings and the embedding-model strings).
#[test]
fn nomic_bert_moe_matches_llama_cpp() {
    check(
        "nomic-bert-moe.jsonl.gz",
        "llama-vocab/ggml-vocab-nomic-bert-moe.gguf",
    );
}

/// Synthetic vocabularies (tools/tokenizer-goldens/make_ugm_variants.py):
/// user-defined, unused and byte tokens, the space flags off, BOS on and
/// EOS off.
#[test]
fn synthetic_a_matches_llama_cpp() {
    check("ugm-synth-a.jsonl", "llama-vocab/ugm-synth-a.gguf");
}

/// No precompiled charsmap, a space prefix without merging, and llama.cpp's
/// t5 defaults for the special tokens.
#[test]
fn synthetic_b_matches_llama_cpp() {
    check("ugm-synth-b.jsonl", "llama-vocab/ugm-synth-b.gguf");
}

/// The special ids, flags and end-of-generation set, as libllama's
/// `llama_vocab_*` getters give them for the three vocabularies (the
/// newline token is the first token of `"\n"`, or the default padding id
/// when that is empty, as `llama_vocab::impl::load` computes it).
#[test]
fn special_ids_and_flags_as_llama_cpp() {
    type Row = (
        &'static str,
        [Option<u32>; 7],
        [bool; 3],
        usize,
        &'static [u32],
    );
    let rows: [Row; 3] = [
        (
            "llama-vocab/ggml-vocab-nomic-bert-moe.gguf",
            [
                Some(0),
                Some(2),
                None,
                Some(2),
                Some(0),
                Some(1),
                Some(250001),
            ],
            [true, true, false],
            250048,
            &[2],
        ),
        (
            "llama-vocab/ugm-synth-a.gguf",
            [Some(0), Some(2), None, None, Some(6), Some(1), None],
            [true, false, false],
            6011,
            &[2],
        ),
        (
            "llama-vocab/ugm-synth-b.gguf",
            [None, Some(1), None, None, Some(6), Some(0), None],
            [false, true, false],
            6000,
            &[1, 2],
        ),
    ];
    for (gguf, ids, flags, n, eog) in rows {
        let v = common::load_path(&common::corpus_file(gguf));
        assert_eq!(
            [
                v.bos(),
                v.eos(),
                v.eot(),
                v.sep(),
                v.nl(),
                v.pad(),
                v.mask()
            ],
            ids,
            "{gguf}"
        );
        assert_eq!([v.add_bos(), v.add_eos(), v.add_sep()], flags, "{gguf}");
        assert_eq!(v.n_tokens(), n, "{gguf}");
        assert_eq!(v.eog_tokens().collect::<Vec<_>>(), eog, "{gguf}");
    }
}

/// A t5 vocabulary of four tokens with the given extra key/values.
fn tiny(extra: Vec<(&'static str, common::Kv)>) -> Result<tokenizer::Vocab, tokenizer::Error> {
    use common::Kv;
    let mut kvs = vec![
        ("tokenizer.ggml.model", Kv::Str("t5")),
        (
            "tokenizer.ggml.tokens",
            Kv::Strs(
                ["<pad>", "</s>", "<unk>", "\u{2581}a", "a", "b"]
                    .map(String::from)
                    .to_vec(),
            ),
        ),
        (
            "tokenizer.ggml.scores",
            Kv::F32s(vec![0.0, 0.0, 0.0, -1.0, -2.0, -3.0]),
        ),
        (
            "tokenizer.ggml.token_type",
            Kv::I32s(vec![3, 3, 2, 1, 1, 1]),
        ),
    ];
    kvs.extend(extra);
    tokenizer::Vocab::from_gguf_bytes(&common::gguf_bytes(&kvs))
}

/// llama.cpp's load checks on `tokenizer.ggml.precompiled_charsmap`, and
/// the t5 defaults without one (EOS 1 appended, UNK 2, a space between
/// words only where the text has one).
#[test]
fn charsmap_load_errors_and_defaults() {
    use common::Kv;
    let key = "tokenizer.ggml.precompiled_charsmap";
    let e = tiny(vec![(key, Kv::U8s(vec![1, 0]))]).unwrap_err();
    assert_eq!(
        e.message(),
        "precompiled_charsmap too small for xcda_blob_size header!"
    );
    let e = tiny(vec![(key, Kv::U8s(vec![4, 0, 0, 0, 0, 0, 0, 0]))]).unwrap_err();
    assert_eq!(
        e.message(),
        "Index out of array bounds in precompiled charsmap!"
    );
    let e = tiny(vec![(key, Kv::I32s(vec![1]))]).unwrap_err();
    assert_eq!(
        e.message(),
        "invalid gguf type for tokenizer.ggml.precompiled_charsmap"
    );
    let v = tiny(vec![]).unwrap();
    assert_eq!(v.vocab_type(), VocabType::Ugm);
    assert_eq!(v.tokenize("ab", true, false).unwrap(), vec![4, 5, 1]);
    assert_eq!(v.tokenize("a ab", false, false).unwrap(), vec![4, 3, 5]);
    assert_eq!(v.tokenize("a\u{e9}b", false, false).unwrap(), vec![4, 2, 5]);
    assert_eq!(v.tokenize("\u{e9}\u{e9}", false, false).unwrap(), vec![2]);
}

/// `llama_token_to_piece(.., lstrip 0, special)` for tokens of every type
/// of ugm-synth-a, as libllama gives them: CONTROL and UNKNOWN only with
/// `special`, USER_DEFINED as written (`▁` kept), NORMAL with `▁` as a
/// space, BYTE as its byte, UNUSED empty; an id past the end is `None`
/// (llama.cpp throws `std::out_of_range`).
#[test]
fn pieces_of_every_token_type() {
    let v = common::load_path(&common::corpus_file("llama-vocab/ugm-synth-a.gguf"));
    let want: &[(u32, &str, &str)] = &[
        (0, "3c733e", ""),
        (1, "3c7061643e", ""),
        (2, "3c2f733e", ""),
        (3, "3c756e6b3e", ""),
        (4, "2c", "2c"),
        (6, "20", "20"),
        (7, "73", "73"),
        (2055, "6162", "6162"),
        (6000, "3c6d61736b3e", "3c6d61736b3e"),
        (6001, "4040757365724040", "4040757365724040"),
        (6002, "e29681637573746f6d", "e29681637573746f6d"),
        (6003, "656c6c", "656c6c"),
        (6004, "e2968148656c6c6f", "e2968148656c6c6f"),
        (6005, "", ""),
        (6006, "", ""),
        (6007, "41", "41"),
        (6008, "0a", "0a"),
        (6009, "7871", ""),
        (6010, "2020", "2020"),
    ];
    for &(id, special, plain) in want {
        assert_eq!(
            v.token_to_piece(id, 0, true).unwrap(),
            common::unhex(special),
            "{id}"
        );
        assert_eq!(
            v.token_to_piece(id, 0, false).unwrap(),
            common::unhex(plain),
            "{id}"
        );
    }
    assert_eq!(v.token_to_piece(6011, 0, true), None);
}
