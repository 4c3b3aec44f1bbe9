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
