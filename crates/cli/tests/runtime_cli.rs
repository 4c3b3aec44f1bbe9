//! Contract v3 through the binary: the runtime and version a case names
//! (`"runtime": "llama-server"`, `"llamacpp"`, the command line's flags),
//! the keys every result echoes, and `promptscope diff`.

mod common;

use common::run;
use serde_json::{json, Value as Json};

fn deepseek_v4_case() -> Json {
    let template = testkit::llama_template("deepseek-ai-DeepSeek-V4.jinja");
    json!({"runtime": "llama-server", "date": "2026-12-05",
           "model": {"chat_template": template, "bos_token": "<｜begin▁of▁sentence｜>",
                     "eos_token": "<｜end▁of▁sentence｜>"},
           "request": {"messages": [
               {"role": "user", "content": "What is the weather in Paris?"},
               {"role": "assistant", "content": "It is sunny and 22°C."},
               {"role": "user", "content": "And tomorrow?"}]}})
}

fn json_out(args: &[&str], input: &Json) -> (i32, Json) {
    let (code, out, err) = run(args, &input.to_string());
    let j = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, j)
}

#[test]
fn a_llama_server_case_renders_at_its_build() {
    let case = deepseek_v4_case();
    let (code, j) = json_out(&["render", "--json"], &case);
    assert_eq!(code, 0);
    assert_eq!(j["runtime"], "llama-server");
    assert_eq!(j["llamacpp"], "b11312", "the newest build by default");
    assert!(j["prompt"]
        .as_str()
        .unwrap()
        .contains("<｜Assistant｜><think></think>It is sunny"));
    assert_eq!(j["build_rules"][0]["id"], "preserve_reasoning_default");
    assert_eq!(j["build_rules"][0]["in_effect"], true);
    // the flag, then the case's own key, pick the build
    let (_, out, _) = run(&["render", "--llamacpp", "b10488"], &case.to_string());
    assert!(out.contains("<｜Assistant｜></think>It is sunny"), "{out}");
    let mut at = case.clone();
    at["llamacpp"] = json!("b10488");
    let (_, j) = json_out(&["render", "--json", "--llamacpp", "b11312"], &at);
    assert_eq!(j["llamacpp"], "b10488");
    assert_eq!(j["build_rules"][0]["in_effect"], false);
}

#[test]
fn llama_servers_own_errors() {
    let case = json!({"runtime": "llama-server", "llamacpp": "b11312",
        "model": {"chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}"},
        "request": {"messages": [{"role": "user", "content": "hi"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c", "type": "function",
                "function": {"name": "f", "arguments": "{}"}}]}]}});
    let (code, j) = json_out(&["render", "--json"], &case);
    assert_eq!(code, 1);
    assert_eq!(j["status"], 400);
    assert_eq!(
        j["error"],
        "Cannot continue an assistant message that contains tool calls."
    );
    assert_eq!(
        j["body"],
        "{\"error\":{\"code\":400,\"message\":\"Cannot continue an assistant message that contains tool calls.\",\"type\":\"invalid_request_error\"}}"
    );
    // b10488 continues the message and drops its tool calls
    let (code, out, _) = run(
        &["render", "--llamacpp", "b10488"],
        &{
            let mut c = case.clone();
            c.as_object_mut().unwrap().remove("llamacpp");
            c
        }
        .to_string(),
    );
    assert_eq!((code, out.as_str()), (0, "hi"));
}

#[test]
fn runtime_keys_are_checked() {
    let bad = |case: Json, flags: &[&str]| {
        let mut args = vec!["render"];
        args.extend_from_slice(flags);
        let (code, _, err) = run(&args, &case.to_string());
        assert_eq!(code, 2, "{err}");
        err
    };
    let chat = json!({"endpoint": "chat", "model": {"name": "m", "template": "{{ .Prompt }}"},
                      "request": {"model": "m", "prompt": "hi"}});
    let mut c = chat.clone();
    c["llamacpp"] = json!("b10488");
    assert!(bad(c, &[]).contains("implied by the Ollama release"));
    let mut c = chat.clone();
    c["ollama"] = json!("0.29.0");
    assert!(bad(c, &[]).contains(
        "Ollama \"0.29.0\" is not a supported release (supported: 0.32.15-rc2, 0.32.15, 0.33.0-rc0, 0.33.0-rc1, 0.33.0-rc2)"
    ));
    // an older release of the same behaviour renders the same prompt, and says which it was
    let talk = json!({"endpoint": "chat",
                      "model": {"name": "m", "template": "{{ range .Messages }}[{{ .Role }}] {{ .Content }}{{ end }}"},
                      "request": {"model": "m", "messages": [{"role": "user", "content": "hi"}]}});
    let (code, newest) = json_out(&["render", "--json"], &talk);
    let (code2, older) = json_out(&["render", "--json", "--ollama", "0.32.15"], &talk);
    assert_eq!((code, code2), (0, 0));
    assert_eq!(older["ollama"], "0.32.15");
    assert_eq!(older["prompt"], "[user] hi");
    assert_eq!(older["prompt"], newest["prompt"]);
    let (code, out, _) = run(
        &[
            "diff",
            "--as",
            "ollama@0.32.15",
            "--as",
            "ollama@0.33.0-rc2",
        ],
        &talk.to_string(),
    );
    assert_eq!(code, 0);
    assert!(out.contains("same prompt"), "{out}");
    // a chat with no messages only loads the model: said so, not as a failure
    let (_, out, _) = run(
        &[
            "diff",
            "--as",
            "ollama@0.32.15",
            "--as",
            "ollama@0.33.0-rc2",
        ],
        &chat.to_string(),
    );
    assert!(
        out.contains("ollama@0.32.15 renders no prompt (the request only loads the model)"),
        "{out}"
    );
    assert!(bad(
        chat.clone(),
        &["--runtime", "transformers", "--transformers", "4.57.0"]
    )
    .contains("transformers \"4.57.0\" is not a supported version (supported: 5.25.0)"));
    assert!(bad(chat.clone(), &["--runtime", "vllm"]).contains("unknown runtime \"vllm\""));
    // an Ollama result says which release rendered it
    let (code, j) = json_out(&["render", "--json"], &chat);
    assert_eq!(code, 0);
    assert_eq!(
        (j["runtime"].as_str(), j["ollama"].as_str()),
        (Some("ollama"), Some("0.33.0-rc2"))
    );
    // --jsonl: each line echoes its runtime; a bad line is invalid
    let mut server = deepseek_v4_case();
    server["id"] = json!("s");
    let mut wrong = chat.clone();
    wrong["id"] = json!("w");
    wrong["llamacpp"] = json!("b1");
    let input = format!("{}\n{}\n", server, wrong);
    let (code, out, _) = run(&["render", "--jsonl"], &input);
    assert_eq!(code, 0);
    let lines: Vec<Json> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        (lines[0]["id"].as_str(), lines[0]["llamacpp"].as_str()),
        (Some("s"), Some("b11312"))
    );
    assert!(
        lines[1]["invalid"].as_str().unwrap().contains("implied"),
        "{}",
        lines[1]
    );
}

#[test]
fn diff_names_the_rule_between_two_builds() {
    let case = deepseek_v4_case();
    let (code, out, err) = run(
        &[
            "diff",
            "--as",
            "llama-server@b10488",
            "--as",
            "llama-server@b11312",
        ],
        &case.to_string(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("a: llama-server@b10488, 193 bytes\nb: llama-server@b11312, 200 bytes\ndiffer at byte 88\n"), "{out}");
    assert!(
        out.contains("  a: \" the weather in Paris?<｜Assistant｜></think>It is sunny"),
        "{out}"
    );
    assert!(
        out.contains(
            "explained by:\n  preserve_reasoning_default (llama.cpp b10773, PR #28174 (b10763)): "
        ),
        "{out}"
    );
    let (code, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "llama-server@b10488",
            "--as",
            "llama-server@b11312",
        ],
        &case,
    );
    assert_eq!(code, 0);
    assert_eq!(j["equal"], false);
    assert_eq!(j["first_difference"]["byte"], 88);
    assert_eq!(j["explained_by"][0]["id"], "preserve_reasoning_default");
    assert_eq!(j["a"]["llamacpp"], "b10488");
    // the same build twice: equal, nothing to explain
    let (_, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "llama-server@b11312",
            "--as",
            "llama-server",
        ],
        &case,
    );
    assert_eq!(
        (
            j["equal"].as_bool(),
            j["explained_by"].as_array().map(Vec::len)
        ),
        (Some(true), Some(0))
    );
}

#[test]
fn diff_of_ollama_and_llama_server_on_one_conversation() {
    // an Ollama case in native mode: Ollama's body reaches llama-server
    let template = testkit::llama_template("deepseek-ai-DeepSeek-V4.jinja");
    let case = json!({"endpoint": "chat", "date": "2026-12-05",
        "model": {"name": "ds", "chat_template": template,
                  "bos_token": "<｜begin▁of▁sentence｜>", "eos_token": "<｜end▁of▁sentence｜>"},
        "request": {"model": "ds", "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": "Bye"}]}});
    let (code, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "ollama@0.33.0-rc2",
            "--as",
            "llama-server@b11312",
        ],
        &case,
    );
    assert_eq!(code, 0);
    assert_eq!(j["a"]["llamacpp"], "b10488");
    assert_eq!(j["equal"], false, "{j}");
    assert_eq!(j["explained_by"][0]["id"], "preserve_reasoning_default");
    let (_, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "ollama@0.33.0-rc2",
            "--as",
            "llama-server@b10488",
        ],
        &case,
    );
    assert_eq!(j["equal"], true, "{j}");
    let (code, _, err) = run(&["diff", "--as", "ollama"], &case.to_string());
    assert_eq!(code, 2);
    assert!(err.contains("diff needs --as twice"), "{err}");
}
