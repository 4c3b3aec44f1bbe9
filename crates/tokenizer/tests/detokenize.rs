//! Detokenization and token pieces.
//!
//! 1. Against llama.cpp: `tests/golden/<vocab>.jsonl`, recorded by
//!    `tools/tokenizer-goldens/record.py` from llama.cpp itself, holds the
//!    ids, `llama_detokenize(.., remove_special=false, unparse_special=true)`
//!    and (for generated strings) every `llama_token_to_piece(.., 0, true)`
//!    of each corpus string and of 130 generated strings per vocabulary.
//! 2. Round trip: detokenizing the corpus ids gives the text back, except in
//!    the three cases where llama.cpp does not either (checked in 1):
//!    - SPM adds a space prefix after each special token, and
//!      detokenization keeps it (`<s><s>world` -> `<s><s> world`);
//!    - SPM-style vocabularies turn a literal `▁` in the text into a space;
//!    - vocabularies with `clean_spaces` (llama3, gemma4) drop the space in
//!      ` ?`, ` !`, ` .`, ` ,`, ` 's`, ` 'm`, ` 're`, ` 've` and ` ' `.

mod common;

use std::collections::BTreeMap;

use tokenizer::{TokenAttr, Vocab, VocabType};

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn golden_path(vocab: &str) -> std::path::PathBuf {
    common::manifest_dir()
        .join("tests/golden")
        .join(format!("{}.jsonl", vocab.trim_end_matches(".gguf")))
}

#[test]
fn matches_llama_cpp_goldens() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (name, _) in common::cases_by_vocab() {
        let vocab = common::load_corpus_vocab(&name);
        let text = std::fs::read_to_string(golden_path(&name)).unwrap();
        let (mut n, mut ok) = (0, 0);
        for line in text.lines() {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            n += 1;
            let id = g["id"].as_str().unwrap();
            let input = g["text"].as_str().unwrap();
            let want: Vec<u32> = g["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect();
            let ids = vocab
                .tokenize(
                    input,
                    g["add_special"].as_bool().unwrap(),
                    g["parse_special"].as_bool().unwrap(),
                )
                .unwrap();
            if ids != want {
                failures.push(format!("{id}: ids {ids:?}, llama.cpp {want:?}"));
                continue;
            }
            let want_detok = match (g.get("detok"), g.get("detok_hex")) {
                (Some(s), _) => s.as_str().unwrap().as_bytes().to_vec(),
                (_, Some(h)) => unhex(h.as_str().unwrap()),
                _ => panic!("{id}: no detok"),
            };
            let detok = vocab.detokenize(&ids, false, true);
            if detok != want_detok {
                failures.push(format!(
                    "{id}: detok {:?}, llama.cpp {:?}",
                    String::from_utf8_lossy(&detok),
                    String::from_utf8_lossy(&want_detok)
                ));
                continue;
            }
            if let Some(pieces) = g.get("pieces").and_then(|p| p.as_array()) {
                let mut bad = false;
                for (t, p) in ids.iter().zip(pieces) {
                    if vocab.token_to_piece(*t, 0, true).unwrap() != unhex(p.as_str().unwrap()) {
                        failures.push(format!("{id}: piece of {t} differs"));
                        bad = true;
                        break;
                    }
                }
                if bad {
                    continue;
                }
            }
            ok += 1;
        }
        report.push(format!("{name}: {ok}/{n}"));
    }
    println!(
        "goldens (ids, detokenized text, pieces):\n  {}",
        report.join("\n  ")
    );
    for f in failures.iter().take(30) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} golden lines differ",
        failures.len()
    );
}

/// Why llama.cpp's detokenization may not give the text back.
fn exception(vocab: &Vocab, text: &str, ids: &[u32]) -> Option<&'static str> {
    let special = TokenAttr::CONTROL | TokenAttr::USER_DEFINED | TokenAttr::UNKNOWN;
    let spm_like = vocab.vocab_type() == VocabType::Spm || vocab.pre() == "gemma4";
    if vocab.add_space_prefix()
        && ids
            .iter()
            .any(|&i| vocab.token_attr(i).unwrap().has(special))
    {
        return Some("space prefix after a special token");
    }
    if spm_like && text.contains('\u{2581}') {
        return Some("literal ▁ in the text");
    }
    let cleaned = [" ?", " !", " .", " ,", " 's", " 'm", " 're", " 've", " ' "];
    if vocab.clean_spaces() && cleaned.iter().any(|p| text.contains(p)) {
        return Some("clean_spaces");
    }
    None
}

#[test]
fn corpus_round_trips() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (name, cases) in common::cases_by_vocab() {
        let vocab = common::load_corpus_vocab(&name);
        let mut exact = 0;
        let mut why: BTreeMap<&str, usize> = BTreeMap::new();
        let cases: Vec<_> = cases
            .iter()
            .filter(|c| !c.add_special && c.parse_special)
            .collect();
        for c in &cases {
            let back = vocab.detokenize(&c.ids, false, true);
            if back == c.text.as_bytes() {
                exact += 1;
            } else if let Some(w) = exception(&vocab, &c.text, &c.ids) {
                *why.entry(w).or_default() += 1;
            } else {
                failures.push(format!(
                    "{}: {:?} came back as {:?}",
                    c.id,
                    c.text,
                    String::from_utf8_lossy(&back)
                ));
            }
        }
        report.push(format!("{name}: {exact}/{} exact, {why:?}", cases.len()));
    }
    println!("round trips:\n  {}", report.join("\n  "));
    for f in failures.iter().take(20) {
        println!("{f}");
    }
    assert!(failures.is_empty());
}

#[test]
fn pieces_and_special_handling() {
    let vocab = common::load_corpus_vocab("qwen3.gguf");
    let im_start = vocab.text_to_token(b"<|im_start|>").unwrap();
    // CONTROL tokens print only with `special`.
    assert_eq!(
        vocab.token_to_piece(im_start, 0, true).unwrap(),
        b"<|im_start|>"
    );
    assert_eq!(vocab.token_to_piece(im_start, 0, false).unwrap(), b"");
    // Byte-level tokens decode to bytes; lstrip drops leading spaces.
    let ids = vocab.tokenize(" Hello", false, false).unwrap();
    assert_eq!(vocab.token_to_piece(ids[0], 0, true).unwrap(), b" Hello");
    assert_eq!(vocab.token_to_piece(ids[0], 1, true).unwrap(), b"Hello");
    assert_eq!(vocab.token_to_piece(u32::MAX, 0, true), None);
    // remove_special drops BOS/EOS only where the vocabulary adds them; as
    // in llama.cpp, dropping BOS also keeps the space prefix.
    let spm = common::load_corpus_vocab("llama-spm.gguf");
    let ids = spm.tokenize("Hello", true, true).unwrap();
    assert_eq!(ids[0], 1);
    assert_eq!(spm.detokenize(&ids, true, false), b" Hello");
    assert_eq!(spm.detokenize(&ids, false, true), b"<s> Hello");
    assert_eq!(spm.detokenize(&ids, false, false), b" Hello");
    assert_eq!(spm.detokenize_lossy(&ids[1..], true), "Hello");
}
