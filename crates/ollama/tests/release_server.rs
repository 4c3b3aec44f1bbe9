//! The handlers' template selection, capabilities and capability errors,
//! and `num_ctx` truncation, against recordings of each release's own
//! server code (`tests/golden/releases/server-selection*.jsonl`: how they
//! were recorded is in that folder's README): `GetModel` on a model store
//! written for each case, `PreferChatTemplate`, `shouldUseGoTemplate`,
//! `usesOllamaRenderedChat`, `shouldUseHarmony`, `chatModeForModel`,
//! `selectedTemplateSource` (where the tag has it), `Capabilities()`,
//! `CheckCapabilities(want...)`, and `chatPrompt` (rendered chats) or
//! `truncateNativeChatMessages` (native chats) with one token per word.

mod releases_common;

use ollama::date::Date;
use ollama::model::{GgufFacts, GoTemplateEnv, Loaded, Model};
use ollama::server::{self, Endpoint, Settings, TokenCounter};
use releases_common::{lines, report_over};
use serde_json::{json, Value as Json};

/// The recorder's tokenizer: one token per whitespace-separated word
/// (Go's `strings.Fields`; the cases hold only ASCII spaces and newlines).
struct Words;

impl TokenCounter for Words {
    fn count(&self, text: &str) -> Result<usize, String> {
        Ok(text.split_whitespace().count())
    }
}

const OUTCOME: [&str; 12] = [
    "has_go_template",
    "has_chat_template",
    "prefer_chat_template",
    "use_go_template",
    "rendered_chat",
    "harmony",
    "native",
    "source",
    "capabilities",
    "check",
    "answer",
    "load_error",
];

fn s(v: &Json) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn strings(v: &Json) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(s).collect())
        .unwrap_or_default()
}

/// The model the recorder wrote to its store for a case: a GGUF with
/// `general.architecture` (and the chat template, `pooling_type`,
/// `vision.block_count`, `audio.block_count` as the case says), a config
/// blob, the TEMPLATE layer and a projector layer.
fn model(m: &Json) -> Model {
    Model {
        name: m["name"].as_str().unwrap_or("demo").to_string(),
        template: m["template"].as_str().map(str::to_string),
        chat_template: m["chat_template"].as_str().map(str::to_string),
        renderer: s(&m["renderer"]),
        parser: s(&m["parser"]),
        family: s(&m["family"]),
        families: strings(&m["families"]),
        capabilities: strings(&m["capabilities"]),
        gguf: Some(GgufFacts {
            architecture: m["arch"].as_str().unwrap_or("llama").to_string(),
            pooling: m["pooling"].as_bool().unwrap_or(false),
            vision: m["vision"].as_bool().unwrap_or(false),
            audio: m["audio"].as_bool().unwrap_or(false),
            context_length: None,
            sliding_window: None,
            block_count: None,
        }),
        has_projector: m["projector"].as_bool().unwrap_or(false),
        ..Model::default()
    }
}

/// Messages as role and content (what a native chat's truncation is
/// compared by: llama-server, not Ollama, renders them).
fn role_content(msgs: Vec<&Json>) -> Vec<(String, String)> {
    msgs.iter()
        .map(|m| (s(&m["role"]), s(&m["content"])))
        .collect()
}

/// Our answer for one case, in the recording's shape.
fn answer(case: &Json, release: changes::Release) -> Json {
    let m = model(&case["model"]);
    let env = GoTemplateEnv::from_env_value(case["env"].as_str());
    let loaded = match Loaded::load_in(&m, env.clone(), Date::new(2026, 11, 30), release) {
        Ok(l) => l,
        Err(e) => return json!({ "load_error": e }),
    };
    let caps = loaded.capabilities(|n| ollama::parsers::parser_capabilities_in(n, release));
    let mut out = json!({
        "has_go_template": m.template.is_some(),
        "has_chat_template": m.chat_template.is_some(),
        "prefer_chat_template": loaded.prefer_chat_template(),
        "use_go_template": loaded.uses_go_template(),
        "rendered_chat": loaded.ollama_renders(),
        "harmony": loaded.uses_harmony(),
        "native": loaded.native_chat(),
        "capabilities": caps.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
    });
    if case.get("source").is_some() {
        out["source"] = json!(loaded.source().label());
    }
    if let Some(want) = case["want"].as_array() {
        let want: Vec<String> = want.iter().map(s).collect();
        out["check"] = json!(server::capability_error(&loaded, &caps, &want));
    }
    if let Some(chat) = case.get("chat") {
        let mut req = json!({
            "model": "demo",
            "messages": chat["messages"],
            "options": {"num_ctx": chat["num_ctx"]},
            "truncate": chat["truncate"],
        });
        if let Some(tools) = chat.get("tools") {
            req["tools"] = tools.clone();
        }
        if let Some(think) = chat.get("think") {
            req["think"] = think.clone();
        }
        let settings = Settings {
            date: Date::new(2026, 11, 30),
            tokenizer: Some(&Words),
            go_template_env: env,
            release,
            ..Settings::default()
        };
        out["answer"] = match server::render(Endpoint::Chat, &m, &req, &settings) {
            Err(f) => json!({ "error": f.message }),
            Ok(r) if loaded.native_chat() => {
                // the messages truncateNativeChatMessages keeps: the system
                // messages before the cut, then the rest
                let msgs = chat["messages"].as_array().unwrap();
                let first = r.explain.truncation.as_ref().map_or(0, |t| t.first_kept);
                let kept: Vec<&Json> = msgs[..first]
                    .iter()
                    .filter(|m| m["role"] == "system")
                    .chain(&msgs[first..])
                    .collect();
                json!({ "kept": role_content(kept) })
            }
            Ok(r) => json!({ "prompt": r.prompt, "media": r.image_count }),
        };
    }
    out
}

/// The recording's outcome, with a native case's kept messages as the
/// prompt they render to and media as a count.
fn expected(rec: &Json) -> Json {
    let mut e = serde_json::Map::new();
    for k in OUTCOME {
        if let Some(v) = rec.get(k) {
            e.insert(k.to_string(), v.clone());
        }
    }
    if let Some(chat) = e.get_mut("answer") {
        if let Some(kept) = chat.get("kept") {
            *chat = json!({ "kept": role_content(kept.as_array().unwrap().iter().collect()) });
        } else if let Some(media) = chat.get("media") {
            let n = media.as_array().unwrap().len();
            chat["media"] = json!(n);
        }
    }
    Json::Object(e)
}

#[test]
fn server_selection_truncation_and_errors_per_release() {
    let base = lines("server-selection.jsonl");
    let releases = lines("server-selection-releases.jsonl");
    let tags: Vec<String> = releases
        .iter()
        .filter(|l| l.get("id").is_none())
        .map(|l| s(&l["release"]))
        .collect();
    assert!(tags.len() >= 9, "recorded tags: {tags:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for tag in &tags {
        let release = changes::Release::parse(tag).unwrap();
        for case in &base {
            let id = s(&case["id"]);
            let rec = releases
                .iter()
                .find(|l| s(&l["release"]) == *tag && s(&l["id"]) == id)
                .map(|l| {
                    let mut r = case.clone();
                    for k in OUTCOME {
                        r.as_object_mut().unwrap().remove(k);
                    }
                    for (k, v) in l["expect"].as_object().unwrap() {
                        r[k] = v.clone();
                    }
                    r
                })
                .unwrap_or_else(|| case.clone());
            let want = expected(&rec);
            let got = answer(&rec, release);
            checked += 1;
            if got != want {
                failures.push(format!("{tag} {id}:\n  expected {want}\n  got      {got}"));
            }
        }
    }
    report_over(
        "server selection cases",
        checked,
        &format!("{} recorded releases", tags.len()),
        &failures,
    );
}

/// Go's `append` growth for `[]api.Message`, as Go 1.26.0 printed `cap(s)`
/// after each of 2,000 appends to an empty slice at v0.33.0-rc2 (the type
/// is 128 bytes at every recorded tag): what decides whether a truncation
/// trial shares `chatPrompt`'s system slice.
#[test]
fn go_append_growth_of_api_message() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/releases/go-append-caps.json");
    let rec: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        rec["sizeof"].as_u64(),
        Some(ollama::goslice::API_MESSAGE_SIZE as u64)
    );
    let caps = rec["caps"].as_array().unwrap();
    assert_eq!(caps.len(), 2000);
    for (i, c) in caps.iter().enumerate() {
        let got = ollama::goslice::append_capacity(i + 1, ollama::goslice::API_MESSAGE_SIZE);
        assert_eq!(Some(got as u64), c.as_u64(), "after {} appends", i + 1);
    }
}
