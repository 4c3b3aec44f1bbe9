//! Cases recorded from llama.cpp's C++ engine itself (linked from
//! `libllama-common.so` by `tools/jinja-diff`), at each supported build
//! (`NAME.jsonl` from b11312, `NAME-b10488.jsonl` from b10488; a file the
//! two builds recorded byte for byte the same is kept once and checked at
//! both): renders of every `models/templates` file over five conversations,
//! `caps_get` of each, generated expression/statement templates, and the
//! constructs where the builds part (`build-diffs`: each row of
//! `changes::llamacpp` exercised, and each build's test-jinja cases run on
//! the other engine). `got`, `error` or `skip` (the C++
//! `not_implemented_exception`) is what the C++ produced; `"crash":
//! "timeout"` is a render the recorder stopped because that build never
//! returns from it (`jinja_split_replace_empty`), which the engine answers
//! with `ErrorKind::NeverReturns`.

use std::path::Path;
use std::rc::Rc;

use changes::Build;

/// A golden's file name at a build.
fn at(name: &str, build: Build) -> String {
    if build == Build::B11312 {
        format!("{name}.jsonl")
    } else {
        format!("{name}-{build}.jsonl")
    }
}

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
        // a call the build never returns from: the recorder killed the C++
        // after its timeout (`{"crash": "timeout"}`)
        Err(e) if e.kind() == jinja::ErrorKind::NeverReturns => {
            serde_json::json!({"crash": "timeout"})
        }
        Err(e) => serde_json::json!({"error": e.message()}),
    }
}

fn expected(row: &serde_json::Value) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for k in ["got", "error", "skip", "caps", "runs", "crash"] {
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

fn parse(tmpl: &str, build: Build) -> jinja::Result<jinja::ast::Program> {
    let tokens = jinja::Lexer::new().tokenize(tmpl)?;
    jinja::parse_from_tokens_with(&tokens, &changes::Rules::new(build))
}

fn run(
    program: &jinja::ast::Program,
    tmpl: &str,
    vars: &serde_json::Value,
    build: Build,
) -> jinja::Result<String> {
    let mut ctx = jinja::Context::with_rules(tmpl, Rc::new(changes::Rules::new(build)));
    ctx.current_time = RECORDED_AT;
    jinja::global_from_json(&mut ctx, vars, true)?;
    let results = jinja::Runtime::new(&ctx).execute(program)?;
    Ok(jinja::gather_string_parts(&results)?.str())
}

fn render(tmpl: &str, vars: &serde_json::Value, build: Build) -> serde_json::Value {
    let out = parse(tmpl, build).and_then(|p| run(&p, tmpl, vars, build));
    outcome(out.map(serde_json::Value::String), "got")
}

fn caps(tmpl: &str, build: Build) -> serde_json::Value {
    outcome(
        parse(tmpl, build)
            .and_then(|p| jinja::caps_get_with(&p, &Rc::new(changes::Rules::new(build))))
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

/// Checks a golden at every supported build (its own file where the
/// builds recorded it apart, else the one file).
fn check(name: &str, f: impl Fn(&serde_json::Value, Build) -> (String, serde_json::Value)) {
    check_at(name, Build::SUPPORTED, f)
}

/// [`check`] at `builds`.
fn check_at(
    name: &str,
    builds: &[Build],
    f: impl Fn(&serde_json::Value, Build) -> (String, serde_json::Value),
) {
    let mut bad = Vec::new();
    for &build in builds {
        let file = at(name, build);
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(&file);
        let shared = at(name, Build::B11312);
        let rows = rows(if path.exists() { &file } else { &shared });
        let before = bad.len();
        for row in &rows {
            let (label, ours) = f(row, build);
            let want = expected(row);
            if ours != want {
                bad.push(format!("{build} {label}\n  want: {want}\n  ours: {ours}"));
            }
        }
        eprintln!(
            "{file} ({build}): {} / {} equal",
            rows.len() - (bad.len() - before),
            rows.len()
        );
    }
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn model_template_renders() {
    check("model-templates", |r, b| {
        let file = r["file"].as_str().unwrap();
        (
            file.to_string(),
            render(&template_file(file), &r["vars"], b),
        )
    });
}

#[test]
fn model_template_caps() {
    check("model-caps", |r, b| {
        let file = r["file"].as_str().unwrap();
        (file.to_string(), caps(&template_file(file), b))
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
    check("generated", |r, b| {
        let t = r["template"].as_str().unwrap();
        (format!("{t:?}"), render(t, &vars, b))
    });
}

#[test]
fn generated_caps() {
    check("generated-caps", |r, b| {
        let t = r["template"].as_str().unwrap();
        (format!("{t:?}"), caps(t, b))
    });
}

#[test]
fn generated_debug_dump_program() {
    // the builds up to the published 9830 have no
    // runtime::debug_dump_program (it came between 9830 and 9837): nothing
    // was recorded there to compare with
    let builds: Vec<Build> = Build::SUPPORTED
        .iter()
        .copied()
        .filter(|b| b.0 > 9830)
        .collect();
    check_at("generated-dump", &builds, |r, b| {
        let t = r["template"].as_str().unwrap();
        let ours = outcome(
            parse(t, b)
                .map(|p| serde_json::Value::String(jinja::Runtime::debug_dump_program(&p, t))),
            "got",
        );
        (format!("{t:?}"), ours)
    });
}

/// The constructs where b10488 and b11312 part, one group of rows per row
/// of `changes::llamacpp` (`<switch>/<label>`), and each build's own
/// test-jinja cases run on the other build's engine: renders, capability
/// probes (`"mode": "caps"`) and repeated renders of one parsed template
/// (`runs_vars`). The three rows b10488 recorded with a heap address in
/// their error text (`"unstable"`: a `{% filter %}` block whose filter
/// fails, COMPATIBILITY.md) are left out.
#[test]
fn where_the_builds_part() {
    check("build-diffs", |r, b| {
        let name = r["name"].as_str().unwrap_or("").to_string();
        let t = r["template"].as_str().unwrap();
        if r.get("unstable").and_then(|u| u.as_bool()) == Some(true) {
            return (name, expected(r));
        }
        if r["mode"] == "caps" {
            return (name, caps(t, b));
        }
        if let Some(runs) = r["runs_vars"].as_array() {
            let program = parse(t, b);
            let outs: Vec<serde_json::Value> = runs
                .iter()
                .map(|v| match &program {
                    Ok(p) => outcome(run(p, t, v, b).map(serde_json::Value::String), "got"),
                    Err(e) => outcome(Err(e.clone()), "got"),
                })
                .collect();
            return (name, serde_json::json!({ "runs": outs }));
        }
        (name, render(t, &r["vars"], b))
    });
}
