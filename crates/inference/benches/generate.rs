//! Prompt-evaluation and generation speed of SmolLM2-135M-Instruct Q4_1 on
//! one thread, against llama.cpp measured in the same run on the same
//! machine (llama-cpp-python, `n_threads=1`).
//!
//! `cargo bench -p promptscope-inference --bench generate`
//!
//! llama.cpp comes from `$PROMPTSCOPE_LLAMA_PYTHON` (a Python with
//! `llama_cpp`), else `~/.cache/promptscope/venv-llama/bin/python`; without
//! it only Promptscope's figures are printed.

use inference::sampler::argmax;
use inference::Model;
use std::process::Command;
use std::time::Instant;

const PROMPT: &str = "The history of the printing press begins in the fifteenth century, when \
Johannes Gutenberg combined movable metal type, oil-based ink and a wooden press adapted from \
those used for wine. Before that, books were copied by hand in monasteries and workshops, a slow \
and costly process that kept literacy rare. Within fifty years presses were running in more than \
two hundred cities across Europe, and the number of books in circulation grew from thousands to \
millions. Scholars";
const N_GEN: usize = 64;
const RUNS: usize = 3;

const LLAMA_SCRIPT: &str = r#"
import sys, time, llama_cpp
path, n_prompt, n_gen, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
llm = llama_cpp.Llama(path, n_ctx=1024, n_threads=1, n_threads_batch=1, n_batch=512, verbose=False)
ids = llm.tokenize(sys.stdin.read().encode(), add_bos=True, special=True)
assert len(ids) == n_prompt, (len(ids), n_prompt)
best_p = best_g = 1e9
for _ in range(runs):
    llm.reset()
    t = time.perf_counter(); llm.eval(ids); best_p = min(best_p, time.perf_counter() - t)
    t = time.perf_counter()
    for _ in range(n_gen):
        llm.eval([0])
    best_g = min(best_g, time.perf_counter() - t)
print(len(ids) / best_p, n_gen / best_g)
"#;

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
    let Some(path) = testkit::smollm2("the generation benchmark") else {
        return;
    };
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
