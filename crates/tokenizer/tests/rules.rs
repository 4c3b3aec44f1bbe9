//! Load-time rules on small hand-made vocabularies: the unknown-pre error,
//! BOS/EOS defaults per type and their GGUF overrides, attribute fixes.

mod common;

use common::{gguf_bytes, Kv};
use tokenizer::{ErrorKind, TokenAttr, Vocab, VocabType};

/// A tiny byte-level BPE vocabulary: the 256 byte tokens, a few merges and
/// some special tokens.
fn bpe(extra: Vec<(&'static str, Kv)>) -> Result<Vocab, tokenizer::Error> {
    let mut tokens: Vec<String> = (0u32..256)
        .map(|b| {
            let c = match b {
                0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF => b,
                _ => 0,
            };
            if c != 0 {
                char::from_u32(c).unwrap().to_string()
            } else {
                String::new()
            }
        })
        .collect();
    // fill the GPT-2 mapped code points for non-printable bytes
    let mut n = 0;
    for (b, t) in tokens.iter_mut().enumerate() {
        if t.is_empty() {
            let _ = b;
            *t = char::from_u32(256 + n).unwrap().to_string();
            n += 1;
        }
    }
    let mut types = vec![1i32; 256];
    for (t, ty) in [
        ("he", 1),
        ("ll", 1),
        ("hell", 1),
        ("hello", 1),
        ("<s>", 3),
        ("</s>", 3),
        ("<|eot_id|>", 1),
        ("<tool>", 4),
    ] {
        tokens.push(t.to_string());
        types.push(ty);
    }
    let merges: Vec<String> = ["h e", "l l", "he ll", "hell o"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut kvs = vec![
        ("general.architecture", Kv::Str("llama")),
        ("tokenizer.ggml.model", Kv::Str("gpt2")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(types)),
        ("tokenizer.ggml.merges", Kv::Strs(merges)),
    ];
    for (k, v) in extra {
        kvs.retain(|(key, _)| *key != k);
        kvs.push((k, v));
    }
    Vocab::from_gguf_bytes(&gguf_bytes(&kvs))
}

/// A tiny SPM vocabulary with byte fallback.
fn spm(extra: Vec<(&'static str, Kv)>) -> Result<Vocab, tokenizer::Error> {
    let mut tokens = vec!["<unk>".to_string(), "<s>".to_string(), "</s>".to_string()];
    let mut types = vec![2, 3, 3];
    let mut scores = vec![0.0f32, 0.0, 0.0];
    for b in 0..256 {
        tokens.push(format!("<0x{b:02X}>"));
        types.push(6);
        scores.push(0.0);
    }
    for (i, t) in ["▁", "h", "i", "▁h", "▁hi"].iter().enumerate() {
        tokens.push(t.to_string());
        types.push(1);
        scores.push(-(i as f32));
    }
    tokens.push("<|endoftext|>".to_string());
    types.push(3);
    scores.push(0.0);
    let mut kvs = vec![
        ("tokenizer.ggml.model", Kv::Str("llama")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(types)),
        ("tokenizer.ggml.scores", Kv::F32s(scores)),
    ];
    for (k, v) in extra {
        kvs.retain(|(key, _)| *key != k);
        kvs.push((k, v));
    }
    Vocab::from_gguf_bytes(&gguf_bytes(&kvs))
}

#[test]
fn unknown_pre_is_llama_cpp_load_error() {
    let e = bpe(vec![("tokenizer.ggml.pre", Kv::Str("nonesuch"))]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Load);
    assert_eq!(e.to_string(), "unknown pre-tokenizer type: 'nonesuch'");
    assert_eq!(
        e.llama_log_line(),
        "error loading model: error loading model vocabulary: unknown pre-tokenizer type: 'nonesuch'"
    );
}

#[test]
fn unknown_model_and_wrong_types() {
    let e = bpe(vec![("tokenizer.ggml.model", Kv::Str("sentencepiece"))]).unwrap_err();
    assert_eq!(e.to_string(), "unknown tokenizer: 'sentencepiece'");
    let e = bpe(vec![("tokenizer.ggml.model", Kv::Str("rwkv"))]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let e = bpe(vec![("tokenizer.ggml.bos_token_id", Kv::I32(3))]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "key tokenizer.ggml.bos_token_id has wrong type i32 but expected type u32"
    );
    let e = bpe(vec![("tokenizer.ggml.merges", Kv::I32s(vec![1]))]).unwrap_err();
    assert_eq!(e.to_string(), "invalid gguf type for tokenizer.ggml.merges");
}

#[test]
fn missing_or_empty_pre_is_default() {
    let v = bpe(vec![]).unwrap();
    assert_eq!(v.pre_type(), tokenizer::PreType::Default);
    let v = bpe(vec![("tokenizer.ggml.pre", Kv::Str(""))]).unwrap();
    assert_eq!(v.pre_type(), tokenizer::PreType::Default);
}

#[test]
fn bpe_bos_eos_defaults_and_overrides() {
    // BPE: no BOS by default; the default BOS/EOS id is 11.
    let v = bpe(vec![("tokenizer.ggml.pre", Kv::Str("gpt-2"))]).unwrap();
    assert_eq!(v.vocab_type(), VocabType::Bpe);
    assert!(!v.add_bos() && !v.add_eos());
    assert_eq!((v.bos(), v.eos()), (Some(11), Some(11)));
    assert_eq!(v.tokenize("hello", true, true).unwrap(), vec![259]);

    // The llama3 group adds BOS.
    let v = bpe(vec![
        ("tokenizer.ggml.pre", Kv::Str("llama-bpe")),
        ("tokenizer.ggml.bos_token_id", Kv::U32(260)),
    ])
    .unwrap();
    assert!(v.add_bos());
    assert_eq!(v.tokenize("hello", true, true).unwrap(), vec![260, 259]);
    assert_eq!(v.tokenize("hello", false, true).unwrap(), vec![259]);
    // A prompt already starting with BOS gets a second one.
    assert_eq!(
        v.tokenize("<s>hello", true, true).unwrap(),
        vec![260, 260, 259]
    );

    // GGUF keys override: no BOS, EOS added.
    let v = bpe(vec![
        ("tokenizer.ggml.pre", Kv::Str("llama-bpe")),
        ("tokenizer.ggml.bos_token_id", Kv::U32(260)),
        ("tokenizer.ggml.eos_token_id", Kv::U32(261)),
        ("tokenizer.ggml.add_bos_token", Kv::Bool(false)),
        ("tokenizer.ggml.add_eos_token", Kv::Bool(true)),
    ])
    .unwrap();
    assert_eq!(v.tokenize("hello", true, true).unwrap(), vec![259, 261]);

    // An out-of-range id in the file keeps the default.
    let v = bpe(vec![("tokenizer.ggml.bos_token_id", Kv::U32(1_000_000))]).unwrap();
    assert_eq!(v.bos(), Some(11));

    // chatglm-bpe nulls BOS: asking for it is llama.cpp's assertion.
    let v = bpe(vec![
        ("tokenizer.ggml.pre", Kv::Str("chatglm-bpe")),
        ("tokenizer.ggml.add_bos_token", Kv::Bool(true)),
    ])
    .unwrap();
    assert_eq!(v.bos(), None);
    let e = v.tokenize("hello", true, true).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Tokenize);
}

#[test]
fn gemma4_forces_add_bos() {
    let v = bpe(vec![
        ("tokenizer.ggml.model", Kv::Str("gemma4")),
        ("tokenizer.ggml.bos_token_id", Kv::U32(260)),
        ("tokenizer.ggml.add_bos_token", Kv::Bool(false)),
    ])
    .unwrap();
    assert_eq!(v.pre(), "gemma4");
    assert!(v.add_bos());
    assert_eq!(v.tokenize("hello", true, true).unwrap()[0], 260);
}

#[test]
fn spm_defaults_space_prefix_and_bytes() {
    let v = spm(vec![]).unwrap();
    assert_eq!(v.vocab_type(), VocabType::Spm);
    assert!(v.add_bos() && !v.add_eos() && v.add_space_prefix());
    assert_eq!((v.bos(), v.eos(), v.unk()), (Some(1), Some(2), Some(0)));
    // "hi" -> "▁hi" with BOS; "x" falls back to bytes.
    assert_eq!(v.tokenize("hi", true, true).unwrap(), vec![1, 263]);
    assert_eq!(
        v.tokenize("hix", false, true).unwrap(),
        vec![263, 3 + b'x' as u32]
    );
    // After a special token the next fragment gets a space prefix again.
    assert_eq!(
        v.tokenize("hi</s>hi", false, true).unwrap(),
        vec![263, 2, 263]
    );
    // Without parse_special, "</s>" is text.
    assert_ne!(
        v.tokenize("hi</s>hi", false, false).unwrap(),
        vec![263, 2, 263]
    );
    let v = spm(vec![
        ("tokenizer.ggml.add_eos_token", Kv::Bool(true)),
        ("tokenizer.ggml.add_space_prefix", Kv::Bool(false)),
    ])
    .unwrap();
    assert_eq!(v.tokenize("hi", true, true).unwrap(), vec![1, 260, 261, 2]);
}

#[test]
fn user_defined_tokens_split_without_parse_special() {
    let v = bpe(vec![("tokenizer.ggml.pre", Kv::Str("gpt-2"))]).unwrap();
    let tool = v.text_to_token(b"<tool>").unwrap();
    let s = v.text_to_token(b"<s>").unwrap();
    assert!(v
        .tokenize("a<tool>b", false, false)
        .unwrap()
        .contains(&tool));
    assert!(!v.tokenize("a<s>b", false, false).unwrap().contains(&s));
    assert!(v.tokenize("a<s>b", false, true).unwrap().contains(&s));
}

#[test]
fn attributes_forced_by_text() {
    // "<|eot_id|>" is NORMAL in the file; llama.cpp makes it CONTROL and EOG.
    let v = bpe(vec![]).unwrap();
    let eot = v.text_to_token(b"<|eot_id|>").unwrap();
    assert!(v.token_attr(eot).unwrap().has(TokenAttr::CONTROL));
    assert!(v.is_eog(eot));
    assert_eq!(v.eot(), Some(eot));
    assert!(v.tokenize("<|eot_id|>", false, true).unwrap() == vec![eot]);
}

#[test]
fn phi3_rstrip_rule() {
    let v = spm(vec![("general.name", Kv::Str("Phi-3-mini"))]).unwrap();
    // </s> gets RSTRIP (it eats the spaces after it); <s> does not.
    assert!(v.token_attr(2).unwrap().has(TokenAttr::RSTRIP));
    assert!(!v.token_attr(1).unwrap().has(TokenAttr::RSTRIP));
    assert_eq!(
        v.tokenize("</s>   hi", false, true).unwrap(),
        v.tokenize("</s>hi", false, true).unwrap()
    );
    // A phi-3 vocabulary without those tokens fails to load, as llama.cpp's
    // `unordered_map::at` throws.
    let e = bpe(vec![("general.name", Kv::Str("phi3-test"))]).unwrap_err();
    assert_eq!(e.to_string(), "unordered_map::at");
}

/// The pre-tokenizers b10488 does not know (rows `new_pretokenizer_*`):
/// loading fails there as llama.cpp's loader fails, and loads at b11312.
#[test]
fn pretokenizers_newer_than_b10488() {
    for name in ["glm5", "hy_v4", "spark2_5", "ufakzeka"] {
        let bytes = common::gguf_bytes(&[
            ("tokenizer.ggml.model", Kv::Str("gpt2")),
            ("tokenizer.ggml.pre", Kv::Str(name)),
            (
                "tokenizer.ggml.tokens",
                Kv::Strs(vec!["a".into(), "b".into(), "ab".into()]),
            ),
            ("tokenizer.ggml.token_type", Kv::I32s(vec![1, 1, 1])),
            ("tokenizer.ggml.merges", Kv::Strs(vec!["a b".into()])),
        ]);
        let file = gguf_meta::parse(&bytes[..]).unwrap();
        let at = |build| {
            Vocab::from_gguf_with(&file, tokenizer::LoadOptions::default().with_build(build))
        };
        let old = at(changes::Build::B10488).unwrap_err();
        assert_eq!(
            old.to_string(),
            format!("unknown pre-tokenizer type: '{name}'")
        );
        let new = at(changes::Build::B11312).unwrap();
        assert_eq!(
            new.build_rules_applied()[0].id,
            format!("new_pretokenizer_{name}")
        );
    }
}

/// glm4's `ignore_merges` (row `glm4_ignore_merges`): a whole word that is
/// a token is taken as it is at b11312; b10488 merges it from its pieces
/// (here no merge makes `xyz`, so it stays three tokens).
#[test]
fn glm4_ignore_merges_by_build() {
    let tokens: Vec<String> = ["x", "y", "z", "xyz"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let bytes = common::gguf_bytes(&[
        ("tokenizer.ggml.model", Kv::Str("gpt2")),
        ("tokenizer.ggml.pre", Kv::Str("glm4")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(vec![1, 1, 1, 1])),
        ("tokenizer.ggml.merges", Kv::Strs(Vec::new())),
    ]);
    let file = gguf_meta::parse(&bytes[..]).unwrap();
    let at = |build| {
        Vocab::from_gguf_with(&file, tokenizer::LoadOptions::default().with_build(build)).unwrap()
    };
    assert_eq!(
        at(changes::Build::B11312)
            .tokenize("xyz", false, false)
            .unwrap(),
        vec![3]
    );
    assert_eq!(
        at(changes::Build::B10488)
            .tokenize("xyz", false, false)
            .unwrap(),
        vec![0, 1, 2]
    );
}

/// PLaMo's `</s>` (row `plamo_s_normal`): beside `<|plamo:eos|>` it is a
/// normal token at b11312 (no longer an end of generation, and plain text
/// to the special-token pass); at b10488 it stays a control token.
#[test]
fn plamo_s_is_normal_only_in_the_newer_build() {
    let at = spm_at(&[("<|plamo:eos|>", 3), ("</s>", 3)], Some(2));
    let (old, new) = (at(changes::Build::B10488), at(changes::Build::B11312));
    assert!(old.is_eog(2) && old.token_attr(2).unwrap().has(TokenAttr::CONTROL));
    assert!(!new.is_eog(2) && new.token_attr(2).unwrap().has(TokenAttr::NORMAL));
    assert!(old
        .build_rules_applied()
        .iter()
        .any(|c| c.id == "plamo_s_normal"));
}

/// MiniMax's `[e~[` (row `minimax_eog_marker`): an end of generation made
/// a control token from b10142 (b10242 on), an ordinary token before
/// (b10091, b10069).
#[test]
fn minimax_end_marker_is_eog_only_from_b10142() {
    let at = spm_at(&[("</s>", 3), ("[e~[", 1)], None);
    for build in [changes::Build::B10242, changes::Build::B10488] {
        let v = at(build);
        assert!(
            v.is_eog(2) && v.token_attr(2).unwrap().has(TokenAttr::CONTROL),
            "{build}"
        );
    }
    for build in [changes::Build::B10069, changes::Build::B10091] {
        let v = at(build);
        assert!(
            !v.is_eog(2) && v.token_attr(2).unwrap().has(TokenAttr::NORMAL),
            "{build}"
        );
        assert!(v.is_eog(1), "{build}");
        assert!(v
            .build_rules_applied()
            .iter()
            .any(|c| c.id == "minimax_eog_marker"));
    }
}

/// An SPM vocabulary of `<unk>`, `specials` (text, token type) and the 256
/// byte tokens, EOS the first special (and EOT `eot`), loaded at a build.
fn spm_at(specials: &[(&str, i32)], eot: Option<u32>) -> impl Fn(changes::Build) -> Vocab {
    let mut tokens: Vec<String> = vec!["<unk>".into()];
    let mut types = vec![2];
    for (t, ty) in specials {
        tokens.push(t.to_string());
        types.push(*ty);
    }
    for b in 0..256 {
        tokens.push(format!("<0x{b:02X}>"));
        types.push(6);
    }
    let scores = vec![0.0f32; tokens.len()];
    let mut kvs = vec![
        ("tokenizer.ggml.model", Kv::Str("llama")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(types)),
        ("tokenizer.ggml.scores", Kv::F32s(scores)),
        ("tokenizer.ggml.eos_token_id", Kv::U32(1)),
    ];
    if let Some(id) = eot {
        kvs.push(("tokenizer.ggml.eot_token_id", Kv::U32(id)));
    }
    let bytes = common::gguf_bytes(&kvs);
    move |build| {
        let file = gguf_meta::parse(&bytes[..]).unwrap();
        Vocab::from_gguf_with(&file, tokenizer::LoadOptions::default().with_build(build)).unwrap()
    }
}

/// The pre-tokenizers b9452 to b9626 do not know (rows
/// `new_pretokenizer_mellum2`, `new_pretokenizer_granite_embed_multi`,
/// `new_pretokenizer_cohere2moe`): the load fails at the build before the
/// row, and succeeds at the build after it.
#[test]
fn pretokenizers_newer_than_b9452() {
    use changes::Build;
    for (name, row, before, after) in [
        (
            "mellum2",
            "new_pretokenizer_mellum2",
            Build::B9479,
            Build::B9493,
        ),
        (
            "granite-embed-multi-311m",
            "new_pretokenizer_granite_embed_multi",
            Build::B9479,
            Build::B9493,
        ),
        (
            "granite-embed-multi-97m",
            "new_pretokenizer_granite_embed_multi",
            Build::B9479,
            Build::B9493,
        ),
        (
            "cohere2moe",
            "new_pretokenizer_cohere2moe",
            Build::B9626,
            Build::B9672,
        ),
    ] {
        let bytes = common::gguf_bytes(&[
            ("tokenizer.ggml.model", Kv::Str("gpt2")),
            ("tokenizer.ggml.pre", Kv::Str(name)),
            (
                "tokenizer.ggml.tokens",
                Kv::Strs(vec!["a".into(), "b".into(), "ab".into()]),
            ),
            ("tokenizer.ggml.token_type", Kv::I32s(vec![1, 1, 1])),
            ("tokenizer.ggml.merges", Kv::Strs(vec!["a b".into()])),
        ]);
        let file = gguf_meta::parse(&bytes[..]).unwrap();
        let at = |build| {
            Vocab::from_gguf_with(&file, tokenizer::LoadOptions::default().with_build(build))
        };
        assert_eq!(
            at(before).unwrap_err().to_string(),
            format!("unknown pre-tokenizer type: '{name}'")
        );
        assert_eq!(at(after).unwrap().build_rules_applied()[0].id, row);
    }
}

/// A tiny WordPiece vocabulary (`bert`), with `extra` keys.
fn wpm_at(extra: Vec<(&'static str, Kv)>) -> impl Fn(changes::Build) -> Vocab {
    let tokens: Vec<String> = [
        "[PAD]", "[UNK]", "[CLS]", "[SEP]", "▁hello", "▁Hello", "▁cafe", "\u{301}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut kvs = vec![
        ("tokenizer.ggml.model", Kv::Str("bert")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        (
            "tokenizer.ggml.token_type",
            Kv::I32s(vec![3, 2, 3, 3, 1, 1, 1, 1]),
        ),
        ("tokenizer.ggml.padding_token_id", Kv::U32(0)),
        ("tokenizer.ggml.unknown_token_id", Kv::U32(1)),
        ("tokenizer.ggml.bos_token_id", Kv::U32(2)),
        ("tokenizer.ggml.seperator_token_id", Kv::U32(3)),
    ];
    kvs.extend(extra);
    let bytes = common::gguf_bytes(&kvs);
    move |build| {
        let file = gguf_meta::parse(&bytes[..]).unwrap();
        Vocab::from_gguf_with(&file, tokenizer::LoadOptions::default().with_build(build)).unwrap()
    }
}

/// WordPiece's normalizer (rows `wpm_normalizer_lowercase` and
/// `wpm_strip_accents`): a GGUF that says not to lower-case is obeyed from
/// 9464 (b9479), and accent marks are dropped from 9596 (b9626); before,
/// text was always lower-cased and its accent marks kept.
#[test]
fn wordpiece_normalizer_by_build() {
    use changes::Build;
    let cased = wpm_at(vec![(
        "tokenizer.ggml.normalizer.lowercase",
        Kv::Bool(false),
    )]);
    assert_eq!(
        cased(Build::B9479).tokenize("Hello", false, false).unwrap(),
        vec![5]
    );
    assert_eq!(
        cased(Build::B9452).tokenize("Hello", false, false).unwrap(),
        vec![4]
    );
    let uncased = wpm_at(Vec::new());
    let accent = "cafe\u{301}";
    assert_eq!(
        uncased(Build::B9626)
            .tokenize(accent, false, false)
            .unwrap(),
        vec![6]
    );
    assert_eq!(
        uncased(Build::B9509)
            .tokenize(accent, false, false)
            .unwrap(),
        vec![6, 7]
    );
    assert_eq!(
        uncased(Build::B9626).build_rules_applied()[0].id,
        "wpm_strip_accents"
    );
}

/// The `whitespace` tokenizer and pre-tokenizer (row
/// `wpm_normalizer_lowercase`): it lower-cases at b9452 and not from 9464
/// (b9479), unless the GGUF says.
#[test]
fn whitespace_pretokenizer_lowercase_by_build() {
    let bytes = common::gguf_bytes(&[
        ("tokenizer.ggml.model", Kv::Str("whitespace")),
        ("tokenizer.ggml.pre", Kv::Str("whitespace")),
        (
            "tokenizer.ggml.tokens",
            Kv::Strs(vec![
                "a".into(),
                "b".into(),
                "ab".into(),
                "A".into(),
                "B".into(),
            ]),
        ),
        ("tokenizer.ggml.token_type", Kv::I32s(vec![1, 1, 1, 1, 1])),
        ("tokenizer.ggml.merges", Kv::Strs(vec!["a b".into()])),
    ]);
    let file = gguf_meta::parse(&bytes[..]).unwrap();
    let at = |build| {
        Vocab::from_gguf_with(&file, tokenizer::LoadOptions::default().with_build(build)).unwrap()
    };
    assert_eq!(
        at(changes::Build::B9452)
            .tokenize("AB", false, false)
            .unwrap(),
        vec![2]
    );
    assert_eq!(
        at(changes::Build::B9479)
            .tokenize("AB", false, false)
            .unwrap(),
        vec![3, 4]
    );
}
