//! Speed: loading each corpus vocabulary, and tokenizing a 4 KB prompt
//! (should take well under 10 ms natively; measured in release builds).

mod common;

use std::time::Instant;

fn prompt_4k() -> String {
    let para = "<|im_start|>user\nThe quick brown fox jumps over the lazy dog. It's 2024-05-17, \
                and 3.14159 × 42 = 131.946…  Ünïcödé, 日本語のテキスト, emoji 👍🏽!\n\
                fn main() {\n    println!(\"{}\", 1 + 2);\n}\n<|im_end|>\n";
    let mut s = String::new();
    while s.len() < 4096 {
        s.push_str(para);
    }
    s
}

#[test]
fn tokenize_4k_prompt_speed() {
    let prompt = prompt_4k();
    for (name, _) in common::cases_by_vocab() {
        let t0 = Instant::now();
        let vocab = common::load_corpus_vocab(&name);
        let load = t0.elapsed();
        // warm up, then take the best of several runs
        let n = vocab.prompt_eval_count(&prompt).unwrap();
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            let m = vocab.prompt_eval_count(&prompt).unwrap();
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
            assert_eq!(m, n);
        }
        println!(
            "{name:>16}: load {:>7.1} ms, 4 KB prompt ({} bytes) -> {n} tokens in {best:.3} ms",
            load.as_secs_f64() * 1e3,
            prompt.len()
        );
        if !cfg!(debug_assertions) {
            assert!(best < 10.0, "{name}: {best} ms");
        }
    }
}
