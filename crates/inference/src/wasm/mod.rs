//! The block dots in wasm (`simd128`), bit for bit the scalar kernels of
//! [`crate::quant::kernels`] and [`crate::kquant::scalar`], which fix the
//! AVX2 build's arithmetic.
//!
//! Every kernel is written once, generic over an [`Isa`]: how four lanes
//! of byte products are summed and how a fused multiply-add is rounded.
//!
//! * [`Plain`]: `simd128` only, which every current browser has. Wasm has
//!   no fused multiply-add, so each one is computed exactly through f64
//!   (the product of two f32 is exact there; the sum is rounded to odd
//!   where it could mislead the rounding to f32), and byte products are
//!   widened to i16 and summed with `i32x4.dot_i16x8_s`.
//! * [`Relaxed`] (the cargo feature `relaxed-simd`, a build of its own:
//!   an engine without relaxed SIMD refuses the whole module): where
//!   `f32x4.relaxed_madd` is a fused multiply-add on this machine (V8 and
//!   SpiderMonkey emit the CPU's FMA where it has one; [`fused`] checks at
//!   run time, once), the AVX2 build's `vfmadd` is one instruction, and
//!   byte products are summed by `i32x4.relaxed_dot_i8x16_i7x16_add_s`
//!   (`pmaddubsw` + `pmaddwd`, or `vpdpbusd`, or `sdot`), which is exact
//!   and the same on every engine while the second operand's bytes are in
//!   `0..=127` (no saturation: `2·128·127 < 2^15`). Where `relaxed_madd`
//!   is not fused, the same build runs the [`Plain`] kernels.
//!
//! Integer sums are exact in any order, so only the f32 operations follow
//! the scalar kernels' order; the tests check each kernel against the
//! scalar one on random blocks (`wasm_*` tests, run in wasm under Node,
//! once per build).

use core::arch::wasm32::*;

pub(crate) mod float;
pub(crate) mod kq;
pub(crate) mod q32;

pub(crate) use float::{dot_tinyblas_f32, dot_tinyblas_half, dot_vec_f32, dot_vec_half};
pub(crate) use kq::{
    dot4_q4_k_repacked_gemm, dot4_q4_k_tiled, dot4_q5_k_tiled, dot4_q6_k_tiled, dot_q4_k,
    dot_q4_k_repacked, dot_q4_k_tiled, dot_q5_k, dot_q5_k_tiled, dot_q6_k, dot_q6_k_tiled,
};
pub(crate) use q32::{
    dot4_q4_1, dot4_q5_0, dot4_q8_0, dot_q4_0, dot_q4_0_repacked, dot_q4_1, dot_q5_0, dot_q5_1,
    dot_q8_0,
};

/// How a kernel sums byte products and rounds fused multiply-adds.
pub(crate) trait Isa: Copy {
    /// A block scale prepared for [`Isa::fma8`].
    type Scale: Copy;
    fn scale(d: f32) -> Self::Scale;
    /// `acc[j] + Σ_{b=4j}^{4j+3} x[b]·y[b]` (i32 lanes) for 16 bytes:
    /// `x` unsigned in `0..=127`, `y` any signed byte.
    fn dot_u7(x: v128, y: v128, acc: v128) -> v128;
    /// As [`Isa::dot_u7`] with a signed `x` (any byte) and `y` in
    /// `-127..=127` (activations never hold −128).
    fn dot_i8(x: v128, y: v128) -> v128;
    /// `Σ (x[b] − off)·y[b]` per four bytes, `x` unsigned in `0..=127`.
    fn dot_off(x: v128, off: i8, y: v128) -> v128;
    /// `acc[j] = fma(d, lanes[j], acc[j])` for the eight lanes `[lo, hi]`
    /// (i32, converted to f32 exactly), each rounded once.
    fn fma8(acc: &mut Acc8, d: Self::Scale, lo: v128, hi: v128);
    /// `a·b + c` per f32 lane, rounded once.
    fn madd(a: v128, b: v128, c: v128) -> v128;
    /// `fmaf(a, b, c)`.
    fn fma(a: f32, b: f32, c: f32) -> f32;
}

/// Eight f32 accumulators, `[lo, hi]` as two f32x4 vectors.
#[derive(Clone, Copy)]
pub(crate) struct Acc8(pub v128, pub v128);

impl Acc8 {
    #[inline(always)]
    pub fn zero() -> Acc8 {
        Acc8(f32x4_splat(0.0), f32x4_splat(0.0))
    }

    /// ggml's `hsum_float_8` of the lanes.
    #[inline(always)]
    pub fn hsum(&self) -> f32 {
        hsum8(self.0, self.1)
    }
}

/// ggml's `hsum_float_8` of the lanes `[lo, hi]`: high half plus low half,
/// then `(a0 + a2) + (a1 + a3)`.
#[inline(always)]
pub(crate) fn hsum8(lo: v128, hi: v128) -> f32 {
    let a = f32x4_add(hi, lo);
    (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<2>(a))
        + (f32x4_extract_lane::<1>(a) + f32x4_extract_lane::<3>(a))
}

/// The sum of four i32 lanes (exact, any order).
#[inline(always)]
pub(crate) fn hsum_i32(v: v128) -> i32 {
    let s = i32x4_add(v, i32x4_shuffle::<2, 3, 0, 1>(v, v));
    let s = i32x4_add(s, i32x4_shuffle::<1, 0, 3, 2>(s, s));
    i32x4_extract_lane::<0>(s)
}

/// `[Σa, Σb, Σc, Σd]` of four i32x4 vectors (exact).
#[inline(always)]
pub(crate) fn hsum_i32x4(a: v128, b: v128, c: v128, d: v128) -> v128 {
    // [a0+a2, b0+b2, a1+a3, b1+b3] and the same for c, d
    let ab = i32x4_add(
        i32x4_shuffle::<0, 4, 1, 5>(a, b),
        i32x4_shuffle::<2, 6, 3, 7>(a, b),
    );
    let cd = i32x4_add(
        i32x4_shuffle::<0, 4, 1, 5>(c, d),
        i32x4_shuffle::<2, 6, 3, 7>(c, d),
    );
    i32x4_add(
        i32x4_shuffle::<0, 1, 4, 5>(ab, cd),
        i32x4_shuffle::<2, 3, 6, 7>(ab, cd),
    )
}

/// 16 bytes from the start of `p`.
#[inline(always)]
pub(crate) fn load16(p: &[u8]) -> v128 {
    assert!(p.len() >= 16);
    // SAFETY: at least 16 readable bytes (asserted); v128_load is unaligned.
    unsafe { v128_load(p.as_ptr() as *const v128) }
}

/// 16 signed bytes from the start of `p`.
#[inline(always)]
pub(crate) fn load16i(p: &[i8]) -> v128 {
    assert!(p.len() >= 16);
    // SAFETY: at least 16 readable bytes (asserted); v128_load is unaligned.
    unsafe { v128_load(p.as_ptr() as *const v128) }
}

/// f16 to f32, bit for bit the `half` crate's conversion but without its
/// branches on the exponent: exponent and mantissa moved into place and
/// scaled by 2^112 (exact for normal and subnormal values), infinities and
/// NaNs given the f32 exponent, NaNs made quiet.
#[inline(always)]
pub(crate) fn h(bits: u16) -> f32 {
    let b = bits as u32;
    let em = b & 0x7FFF;
    let sign = (b & 0x8000) << 16;
    if em >= 0x7C00 {
        let quiet = if em > 0x7C00 { 0x0040_0000 } else { 0 };
        return f32::from_bits(sign | 0x7F80_0000 | (em << 13) | quiet);
    }
    let magnitude = f32::from_bits(em << 13) * f32::from_bits(0x7780_0000); // 2^112
    f32::from_bits(sign | magnitude.to_bits())
}

/// The simd128-only arithmetic.
#[derive(Clone, Copy)]
pub(crate) struct Plain;

/// Four i32 lanes of 16 byte products: lane `j` sums bytes `4j..4j+4`
/// (AVX2's `maddubs` + `madd` lanes). `x` is sign-extended when `signed`,
/// zero-extended otherwise.
#[inline(always)]
fn lanes4(x: v128, y: v128, signed: bool) -> v128 {
    let (xl, xh) = if signed {
        (i16x8_extend_low_i8x16(x), i16x8_extend_high_i8x16(x))
    } else {
        (i16x8_extend_low_u8x16(x), i16x8_extend_high_u8x16(x))
    };
    // pairs: [b01, b23, b45, b67] and [b89, bAB, bCD, bEF]
    let lo = i32x4_dot_i16x8(xl, i16x8_extend_low_i8x16(y));
    let hi = i32x4_dot_i16x8(xh, i16x8_extend_high_i8x16(y));
    i32x4_add(
        i32x4_shuffle::<0, 2, 4, 6>(lo, hi),
        i32x4_shuffle::<1, 3, 5, 7>(lo, hi),
    )
}

/// Where the f64 sum could mislead the f32 rounding: a f32 midpoint
/// (low 29 mantissa bits `1000...`) or tiny (f32 subnormals).
#[inline(always)]
fn risky(s: v128) -> v128 {
    let low = v128_and(s, i64x2_splat(0x1FFF_FFFF));
    let mid = i64x2_eq(low, i64x2_splat(0x1000_0000));
    let tiny = f64x2_lt(f64x2_abs(s), f64x2_splat(f32::MIN_POSITIVE as f64 * 2.0));
    v128_or(mid, tiny)
}

/// `s = p + a` rounded to odd: one ulp toward the exact sum where TwoSum
/// finds it inexact and the last bit is even.
#[inline(always)]
fn round_to_odd(p: v128, a: v128, s: v128) -> v128 {
    let bp = f64x2_sub(s, p);
    let e = f64x2_add(f64x2_sub(p, f64x2_sub(s, bp)), f64x2_sub(a, bp));
    let even = i64x2_eq(v128_and(s, i64x2_splat(1)), i64x2_splat(0));
    let inexact = f64x2_ne(e, f64x2_splat(0.0));
    let sign = i64x2_shr(v128_xor(e, s), 63); // 0 same sign, -1 not
    let delta = i64x2_add(i64x2_shl(sign, 1), i64x2_splat(1));
    i64x2_add(s, v128_and(delta, v128_and(even, inexact)))
}

/// The high two lanes of a 32-bit vector in the low two.
#[inline(always)]
fn high2(v: v128) -> v128 {
    i32x4_shuffle::<2, 3, 0, 1>(v, v)
}

/// Four exact f64 products `p` and addends `a` (two f64x2 each) summed and
/// rounded once to f32, as a fused multiply-add rounds: the f64 sum only
/// misleads the f32 rounding where [`risky`] says so, and there it is
/// rounded to odd first (Boldo and Melquiond), which makes the f32
/// rounding correct.
#[inline(always)]
fn sum_to_f32(p: [v128; 2], a: [v128; 2]) -> v128 {
    let (mut s0, mut s1) = (f64x2_add(p[0], a[0]), f64x2_add(p[1], a[1]));
    if v128_any_true(v128_or(risky(s0), risky(s1))) {
        s0 = round_to_odd(p[0], a[0], s0);
        s1 = round_to_odd(p[1], a[1], s1);
    }
    i32x4_shuffle::<0, 1, 4, 5>(f32x4_demote_f64x2_zero(s0), f32x4_demote_f64x2_zero(s1))
}

/// The four f32 lanes of `v` as two f64x2.
#[inline(always)]
fn widen(v: v128) -> [v128; 2] {
    [
        f64x2_promote_low_f32x4(v),
        f64x2_promote_low_f32x4(high2(v)),
    ]
}

impl Isa for Plain {
    type Scale = v128;

    #[inline(always)]
    fn scale(d: f32) -> v128 {
        f64x2_splat(d as f64)
    }

    #[inline(always)]
    fn dot_u7(x: v128, y: v128, acc: v128) -> v128 {
        i32x4_add(acc, lanes4(x, y, false))
    }

    #[inline(always)]
    fn dot_i8(x: v128, y: v128) -> v128 {
        lanes4(x, y, true)
    }

    #[inline(always)]
    fn dot_off(x: v128, off: i8, y: v128) -> v128 {
        lanes4(i8x16_sub(x, i8x16_splat(off)), y, true)
    }

    #[inline(always)]
    fn fma8(acc: &mut Acc8, d: v128, lo: v128, hi: v128) {
        // i32 to f64 directly (exact, as the f32 conversion of these
        // small sums is)
        let p = |v: v128| {
            [
                f64x2_mul(d, f64x2_convert_low_i32x4(v)),
                f64x2_mul(d, f64x2_convert_low_i32x4(high2(v))),
            ]
        };
        let (p0, p1) = (p(lo), p(hi));
        let (a0, a1) = (widen(acc.0), widen(acc.1));
        let (s0, s1) = (
            [f64x2_add(p0[0], a0[0]), f64x2_add(p0[1], a0[1])],
            [f64x2_add(p1[0], a1[0]), f64x2_add(p1[1], a1[1])],
        );
        let any = v128_or(
            v128_or(risky(s0[0]), risky(s0[1])),
            v128_or(risky(s1[0]), risky(s1[1])),
        );
        let (s0, s1) = if v128_any_true(any) {
            (
                [
                    round_to_odd(p0[0], a0[0], s0[0]),
                    round_to_odd(p0[1], a0[1], s0[1]),
                ],
                [
                    round_to_odd(p1[0], a1[0], s1[0]),
                    round_to_odd(p1[1], a1[1], s1[1]),
                ],
            )
        } else {
            (s0, s1)
        };
        let f = |s: [v128; 2]| {
            i32x4_shuffle::<0, 1, 4, 5>(
                f32x4_demote_f64x2_zero(s[0]),
                f32x4_demote_f64x2_zero(s[1]),
            )
        };
        acc.0 = f(s0);
        acc.1 = f(s1);
    }

    #[inline(always)]
    fn madd(a: v128, b: v128, c: v128) -> v128 {
        let (a, b) = (widen(a), widen(b));
        sum_to_f32([f64x2_mul(a[0], b[0]), f64x2_mul(a[1], b[1])], widen(c))
    }

    #[inline(always)]
    fn fma(a: f32, b: f32, c: f32) -> f32 {
        crate::attention::fma_via_f64(a, b, c)
    }
}

/// Relaxed SIMD where its multiply-add is fused (see the module docs).
#[cfg(feature = "relaxed-simd")]
#[derive(Clone, Copy)]
pub(crate) struct Relaxed;

#[cfg(feature = "relaxed-simd")]
impl Isa for Relaxed {
    type Scale = v128;

    #[inline(always)]
    fn scale(d: f32) -> v128 {
        f32x4_splat(d)
    }

    #[inline(always)]
    fn dot_u7(x: v128, y: v128, acc: v128) -> v128 {
        i32x4_relaxed_dot_i8x16_i7x16_add(y, x, acc)
    }

    #[inline(always)]
    fn dot_i8(x: v128, y: v128) -> v128 {
        // Σ x·y = Σ x·max(y, 0) − Σ x·max(−y, 0): both right operands
        // are in 0..=127 (y ≠ −128), and x may be any byte
        let zero = i8x16_splat(0);
        let pos = i8x16_max(y, zero);
        let neg = i8x16_max(i8x16_neg(y), zero);
        i32x4_sub(
            i32x4_relaxed_dot_i8x16_i7x16_add(x, pos, zero),
            i32x4_relaxed_dot_i8x16_i7x16_add(x, neg, zero),
        )
    }

    #[inline(always)]
    fn dot_off(x: v128, off: i8, y: v128) -> v128 {
        let zero = i8x16_splat(0);
        i32x4_sub(
            i32x4_relaxed_dot_i8x16_i7x16_add(y, x, zero),
            i32x4_relaxed_dot_i8x16_i7x16_add(y, i8x16_splat(off), zero),
        )
    }

    #[inline(always)]
    fn fma8(acc: &mut Acc8, d: v128, lo: v128, hi: v128) {
        acc.0 = f32x4_relaxed_madd(d, f32x4_convert_i32x4(lo), acc.0);
        acc.1 = f32x4_relaxed_madd(d, f32x4_convert_i32x4(hi), acc.1);
    }

    #[inline(always)]
    fn madd(a: v128, b: v128, c: v128) -> v128 {
        f32x4_relaxed_madd(a, b, c)
    }

    #[inline(always)]
    fn fma(a: f32, b: f32, c: f32) -> f32 {
        f32x4_extract_lane::<0>(f32x4_relaxed_madd(
            f32x4_splat(a),
            f32x4_splat(b),
            f32x4_splat(c),
        ))
    }
}

/// Whether `f32x4.relaxed_madd` rounds once on this machine and
/// `i32x4.relaxed_dot_i8x16_i7x16_add_s` sums as the standard says (checked
/// once: products whose low bits an unfused multiply-add would drop, in
/// every lane, and a dot product with known sums).
#[cfg(feature = "relaxed-simd")]
pub fn fused() -> bool {
    use std::sync::OnceLock;
    static FUSED: OnceLock<bool> = OnceLock::new();
    *FUSED.get_or_init(|| probe())
}

#[cfg(feature = "relaxed-simd")]
#[target_feature(enable = "relaxed-simd")]
fn probe() -> bool {
    use std::hint::black_box;
    // (1 + 2^-12)^2 − 1 = 2^-11 + 2^-24 exactly; an unfused multiply-add
    // rounds the product to 1 + 2^-11 first
    let a = black_box(f32x4(
        1.0 + 1.0 / 4096.0,
        -(1.0 + 1.0 / 4096.0),
        1.0 + 1.0 / 4096.0,
        3.0 + 3.0 / 4096.0,
    ));
    let b = black_box(f32x4(
        1.0 + 1.0 / 4096.0,
        1.0 + 1.0 / 4096.0,
        1.0 + 1.0 / 4096.0,
        1.0 + 1.0 / 4096.0,
    ));
    let c = black_box(f32x4(-1.0, 1.0, -1.0, -3.0));
    let r = f32x4_relaxed_madd(a, b, c);
    let want: [f32; 4] = [
        1.0 / 2048.0 + 1.0 / 16_777_216.0,
        -(1.0 / 2048.0 + 1.0 / 16_777_216.0),
        1.0 / 2048.0 + 1.0 / 16_777_216.0,
        3.0 * (1.0 / 2048.0 + 1.0 / 16_777_216.0),
    ];
    let got = [
        f32x4_extract_lane::<0>(r),
        f32x4_extract_lane::<1>(r),
        f32x4_extract_lane::<2>(r),
        f32x4_extract_lane::<3>(r),
    ];
    let madd = got
        .iter()
        .zip(&want)
        .all(|(g, w)| g.to_bits() == w.to_bits());
    // the dot product too (an engine that implemented an earlier draft of
    // the proposal, as Node 20's flag does, gives other sums)
    let x = black_box(i8x16(
        -128, 127, -1, 5, 100, -100, 7, 0, 1, 2, 3, 4, -5, -6, -7, -8,
    ));
    let y = black_box(i8x16(
        127, 127, 0, 1, 64, 99, 3, 126, 9, 8, 7, 6, 5, 4, 3, 2,
    ));
    let d = i32x4_relaxed_dot_i8x16_i7x16_add(x, y, black_box(i32x4(1, 2, 3, 4)));
    let dot = [
        i32x4_extract_lane::<0>(d),
        i32x4_extract_lane::<1>(d),
        i32x4_extract_lane::<2>(d),
        i32x4_extract_lane::<3>(d),
    ];
    madd && dot
        == [
            -128 * 127 + 127 * 127 + 5 + 1,
            6400 - 9900 + 21 + 2,
            9 + 16 + 21 + 24 + 3,
            -25 - 24 - 21 - 16 + 4,
        ]
}

/// Which arithmetic the kernels run: `"relaxed-simd"` or `"simd128"`.
pub fn arithmetic() -> &'static str {
    #[cfg(feature = "relaxed-simd")]
    if fused() {
        return "relaxed-simd";
    }
    "simd128"
}

/// Defines public kernels that run the generic one with [`Relaxed`] where
/// [`fused`] holds (in a function compiled with relaxed SIMD) and with
/// [`Plain`] otherwise.
macro_rules! kernels {
    ($(
        $(#[$doc:meta])*
        pub fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $generic:ident;
    )*) => {$(
        $(#[$doc])*
        pub fn $name($($arg: $ty),*) -> $ret {
            #[cfg(feature = "relaxed-simd")]
            if $crate::wasm::fused() {
                #[target_feature(enable = "relaxed-simd")]
                fn relaxed($($arg: $ty),*) -> $ret {
                    $generic::<$crate::wasm::Relaxed>($($arg),*)
                }
                return relaxed($($arg),*);
            }
            $generic::<$crate::wasm::Plain>($($arg),*)
        }
    )*};
}
pub(crate) use kernels;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kquant::tests::rng;

    fn bytes(v: v128) -> [i8; 16] {
        // SAFETY: v128 and [i8; 16] have the same size; every bit pattern
        // is a value of both
        unsafe { std::mem::transmute(v) }
    }

    fn i32s(v: v128) -> [i32; 4] {
        // SAFETY: as above
        unsafe { std::mem::transmute(v) }
    }

    fn f32s(v: v128) -> [f32; 4] {
        // SAFETY: as above
        unsafe { std::mem::transmute(v) }
    }

    fn check_isa<I: Isa>() {
        let mut next = rng(7);
        for round in 0..2000 {
            let x: [i8; 16] = std::array::from_fn(|_| next() as i8);
            let mut y: [i8; 16] = std::array::from_fn(|_| next() as i8);
            if round % 3 == 0 {
                y = y.map(|v| if v == -128 { 127 } else { v });
            }
            let y = y.map(|v| v.max(-127));
            // SAFETY: same size, every bit pattern is a value
            let (vx, vy): (v128, v128) = unsafe {
                (
                    std::mem::transmute::<[i8; 16], v128>(x),
                    std::mem::transmute::<[i8; 16], v128>(y),
                )
            };
            let u7 = v128_and(vx, i8x16_splat(0x7F));
            let ux = bytes(u7);
            let acc = i32x4(1, -2, 3, 1 << 20);
            let want: [i32; 4] = std::array::from_fn(|j| {
                (4 * j..4 * j + 4)
                    .map(|b| ux[b] as i32 * y[b] as i32)
                    .sum::<i32>()
                    + i32s(acc)[j]
            });
            assert_eq!(i32s(I::dot_u7(u7, vy, acc)), want);
            let want: [i32; 4] = std::array::from_fn(|j| {
                (4 * j..4 * j + 4).map(|b| x[b] as i32 * y[b] as i32).sum()
            });
            assert_eq!(i32s(I::dot_i8(vx, vy)), want);
            let small = v128_and(vx, i8x16_splat(0x1F));
            let sx = bytes(small);
            let want: [i32; 4] = std::array::from_fn(|j| {
                (4 * j..4 * j + 4)
                    .map(|b| (sx[b] as i32 - 16) * y[b] as i32)
                    .sum()
            });
            assert_eq!(i32s(I::dot_off(small, 16, vy)), want);
            // fused multiply-adds on random f32 and on near-ties
            let f = |next: &mut dyn FnMut() -> u32| {
                let e = 100 + next() % 56;
                f32::from_bits((next() & 0x807F_FFFF) | (e << 23))
            };
            let a: [f32; 4] = std::array::from_fn(|_| f(&mut next));
            let b: [f32; 4] = std::array::from_fn(|_| f(&mut next));
            let c: [f32; 4] =
                std::array::from_fn(|i| if i == 0 { -(a[0] * b[0]) } else { f(&mut next) });
            let r = f32s(I::madd(
                f32x4(a[0], a[1], a[2], a[3]),
                f32x4(b[0], b[1], b[2], b[3]),
                f32x4(c[0], c[1], c[2], c[3]),
            ));
            for i in 0..4 {
                let want = crate::attention::fma_via_f64(a[i], b[i], c[i]);
                assert_eq!(r[i].to_bits(), want.to_bits(), "madd {a:?} {b:?} {c:?}");
                assert_eq!(I::fma(a[i], b[i], c[i]).to_bits(), want.to_bits());
            }
            let lanes: [i32; 8] = std::array::from_fn(|_| (next() % 200_001) as i32 - 100_000);
            let d = f(&mut next);
            let mut acc = Acc8(f32x4(a[0], a[1], a[2], a[3]), f32x4(b[0], b[1], b[2], b[3]));
            let before: [f32; 8] = std::array::from_fn(|i| if i < 4 { a[i] } else { b[i - 4] });
            I::fma8(
                &mut acc,
                I::scale(d),
                i32x4(lanes[0], lanes[1], lanes[2], lanes[3]),
                i32x4(lanes[4], lanes[5], lanes[6], lanes[7]),
            );
            let (lo, hi) = (f32s(acc.0), f32s(acc.1));
            for i in 0..8 {
                let got = if i < 4 { lo[i] } else { hi[i - 4] };
                let want = crate::attention::fma_via_f64(d, lanes[i] as f32, before[i]);
                assert_eq!(got.to_bits(), want.to_bits(), "fma8 lane {i}");
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_plain_isa_is_exact() {
        check_isa::<Plain>();
    }

    #[cfg(feature = "relaxed-simd")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_relaxed_isa_is_exact() {
        #[target_feature(enable = "relaxed-simd")]
        fn run() {
            check_isa::<Relaxed>();
        }
        assert!(fused(), "relaxed_madd is not fused on this machine");
        run();
    }
}
