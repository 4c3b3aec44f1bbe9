//! The fixture store (written by Ollama's own create code,
//! `tests/fixture/README.md`) read by `store`, against what Ollama's show and
//! list code answered for it (`golden/show.jsonl`): the `/api/show` body
//! byte for byte, what `ollama show` prints with each flag, the
//! `/api/tags` body and the `ollama list` table.
//!
//! Ollama walks a Go map for the PARAMETER lines of `parameters` and of
//! the Modelfile, so their order is random there; we write them in name
//! order, and these lines are compared as a set.

use std::path::PathBuf;

use serde_json::Value as Json;
use store::dir::FsDir;
use store::show::{self, Field, ShowRequest};

fn fixture() -> PathBuf {
    testkit::repo_root().join("crates/store/tests/fixture/models")
}

fn golden() -> Vec<Json> {
    let p = testkit::repo_root().join("crates/store/tests/golden/show.jsonl");
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The fixture copied to a fresh folder, each manifest's mtime set to the
/// one the recording used.
pub fn store_copy(tag: &str) -> (PathBuf, Json) {
    let list = golden()
        .into_iter()
        .find(|g| g["kind"] == "list")
        .expect("a list record");
    let tmp = std::env::temp_dir().join(format!("promptscope-show-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    testkit::copy_dir(&fixture(), &tmp);
    for (rel, t) in list["mtimes"].as_object().unwrap() {
        let ns = store::gofmt::parse_rfc3339(t.as_str().unwrap()).unwrap();
        let when = std::time::UNIX_EPOCH + std::time::Duration::from_nanos(ns as u64);
        let f = std::fs::File::options()
            .write(true)
            .open(tmp.join(rel))
            .unwrap();
        f.set_modified(when).unwrap();
    }
    (tmp, list)
}

/// The models directory the recording used, as its Modelfiles print it.
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

/// Lines that are PARAMETERs (in a Modelfile, in `parameters`, in the
/// Parameters table of `ollama show`) sorted within each run of them.
fn params_as_set(s: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let mut in_table = false;
    let all_params =
        !s.contains('\n') || s.lines().all(|l| l.len() > 31 && l.as_bytes()[30] == b' ');
    for l in s.split('\n') {
        if l == "  Parameters" {
            in_table = true;
            out.push(l.to_string());
            continue;
        }
        if in_table && l.is_empty() {
            in_table = false;
        }
        if all_params || in_table || l.starts_with("PARAMETER ") {
            run.push(l.to_string());
        } else {
            run.sort();
            out.append(&mut run);
            out.push(l.to_string());
        }
    }
    run.sort();
    out.append(&mut run);
    out.join("\n")
}

fn body_as_set(b: &str) -> Json {
    let mut v: Json = serde_json::from_str(b).unwrap();
    for k in ["parameters", "modelfile"] {
        if let Some(s) = v.get(k).and_then(Json::as_str) {
            v[k] = Json::from(params_as_set(s));
        }
    }
    v
}

#[test]
fn show_answers_as_ollama() {
    let records = golden();
    let (tmp, _) = store_copy("show");
    let dir = FsDir::open(&tmp).unwrap();
    let root = recorded_root(&records);
    let mut checked = 0;
    let mut exact = 0;
    let mut proxied = 0;
    for r in records.iter().filter(|r| r["kind"] == "show") {
        let id = r["id"].as_str().unwrap();
        if r.get("proxy").is_some() {
            // forwarded to ollama.com: the answer is not Ollama's to give
            proxied += 1;
            continue;
        }
        let parsed = match r.get("request_body").and_then(Json::as_str) {
            Some(b) => ShowRequest::from_body(b.as_bytes()),
            None => ShowRequest::from_json(&r["request"]),
        };
        let req = match parsed.map(|mut q| {
            q.user_agent = r["user_agent"].as_str().unwrap_or("").to_string();
            q.no_cloud = r["env"]["OLLAMA_NO_CLOUD"].is_string();
            q
        }) {
            Ok(q) => q,
            Err(refusal) => {
                assert_eq!(Json::from(refusal.status), r["status"], "{id}");
                assert_eq!(
                    show::error_body(&refusal.message),
                    r["body"].as_str().unwrap(),
                    "{id}"
                );
                checked += 1;
                continue;
            }
        };
        let (status, body) = show::show_http(&dir, &root, &req);
        let want = r["body"].as_str().unwrap();
        assert_eq!(Json::from(status), r["status"], "{id}: {body}");
        if body == want {
            exact += 1;
        } else {
            assert_eq!(
                body_as_set(&body),
                body_as_set(want),
                "{id}:\n ours {body}\n Ollama's {want}"
            );
        }
        if status == 200 {
            let resp: Json = serde_json::from_str(&body).unwrap();
            let cli = &r["cli"];
            for (k, f) in [
                ("modelfile", Field::Modelfile),
                ("template", Field::Template),
                ("system", Field::System),
                ("parameters", Field::Parameters),
                ("license", Field::License),
            ] {
                if let Some(w) = cli.get(k).and_then(Json::as_str) {
                    assert_eq!(
                        params_as_set(&show::field(&resp, f)),
                        params_as_set(w),
                        "{id} --{k}"
                    );
                }
            }
            if let Some(w) = cli.get("info").and_then(Json::as_str) {
                assert_eq!(
                    params_as_set(&show::info(&resp, false)),
                    params_as_set(w),
                    "{id} (no flag)"
                );
            }
            if let Some(w) = cli.get("info_verbose").and_then(Json::as_str) {
                let verbose_req = ShowRequest {
                    verbose: true,
                    ..req.clone()
                };
                let (_, vb) = show::show_http(&dir, &root, &verbose_req);
                let vresp: Json = serde_json::from_str(&vb).unwrap();
                assert_eq!(
                    params_as_set(&show::info(&vresp, true)),
                    params_as_set(w),
                    "{id} --verbose"
                );
            }
        }
        checked += 1;
    }
    eprintln!("{checked} show answers equal ({exact} byte for byte, the rest up to Ollama's random PARAMETER order); {proxied} forwarded to ollama.com not compared");
    assert!(checked >= 12, "only {checked} show records");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn list_answers_as_ollama() {
    let (tmp, list) = store_copy("list");
    let dir = FsDir::open(&tmp).unwrap();
    let (models, skipped) = store::list::list(&dir).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(
        store::list::tags_body(&models),
        list["body"].as_str().unwrap()
    );
    let now = store::gofmt::parse_rfc3339(list["now"].as_str().unwrap()).unwrap();
    assert_eq!(
        store::list::table(&models, None, now),
        list["table"].as_str().unwrap()
    );
    // only headers were read from the model blobs
    for m in &models {
        assert!(
            m.gguf_bytes_read <= 256 << 10,
            "{}: {}",
            m.name,
            m.gguf_bytes_read
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A pasted `/api/show` body gives the model the store holds: each
/// recorded 200 answer imported fills a case as the stored model does
/// (template, system, messages, renderer, parser, family, projector,
/// options), but for the GGUF path.
#[test]
fn a_pasted_show_body_is_the_stored_model() {
    let (tmp, _) = store_copy("import");
    let dir = FsDir::open(&tmp).unwrap();
    let mut n = 0;
    for r in golden()
        .iter()
        .filter(|r| r["kind"] == "show" && r["status"] == 200)
    {
        let q = &r["request"];
        if q.get("system").is_some() || q.get("options").is_some() || r.get("env").is_some() {
            continue;
        }
        let body: Json = serde_json::from_str(r["body"].as_str().unwrap()).unwrap();
        if body.get("remote_host").is_some() {
            continue;
        }
        let name = q["model"].as_str().or(q["name"].as_str()).unwrap();
        let (req, extra) = show::import_body(&body).unwrap();
        let mut pasted =
            serde_json::json!({"model": extra, "request": {"model": name, "options": {"seed": 1}}});
        req.fill_case(&mut pasted);
        let m = store::model::load(&dir, name).unwrap();
        let mut stored =
            serde_json::json!({"model": {}, "request": {"model": name, "options": {"seed": 1}}});
        m.fill_case(&mut stored);
        let model = stored["model"].as_object_mut().unwrap();
        model.remove("gguf");
        model.remove("capabilities");
        assert_eq!(pasted, stored, "{name}");
        n += 1;
    }
    assert!(n >= 15, "{n}");
    assert!(show::import_body(&serde_json::json!({"license": "x"})).is_err());
    let _ = std::fs::remove_dir_all(&tmp);
}
