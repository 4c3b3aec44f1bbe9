//! `gguf_meta::copy::llama_quantize_copy` against llama.cpp b10488's own
//! `llama-quantize --allow-requantize IN OUT COPY` (the call Ollama's create
//! makes): the SHA-256 and size of the file the tool wrote, recorded in
//! `tests/golden/llama-quantize-copy.jsonl` (tools/llama-quantize-copy/README.md),
//! equal to ours for the two test models, two vocabulary-only files of the
//! corpus (tensorless: the fixture store's kind) and for hand-made files that take
//! the paths the header rewrite has (tensors out of the loader's order,
//! layer numbers past 9, a trailing dimension of 1, no file type so the
//! loader guesses it, `general.quantization_version` and
//! `general.file_type` early in the input, `general.alignment` 64, arrays
//! of every kind).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde_json::Value as Json;
use sha2::{Digest, Sha256};

/// One metadata value for [`gguf`].
enum V<'a> {
    U32(u32),
    F32(f32),
    Str(&'a str),
    Bool(bool),
    Strs(&'a [&'a str]),
    I8s(&'a [i8]),
}

fn s(b: &mut Vec<u8>, x: &str) {
    b.extend((x.len() as u64).to_le_bytes());
    b.extend(x.as_bytes());
}

/// A GGUF v3 file: the key/values, then tensors (name, shape, ggml type,
/// bytes) laid out at `align`.
fn gguf(kvs: &[(&str, V)], tensors: &[(&str, &[u64], u32, usize)], align: usize) -> Vec<u8> {
    let mut b = b"GGUF".to_vec();
    b.extend(3u32.to_le_bytes());
    b.extend((tensors.len() as u64).to_le_bytes());
    b.extend((kvs.len() as u64).to_le_bytes());
    for (k, v) in kvs {
        s(&mut b, k);
        match v {
            V::U32(x) => {
                b.extend(4u32.to_le_bytes());
                b.extend(x.to_le_bytes());
            }
            V::F32(x) => {
                b.extend(6u32.to_le_bytes());
                b.extend(x.to_le_bytes());
            }
            V::Bool(x) => {
                b.extend(7u32.to_le_bytes());
                b.push(u8::from(*x));
            }
            V::Str(x) => {
                b.extend(8u32.to_le_bytes());
                s(&mut b, x);
            }
            V::Strs(xs) => {
                b.extend(9u32.to_le_bytes());
                b.extend(8u32.to_le_bytes());
                b.extend((xs.len() as u64).to_le_bytes());
                for x in *xs {
                    s(&mut b, x);
                }
            }
            V::I8s(xs) => {
                b.extend(9u32.to_le_bytes());
                b.extend(1u32.to_le_bytes());
                b.extend((xs.len() as u64).to_le_bytes());
                b.extend(xs.iter().map(|x| *x as u8));
            }
        }
    }
    let pad = |n: usize| n.div_ceil(align) * align;
    let mut offset = 0usize;
    for (name, shape, ty, size) in tensors {
        s(&mut b, name);
        b.extend((shape.len() as u32).to_le_bytes());
        for d in *shape {
            b.extend(d.to_le_bytes());
        }
        b.extend(ty.to_le_bytes());
        b.extend((offset as u64).to_le_bytes());
        offset += pad(*size);
    }
    b.resize(pad(b.len()), 0);
    for (i, (_, _, _, size)) in tensors.iter().enumerate() {
        let start = b.len();
        // bytes that differ per tensor, every f16/f32 high byte (odd
        // positions) kept finite: llama.cpp checks the data
        b.extend((0..*size).map(|j| {
            let v = (i * 31 + j * 7) as u8;
            if j % 2 == 1 {
                v & 0x3f
            } else {
                v
            }
        }));
        b.resize(start + pad(*size), 0);
    }
    b
}

/// The hand-made inputs, by name: a small llama the loader accepts.
fn made() -> Vec<(&'static str, Vec<u8>)> {
    let tokens: Vec<&str> = (0..16).map(|_| "t").collect();
    let base = |file_type: Option<u32>, align: Option<u32>| {
        let mut kvs = vec![
            ("general.quantization_version", V::U32(2)),
            ("general.architecture", V::Str("llama")),
            ("general.name", V::Str("made")),
        ];
        if let Some(ft) = file_type {
            kvs.push(("general.file_type", V::U32(ft)));
        }
        if let Some(a) = align {
            kvs.push(("general.alignment", V::U32(a)));
        }
        kvs.extend([
            ("llama.context_length", V::U32(64)),
            ("llama.embedding_length", V::U32(32)),
            ("llama.block_count", V::U32(12)),
            ("llama.feed_forward_length", V::U32(64)),
            ("llama.attention.head_count", V::U32(4)),
            ("llama.attention.layer_norm_rms_epsilon", V::F32(1e-5)),
            ("tokenizer.ggml.model", V::Str("gpt2")),
            ("made.flag", V::Bool(true)),
            ("made.bytes", V::I8s(&[-1, 0, 1])),
        ]);
        kvs
    };
    let tensors: &[(&str, &[u64], u32, usize)] = &[
        ("output_norm.weight", &[32], 0, 128),
        ("blk.10.attn_norm.weight", &[32], 0, 128),
        ("token_embd.weight", &[32, 16], 1, 1024),
        ("blk.2.attn_norm.weight", &[32], 0, 128),
        ("blk.0.ffn_down.weight", &[32, 8, 1], 1, 512),
        ("blk.0.attn_q.weight", &[32, 3], 8, 102),
        ("blk.11.ffn_up.weight", &[32, 2], 1, 128),
    ];
    let with_tokens = |mut kvs: Vec<(&'static str, V<'static>)>, toks: &'static [&'static str]| {
        kvs.push(("tokenizer.ggml.tokens", V::Strs(toks)));
        kvs
    };
    let toks: &'static [&'static str] = Box::leak(tokens.into_boxed_slice());
    vec![
        (
            "made-ft.gguf",
            gguf(&with_tokens(base(Some(1), None), toks), tensors, 32),
        ),
        (
            "made-guess.gguf",
            gguf(&with_tokens(base(None, None), toks), tensors, 32),
        ),
        (
            "made-align64.gguf",
            gguf(&with_tokens(base(Some(1), Some(64)), toks), tensors, 64),
        ),
    ]
}

/// Our output's SHA-256 and size for the file at `path`.
fn ours(path: &Path) -> (String, u64) {
    let f = gguf_meta::parse(gguf_meta::SeekSource::new(File::open(path).unwrap())).unwrap();
    let c = gguf_meta::copy::llama_quantize_copy(&f).unwrap();
    let mut h = Sha256::new();
    h.update(&c.header);
    let mut input = File::open(path).unwrap();
    for p in &c.pieces {
        input.seek(SeekFrom::Start(p.from)).unwrap();
        let mut buf = vec![0u8; p.size as usize];
        input.read_exact(&mut buf).unwrap();
        h.update(&buf);
        h.update(vec![0u8; p.pad as usize]);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    (hex, c.size())
}

/// The hand-made inputs written into a folder: a temporary one, or the one
/// `PROMPTSCOPE_WRITE_MADE` names (kept, for the recorder:
/// tools/llama-quantize-copy/README.md).
fn made_dir() -> (PathBuf, bool) {
    let (d, keep) = match std::env::var_os("PROMPTSCOPE_WRITE_MADE") {
        Some(d) => (PathBuf::from(d), true),
        None => (
            std::env::temp_dir().join(format!("promptscope-quantize-copy-{}", std::process::id())),
            false,
        ),
    };
    std::fs::create_dir_all(&d).unwrap();
    for (name, bytes) in made() {
        std::fs::write(d.join(name), bytes).unwrap();
    }
    (d, keep)
}

#[test]
fn equal_to_llama_quantize_copy() {
    let golden = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/llama-quantize-copy.jsonl"),
    )
    .unwrap();
    let (made, keep) = made_dir();
    let mut checked = 0;
    for line in golden.lines() {
        let g: Json = serde_json::from_str(line).unwrap();
        let input = g["input"].as_str().unwrap();
        let path = if let Some(name) = input.strip_prefix("made/") {
            made.join(name)
        } else if let Some(rel) = input.strip_prefix("repo/") {
            testkit::repo_root().join(rel)
        } else {
            testkit::model_cache().join(input)
        };
        assert!(
            path.exists(),
            "{} is missing (scripts/fetch-models.sh)",
            path.display()
        );
        // the input is the one recorded
        let mut raw = Vec::new();
        File::open(&path).unwrap().read_to_end(&mut raw).unwrap();
        let hex: String = Sha256::digest(&raw)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            g["input_sha256"].as_str().unwrap(),
            "{input}: not the recorded input"
        );
        let (sha, size) = ours(&path);
        assert_eq!(
            (sha.as_str(), size),
            (
                g["output_sha256"].as_str().unwrap(),
                g["output_size"].as_u64().unwrap()
            ),
            "{input}"
        );
        checked += 1;
    }
    assert!(checked >= 7, "{checked} files");
    if !keep {
        std::fs::remove_dir_all(&made).unwrap();
    }
}
