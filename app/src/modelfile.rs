//! A Modelfile for `ollama create` that reproduces the model side, so a
//! render can be checked against a real Ollama.

use serde_json::Value;

use crate::state::{parse_json_text, ModelState};

fn quoted(text: &str) -> Option<String> {
    if text.contains('\n') || text.contains('"') || text.starts_with(' ') || text.ends_with(' ') {
        // A closing """ right after a quote would be read as ending earlier.
        if text.contains("\"\"\"") || text.ends_with('"') {
            return None;
        }
        Some(format!("\"\"\"{text}\"\"\""))
    } else {
        Some(text.to_string())
    }
}

fn push_block(out: &mut String, keyword: &str, text: &str) {
    match quoted(text) {
        Some(q) => out.push_str(&format!("{keyword} {q}\n")),
        None => out.push_str(&format!(
            "# {keyword}: its text (with \"\"\" or a final quote) cannot be written in a Modelfile\n"
        )),
    }
}

/// The Modelfile text; `from` is what `FROM` names (a model or a GGUF path).
pub fn modelfile(m: &ModelState, from: &str) -> String {
    let mut out = format!("FROM {from}\n");
    if m.has_template {
        push_block(&mut out, "TEMPLATE", &m.template);
    }
    if !m.system.is_empty() {
        push_block(&mut out, "SYSTEM", &m.system);
    }
    if let Ok(Value::Array(list)) = parse_json_text(&m.messages, Value::Array(vec![])) {
        for msg in &list {
            let role = msg.get("role").and_then(Value::as_str).unwrap_or("user");
            let content = msg.get("content").and_then(Value::as_str).unwrap_or("");
            push_block(&mut out, &format!("MESSAGE {role}"), content);
        }
    }
    if let Ok(Value::Object(options)) =
        parse_json_text(&m.options, Value::Object(Default::default()))
    {
        for (name, value) in &options {
            let values = match value {
                Value::Array(list) => list.clone(),
                v => vec![v.clone()],
            };
            for v in &values {
                let text = match v {
                    Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                push_block(&mut out, &format!("PARAMETER {name}"), &text);
            }
        }
    }
    if !m.renderer.trim().is_empty() {
        out.push_str(&format!("RENDERER {}\n", m.renderer.trim()));
    }
    if !m.parser.trim().is_empty() {
        out.push_str(&format!("PARSER {}\n", m.parser.trim()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_each_instruction() {
        let m = ModelState {
            has_template: true,
            template: "{{ .Prompt }}\n".into(),
            system: "Be brief.".into(),
            messages:
                r#"[{"role":"user","content":"hi"},{"role":"assistant","content":"a \"b\" c"}]"#
                    .into(),
            parser: "qwen3".into(),
            options: r#"{"num_ctx": 8192, "stop": ["</s>", "<|im_end|>"], "temperature": 0.5}"#
                .into(),
            ..ModelState::default()
        };
        assert_eq!(
            modelfile(&m, "./model.gguf"),
            "FROM ./model.gguf\nTEMPLATE \"\"\"{{ .Prompt }}\n\"\"\"\nSYSTEM Be brief.\nMESSAGE user hi\nMESSAGE assistant \"\"\"a \"b\" c\"\"\"\nPARAMETER num_ctx 8192\nPARAMETER stop </s>\nPARAMETER stop <|im_end|>\nPARAMETER temperature 0.5\nPARSER qwen3\n"
        );
        let m = ModelState {
            has_template: true,
            template: "a\"\"\"b".into(),
            ..ModelState::default()
        };
        assert!(modelfile(&m, "x").contains("# TEMPLATE: its text"));
    }
}
