//! Loading arbitrary GGUF bytes as a runnable model (`crates/inference`:
//! the header, the weights used in place, the shapes the graph checks) and
//! evaluating a few tokens: an error or logits, never a panic, an unbounded
//! allocation or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(mut model) = inference::Model::from_vec(data.to_vec()) else {
        return;
    };
    let _ = model.runner().line();
    for ids in [&[0u32][..], &[1, 2], &[u32::MAX]] {
        if let Ok(logits) = model.forward(ids) {
            assert!(!logits.is_empty());
        }
    }
    model.reset();
    let _ = model.forward(&[0]);
});
