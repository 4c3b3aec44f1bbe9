//! The float kinds: `ggml_vec_dot_f16` / `_bf16` / `_f32` (four
//! accumulators of eight FMA lanes over 32-value steps, then the tail) and
//! tinyBLAS's dot (eight FMA lanes, `hsum`), as the scalar kernels in
//! `crate::kquant::scalar` fix them.

use super::{hsum8, kernels, Isa};
use core::arch::wasm32::*;

/// Eight u16 as two vectors of four u32.
#[inline(always)]
fn load8_u16(p: &[u16]) -> (v128, v128) {
    assert!(p.len() >= 8);
    // SAFETY: at least 8 readable u16 (asserted); v128_load is unaligned.
    let v = unsafe { v128_load(p.as_ptr() as *const v128) };
    (u32x4_extend_low_u16x8(v), u32x4_extend_high_u16x8(v))
}

/// Four f16 (in u32 lanes) as f32, exactly as the `half` crate converts
/// them: the exponent and mantissa moved into place and scaled by
/// 2^112 (exact for normal and subnormal values), infinities and NaNs
/// given the f32 exponent, NaNs made quiet.
#[inline(always)]
fn f16_to_f32(h: v128) -> v128 {
    let sign = i32x4_shl(v128_and(h, u32x4_splat(0x8000)), 16);
    let em = v128_and(h, u32x4_splat(0x7FFF));
    let scaled = f32x4_mul(i32x4_shl(em, 13), f32x4_splat(f32::from_bits(0x7780_0000))); // 2^112
    let special = u32x4_ge(em, u32x4_splat(0x7C00));
    let nan = u32x4_gt(em, u32x4_splat(0x7C00));
    let inf_nan = v128_or(
        v128_or(i32x4_shl(em, 13), u32x4_splat(0x7F80_0000)),
        v128_and(nan, u32x4_splat(0x0040_0000)),
    );
    v128_or(sign, v128_bitselect(inf_nan, scaled, special))
}

/// Four bf16 (in u32 lanes) as f32.
#[inline(always)]
fn bf16_to_f32(h: v128) -> v128 {
    i32x4_shl(h, 16)
}

#[inline(always)]
fn cvt(h: v128, bf16: bool) -> v128 {
    if bf16 {
        bf16_to_f32(h)
    } else {
        f16_to_f32(h)
    }
}

/// Eight values of a half-precision row as two f32x4.
#[inline(always)]
fn half8(p: &[u16], bf16: bool) -> (v128, v128) {
    let (a, b) = load8_u16(p);
    (cvt(a, bf16), cvt(b, bf16))
}

#[inline(always)]
fn f32x8(p: &[f32]) -> (v128, v128) {
    assert!(p.len() >= 8);
    // SAFETY: at least 8 readable f32 (asserted); v128_load is unaligned.
    unsafe {
        (
            v128_load(p.as_ptr() as *const v128),
            v128_load(p.as_ptr().add(4) as *const v128),
        )
    }
}

#[inline(always)]
fn lane(v: v128, i: usize) -> f32 {
    match i {
        0 => f32x4_extract_lane::<0>(v),
        1 => f32x4_extract_lane::<1>(v),
        2 => f32x4_extract_lane::<2>(v),
        _ => f32x4_extract_lane::<3>(v),
    }
}

/// Four accumulators of eight lanes, FMAs over 32-value steps: `load(i)`
/// gives the eight values of both rows at value `i`.
#[inline(always)]
fn steps32<I: Isa>(np: usize, load: impl Fn(usize) -> [(v128, v128); 2]) -> [[v128; 2]; 4] {
    let mut s = [[f32x4_splat(0.0); 2]; 4];
    for base in (0..np).step_by(32) {
        for (r, acc) in s.iter_mut().enumerate() {
            let [(x0, x1), (y0, y1)] = load(base + 8 * r);
            acc[0] = I::madd(x0, y0, acc[0]);
            acc[1] = I::madd(x1, y1, acc[1]);
        }
    }
    s
}

/// `(s0 + s2) + (s1 + s3)` per lane.
#[inline(always)]
fn combine(s: &[[v128; 2]; 4]) -> (v128, v128) {
    let half = |k: usize| f32x4_add(f32x4_add(s[0][k], s[2][k]), f32x4_add(s[1][k], s[3][k]));
    (half(0), half(1))
}

/// `GGML_F32x8_REDUCE`: the lanes combined, then `t[i] = x[i] + x[i + 4]`
/// and `(t0 + t1) + (t2 + t3)`.
#[inline(always)]
fn reduce4(s: &[[v128; 2]; 4]) -> f32 {
    let (lo, hi) = combine(s);
    let t = f32x4_add(lo, hi);
    (lane(t, 0) + lane(t, 1)) + (lane(t, 2) + lane(t, 3))
}

#[inline(always)]
fn vec_dot_half<I: Isa>(x: &[u16], y: &[u16], bf16: bool) -> f32 {
    let np = x.len() & !31;
    let s = steps32::<I>(np, |i| [half8(&x[i..], bf16), half8(&y[i..], bf16)]);
    let mut sum = if bf16 {
        let (lo, hi) = combine(&s);
        hsum8(lo, hi)
    } else {
        reduce4(&s)
    } as f64;
    let c = if bf16 {
        crate::kquant::bf
    } else {
        crate::kquant::h
    };
    for (&a, &b) in x[np..].iter().zip(&y[np..]) {
        sum += (c(a) * c(b)) as f64;
    }
    sum as f32
}

#[inline(always)]
fn vec_dot_f32<I: Isa>(x: &[f32], y: &[f32]) -> f32 {
    let np = x.len() & !31;
    let s = steps32::<I>(np, |i| [f32x8(&x[i..]), f32x8(&y[i..])]);
    crate::kquant::scalar::f32_tail(reduce4(&s), x, y, np, I::fma)
}

/// tinyBLAS's dot: eight FMA lanes over `k` (a multiple of 8), `hsum`.
#[inline(always)]
fn tinyblas8<I: Isa>(k: usize, load: impl Fn(usize) -> [(v128, v128); 2]) -> f32 {
    let (mut lo, mut hi) = (f32x4_splat(0.0), f32x4_splat(0.0));
    for i in (0..k).step_by(8) {
        let [(x0, x1), (y0, y1)] = load(i);
        lo = I::madd(x0, y0, lo);
        hi = I::madd(x1, y1, hi);
    }
    hsum8(lo, hi)
}

#[inline(always)]
fn tinyblas_half<I: Isa>(x: &[u16], y: &[u16], bf16: bool) -> f32 {
    tinyblas8::<I>(x.len() & !7, |i| {
        [half8(&x[i..], bf16), half8(&y[i..], bf16)]
    })
}

#[inline(always)]
fn tinyblas_f32<I: Isa>(x: &[f32], y: &[f32]) -> f32 {
    tinyblas8::<I>(x.len() & !7, |i| [f32x8(&x[i..]), f32x8(&y[i..])])
}

kernels! {
    /// `ggml_vec_dot_f16` (or `_bf16`) of one row pair.
    pub fn dot_vec_half(x: &[u16], y: &[u16], bf16: bool) -> f32 = vec_dot_half;
    /// tinyBLAS's f16 (or bf16) dot of one row pair.
    pub fn dot_tinyblas_half(x: &[u16], y: &[u16], bf16: bool) -> f32 = tinyblas_half;
    /// `ggml_vec_dot_f32` of one row pair.
    pub fn dot_vec_f32(x: &[f32], y: &[f32]) -> f32 = vec_dot_f32;
    /// tinyBLAS's f32 dot of one row pair.
    pub fn dot_tinyblas_f32(x: &[f32], y: &[f32]) -> f32 = tinyblas_f32;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_f16_conversions_are_the_half_crates() {
        for bits in 0..=u16::MAX {
            let v = f16_to_f32(u32x4_splat(bits as u32));
            let got = f32x4_extract_lane::<0>(v).to_bits();
            let want = half::f16::from_bits(bits).to_f32().to_bits();
            assert_eq!(got, want, "f16 {bits:#06x}");
            assert_eq!(
                super::super::h(bits).to_bits(),
                want,
                "scalar f16 {bits:#06x}"
            );
        }
    }
}
