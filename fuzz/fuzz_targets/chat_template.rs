//! Arbitrary GGUF chat templates (Jinja) through native mode, with a fixed
//! conversation that has tools, a tool round trip and think set.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ollama::api::{Message, Think, Tool};
use ollama::native::{render_native, NativeInput, NativeTime};

fuzz_target!(|input: &[u8]| {
    let Ok(template) = std::str::from_utf8(input) else { return };
    let req: serde_json::Value = serde_json::from_str(
        r#"{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi [img]","images":["aGk="]},
            {"role":"assistant","content":"","tool_calls":[{"function":{"name":"f","arguments":{"a":1,"b":[true,null]}}}]},
            {"role":"tool","content":"r","tool_name":"f"},{"role":"user","content":"more"}],
            "tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","required":["a"],"properties":{"a":{"type":"integer"}}}}}]}"#,
    )
    .unwrap();
    let chat = ollama::api::ChatRequest::decode(&req).unwrap();
    let msgs: Vec<Message> = chat.messages;
    let tools: Vec<Tool> = chat.tools.unwrap_or_default();
    for think in [None, Some(Think::Bool(true)), Some(Think::Level("high".into()))] {
        let input = NativeInput {
            chat_template: template,
            bos_token: "<s>",
            eos_token: "</s>",
            messages: &msgs,
            tools: Some(&tools),
            think: think.as_ref(),
            add_bos: true,
            add_eos: false,
            now: NativeTime::from_date(ollama::date::Date::new(2026, 11, 30)),
        };
        let _ = render_native(&input);
    }
});
