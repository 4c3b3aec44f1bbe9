//! The model store through the `promptscope` binary, on the fixture store
//! Ollama's own create code wrote (crates/store/tests/fixture/README.md): a model taken by
//! name (`model.store`) renders exactly as the same model given inline,
//! its inline form being what Ollama's own `ollama show --modelfile`
//! printed for it (recorded in `crates/store/tests/golden/show.jsonl`);
//! `list`, `show`, `tokenize --model` and `generate` read the same store.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{json, Value as Json};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_promptscope"))
}

fn run(args: &[&str], input: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(bin())
        .args(args)
        .env_remove("OLLAMA_MODELS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixture() -> PathBuf {
    testkit::repo_root().join("crates/store/tests/fixture/models")
}

fn golden() -> Vec<Json> {
    std::fs::read_to_string(testkit::repo_root().join("crates/store/tests/golden/show.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Requests of the render goldens, one per distinct conversation shape:
/// five chat and two generate ones (each case runs the binary twice, and
/// loading a 150,000-token vocabulary takes a second in a debug build).
fn conversations() -> Vec<(String, Json)> {
    let text = std::fs::read_to_string(testkit::corpus("golden/render.jsonl")).unwrap();
    let mut seen: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for l in text.lines() {
        let c: Json = serde_json::from_str(l).unwrap();
        let id = c["id"].as_str().unwrap_or("");
        let shape = id.rsplit('/').next().unwrap_or("").to_string();
        let endpoint = c["endpoint"].as_str().unwrap_or("chat").to_string();
        let per_endpoint = seen.iter().filter(|s| s.starts_with(&endpoint)).count();
        let cap = if endpoint == "chat" { 5 } else { 2 };
        if !id.starts_with("builtin-")
            || per_endpoint >= cap
            || !seen.insert(format!("{endpoint}/{shape}"))
        {
            continue;
        }
        out.push((endpoint, c["request"].clone()));
    }
    assert!(out.len() >= 7, "{} conversations", out.len());
    out
}

/// The model as Ollama's `ollama show --modelfile` printed it, made a
/// case's inline model: its FROM blob paths pointed at the fixture.
fn inline_model(modelfile: &str, root: &str, family: &str) -> Json {
    let fixture = fixture();
    let fixture = fixture.to_str().unwrap();
    let text = modelfile.replace(&format!("{root}/blobs/"), &format!("{fixture}/blobs/"));
    // Model.String writes Ollama's default template for a model that has
    // no template layer; given back, it would be a Go TEMPLATE
    let text = text.replace("\nTEMPLATE {{ .Prompt }}\n", "\n");
    let froms: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("FROM "))
        .collect();
    let mut m = json!({"modelfile": text, "gguf": froms[0]});
    if froms.len() > 1 {
        m["projector"] = json!(true);
    }
    if !family.is_empty() {
        m["family"] = json!(family);
    }
    m
}

/// The show records of plain requests (no system, options, user agent or
/// environment), with the name asked for.
fn plain_shows(records: &[Json]) -> Vec<(&str, &Json)> {
    records
        .iter()
        .filter(|r| r["kind"] == "show" && r["status"] == 200)
        .filter(|r| r.get("user_agent").is_none() && r.get("env").is_none())
        .filter(|r| r["request"].get("system").is_none() && r["request"].get("options").is_none())
        .map(|r| {
            let q = &r["request"];
            (q["model"].as_str().or(q["name"].as_str()).unwrap(), r)
        })
        .collect()
}

fn recorded_root(records: &[Json]) -> String {
    for r in records {
        if let Some(m) = r["cli"]["modelfile"].as_str() {
            if let Some(i) = m.find("/blobs/sha256-") {
                let from = m[..i].rfind("FROM ").unwrap() + 5;
                return m[from..i].to_string();
            }
        }
    }
    panic!("no recorded Modelfile names a blob")
}

#[test]
fn a_stored_model_renders_as_the_same_model_given_inline() {
    let records = golden();
    let root = recorded_root(&records);
    let store = fixture();
    let store = store.to_str().unwrap();
    let convs = conversations();
    let mut jobs = Vec::new();
    let mut models = std::collections::BTreeSet::new();
    for (name, r) in plain_shows(&records) {
        let body: Json = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
        if body.get("remote_host").is_some() {
            // Ollama forwards a cloud model's requests (tested below)
            continue;
        }
        let family = body["details"]["family"].as_str().unwrap_or("");
        let inline = inline_model(r["cli"]["modelfile"].as_str().unwrap(), &root, family);
        // a model asked again by another spelling: one conversation
        let first = models.insert(
            body["modelfile"]
                .as_str()
                .unwrap()
                .lines()
                .nth(2)
                .unwrap_or("")
                .to_string(),
        );
        let take = if first { convs.len() } else { 1 };
        for (endpoint, request) in convs.iter().take(take) {
            let mut request = request.clone();
            request["model"] = json!(name);
            let by_name = json!({"endpoint": endpoint, "model": {"store": store, "name": name},
                "request": request, "date": "2026-11-30"});
            let given = json!({"endpoint": endpoint, "model": inline, "request": request, "date": "2026-11-30"});
            jobs.push((format!("{name} {endpoint} {request}"), by_name, given));
        }
    }
    // two workers: each case runs the binary twice
    type Ran = (i32, String, String);
    let results: Vec<(String, Ran, Ran)> = std::thread::scope(|sc| {
        let halves: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|part| {
                sc.spawn(move || {
                    part.iter()
                        .map(|(what, a, b)| {
                            (
                                what.clone(),
                                run(&["render", "--json"], &a.to_string()),
                                run(&["render", "--json"], &b.to_string()),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let (mut prompts, mut errors, mut unreadable) = (0, 0, 0);
    for (what, (ca, a, ea), (cb, b, eb)) in &results {
        assert_eq!(ca, cb, "{what}: {ea} {eb}");
        if *ca == 2 {
            // the same input the engine cannot take either way (a
            // vocabulary type the tokenizer does not have)
            assert_eq!(ea, eb, "{what}");
            unreadable += 1;
            continue;
        }
        let mut a: Json =
            serde_json::from_str(a).unwrap_or_else(|e| panic!("{what}: {e}: {a} {ea}"));
        let b: Json = serde_json::from_str(b).unwrap_or_else(|e| panic!("{what}: {e}: {b} {eb}"));
        assert!(a.get("origins").is_some(), "{a}");
        a.as_object_mut().unwrap().remove("origins");
        assert_eq!(a, b, "{what}");
        if a["prompt"].is_string() {
            prompts += 1;
        } else {
            errors += 1;
        }
    }
    eprintln!(
        "{} stored models x {} conversations: {} cases equal ({prompts} prompts, {errors} the same Ollama error, {unreadable} the same unreadable vocabulary)",
        models.len(),
        convs.len(),
        results.len()
    );
    assert!(models.len() >= 12, "{} models", models.len()); // 16 in the fixture, less the cloud stub
    assert!(
        prompts * 2 > results.len(),
        "{prompts} prompts of {}",
        results.len()
    );
}

#[test]
fn list_and_show_print_what_ollama_prints() {
    let records = golden();
    let store = fixture();
    let store = store.to_str().unwrap();
    // `show --template`, `--system`, `--license` need no mtimes or paths
    for (name, r) in plain_shows(&records) {
        for flag in ["template", "system", "license"] {
            let (code, out, err) =
                run(&["show", name, "--models", store, &format!("--{flag}")], "");
            assert_eq!(code, 0, "{err}");
            assert_eq!(out, r["cli"][flag].as_str().unwrap(), "{name} --{flag}");
        }
    }
    // errors: exit 1 and Ollama's text, as `ollama show` prints it
    let (code, _, err) = run(&["show", "nope", "--models", store], "");
    assert_eq!(
        (code, err.as_str()),
        (1, "Error: model 'nope:latest' not found\n")
    );
    let (code, _, err) = run(&["show", "bad name!", "--models", store], "");
    assert_eq!((code, err.as_str()), (1, "Error: invalid model name\n"));
    // list --json: one entry per fixture model
    let (code, out, err) = run(&["list", "--models", store, "--json"], "");
    assert_eq!(code, 0, "{err}");
    let tags: Json = serde_json::from_str(&out).unwrap();
    let shown = records
        .iter()
        .filter(|r| r["kind"] == "show" && r["status"] == 200)
        .count();
    assert!(tags["models"].as_array().unwrap().len() >= 12.min(shown));
    // the table: header and one line per model
    let (code, out, _) = run(&["list", "--models", store], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("NAME"), "{out}");
    assert_eq!(
        out.lines().count(),
        1 + tags["models"].as_array().unwrap().len()
    );
    // OLLAMA_MODELS is where list looks without --models
    let out = Command::new(bin())
        .args(["list", "--json"])
        .env("OLLAMA_MODELS", store)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        serde_json::to_string(&tags).unwrap() + "\n"
    );
    // a folder that is not a store
    let (code, _, err) = run(&["list", "--models", "/nonexistent/models"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/nonexistent/models"), "{err}");
}

#[test]
fn show_verify_checks_every_blob() {
    let store = fixture();
    let (code, _, err) = run(
        &[
            "show",
            "smol-go",
            "--models",
            store.to_str().unwrap(),
            "--verify",
            "--template",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.lines()
            .filter(|l| l.starts_with("verified sha256:"))
            .count()
            >= 3,
        "{err}"
    );
}

#[test]
fn tokenize_and_generate_take_a_stored_model() {
    let store = fixture();
    let store = store.to_str().unwrap();
    let input = r#"{"id": 1, "text": "Hello <|im_start|> world", "add_special": true, "parse_special": true}"#;
    let (code, by_name, err) = run(
        &["tokenize", "--model", "smol-go", "--models", store],
        input,
    );
    assert_eq!(code, 0, "{err}");
    let gguf = testkit::llama_cpp("models/ggml-vocab-llama-spm.gguf");
    let (_, by_file, _) = run(&["tokenize", "--gguf", gguf.to_str().unwrap()], input);
    assert_eq!(by_name, by_file);
    // generate: counts without running the model (the fixture's GGUFs have
    // a vocabulary and no weights)
    let case = json!({"endpoint": "chat", "model": {"store": store, "name": "smol-go"},
        "request": {"model": "smol-go", "messages": [{"role": "user", "content": "Hi"}], "options": {"num_predict": 0}, "stream": false}});
    let (code, out, err) = run(&["generate"], &case.to_string());
    assert_eq!(code, 0, "{err}");
    let (_, rendered, _) = run(&["render", "--json"], &case.to_string());
    let rendered: Json = serde_json::from_str(&rendered).unwrap();
    let last: Json = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(
        last["prompt_eval_count"], rendered["prompt_eval_count"],
        "{out}"
    );
    // a model the store does not have: Ollama's 404 text
    let case = json!({"endpoint": "chat", "model": {"store": store, "name": "nope"},
        "request": {"model": "nope", "messages": []}});
    let (code, out, _) = run(&["render", "--json"], &case.to_string());
    assert_eq!(code, 1);
    assert_eq!(
        serde_json::from_str::<Json>(&out).unwrap(),
        json!({"error": "model 'nope' not found", "status": 404})
    );
}
