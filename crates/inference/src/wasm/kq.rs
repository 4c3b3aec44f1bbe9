//! The K-quants against `Q8_K` activations: `Q4_K`, `Q5_K`, `Q6_K` by
//! vec_dot (eight f32 lanes), the tiled kernel (one output per
//! super-block step) and the repacked `Q4_K` gemv / gemm, each with the
//! scalar kernel's f32 operations in its order (`crate::kquant::scalar`)
//! and the integer sums in whatever order is fastest (they are exact).
//!
//! A super-block's 256 values are first unpacked to 16 vectors of
//! unsigned bytes in the values' order (chunk `c` holds values
//! `16c..16c + 16`: `0..=15` for `Q4_K`, `0..=31` for `Q5_K`, `0..=63`
//! for `Q6_K`, whose −32 offset is taken out through the activations'
//! block sums), which every kernel then multiplies with
//! [`Isa::dot_u7`].

use super::{h, hsum8, hsum_i32, hsum_i32x4, kernels, load16, load16i, Acc8, Isa};
use crate::kquant::{scales_k4, BlockQ4K, BlockQ5K, BlockQ6K, BlockQ8K};
use core::arch::wasm32::*;

/// A super-block's values, 16 per vector.
type Values = [v128; 16];

#[inline(always)]
fn q4_k_values(x: &BlockQ4K) -> Values {
    let mask = u8x16_splat(0x0F);
    let mut v = [i32x4_splat(0); 16];
    for j in 0..4 {
        for half in 0..2 {
            let q = load16(&x.qs[32 * j + 16 * half..]);
            v[4 * j + half] = v128_and(q, mask);
            v[4 * j + 2 + half] = u8x16_shr(q, 4);
        }
    }
    v
}

#[inline(always)]
fn q5_k_values(x: &BlockQ5K) -> Values {
    let mask = u8x16_splat(0x0F);
    let bit = u8x16_splat(0x10);
    let qh = [load16(&x.qh[..16]), load16(&x.qh[16..])];
    let mut v = [i32x4_splat(0); 16];
    for j in 0..4 {
        for half in 0..2 {
            let q = load16(&x.qs[32 * j + 16 * half..]);
            // bit s of qh[l] is the fifth bit of value 32s + l
            let high = |s: u32| {
                let b = if s <= 4 {
                    i8x16_shl(qh[half], 4 - s)
                } else {
                    u8x16_shr(qh[half], s - 4)
                };
                v128_and(b, bit)
            };
            v[4 * j + half] = v128_or(v128_and(q, mask), high(2 * j as u32));
            v[4 * j + 2 + half] = v128_or(u8x16_shr(q, 4), high(2 * j as u32 + 1));
        }
    }
    v
}

/// `Q6_K` values plus 32 (`0..=63`).
#[inline(always)]
fn q6_k_values(x: &BlockQ6K) -> Values {
    let mask = u8x16_splat(0x0F);
    let two = u8x16_splat(0x30);
    let mut v = [i32x4_splat(0); 16];
    for c in 0..2 {
        for half in 0..2 {
            let qa = load16(&x.ql[64 * c + 16 * half..]);
            let qb = load16(&x.ql[64 * c + 32 + 16 * half..]);
            let qh = load16(&x.qh[32 * c + 16 * half..]);
            // value 128c + 32v + 16·half + b: ql nibble of ql[64c + 32(v & 1)
            // + 16·half + b] (low for v < 2), bits 2v.. of qh as bits 4, 5
            let lows = [
                v128_and(qa, mask),
                v128_and(qb, mask),
                u8x16_shr(qa, 4),
                u8x16_shr(qb, 4),
            ];
            let highs = [
                v128_and(i8x16_shl(qh, 4), two),
                v128_and(i8x16_shl(qh, 2), two),
                v128_and(qh, two),
                v128_and(u8x16_shr(qh, 2), two),
            ];
            for w in 0..4 {
                v[8 * c + 2 * w + half] = v128_or(lows[w], highs[w]);
            }
        }
    }
    v
}

/// `Σ x·y` of values chunk `c` (i32 lanes), added to `acc`.
#[inline(always)]
fn dot_chunk<I: Isa>(v: &Values, y: &BlockQ8K, c: usize, acc: v128) -> v128 {
    I::dot_u7(v[c], load16i(&y.qs[16 * c..]), acc)
}

/// `Σ_s scale[s]·dot(sub-block s)` over the eight 32-value sub-blocks, as
/// i32 lanes to be summed.
#[inline(always)]
fn scaled_dot32<I: Isa>(v: &Values, y: &BlockQ8K, sc: &[i32; 8]) -> v128 {
    let mut tot = i32x4_splat(0);
    for (s, &sc) in sc.iter().enumerate() {
        let t = dot_chunk::<I>(v, y, 2 * s, i32x4_splat(0));
        let t = dot_chunk::<I>(v, y, 2 * s + 1, t);
        tot = i32x4_add(tot, i32x4_mul(t, i32x4_splat(sc)));
    }
    tot
}

/// `Σ_g scale[g]·Σ (q − 32)·y` over the sixteen 16-value groups of a
/// `Q6_K` block: the values' dot minus 32 times the scaled block sums.
#[inline(always)]
fn q6_k_s1<I: Isa>(v: &Values, x: &BlockQ6K, y: &BlockQ8K) -> v128 {
    let mut tot = i32x4_splat(0);
    for c in 0..16 {
        let t = dot_chunk::<I>(v, y, c, i32x4_splat(0));
        tot = i32x4_add(tot, i32x4_mul(t, i32x4_splat(x.scales[c] as i32)));
    }
    let sub: i32 = (0..16)
        .map(|g| x.scales[g] as i32 * y.bsums[g] as i32)
        .sum();
    i32x4_sub(tot, i32x4(sub << 5, 0, 0, 0))
}

/// `Σ min·bsum` of a `Q4_K` / `Q5_K` block against `y`.
#[inline(always)]
fn mins(y: &BlockQ8K, mn: &[i32; 8]) -> i32 {
    (0..8)
        .map(|g| mn[g] * (y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32))
        .sum()
}

// ---- vec_dot (eight f32 lanes) -------------------------------------------

/// The eight i32 lanes ggml's AVX2 vec_dot keeps for a `Q4_K` / `Q5_K`
/// block: lane `j` of each 32-value sub-block `s` (bytes `4j..4j+4` of its
/// two halves) times the sub-block's scale.
#[inline(always)]
fn k4_lanes<I: Isa>(v: &Values, y: &BlockQ8K, sc: &[i32; 8]) -> (v128, v128) {
    let (mut lo, mut hi) = (i32x4_splat(0), i32x4_splat(0));
    for (s, &sc) in sc.iter().enumerate() {
        let sc = i32x4_splat(sc);
        let a = dot_chunk::<I>(v, y, 2 * s, i32x4_splat(0));
        let b = dot_chunk::<I>(v, y, 2 * s + 1, i32x4_splat(0));
        lo = i32x4_add(lo, i32x4_mul(a, sc));
        hi = i32x4_add(hi, i32x4_mul(b, sc));
    }
    (lo, hi)
}

#[inline(always)]
fn q4_k<I: Isa>(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
    let mut acc = Acc8::zero();
    let mut accm = f32x4_splat(0.0);
    for (x, y) in xs.iter().zip(ys) {
        let d = y.d * h(x.d);
        let dmin = -y.d * h(x.dmin);
        let (sc, mn) = scales_k4(&x.scales);
        let s = |g: usize| y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32;
        let p = |t: usize| mn[2 * t] * s(2 * t) + mn[2 * t + 1] * s(2 * t + 1);
        let p = f32x4_convert_i32x4(i32x4(p(0), p(1), p(2), p(3)));
        accm = I::madd(f32x4_splat(dmin), p, accm);
        let (lo, hi) = k4_lanes::<I>(&q4_k_values(x), y, &sc);
        I::fma8(&mut acc, I::scale(d), lo, hi);
    }
    let m = (f32x4_extract_lane::<0>(accm) + f32x4_extract_lane::<2>(accm))
        + (f32x4_extract_lane::<1>(accm) + f32x4_extract_lane::<3>(accm));
    acc.hsum() + m
}

#[inline(always)]
fn q5_k<I: Isa>(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 {
    let mut acc = Acc8::zero();
    let mut summs = 0f32;
    for (x, y) in xs.iter().zip(ys) {
        let d = y.d * h(x.d);
        let dmin = -y.d * h(x.dmin);
        let (sc, mn) = scales_k4(&x.scales);
        summs = I::fma(dmin, mins(y, &mn) as f32, summs);
        let (lo, hi) = k4_lanes::<I>(&q5_k_values(x), y, &sc);
        I::fma8(&mut acc, I::scale(d), lo, hi);
    }
    acc.hsum() + summs
}

#[inline(always)]
fn q6_k<I: Isa>(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 {
    let mut acc = Acc8::zero();
    for (x, y) in xs.iter().zip(ys) {
        let d = y.d * h(x.d);
        let v = q6_k_values(x);
        let (mut lo, mut hi) = (i32x4_splat(0), i32x4_splat(0));
        for c in 0..8 {
            let a = dot_chunk::<I>(&v, y, 2 * c, i32x4_splat(0));
            let b = dot_chunk::<I>(&v, y, 2 * c + 1, i32x4_splat(0));
            lo = i32x4_add(lo, i32x4_mul(a, i32x4_splat(x.scales[2 * c] as i32)));
            hi = i32x4_add(hi, i32x4_mul(b, i32x4_splat(x.scales[2 * c + 1] as i32)));
        }
        // minus 32 · Σ scale·bsum over the values 32·lane..32·lane + 32
        let sub = |lane: usize| {
            (x.scales[2 * lane] as i32 * y.bsums[2 * lane] as i32
                + x.scales[2 * lane + 1] as i32 * y.bsums[2 * lane + 1] as i32)
                << 5
        };
        let lo = i32x4_sub(lo, i32x4(sub(0), sub(1), sub(2), sub(3)));
        let hi = i32x4_sub(hi, i32x4(sub(4), sub(5), sub(6), sub(7)));
        I::fma8(&mut acc, I::scale(d), lo, hi);
    }
    hsum8(acc.0, acc.1)
}

// ---- the repacked Q4_K gemv / gemm (CPU_REPACK q4_K_8x8) -----------------

#[inline(always)]
fn q4_k_repacked<I: Isa>(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
    let (mut acc, mut accm) = (0f32, 0f32);
    for (x, y) in xs.iter().zip(ys) {
        let (sc, mn) = scales_k4(&x.scales);
        let isum = hsum_i32(scaled_dot32::<I>(&q4_k_values(x), y, &sc));
        acc = I::fma(isum as f32, h(x.d) * y.d, acc);
        accm = I::fma(mins(y, &mn) as f32, h(x.dmin) * y.d, accm);
    }
    acc - accm
}

/// The `d` of four activation blocks.
#[inline(always)]
fn dys(y: &[&BlockQ8K; 4]) -> v128 {
    f32x4(y[0].d, y[1].d, y[2].d, y[3].d)
}

#[inline(always)]
fn q4_k_gemm_x4<I: Isa>(xs: &[BlockQ4K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
    let (mut acc, mut accm) = (f32x4_splat(0.0), f32x4_splat(0.0));
    for (b, x) in xs.iter().enumerate() {
        let y: [&BlockQ8K; 4] = std::array::from_fn(|r| &ys[r][b]);
        let dy = dys(&y);
        let dd = f32x4_mul(f32x4_splat(h(x.d)), dy);
        let dm = f32x4_mul(f32x4_splat(h(x.dmin)), dy);
        let (sc, mn) = scales_k4(&x.scales);
        let v = q4_k_values(x);
        for j in 0..4 {
            // sub-blocks 2j and 2j + 1 of each row
            let part: [v128; 4] = std::array::from_fn(|r| {
                let t = |s: usize| {
                    let t = dot_chunk::<I>(&v, y[r], 2 * s, i32x4_splat(0));
                    dot_chunk::<I>(&v, y[r], 2 * s + 1, t)
                };
                i32x4_add(
                    i32x4_mul(t(2 * j), i32x4_splat(sc[2 * j])),
                    i32x4_mul(t(2 * j + 1), i32x4_splat(sc[2 * j + 1])),
                )
            });
            let isum = hsum_i32x4(part[0], part[1], part[2], part[3]);
            let imin: [i32; 4] = std::array::from_fn(|r| {
                let bs = &y[r].bsums[4 * j..4 * j + 4];
                mn[2 * j] * (bs[0] as i32 + bs[1] as i32)
                    + mn[2 * j + 1] * (bs[2] as i32 + bs[3] as i32)
            });
            acc = I::madd(f32x4_convert_i32x4(isum), dd, acc);
            accm = I::madd(
                f32x4_convert_i32x4(i32x4(imin[0], imin[1], imin[2], imin[3])),
                dm,
                accm,
            );
        }
    }
    lanes_of(f32x4_sub(acc, accm))
}

#[inline(always)]
fn lanes_of(v: v128) -> [f32; 4] {
    [
        f32x4_extract_lane::<0>(v),
        f32x4_extract_lane::<1>(v),
        f32x4_extract_lane::<2>(v),
        f32x4_extract_lane::<3>(v),
    ]
}

// ---- the tiled K-quant kernel (ggml-cpu/tiled, 8+ activation rows) -------

/// One super-block step of the tiled kernel's output:
/// `res = fma(−dmin, s2, d·s1)`, `out = fma(res, d_y, out)`.
#[inline(always)]
fn tiled_step<I: Isa>(out: f32, (d, dmin): (f32, f32), s1: i32, s2: i32, dy: f32) -> f32 {
    let res = I::fma(-dmin, s2 as f32, d * s1 as f32);
    I::fma(res, dy, out)
}

/// [`tiled_step`] of four rows at once (each lane a row's own sequence).
#[inline(always)]
fn tiled_step_x4<I: Isa>(out: v128, (d, dmin): (f32, f32), s1: v128, s2: v128, dy: v128) -> v128 {
    let ds1 = f32x4_mul(f32x4_splat(d), f32x4_convert_i32x4(s1));
    let res = I::madd(f32x4_splat(-dmin), f32x4_convert_i32x4(s2), ds1);
    I::madd(res, dy, out)
}

/// What the tiled kernel needs of a K-quant block.
trait Tiled {
    /// The scales (and mins) unpacked once per block.
    type Scales;
    fn values(&self) -> Values;
    fn scales(&self) -> Self::Scales;
    /// `(d, dmin)` of the block.
    fn d(&self) -> (f32, f32);
    /// The `Σ scale·dot` lanes against `y`.
    fn s1<I: Isa>(&self, sc: &Self::Scales, v: &Values, y: &BlockQ8K) -> v128;
    /// `Σ min·bsum` against `y`.
    fn s2(&self, sc: &Self::Scales, y: &BlockQ8K) -> i32;
}

macro_rules! tiled_k4 {
    ($block:ty, $values:ident) => {
        impl Tiled for $block {
            type Scales = ([i32; 8], [i32; 8]);
            #[inline(always)]
            fn values(&self) -> Values {
                $values(self)
            }
            #[inline(always)]
            fn scales(&self) -> Self::Scales {
                scales_k4(&self.scales)
            }
            #[inline(always)]
            fn d(&self) -> (f32, f32) {
                (h(self.d), h(self.dmin))
            }
            #[inline(always)]
            fn s1<I: Isa>(&self, sc: &Self::Scales, v: &Values, y: &BlockQ8K) -> v128 {
                scaled_dot32::<I>(v, y, &sc.0)
            }
            #[inline(always)]
            fn s2(&self, sc: &Self::Scales, y: &BlockQ8K) -> i32 {
                mins(y, &sc.1)
            }
        }
    };
}

tiled_k4!(BlockQ4K, q4_k_values);
tiled_k4!(BlockQ5K, q5_k_values);

impl Tiled for BlockQ6K {
    type Scales = ();
    #[inline(always)]
    fn values(&self) -> Values {
        q6_k_values(self)
    }
    #[inline(always)]
    fn scales(&self) {}
    #[inline(always)]
    fn d(&self) -> (f32, f32) {
        (h(self.d), 0.0)
    }
    #[inline(always)]
    fn s1<I: Isa>(&self, _: &(), v: &Values, y: &BlockQ8K) -> v128 {
        q6_k_s1::<I>(v, self, y)
    }
    #[inline(always)]
    fn s2(&self, _: &(), _: &BlockQ8K) -> i32 {
        0
    }
}

/// One output of the tiled kernel.
#[inline(always)]
fn tiled<X: Tiled, I: Isa>(xs: &[X], ys: &[BlockQ8K]) -> f32 {
    let mut out = 0f32;
    for (x, y) in xs.iter().zip(ys) {
        let sc = x.scales();
        let s1 = hsum_i32(x.s1::<I>(&sc, &x.values(), y));
        out = tiled_step::<I>(out, x.d(), s1, x.s2(&sc, y), y.d);
    }
    out
}

/// Four outputs of the tiled kernel, each block unpacked once.
#[inline(always)]
fn tiled_x4<X: Tiled, I: Isa>(xs: &[X], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
    let mut out = f32x4_splat(0.0);
    for (b, x) in xs.iter().enumerate() {
        let y: [&BlockQ8K; 4] = std::array::from_fn(|r| &ys[r][b]);
        let (v, sc) = (x.values(), x.scales());
        let p: [v128; 4] = std::array::from_fn(|r| x.s1::<I>(&sc, &v, y[r]));
        let s1 = hsum_i32x4(p[0], p[1], p[2], p[3]);
        let s2 = i32x4(
            x.s2(&sc, y[0]),
            x.s2(&sc, y[1]),
            x.s2(&sc, y[2]),
            x.s2(&sc, y[3]),
        );
        out = tiled_step_x4::<I>(out, x.d(), s1, s2, dys(&y));
    }
    lanes_of(out)
}

#[inline(always)]
fn q4_k_tiled<I: Isa>(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
    tiled::<_, I>(xs, ys)
}

#[inline(always)]
fn q5_k_tiled<I: Isa>(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 {
    tiled::<_, I>(xs, ys)
}

#[inline(always)]
fn q6_k_tiled<I: Isa>(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 {
    tiled::<_, I>(xs, ys)
}

#[inline(always)]
fn q4_k_tiled_x4<I: Isa>(xs: &[BlockQ4K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
    tiled_x4::<_, I>(xs, ys)
}

#[inline(always)]
fn q5_k_tiled_x4<I: Isa>(xs: &[BlockQ5K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
    tiled_x4::<_, I>(xs, ys)
}

#[inline(always)]
fn q6_k_tiled_x4<I: Isa>(xs: &[BlockQ6K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
    tiled_x4::<_, I>(xs, ys)
}

kernels! {
    /// `Q4_K · Q8_K` (vec_dot).
    pub fn dot_q4_k(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 = q4_k;
    /// `Q5_K · Q8_K` (vec_dot).
    pub fn dot_q5_k(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 = q5_k;
    /// `Q6_K · Q8_K` (vec_dot).
    pub fn dot_q6_k(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 = q6_k;
    /// One output of the repacked `Q4_K` gemv.
    pub fn dot_q4_k_repacked(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 = q4_k_repacked;
    /// Four outputs of the repacked `Q4_K` gemm.
    pub fn dot4_q4_k_repacked_gemm(xs: &[BlockQ4K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] = q4_k_gemm_x4;
    /// One output of the tiled `Q4_K` kernel.
    pub fn dot_q4_k_tiled(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 = q4_k_tiled;
    /// One output of the tiled `Q5_K` kernel.
    pub fn dot_q5_k_tiled(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 = q5_k_tiled;
    /// One output of the tiled `Q6_K` kernel.
    pub fn dot_q6_k_tiled(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 = q6_k_tiled;
    /// Four outputs of the tiled `Q4_K` kernel.
    pub fn dot4_q4_k_tiled(xs: &[BlockQ4K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] = q4_k_tiled_x4;
    /// Four outputs of the tiled `Q5_K` kernel.
    pub fn dot4_q5_k_tiled(xs: &[BlockQ5K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] = q5_k_tiled_x4;
    /// Four outputs of the tiled `Q6_K` kernel.
    pub fn dot4_q6_k_tiled(xs: &[BlockQ6K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] = q6_k_tiled_x4;
}
