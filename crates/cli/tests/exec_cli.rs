//! Drives the real `promptscope` binary over the Go corpus (`tests/corpus/golden`).

mod common;

use common::run;
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    testkit::corpus("golden").join(name)
}

/// Runs `promptscope <cmd> --jsonl` over a golden file and checks every
/// result line (less its id) against the case's `expect`; returns how many
/// cases were checked.
fn check_jsonl_against_golden(cmd: &str, file: &str) -> usize {
    let path = golden(file);
    let (code, stdout, stderr) = run(&[cmd, "--jsonl", path.to_str().unwrap()], "");
    assert_eq!(code, 0, "{stderr}");
    let cases: Vec<serde_json::Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let results: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cases.len(), results.len());
    let mut bad = Vec::new();
    for (case, mut got) in cases.iter().zip(results) {
        assert_eq!(got["id"], case["id"]);
        let o = got.as_object_mut().unwrap();
        o.remove("id");
        if cmd == "render" {
            // contract v3: every result names the runtime and version used
            assert_eq!(
                o.remove("runtime"),
                Some(serde_json::json!("ollama")),
                "{}",
                case["id"]
            );
            assert_eq!(
                o.remove("ollama"),
                Some(serde_json::json!("0.33.0-rc2")),
                "{}",
                case["id"]
            );
        }
        if got != case["expect"] {
            bad.push(format!(
                "{}: expected {} got {}",
                case["id"], case["expect"], got
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
    cases.len()
}

/// A ChatML TEMPLATE of our own, in the shape of Ollama's built-in one
/// (a system turn, each message's turn, the assistant's turn left open).
const CHATML: &str = "{{- if .System }}<|im_start|>system\n{{ .System }}<|im_end|>\n{{ end }}\
{{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n";

#[test]
fn exec_jsonl_matches_the_go_corpus() {
    assert_eq!(check_jsonl_against_golden("exec", "gotemplate.jsonl"), 1141);
}

#[test]
fn exec_single_case_exit_codes() {
    let (code, out, _) = run(
        &["exec"],
        r#"{"id": "a", "template": "{{.x}}!", "data": {"x": 1}}"#,
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "{\"id\":\"a\",\"output\":\"1!\"}\n")
    );
    let (code, out, _) = run(
        &["exec"],
        r#"{"id": "b", "template": "a{{index .l 9}}", "data": {"l": [1]}}"#,
    );
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "{\"id\":\"b\",\"error\":\"template: t:1:3: executing \\\"t\\\" at <index .l 9>: error calling index: index out of range: 9\",\"partial\":\"a\"}\n"
    );
}

#[test]
fn malformed_json_is_exit_2_with_position() {
    let (code, _, err) = run(&["exec"], "{\n  \"template\": }");
    assert_eq!(code, 2);
    assert!(err.contains("line 2 column 15"), "{err}");
    let (code, out, _) = run(
        &["exec", "--jsonl"],
        "{oops\n{\"id\":1,\"template\":\"x\"}\n",
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0]
            .starts_with("{\"id\":null,\"invalid\":\"invalid JSON in line 1 at line 1 column 2"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "{\"id\":1,\"output\":\"x\"}");
}

#[test]
fn bad_usage_is_exit_2() {
    assert_eq!(run(&["nope"], "").0, 2);
    assert_eq!(run(&["exec", "--bogus"], "").0, 2);
    assert_eq!(run(&[], "").0, 2);
}

#[test]
fn every_command_has_its_own_help_and_usage_errors_name_the_flag() {
    // `help`, `--help` and `<command> --help`: usage on stdout, exit 0.
    let (code, out, _) = run(&["help"], "");
    assert_eq!(code, 0);
    for cmd in ["exec", "render", "gguf", "tokenize", "generate"] {
        assert!(out.contains(cmd), "{cmd} missing from:\n{out}");
        let (code, help, err) = run(&[cmd, "--help"], "");
        assert_eq!(code, 0, "{cmd}: {err}");
        assert!(help.contains(&format!("promptscope {cmd}")), "{help}");
        let (code, again, _) = run(&["help", cmd], "");
        assert_eq!((code, &again), (0, &help));
    }
    let (_, help, _) = run(&["render", "--help"], "");
    assert!(
        help.contains("--json") && help.contains("--jsonl") && help.contains("[FILE|-]"),
        "{help}"
    );
    let (_, help, _) = run(&["generate", "--help"], "");
    assert!(
        help.contains("--gguf <FILE>") && help.contains("--debug"),
        "{help}"
    );
    let (code, out, _) = run(&["--version"], "");
    assert_eq!(
        (code, out.trim()),
        (0, concat!("promptscope ", env!("CARGO_PKG_VERSION")))
    );
    // Usage errors: exit 2, naming what is wrong.
    let (code, _, err) = run(&["render", "--bogus"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--bogus"), "{err}");
    let (code, _, err) = run(&["exec", "a.json", "b.json"], "");
    assert_eq!(code, 2);
    assert!(err.contains("b.json"), "{err}");
    let (code, _, err) = run(&["gguf", "--num-ctx", "0", "x.gguf"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid --num-ctx \"0\": expected a positive integer"),
        "{err}"
    );
    let (code, _, err) = run(&["gguf", "-"], "");
    assert_eq!(code, 2);
    assert!(err.contains("not from standard input"), "{err}");
    let (code, _, err) = run(&["tokenize"], "");
    assert_eq!(code, 2);
    assert!(err.contains("tokenize needs --gguf FILE"), "{err}");
    let (code, _, err) = run(&["frobnicate"], "");
    assert_eq!(code, 2);
    assert!(err.contains("frobnicate"), "{err}");
}

#[test]
fn render_jsonl_matches_ollama_on_every_case() {
    assert_eq!(check_jsonl_against_golden("render", "render.jsonl"), 1884);
}

#[test]
fn render_single_case_modes() {
    let case = r#"{"endpoint":"chat","model":{"name":"demo","template":"{{ range .Messages }}<{{ .Role }}>{{ .Content }}{{ end }}"},
                  "request":{"model":"demo","messages":[{"role":"user","content":"hi"}]}}"#;
    let (code, out, _) = run(&["render"], case);
    assert_eq!((code, out.as_str()), (0, "<user>hi"));
    let (code, out, _) = run(&["render", "--json"], case);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["prompt"], "<user>hi");
    assert_eq!(v["source"], "go_template");
    assert_eq!(
        v["vars"],
        serde_json::json!(["content", "messages", "role"])
    );
    let tools = r#"{"endpoint":"chat","model":{"name":"demo","template":"{{ .Prompt }}"},
                   "request":{"model":"demo","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f"}}]}}"#;
    let (code, _, err) = run(&["render"], tools);
    assert_eq!(
        (code, err.as_str()),
        (
            1,
            "registry.ollama.ai/library/demo:latest does not support tools\n"
        )
    );
    let (code, _, err) = run(&["render"], "{\"endpoint\": \"chat\",\n \"request\": [}");
    assert_eq!(code, 2);
    assert!(err.contains("line 2 column 14"), "{err}");
}

/// With the model's GGUF, `render --json` reports `prompt_eval_count` as
/// llama.cpp counts the prompt (30 tokens here, recorded with llama.cpp's
/// own tokenizer through llama-cpp-python 0.3.36), and the GGUF's chat
/// template is the one Ollama selects.
#[test]
fn render_with_a_gguf_counts_tokens_like_llama_cpp() {
    let model = testkit::smollm2();
    let case = serde_json::json!({
        "endpoint": "chat",
        "model": {"name": "smollm2", "gguf": model},
        "request": {"model": "smollm2", "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "What's the weather in Paris? <|im_end|> tricky"}
        ]},
        "date": "2026-11-30"
    });
    let (code, out, err) = run(&["render", "--json"], &case.to_string());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["source"], "gguf_chat_template");
    assert_eq!(
        v["prompt"],
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat's the weather in Paris? <|im_end|> tricky<|im_end|>\n<|im_start|>assistant\n"
    );
    assert_eq!(v["prompt_eval_count"], 30);
    // Per-message costs on the model's own tokenizer add up to the prompt
    // (SmolLM2 adds no BOS, so that is the whole count).
    let costs: Vec<i64> = v["explain"]["message_tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_i64().unwrap())
        .collect();
    assert_eq!(costs.len(), 2);
    // (SmolLM2's template adds its own system prompt when the conversation
    // has none, so the given system message costs less than nothing.)
    assert!(costs[0] < 0 && costs[1] > 0, "{costs:?}");
    assert_eq!(costs.iter().sum::<i64>(), 30);

    // Truncation on the real tokenizer: at num_ctx 20 the first user turn goes.
    let long = serde_json::json!({
        "endpoint": "chat",
        "model": {"name": "smollm2", "gguf": model, "template": "{{ range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n"},
        "request": {"model": "smollm2", "options": {"num_ctx": 20}, "messages": [
            {"role": "user", "content": "one two three four five six seven eight nine ten"},
            {"role": "assistant", "content": "ok"},
            {"role": "user", "content": "hi"}
        ]}
    });
    let (code, out, err) = run(&["render", "--json"], &long.to_string());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["explain"]["truncation"]["first_kept"], 1);
    assert_eq!(v["prompt"], "<|im_start|>assistant\nok<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
}

/// Native mode truncates as `truncateNativeChatMessages` does: SmolLM2's
/// own chat template, a 300-word first message and `num_ctx` 128. Before,
/// the whole conversation came back (346 tokens, no truncation noted).
#[test]
fn render_with_a_gguf_truncates_in_native_mode() {
    let model = testkit::smollm2();
    let words: Vec<String> = (0..300).map(|i| format!("word{i}")).collect();
    let case = |num_ctx: u64| {
        serde_json::json!({
            "endpoint": "chat",
            "model": {"name": "smollm2", "gguf": model},
            "request": {"model": "smollm2", "options": {"num_ctx": num_ctx}, "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": words.join(" ")},
                {"role": "assistant", "content": "That is a long list."},
                {"role": "user", "content": "What was the first word?"}
            ]},
            "date": "2026-11-30"
        })
        .to_string()
    };
    let (code, out, err) = run(&["render", "--json"], &case(4096));
    assert_eq!(code, 0, "{err}");
    let whole: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(whole["source"], "gguf_chat_template");
    let whole_count = whole["prompt_eval_count"].as_u64().unwrap();
    assert!(whole_count > 128, "{whole_count}");
    assert_eq!(whole["explain"]["truncation"]["first_kept"], 0);

    let (code, out, err) = run(&["render", "--json"], &case(128));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let t = &v["explain"]["truncation"];
    // The first user turn goes; the system message stays in front.
    assert_eq!(t["first_kept"], 2, "{t}");
    assert_eq!(t["counts"][0][1].as_u64(), Some(whole_count));
    assert_eq!(
        v["prompt"],
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>assistant\nThat is a long list.<|im_end|>\n<|im_start|>user\nWhat was the first word?<|im_end|>\n<|im_start|>assistant\n"
    );
    let count = v["prompt_eval_count"].as_u64().unwrap();
    assert!(count <= 128, "{count}");
    assert_eq!(
        t["counts"].as_array().unwrap().last().unwrap()[1].as_u64(),
        Some(count)
    );
    let notes = &v["explain"]["messages"][1]["notes"];
    assert!(
        notes
            .to_string()
            .contains("dropped by num_ctx truncation (num_ctx 128)"),
        "{notes}"
    );
}

/// The runner's second stage (llm/llama_server.go
/// `completionPromptForRequest`): a single message longer than `num_ctx`
/// cannot be dropped, so llama-server keeps `num_keep` tokens and the tail;
/// `prompt_eval_count` is what it evaluates. Context shift off is Ollama's
/// error; `truncate: false` sends it whole. In native mode (the GGUF's
/// chat template) nothing is cut: llama-server refuses the prompt.
#[test]
fn render_with_a_gguf_reports_the_runners_cut() {
    let model = testkit::smollm2();
    let chatml = CHATML;
    let words: Vec<String> = (0..200).map(|i| format!("word{i}")).collect();
    let case_for = |template: Option<&str>, extra: serde_json::Value| {
        let mut request = serde_json::json!({"model": "smollm2", "options": {"num_ctx": 64},
            "messages": [{"role": "user", "content": words.join(" ")}]});
        for (k, v) in extra.as_object().unwrap() {
            request[k] = v.clone();
        }
        let mut m = serde_json::json!({"name": "smollm2", "gguf": model});
        if let Some(t) = template {
            m["template"] = serde_json::json!(t);
        }
        serde_json::json!({"endpoint": "chat", "model": m,
            "request": request, "date": "2026-11-30"})
        .to_string()
    };
    let case = |extra: serde_json::Value| case_for(Some(chatml), extra);

    // Native mode: no cut; llama-server's slot holds 256 tokens (64
    // rounded up to 256) and refuses the prompt with its own body.
    let (code, out, err) = run(
        &["render", "--json"],
        &case_for(None, serde_json::json!({})),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["explain"]["branch"], "native");
    let native = v["runner"]["tokens"].as_u64().unwrap();
    assert_eq!(v["runner"]["cut"], serde_json::Value::Null);
    assert_eq!(
        v["runner"]["error"],
        ollama::runner::native_too_long(native as usize, 256)
    );
    let (code, out, err) = run(&["render", "--json"], &case(serde_json::json!({})));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runner = &v["runner"];
    let tokens = runner["tokens"].as_u64().unwrap();
    assert!(tokens > 64, "{runner}");
    assert_eq!(
        (
            &runner["num_ctx"],
            &runner["num_keep"],
            &runner["context_shift"]
        ),
        (
            &serde_json::json!(64),
            &serde_json::json!(4),
            &serde_json::json!(true)
        )
    );
    // SmolLM2 adds no BOS: keep 4; limit 64 - (64 - 4) / 2 = 34.
    assert_eq!(runner["cut"]["kept"], serde_json::json!([0, 4]));
    assert_eq!(
        runner["cut"]["dropped"],
        serde_json::json!([4, 4 + tokens - 34])
    );
    assert_eq!(runner["cut"]["tokens_after"], 34);
    assert_eq!(v["prompt_eval_count"], 34);

    let (_, out, _) = run(
        &["render", "--json"],
        &case(serde_json::json!({"shift": false})),
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["runner"]["error"], "the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length");
    assert_eq!(v["prompt_eval_count"].as_u64(), Some(tokens));

    // The runner's context: at least 4, at most the training context
    // (SmolLM2: 8192), as Ollama's scheduler and NewLlamaServer set it.
    for (asked, runs) in [(2, 4), (100_000, 8192)] {
        let (_, out, _) = run(
            &["render", "--json"],
            &case(serde_json::json!({"options": {"num_ctx": asked}})),
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["runner"]["num_ctx"], runs, "num_ctx {asked}");
    }

    let (_, out, _) = run(
        &["render", "--json"],
        &case(serde_json::json!({"truncate": false})),
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["runner"]["cut"], serde_json::Value::Null);
    assert_eq!(v["prompt_eval_count"].as_u64(), Some(tokens));
}

/// `/api/generate` in native mode (SmolLM2's GGUF template, no Go
/// TEMPLATE): from 0.30.11-rc0 llama-server's `/apply-template` writes the
/// prompt and Ollama sends it to `/completion` (routes.go GenerateHandler,
/// `Truncate` set), so the runner cuts it as any other; before, the prompt
/// is `{{ .Prompt }}`'s, cut the same way.
#[test]
fn native_generate_goes_through_the_runners_cut() {
    let model = testkit::smollm2();
    let words: Vec<String> = (0..200).map(|i| format!("word{i}")).collect();
    let case = |release: &str| {
        serde_json::json!({"endpoint": "generate", "ollama": release,
            "model": {"name": "smollm2", "gguf": model},
            "request": {"model": "smollm2", "options": {"num_ctx": 64}, "prompt": words.join(" ")},
            "date": "2026-11-30"})
        .to_string()
    };
    let (code, out, err) = run(&["render", "--json"], &case("0.33.0-rc2"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["explain"]["branch"], "native");
    assert!(v["prompt"].as_str().unwrap().starts_with("<|im_start|>"));
    assert_eq!(
        v["runner"]["error"],
        serde_json::Value::Null,
        "{}",
        v["runner"]
    );
    // SmolLM2 adds no BOS: keep 4; limit 64 - (64 - 4) / 2 = 34
    assert_eq!(v["runner"]["cut"]["kept"], serde_json::json!([0, 4]));
    assert_eq!(v["prompt_eval_count"], 34);
    let (code, out, err) = run(&["render", "--json"], &case("0.30.10"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["prompt"], words.join(" "));
    assert_ne!(v["explain"]["branch"], "native");
    // before the headroom: cut to num_ctx - 1
    assert_eq!(v["prompt_eval_count"], 63);
}

#[test]
fn tokenize_matches_llama_cpp_on_the_corpus() {
    let dir = golden("render.jsonl")
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("tokenizer");
    let text = std::fs::read_to_string(dir.join("tokenize.jsonl")).unwrap();
    // One vocabulary through the binary (the crate's tests cover all nine).
    let cases: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|c| c["vocab"] == "llama3.gguf")
        .collect();
    assert!(cases.len() > 1000, "{}", cases.len());
    let input: String = cases
        .iter()
        .map(|c| {
            serde_json::json!({"id": c["id"], "text": c["text"], "add_special": c["add_special"], "parse_special": c["parse_special"]})
                .to_string()
                + "\n"
        })
        .collect();
    let gguf = dir.join("llama3.gguf");
    let (code, out, err) = run(
        &["tokenize", "--gguf", gguf.to_str().unwrap(), "--jsonl"],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    for (case, line) in cases.iter().zip(out.lines()) {
        let got: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(got["ids"], case["expect"]["ids"], "{}", case["id"]);
    }
}

/// `model.modelfile`: the Modelfile (as `ollama show --modelfile` prints
/// it) gives the same render as its TEMPLATE, SYSTEM, MESSAGEs and
/// PARAMETERs given inline, its FROM the GGUF; the request's options win
/// key by key; Ollama's parser errors come back as usage errors.
#[test]
fn render_takes_a_modelfile() {
    let model = testkit::smollm2();
    let model = model.to_str().unwrap();
    let chatml = CHATML;
    let words: Vec<String> = (0..60).map(|i| format!("w{i}")).collect();
    let modelfile = format!(
        "# Modelfile generated by \"ollama show\"\nFROM {model}\nTEMPLATE \"\"\"{chatml}\"\"\"\nSYSTEM You are terse.\nPARAMETER num_ctx 48\nPARAMETER stop <|im_end|>\nMESSAGE user {}\nMESSAGE assistant Noted.\n",
        words.join(" ")
    );
    let request =
        serde_json::json!({"model": "smollm2", "messages": [{"role": "user", "content": "Hi"}]});
    let from_modelfile = serde_json::json!({"endpoint": "chat",
        "model": {"name": "smollm2", "modelfile": modelfile}, "request": request, "date": "2026-11-30"});
    let inline = serde_json::json!({"endpoint": "chat",
        "model": {"name": "smollm2", "gguf": model, "template": chatml, "system": "You are terse.",
            "messages": [{"role": "user", "content": words.join(" ")}, {"role": "assistant", "content": "Noted."}]},
        "request": {"model": "smollm2", "messages": [{"role": "user", "content": "Hi"}],
            "options": {"num_ctx": 48, "stop": ["<|im_end|>"]}},
        "date": "2026-11-30"});
    let (code, a, err) = run(&["render", "--json"], &from_modelfile.to_string());
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = run(&["render", "--json"], &inline.to_string());
    let a: serde_json::Value = serde_json::from_str(&a).unwrap();
    let b: serde_json::Value = serde_json::from_str(&b).unwrap();
    assert_eq!(a, b);
    // PARAMETER num_ctx 48 reached truncation: the long MESSAGE was dropped
    assert!(
        a["explain"]["truncation"]["first_kept"].as_u64().unwrap() > 0,
        "{a}"
    );
    assert_eq!(a["runner"]["num_ctx"], 48);

    // the request's num_ctx wins over the Modelfile's
    let mut bigger = from_modelfile.clone();
    bigger["request"]["options"] = serde_json::json!({"num_ctx": 4096});
    let (_, c, _) = run(&["render", "--json"], &bigger.to_string());
    let c: serde_json::Value = serde_json::from_str(&c).unwrap();
    assert_eq!(c["runner"]["num_ctx"], 4096);

    // Ollama's parser and create errors
    for (text, want) in [
        (
            "FROM x\nFOO bar",
            "model.modelfile: (line 2): command must be one of",
        ),
        ("SYSTEM hi", "model.modelfile: no FROM line"),
        (
            "FROM x\nPARAMETER num_ctx lots",
            "model.modelfile: invalid int value [lots]",
        ),
        (
            "FROM /no/such/file.gguf",
            "model.modelfile: FROM /no/such/file.gguf names no file here; give model.gguf",
        ),
    ] {
        let case = serde_json::json!({"model": {"modelfile": text}, "request": {"model": "m", "messages": []}});
        let (code, _, err) = run(&["render", "--json"], &case.to_string());
        assert_eq!(code, 2, "{text}");
        assert!(err.contains(want), "{text}: {err}");
    }
}

/// `tokenize --llamacpp`: the tokenizer of a named build; DeepSeek V3's
/// pre-tokenizer puts `~` with the symbols only from b10499 on.
#[test]
fn tokenize_at_a_llama_cpp_build() {
    let gguf = testkit::corpus("tokenizer/deepseek3.gguf");
    let case = r#"{"id": 1, "text": "x ~= y", "add_special": false, "parse_special": false}"#;
    let at = |build: &str| {
        let (code, out, err) = run(
            &[
                "tokenize",
                "--gguf",
                gguf.to_str().unwrap(),
                "--llamacpp",
                build,
            ],
            case,
        );
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(out.trim()).unwrap()["ids"].clone()
    };
    assert_eq!(at("b11312"), serde_json::json!([90, 6883, 31, 383]));
    assert_eq!(at("b10488"), serde_json::json!([90, 223, 96, 31, 383]));
    let (code, _, err) = run(
        &[
            "tokenize",
            "--gguf",
            gguf.to_str().unwrap(),
            "--llamacpp",
            "b1",
        ],
        case,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "llama.cpp build \"b1\" is not supported (supported: b9452, b9479, b9493, b9509, b9626, b9672, b9781, b9840, b9888, b10069, b10091, b10242, b10353, b10380, b10434, b10488, b11312)"
        ),
        "{err}"
    );
}
