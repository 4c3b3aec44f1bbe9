//! The same conversation as another runtime renders it: Hugging Face
//! transformers' `apply_chat_template` (what vLLM, SGLang and MLX-LM render
//! with), beside Ollama's prompt, and what explains where they part.
//!
//! The conversation goes as Ollama's native mode sends it to llama-server
//! (`runtime::llama_server::body_of_ollama_chat`), then as transformers
//! takes that body (`runtime::transformers::request_of_server_body`): the
//! same messages, tools and template arguments. The model is the state's
//! Jinja chat template and BOS/EOS texts, as a `tokenizer_config.json` or a
//! GGUF gives them.

use serde_json::Value;

use crate::state::{Endpoint, State};

pub use runtime::transformers::VERSION as TRANSFORMERS_VERSION;

/// Why there is no transformers render to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotComparable {
    /// `/api/generate` sends no conversation.
    NeedsChat,
    /// The request is not valid JSON, or not an `/api/chat` body.
    BadRequest,
}

/// A transformers render of the state's conversation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransformersRender {
    /// The prompt, or the exception as Python prints it.
    pub prompt: Result<String, String>,
    /// The request transformers was given (for Explain and the causes).
    pub request: Value,
}

/// The seconds of `date` (`YYYY-MM-DD`) at 00:00 UTC; 0 when unreadable.
fn midnight(date: &str) -> i64 {
    ollama::date::Date::parse(date)
        .map(|d| ollama::native::NativeTime::from_date(d).unix())
        .unwrap_or(0)
}

/// The state's conversation as transformers 5.25.0 renders it. `today`
/// (`YYYY-MM-DD`) is the clock when the state sets no date.
pub fn transformers(state: &State, today: &str) -> Result<TransformersRender, NotComparable> {
    let body = server_body(state)?;
    let request = runtime::transformers::request_of_server_body(&body);
    let m = &state.model;
    let model = runtime::transformers::Model {
        templates: if m.chat_template.is_empty() {
            runtime::transformers::Templates::None
        } else {
            runtime::transformers::Templates::One(m.chat_template.clone())
        },
        special: [("bos_token", &m.bos_token), ("eos_token", &m.eos_token)]
            .into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(k, t)| (k.to_string(), t.clone()))
            .collect(),
    };
    let date = if m.date.is_empty() { today } else { &m.date };
    let prompt = runtime::transformers::render(&model, &request, midnight(date));
    Ok(TransformersRender { prompt, request })
}

/// A runtime the Compare pane can set on either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// Ollama at a supported release (its native mode at that release's
    /// llama.cpp build).
    Ollama(changes::Release),
    /// llama-server itself at a llama.cpp build, given the body Ollama's
    /// native mode sends.
    LlamaServer(changes::Build),
    /// Hugging Face transformers' `apply_chat_template`.
    Transformers,
}

impl Runtime {
    /// Every runtime and version the pane offers: Ollama's releases
    /// (newest first), llama-server's builds, transformers.
    pub fn all() -> Vec<Runtime> {
        let mut all: Vec<Runtime> = changes::Release::SUPPORTED
            .iter()
            .rev()
            .map(|r| Runtime::Ollama(*r))
            .collect();
        all.extend(
            changes::Build::SUPPORTED
                .iter()
                .map(|b| Runtime::LlamaServer(*b)),
        );
        all.push(Runtime::Transformers);
        all
    }

    /// As `promptscope diff --as` writes it (`llama-server@b10488`).
    pub fn id(self) -> String {
        match self {
            Runtime::Ollama(r) => format!("ollama@{r}"),
            Runtime::LlamaServer(b) => format!("llama-server@{b}"),
            Runtime::Transformers => format!("transformers@{TRANSFORMERS_VERSION}"),
        }
    }

    /// The runtime an [`Runtime::id`] names.
    pub fn parse(id: &str) -> Option<Runtime> {
        Runtime::all().into_iter().find(|r| r.id() == id)
    }
}

/// One runtime's render of the state's conversation.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// The prompt, or the runtime's error (Ollama's or llama-server's
    /// message, or Python's exception).
    pub prompt: Result<String, String>,
    /// What rendered it: Ollama's template path, or the runtime's entry.
    pub path: String,
    /// The build-specific rules the render consulted (Ollama, llama-server).
    pub rules: Vec<ollama::server::BuildRule>,
}

/// The state's conversation as `runtime` renders it (`gguf`: the model's
/// file, for Ollama's render). `today` (`YYYY-MM-DD`) is the clock when the
/// state sets no date.
pub fn render_as(
    state: &State,
    today: &str,
    gguf: Option<&crate::gguf::Gguf>,
    runtime: Runtime,
) -> Result<Rendered, NotComparable> {
    match runtime {
        Runtime::Ollama(release) => {
            let mut state = state.clone();
            state.ollama = release.tag.to_string();
            let out = crate::engine::run_with(&state, today, gguf);
            let error = out
                .error
                .as_ref()
                .map(|e| e.message.clone())
                .or_else(|| out.input_error.as_ref().map(|e| e.message.clone()));
            Ok(Rendered {
                path: out.source().to_string(),
                rules: out
                    .explain
                    .as_ref()
                    .map(|e| [&e.build_rules[..], &e.release_rules[..]].concat())
                    .unwrap_or_default(),
                prompt: match error {
                    Some(e) => Err(e),
                    None => Ok(out.prompt.clone().unwrap_or_default()),
                },
            })
        }
        Runtime::LlamaServer(build) => {
            let body = server_body(state)?;
            let m = &state.model;
            let model = runtime::llama_server::Model {
                chat_template: &m.chat_template,
                // the GGUF's second template, for requests with tools
                chat_template_tool_use: gguf.and_then(|g| g.tool_use_template()).unwrap_or(""),
                bos_token: &m.bos_token,
                eos_token: &m.eos_token,
                add_bos: false,
                add_eos: false,
                vision: false,
                audio: false,
            };
            let date = if m.date.is_empty() { today } else { &m.date };
            let path = "POST /apply-template".to_string();
            Ok(
                match runtime::llama_server::render(&model, &body, build, midnight(date)) {
                    Ok(r) => Rendered {
                        prompt: Ok(r.prompt),
                        path,
                        rules: r.build_rules,
                    },
                    Err(f) => Rendered {
                        prompt: Err(f.message),
                        path,
                        rules: f.build_rules,
                    },
                },
            )
        }
        Runtime::Transformers => {
            let r = transformers(state, today)?;
            Ok(Rendered {
                prompt: r.prompt,
                path: format!("apply_chat_template (transformers {TRANSFORMERS_VERSION})"),
                rules: Vec::new(),
            })
        }
    }
}

/// The llama-server body of the state's `/api/chat` conversation, as
/// Ollama's native mode sends it.
fn server_body(state: &State) -> Result<Value, NotComparable> {
    if state.endpoint != Endpoint::Chat {
        return Err(NotComparable::NeedsChat);
    }
    let request: Value =
        serde_json::from_str(&state.request).map_err(|_| NotComparable::BadRequest)?;
    let system = Some(state.model.system.as_str()).filter(|s| !s.is_empty());
    runtime::llama_server::body_of_ollama_chat(system, &request)
        .map_err(|_| NotComparable::BadRequest)
}

/// What explains a difference: a row of the change table or a construct
/// two runtimes take differently, as its name and a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// `preserve_reasoning_default`, `content_parts`, ...
    pub id: String,
    /// What each side does.
    pub line: String,
}

/// Where two runtimes' prompts first part (a byte) and what explains it:
/// the change-table rows between two llama.cpp builds that either render
/// consulted, and, with transformers on one side, the constructs; `None`
/// when the prompts are equal or one side failed.
pub fn explain(
    state: &State,
    today: &str,
    a: (Runtime, &Rendered),
    b: (Runtime, &Rendered),
) -> Option<(usize, Vec<Reason>)> {
    let (Ok(pa), Ok(pb)) = (&a.1.prompt, &b.1.prompt) else {
        return None;
    };
    let at = runtime::diff::first_byte(pa, pb)?;
    let spec = |r: Runtime| match r {
        Runtime::Ollama(r) => runtime::Spec::Ollama(r),
        Runtime::LlamaServer(b) => runtime::Spec::LlamaServer(b),
        Runtime::Transformers => runtime::Spec::Transformers,
    };
    let mut reasons: Vec<Reason> =
        runtime::diff::explained_by((spec(a.0), &a.1.rules), (spec(b.0), &b.1.rules))
            .into_iter()
            .map(|c| Reason {
                id: c.id.to_string(),
                line: format!(
                    "{} ({} {}, {}); before: {}",
                    c.new,
                    c.runtime,
                    c.first_version(),
                    c.upstream,
                    c.old
                ),
            })
            .collect();
    if (a.0 == Runtime::Transformers) != (b.0 == Runtime::Transformers) {
        let request = transformers(state, today)
            .map(|r| r.request)
            .unwrap_or(Value::Null);
        reasons.extend(
            runtime::diff::runtime_causes(pa, pb, at, &request, &state.model.chat_template)
                .into_iter()
                .map(|c| Reason {
                    id: c.id.to_string(),
                    line: c.line.to_string(),
                }),
        );
    }
    Some((at, reasons))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A GGUF holding only metadata: `general.architecture` and the given
    /// strings (GGUF v3, no tensors).
    fn gguf_of(strings: &[(&str, &str)]) -> crate::gguf::Gguf {
        let mut kv = vec![("general.architecture", "llama")];
        kv.extend_from_slice(strings);
        let mut b = b"GGUF".to_vec();
        b.extend_from_slice(&3u32.to_le_bytes());
        b.extend_from_slice(&0u64.to_le_bytes());
        b.extend_from_slice(&(kv.len() as u64).to_le_bytes());
        let put = |b: &mut Vec<u8>, s: &str| {
            b.extend_from_slice(&(s.len() as u64).to_le_bytes());
            b.extend_from_slice(s.as_bytes());
        };
        for (k, v) in kv {
            put(&mut b, k);
            b.extend_from_slice(&8u32.to_le_bytes());
            put(&mut b, v);
        }
        crate::gguf::Gguf::from_bytes("meta.gguf", &b).unwrap()
    }

    #[test]
    fn llama_server_renders_requests_with_tools_with_the_ggufs_tool_use_template() {
        let g = gguf_of(&[
            (
                "tokenizer.chat_template",
                "D:{% for m in messages %}{{ m.content }}{% endfor %}",
            ),
            (
                "tokenizer.chat_template.tool_use",
                "T:{% for m in messages %}{{ m.content }}{% endfor %}",
            ),
        ]);
        let tools = r#"[{"type": "function", "function": {"name": "f", "description": "", "parameters": {"type": "object", "properties": {}}}}]"#;
        let mut s = chat(
            g.chat_template().unwrap(),
            &format!(
                r#"{{"model": "m", "messages": [{{"role": "user", "content": "hi"}}], "tools": {tools}}}"#
            ),
        );
        let rt = Runtime::LlamaServer(changes::Build::B10488);
        let r = render_as(&s, "2026-12-05", Some(&g), rt).unwrap();
        assert_eq!(r.prompt.unwrap(), "T:hi");
        s.request = r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#.into();
        let r = render_as(&s, "2026-12-05", Some(&g), rt).unwrap();
        assert_eq!(r.prompt.unwrap(), "D:hi");
    }
    fn chat(template: &str, request: &str) -> State {
        let mut s = State {
            endpoint: Endpoint::Chat,
            request: request.into(),
            ..State::default()
        };
        s.model.chat_template = template.into();
        s.model.bos_token = "<s>".into();
        s
    }

    #[test]
    fn the_conversation_as_transformers_renders_it() {
        let s = chat(
            "{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}[assistant]{% endif %}",
            r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
        );
        let r = transformers(&s, "2026-12-01").unwrap();
        assert_eq!(r.prompt.as_deref(), Ok("<s>[user] hi\n[assistant]"));
        // against llama-server b10488 and Ollama: the same prompt here
        let t = render_as(&s, "2026-12-01", None, Runtime::Transformers).unwrap();
        let l = render_as(
            &s,
            "2026-12-01",
            None,
            Runtime::LlamaServer(changes::Build::B10488),
        )
        .unwrap();
        let o = render_as(
            &s,
            "2026-12-01",
            None,
            Runtime::Ollama(changes::Release::NEWEST),
        )
        .unwrap();
        assert_eq!((&l.prompt, &o.prompt), (&t.prompt, &t.prompt));
        assert_eq!(
            explain(
                &s,
                "2026-12-01",
                (Runtime::Ollama(changes::Release::NEWEST), &o),
                (Runtime::Transformers, &t)
            ),
            None
        );
        // a side that differs: named where it parts
        let other = Rendered {
            prompt: Ok("<s>[user] hi[assistant]".into()),
            ..o.clone()
        };
        let (at, why) = explain(
            &s,
            "2026-12-01",
            (Runtime::Ollama(changes::Release::NEWEST), &other),
            (Runtime::Transformers, &t),
        )
        .unwrap();
        assert_eq!(at, 12);
        assert_eq!(why[0].id, "engine");
        assert_eq!(
            Runtime::parse("llama-server@b10488"),
            Some(Runtime::LlamaServer(changes::Build::B10488))
        );
        assert_eq!(Runtime::Transformers.id(), "transformers@5.25.0");
        let mut g = s.clone();
        g.endpoint = Endpoint::Generate;
        assert_eq!(
            transformers(&g, "2026-12-01"),
            Err(NotComparable::NeedsChat)
        );
    }

    #[test]
    fn two_ollama_releases_part_where_a_row_of_the_table_acts() {
        let mut s = chat(
            "",
            r#"{"model": "m", "think": false, "messages": [{"role": "user", "content": "Hello"},
                {"role": "assistant", "content": "Hi!"}, {"role": "system", "content": "Answer in French."},
                {"role": "user", "content": "How are you?"}]}"#,
        );
        s.model.renderer = "qwen3.8".into();
        s.model.parser = "qwen3.5".into();
        let at = |tag: &str| {
            let r = changes::Release::parse(tag).unwrap();
            (
                Runtime::Ollama(r),
                render_as(&s, "2026-12-01", None, Runtime::Ollama(r)).unwrap(),
            )
        };
        let (old, new) = (at("0.32.15-rc1"), at("0.32.15-rc2"));
        assert!(old
            .1
            .prompt
            .as_ref()
            .unwrap()
            .starts_with("<|im_start|>user\nHello"));
        assert!(new
            .1
            .prompt
            .as_ref()
            .unwrap()
            .starts_with("<|im_start|>system\nAnswer in French."));
        let (byte, why) = explain(&s, "2026-12-01", (old.0, &old.1), (new.0, &new.1)).unwrap();
        assert_eq!(byte, 12);
        assert_eq!(why.len(), 1);
        assert_eq!(why[0].id, "qwen38_fold_all_instructions");
        assert!(
            why[0].line.contains(
                "(Ollama 0.32.15-rc2, PR #17855, commit b8a627244); before: only the leading run"
            ),
            "{}",
            why[0].line
        );
        // the pane offers every release, newest first, then the builds
        let ids: Vec<String> = Runtime::all().iter().map(|r| r.id()).collect();
        assert_eq!(ids[0], "ollama@0.33.0-rc2");
        assert!(ids.contains(&"ollama@0.32.15-rc0".to_string()));
        assert_eq!(Runtime::parse("ollama@0.32.15-rc1"), Some(old.0));
    }

    #[test]
    fn no_jinja_template_is_transformers_own_error() {
        let s = chat(
            "",
            r#"{"model": "m", "messages": [{"role": "user", "content": "hi"}]}"#,
        );
        let r = transformers(&s, "2026-12-01").unwrap();
        assert!(r
            .prompt
            .unwrap_err()
            .starts_with("ValueError: Cannot use chat template functions"));
    }
}
