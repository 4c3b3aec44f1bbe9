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
//! b10091, `apply-template-b10069.jsonl` b10069, and
//! `apply-template-b9888.jsonl`, `-b9840` and `-b9781`, the first and last
//! recorded from 9892's and 9780's trees, `-b9672`, `-b9626`, recorded
//! from 9628's tree, and `-b9509`; a template b9888 and older cannot start
//! with, Hy3, is the load error their `"stage": "startup"` rows hold):
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

#[test]
fn apply_template_goldens_b9888() {
    check("apply-template-b9888.jsonl", changes::Build::B9888);
}

#[test]
fn apply_template_goldens_b9840() {
    check("apply-template-b9840.jsonl", changes::Build::B9840);
}

#[test]
fn apply_template_goldens_b9781() {
    check("apply-template-b9781.jsonl", changes::Build::B9781);
}

#[test]
fn apply_template_goldens_b9672() {
    check("apply-template-b9672.jsonl", changes::Build::B9672);
}

#[test]
fn apply_template_goldens_b9626() {
    check("apply-template-b9626.jsonl", changes::Build::B9626);
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
            // a template llama-server cannot start with (`e.what()` of
            // the load)
            _ if case["error"]["stage"] == "startup" => {
                errors += 1;
                Err((
                    0,
                    format!("load: {}", case["error"]["what"].as_str().unwrap_or("")),
                ))
            }
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

#[test]
fn apply_template_goldens_b9509() {
    check("apply-template-b9509.jsonl", changes::Build::B9509);
}

#[test]
fn apply_template_goldens_b9493() {
    check("apply-template-b9493.jsonl", changes::Build::B9493);
}

#[test]
fn apply_template_goldens_b9479() {
    check("apply-template-b9479.jsonl", changes::Build::B9479);
}

#[test]
fn apply_template_goldens_b9452() {
    check("apply-template-b9452.jsonl", changes::Build::B9452);
}

/// `stepfun_trim_content` (between the published 9864 and 9870), which no
/// recorded conversation reaches (none has surrounding whitespace): the
/// case the recorder's real llama-server of b9840 and of b9888 (9892)
/// answered (tools/apply-template-goldens/README.md), on StepFun 3.5.
#[test]
fn stepfun_content_is_trimmed_from_9870() {
    let body = serde_json::json!({"messages": [
        {"role": "user", "content": "  Hi there \n"},
        {"role": "assistant", "content": "\nHello! ", "reasoning_content": " thinking \n"},
        {"role": "user", "content": [{"type": "text", "text": " part one "}]},
    ]});
    let src = std::fs::read_to_string(testkit::llama_cpp(
        "models/templates/StepFun3.5-Flash.jinja",
    ))
    .unwrap();
    let at = |build| {
        let t = ChatTemplates::init_with_build(&src, "<s>", "</s>", false, false, build).unwrap();
        let s = ServerChatParams::new(t, 1_768_472_430).unwrap();
        apply_template(&body, &s, 1_768_472_430).unwrap()
    };
    assert_eq!(
        at(changes::Build::B9888),
        "<s><|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n<|im_start|>user\npart one<|im_end|>\n<|im_start|>assistant\n<think>\n"
    );
    assert_eq!(
        at(changes::Build::B9840),
        "<s><|im_start|>user\n  Hi there \n<|im_end|>\n<|im_start|>assistant\n\nHello! <|im_end|>\n<|im_start|>user\n part one <|im_end|>\n<|im_start|>assistant\n<think>\n"
    );
}

/// `media_handle_unified` (between the published 9754 and 9760) and
/// `input_video_part` (between 9553 and 9563) where the recorded cases do
/// not reach them: a raw base64 image, an `input_audio` whose format is
/// neither wav nor mp3, and an `input_video` part, on Qwen3 with every
/// medium allowed, as 9672's and 9780's code reads them.
#[test]
fn media_parts_by_build() {
    let src = std::fs::read_to_string(testkit::llama_cpp("models/templates/Qwen-Qwen3-0.6B.jinja"))
        .unwrap();
    let at = |build, part: Json| {
        let t = ChatTemplates::init_with_build(&src, "", "", false, false, build).unwrap();
        let mut s = ServerChatParams::new(t, 1_768_472_430).unwrap();
        s.allow_image = true;
        s.allow_audio = true;
        s.allow_video = true;
        let body = serde_json::json!({"messages": [
            {"role": "user", "content": [part, {"type": "text", "text": "hi"}]},
        ]});
        apply_template(&body, &s, 1_768_472_430).map_err(|e| (e.status(), e.message))
    };
    let image = serde_json::json!({"type": "image_url", "image_url": {"url": "iVBORw0KGgo="}});
    assert!(at(changes::Build::B9781, image.clone()).is_ok());
    assert_eq!(
        at(changes::Build::B9672, image).unwrap_err(),
        (500, "Invalid url value".to_string())
    );
    let flac = serde_json::json!({"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "flac"}});
    assert!(at(changes::Build::B9781, flac.clone()).is_ok());
    assert_eq!(
        at(changes::Build::B9672, flac).unwrap_err(),
        (
            400,
            "input_audio.format must be either 'wav' or 'mp3'".to_string()
        )
    );
    let video = serde_json::json!({"type": "input_video", "input_video": {"data": "AAAA"}});
    assert!(at(changes::Build::B9626, video.clone()).is_ok());
    assert_eq!(
        at(changes::Build::B9509, video).unwrap_err(),
        (400, "unsupported content[].type".to_string())
    );
}
