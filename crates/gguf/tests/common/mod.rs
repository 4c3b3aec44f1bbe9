//! Helpers shared by the integration tests: paths, the SmolLM2 download, a
//! small GGUF writer for hand-made files, golden comparison.

#![allow(dead_code)]

use std::path::PathBuf;

use gguf_meta::{Array, GgufFile, Value};
use sha2::{Digest, Sha256};

pub fn manifest_dir() -> PathBuf {
    std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
}

pub fn fixture(name: &str) -> PathBuf {
    manifest_dir().join("tests/fixtures").join(name)
}

pub fn golden(name: &str) -> serde_json::Value {
    let path = manifest_dir().join("tests/golden").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad golden {}: {e}", path.display()))
}

/// The eight vocabulary GGUFs of the tokenizer corpus, by their corpus
/// names: six in the repository's `tests/corpus/tokenizer`, and
/// `llama-spm.gguf` and `gemma4.gguf`, which are llama.cpp's own
/// `ggml-vocab-llama-spm.gguf` and `ggml-vocab-gemma-4.gguf` byte for byte,
/// from the upstream cache (`scripts/fetch-upstream.sh`).
pub fn corpus_vocab_files() -> Vec<(&'static str, PathBuf)> {
    [
        "deepseek3",
        "gemma3",
        "gemma4",
        "gptoss",
        "llama-spm",
        "llama3",
        "mistral-hf",
        "qwen3",
    ]
    .into_iter()
    .map(|stem| (stem, corpus_file(&format!("{stem}.gguf"))))
    .collect()
}

/// One corpus vocabulary by its corpus name (see [`corpus_vocab_files`]).
pub fn corpus_file(name: &str) -> PathBuf {
    match name {
        "llama-spm.gguf" => testkit::llama_cpp("models/ggml-vocab-llama-spm.gguf"),
        "gemma4.gguf" => testkit::llama_cpp("models/ggml-vocab-gemma-4.gguf"),
        _ => corpus_dir().join(name),
    }
}

/// The repository's `tests/corpus/tokenizer`.
pub fn corpus_dir() -> PathBuf {
    testkit::corpus("tokenizer")
}

pub const SMOLLM2_SHA256: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";

/// SmolLM2 from the model cache (`scripts/fetch-models.sh`).
pub fn smollm2() -> PathBuf {
    testkit::smollm2()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Arrays of more than this many scalars or strings are compared by digest.
pub const DIGEST_MIN: usize = 16;

/// SHA-256 of an array's elements packed little-endian in their GGUF type
/// (a string as its u64 length and bytes, a bool as one byte): the digest
/// `dump_gguf_py.py --digest` writes.
pub fn array_digest(a: &Array) -> Option<String> {
    let mut h = Sha256::new();
    match a {
        Array::U8(v) => h.update(v),
        Array::I8(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::U16(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::I16(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::U32(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::I32(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::U64(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::I64(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::F32(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::F64(v) => v.iter().for_each(|x| h.update(x.to_le_bytes())),
        Array::Bool(v) => v.iter().for_each(|&x| h.update([x as u8])),
        Array::String(v) => v.iter().for_each(|s| {
            h.update((s.len() as u64).to_le_bytes());
            h.update(s.as_bytes());
        }),
        Array::Array(_) => return None,
    }
    Some(hex(&h.finalize()))
}

/// Our `--json` document with long flat arrays replaced by digests, as in
/// the committed goldens.
pub fn digest_doc(file: &GgufFile) -> serde_json::Value {
    let mut doc = file.to_json();
    let metadata = doc["metadata"].as_array_mut().expect("metadata list");
    for (entry, kv) in metadata.iter_mut().zip(file.metadata()) {
        if let Value::Array(a) = &kv.value {
            if a.len() > DIGEST_MIN {
                if let Some(d) = array_digest(a) {
                    entry["value"] = serde_json::json!({"len": a.len(), "sha256": d});
                }
            }
        }
    }
    doc
}

/// Compares our JSON with a golden from gguf-py: exact for everything but
/// floats, which gguf-py prints as the double nearest the stored f32
/// (`9.999999747378752e-06`) and we as the shortest f32 (`1e-05`): those
/// must be the same f32.
pub fn assert_matches(ours: &serde_json::Value, golden: &serde_json::Value, what: &str) {
    let mut diffs = Vec::new();
    compare(ours, golden, what.to_string(), false, &mut diffs);
    assert!(
        diffs.is_empty(),
        "{} differences, first ones:\n{}",
        diffs.len(),
        diffs
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn compare(
    a: &serde_json::Value,
    b: &serde_json::Value,
    path: String,
    f32_ctx: bool,
    diffs: &mut Vec<String>,
) {
    use serde_json::Value as J;
    match (a, b) {
        (J::Object(x), J::Object(y)) => {
            let f32_ctx = f32_ctx
                || y.get("type")
                    .and_then(J::as_str)
                    .is_some_and(|t| t.contains("f32"));
            let kx: Vec<&String> = x.keys().collect();
            let ky: Vec<&String> = y.keys().collect();
            if kx != ky {
                diffs.push(format!("{path}: keys {kx:?} vs {ky:?}"));
                return;
            }
            for (k, v) in x {
                compare(v, &y[k], format!("{path}.{k}"), f32_ctx, diffs);
            }
        }
        (J::Array(x), J::Array(y)) => {
            if x.len() != y.len() {
                diffs.push(format!("{path}: length {} vs {}", x.len(), y.len()));
                return;
            }
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                compare(v, w, format!("{path}[{i}]"), f32_ctx, diffs);
            }
        }
        (J::Number(x), J::Number(y)) => {
            let same = if x.is_f64() || y.is_f64() {
                let (p, q) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                p == q || f32_ctx && (p as f32) == (q as f32)
            } else {
                x == y
            };
            if !same {
                diffs.push(format!("{path}: {x} vs {y}"));
            }
        }
        _ => {
            if a != b {
                diffs.push(format!("{path}: {a} vs {b}"));
            }
        }
    }
}

/// A GGUF writer for hand-made files.
pub struct W {
    pub buf: Vec<u8>,
    pub big: bool,
}

impl W {
    pub fn new(big: bool) -> W {
        W {
            buf: Vec::new(),
            big,
        }
    }

    pub fn pos(&self) -> u64 {
        self.buf.len() as u64
    }

    pub fn raw(&mut self, b: &[u8]) -> &mut W {
        self.buf.extend_from_slice(b);
        self
    }

    pub fn u8(&mut self, v: u8) -> &mut W {
        self.raw(&[v])
    }

    pub fn u32(&mut self, v: u32) -> &mut W {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.raw(&b)
    }

    pub fn u64(&mut self, v: u64) -> &mut W {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.raw(&b)
    }

    pub fn str(&mut self, s: &str) -> &mut W {
        self.u64(s.len() as u64).raw(s.as_bytes())
    }

    /// Magic, version, tensor count, kv count.
    pub fn header(&mut self, version: u32, tensors: u64, kvs: u64) -> &mut W {
        self.raw(b"GGUF").u32(version).u64(tensors).u64(kvs)
    }

    pub fn kv_u32(&mut self, key: &str, v: u32) -> &mut W {
        self.str(key).u32(4).u32(v)
    }

    pub fn kv_str(&mut self, key: &str, v: &str) -> &mut W {
        self.str(key).u32(8).str(v)
    }

    pub fn kv_strings(&mut self, key: &str, v: &[&str]) -> &mut W {
        self.str(key).u32(9).u32(8).u64(v.len() as u64);
        for s in v {
            self.str(s);
        }
        self
    }

    pub fn tensor(&mut self, name: &str, dims: &[u64], ggml_type: u32, offset: u64) -> &mut W {
        self.str(name).u32(dims.len() as u32);
        for &d in dims {
            self.u64(d);
        }
        self.u32(ggml_type).u64(offset)
    }

    pub fn pad(&mut self, align: u64) -> &mut W {
        while !self.pos().is_multiple_of(align) {
            self.u8(0);
        }
        self
    }

    pub fn zeros(&mut self, n: usize) -> &mut W {
        self.buf.resize(self.buf.len() + n, 0);
        self
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.buf.clone()
    }
}
