//! `num_ctx` truncation (server/prompt.go chatPrompt) on a counting
//! function of our own: one token per whitespace-separated word.

use ollama::date::Date;
use ollama::model::Model;
use ollama::server::{render, Endpoint, Settings, TokenCounter};
use serde_json::json;

struct Words;

impl TokenCounter for Words {
    fn count(&self, text: &str) -> Result<usize, String> {
        Ok(text.split_whitespace().count())
    }
}

fn model() -> Model {
    Model {
        name: "demo".into(),
        template: Some("{{ range .Messages }}[{{ .Role }}] {{ .Content }}\n{{ end }}".into()),
        ..Model::default()
    }
}

fn run(messages: serde_json::Value, num_ctx: usize) -> (String, ollama::server::Explain) {
    let settings = Settings {
        date: Date::new(2026, 11, 30),
        tokenizer: Some(&Words),
        ..Settings::default()
    };
    let req = json!({"model": "demo", "messages": messages, "options": {"num_ctx": num_ctx}});
    let r = render(Endpoint::Chat, &model(), &req, &settings).unwrap();
    (r.prompt.unwrap(), r.explain)
}

fn conversation() -> serde_json::Value {
    json!([
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "one two three four five six"},
        {"role": "assistant", "content": "seven eight nine"},
        {"role": "system", "content": "late system"},
        {"role": "user", "content": "ten eleven"}
    ])
}

#[test]
fn everything_fits() {
    // 2+1 words per message header+content: total 3+7+4+3+3 = 20 words.
    let (prompt, ex) = run(conversation(), 20);
    assert!(prompt.starts_with("[system] be brief\n[user] one"));
    let t = ex.truncation.unwrap();
    assert_eq!((t.first_kept, t.counts), (0, vec![(0, 20)]));
    // Per-message costs add up to the whole conversation.
    assert_eq!(ex.message_tokens, vec![3, 7, 4, 3, 3]);
    assert_eq!(ex.message_tokens.iter().sum::<i64>(), 20);
}

#[test]
fn drops_oldest_and_keeps_earlier_system_messages_in_front() {
    let (prompt, ex) = run(conversation(), 13);
    // Start 1 (system + rest) = 20 words, start 2 = 3 + 4+3+3 = 13.
    assert_eq!(prompt, "[system] be brief\n[assistant] seven eight nine\n[system] late system\n[user] ten eleven\n");
    let t = ex.truncation.unwrap();
    assert_eq!(t.first_kept, 2);
    assert_eq!(t.counts, vec![(0, 20), (1, 20), (2, 13)]);
    assert!(ex.messages[1]
        .notes
        .iter()
        .any(|n| n.contains("dropped by num_ctx truncation")));
    assert!(ex.messages[0]
        .notes
        .iter()
        .any(|n| n.contains("kept by truncation")));
}

#[test]
fn the_last_message_always_stays() {
    let (prompt, ex) = run(conversation(), 1);
    // System messages before the cut come first, in order (and collate
    // then merges the two consecutive system messages).
    assert_eq!(
        prompt,
        "[system] be brief\n\nlate system\n[user] ten eleven\n"
    );
    assert_eq!(ex.truncation.unwrap().first_kept, 4);
}

#[test]
fn truncate_false_keeps_everything() {
    let settings = Settings {
        date: Date::new(2026, 11, 30),
        tokenizer: Some(&Words),
        ..Settings::default()
    };
    let req = json!({"model": "demo", "messages": conversation(), "options": {"num_ctx": 1}, "truncate": false});
    let r = render(Endpoint::Chat, &model(), &req, &settings).unwrap();
    assert!(r
        .prompt
        .unwrap()
        .starts_with("[system] be brief\n[user] one"));
    assert!(r.explain.truncation.is_none());
}

#[test]
fn images_cost_768_tokens_with_a_projector() {
    let settings = Settings {
        date: Date::new(2026, 11, 30),
        tokenizer: Some(&Words),
        ..Settings::default()
    };
    let mut m = model();
    m.has_projector = true;
    let msgs = json!([
        {"role": "user", "content": "look", "images": ["aGk="]},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "and now", "images": ["aGk="]}
    ]);
    let req = json!({"model": "demo", "messages": msgs, "options": {"num_ctx": 800}});
    let r = render(Endpoint::Chat, &m, &req, &settings).unwrap();
    let t = r.explain.truncation.unwrap();
    // start 0: 2+2+3 words + 2 images; start 1: 2+3 words + 1 image.
    assert_eq!(t.counts, vec![(0, 7 + 1536), (1, 5 + 768)]);
    // Image tags count only kept messages, from 0.
    assert_eq!(r.prompt.unwrap(), "[assistant] ok\n[user] [img-0]and now\n");
    assert_eq!(r.image_count, 1);
}
