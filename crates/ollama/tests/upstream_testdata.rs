//! Ollama's own template tests (`template/template_test.go` TestTemplate):
//! the 20 built-in templates on three conversations, compared with the
//! upstream expected files in `../shared/corpus/ollama/v0.33.0-rc2/template/testdata`
//! (the reference material beside the clone: `scripts/test.sh` skips the
//! tests named `shared_*` and lists them as not run where it is absent).

use std::path::PathBuf;

use ollama::api::Message;
use ollama::date::Date;
use ollama::template::{Template, Values};

fn template_dir() -> PathBuf {
    testkit::ollama_templates()
}

#[test]
fn shared_sixty_upstream_conversations() {
    let conversations: Vec<(&str, Vec<Message>)> = vec![
        ("user", vec![Message::new("user", "Hello, how are you?")]),
        (
            "user-assistant-user",
            vec![
                Message::new("user", "Hello, how are you?"),
                Message::new("assistant", "I'm doing great. How can I help you today?"),
                Message::new("user", "I'd like to show off how chat templating works!"),
            ],
        ),
        (
            "system-user-assistant-user",
            vec![
                Message::new("system", "You are a helpful assistant."),
                Message::new("user", "Hello, how are you?"),
                Message::new("assistant", "I'm doing great. How can I help you today?"),
                Message::new("user", "I'd like to show off how chat templating works!"),
            ],
        ),
    ];
    let dir = template_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().to_string_lossy().into_owned();
            n.ends_with(".gotmpl").then_some(n)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 20);
    let mut checked = 0;
    let mut failures = Vec::new();
    for name in &names {
        // Ollama normalises line endings of built-in templates when loading them.
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap()
            .replace("\r\n", "\n");
        let t = Template::parse(&text, Date::new(2026, 11, 30)).unwrap();
        for (conv, msgs) in &conversations {
            let out = t
                .execute(&Values {
                    messages: msgs.clone(),
                    ..Values::default()
                })
                .unwrap();
            let mut got = out.prompt.into_bytes();
            let trims = [
                "chatqa.gotmpl",
                "llama2-chat.gotmpl",
                "mistral-instruct.gotmpl",
                "openchat.gotmpl",
                "vicuna.gotmpl",
            ];
            if trims.contains(&name.as_str()) && got.last() == Some(&b' ') {
                got.pop();
            }
            let want = std::fs::read(dir.join("testdata").join(name).join(conv)).unwrap();
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{name}/{conv}:\n  want {:?}\n  got  {:?}",
                    String::from_utf8_lossy(&want),
                    String::from_utf8_lossy(&got)
                ));
            }
        }
    }
    assert_eq!(checked, 60);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
