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
    // the rows the render reached: the handler's routing, then the default
    let rule = |j: &Json, id: &str| {
        j["build_rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} not reached: {j}"))["in_effect"]
            .clone()
    };
    assert_eq!(j["build_rules"][0]["id"], "deepseek_v4_handler");
    assert_eq!(rule(&j, "preserve_reasoning_default"), true);
    // the flag, then the case's own key, pick the build
    let (_, out, _) = run(&["render", "--llamacpp", "b10488"], &case.to_string());
    assert!(out.contains("<｜Assistant｜></think>It is sunny"), "{out}");
    let mut at = case.clone();
    at["llamacpp"] = json!("b10488");
    let (_, j) = json_out(&["render", "--json", "--llamacpp", "b11312"], &at);
    assert_eq!(j["llamacpp"], "b10488");
    assert_eq!(rule(&j, "preserve_reasoning_default"), false);
    assert_eq!(rule(&j, "deepseek_v4_handler"), true);
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
        "Ollama \"0.29.0\" is not a supported release (supported: every release from 0.30.0 to 0.33.0-rc2)"
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

/// A qwen3.8 conversation with a system message in the middle: Ollama
/// 0.32.15-rc2 folds it into the leading system turn, 0.32.15-rc1 leaves it
/// where it is (`qwen38_fold_all_instructions`).
fn qwen38_case(release: &str) -> Json {
    json!({"ollama": release, "date": "2026-12-05",
           "model": {"renderer": "qwen3.8", "parser": "qwen3.5"},
           "request": {"model": "m", "think": false, "messages": [
               {"role": "user", "content": "Hello"},
               {"role": "assistant", "content": "Hi!"},
               {"role": "system", "content": "Answer in French."},
               {"role": "user", "content": "How are you?"}]}})
}

#[test]
fn an_ollama_release_renders_with_its_own_rows() {
    let (code, old) = json_out(&["render", "--json"], &qwen38_case("0.32.15-rc1"));
    assert_eq!(code, 0);
    assert_eq!(old["ollama"], "0.32.15-rc1");
    let old_prompt = old["prompt"].as_str().unwrap();
    assert!(
        old_prompt.starts_with("<|im_start|>user\nHello<|im_end|>\n")
            && old_prompt.contains(
                "<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nHow are you?"
            ),
        "{old_prompt}"
    );
    // the rows the render reached: the renderer exists, the later system
    // message is taken, and it is not folded
    let rules = old["explain"]["release_rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "qwen38_renderer",
            "qwen38_fold_all_instructions",
            "qwen38_system_anywhere"
        ],
        "{rules:?}"
    );
    let rule = &rules[1];
    assert_eq!(rule["in_effect"], false);
    assert_eq!(rule["first"], "0.32.15-rc2");
    let (_, new) = json_out(&["render", "--json"], &qwen38_case("0.32.15-rc2"));
    let new_prompt = new["prompt"].as_str().unwrap();
    assert!(
        new_prompt.starts_with(
            "<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nHello"
        ),
        "{new_prompt}"
    );
    assert!(new["explain"]["release_rules"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["in_effect"] == true));
    // --ollama is the default for a case that names none
    let mut unnamed = qwen38_case("x");
    unnamed.as_object_mut().unwrap().remove("ollama");
    let (_, out, _) = run(&["render", "--ollama", "0.32.15-rc0"], &unnamed.to_string());
    assert_eq!(out, old_prompt);
}

#[test]
fn diff_of_two_releases_names_the_ollama_row() {
    let mut case = qwen38_case("x");
    case.as_object_mut().unwrap().remove("ollama");
    let (code, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "ollama@0.32.15-rc1",
            "--as",
            "ollama@0.32.15-rc2",
        ],
        &case,
    );
    assert_eq!(code, 0);
    assert_eq!(j["equal"], false);
    assert_eq!(j["first_difference"]["byte"], 12, "{j}");
    let rows = j["explained_by"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{j}");
    assert_eq!(rows[0]["id"], "qwen38_fold_all_instructions");
    assert_eq!(rows[0]["runtime"], "Ollama");
    assert_eq!(rows[0]["first"], "0.32.15-rc2");
    assert_eq!(rows[0]["upstream"], "PR #17855, commit b8a627244");
    let (_, out, _) = run(
        &[
            "diff",
            "--as",
            "ollama@0.32.15-rc1",
            "--as",
            "ollama@0.32.15-rc2",
        ],
        &case.to_string(),
    );
    assert!(
        out.contains("explained by:\n  qwen38_fold_all_instructions (Ollama 0.32.15-rc2, PR #17855, commit b8a627244)"),
        "{out}"
    );
    // releases with the same rows render the same
    let (_, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "ollama@0.32.15-rc2",
            "--as",
            "ollama@0.33.0-rc2",
        ],
        &case,
    );
    assert_eq!(j["equal"], true);
    assert_eq!(j["explained_by"], json!([]));
}

/// `/api/generate` on a model whose GGUF has a chat template and no Go
/// TEMPLATE: llama-server's `/apply-template` writes the prompt from
/// 0.30.11-rc0 on, Ollama's `{{ .Prompt }}` before
/// (`generate_native_chat_template`); and the diff says so.
#[test]
fn generate_in_native_mode_before_and_after_0_30_11_rc0() {
    let case = |release: &str| {
        json!({"ollama": release, "endpoint": "generate", "date": "2026-12-05",
               "model": {"name": "demo", "chat_template": "<|user|>{{ messages[-1]['content'] }}<|assistant|>"},
               "request": {"model": "demo", "prompt": "hello", "system": "be brief"}})
    };
    let (code, old) = json_out(&["render", "--json"], &case("0.30.10"));
    assert_eq!(code, 0);
    assert_eq!(old["prompt"], "hello");
    let rules = old["explain"]["release_rules"].as_array().unwrap();
    assert_eq!(rules[0]["id"], "generate_native_chat_template", "{old}");
    assert_eq!(rules[0]["in_effect"], false);
    let (_, new) = json_out(&["render", "--json"], &case("0.30.11-rc0"));
    // (a template that never reads a system message gets it in the first
    // user message: llama.cpp's system-role probe)
    assert_eq!(new["prompt"], "<|user|>be brief\nhello<|assistant|>");
    let mut unnamed = case("x");
    unnamed.as_object_mut().unwrap().remove("ollama");
    let (code, j) = json_out(
        &[
            "diff",
            "--json",
            "--as",
            "ollama@0.30.10",
            "--as",
            "ollama@0.30.11-rc0",
        ],
        &unnamed,
    );
    assert_eq!(code, 0);
    assert_eq!(j["equal"], false);
    assert_eq!(j["first_difference"]["byte"], 0, "{j}");
    let ids: Vec<&str> = j["explained_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["generate_native_chat_template"], "{j}");
}

#[test]
fn a_mid_stream_parser_error_in_a_release_that_hangs() {
    let case = |release: &str| {
        json!({"ollama": release,
               "model": {"renderer": "qwen3-coder", "parser": "qwen3-coder"},
               "request": {"model": "m", "messages": [{"role": "user", "content": "hi"}],
                   "tools": [{"type": "function", "function": {"name": "f",
                       "parameters": {"type": "object", "properties": {}}}}]},
               "chunks": ["ok ", "<tool_call>garbage</tool_call>", "more"]})
    };
    let (_, old) = json_out(&["parse", "--json"], &case("0.32.15-rc1"));
    assert_eq!(old["error"], "EOF");
    assert_eq!(old["release_rules"][0]["id"], "parser_error_ends_stream");
    assert_eq!(old["release_rules"][0]["in_effect"], false);
    assert_eq!(
        old["diagnosis"][0],
        "the parser failed before the last chunk: this release sends the error but never ends the completion, so the runner stays held and the next request to this model hangs (ollama#17825; fixed in 0.32.15-rc2)"
    );
    let (_, new) = json_out(&["parse", "--json"], &case("0.32.15-rc2"));
    assert_eq!(new["error"], "EOF");
    assert_eq!(new["release_rules"][0]["in_effect"], true);
    assert!(new.get("diagnosis").is_none(), "{new}");
    // an answer without a parser error reaches no row
    let mut last = case("0.32.15-rc1");
    last["chunks"] = json!(["ok ", "<tool_call>garbage"]);
    let (_, j) = json_out(&["parse", "--json"], &last);
    assert!(j.get("release_rules").is_none(), "{j}");
}

#[test]
fn the_upgrade_check_over_a_whole_store() {
    // the fixture store, plus a qwen3.8 model whose Modelfile holds a
    // conversation: a request's system message then lands in the middle
    let dir = std::env::temp_dir().join(format!("promptscope-upgrade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = dir.join("models");
    testkit::copy_dir(
        &testkit::repo_root().join("crates/store/tests/fixture/models"),
        &store,
    );
    let modelfile = dir.join("Modelfile");
    std::fs::write(
        &modelfile,
        "FROM qwen3:0.6b\nRENDERER qwen3.8\nPARSER qwen3.5\nMESSAGE user Hi\nMESSAGE assistant Hello!\n",
    )
    .unwrap();
    let st = store.to_str().unwrap();
    let (code, _, err) = run(
        &[
            "create",
            "qwen38-history",
            "-f",
            modelfile.to_str().unwrap(),
            "--models",
            st,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let args = [
        "diff",
        "--as",
        "ollama@0.32.15-rc1",
        "--as",
        "ollama@0.32.15-rc2",
        "--models",
        st,
    ];
    let (code, out, err) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..2],
        ["a: ollama@0.32.15-rc1", "b: ollama@0.32.15-rc2"]
    );
    // one line per model of `promptscope list`
    assert_eq!(lines.len(), 2 + 17, "{out}");
    assert!(
        lines.contains(&"qwen38-history:latest: differs in system at byte 12 (token 1): qwen38_fold_all_instructions"),
        "{out}"
    );
    assert!(
        lines.contains(&"qwen3:0.6b: same (5 conversations)"),
        "{out}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.ends_with("same (5 conversations)"))
            .count(),
        16
    );
    // the JSON form: one object per model, each conversation's verdict
    let (_, out, _) = run(&[&args[..], &["--json"]].concat(), "");
    let objects: Vec<Json> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 17);
    let q = objects
        .iter()
        .find(|o| o["model"] == "qwen38-history:latest")
        .unwrap();
    assert_eq!(q["result"], "differs");
    let system = &q["conversations"][1];
    assert_eq!(system["conversation"], "system");
    assert_eq!(
        (system["byte"].clone(), system["token"].clone()),
        (json!(12), json!(1))
    );
    assert_eq!(
        system["explained_by"],
        json!(["qwen38_fold_all_instructions"])
    );
    // an embedding model fails the same way in both: same
    let embed = objects
        .iter()
        .find(|o| o["model"] == "embed-mini:latest")
        .unwrap();
    assert_eq!(embed["result"], "same");
    assert_eq!(
        embed["conversations"][0]["a_error"],
        "\"embed-mini:latest\" does not support chat"
    );
    // only Ollama releases are compared this way
    let (code, _, err) = run(
        &[
            "diff",
            "--as",
            "ollama",
            "--as",
            "llama-server@b10488",
            "--models",
            st,
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--models compares two Ollama releases"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compatibility_route_converts_as_its_release() {
    // 0.32.10 refuses reasoning effort xhigh in /v1/chat/completions' own
    // words; from 0.32.11 it is think "max"
    let case = |release: &str| {
        json!({"ollama": release, "endpoint": "openai-chat",
               "model": {"template": "{{ .Prompt }}", "capabilities": ["thinking"]},
               "request": {"model": "m", "reasoning_effort": "xhigh",
                   "messages": [{"role": "user", "content": "hi"}]}})
    };
    let (code, old) = json_out(&["render", "--json"], &case("0.32.10"));
    assert_eq!(code, 1, "{old}");
    assert_eq!(
        old["error"],
        "invalid reasoning value: 'xhigh' (must be \"high\", \"medium\", \"low\", \"max\", or \"none\")"
    );
    let (_, new) = json_out(&["render", "--json"], &case("0.32.11"));
    assert_eq!(new["api_request"]["think"], "max", "{new}");
    // and the field's note says what each release does with it
    let note = |v: &Json| {
        v["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["field"] == "reasoning_effort")
            .map(|f| f["detail"].as_str().unwrap().to_string())
            .unwrap()
    };
    assert_eq!(
        note(&new),
        "think: none = false, minimal = low, xhigh and ultra = max"
    );
    assert!(
        note(&old).ends_with(
            "any other value is a 400 (before openai_reasoning_effort_clamp, Ollama 0.32.11)"
        ),
        "{}",
        note(&old)
    );
}
