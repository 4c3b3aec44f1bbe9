//! The whole `promptscope generate` path against llama.cpp's whole
//! completion path, on one thread, measured in the same run.
//!
//! `cargo bench -p promptscope-cli --bench generate [-- NAME...]` (NAME: a
//! part of a model file name, to run only those models). `cargo test -p
//! promptscope-cli --bench generate` runs the same in the test profile
//! (quicker to build; the inference crate is optimized there
//! too, the CLI's own crates are not).
//!
//! For each model of the model cache that is there (SmolLM2-135M-Instruct
//! Q4_1 and Gemma 3 270M Q4_K_M from `scripts/fetch-models.sh`; SmolLM2
//! Q4_K_M and Q8_0 from `tools/llama-cpp/quantize.sh`; a missing one is
//! skipped, saying so), each side runs [`RUNS`] times, the two sides in
//! turn, each run a child
//! process that loads the model and generates once:
//!
//! - Promptscope: `promptscope generate --gguf FILE` on a streamed
//!   `/api/generate` case (`raw`, the prompt of
//!   `crates/inference/benches/prompt.txt`, `temperature` 0,
//!   `repeat_penalty` 1, a stop string that never matches, `num_predict`
//!   [`N_GEN`], `num_ctx` [`N_CTX`], `num_thread` 1): tokenization,
//!   sampling, stop strings, the response chunks written as NDJSON. Its
//!   figures are Ollama's, from the final chunk: `load_duration`,
//!   `prompt_eval_count / prompt_eval_duration` (the prompt's forward
//!   passes) and `eval_count / eval_duration` (per token: sampling,
//!   detokenization, stop strings, the next forward pass).
//! - llama.cpp: `crates/inference/benches/llama_cpp_completion.py` with
//!   llama-cpp-python (`$PROMPTSCOPE_LLAMA_PYTHON`, else
//!   `~/.cache/promptscope/venv-llama/bin/python`; without it only
//!   Promptscope's figures are printed): the `Llama()` constructor's time,
//!   llama.cpp's own prompt-eval time (the same span as Ollama's
//!   `prompt_eval_duration`), and the streamed `create_completion`'s wall
//!   time from the first token to the last over the tokens after the first
//!   (sampling, detokenization, stop strings and chunks included).
//!
//! Peak RSS of each child: the largest `VmHWM` of `/proc/PID/status`, read
//! every few milliseconds while it runs (the high-water mark only grows and
//! the peak comes well before the process ends). llama.cpp's includes the
//! Python interpreter (about 20 MB; the script's own `getrusage` figure is
//! printed too).
//!
//! Each figure is the best of the runs (highest tokens/s, shortest load) and
//! the largest peak RSS. The targets of issue #19 are printed beside the
//! ratios (ours / llama.cpp): tokens/s at least 0.9x, load at most 1.5x,
//! peak RSS at most 1.3 x (file size + llama.cpp's F16 KV cache at
//! [`N_CTX`]). On a busy machine the figures are noisy: compare the ratios
//! of one run, and run it on an idle machine for numbers to quote.

use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The prompt, shared with the inference crate's benchmarks.
const PROMPT: &str = include_str!("../../inference/benches/prompt.txt");
/// llama.cpp's side.
const LLAMA_SCRIPT: &str = include_str!("../../inference/benches/llama_cpp_completion.py");
const N_GEN: usize = 64;
const N_CTX: usize = 2048;
const RUNS: usize = 5;
/// A stop string for both sides to watch for; it never comes.
const STOP: &str = "@@ promptscope bench: never generated @@";

const MODELS: &[&str] = &[
    "SmolLM2-135M-Instruct.Q4_1.gguf",
    "SmolLM2-135M-Instruct.Q4_K_M.gguf",
    "SmolLM2-135M-Instruct.Q8_0.gguf",
    "gemma-3-270m-q4_k_m.gguf",
];

/// One run's figures.
#[derive(Clone, Debug, Default)]
struct Run {
    load_s: f64,
    prompt_tokens: u64,
    prompt_tps: f64,
    eval_tokens: u64,
    gen_tps: f64,
    rss_kib: u64,
    text: String,
}

/// Runs `cmd` with `stdin`, sampling the child's `VmHWM` while it runs;
/// returns (exit success, stdout, stderr, peak RSS in KiB).
fn run_child(mut cmd: Command, stdin: &str) -> Result<(bool, String, String, u64), String> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let peak = Arc::new(AtomicU64::new(0));
    let poller = {
        let (done, peak) = (done.clone(), peak.clone());
        std::thread::spawn(move || {
            let status = format!("/proc/{pid}/status");
            while !done.load(Ordering::Relaxed) {
                if let Ok(s) = std::fs::read_to_string(&status) {
                    if let Some(kib) = s
                        .lines()
                        .find_map(|l| l.strip_prefix("VmHWM:"))
                        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                    {
                        peak.fetch_max(kib, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let mut pipe = child.stdin.take().ok_or("no stdin pipe")?;
    let input = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output();
    done.store(true, Ordering::Relaxed);
    let _ = writer.join();
    let _ = poller.join();
    let out = out.map_err(|e| format!("waiting for the child: {e}"))?;
    Ok((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        peak.load(Ordering::Relaxed),
    ))
}

fn ours(path: &Path) -> Result<Run, String> {
    let case = json!({
        "endpoint": "generate",
        "model": {"name": "bench"},
        "request": {
            "model": "bench",
            "prompt": PROMPT,
            "raw": true,
            "options": {
                "temperature": 0,
                "repeat_penalty": 1.0,
                "num_predict": N_GEN,
                "num_ctx": N_CTX,
                "num_thread": 1,
                "stop": [STOP],
            },
        },
    });
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_promptscope"));
    cmd.args(["generate", "--gguf"]).arg(path);
    let (ok, out, err, rss_kib) = run_child(cmd, &case.to_string())?;
    let lines: Vec<Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if let Some(e) = lines.iter().find_map(|l| l.get("error")) {
        return Err(format!("promptscope: {e}"));
    }
    let last = lines
        .last()
        .filter(|l| l["done"] == true)
        .ok_or_else(|| format!("promptscope exited ({ok}) with no final chunk: {err}"))?;
    let n = |k: &str| {
        last[k]
            .as_u64()
            .ok_or_else(|| format!("the final chunk has no {k}: {last}"))
    };
    let text = lines
        .iter()
        .filter_map(|l| l["response"].as_str())
        .collect();
    let (pc, pd, ec, ed) = (
        n("prompt_eval_count")?,
        n("prompt_eval_duration")?,
        n("eval_count")?,
        n("eval_duration")?,
    );
    Ok(Run {
        load_s: n("load_duration")? as f64 / 1e9,
        prompt_tokens: pc,
        prompt_tps: pc as f64 / (pd as f64 / 1e9),
        eval_tokens: ec,
        gen_tps: ec as f64 / (ed as f64 / 1e9),
        rss_kib,
        text,
    })
}

fn llama_python() -> Option<String> {
    let python = std::env::var("PROMPTSCOPE_LLAMA_PYTHON").unwrap_or_else(|_| {
        let home = std::env::var("HOME").unwrap_or_default();
        format!("{home}/.cache/promptscope/venv-llama/bin/python")
    });
    let ok = Command::new(&python)
        .args(["-c", "import llama_cpp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(python)
}

/// llama.cpp's run; also the script's own getrusage peak.
fn llama_cpp(python: &str, path: &Path) -> Result<(Run, u64), String> {
    let mut cmd = Command::new(python);
    cmd.args(["-c", LLAMA_SCRIPT]).arg(path).args([
        N_GEN.to_string(),
        N_CTX.to_string(),
        STOP.to_string(),
    ]);
    let (ok, out, err, rss_kib) = run_child(cmd, PROMPT)?;
    let v: Value = serde_json::from_str(out.trim()).map_err(|e| {
        format!(
            "llama.cpp's script (exit ok: {ok}) printed no result ({e}): {}",
            err.trim()
        )
    })?;
    let f = |k: &str| {
        v[k].as_f64()
            .ok_or_else(|| format!("llama.cpp's script gave no {k}: {v}"))
    };
    let eval_tokens = f("eval_tokens")? as u64;
    Ok((
        Run {
            load_s: f("load_s")?,
            prompt_tokens: f("prompt_tokens")? as u64,
            prompt_tps: f("prompt_tokens")? / f("prompt_eval_s")?,
            eval_tokens,
            // the tokens after the first, over the time after the first
            gen_tps: eval_tokens.saturating_sub(1) as f64 / f("gen_s")?,
            rss_kib,
            text: v["text"].as_str().unwrap_or_default().to_string(),
        },
        f("maxrss_kib")? as u64,
    ))
}

/// The best of the runs: highest speeds, shortest load, largest RSS.
fn best(runs: &[Run]) -> Run {
    let mut b = runs[0].clone();
    for r in &runs[1..] {
        b.load_s = b.load_s.min(r.load_s);
        b.prompt_tps = b.prompt_tps.max(r.prompt_tps);
        b.gen_tps = b.gen_tps.max(r.gen_tps);
        b.rss_kib = b.rss_kib.max(r.rss_kib);
    }
    b
}

/// llama.cpp's F16 KV cache at `N_CTX` (`gguf_meta`'s estimate: every
/// layer's keys and values, sliding-window layers at full size, as this
/// llama.cpp allocates them for Gemma 3).
fn kv_cache_bytes(path: &Path) -> Option<u64> {
    let f = std::fs::File::open(path).ok()?;
    let g = gguf_meta::parse(gguf_meta::SeekSource::new(f)).ok()?;
    let e = g.estimate_memory(N_CTX as u64);
    e.has_attention.then(|| e.kv_cache())
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "MISSES"
    }
}

fn bench(path: &Path, python: Option<&str>) {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    println!(
        "\n{name} ({:.1} MiB), one thread, {RUNS} runs each (child processes), best of them",
        size as f64 / 1048576.0
    );
    // the two sides alternate, run after run, so that a slow spell of a
    // shared machine falls on both
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    let mut self_rss = 0;
    let (mut ours_ok, mut theirs_ok) = (true, python.is_some());
    for _ in 0..RUNS {
        if ours_ok {
            match ours(path) {
                Ok(r) => mine.push(r),
                Err(e) => {
                    println!("  promptscope   cannot run it: {e}");
                    ours_ok = false;
                }
            }
        }
        if let (true, Some(python)) = (theirs_ok, python) {
            match llama_cpp(python, path) {
                Ok((r, own)) => {
                    self_rss = self_rss.max(own);
                    theirs.push(r);
                }
                Err(e) => {
                    println!("  llama.cpp     cannot run it: {e}");
                    theirs_ok = false;
                }
            }
        }
    }
    let line = |who: &str, r: &Run| {
        println!(
            "  {who:<12}  load {:6.3} s   prompt eval {:7.1} tok/s ({} tokens)   generation {:6.1} tok/s ({} tokens)   peak RSS {:6.1} MiB",
            r.load_s, r.prompt_tps, r.prompt_tokens, r.gen_tps, r.eval_tokens, mib(r.rss_kib)
        );
    };
    let ours = (!mine.is_empty()).then(|| best(&mine));
    let llama = (!theirs.is_empty()).then(|| best(&theirs));
    if let Some(o) = &ours {
        line("promptscope", o);
    }
    if let Some(l) = &llama {
        line("llama.cpp", l);
        println!(
            "                (llama.cpp's own getrusage peak: {:.1} MiB, the Python interpreter included)",
            mib(self_rss)
        );
    } else if python.is_none() {
        println!(
            "  llama.cpp     not available (set PROMPTSCOPE_LLAMA_PYTHON to a Python with llama_cpp)"
        );
    }
    if let (Some(o), Some(l)) = (&ours, &llama) {
        if o.prompt_tokens != l.prompt_tokens || o.eval_tokens != l.eval_tokens {
            println!(
                "  NOTE: the counts differ (prompt {} vs {}, generated {} vs {})",
                o.prompt_tokens, l.prompt_tokens, o.eval_tokens, l.eval_tokens
            );
        }
        println!(
            "  same text as llama.cpp: {}",
            if o.text == l.text { "yes" } else { "no" }
        );
        let (p, g, ld) = (
            o.prompt_tps / l.prompt_tps,
            o.gen_tps / l.gen_tps,
            o.load_s / l.load_s,
        );
        println!(
            "  ratio         load {ld:6.2}x (target <= 1.5x: {})   prompt eval {p:5.2}x (>= 0.9x: {})   generation {g:5.2}x (>= 0.9x: {})",
            verdict(ld <= 1.5),
            verdict(p >= 0.9),
            verdict(g >= 0.9)
        );
    }
    if let Some(o) = &ours {
        match kv_cache_bytes(path) {
            Some(kv) => {
                let bound = 1.3 * (size + kv) as f64 / 1024.0;
                println!(
                    "  peak RSS      {:.1} MiB; target <= 1.3 x (file {:.1} MiB + F16 KV cache at {N_CTX} {:.1} MiB) = {:.1} MiB: {}",
                    mib(o.rss_kib),
                    size as f64 / 1048576.0,
                    kv as f64 / 1048576.0,
                    bound / 1024.0,
                    verdict(o.rss_kib as f64 <= bound)
                );
            }
            None => println!("  peak RSS      no KV cache size from the GGUF's metadata"),
        }
    }
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let python = llama_python();
    let cache = testkit::model_cache();
    println!(
        "promptscope generate vs llama-cpp-python, prompt {} bytes, {N_GEN} tokens generated, num_ctx {N_CTX}",
        PROMPT.len()
    );
    for m in MODELS {
        if !filters.is_empty() && !filters.iter().any(|f| m.contains(f.as_str())) {
            continue;
        }
        let path: PathBuf = cache.join(m);
        if !path.exists() {
            println!(
                "\n{m}: not in {}, skipped (scripts/fetch-models.sh, tools/llama-cpp/quantize.sh)",
                cache.display()
            );
            continue;
        }
        bench(&path, python.as_deref());
    }
}
