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

/// The date and the word counter every case uses.
fn settings() -> Settings<'static> {
    Settings {
        date: Date::new(2026, 11, 30),
        tokenizer: Some(&Words),
        ..Settings::default()
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
    let settings = settings();
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
    let settings = settings();
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
    let settings = settings();
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

// Native mode (a GGUF chat template, no Go TEMPLATE): server/routes.go
// truncateNativeChatMessages, on the same counter.

fn native_model() -> Model {
    Model {
        name: "demo".into(),
        chat_template: Some(
            "{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}\
             {% if add_generation_prompt %}[assistant]{% endif %}"
                .into(),
        ),
        ..Model::default()
    }
}

fn run_native(m: &Model, endpoint: Endpoint, req: serde_json::Value) -> ollama::server::Rendered {
    let settings = settings();
    render(endpoint, m, &req, &settings).unwrap()
}

fn native_chat(messages: serde_json::Value, num_ctx: usize) -> ollama::server::Rendered {
    run_native(
        &native_model(),
        Endpoint::Chat,
        json!({"model": "demo", "messages": messages, "options": {"num_ctx": num_ctx}}),
    )
}

#[test]
fn native_everything_fits() {
    // 20 words as above, plus the generation prompt's one.
    let r = native_chat(conversation(), 21);
    assert!(r
        .prompt
        .unwrap()
        .starts_with("[system] be brief\n[user] one"));
    let t = r.explain.truncation.unwrap();
    assert_eq!((t.first_kept, t.counts), (0, vec![(0, 21)]));
}

#[test]
fn native_drops_oldest_and_keeps_earlier_system_messages_in_front() {
    let r = native_chat(conversation(), 14);
    // Unlike collate, the template sees the two system messages apart.
    assert_eq!(
        r.prompt.unwrap(),
        "[system] be brief\n[assistant] seven eight nine\n[system] late system\n[user] ten eleven\n[assistant]"
    );
    let t = r.explain.truncation.unwrap();
    assert_eq!(t.first_kept, 2);
    assert_eq!(t.counts, vec![(0, 21), (1, 21), (2, 14)]);
    let notes = &r.explain.messages;
    assert!(notes[1]
        .notes
        .iter()
        .any(|n| n.contains("dropped by num_ctx truncation (num_ctx 14)")));
    assert!(notes[0]
        .notes
        .iter()
        .any(|n| n.contains("kept by truncation")));
}

#[test]
fn native_the_last_message_always_stays() {
    let r = native_chat(conversation(), 1);
    assert_eq!(
        r.prompt.unwrap(),
        "[system] be brief\n[system] late system\n[user] ten eleven\n[assistant]"
    );
    assert_eq!(r.explain.truncation.unwrap().first_kept, 4);
}

#[test]
fn native_one_message_or_truncate_false_is_never_cut() {
    // len(req.Messages) <= 1: returned as is, nothing counted.
    let one = native_chat(json!([{"role": "user", "content": "a b c d e f"}]), 1);
    assert_eq!(one.prompt.unwrap(), "[user] a b c d e f\n[assistant]");
    assert!(one.explain.truncation.is_none());
    let r = run_native(
        &native_model(),
        Endpoint::Chat,
        json!({"model": "demo", "messages": conversation(), "options": {"num_ctx": 1}, "truncate": false}),
    );
    assert!(r
        .prompt
        .unwrap()
        .starts_with("[system] be brief\n[user] one"));
    assert!(r.explain.truncation.is_none());
}

#[test]
fn native_images_of_every_trial_message_cost_768_with_a_projector() {
    let mut m = native_model();
    m.has_projector = true;
    let msgs = json!([
        {"role": "system", "content": "sys", "images": ["aGk="]},
        {"role": "user", "content": "look", "images": ["aGk="]},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "and now"}
    ]);
    let r = run_native(
        &m,
        Endpoint::Chat,
        json!({"model": "demo", "messages": msgs, "options": {"num_ctx": 800}}),
    );
    let t = r.explain.truncation.unwrap();
    // Start 0: 2+2+2+3 words + 1 generation word + 2 images. Start 1 keeps
    // the system message, whose image still counts (chatPrompt would not
    // count it): 2+2+2+3+1 + 2 images. Start 2: 2+2+3+1 + 1 image.
    assert_eq!(t.counts, vec![(0, 10 + 1536), (1, 10 + 1536), (2, 8 + 768)]);
    assert_eq!(t.first_kept, 2);
    // The kept system message's image reaches the template as
    // llama-server's media marker, joined to the text without a newline.
    assert_eq!(
        r.prompt.unwrap(),
        "[system] sys<__media__>\n[assistant] ok\n[user] and now\n[assistant]"
    );
    // _debug_info's image_count is countChatImages of the untruncated messages.
    assert_eq!(r.image_count, 2);
}

#[test]
fn native_generate_with_messages_truncates_too() {
    // /api/generate of a model with Modelfile MESSAGEs renders them through
    // the chat template (the chat-like flow), with the same truncation.
    let mut m = native_model();
    m.messages = vec![
        ollama::api::Message::new("user", "one two three four five six"),
        ollama::api::Message::new("assistant", "seven eight"),
    ];
    let r = run_native(
        &m,
        Endpoint::Generate,
        json!({"model": "demo", "prompt": "nine ten", "options": {"num_ctx": 8}}),
    );
    assert_eq!(
        r.prompt.unwrap(),
        "[assistant] seven eight\n[user] nine ten\n[assistant]"
    );
    assert_eq!(r.explain.truncation.unwrap().first_kept, 1);
}

/// Ollama's `chatPrompt` appends the last trial to the kept system
/// messages' own slice when Go's `append` has room (three messages: room
/// for four), and the template's `collate` merges the trial's run of
/// system messages into the first one in place: the final prompt then
/// repeats the later system messages (recorded from every release's own
/// code in `golden/releases/server-selection.jsonl`).
#[test]
fn kept_system_messages_carry_the_last_trials_merge() {
    let msgs = json!([
        {"role": "system", "content": "s1"},
        {"role": "system", "content": "s2"},
        {"role": "user", "content": "u1 u1 u1"},
        {"role": "system", "content": "s3"},
        {"role": "assistant", "content": "a1"},
        {"role": "user", "content": "u2"}
    ]);
    let (prompt, ex) = run(msgs, 1);
    assert_eq!(prompt, "[system] s1\n\ns2\n\ns3\n\ns2\n\ns3\n[user] u2\n");
    assert!(ex.messages[0]
        .notes
        .iter()
        .any(|n| n.contains("merged them in place")));
    // four kept system messages fill their slice of four: the one-message
    // trial after them goes to a new array, and nothing is repeated
    let msgs = json!([
        {"role": "system", "content": "s1"},
        {"role": "system", "content": "s2"},
        {"role": "system", "content": "s3"},
        {"role": "user", "content": "u1 u1 u1"},
        {"role": "system", "content": "s4"},
        {"role": "assistant", "content": "a1"},
        {"role": "user", "content": "u2"}
    ]);
    let (prompt, ex) = run(msgs, 1);
    assert_eq!(prompt, "[system] s1\n\ns2\n\ns3\n\ns4\n[user] u2\n");
    assert!(ex
        .messages
        .iter()
        .all(|m| m.notes.iter().all(|n| !n.contains("in place"))));
}

#[test]
fn without_message_costs_the_prompt_and_truncation_are_the_same() {
    // the cache view's replay renders without each message's count
    for (m, num_ctx) in [(model(), 12), (native_model(), 12)] {
        let req =
            json!({"model": "demo", "messages": conversation(), "options": {"num_ctx": num_ctx}});
        let full = render(Endpoint::Chat, &m, &req, &settings()).unwrap();
        let lean = Settings {
            message_costs: false,
            ..settings()
        };
        let quick = render(Endpoint::Chat, &m, &req, &lean).unwrap();
        assert_eq!(quick.prompt, full.prompt);
        assert_eq!(quick.explain.truncation, full.explain.truncation);
        assert_eq!(full.explain.message_tokens.len(), 5);
        assert!(quick.explain.message_tokens.is_empty());
    }
}
