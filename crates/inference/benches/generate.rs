//! Prompt-evaluation and generation speed of SmolLM2-135M-Instruct Q4_1 on
//! one thread, against llama.cpp measured in the same run on the same
//! machine (llama-cpp-python, `n_threads=1`).
//!
//! `cargo bench -p promptscope-inference --bench generate`; the same
//! measurement in the browser (wasm, against wllama) is
//! `tests/bench/generate-wasm.mjs`.
//!
//! llama.cpp comes from `$PROMPTSCOPE_LLAMA_PYTHON` (a Python with
//! `llama_cpp`), else `~/.cache/promptscope/venv-llama/bin/python`; without
//! it only Promptscope's figures are printed.

use inference::sampler::argmax;
use inference::Model;
use std::process::Command;
use std::time::Instant;

/// The prompt, shared with the browser benchmark.
const PROMPT: &str = include_str!("prompt.txt");
const N_GEN: usize = 64;
const RUNS: usize = 3;

/// llama.cpp's side, shared with the browser benchmark.
const LLAMA_SCRIPT: &str = include_str!("llama_cpp_speed.py");

fn llama_cpp(path: &str, n_prompt: usize) -> Option<(f64, f64)> {
    let python = std::env::var("PROMPTSCOPE_LLAMA_PYTHON").unwrap_or_else(|_| {
        let home = std::env::var("HOME").unwrap_or_default();
        format!("{home}/.cache/promptscope/venv-llama/bin/python")
    });
    let mut child = Command::new(&python)
        .args([
            "-c",
            LLAMA_SCRIPT,
            path,
            &n_prompt.to_string(),
            &N_GEN.to_string(),
            &RUNS.to_string(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    use std::io::Write;
    child.stdin.take()?.write_all(PROMPT.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    let mut it = s.split_whitespace().map(|x| x.parse::<f64>().ok());
    Some((it.next()??, it.next()??))
}

fn main() {
    let path = testkit::smollm2();
    inference::threads::set_threads(1);
    let bytes = std::fs::read(&path).unwrap();
    let vocab = tokenizer::Vocab::from_gguf_bytes(&bytes).unwrap();
    let ids = vocab.tokenize(PROMPT, true, true).unwrap();
    let t = Instant::now();
    let mut model = Model::from_bytes(&bytes).unwrap();
    let load = t.elapsed();
    let (mut best_p, mut best_g) = (f64::MAX, f64::MAX);
    for _ in 0..RUNS {
        model.reset();
        let t = Instant::now();
        let mut logits = model.forward(&ids).unwrap();
        best_p = best_p.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for _ in 0..N_GEN {
            let id = argmax(&logits);
            logits = model.forward(&[id]).unwrap();
        }
        best_g = best_g.min(t.elapsed().as_secs_f64());
    }
    let (pp, tg) = (ids.len() as f64 / best_p, N_GEN as f64 / best_g);
    println!("SmolLM2-135M-Instruct Q4_1, one thread, best of {RUNS}; load {load:.2?}");
    println!("  promptscope   prompt eval {pp:8.1} tok/s ({} tokens)   generation {tg:6.1} tok/s ({N_GEN} tokens)", ids.len());
    match llama_cpp(path.to_str().unwrap(), ids.len()) {
        Some((lp, lg)) => {
            println!("  llama.cpp     prompt eval {lp:8.1} tok/s               generation {lg:6.1} tok/s");
            println!(
                "  ratio         prompt eval {:8.2}x                    generation {:6.2}x",
                pp / lp,
                tg / lg
            );
        }
        None => println!(
            "  llama.cpp: not available (set PROMPTSCOPE_LLAMA_PYTHON to a Python with llama_cpp)"
        ),
    }
}
