//! Cases recorded from llama.cpp's C++ engine itself (linked from
//! `libllama-common.so` by `tools/jinja-diff`): renders of every
//! `models/templates` file over five conversations, `caps_get` of each, and
//! generated expression/statement templates. `got`, `error` or `skip` (the
//! C++ `not_implemented_exception`) is what the C++ produced.

use std::path::Path;

fn rows(name: &str) -> Vec<serde_json::Value> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn template_file(name: &str) -> String {
    std::fs::read_to_string(testkit::llama_cpp(&format!("models/templates/{name}"))).unwrap()
}

fn outcome(res: jinja::Result<serde_json::Value>, key: &str) -> serde_json::Value {
    match res {
        Ok(v) => serde_json::json!({ key: v }),
        Err(e) if e.kind() == jinja::ErrorKind::NotImplemented => {
            serde_json::json!({"skip": e.message()})
        }
        Err(e) => serde_json::json!({"error": e.message()}),
    }
}

fn expected(row: &serde_json::Value) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for k in ["got", "error", "skip", "caps"] {
        if let Some(v) = row.get(k) {
            m.insert(k.into(), v.clone());
        }
    }
    serde_json::Value::Object(m)
}

/// The moment the renders were recorded at (2026-12-01 12:00 UTC; the
/// driver pins `ctx.current_time` to it): templates that print today's date
/// (`strftime_now`) give the recorded text on any day.
const RECORDED_AT: i64 = 1_796_126_400;

fn render(tmpl: &str, vars: &serde_json::Value) -> serde_json::Value {
    let run = || -> jinja::Result<String> {
        let program = jinja::parse(tmpl)?;
        let mut ctx = jinja::Context::new(tmpl);
        ctx.current_time = RECORDED_AT;
        jinja::global_from_json(&mut ctx, vars, true)?;
        let results = jinja::Runtime::new(&ctx).execute(&program)?;
        Ok(jinja::gather_string_parts(&results)?.str())
    };
    outcome(run().map(serde_json::Value::String), "got")
}

fn caps(tmpl: &str) -> serde_json::Value {
    outcome(
        jinja::parse(tmpl)
            .and_then(|p| jinja::caps_get(&p))
            .map(|c| {
                serde_json::Value::Object(
                    c.to_map()
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v.into()))
                        .collect(),
                )
            }),
        "caps",
    )
}

fn check(name: &str, f: impl Fn(&serde_json::Value) -> (String, serde_json::Value)) {
    let rows = rows(name);
    let mut bad = Vec::new();
    for row in &rows {
        let (label, ours) = f(row);
        let want = expected(row);
        if ours != want {
            bad.push(format!("{label}\n  want: {want}\n  ours: {ours}"));
        }
    }
    eprintln!("{name}: {} / {} equal", rows.len() - bad.len(), rows.len());
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn model_template_renders() {
    check("model-templates.jsonl", |r| {
        let file = r["file"].as_str().unwrap();
        (file.to_string(), render(&template_file(file), &r["vars"]))
    });
}

#[test]
fn model_template_caps() {
    check("model-caps.jsonl", |r| {
        let file = r["file"].as_str().unwrap();
        (file.to_string(), caps(&template_file(file)))
    });
}

#[test]
fn generated_renders() {
    let vars: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/generated-vars.json"),
        )
        .unwrap(),
    )
    .unwrap();
    check("generated.jsonl", |r| {
        let t = r["template"].as_str().unwrap();
        (format!("{t:?}"), render(t, &vars))
    });
}

#[test]
fn generated_caps() {
    check("generated-caps.jsonl", |r| {
        let t = r["template"].as_str().unwrap();
        (format!("{t:?}"), caps(t))
    });
}

#[test]
fn generated_debug_dump_program() {
    check("generated-dump.jsonl", |r| {
        let t = r["template"].as_str().unwrap();
        let ours = outcome(
            jinja::parse(t)
                .map(|p| serde_json::Value::String(jinja::Runtime::debug_dump_program(&p, t))),
            "got",
        );
        (format!("{t:?}"), ours)
    });
}
