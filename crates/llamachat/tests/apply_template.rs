//! llama-server's `POST /apply-template`, recorded from llama.cpp's own
//! code (tools/apply-template-goldens: a harness on libllama-server-impl
//! that runs `oaicompat_chat_params_parse` with llama-server's defaults as
//! that build parses them) for every template of llama.cpp's
//! models/templates and a set of conversations each, at each build
//! (`apply-template.jsonl` b11312, `apply-template-b10488.jsonl` b10488,
//! `apply-template-b10434.jsonl` b10434, recorded from 10435's tree,
//! `apply-template-b10380.jsonl` b10380, `apply-template-b10353.jsonl`
//! b10353, recorded from 10355's tree, `apply-template-b10242.jsonl`
//! b10242, recorded from 10248's tree, `apply-template-b10091.jsonl`
//! b10091 and `apply-template-b10069.jsonl` b10069):
//! the prompt, or the status and error body, must be equal byte for byte.
//! A case with `"server"` was recorded with media allowed (a projector
//! loaded). `ONLY=<template>` narrows the run, `SHOW=1` prints every
//! difference in full.

use std::collections::BTreeMap;
use std::path::PathBuf;

use llamachat::server::{apply_template, error_body, ServerChatParams};
use llamachat::ChatTemplates;
use serde_json::Value as Json;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

#[test]
fn apply_template_goldens() {
    check("apply-template.jsonl", changes::Build::B11312);
}

#[test]
fn apply_template_goldens_b10488() {
    check("apply-template-b10488.jsonl", changes::Build::B10488);
}

#[test]
fn apply_template_goldens_b10434() {
    check("apply-template-b10434.jsonl", changes::Build::B10434);
}

#[test]
fn apply_template_goldens_b10380() {
    check("apply-template-b10380.jsonl", changes::Build::B10380);
}

#[test]
fn apply_template_goldens_b10353() {
    check("apply-template-b10353.jsonl", changes::Build::B10353);
}

#[test]
fn apply_template_goldens_b10242() {
    check("apply-template-b10242.jsonl", changes::Build::B10242);
}

#[test]
fn apply_template_goldens_b10091() {
    check("apply-template-b10091.jsonl", changes::Build::B10091);
}

#[test]
fn apply_template_goldens_b10069() {
    check("apply-template-b10069.jsonl", changes::Build::B10069);
}

fn check(file: &str, build: changes::Build) {
    let dir = golden_dir();
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let only = std::env::var("ONLY").ok();
    let show = std::env::var("SHOW").is_ok();
    type Key = (String, String, String, String);
    let mut servers: BTreeMap<Key, Result<ServerChatParams, String>> = BTreeMap::new();
    let mut total = 0;
    let mut bad = Vec::new();
    let mut errors = 0;
    let mut checked = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Json = serde_json::from_str(line).unwrap();
        let name = case["template"].as_str().unwrap().to_string();
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        total += 1;
        let bos = case["bos_token"].as_str().unwrap_or("").to_string();
        let eos = case["eos_token"].as_str().unwrap_or("").to_string();
        // the recording's fixed clock (tools/apply-template-goldens/fixed_clock.c)
        let now = case["now"].as_i64().unwrap_or(1_768_472_430);
        let media = &case["server"];
        let key = (name.clone(), bos.clone(), eos.clone(), media.to_string());
        let srv = servers.entry(key).or_insert_with(|| {
            let src =
                std::fs::read_to_string(testkit::llama_cpp(&format!("models/templates/{name}")))
                    .unwrap();
            ChatTemplates::init_with_build(&src, &bos, &eos, false, false, build)
                .and_then(|t| ServerChatParams::new(t, now))
                .map(|mut s| {
                    let allow = |k: &str| media[k].as_bool().unwrap_or(false);
                    s.allow_image = allow("allow_image");
                    s.allow_audio = allow("allow_audio");
                    s.allow_video = allow("allow_video");
                    s
                })
                .map_err(|e| e.message)
        });
        if let (Ok(s), Some(want)) = (&*srv, case["enable_thinking_default"].as_bool()) {
            if s.enable_thinking != want && checked.insert(name.clone()) {
                bad.push(format!(
                    "{name}: thinking default {} (llama-server: {want})",
                    s.enable_thinking
                ));
            }
        }
        let got: Result<String, (u16, String)> = match srv {
            Ok(s) => {
                apply_template(&case["body"], s, now).map_err(|e| (e.status(), error_body(&e)))
            }
            Err(e) => Err((0, format!("load: {e}"))),
        };
        let want: Result<String, (u16, String)> = match case.get("prompt") {
            Some(Json::String(p)) => Ok(p.clone()),
            _ => {
                errors += 1;
                let e = &case["error"];
                Err((
                    e["status"].as_u64().unwrap_or(0) as u16,
                    match (&e["body_text"], &e["body"]) {
                        (Json::String(s), _) | (_, Json::String(s)) => s.clone(),
                        (_, other) => llamachat::dump::dump(other),
                    },
                ))
            }
        };
        if got != want {
            let what = format!("{name} / {}", case["case"].as_str().unwrap_or("?"));
            if show {
                bad.push(format!("{what}\n  got:  {got:?}\n  want: {want:?}"));
            } else {
                bad.push(what);
            }
        }
    }
    eprintln!(
        "{file} ({build}): {} of {total} cases equal ({errors} of them errors)",
        total - bad.len()
    );
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}
