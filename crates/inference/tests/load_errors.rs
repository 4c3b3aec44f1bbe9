//! A damaged model file is refused with an error that says what is wrong,
//! never a panic: cut short, its tensor data overlapping the end, or its
//! metadata disagreeing with its tensors.

use inference::Model;

fn smollm2() -> Vec<u8> {
    std::fs::read(testkit::smollm2()).unwrap()
}

fn load_err(bytes: Vec<u8>) -> String {
    match Model::from_vec(bytes) {
        Ok(_) => panic!("a damaged file loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_file_cut_short_names_the_tensor_that_runs_past_its_end() {
    let mut bytes = smollm2();
    bytes.truncate(bytes.len() / 2);
    let e = load_err(bytes);
    assert!(e.contains("extends past the end of the file"), "{e}");
    assert!(e.contains("while reading the data of tensor #"), "{e}");
}

#[test]
fn a_file_cut_in_its_header_is_a_parse_error_with_an_offset() {
    let mut bytes = smollm2();
    bytes.truncate(4096);
    let e = load_err(bytes);
    assert!(e.contains("offset"), "{e}");
}

#[test]
fn the_whole_file_loads_in_place_and_reports_its_runner() {
    let bytes = smollm2();
    let len = bytes.len();
    let m = Model::from_vec(bytes).unwrap();
    let r = m.runner();
    assert_eq!(r.arch, "llama");
    // the weights are the file's bytes, less the header
    assert!(r.weight_bytes <= len as u64 && r.weight_bytes > len as u64 * 9 / 10);
    assert!(r
        .line()
        .starts_with("llama · Q4_1 ×210, F32 ×61, Q8_0 ×1 · Promptscope's decoder · CPU "));
}

fn seed(name: &str) -> Vec<u8> {
    std::fs::read(testkit::repo_root().join("fuzz/seeds-model").join(name)).unwrap()
}

#[test]
fn metadata_that_disagrees_with_the_tensors_is_refused() {
    // tools/fuzz-seeds/tiny_models.py: embedding_length 96 over 64-wide
    // tensors, and 4 heads over a 2-head attention
    for name in ["tiny-llama-bad-width.gguf", "tiny-llama-bad-heads.gguf"] {
        let e = load_err(seed(name));
        assert!(
            e.contains("blk.0") || e.contains("token_embd"),
            "{name}: {e}"
        );
    }
}

#[test]
fn tiny_models_load_and_evaluate() {
    for name in ["tiny-llama.gguf", "tiny-qwen3.gguf", "tiny-gemma3.gguf"] {
        let mut m = Model::from_vec(seed(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let a = m.forward(&[1, 5, 7]).unwrap();
        let b = m.forward(&[3]).unwrap();
        assert_eq!((a.len(), b.len()), (16, 16), "{name}");
        assert!(a.iter().chain(&b).all(|x| x.is_finite()), "{name}");
        // ids outside the vocabulary are an error, not a panic
        assert!(m.forward(&[16]).is_err(), "{name}");
    }
}

/// The `model_load` fuzz target's property, run deterministically in every
/// `cargo test` (no libFuzzer needed): the tiny models of every family with
/// bytes flipped, words of their header overwritten with edge values, or
/// cut short, load with an error or evaluate, never panic (a panic in
/// another thread would still be caught here and reported with its case).
#[test]
fn damaged_tiny_models_never_panic() {
    const CASES: u64 = 3000;
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let edges: [u64; 9] = [
        0,
        1,
        2,
        0xff,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        1 << 40,
        u64::MAX,
    ];
    let mut loaded = 0;
    for name in ["tiny-llama.gguf", "tiny-qwen3.gguf", "tiny-gemma3.gguf"] {
        let clean = seed(name);
        for case in 0..CASES {
            let mut bytes = clean.clone();
            // most damage in the header (metadata, tensor infos), where
            // sizes and shapes are read
            let at = |r: u64, len: usize| {
                if r.is_multiple_of(5) {
                    (r >> 3) as usize % len
                } else {
                    (r >> 3) as usize % len.min(4096)
                }
            };
            let what = next() % 3;
            match what {
                0 => {
                    for _ in 0..1 + next() % 4 {
                        let i = at(next(), bytes.len());
                        bytes[i] ^= 1 << (next() % 8);
                    }
                }
                1 => {
                    let i = at(next(), bytes.len() - 8);
                    let v = edges[(next() % edges.len() as u64) as usize];
                    let width = if next() % 2 == 0 { 4 } else { 8 };
                    bytes[i..i + width].copy_from_slice(&v.to_le_bytes()[..width]);
                }
                _ => {
                    let keep = (next() as usize) % bytes.len();
                    bytes.truncate(keep);
                }
            }
            if std::env::var_os("DAMAGE_TRACE").is_some() {
                eprintln!("{name} {case} {what}");
            }
            let run = std::panic::catch_unwind(move || {
                let Ok(mut m) = Model::from_vec(bytes) else {
                    return false;
                };
                let _ = m.runner().line();
                let _ = m.forward(&[1, 2, 3]);
                let _ = m.forward(&[0]);
                m.reset();
                let _ = m.forward(&[u32::MAX]);
                true
            });
            match run {
                Ok(true) => loaded += 1,
                Ok(false) => {}
                Err(_) => panic!("{name}, case {case} (damage kind {what}): a panic"),
            }
        }
    }
    // the damage left some files loadable (the property covers evaluation)
    assert!(loaded > 0);
}
