//! `promptscope create`: a model written into a store as `ollama create`
//! lays it out.
//!
//! The fixture store (crates/store/tests/fixture) was written by Ollama's
//! own create code (v0.33.0-rc2). For 15 of its models, `tests/fixture/
//! create.jsonl` holds a Modelfile that says what the model holds (FROM
//! the same GGUF, its TEMPLATE, SYSTEM, LICENSEs, PARAMETERs, MESSAGEs,
//! RENDERER, PARSER, REQUIRES, an ADAPTER, a LLaVA projector that Ollama
//! rewrites with its own GGUF writer, FROM another model, FROM a cloud
//! model); created into an empty store with `--keep-gguf` (the recording
//! stored each model GGUF as given, Ollama's test stub standing in for
//! llama-quantize COPY), each manifest and every blob it names must equal
//! Ollama's byte for byte. llama-quantize COPY itself is checked against
//! the real tool in crates/gguf/tests/llama_quantize_copy.rs. Then: a created model renders
//! by name exactly as the same Modelfile given inline; Ollama's errors.

mod common;

use std::path::{Path, PathBuf};

use common::run;
use serde_json::{json, Value as Json};

fn fixture() -> PathBuf {
    testkit::repo_root().join("crates/store/tests/fixture/models")
}

fn blob(root: &Path, digest: &str) -> PathBuf {
    root.join("blobs").join(digest.replace(':', "-"))
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "promptscope-create-{tag}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `promptscope create NAME -f MODELFILE --models STORE EXTRA…`.
fn create(name: &str, modelfile: &Path, store: &Path, extra: &[&str]) -> (i32, String, String) {
    let (mf, st) = (modelfile.to_str().unwrap(), store.to_str().unwrap());
    let mut args = vec!["create", name, "-f", mf, "--models", st];
    args.extend_from_slice(extra);
    run(&args, "")
}

/// Writes the case's GGUFs (from the fixture's blobs) and its Modelfile
/// into a folder; returns the Modelfile's path.
fn lay_out(case: &Json, dir: &Path) -> PathBuf {
    for (name, digest) in case["files"].as_object().unwrap() {
        std::fs::copy(blob(&fixture(), digest.as_str().unwrap()), dir.join(name)).unwrap();
    }
    let mf = dir.join("Modelfile");
    std::fs::write(&mf, case["modelfile"].as_str().unwrap()).unwrap();
    mf
}

fn cases() -> Vec<Json> {
    std::fs::read_to_string(testkit::repo_root().join("crates/cli/tests/fixture/create.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Creates every case into one store and compares it with Ollama's.
fn reproduce(templates: Option<&Path>) {
    let store = temp(if templates.is_some() { "tpl" } else { "plain" });
    let mut same = 0;
    for (i, case) in cases().iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        let dir = temp(&format!("in{i}"));
        let mf = lay_out(case, &dir);
        // (the fixture's run stored each model GGUF as given: Ollama's test
        // stub stood in for llama-quantize COPY)
        let mut extra = vec!["--keep-gguf"];
        if let Some(t) = templates {
            extra.extend(["--templates", t.to_str().unwrap()]);
        }
        let (code, _, err) = create(name, &mf, &store, &extra);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            err.ends_with("writing manifest\nsuccess\n"),
            "{name}: {err}"
        );
        let rel = case["manifest"].as_str().unwrap();
        let mine = std::fs::read_to_string(store.join("manifests").join(rel)).unwrap();
        let theirs = std::fs::read_to_string(fixture().join("manifests").join(rel)).unwrap();
        assert_eq!(mine, theirs, "{name}: the manifest");
        let m: Json = serde_json::from_str(&mine).unwrap();
        let digests = std::iter::once(&m["config"])
            .chain(m["layers"].as_array().unwrap())
            .map(|l| l["digest"].as_str().unwrap());
        for d in digests {
            assert_eq!(
                std::fs::read(blob(&store, d)).unwrap(),
                std::fs::read(blob(&fixture(), d)).unwrap(),
                "{name}: blob {d}"
            );
        }
        same += 1;
        std::fs::remove_dir_all(&dir).unwrap();
    }
    assert_eq!(same, 15);
    std::fs::remove_dir_all(&store).unwrap();
}

#[test]
fn create_writes_the_store_ollama_wrote() {
    reproduce(None);
}

/// The same with Ollama's built-in templates for detection: none of these
/// GGUFs' chat templates is within Levenshtein distance 100 of one, so
/// nothing changes (as in Ollama's run).
#[test]
fn shared_create_with_ollamas_templates_writes_the_same() {
    reproduce(Some(&testkit::ollama_templates()));
}

/// A GGUF with the header only: the given string and u32 keys, no tensors.
fn tiny_gguf(strings: &[(&str, &str)], u32s: &[(&str, u32)]) -> Vec<u8> {
    let mut b = b"GGUF".to_vec();
    b.extend(3u32.to_le_bytes());
    b.extend(0u64.to_le_bytes());
    b.extend(((strings.len() + u32s.len()) as u64).to_le_bytes());
    let s = |b: &mut Vec<u8>, x: &str| {
        b.extend((x.len() as u64).to_le_bytes());
        b.extend(x.as_bytes());
    };
    for (k, v) in strings {
        s(&mut b, k);
        b.extend(8u32.to_le_bytes());
        s(&mut b, v);
    }
    for (k, v) in u32s {
        s(&mut b, k);
        b.extend(4u32.to_le_bytes());
        b.extend(v.to_le_bytes());
    }
    b
}

/// `detectChatTemplate`: a GGUF whose chat template is Ollama's ChatML
/// entry gets the built-in TEMPLATE and its stop parameters; a TEMPLATE in
/// the Modelfile replaces the detected one, and its PARAMETERs win over the
/// detected stop list key by key.
#[test]
fn shared_a_recognized_chat_template_becomes_the_builtin_template() {
    let templates = testkit::ollama_templates();
    let index: Json =
        serde_json::from_str(&std::fs::read_to_string(templates.join("index.json")).unwrap())
            .unwrap();
    let chatml = index
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "chatml")
        .unwrap();
    let dir = temp("detect");
    let gguf = tiny_gguf(
        &[
            ("general.architecture", "llama"),
            (
                "tokenizer.chat_template",
                chatml["template"].as_str().unwrap(),
            ),
        ],
        &[("general.file_type", 2)],
    );
    std::fs::write(dir.join("m.gguf"), &gguf).unwrap();
    std::fs::write(dir.join("Modelfile"), "FROM ./m.gguf\n").unwrap();
    let store = dir.join("models");
    let mf = dir.join("Modelfile");
    let tpl = ["--templates", templates.to_str().unwrap()];
    let (code, _, err) = create("detected", &mf, &store, &tpl);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("using autodetected template chatml\n"),
        "{err}"
    );
    let m: Json = serde_json::from_str(
        &std::fs::read_to_string(
            store.join("manifests/registry.ollama.ai/library/detected/latest"),
        )
        .unwrap(),
    )
    .unwrap();
    let layers = m["layers"].as_array().unwrap();
    let kinds: Vec<&str> = layers
        .iter()
        .map(|l| l["mediaType"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "application/vnd.ollama.image.model",
            "application/vnd.ollama.image.template",
            "application/vnd.ollama.image.params"
        ]
    );
    let read =
        |l: &Json| std::fs::read_to_string(blob(&store, l["digest"].as_str().unwrap())).unwrap();
    assert_eq!(
        read(&layers[1]),
        std::fs::read_to_string(templates.join("chatml.gotmpl")).unwrap()
    );
    assert_eq!(
        read(&layers[2]),
        "{\"stop\":[\"\\u003c|im_start|\\u003e\",\"\\u003c|im_end|\\u003e\"]}\n"
    );
    let config = read(&m["config"]);
    assert_eq!(
        config,
        "{\"model_format\":\"gguf\",\"model_family\":\"llama\",\"model_families\":[\"llama\"],\"model_type\":\"0\",\"file_type\":\"Q4_0\",\"architecture\":\"amd64\",\"os\":\"linux\"}\n"
    );
    // the Modelfile's TEMPLATE and PARAMETERs win
    std::fs::write(
        &mf,
        "FROM ./m.gguf\nTEMPLATE {{ .Prompt }}\nPARAMETER temperature 0.5\n",
    )
    .unwrap();
    let (code, _, err) = create("mine", &mf, &store, &tpl);
    assert_eq!(code, 0, "{err}");
    let m: Json = serde_json::from_str(
        &std::fs::read_to_string(store.join("manifests/registry.ollama.ai/library/mine/latest"))
            .unwrap(),
    )
    .unwrap();
    let layers = m["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 3);
    // (setTemplate drops the detected template and appends the new one;
    // setParameters then does the same with the merged params)
    assert_eq!(read(&layers[1]), "{{ .Prompt }}");
    assert_eq!(read(&layers[2]), "{\"stop\":[\"\\u003c|im_start|\\u003e\",\"\\u003c|im_end|\\u003e\"],\"temperature\":0.5}\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A model created from a Modelfile renders by name (`model.store`)
/// exactly as the same Modelfile given inline, on every endpoint shape.
#[test]
fn a_created_model_renders_by_name_as_its_modelfile_inline() {
    let dir = temp("render");
    let gguf = testkit::repo_root().join("tests/corpus/tokenizer/qwen3.gguf");
    std::fs::copy(&gguf, dir.join("qwen3.gguf")).unwrap();
    let modelfile = "FROM ./qwen3.gguf\n\
        TEMPLATE \"\"\"{{- if .System }}<|im_start|>system\n{{ .System }}<|im_end|>\n{{ end }}\
        {{- range .Messages }}<|im_start|>{{ .Role }}\n{{ .Content }}<|im_end|>\n{{ end }}<|im_start|>assistant\n\"\"\"\n\
        SYSTEM You are terse.\n\
        PARAMETER num_ctx 64\n\
        PARAMETER stop <|im_end|>\n\
        MESSAGE user Hello\n\
        MESSAGE assistant Hi!\n";
    std::fs::write(dir.join("Modelfile"), modelfile).unwrap();
    let store = dir.join("models");
    let (code, _, err) = create("Terse:v2", &dir.join("Modelfile"), &store, &["--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "");
    // `list` sees it
    let (code, out, err) = run(&["list", "--models", store.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().nth(1).unwrap().starts_with("Terse:v2 "),
        "{out}"
    );
    let abs = dir.join("qwen3.gguf");
    let inline_mf = modelfile.replace("FROM ./qwen3.gguf", &format!("FROM {}", abs.display()));
    for (endpoint, request) in [
        (
            "chat",
            json!({"messages": [{"role": "user", "content": "Why?"}], "stream": false}),
        ),
        ("generate", json!({"prompt": "Why?", "stream": false})),
        (
            "chat",
            json!({"messages": [{"role": "system", "content": "Other."}, {"role": "user", "content": "x"}], "options": {"num_ctx": 4096}}),
        ),
    ] {
        let mut request = request;
        request["model"] = json!("terse:v2");
        let by_name = json!({"endpoint": endpoint, "date": "2026-12-06", "request": request,
            "model": {"store": store, "name": "terse:v2"}});
        let inline = json!({"endpoint": endpoint, "date": "2026-12-06", "request": request,
            "model": {"modelfile": inline_mf, "gguf": abs}});
        let (c1, a, e1) = run(&["render", "--json"], &by_name.to_string());
        let (c2, b, e2) = run(&["render", "--json"], &inline.to_string());
        assert_eq!((c1, c2), (0, 0), "{e1} {e2}");
        let (a, b): (Json, Json) = (
            serde_json::from_str(&a).unwrap(),
            serde_json::from_str(&b).unwrap(),
        );
        assert_eq!(a["prompt"], b["prompt"], "{endpoint} {request}");
        assert_eq!(a["prompt_eval_count"], b["prompt_eval_count"]);
        assert!(
            a["prompt"].as_str().unwrap().contains("Hi!<|im_end|>"),
            "{a}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ollamas_errors_and_what_it_does_not_write() {
    let dir = temp("errors");
    let store = dir.join("models");
    let mf = dir.join("Modelfile");
    let create = |name: &str, text: &str| {
        std::fs::write(&mf, text).unwrap();
        create(name, &mf, &store, &["--quiet"])
    };
    std::fs::copy(
        blob(
            &fixture(),
            "sha256:530b40c2024465cc36a2646c9ce92e1a57c558acd4ce116adda582734281150f",
        ),
        dir.join("q.gguf"),
    )
    .unwrap();
    // Ollama's errors as its client prints them (exit 1)
    let (code, _, err) = create("bad name!", "FROM ./q.gguf\n");
    assert_eq!(
        (code, err.as_str()),
        (1, "Error: invalid model name: bad name!\n")
    );
    let (code, _, err) = create("x", "FROM ./q.gguf\nTEMPLATE {{ .Prompt \n");
    assert_eq!(code, 1);
    assert!(
        err.starts_with("Error: template error: template: :1: "),
        "{err}"
    );
    let (code, _, err) = create("x", "FROM ./q.gguf\nPARAMETER temperature hot\n");
    assert_eq!(
        (code, err.as_str()),
        (1, "Error: invalid float value [hot]\n")
    );
    let (code, _, err) = create("x", "FROM ./q.gguf\nBOGUS x\n");
    assert_eq!(code, 1);
    assert!(err.starts_with("Error: "), "{err}");
    // a file that is not a GGUF, told by its name as detectModelTypeFromFiles
    // and ggufLayers tell it
    std::fs::write(dir.join("notes.txt"), "hello").unwrap();
    std::fs::write(dir.join("fake.gguf"), "hello").unwrap();
    let (code, _, err) = create("x", "FROM ./notes.txt\n");
    assert_eq!((code, err.as_str()), (1, "Error: unknown type\n"));
    let (code, _, err) = create("x", "FROM ./fake.gguf\n");
    assert_eq!(
        (code, err.as_str()),
        (1, "Error: supplied file was not in GGUF format\n")
    );
    // what Ollama would do and this does not (pull): said as ours (exit 2)
    let (code, _, err) = create("x", "FROM nothere:1b\n");
    assert_eq!(code, 2);
    assert!(err.contains("model 'nothere:1b' is not in"), "{err}");
    // nothing half-written: no manifest for "x"
    assert!(!store
        .join("manifests/registry.ollama.ai/library/x")
        .exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without `--keep-gguf` the model blob is what `llama-quantize … COPY`
/// writes (Ollama's create): SmolLM2's digest and size as recorded from the
/// real tool (crates/gguf/tests/golden/llama-quantize-copy.jsonl), and the
/// stored bytes hash to it.
#[test]
fn the_model_blob_is_llama_quantize_copys_file() {
    let golden: Json = std::fs::read_to_string(
        testkit::repo_root().join("crates/gguf/tests/golden/llama-quantize-copy.jsonl"),
    )
    .unwrap()
    .lines()
    .map(|l| serde_json::from_str::<Json>(l).unwrap())
    .find(|g| g["input"] == "SmolLM2-135M-Instruct.Q4_1.gguf")
    .unwrap();
    let dir = temp("copy");
    std::fs::write(
        dir.join("Modelfile"),
        format!("FROM {}\n", testkit::smollm2().display()),
    )
    .unwrap();
    let store = dir.join("models");
    let (code, _, err) = create("smol", &dir.join("Modelfile"), &store, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.starts_with("validating GGUF model (llama-quantize COPY)\n"),
        "{err}"
    );
    let m: Json = serde_json::from_str(
        &std::fs::read_to_string(store.join("manifests/registry.ollama.ai/library/smol/latest"))
            .unwrap(),
    )
    .unwrap();
    let model = &m["layers"][0];
    let want = format!("sha256:{}", golden["output_sha256"].as_str().unwrap());
    assert_eq!(model["digest"], json!(want));
    assert_eq!(model["size"], golden["output_size"]);
    assert!(model.get("from").is_none());
    let bytes = std::fs::read(blob(&store, &want)).unwrap();
    assert_eq!(bytes.len() as u64, golden["output_size"].as_u64().unwrap());
    assert_eq!(
        format!("sha256:{}", store::manifest::sha256_hex(&bytes)),
        want
    );
    // only the copy is stored, not the file as given
    assert_eq!(std::fs::read_dir(store.join("blobs")).unwrap().count(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
