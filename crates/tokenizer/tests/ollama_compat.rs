//! Ollama's `llama/compat` rewrites (the tokenizer part), on small
//! hand-made files, and their absence on llama.cpp-converted files.

mod common;

use common::{gguf_bytes, gguf_bytes_with_tensors, Kv};
use tokenizer::{LoadOptions, Vocab, VocabType};

fn parse(bytes: &[u8]) -> gguf_meta::GgufFile {
    gguf_meta::parse(bytes).unwrap()
}

/// A byte-level BPE vocabulary (256 byte tokens + `extra` tokens).
fn bpe_tokens(extra: &[&str]) -> (Vec<String>, Vec<i32>) {
    let mut tokens = Vec::new();
    let mut n = 0;
    for b in 0u32..256 {
        let c = match b {
            0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF => b,
            _ => {
                n += 1;
                255 + n
            }
        };
        tokens.push(char::from_u32(c).unwrap().to_string());
    }
    let mut types = vec![1; 256];
    for t in extra {
        tokens.push(t.to_string());
        types.push(if t.starts_with('<') { 3 } else { 1 });
    }
    (tokens, types)
}

#[test]
fn gemma4_files_with_the_spm_model_name_run_as_gemma4() {
    let (tokens, types) = bpe_tokens(&["<bos>", "<eos>", "▁h", "▁hi"]);
    let bytes = gguf_bytes(&[
        ("general.architecture", Kv::Str("gemma4")),
        ("tokenizer.ggml.model", Kv::Str("llama")),
        ("tokenizer.ggml.pre", Kv::Str("gemma4")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(types)),
        (
            "tokenizer.ggml.merges",
            Kv::Strs(vec!["▁ h".into(), "▁h i".into()]),
        ),
        ("tokenizer.ggml.bos_token_id", Kv::U32(256)),
    ]);
    let file = parse(&bytes);
    let plain = Vocab::from_gguf(&file).unwrap();
    assert_eq!(plain.vocab_type(), VocabType::Spm);
    assert!(plain.ollama_compat_applied().is_empty());
    let ollama = Vocab::from_gguf_ollama(&file).unwrap();
    assert_eq!(ollama.vocab_type(), VocabType::Bpe);
    assert_eq!(ollama.model(), "gemma4");
    assert_eq!(ollama.ollama_compat_applied(), ["handle_gemma4"]);
    assert_eq!(ollama.tokenize(" hi", true, true).unwrap(), vec![256, 259]);
}

#[test]
fn gptoss_gets_the_gpt4o_pre_tokenizer() {
    let (tokens, types) = bpe_tokens(&["<|start|>"]);
    let bytes = gguf_bytes(&[
        ("general.architecture", Kv::Str("gptoss")),
        ("tokenizer.ggml.model", Kv::Str("gpt2")),
        ("tokenizer.ggml.pre", Kv::Str("default")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(types)),
        ("tokenizer.ggml.merges", Kv::Strs(vec![])),
    ]);
    let file = parse(&bytes);
    assert_eq!(Vocab::from_gguf(&file).unwrap().pre(), "default");
    let v = Vocab::from_gguf_with(&file, LoadOptions::ollama(true)).unwrap();
    assert_eq!(v.pre(), "gpt-4o");
    assert_eq!(v.pre_type(), tokenizer::PreType::Gpt4o);
}

#[test]
fn llama3_files_without_pre_get_llama_bpe_and_eot() {
    let mut tokens: Vec<String> = (0..128256).map(|i| format!("t{i}")).collect();
    tokens[128000] = "<|begin_of_text|>".into();
    tokens[128001] = "<|end_of_text|>".into();
    tokens[128006] = "<|start_header_id|>".into();
    tokens[128009] = "<|eot_id|>".into();
    let bytes = gguf_bytes(&[
        ("general.architecture", Kv::Str("llama")),
        ("tokenizer.ggml.model", Kv::Str("gpt2")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.merges", Kv::Strs(vec![])),
        ("tokenizer.ggml.bos_token_id", Kv::U32(128000)),
        ("tokenizer.ggml.eos_token_id", Kv::U32(128001)),
    ]);
    let file = parse(&bytes);
    let plain = Vocab::from_gguf(&file).unwrap();
    assert_eq!(
        (plain.pre(), plain.add_bos(), plain.eos()),
        ("", false, Some(128001))
    );
    let v = Vocab::from_gguf_ollama(&file).unwrap();
    assert_eq!(v.ollama_compat_applied(), ["handle_llama3_metadata"]);
    assert_eq!((v.pre(), v.add_bos()), ("llama-bpe", true));
    assert_eq!((v.eos(), v.eot()), (Some(128009), Some(128009)));
}

#[test]
fn gemma3_vocab_is_cut_to_the_embedding_rows() {
    let (mut tokens, mut types) = bpe_tokens(&[]);
    let mut scores = vec![0.0f32; 256];
    for t in ["<pad>", "<eos>", "<bos>", "<image_soft_token>"] {
        tokens.push(t.into());
        types.push(3);
        scores.push(0.0);
    }
    let kvs = [
        ("general.architecture", Kv::Str("gemma3")),
        ("tokenizer.ggml.model", Kv::Str("llama")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens)),
        ("tokenizer.ggml.token_type", Kv::I32s(types)),
        ("tokenizer.ggml.scores", Kv::F32s(scores)),
        ("tokenizer.ggml.bos_token_id", Kv::U32(258)),
    ];
    let bytes = gguf_bytes_with_tensors(&kvs, &[("token_embd.weight", vec![4, 259])]);
    let file = parse(&bytes);
    let plain = Vocab::from_gguf(&file).unwrap();
    assert_eq!(plain.n_tokens(), 260);
    assert!(plain.text_to_token(b"<image_soft_token>").is_some());
    let v = Vocab::from_gguf_ollama(&file).unwrap();
    assert_eq!(v.ollama_compat_applied(), ["handle_gemma3"]);
    assert_eq!(v.n_tokens(), 259);
    assert!(v.text_to_token(b"<image_soft_token>").is_none());
}

#[test]
fn llama_cpp_converted_files_tokenize_the_same() {
    for (name, cases) in common::cases_by_vocab() {
        if name == "smollm2" {
            continue;
        }
        let bytes = std::fs::read(common::corpus_file(&name)).unwrap();
        let file = parse(&bytes);
        let v = Vocab::from_gguf_ollama(&file).unwrap();
        println!("{name}: compat {:?}", v.ollama_compat_applied());
        for c in cases.iter().step_by(7) {
            assert_eq!(
                v.tokenize(&c.text, c.add_special, c.parse_special).unwrap(),
                c.ids,
                "{}",
                c.id
            );
        }
    }
}

#[test]
fn ollama_gemma3_files_without_a_template_get_gemma3s() {
    let (tokens, types) = bpe_tokens(&["<bos>"]);
    let base = |with_template: bool, ollama_quirk: bool| {
        let mut kvs = vec![
            ("general.architecture", Kv::Str("gemma3")),
            ("tokenizer.ggml.model", Kv::Str("llama")),
            ("tokenizer.ggml.tokens", Kv::Strs(tokens.clone())),
            ("tokenizer.ggml.token_type", Kv::I32s(types.clone())),
            ("tokenizer.ggml.scores", Kv::F32s(vec![0.0; tokens.len()])),
        ];
        if !ollama_quirk {
            // llama.cpp's converter writes the norm epsilon; Ollama's did not.
            kvs.push(("gemma3.attention.layer_norm_rms_epsilon", Kv::U32(0)));
        }
        if with_template {
            kvs.push(("tokenizer.chat_template", Kv::Str("{{ messages }}")));
        }
        Vocab::from_gguf_ollama(&parse(&gguf_bytes(&kvs))).unwrap()
    };
    let injected = base(false, true);
    assert_eq!(injected.ollama_compat_applied(), ["handle_gemma3"]);
    let t = injected.ollama_compat_chat_template().unwrap();
    assert!(t.starts_with("{{ bos_token }}{% if messages[0]['role'] == 'system' %}"));
    assert!(t.ends_with("{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}"));
    assert_eq!(t.len(), 594);
    // A file with its own template keeps it; a llama.cpp-converted gemma3
    // file is not Ollama's, and nothing is injected.
    assert_eq!(base(true, true).ollama_compat_chat_template(), None);
    assert_eq!(base(false, false).ollama_compat_applied(), [] as [&str; 0]);
    assert_eq!(base(false, false).ollama_compat_chat_template(), None);
    let plain = Vocab::from_gguf(&parse(&gguf_bytes(&[
        ("general.architecture", Kv::Str("gemma3")),
        ("tokenizer.ggml.model", Kv::Str("llama")),
        ("tokenizer.ggml.tokens", Kv::Strs(tokens.clone())),
        ("tokenizer.ggml.token_type", Kv::I32s(types.clone())),
    ])))
    .unwrap();
    assert_eq!(plain.ollama_compat_chat_template(), None);
}

/// Base64 as Ollama's `decode_base64` writes it.
fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..=c.len() {
            out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

/// The file's key/values as the test writer's, with `edit` applied.
fn rewrite(file: &gguf_meta::GgufFile, edit: impl Fn(&str, Kv) -> Kv) -> Vec<u8> {
    use gguf_meta::{Array, Value};
    let kvs: Vec<(&str, Kv)> = file
        .metadata()
        .iter()
        .map(|kv| {
            let v = match &kv.value {
                Value::String(s) => Kv::Str(Box::leak(text(s.as_bytes()).into_boxed_str())),
                Value::U32(n) => Kv::U32(*n),
                Value::I32(n) => Kv::I32(*n),
                Value::Bool(b) => Kv::Bool(*b),
                Value::F32(x) => Kv::F32(*x),
                Value::Array(Array::String(v)) => {
                    Kv::Strs(v.iter().map(|s| text(s.as_bytes())).collect())
                }
                Value::Array(Array::I32(v)) => Kv::I32s(v.clone()),
                Value::Array(Array::F32(v)) => Kv::F32s(v.clone()),
                Value::Array(Array::U8(v)) => Kv::U8s(v.clone()),
                other => panic!("{}: {other:?} not handled", kv.key),
            };
            let key: &str = Box::leak(kv.key.to_string().into_boxed_str());
            (key, edit(key, v))
        })
        .collect();
    let mut kvs = kvs;
    if file.get("general.architecture").is_none() {
        kvs.insert(
            0,
            (
                "general.architecture",
                edit("general.architecture", Kv::Str("")),
            ),
        );
    }
    gguf_bytes(&kvs)
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("UTF-8 in the test vocabulary")
}

/// Snowflake Arctic Embed 2 as Ollama publishes it: a `bert` file with the
/// `t5` tokenizer whose precompiled charsmap is an array of one-character
/// base64 strings. llama.cpp refuses the type; Ollama's compat layer
/// decodes it, and the vocabulary then tokenizes as llama.cpp does with
/// the bytes (the same golden as the file it was made from).
#[test]
fn arctic_embed2_base64_charsmap_is_decoded() {
    let path = common::corpus_file("llama-vocab/ugm-synth-a.gguf");
    let bytes = std::fs::read(path).unwrap();
    let original = parse(&bytes);
    let as_arctic = |encode: &dyn Fn(&[u8]) -> Kv| {
        rewrite(&original, |key, v| match (key, v) {
            ("general.architecture", _) => Kv::Str("bert"),
            ("tokenizer.ggml.precompiled_charsmap", Kv::U8s(b)) => encode(&b),
            (_, v) => v,
        })
    };
    let chars = |s: String| Kv::Strs(s.chars().map(String::from).collect());
    let file = parse(&as_arctic(&|b| chars(base64(b))));
    let err = Vocab::from_gguf(&file).unwrap_err();
    assert!(
        err.to_string()
            .contains("tokenizer.ggml.precompiled_charsmap"),
        "{err}"
    );
    let v = Vocab::from_gguf_ollama(&file).unwrap();
    assert_eq!(
        v.ollama_compat_applied(),
        ["handle_snowflake_arctic_embed2"]
    );
    // The same file with the bytes themselves, as llama.cpp reads it: every
    // input of the vocabulary's libllama golden tokenizes the same. (Not
    // the golden's ids: llama.cpp strips the space before `<mask>` for the
    // `nomic-bert-moe` architecture the golden was recorded with, not for
    // `bert`.)
    let bytes_file = parse(&as_arctic(&|b| Kv::U8s(b.to_vec())));
    let reference = Vocab::from_gguf(&bytes_file).unwrap();
    let golden = common::manifest_dir().join("tests/golden/ugm-synth-a.jsonl");
    let mut n = 0;
    for line in common::read_text(&golden).lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let input = match (g.get("text"), g.get("text_hex")) {
            (Some(t), _) => t.as_str().unwrap().as_bytes().to_vec(),
            (_, Some(h)) => common::unhex(h.as_str().unwrap()),
            _ => continue,
        };
        let (add, parse) = (
            g["add_special"].as_bool().unwrap(),
            g["parse_special"].as_bool().unwrap(),
        );
        assert_eq!(
            v.tokenize_bytes(&input, add, parse).unwrap(),
            reference.tokenize_bytes(&input, add, parse).unwrap(),
            "{}",
            g["id"]
        );
        n += 1;
    }
    assert!(n > 900, "{n} inputs");

    // What the handler leaves alone: an entry of two characters, a
    // character outside base64; llama.cpp then refuses the file as before.
    for bad in [
        Kv::Strs(vec!["QU".into(), "E=".into()]),
        Kv::Strs(vec!["Q".into(), "*".into()]),
        Kv::Strs(vec!["=".into()]),
    ] {
        let file = parse(&as_arctic(&|_| match &bad {
            Kv::Strs(v) => Kv::Strs(v.clone()),
            _ => unreachable!(),
        }));
        let err = Vocab::from_gguf_ollama(&file).unwrap_err();
        assert!(err.to_string().contains("precompiled_charsmap"), "{err}");
    }
}
