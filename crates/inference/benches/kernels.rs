//! Matrix-product speed per weight type on one thread: ns per weight row
//! for k = 2048 and 512 weight rows, m = 1, 2, 5 and 8 activation rows.
//! ggml's figures for the same shapes: `bash tools/kernel-goldens/record.sh
//! bench` (one thread, the reference llama.cpp build).
//!
//! `cargo bench -p promptscope-inference --bench kernels`

use inference::quant::{self, Kind, KINDS};
use std::time::Instant;

fn next(x: &mut u32) -> u32 {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    *x
}

/// `n` rows of `k` values of `kind`: random bytes, with finite, small
/// f16 / bf16 / f32 values wherever a scale or a float value lies.
fn weights(kind: Kind, k: usize, n: usize) -> Vec<u8> {
    let mut x = 7u32;
    let blocks = n * k / kind.block_values();
    let bb = kind.block_bytes();
    let mut out: Vec<u8> = (0..blocks * bb).map(|_| next(&mut x) as u8).collect();
    let half = |x: &mut u32| half::f16::from_f32((next(x) % 1000) as f32 / 50_000.0).to_le_bytes();
    for b in 0..blocks {
        let o = b * bb;
        match kind {
            Kind::F32 => out[o..o + 4]
                .copy_from_slice(&((next(&mut x) % 1000) as f32 / 10_000.0).to_le_bytes()),
            Kind::F16 => out[o..o + 2].copy_from_slice(&half(&mut x)),
            Kind::BF16 => out[o + 1] = 0x3c, // sign +, exponent 2^-7
            Kind::Q6_K => out[o + 208..o + 210].copy_from_slice(&half(&mut x)),
            Kind::Q4_1 | Kind::Q5_1 | Kind::Q4_K | Kind::Q5_K => {
                out[o..o + 2].copy_from_slice(&half(&mut x));
                out[o + 2..o + 4].copy_from_slice(&half(&mut x));
            }
            _ => out[o..o + 2].copy_from_slice(&half(&mut x)),
        }
    }
    out
}

fn main() {
    inference::threads::set_threads(1);
    let (k, n) = (2048, 512);
    let mut x = 3u32;
    let lhs: Vec<f32> = (0..8 * k)
        .map(|_| (next(&mut x) % 4001) as f32 / 1000.0 - 2.0)
        .collect();
    for &kind in KINDS {
        let w = weights(kind, k, n);
        // a 4-aligned copy, as a GGUF's tensor data is
        let mut store = vec![0u8; w.len() + 4];
        let o = store.as_ptr().align_offset(4);
        store[o..o + w.len()].copy_from_slice(&w);
        let w = &store[o..o + w.len()];
        for m in [1, 2, 5, 8] {
            let mut dst = vec![0f32; m * n];
            quant::matmul(kind, w, (m, k, n), &lhs, &mut dst).unwrap();
            let reps = if m == 1 { 50 } else { 10 };
            let t = Instant::now();
            for _ in 0..reps {
                quant::matmul(kind, w, (m, k, n), &lhs, &mut dst).unwrap();
            }
            let ns = t.elapsed().as_nanos() as f64 / reps as f64;
            println!(
                "{:<5} k={k} n={n} m={m}: {:8.1} ns per weight row",
                kind.name(),
                ns / n as f64
            );
        }
    }
}
