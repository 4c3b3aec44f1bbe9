//! llama.cpp's tests/test-chat-template.cpp, its jinja paths as a table
//! (tools/chat-template-tables): the automated cases (a template inline,
//! a conversation, upstream's expected text) and `run_single` over every
//! file of models/templates with and without tools, through
//! `common_chat_templates_init` + `common_chat_templates_apply` with the
//! test's inputs (no server rules). Every prompt equal, at each build: the
//! table recorded at b10488 is byte for byte the one recorded at b11312, so
//! the one file is checked at both.

use std::path::PathBuf;

use llamachat::msg::{msgs_parse_oaicompat, tools_parse_oaicompat};
use llamachat::{apply, ChatTemplates, Inputs};
use serde_json::Value as Json;

#[test]
fn test_chat_template_table() {
    for &build in changes::Build::SUPPORTED {
        check(build);
    }
}

fn check(build: changes::Build) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let text = std::fs::read_to_string(dir.join("test-chat-template.jsonl")).unwrap();
    // the build's own tree (its README, to fail when it was not fetched)
    let own_templates = testkit::llama_cpp_at(
        &testkit::models_tree(&build.to_string()),
        "models/templates",
    )
    .to_path_buf();
    let mut total = 0;
    let mut absent = 0;
    let mut bad = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Json = serde_json::from_str(line).unwrap();
        // test-chat.cpp runs on its own build's templates: a template added
        // after this build (Hy3 at b9993, MiniCPM5 at b9837) was no test of it
        if row["source"] == "run_single"
            && !own_templates
                .join(row["template"].as_str().unwrap())
                .exists()
        {
            absent += 1;
            continue;
        }
        total += 1;
        let src = match row["source"].as_str() {
            Some("run_single") => std::fs::read_to_string(testkit::llama_cpp(&format!(
                "models/templates/{}",
                row["template"].as_str().unwrap()
            )))
            .unwrap(),
            _ => row["template"].as_str().unwrap().to_string(),
        };
        let got = (|| {
            let tmpls = ChatTemplates::init_with_build(
                &src,
                row["bos_token"].as_str().unwrap_or(""),
                row["eos_token"].as_str().unwrap_or(""),
                false,
                false,
                build,
            )?;
            let inputs = Inputs {
                messages: msgs_parse_oaicompat(&row["messages"])?,
                tools: tools_parse_oaicompat(&row["tools"])?,
                now: 1_768_472_430,
                ..Inputs::default()
            };
            apply(&tmpls, &inputs).map(|p| p.prompt)
        })()
        .map_err(|e| e.message);
        let want = match &row["prompt"] {
            Json::String(p) => Ok(p.clone()),
            _ => Err(row["error"].as_str().unwrap_or("").to_string()),
        };
        if got != want {
            bad.push(format!(
                "{} / {}\n  got:  {got:?}\n  want: {want:?}",
                row["source"], row["case"]
            ));
        }
    }
    eprintln!(
        "test-chat-template ({build}): {} of {total} equal ({absent} rows of templates its tree lacks)",
        total - bad.len()
    );
    assert!(bad.is_empty(), "{} differ:\n{}", bad.len(), bad.join("\n"));
}
