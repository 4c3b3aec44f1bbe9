//! Ollama's compat layer seen from a case: an Ollama-format gemma3 GGUF
//! without a chat template (its converter left out the norm epsilon and the
//! template) chats through llama-server with the Gemma 3 template the
//! compat layer injects; the same file converted by llama.cpp (epsilon
//! present) gets llama.cpp's ChatML fallback.

use engine::gguf::Gguf;
use ollama::case::RenderCase;
use serde_json::json;

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Writes one value (type tag and payload).
type Writer = Box<dyn Fn(&mut Vec<u8>)>;

/// A vocabulary-only gemma3 GGUF (SentencePiece, three special tokens and
/// the letters), with the norm epsilon or without.
fn gemma3(epsilon: bool) -> Vec<u8> {
    gemma3_with(epsilon, &[])
}

/// [`gemma3`] with more string keys.
fn gemma3_with(epsilon: bool, strings: &[(&'static str, &'static str)]) -> Vec<u8> {
    let mut tokens: Vec<String> = [
        "<pad>",
        "<eos>",
        "<bos>",
        "<start_of_turn>",
        "<end_of_turn>",
    ]
    .map(String::from)
    .to_vec();
    tokens.extend(('a'..='z').map(|c| c.to_string()));
    let n = tokens.len();
    let mut kvs: Vec<(&str, Writer)> = vec![
        (
            "general.architecture",
            Box::new(|o| {
                o.extend_from_slice(&8u32.to_le_bytes());
                put_str(o, "gemma3");
            }),
        ),
        (
            "tokenizer.ggml.model",
            Box::new(|o| {
                o.extend_from_slice(&8u32.to_le_bytes());
                put_str(o, "llama");
            }),
        ),
        (
            "tokenizer.ggml.tokens",
            Box::new(move |o| {
                o.extend_from_slice(&9u32.to_le_bytes());
                o.extend_from_slice(&8u32.to_le_bytes());
                o.extend_from_slice(&(tokens.len() as u64).to_le_bytes());
                for t in &tokens {
                    put_str(o, t);
                }
            }),
        ),
        (
            "tokenizer.ggml.token_type",
            Box::new(move |o| {
                o.extend_from_slice(&9u32.to_le_bytes());
                o.extend_from_slice(&5u32.to_le_bytes());
                o.extend_from_slice(&(n as u64).to_le_bytes());
                for i in 0..n {
                    o.extend_from_slice(&(if i < 5 { 3i32 } else { 1 }).to_le_bytes());
                }
            }),
        ),
        (
            "tokenizer.ggml.bos_token_id",
            Box::new(|o| {
                o.extend_from_slice(&4u32.to_le_bytes());
                o.extend_from_slice(&2u32.to_le_bytes());
            }),
        ),
    ];
    if epsilon {
        kvs.push((
            "gemma3.attention.layer_norm_rms_epsilon",
            Box::new(|o| {
                o.extend_from_slice(&6u32.to_le_bytes());
                o.extend_from_slice(&1e-6f32.to_le_bytes());
            }),
        ));
    }
    for &(k, v) in strings {
        kvs.push((
            k,
            Box::new(move |o| {
                o.extend_from_slice(&8u32.to_le_bytes());
                put_str(o, v);
            }),
        ));
    }
    let mut out = b"GGUF".to_vec();
    out.extend_from_slice(&3u32.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&(kvs.len() as u64).to_le_bytes());
    for (k, v) in &kvs {
        put_str(&mut out, k);
        v(&mut out);
    }
    out
}

fn prompt(file: &[u8], endpoint: &str, request: serde_json::Value) -> (String, String) {
    let g = Gguf::read(std::io::Cursor::new(file), "gemma3.gguf").unwrap();
    let mut case = RenderCase::from_json(&json!({
        "endpoint": endpoint, "model": {"name": "g"}, "request": request, "date": "2026-12-01"
    }))
    .unwrap();
    g.apply(&mut case);
    let r = case.render(None).unwrap();
    (r.prompt.unwrap(), r.explain.source_rule)
}

#[test]
fn an_ollama_gemma3_file_chats_with_the_injected_template() {
    let chat = json!({"model": "g", "messages": [{"role": "user", "content": "hi"}]});
    let (p, why) = prompt(&gemma3(false), "chat", chat.clone());
    // The vocabulary adds BOS itself, so llama-server drops the template's.
    assert_eq!(
        p,
        "<start_of_turn>user\nhi<end_of_turn>\n<start_of_turn>model\n"
    );
    assert!(why.contains("Gemma 3 template"), "{why}");
    let (p, why) = prompt(&gemma3(true), "chat", chat);
    assert_eq!(p, "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
    assert!(why.contains("ChatML"), "{why}");
    // /api/generate does not go native without HasChatTemplate.
    let (p, _) = prompt(
        &gemma3(false),
        "generate",
        json!({"model": "g", "prompt": "hi"}),
    );
    assert_eq!(p, "hi");
}

/// A GGUF's `tokenizer.chat_template.tool_use` reaches llama-server: in a
/// file with no other template (and not in Ollama's gemma3 format, so
/// nothing is injected) it is the default template, not ChatML.
#[test]
fn a_gguf_tool_use_template_is_read() {
    const TOOL_USE: &str = "T:{% for m in messages %}{{ m.content }}{% endfor %}";
    let file = gemma3_with(true, &[("tokenizer.chat_template.tool_use", TOOL_USE)]);
    let chat = json!({"model": "g", "messages": [{"role": "user", "content": "hi"}]});
    let (p, why) = prompt(&file, "chat", chat);
    assert_eq!(p, "T:hi");
    assert!(why.contains("tool_use template"), "{why}");
}
