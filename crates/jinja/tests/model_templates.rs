//! Every `models/templates/*.jinja` of llama.cpp parses, runs on a simple
//! conversation without panicking, and goes through `caps_get`.

fn templates() -> Vec<(String, String)> {
    let dir = testkit::llama_cpp("models/templates");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("templates dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jinja"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn conversation() -> serde_json::Value {
    serde_json::json!({
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Hello!"},
            {"role": "assistant", "content": "Hi there! How can I help?"},
            {"role": "user", "content": "What is 2+2?"},
        ],
        "add_generation_prompt": true,
        "bos_token": "<s>",
        "eos_token": "</s>",
    })
}

#[test]
fn all_model_templates_parse_and_run() {
    let ts = templates();
    assert!(ts.len() >= 70, "found {} templates", ts.len());
    let mut failures = Vec::new();
    for (name, src) in &ts {
        if let Err(e) = jinja::parse(src) {
            failures.push(format!("{name}: parse: {e}"));
            continue;
        }
        match jinja::render(src, &conversation()) {
            Ok(out) => assert!(
                out.contains("What is 2+2?") || out.contains("2+2"),
                "{name}: {out:?}"
            ),
            // the template's own raise_exception (gemma-2 refuses the system role)
            Err(e) if e.kind() == jinja::ErrorKind::Raised => {
                assert!(e.message().contains("Jinja Exception: "), "{name}: {e}")
            }
            Err(e) => failures.push(format!("{name}: render: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn all_model_templates_caps() {
    for (name, src) in templates() {
        let prog = jinja::parse(&src).unwrap();
        let caps = jinja::caps_get(&prog).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            caps.supports_string_content || caps.supports_typed_content,
            "{name}: {caps}"
        );
    }
}
