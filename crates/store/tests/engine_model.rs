//! The engine's model for a stored model takes both of its GGUF's chat
//! templates: `tokenizer.chat_template` and
//! `tokenizer.chat_template.tool_use` (which llama-server renders requests
//! with tools with), an empty one being none.

use store::model::StoredModel;
use store::show::engine_model;

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u64).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// A metadata-only GGUF with string keys.
fn gguf(kvs: &[(&str, &str)]) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend_from_slice(&3u32.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&(kvs.len() as u64).to_le_bytes());
    for (k, v) in kvs {
        put_str(&mut out, k);
        out.extend_from_slice(&8u32.to_le_bytes());
        put_str(&mut out, v);
    }
    out
}

fn engine(kvs: &[(&str, &str)]) -> ollama::model::Model {
    let file = gguf(kvs);
    let meta = gguf_meta::parse(file.as_slice()).unwrap();
    engine_model(&StoredModel::default(), Some(&meta))
}

#[test]
fn both_chat_templates_are_read() {
    let m = engine(&[
        ("general.architecture", "llama"),
        ("tokenizer.chat_template", "D"),
        ("tokenizer.chat_template.tool_use", "T"),
    ]);
    assert_eq!(m.chat_template.as_deref(), Some("D"));
    assert_eq!(m.chat_template_tool_use.as_deref(), Some("T"));
    let m = engine(&[
        ("general.architecture", "llama"),
        ("tokenizer.chat_template.tool_use", ""),
    ]);
    assert_eq!(m.chat_template, None);
    assert_eq!(m.chat_template_tool_use, None);
}
