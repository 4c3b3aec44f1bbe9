//! The 32-value block kinds against `Q8_0` / `Q8_1` activations: `Q4_0`,
//! `Q4_1`, `Q8_0`, `Q5_0`, `Q5_1` (`ggml_vec_dot_*`, eight f32 lanes, one
//! fused multiply-add per lane and block, `hsum_float_8`), their four-row
//! versions, and the repacked `Q4_0` kernel (one f32 lane).

use super::{h, hsum_i32, kernels, load16, load16i, Acc8, Isa};
use crate::kquant::{BlockQ5_0, BlockQ5_1};
use crate::quant::{BlockQ4_0, BlockQ4_1, BlockQ8, BlockQ8_0};
use core::arch::wasm32::*;

/// A 4-bit block's values: low nibbles (values 0..16) and high nibbles.
#[inline(always)]
fn nibbles(qs: &[u8; 16]) -> (v128, v128) {
    let v = load16(qs);
    (v128_and(v, u8x16_splat(0x0F)), u8x16_shr(v, 4))
}

/// A 5-bit block's values `nibble | (bit << 4)` (0..32): values 0..16 and
/// 16..32 (AVX2's `bytes_from_nibbles_32` | `bytes_from_bits_32` layout).
#[inline(always)]
fn fives(qs: &[u8; 16], qh: [u8; 4]) -> (v128, v128) {
    let (lo, hi) = nibbles(qs);
    let qh = u32x4_splat(u32::from_le_bytes(qh));
    let bit = u8x16(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128);
    // 0x10 in byte i of each half where bit i (or 16 + i) of qh is set
    let set = |b: v128| v128_and(u8x16_eq(v128_and(b, bit), bit), u8x16_splat(0x10));
    let lo_bits = set(i8x16_shuffle::<
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
        1,
    >(qh, qh));
    let hi_bits = set(i8x16_shuffle::<
        2,
        2,
        2,
        2,
        2,
        2,
        2,
        2,
        3,
        3,
        3,
        3,
        3,
        3,
        3,
        3,
    >(qh, qh));
    (v128_or(lo, lo_bits), v128_or(hi, hi_bits))
}

/// The two i32 lane vectors of one block: `x` unsigned values (`0..=127`)
/// with an offset subtracted (`None`: none), against `y`.
#[inline(always)]
fn lanes<I: Isa>((lo, hi): (v128, v128), off: Option<i8>, y: &[i8; 32]) -> (v128, v128) {
    let (y0, y1) = (load16i(&y[..16]), load16i(&y[16..]));
    match off {
        Some(o) => (I::dot_off(lo, o, y0), I::dot_off(hi, o, y1)),
        None => {
            let z = i32x4_splat(0);
            (I::dot_u7(lo, y0, z), I::dot_u7(hi, y1, z))
        }
    }
}

#[inline(always)]
fn q4_0<I: Isa>(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
    let mut acc = Acc8::zero();
    for (x, y) in xs.iter().zip(ys) {
        let (lo, hi) = lanes::<I>(nibbles(&x.qs), Some(8), &y.qs);
        I::fma8(&mut acc, I::scale(h(x.d) * y.d), lo, hi);
    }
    acc.hsum()
}

#[inline(always)]
fn q4_1<I: Isa>(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
    let mut acc = Acc8::zero();
    let mut summs = 0f32;
    for (x, y) in xs.iter().zip(ys) {
        summs += h(x.m) * y.s;
        let (lo, hi) = lanes::<I>(nibbles(&x.qs), None, &y.qs);
        I::fma8(&mut acc, I::scale(h(x.d) * y.d), lo, hi);
    }
    acc.hsum() + summs
}

#[inline(always)]
fn q4_1x4<I: Isa>(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
    let mut acc = [Acc8::zero(); 4];
    let mut summs = [0f32; 4];
    for (b, x) in xs.iter().enumerate() {
        let (dx, mx) = (h(x.d), h(x.m));
        let v = nibbles(&x.qs);
        for r in 0..4 {
            let y = &ys[r][b];
            summs[r] += mx * y.s;
            let (lo, hi) = lanes::<I>(v, None, &y.qs);
            I::fma8(&mut acc[r], I::scale(dx * y.d), lo, hi);
        }
    }
    std::array::from_fn(|r| acc[r].hsum() + summs[r])
}

/// The lanes of a `Q8_0` weight block against an activation block.
#[inline(always)]
fn q8_lanes<I: Isa>(x: &BlockQ8_0, y: &BlockQ8) -> (v128, v128) {
    (
        I::dot_i8(load16i(&x.qs[..16]), load16i(&y.qs[..16])),
        I::dot_i8(load16i(&x.qs[16..]), load16i(&y.qs[16..])),
    )
}

#[inline(always)]
fn q8_0<I: Isa>(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
    let mut acc = Acc8::zero();
    for (x, y) in xs.iter().zip(ys) {
        let (lo, hi) = q8_lanes::<I>(x, y);
        I::fma8(&mut acc, I::scale(h(x.d) * y.d), lo, hi);
    }
    acc.hsum()
}

#[inline(always)]
fn q8_0x4<I: Isa>(xs: &[BlockQ8_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
    let mut acc = [Acc8::zero(); 4];
    for (b, x) in xs.iter().enumerate() {
        let dx = h(x.d);
        let (x0, x1) = (load16i(&x.qs[..16]), load16i(&x.qs[16..]));
        for r in 0..4 {
            let y = &ys[r][b];
            let lo = I::dot_i8(x0, load16i(&y.qs[..16]));
            let hi = I::dot_i8(x1, load16i(&y.qs[16..]));
            I::fma8(&mut acc[r], I::scale(dx * y.d), lo, hi);
        }
    }
    std::array::from_fn(|r| acc[r].hsum())
}

#[inline(always)]
fn q5_0<I: Isa>(xs: &[BlockQ5_0], ys: &[BlockQ8]) -> f32 {
    let mut acc = Acc8::zero();
    for (x, y) in xs.iter().zip(ys) {
        let (lo, hi) = lanes::<I>(fives(&x.qs, x.qh), Some(16), &y.qs);
        I::fma8(&mut acc, I::scale(h(x.d) * y.d), lo, hi);
    }
    acc.hsum()
}

#[inline(always)]
fn q5_0x4<I: Isa>(xs: &[BlockQ5_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
    let mut acc = [Acc8::zero(); 4];
    for (b, x) in xs.iter().enumerate() {
        let dx = h(x.d);
        let v = fives(&x.qs, x.qh);
        for r in 0..4 {
            let y = &ys[r][b];
            let (lo, hi) = lanes::<I>(v, Some(16), &y.qs);
            I::fma8(&mut acc[r], I::scale(dx * y.d), lo, hi);
        }
    }
    std::array::from_fn(|r| acc[r].hsum())
}

/// `ggml_vec_dot_q5_1_q8_1`: `summs` by fused multiply-adds (GCC
/// contracts it), the lanes as `fma(lane, d, acc)`.
#[inline(always)]
fn q5_1<I: Isa>(xs: &[BlockQ5_1], ys: &[BlockQ8]) -> f32 {
    let mut acc = Acc8::zero();
    let mut summs = 0f32;
    for (x, y) in xs.iter().zip(ys) {
        summs = I::fma(h(x.m), y.s, summs);
        let (lo, hi) = lanes::<I>(fives(&x.qs, x.qh), None, &y.qs);
        I::fma8(&mut acc, I::scale(h(x.d) * y.d), lo, hi);
    }
    acc.hsum() + summs
}

/// The repacked `Q4_0` gemv / gemm of one output: one f32 lane,
/// `acc = fma(Σ, d_x·d_y, acc)` per block.
#[inline(always)]
fn q4_0_repacked<I: Isa>(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
    let mut acc = 0f32;
    for (x, y) in xs.iter().zip(ys) {
        let (lo, hi) = lanes::<I>(nibbles(&x.qs), Some(8), &y.qs);
        let s = hsum_i32(i32x4_add(lo, hi));
        acc = I::fma(s as f32, h(x.d) * y.d, acc);
    }
    acc
}

kernels! {
    /// `Q4_0 · Q8_0`.
    pub fn dot_q4_0(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 = q4_0;
    /// `Q4_1 · Q8_1`.
    pub fn dot_q4_1(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 = q4_1;
    /// `Q4_1 · Q8_1`, one weight row against four activation rows.
    pub fn dot4_q4_1(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] = q4_1x4;
    /// `Q8_0 · Q8_0`.
    pub fn dot_q8_0(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 = q8_0;
    /// `Q8_0 · Q8_0`, one weight row against four activation rows.
    pub fn dot4_q8_0(xs: &[BlockQ8_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] = q8_0x4;
    /// `Q5_0 · Q8_0`.
    pub fn dot_q5_0(xs: &[BlockQ5_0], ys: &[BlockQ8]) -> f32 = q5_0;
    /// `Q5_0 · Q8_0`, one weight row against four activation rows.
    pub fn dot4_q5_0(xs: &[BlockQ5_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] = q5_0x4;
    /// `Q5_1 · Q8_1`.
    pub fn dot_q5_1(xs: &[BlockQ5_1], ys: &[BlockQ8]) -> f32 = q5_1;
    /// One output of the repacked `Q4_0` kernels.
    pub fn dot_q4_0_repacked(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 = q4_0_repacked;
}
