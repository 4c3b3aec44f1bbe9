//! The decoder graph's switches for architectures with no small checkpoint
//! at hand, on tiny random models: `tests/golden/<arch>-synthetic.gguf`, 4
//! layers 64 wide with random Q8_0 weights, and llama.cpp's logits on them,
//! both made by `tools/gemma-goldens/synthetic.py` (llama-cpp-python 0.3.36
//! on the reference build, one thread, f16 KV cache).
//!
//! - `gemma`, `gemma2`: GeGLU, the embedding scale, post norms; Gemma 2's
//!   local layers have an 8-position window and their own rotary base, so
//!   the 25-token prompt and the 8 steps after it cross the window; its
//!   attention and output logits are soft-capped.
//! - `phi3`: fused QKV (with a bias) and fused gate/up matrices, NEOX RoPE
//!   with long and short rope factors and `rope.scaling.attn_factor`,
//!   queries scaled before `K·Q`, and an 8-position sliding window that
//!   llama.cpp ignores. Two runs: n_ctx 512, past the 256-token original
//!   context (the long factors), and n_ctx 200, which llama.cpp pads to 256
//!   (the short ones).
//!
//! Every logit must be llama.cpp's bit for bit.

use inference::sampler::argmax;
use inference::Model;
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// One recorded run: the prompt, 8 greedy steps, logits before and after.
fn check_run(model: &mut Model, tag: &str, run: &Value) {
    let list = |k: &str| -> Vec<u32> {
        run[k]
            .as_array()
            .unwrap_or_else(|| panic!("{tag}: no {k}"))
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect()
    };
    let check = |what: &str, got: &[f32], want: &[u32]| {
        assert_eq!(got.len(), want.len(), "{tag} {what}: vocabulary size");
        let differ = got
            .iter()
            .zip(want)
            .filter(|(g, &w)| g.to_bits() != w)
            .count();
        assert_eq!(differ, 0, "{tag} {what}: {differ} logits differ");
    };
    if let Some(n_ctx) = run["n_ctx"].as_u64() {
        model.set_n_ctx(n_ctx as usize);
    }
    model.reset();
    let mut logits = model.forward(&list("prompt_ids")).unwrap();
    check("prompt", &logits, &list("first_logits_bits"));
    for (step, &want) in list("generated_ids").iter().enumerate() {
        let got = argmax(&logits);
        assert_eq!(got, want, "{tag}: greedy step {step}");
        logits = model.forward(&[got]).unwrap();
    }
    check("after 8 steps", &logits, &list("last_logits_bits"));
}

fn load(arch: &str) -> (Model, Value) {
    inference::threads::set_threads(1);
    let bytes = std::fs::read(dir().join(format!("{arch}-synthetic.gguf"))).unwrap();
    let model = Model::from_vec(bytes).unwrap();
    assert_eq!(model.arch(), arch);
    let text = std::fs::read_to_string(dir().join(format!("{arch}-synthetic.json"))).unwrap();
    (model, serde_json::from_str(&text).unwrap())
}

#[test]
fn gemma_and_gemma2_match_llama_cpp_bit_for_bit() {
    for arch in ["gemma", "gemma2"] {
        let (mut model, run) = load(arch);
        check_run(&mut model, arch, &run);
    }
}

#[test]
fn phi3_matches_llama_cpp_bit_for_bit_with_long_and_short_rope_factors() {
    let (mut model, v) = load("phi3");
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    // the same model, long factors then short, then long again: the
    // tables follow the context each time
    for run in [&runs[0], &runs[1], &runs[0]] {
        let tag = format!("phi3 n_ctx {}", run["n_ctx"]);
        check_run(&mut model, &tag, run);
    }
}

/// The phi3 file has only the fused matrices, so the runs above go through
/// the split (no separate Q/K/V or gate to fall back on).
#[test]
fn the_phi3_file_has_fused_matrices_only() {
    let bytes = std::fs::read(dir().join("phi3-synthetic.gguf")).unwrap();
    let file = gguf_meta::parse(bytes.as_slice()).unwrap();
    for il in 0..4 {
        let shape = |name: &str| {
            file.tensor(&format!("blk.{il}.{name}"))
                .map(|t| t.shape.clone())
        };
        assert_eq!(
            shape("attn_qkv.weight"),
            Some(vec![64, 128]),
            "Q 64 + K 32 + V 32"
        );
        assert_eq!(shape("attn_qkv.bias"), Some(vec![128]));
        assert_eq!(
            shape("ffn_up.weight"),
            Some(vec![64, 256]),
            "gate 128 + up 128"
        );
        for absent in [
            "attn_q.weight",
            "attn_k.weight",
            "attn_v.weight",
            "ffn_gate.weight",
        ] {
            assert_eq!(shape(absent), None, "{absent}");
        }
    }
}
