//! Gemma 3 270M on the crate's own decoder graph against llama.cpp.
//!
//! `tests/golden/gemma3-270m-q8_0-greedy.jsonl`: ten prompts recorded from
//! llama.cpp (llama-cpp-python 0.3.36, CPU, one thread, f16 KV cache) by
//! `tools/gemma-goldens/record.py` on `gemma-3-270m-q8_0.gguf`, the Gemma
//! 3 270M Q4_K_M file with every matrix requantized to Q8_0 by llama.cpp's
//! `llama-quantize` (`tools/llama-cpp/gemma-q8_0.sh`). The last prompt (843
//! tokens) is longer than the 512-token sliding window of the local layers.
//!
//! The first step's logits are llama.cpp's bit for bit (all 262144 of each
//! prompt were compared when the golden was recorded; the golden keeps the
//! five largest), and all ten prompts' 32 greedy ids agree.
//!
//! That file is made from a llama.cpp build, which CI does not have: where
//! it is absent the tests say so on stderr and pass without checking.

use inference::sampler::argmax;
use inference::Model;
use serde_json::Value;
use std::path::PathBuf;
use tokenizer::Vocab;

const MODEL: &str = "gemma-3-270m-q8_0.gguf";

struct Case {
    prompt: String,
    prompt_ids: Vec<u32>,
    generated: Vec<u32>,
    top5: Vec<(usize, f32)>,
}

fn golden() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/gemma3-270m-q8_0-greedy.jsonl");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let ids = |k: &str| -> Vec<u32> {
                v[k].as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as u32)
                    .collect()
            };
            Case {
                prompt: v["prompt"].as_str().unwrap().to_string(),
                prompt_ids: ids("prompt_ids"),
                generated: ids("generated_ids"),
                top5: v["top5_first_step"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        (
                            p[0].as_u64().unwrap() as usize,
                            p[1].as_f64().unwrap() as f32,
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The model and its vocabulary, or `None` (said on stderr) without the file.
fn setup() -> Option<(Model, Vocab)> {
    let path = testkit::model_cache().join(MODEL);
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!(
            "skipped: {} is absent (make it with tools/llama-cpp/gemma-q8_0.sh, \
             which needs the llama.cpp build of tools/llama-cpp/build.sh)",
            path.display()
        );
        return None;
    };
    inference::threads::set_threads(1);
    let vocab = Vocab::from_gguf_bytes(&bytes).expect("Gemma vocab");
    let model = Model::from_vec(bytes).expect("Gemma 3 loads");
    assert_eq!(model.arch(), "gemma3");
    Some((model, vocab))
}

/// One ulp of f16 at `x`: the spacing of f16 values around `|x|`.
fn f16_ulp(x: f32) -> f32 {
    let e = x.abs().max(f32::MIN_POSITIVE).log2().floor().max(-14.0);
    (e - 10.0).exp2()
}

#[test]
fn gemma3_matches_llama_cpp() {
    let Some((mut model, vocab)) = setup() else {
        return;
    };
    let cases = golden();
    assert_eq!(cases.len(), 10);
    let mut worst_ulps = 0f32;
    let mut full = 0;
    for c in &cases {
        // the tokenizer gives llama.cpp's ids (add_special, parse_special)
        let ids = vocab.tokenize(&c.prompt, true, true).unwrap();
        assert_eq!(ids, c.prompt_ids, "prompt ids of {:?}", c.prompt);
        model.reset();
        let mut logits = model.forward(&c.prompt_ids).unwrap();
        // the first step's five largest logits, in f16 ulps of each
        let mut ulps = 0f32;
        for &(id, want) in &c.top5 {
            ulps = ulps.max((logits[id] - want).abs() / f16_ulp(want));
        }
        worst_ulps = worst_ulps.max(ulps);
        let mut same = 0;
        for (step, &want) in c.generated.iter().enumerate() {
            let got = argmax(&logits);
            if got != want {
                break;
            }
            same = step + 1;
            logits = model.forward(&[got]).unwrap();
        }
        eprintln!(
            "{same:>2}/{}  top-5 logits within {ulps:.3} f16 ulps  {:>4} prompt ids  {:?}",
            c.generated.len(),
            c.prompt_ids.len(),
            c.prompt.chars().take(40).collect::<String>()
        );
        full += (same == c.generated.len()) as usize;
    }
    eprintln!(
        "{full}/10 prompts agree on all 32 tokens; top-5 logits within {worst_ulps} f16 ulps"
    );
    // the same kernels and the same operation order: the same bits
    assert_eq!(
        worst_ulps, 0.0,
        "first-step logits {worst_ulps} f16 ulps from llama.cpp's"
    );
    assert!(
        full >= 9,
        "only {full}/10 prompts agree with llama.cpp on 32 tokens"
    );
}
