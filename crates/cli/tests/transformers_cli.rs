//! `"runtime": "transformers"` through the binary (contract v3): a case
//! rendered as Hugging Face transformers 5.25.0's `apply_chat_template`
//! renders it, its exceptions as Python prints them, named templates from a
//! `tokenizer_config.json`, and `promptscope diff` against Ollama and
//! llama-server. Every expected prompt and message below was printed by
//! transformers 5.25.0 / jinja2 3.1.6 for the same input.

mod common;

use common::run;
use serde_json::{json, Value as Json};

fn json_out(args: &[&str], input: &Json) -> (i32, Json) {
    let (code, out, err) = run(args, &input.to_string());
    let j = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, j)
}

/// Reasoning aliased as `thinking`, content parts printed as Python's
/// repr, tools through transformers' `tojson`, the fixed clock.
fn case(runtime: &str) -> Json {
    json!({"runtime": runtime, "date": "2026-12-01",
           "model": {"chat_template": "{{ bos_token }}{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% if m.thinking is defined %}[{{ m.thinking }}]{% endif %}\n{% endfor %}{% if tools %}{{ tools | tojson }}{% endif %}{% if add_generation_prompt %}<|assistant|>{% endif %}{{ strftime_now('%d %b %Y') }}",
                     "bos_token": "<s>"},
           "request": {"messages": [
               {"role": "user", "content": "Hi <b>"},
               {"role": "assistant", "content": "Hello", "reasoning_content": "greet"},
               {"role": "user", "content": [{"type": "text", "text": "more"}]}],
               "add_generation_prompt": true,
               "tools": [{"type": "function", "function": {"name": "f", "parameters": {
                   "type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}}}}]}})
}

const PROMPT: &str = "<s><|user|>Hi <b><|assistant|>Hello[greet]<|user|>[{'type': 'text', 'text': 'more'}][{\"type\": \"function\", \"function\": {\"name\": \"f\", \"parameters\": {\"type\": \"object\", \"properties\": {\"b\": {\"type\": \"string\"}, \"a\": {\"type\": \"integer\"}}}}}]<|assistant|>01 Dec 2026";

#[test]
fn a_transformers_case_renders_as_apply_chat_template() {
    let (code, out, err) = run(&["render"], &case("transformers").to_string());
    assert_eq!((code, out.as_str()), (0, PROMPT), "{err}");
    let (code, j) = json_out(&["render", "--json"], &case("transformers"));
    assert_eq!(code, 0);
    assert_eq!(
        (
            j["runtime"].as_str(),
            j["transformers"].as_str(),
            j["prompt"].as_str()
        ),
        (Some("transformers"), Some("5.25.0"), Some(PROMPT))
    );
    // the flag picks the runtime for a case that does not name one
    let mut c = case("transformers");
    c.as_object_mut().unwrap().remove("runtime");
    let (code, out, _) = run(&["render", "--runtime", "transformers"], &c.to_string());
    assert_eq!((code, out.as_str()), (0, PROMPT));
    // --jsonl echoes the id and the runtime
    let mut c = case("transformers");
    c["id"] = json!("t1");
    let (code, out, _) = run(&["render", "--jsonl"], &format!("{c}\n"));
    let line: Json = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(code, 0);
    assert_eq!(
        (
            line["id"].as_str(),
            line["transformers"].as_str(),
            line["prompt"].as_str()
        ),
        (Some("t1"), Some("5.25.0"), Some(PROMPT))
    );
}

#[test]
fn exceptions_are_printed_as_python_prints_them() {
    let c = json!({"runtime": "transformers",
                   "model": {"chat_template": "{% if messages[0].role != 'system' %}{{ raise_exception('System first, please') }}{% endif %}"},
                   "request": {"messages": [{"role": "user", "content": "hi"}]}});
    let (code, out, err) = run(&["render"], &c.to_string());
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(err.trim(), "TemplateError: System first, please");
    let (code, j) = json_out(&["render", "--json"], &c);
    assert_eq!(code, 1);
    assert_eq!(j["error"], "TemplateError: System first, please");
    // transformers' own argument checks
    let mut c2 = c.clone();
    c2["request"]["messages"] = json!([]);
    let (_, j) = json_out(&["render", "--json"], &c2);
    assert_eq!(
        j["error"],
        "ValueError: Cannot apply chat template to an empty conversation. Provide at least one message."
    );
}

#[test]
fn named_templates_of_a_tokenizer_config() {
    let config = json!({"chat_template": [
        {"name": "default", "template": "D{{ messages|length }}"},
        {"name": "tool_use", "template": "T{{ tools|length }}{{ bos_token }}"}],
        "bos_token": {"content": "<s>", "lstrip": false, "normalized": false,
                      "rstrip": false, "single_word": false}});
    let mut c = json!({"runtime": "transformers", "model": {"tokenizer_config": config},
                       "request": {"messages": [{"role": "user", "content": "hi"}]}});
    let (code, out, _) = run(&["render"], &c.to_string());
    assert_eq!((code, out.as_str()), (0, "D1"));
    c["request"]["tools"] = json!([{"type": "function", "function": {"name": "f"}}]);
    let (code, out, _) = run(&["render"], &c.to_string());
    assert_eq!((code, out.as_str()), (0, "T1<s>"));
    let c = json!({"runtime": "transformers",
                   "model": {"chat_template": {"a": "A", "b": "B"}},
                   "request": {"messages": [{"role": "user", "content": "hi"}]}});
    let (code, _, err) = run(&["render"], &c.to_string());
    assert_eq!(code, 1);
    assert_eq!(err.trim(), "ValueError: This model has multiple chat templates with no default specified! Please either pass a chat template or the name of the template you wish to use to the `chat_template` argument. Available template names are ['a', 'b'].");
}

#[test]
fn a_final_assistant_message_is_continued() {
    let c = json!({"runtime": "transformers",
                   "model": {"chat_template": "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}"},
                   "request": {"messages": [{"role": "user", "content": "Write"},
                                            {"role": "assistant", "content": "Once upon  "}],
                               "continue_final_message": true}});
    let (code, out, _) = run(&["render"], &c.to_string());
    assert_eq!(
        (code, out.as_str()),
        (0, "user: Write\nassistant: Once upon  ")
    );
}

#[test]
fn diff_against_ollama_and_llama_server() {
    // the same conversation, as Ollama's native mode and as transformers
    let (code, j) = json_out(
        &["diff", "--json", "--as", "ollama", "--as", "transformers"],
        &case("transformers"),
    );
    assert_eq!(code, 0);
    assert_eq!(j["equal"], false);
    assert_eq!(j["b"]["prompt"], PROMPT);
    assert_eq!(j["a"]["runtime"], "ollama");
    let d = &j["first_difference"];
    assert_eq!(d["byte"], 35, "{d}");
    assert!(
        d["a"].as_str().unwrap().contains("Hello<|user|>more[{"),
        "{d}"
    );
    assert!(
        d["b"]
            .as_str()
            .unwrap()
            .contains("Hello[greet]<|user|>[{'type'"),
        "{d}"
    );
    let causes: Vec<&str> = j["explained_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(causes, ["content_parts", "reasoning_alias"], "{j}");
    // a llama-server case against transformers, in text
    let mut c = case("llama-server");
    c["request"]["messages"][2]["content"] = json!("more");
    c["request"]["messages"][1]
        .as_object_mut()
        .unwrap()
        .remove("reasoning_content");
    let (code, out, err) = run(
        &[
            "diff",
            "--as",
            "llama-server@b10488",
            "--as",
            "transformers",
        ],
        &c.to_string(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("a: llama-server@b10488, "), "{out}");
    assert!(out.contains("b: transformers@5.25.0, "), "{out}");
    assert!(
        out.contains("\n  tool_schema: llama-server rewrites each tool"),
        "{out}"
    );
}

#[test]
fn commands_without_a_transformers_side_say_so() {
    let c = json!({"runtime": "transformers", "model": {"chat_template": "x"},
                   "request": {"messages": [{"role": "user", "content": "hi"}]}, "output": "hello"});
    for (args, what) in [
        (&["parse"][..], "output parsers"),
        (&["cache"][..], "the KV cache and its reuse"),
        (&["generate"][..], "generation and its answers"),
    ] {
        let (code, _, err) = run(args, &c.to_string());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("runtime \"transformers\" renders prompts only") && err.contains(what),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_tokenizer_json_counts_the_prompt() {
    // transformers 5.25.0: apply_chat_template(tokenize=True) with this
    // tokenizer.json gives 16 ids, the first [0, 439, 201, 384, ...]
    let tokenizer = testkit::repo_root().join("tests/corpus/hf-tokenizer/byte-level-bpe.json");
    let c = json!({"runtime": "transformers",
                   "model": {"chat_template": "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
                             "tokenizer": tokenizer},
                   "request": {"messages": [{"role": "user", "content": "What is the weather in Paris?"}],
                               "add_generation_prompt": true}});
    let (code, j) = json_out(&["render", "--json"], &c);
    assert_eq!(code, 0);
    assert_eq!(j["prompt_tokens"], 16, "{j}");
    // a file that is no tokenizer: bad input, said so
    let mut bad = c.clone();
    bad["model"]["tokenizer"] = json!(testkit::repo_root().join("Cargo.toml"));
    let (code, _, err) = run(&["render"], &bad.to_string());
    assert_eq!(code, 2);
    assert!(
        err.contains("model.tokenizer") && err.contains("is not JSON"),
        "{err}"
    );
}
