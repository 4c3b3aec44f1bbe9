//! Helpers shared by the integration tests: the corpus, the SmolLM2 model
//! file (downloaded once into the model cache), loading vocabularies.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tokenizer::Vocab;

pub fn manifest_dir() -> PathBuf {
    std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
}

/// The repository's `tests/corpus/tokenizer`.
pub fn corpus_dir() -> PathBuf {
    testkit::corpus("tokenizer")
}

/// A vocabulary or test file by the name the tests and goldens use for it:
/// llama.cpp's own files (`llama-vocab/ggml-vocab-*`, and the corpus names
/// `llama-spm.gguf` and `gemma4.gguf`, which are llama.cpp's
/// `ggml-vocab-llama-spm.gguf` and `ggml-vocab-gemma-4.gguf` byte for byte)
/// come from the upstream cache (`scripts/fetch-upstream.sh`: the
/// llama-cpp-python 0.3.36 sdist's `models/`); `llama-vocab/ugm-synth-*`
/// are ours, in `tests/corpus/tokenizer/synth/`; anything else is a file of
/// `tests/corpus/tokenizer`.
pub fn corpus_file(name: &str) -> PathBuf {
    match name {
        "llama-spm.gguf" => testkit::llama_cpp("models/ggml-vocab-llama-spm.gguf"),
        "gemma4.gguf" => testkit::llama_cpp("models/ggml-vocab-gemma-4.gguf"),
        _ => match name.strip_prefix("llama-vocab/") {
            Some(rest) if rest.starts_with("ugm-synth-") => corpus_dir().join("synth").join(rest),
            Some(rest) => testkit::llama_cpp(&format!("models/{rest}")),
            None => corpus_dir().join(name),
        },
    }
}

/// SmolLM2 from the model cache (`scripts/fetch-models.sh`).
pub fn smollm2() -> PathBuf {
    testkit::smollm2()
}

/// Loads a vocabulary from a GGUF path, reading only the metadata. A path
/// ending in `.gz` is a gzip-compressed GGUF, inflated in memory.
pub fn load_path(path: &Path) -> Vocab {
    let gguf = if path.extension().is_some_and(|e| e == "gz") {
        let bytes = read_gz(path);
        gguf_meta::parse(gguf_meta::SeekSource::new(std::io::Cursor::new(bytes)))
    } else {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        gguf_meta::parse(gguf_meta::SeekSource::new(file))
    }
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Vocab::from_gguf(&gguf).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Loads a vocabulary from a GGUF path as llama.cpp's loader at `build`
/// does.
pub fn load_path_at(path: &Path, build: changes::Build) -> Vocab {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let gguf = gguf_meta::parse(gguf_meta::SeekSource::new(file))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = tokenizer::LoadOptions::default().with_build(build);
    Vocab::from_gguf_with(&gguf, options).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The inflated bytes of a gzip file.
pub fn read_gz(path: &Path) -> Vec<u8> {
    use std::io::Read;
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

/// A text file, inflated first when its name ends in `.gz`.
pub fn read_text(path: &Path) -> String {
    if path.extension().is_some_and(|e| e == "gz") {
        String::from_utf8(read_gz(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    } else {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}

/// The bytes of a hex string.
pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hexes(v: &serde_json::Value) -> Vec<Vec<u8>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| unhex(p.as_str().unwrap()))
        .collect()
}

/// Checks `vocab` against a golden of `tools/tokenizer-goldens/record_libllama.py`
/// (`tests/golden/<golden>`, plain or `.gz`): for every line the ids of
/// `llama_tokenize` with its (add_special, parse_special), `llama_detokenize`
/// for every (remove_special, unparse_special) and each
/// `llama_token_to_piece` with special on and off. Returns the number of
/// lines; panics listing the first differences.
pub fn check_libllama_golden(golden: &str, vocab: &Vocab) -> usize {
    let path = manifest_dir().join("tests/golden").join(golden);
    let text = read_text(&path);
    let (mut n, mut failures) = (0, Vec::new());
    for line in text.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        n += 1;
        let id = g["id"].as_str().unwrap();
        let input = match (g.get("text"), g.get("text_hex")) {
            (Some(t), _) => t.as_str().unwrap().as_bytes().to_vec(),
            (_, Some(h)) => unhex(h.as_str().unwrap()),
            _ => panic!("{id}: no text"),
        };
        let add = g["add_special"].as_bool().unwrap();
        let parse = g["parse_special"].as_bool().unwrap();
        let want: Vec<u32> = g["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        let ids = vocab.tokenize_bytes(&input, add, parse).unwrap();
        if ids != want {
            failures.push(format!("{id}: ids {ids:?}, llama.cpp {want:?}"));
            continue;
        }
        let want_detok = match (g.get("detok"), g.get("detok_hex")) {
            (Some(s), _) => s.as_str().unwrap().as_bytes().to_vec(),
            (_, Some(h)) => unhex(h.as_str().unwrap()),
            _ => panic!("{id}: no detok"),
        };
        let mut bad = Vec::new();
        if vocab.detokenize(&ids, false, true) != want_detok {
            bad.push("detok 01".to_string());
        }
        for (k, v) in g["detok_variants"].as_object().unwrap() {
            let (r, u) = (k.as_bytes()[0] == b'1', k.as_bytes()[1] == b'1');
            if vocab.detokenize(&ids, r, u) != unhex(v.as_str().unwrap()) {
                bad.push(format!("detok {k}"));
            }
        }
        for (key, special) in [("pieces", true), ("pieces_plain", false)] {
            for (t, p) in ids.iter().zip(hexes(&g[key])) {
                if vocab.token_to_piece(*t, 0, special).unwrap() != p {
                    bad.push(format!("{key} of {t}"));
                }
            }
        }
        if !bad.is_empty() {
            failures.push(format!("{id}: {}", bad.join(", ")));
        }
    }
    for f in failures.iter().take(30) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{golden}: {} of {n} golden lines differ",
        failures.len()
    );
    eprintln!("{golden}: {n} golden lines equal");
    n
}

/// The vocabulary a corpus line names (`"smollm2"`, from the model cache,
/// or a file name in the corpus).
pub fn load_corpus_vocab(name: &str) -> Vocab {
    if name == "smollm2" {
        return load_path(&smollm2());
    }
    load_path(&corpus_file(name))
}

/// One line of `tokenize.jsonl`.
pub struct Case {
    pub id: String,
    pub vocab: String,
    pub text: String,
    pub add_special: bool,
    pub parse_special: bool,
    pub ids: Vec<u32>,
}

pub fn corpus_cases() -> Vec<Case> {
    let text = std::fs::read_to_string(corpus_dir().join("tokenize.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            Case {
                id: v["id"].as_str().unwrap().to_string(),
                vocab: v["vocab"].as_str().unwrap().to_string(),
                text: v["text"].as_str().unwrap().to_string(),
                add_special: v["add_special"].as_bool().unwrap(),
                parse_special: v["parse_special"].as_bool().unwrap(),
                ids: v["expect"]["ids"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u32)
                    .collect(),
            }
        })
        .collect()
}

/// The corpus cases grouped by vocabulary, in file order.
pub fn cases_by_vocab() -> Vec<(String, Vec<Case>)> {
    let mut order: Vec<String> = Vec::new();
    let mut groups: BTreeMap<String, Vec<Case>> = BTreeMap::new();
    for c in corpus_cases() {
        if !groups.contains_key(&c.vocab) {
            order.push(c.vocab.clone());
        }
        groups.entry(c.vocab.clone()).or_default().push(c);
    }
    order
        .into_iter()
        .map(|v| {
            let cases = groups.remove(&v).unwrap();
            (v, cases)
        })
        .collect()
}

/// A metadata value for [`gguf_bytes`].
pub enum Kv {
    Str(&'static str),
    U32(u32),
    I32(i32),
    Bool(bool),
    Strs(Vec<String>),
    I32s(Vec<i32>),
    F32s(Vec<f32>),
    U8s(Vec<u8>),
    F32(f32),
}

fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s);
}

/// A GGUF v3 file with these key/values and no tensors.
pub fn gguf_bytes(kvs: &[(&str, Kv)]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"GGUF");
    out.extend_from_slice(&3u32.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&(kvs.len() as u64).to_le_bytes());
    for (key, v) in kvs {
        put_str(&mut out, key.as_bytes());
        match v {
            Kv::Str(s) => {
                out.extend_from_slice(&8u32.to_le_bytes());
                put_str(&mut out, s.as_bytes());
            }
            Kv::U32(n) => {
                out.extend_from_slice(&4u32.to_le_bytes());
                out.extend_from_slice(&n.to_le_bytes());
            }
            Kv::I32(n) => {
                out.extend_from_slice(&5u32.to_le_bytes());
                out.extend_from_slice(&n.to_le_bytes());
            }
            Kv::F32(x) => {
                out.extend_from_slice(&6u32.to_le_bytes());
                out.extend_from_slice(&x.to_le_bytes());
            }
            Kv::Bool(b) => {
                out.extend_from_slice(&7u32.to_le_bytes());
                out.push(*b as u8);
            }
            Kv::Strs(v) => {
                out.extend_from_slice(&9u32.to_le_bytes());
                out.extend_from_slice(&8u32.to_le_bytes());
                out.extend_from_slice(&(v.len() as u64).to_le_bytes());
                for s in v {
                    put_str(&mut out, s.as_bytes());
                }
            }
            Kv::I32s(v) => {
                out.extend_from_slice(&9u32.to_le_bytes());
                out.extend_from_slice(&5u32.to_le_bytes());
                out.extend_from_slice(&(v.len() as u64).to_le_bytes());
                for n in v {
                    out.extend_from_slice(&n.to_le_bytes());
                }
            }
            Kv::F32s(v) => {
                out.extend_from_slice(&9u32.to_le_bytes());
                out.extend_from_slice(&6u32.to_le_bytes());
                out.extend_from_slice(&(v.len() as u64).to_le_bytes());
                for n in v {
                    out.extend_from_slice(&n.to_le_bytes());
                }
            }
            Kv::U8s(v) => {
                out.extend_from_slice(&9u32.to_le_bytes());
                out.extend_from_slice(&0u32.to_le_bytes());
                out.extend_from_slice(&(v.len() as u64).to_le_bytes());
                out.extend_from_slice(v);
            }
        }
    }
    while !out.len().is_multiple_of(32) {
        out.push(0);
    }
    out
}

/// A GGUF v3 file with these key/values and F32 tensors of the given
/// shapes (zero data).
pub fn gguf_bytes_with_tensors(kvs: &[(&str, Kv)], tensors: &[(&str, Vec<u64>)]) -> Vec<u8> {
    let mut out = gguf_bytes(kvs);
    // Rewrite the header's tensor count, then append infos and data.
    out.truncate(out.len() - (out.len() - kv_end(kvs)));
    out[8..16].copy_from_slice(&(tensors.len() as u64).to_le_bytes());
    let mut offset = 0u64;
    let mut sizes = Vec::new();
    for (name, dims) in tensors {
        put_str(&mut out, name.as_bytes());
        out.extend_from_slice(&(dims.len() as u32).to_le_bytes());
        for d in dims {
            out.extend_from_slice(&d.to_le_bytes());
        }
        out.extend_from_slice(&0u32.to_le_bytes()); // F32
        out.extend_from_slice(&offset.to_le_bytes());
        let size = dims.iter().product::<u64>() * 4;
        sizes.push(size);
        offset += size.div_ceil(32) * 32;
    }
    while !out.len().is_multiple_of(32) {
        out.push(0);
    }
    out.resize(out.len() + offset as usize, 0);
    out
}

/// Where the key/values of [`gguf_bytes`] end (before padding).
fn kv_end(kvs: &[(&str, Kv)]) -> usize {
    let mut n = 24;
    for (key, v) in kvs {
        n += 8 + key.len() + 4;
        n += match v {
            Kv::Str(s) => 8 + s.len(),
            Kv::U32(_) | Kv::I32(_) | Kv::F32(_) => 4,
            Kv::Bool(_) => 1,
            Kv::Strs(v) => 12 + v.iter().map(|s| 8 + s.len()).sum::<usize>(),
            Kv::I32s(v) => 12 + 4 * v.len(),
            Kv::F32s(v) => 12 + 4 * v.len(),
            Kv::U8s(v) => 12 + v.len(),
        };
    }
    n
}
