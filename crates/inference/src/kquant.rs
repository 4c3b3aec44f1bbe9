//! The weight types beyond `Q4_0` / `Q4_1` / `Q8_0`: `Q5_0`, `Q5_1`, the
//! K-quants `Q4_K`, `Q5_K`, `Q6_K`, and the float types `F16`, `BF16`,
//! `F32`, multiplied as llama.cpp's AVX2 CPU build multiplies them.
//!
//! # Which code path llama.cpp takes (commit 0c1e570, AVX2 + FMA + F16C, no AVX-512)
//!
//! `ggml_compute_forward_mul_mat` is reached only when no extra buffer type
//! claims the op. llama-model-loader's `weight_buft_supported` puts a
//! weight into the CPU device's extra buffer type `CPU_REPACK` when that
//! buffer's `supports_op` accepts a `MUL_MAT` with it, which on AVX2 is
//! (`ggml_repack_get_optimal_repack_type`): `Q4_0` with rows % 8 == 0
//! (`q4_0_8x8_q8_0`), `Q4_K` with rows % 8 == 0 (`q4_K_8x8_q8_K`),
//! `IQ4_NL` and `MXFP4`. `Q5_K`, `Q6_K`, `Q8_0`, `Q5_0`, `Q4_1`, `Q5_1` and
//! the float types are not repacked on x86 (`Q8_0` only on NEON / RISC-V,
//! `Q2_K` only with AVX-512). A token embedding is used by `GET_ROWS`,
//! which the repack buffer does not support; Gemma 3's tied output matrix
//! is `Q8_0`, never repacked on x86.
//!
//! * Repacked weights (`repack.cpp` `forward_mul_mat`, every m): activation
//!   rows in groups of four are quantized by `ggml_quantize_mat_q8_0_4x8` /
//!   `ggml_quantize_mat_q8_K_4x8` and go through `ggml_gemm_*`, the `m % 4`
//!   rows left over by the row quantizer (`quantize_row_q8_0` /
//!   `quantize_row_q8_K`) and `ggml_gemv_*`. Each output is one f32 lane
//!   (no 8-lane tree): `acc = fma(float(isum), d_w · d_a, acc)` over exact
//!   integer dots, for `Q4_K` with a second lane `accm = fma(float(Σ
//!   min·bsum), dmin_w · d_a, accm)` and the result `acc − accm`. The
//!   `Q4_0` gemv and gemm both take one FMA per 32-value block; the `Q4_K`
//!   gemv one per super-block, its gemm one per pair of 32-value sub-blocks
//!   (four per super-block). The interleaved `Q8_K` quantizer picks the
//!   sign of the scale differently when a block's largest |x| occurs both
//!   as +a and −a (it takes +a, `quantize_row_q8_K_ref` the first one);
//!   the `Q8_0` one gives the same blocks as the row quantizer.
//! * The tiled K-quant kernel (ggml-cpu/tiled, `GGML_CPU_TILED_MM`, on by
//!   default): `ggml_compute_forward_mul_mat` hands `Q4_K` (not repacked),
//!   `Q5_K` and `Q6_K` (and other K / IQ types) to it first when there are
//!   at least 8 activation rows. Activations by `quantize_row_q8_K`; per
//!   super-block the exact `s1 = Σ scale·dot`, `s2 = Σ min·bsum`, then
//!   `res = fma(−dmin_w, s2, d_w · s1)` and `out = fma(res, d_a, out)` (its
//!   AVX2 microtile's epilogue).
//! * `GGML_USE_LLAMAFILE`: `llamafile_sgemm` runs only for `m ≥ 2`
//!   activation rows (`n < 2` refuses). On AVX2 it takes `F32` (k % 8 == 0
//!   and rows % 4 == 0, else it refuses), `F16` and `BF16` against
//!   activations converted to f16 / bf16 (same conditions), and `Q8_0`,
//!   `Q4_0`, `Q5_0`, `IQ4_NL` against `Q8_0` (`tinyBLAS_Q0_AVX`, any
//!   shape). tinyBLAS's float dot is eight FMA lanes over k and
//!   `hsum`; its quantized one is `fma(d_w·d_a, lanes, acc)` per block and
//!   the same `hsum`, the arithmetic of `ggml_vec_dot_q*_q8_0`, so `Q5_0`
//!   gives the same bits either way.
//! * Everything else (among them K-quants with m < 8): `ggml_vec_dot_*`
//!   from arch/x86/quants.c (quantized)
//!   or vec.cpp (`ggml_vec_dot_f16` / `_bf16` / `_f32`), activations
//!   converted by the type's `from_float`: `quantize_row_q8_K` on x86 is
//!   only the generic `quantize_row_q8_K_ref` (`nearest_int`, round half to
//!   even; `d = 1/iscale`), f16 by F16C (round to nearest even), bf16 by
//!   `ggml_compute_fp32_to_bf16`.
//!
//! The build compiles with GCC 12 `-O3 -mfma` in GNU C, so
//! `-ffp-contract=fast` fuses some scalar `a*b + c` (checked in the
//! disassembly): `summs += m·s` of `Q4_1` / `Q5_1` and `summs += dmin·Σ` of
//! `Q5_K` are FMAs, and so is `ggml_vec_dot_bf16`'s `mul` + `add`; the
//! 1..3 tail values of `ggml_vec_dot_f32` are FMAs while the vectorised
//! groups of 4 and 8 before them are rounded products added in order.
//!
//! Every dot here has a scalar version that fixes this arithmetic; the
//! AVX2 ones in [`crate::simd_k`] must give the same bits.

use crate::attention::hsum8;
use crate::quant::BlockQ8;
use half::f16;

/// Values per K-quant super-block.
pub const QK_K: usize = 256;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct BlockQ5_0 {
    pub d: u16,
    pub qh: [u8; 4],
    pub qs: [u8; 16],
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct BlockQ5_1 {
    pub d: u16,
    pub m: u16,
    pub qh: [u8; 4],
    pub qs: [u8; 16],
}

#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct BlockQ4K {
    pub d: u16,
    pub dmin: u16,
    pub scales: [u8; 12],
    pub qs: [u8; 128],
}

#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct BlockQ5K {
    pub d: u16,
    pub dmin: u16,
    pub scales: [u8; 12],
    pub qh: [u8; 32],
    pub qs: [u8; 128],
}

#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct BlockQ6K {
    pub ql: [u8; 128],
    pub qh: [u8; 64],
    pub scales: [i8; 16],
    pub d: u16,
}

/// An activation super-block quantized to ggml's `Q8_K`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockQ8K {
    pub d: f32,
    pub qs: [i8; QK_K],
    pub bsums: [i16; 16],
}

impl Default for BlockQ8K {
    fn default() -> Self {
        BlockQ8K {
            d: 0.0,
            qs: [0; QK_K],
            bsums: [0; 16],
        }
    }
}

#[inline(always)]
pub(crate) fn h(bits: u16) -> f32 {
    f16::from_bits(bits).to_f32()
}

#[inline(always)]
pub(crate) fn bf(bits: u16) -> f32 {
    f32::from_bits((bits as u32) << 16)
}

/// `ggml_compute_fp32_to_bf16`: round to nearest even, NaN kept quiet.
#[inline(always)]
pub(crate) fn to_bf16(x: f32) -> u16 {
    let u = x.to_bits();
    if u & 0x7fff_ffff > 0x7f80_0000 {
        return ((u >> 16) | 64) as u16;
    }
    ((u + (0x7fff + ((u >> 16) & 1))) >> 16) as u16
}

/// `fmaf(a, b, c)`: the FMA instruction natively; in wasm32 the software
/// `fmaf` behind `mul_add` (exact too).
#[inline(always)]
pub(crate) fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// ggml's `nearest_int`: round half to even through the 1.5·2^23 trick.
#[inline(always)]
fn nearest_int(x: f32) -> i32 {
    let v = x + 12_582_912.0;
    (v.to_bits() & 0x007f_ffff) as i32 - 0x0040_0000
}

fn bsums(b: &mut BlockQ8K) {
    for (g, s) in b.bsums.iter_mut().enumerate() {
        *s = b.qs[16 * g..16 * g + 16].iter().map(|&q| q as i16).sum();
    }
}

/// `quantize_row_q8_K_ref` (what x86's `quantize_row_q8_K` runs) of one
/// row; `xs.len()` is a multiple of [`QK_K`].
pub(crate) fn quantize_q8k(xs: &[f32], out: &mut Vec<BlockQ8K>) {
    for x in xs.chunks_exact(QK_K) {
        let mut b = BlockQ8K::default();
        let (mut amax, mut max) = (0f32, 0f32);
        for &v in x {
            if v.abs() > amax {
                amax = v.abs();
                max = v;
            }
        }
        if amax != 0.0 {
            let iscale = -127.0 / max;
            for (q, &v) in b.qs.iter_mut().zip(x) {
                *q = nearest_int(iscale * v).min(127) as i8;
            }
            bsums(&mut b);
            b.d = 1.0 / iscale;
        }
        out.push(b);
    }
}

/// `ggml_quantize_mat_q8_K_4x8` (AVX2) of one row: as
/// [`quantize_q8k`] but the scale's sign is that of +amax whenever +amax
/// occurs, and `_mm256_round_ps` rounds (half to even, as `nearest_int`).
pub(crate) fn quantize_q8k_x4(xs: &[f32], out: &mut Vec<BlockQ8K>) {
    for x in xs.chunks_exact(QK_K) {
        let mut b = BlockQ8K::default();
        let amax = x.iter().fold(0f32, |a, &v| a.max(v.abs()));
        let positive = x.contains(&amax);
        let iscale = if amax == 0.0 {
            0.0
        } else if positive {
            -127.0 / amax
        } else {
            127.0 / amax
        };
        b.d = if amax != 0.0 { 1.0 / iscale } else { 0.0 };
        for (q, &v) in b.qs.iter_mut().zip(x) {
            *q = nearest_int(v * iscale).clamp(-128, 127) as i8;
        }
        bsums(&mut b);
        out.push(b);
    }
}

/// The 6-bit scales and mins of a `Q4_K` / `Q5_K` block
/// (`get_scale_min_k4`).
#[inline(always)]
pub(crate) fn scales_k4(s: &[u8; 12]) -> ([i32; 8], [i32; 8]) {
    let mut sc = [0i32; 8];
    let mut mn = [0i32; 8];
    for j in 0..8 {
        if j < 4 {
            sc[j] = (s[j] & 63) as i32;
            mn[j] = (s[j + 4] & 63) as i32;
        } else {
            sc[j] = ((s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4)) as i32;
            mn[j] = ((s[j + 4] >> 4) | ((s[j] >> 6) << 4)) as i32;
        }
    }
    (sc, mn)
}

/// Value `i` (0..32) of a 5-bit block, without its offset.
#[inline(always)]
fn q5(qs: &[u8; 16], qh: u32, i: usize) -> i32 {
    let lo = if i < 16 {
        qs[i] & 0x0F
    } else {
        qs[i - 16] >> 4
    };
    (lo as i32) | ((((qh >> i) & 1) as i32) << 4)
}

/// The eight i32 lanes `maddubs` + `madd` leave of one 32-value block.
#[inline(always)]
fn lanes(x: impl Fn(usize) -> i32, y: &[i8; 32]) -> [f32; 8] {
    std::array::from_fn(|j| (4 * j..4 * j + 4).map(|b| x(b) * y[b] as i32).sum::<i32>() as f32)
}

/// Dequantization, as ggml-base's `dequantize_row_*` (no FMA) and gguf-py.
pub(crate) mod dequant {
    use super::*;

    pub fn q5_0(b: &[BlockQ5_0], out: &mut [f32]) {
        for (x, o) in b.iter().zip(out.chunks_exact_mut(32)) {
            let d = h(x.d);
            let qh = u32::from_le_bytes(x.qh);
            for (i, o) in o.iter_mut().enumerate() {
                *o = (q5(&x.qs, qh, i) - 16) as f32 * d;
            }
        }
    }

    pub fn q5_1(b: &[BlockQ5_1], out: &mut [f32]) {
        for (x, o) in b.iter().zip(out.chunks_exact_mut(32)) {
            let (d, m) = (h(x.d), h(x.m));
            let qh = u32::from_le_bytes(x.qh);
            for (i, o) in o.iter_mut().enumerate() {
                *o = q5(&x.qs, qh, i) as f32 * d + m;
            }
        }
    }

    pub fn q4_k(b: &[BlockQ4K], out: &mut [f32]) {
        for (x, o) in b.iter().zip(out.chunks_exact_mut(QK_K)) {
            let (d, dmin) = (h(x.d), h(x.dmin));
            let (sc, mn) = scales_k4(&x.scales);
            for j in 0..4 {
                let (d1, m1) = (d * sc[2 * j] as f32, dmin * mn[2 * j] as f32);
                let (d2, m2) = (d * sc[2 * j + 1] as f32, dmin * mn[2 * j + 1] as f32);
                for l in 0..32 {
                    let q = x.qs[32 * j + l];
                    o[64 * j + l] = d1 * (q & 0xF) as f32 - m1;
                    o[64 * j + 32 + l] = d2 * (q >> 4) as f32 - m2;
                }
            }
        }
    }

    pub fn q5_k(b: &[BlockQ5K], out: &mut [f32]) {
        for (x, o) in b.iter().zip(out.chunks_exact_mut(QK_K)) {
            let (d, dmin) = (h(x.d), h(x.dmin));
            let (sc, mn) = scales_k4(&x.scales);
            for j in 0..4 {
                let (d1, m1) = (d * sc[2 * j] as f32, dmin * mn[2 * j] as f32);
                let (d2, m2) = (d * sc[2 * j + 1] as f32, dmin * mn[2 * j + 1] as f32);
                for l in 0..32 {
                    let q = x.qs[32 * j + l];
                    let h1 = ((x.qh[l] >> (2 * j)) & 1) << 4;
                    let h2 = ((x.qh[l] >> (2 * j + 1)) & 1) << 4;
                    o[64 * j + l] = d1 * ((q & 0xF) | h1) as f32 - m1;
                    o[64 * j + 32 + l] = d2 * ((q >> 4) | h2) as f32 - m2;
                }
            }
        }
    }

    pub fn q6_k(b: &[BlockQ6K], out: &mut [f32]) {
        for (x, o) in b.iter().zip(out.chunks_exact_mut(QK_K)) {
            let d = h(x.d);
            for (i, o) in o.iter_mut().enumerate() {
                *o = d * x.scales[i / 16] as f32 * super::q6(x, i) as f32;
            }
        }
    }
}

/// Value `i` (0..256) of a `Q6_K` block, −32..31.
#[inline(always)]
fn q6(x: &BlockQ6K, i: usize) -> i32 {
    let (c, r) = (i / 128, i % 128);
    let (v, b) = (r / 32, r % 32);
    let ql = x.ql[64 * c + b + 32 * (v & 1)];
    let lo = if v < 2 { ql & 0xF } else { ql >> 4 };
    let hi = (x.qh[32 * c + b] >> (2 * v)) & 3;
    ((lo | (hi << 4)) as i32) - 32
}

/// Scalar dots in the AVX2 build's order.
pub(crate) mod scalar {
    use super::*;

    /// `ggml_vec_dot_q5_0_q8_0` (and tinyBLAS's `Q5_0` block dot).
    pub fn q5_0(xs: &[BlockQ5_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = [0f32; 8];
        for (x, y) in xs.iter().zip(ys) {
            let qh = u32::from_le_bytes(x.qh);
            let l = lanes(|b| q5(&x.qs, qh, b) - 16, &y.qs);
            let d = h(x.d) * y.d;
            for (a, &l) in acc.iter_mut().zip(&l) {
                *a = fma(d, l, *a);
            }
        }
        hsum8(&acc)
    }

    /// `ggml_vec_dot_q5_1_q8_1`.
    pub fn q5_1(xs: &[BlockQ5_1], ys: &[BlockQ8]) -> f32 {
        let mut acc = [0f32; 8];
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            summs = fma(h(x.m), y.s, summs);
            let qh = u32::from_le_bytes(x.qh);
            let l = lanes(|b| q5(&x.qs, qh, b), &y.qs);
            let d = h(x.d) * y.d;
            for (a, &l) in acc.iter_mut().zip(&l) {
                *a = fma(l, d, *a);
            }
        }
        hsum8(&acc) + summs
    }

    /// `ggml_gemv_q4_0_8x8_q8_0` / `ggml_gemm_q4_0_8x8_q8_0` for one output.
    pub fn q4_0_repacked(xs: &[crate::quant::BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let mut s = 0i32;
            for j in 0..16 {
                s += ((x.qs[j] & 0xF) as i32 - 8) * y.qs[j] as i32;
                s += ((x.qs[j] >> 4) as i32 - 8) * y.qs[j + 16] as i32;
            }
            acc = fma(s as f32, h(x.d) * y.d, acc);
        }
        acc
    }

    /// The integer parts of a `Q4_K` block against a `Q8_K` one: the
    /// scaled dot and `Σ min·bsum`.
    #[inline(always)]
    pub(crate) fn q4_k_ints(x: &BlockQ4K, y: &BlockQ8K) -> (i32, i32) {
        let (sc, mn) = scales_k4(&x.scales);
        let (mut isum, mut imin) = (0i32, 0i32);
        for j in 0..4 {
            let (mut lo, mut hi) = (0i32, 0i32);
            for l in 0..32 {
                let q = x.qs[32 * j + l];
                lo += (q & 0xF) as i32 * y.qs[64 * j + l] as i32;
                hi += (q >> 4) as i32 * y.qs[64 * j + 32 + l] as i32;
            }
            isum += sc[2 * j] * lo + sc[2 * j + 1] * hi;
            let b = &y.bsums[4 * j..4 * j + 4];
            imin += mn[2 * j] * (b[0] as i32 + b[1] as i32)
                + mn[2 * j + 1] * (b[2] as i32 + b[3] as i32);
        }
        (isum, imin)
    }

    /// `ggml_gemv_q4_K_8x8_q8_K` / `ggml_gemm_q4_K_8x8_q8_K` for one output.
    pub fn q4_k_repacked(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        let (mut acc, mut accm) = (0f32, 0f32);
        for (x, y) in xs.iter().zip(ys) {
            let (isum, imin) = q4_k_ints(x, y);
            acc = fma(isum as f32, h(x.d) * y.d, acc);
            accm = fma(imin as f32, h(x.dmin) * y.d, accm);
        }
        acc - accm
    }

    /// `ggml_gemm_q4_K_8x8_q8_K` (AVX2) for one output: the FMAs run per
    /// pair of 32-value sub-blocks, four per super-block.
    pub fn q4_k_repacked_gemm(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        let (mut acc, mut accm) = (0f32, 0f32);
        for (x, y) in xs.iter().zip(ys) {
            let (dd, dm) = (h(x.d) * y.d, h(x.dmin) * y.d);
            let (sc, mn) = scales_k4(&x.scales);
            for j in 0..4 {
                let (mut lo, mut hi) = (0i32, 0i32);
                for l in 0..32 {
                    let q = x.qs[32 * j + l];
                    lo += (q & 0xF) as i32 * y.qs[64 * j + l] as i32;
                    hi += (q >> 4) as i32 * y.qs[64 * j + 32 + l] as i32;
                }
                let b = &y.bsums[4 * j..4 * j + 4];
                let imin = mn[2 * j] * (b[0] as i32 + b[1] as i32)
                    + mn[2 * j + 1] * (b[2] as i32 + b[3] as i32);
                acc = fma((sc[2 * j] * lo + sc[2 * j + 1] * hi) as f32, dd, acc);
                accm = fma(imin as f32, dm, accm);
            }
        }
        acc - accm
    }

    /// The tiled K-quant kernel (ggml-cpu/tiled, AVX2 microtile) for one
    /// output, from each super-block's exact `Σ scale·dot` and
    /// `Σ min·bsum`: `res = d·s1`, `res = fma(−dmin, s2, res)`,
    /// `out = fma(res, d_y, out)`.
    pub fn tiled(ints: impl Iterator<Item = (f32, f32, i32, i32, f32)>) -> f32 {
        let mut out = 0f32;
        for (d, dmin, s1, s2, dy) in ints {
            let res = fma(-dmin, s2 as f32, d * s1 as f32);
            out = fma(res, dy, out);
        }
        out
    }

    pub fn q4_k_tiled(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        tiled(xs.iter().zip(ys).map(|(x, y)| {
            let (s1, s2) = q4_k_ints(x, y);
            (h(x.d), h(x.dmin), s1, s2, y.d)
        }))
    }

    pub fn q5_k_tiled(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 {
        tiled(xs.iter().zip(ys).map(|(x, y)| {
            let (sc, mn) = scales_k4(&x.scales);
            let (mut s1, mut s2) = (0i32, 0i32);
            for s in 0..8 {
                let (j, hi) = (s / 2, s % 2);
                let mut raw = 0i32;
                for l in 0..32 {
                    let q = x.qs[32 * j + l];
                    let v = if hi == 0 { q & 0xF } else { q >> 4 } as i32;
                    let v = v | ((((x.qh[l] >> s) & 1) as i32) << 4);
                    raw += v * y.qs[32 * s + l] as i32;
                }
                s1 += sc[s] * raw;
                s2 += mn[s] * (y.bsums[2 * s] as i32 + y.bsums[2 * s + 1] as i32);
            }
            (h(x.d), h(x.dmin), s1, s2, y.d)
        }))
    }

    pub fn q6_k_tiled(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 {
        tiled(xs.iter().zip(ys).map(|(x, y)| {
            let mut s1 = 0i32;
            for g in 0..16 {
                let mut raw = 0i32;
                for i in 16 * g..16 * g + 16 {
                    raw += q6(x, i) * y.qs[i] as i32;
                }
                s1 += x.scales[g] as i32 * raw;
            }
            (h(x.d), 0.0, s1, 0, y.d)
        }))
    }

    /// `ggml_vec_dot_q4_K_q8_K` (weights that are not repacked).
    pub fn q4_k(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        let mut acc = [0f32; 8];
        let mut accm = [0f32; 4];
        for (x, y) in xs.iter().zip(ys) {
            let d = y.d * h(x.d);
            let dmin = -y.d * h(x.dmin);
            let (sc, mn) = scales_k4(&x.scales);
            for (t, a) in accm.iter_mut().enumerate() {
                let s = |g: usize| y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32;
                let p = mn[2 * t] * s(2 * t) + mn[2 * t + 1] * s(2 * t + 1);
                *a = fma(dmin, p as f32, *a);
            }
            let mut sumi = [0i32; 8];
            for j in 0..4 {
                for (lane, s) in sumi.iter_mut().enumerate() {
                    let (mut lo, mut hi) = (0i32, 0i32);
                    for b in 4 * lane..4 * lane + 4 {
                        let q = x.qs[32 * j + b];
                        lo += (q & 0xF) as i32 * y.qs[64 * j + b] as i32;
                        hi += (q >> 4) as i32 * y.qs[64 * j + 32 + b] as i32;
                    }
                    *s += sc[2 * j] * lo + sc[2 * j + 1] * hi;
                }
            }
            for (a, &s) in acc.iter_mut().zip(&sumi) {
                *a = fma(d, s as f32, *a);
            }
        }
        let m = (accm[0] + accm[2]) + (accm[1] + accm[3]);
        hsum8(&acc) + m
    }

    /// `ggml_vec_dot_q5_K_q8_K`.
    pub fn q5_k(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 {
        let mut acc = [0f32; 8];
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let d = y.d * h(x.d);
            let dmin = -y.d * h(x.dmin);
            let (sc, mn) = scales_k4(&x.scales);
            let mut m = 0i32;
            for (g, &mn) in mn.iter().enumerate() {
                m += mn * (y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32);
            }
            summs = fma(dmin, m as f32, summs);
            let mut sumi = [0i32; 8];
            for j in 0..4 {
                for (lane, s) in sumi.iter_mut().enumerate() {
                    let (mut lo, mut hi) = (0i32, 0i32);
                    for b in 4 * lane..4 * lane + 4 {
                        let q = x.qs[32 * j + b];
                        let h1 = (((x.qh[b] >> (2 * j)) & 1) << 4) as i32;
                        let h2 = (((x.qh[b] >> (2 * j + 1)) & 1) << 4) as i32;
                        lo += ((q & 0xF) as i32 | h1) * y.qs[64 * j + b] as i32;
                        hi += ((q >> 4) as i32 | h2) * y.qs[64 * j + 32 + b] as i32;
                    }
                    *s += sc[2 * j] * lo + sc[2 * j + 1] * hi;
                }
            }
            for (a, &s) in acc.iter_mut().zip(&sumi) {
                *a = fma(d, s as f32, *a);
            }
        }
        hsum8(&acc) + summs
    }

    /// `ggml_vec_dot_q6_K_q8_K`.
    pub fn q6_k(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 {
        let mut acc = [0f32; 8];
        for (x, y) in xs.iter().zip(ys) {
            let d = y.d * h(x.d);
            let mut sumi = [0i32; 8];
            for (lane, s) in sumi.iter_mut().enumerate() {
                // values y with (y % 32) / 4 == lane, unsigned 0..63
                for c in 0..8 {
                    for b in 4 * lane..4 * lane + 4 {
                        let i = 32 * c + b;
                        *s += x.scales[i / 16] as i32 * (q6(x, i) + 32) * y.qs[i] as i32;
                    }
                }
                // minus 32 · Σ scale·bsum over values 32·lane..32·lane+32
                let sub = x.scales[2 * lane] as i32 * y.bsums[2 * lane] as i32
                    + x.scales[2 * lane + 1] as i32 * y.bsums[2 * lane + 1] as i32;
                *s -= sub << 5;
            }
            for (a, &s) in acc.iter_mut().zip(&sumi) {
                *a = fma(d, s as f32, *a);
            }
        }
        hsum8(&acc)
    }

    /// `GGML_F32x8_REDUCE` of four 8-lane accumulators.
    #[inline(always)]
    pub fn reduce4(s: &[[f32; 8]; 4]) -> f32 {
        let x: [f32; 8] = std::array::from_fn(|l| (s[0][l] + s[2][l]) + (s[1][l] + s[3][l]));
        let t: [f32; 4] = std::array::from_fn(|i| x[i] + x[i + 4]);
        (t[0] + t[1]) + (t[2] + t[3])
    }

    /// `ggml_vec_dot_f16` / `ggml_vec_dot_bf16` (AVX2): four FMA
    /// accumulators over 32-value steps, the reduction, then the tail's
    /// f32 products summed in f64.
    pub fn vec_dot_half(x: &[u16], y: &[u16], cvt: fn(u16) -> f32, bf16_tree: bool) -> f32 {
        let np = x.len() & !31;
        let mut s = [[0f32; 8]; 4];
        for (cx, cy) in x[..np].chunks_exact(32).zip(y[..np].chunks_exact(32)) {
            for (r, acc) in s.iter_mut().enumerate() {
                for (l, a) in acc.iter_mut().enumerate() {
                    *a = fma(cvt(cx[8 * r + l]), cvt(cy[8 * r + l]), *a);
                }
            }
        }
        // ggml_vec_dot_bf16 reduces (c1+c3)+(c2+c4), halves, then
        // (g0+g2)+(g1+g3); ggml_vec_dot_f16 GGML_F32x8_REDUCE
        let mut sum = if bf16_tree {
            let c: [f32; 8] = std::array::from_fn(|l| (s[0][l] + s[2][l]) + (s[1][l] + s[3][l]));
            hsum8(&c)
        } else {
            reduce4(&s)
        } as f64;
        for (&a, &b) in x[np..].iter().zip(&y[np..]) {
            sum += (cvt(a) * cvt(b)) as f64;
        }
        sum as f32
    }

    /// `ggml_vec_dot_f32` (AVX2) as GCC compiled it.
    pub fn vec_dot_f32(x: &[f32], y: &[f32]) -> f32 {
        let np = x.len() & !31;
        let mut s = [[0f32; 8]; 4];
        for (cx, cy) in x[..np].chunks_exact(32).zip(y[..np].chunks_exact(32)) {
            for (r, acc) in s.iter_mut().enumerate() {
                for (l, a) in acc.iter_mut().enumerate() {
                    *a = fma(cx[8 * r + l], cy[8 * r + l], *a);
                }
            }
        }
        f32_tail(reduce4(&s), x, y, np, fma)
    }

    /// `ggml_vec_dot_f32`'s values from `np` on, after the 32-value steps'
    /// sum: the vectorised tail's rounded products in groups of 8 and 4,
    /// added in order; the last `n % 4` values fused.
    #[inline(always)]
    pub(crate) fn f32_tail(
        mut sum: f32,
        x: &[f32],
        y: &[f32],
        np: usize,
        fma: impl Fn(f32, f32, f32) -> f32,
    ) -> f32 {
        let n = x.len();
        let fused = n - (n - np) % 4;
        for i in np..n {
            sum = if i < fused {
                sum + x[i] * y[i]
            } else {
                fma(x[i], y[i], sum)
            };
        }
        sum
    }

    /// tinyBLAS's float dot (`k` a multiple of 8): eight FMA lanes, `hsum`.
    pub fn tinyblas<T: Copy>(x: &[T], y: &[T], cvt: impl Fn(T) -> f32) -> f32 {
        let mut acc = [0f32; 8];
        for (cx, cy) in x.chunks_exact(8).zip(y.chunks_exact(8)) {
            for l in 0..8 {
                acc[l] = fma(cvt(cx[l]), cvt(cy[l]), acc[l]);
            }
        }
        hsum8(&acc)
    }
}

/// Block dots that run AVX2 where the CPU has it (`crate::simd_k::x86`
/// checks at run time and falls back to the scalar one itself) and the
/// scalar kernel of the same arithmetic elsewhere.
macro_rules! dots {
    ($($(#[$doc:meta])* $name:ident = $kernel:ident ($x:ty, $y:ty);)*) => {$(
        $(#[$doc])*
        pub(crate) fn $name(xs: &[$x], ys: &[$y]) -> f32 {
            #[cfg(target_arch = "x86_64")]
            return crate::simd_k::x86::$name(xs, ys);
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            return crate::wasm::$name(xs, ys);
            #[allow(unreachable_code)]
            scalar::$kernel(xs, ys)
        }
    )*};
}

dots! {
    /// `Q5_1 · Q8_1`.
    dot_q5_1 = q5_1(BlockQ5_1, BlockQ8);
    /// One output of the repacked `Q4_0` kernels.
    dot_q4_0_repacked = q4_0_repacked(crate::quant::BlockQ4_0, BlockQ8);
    /// One output of the repacked `Q4_K` gemv.
    dot_q4_k_repacked = q4_k_repacked(BlockQ4K, BlockQ8K);
    /// `Q4_K · Q8_K` (vec_dot).
    dot_q4_k = q4_k(BlockQ4K, BlockQ8K);
    /// `Q5_K · Q8_K` (vec_dot).
    dot_q5_k = q5_k(BlockQ5K, BlockQ8K);
    /// `Q6_K · Q8_K` (vec_dot).
    dot_q6_k = q6_k(BlockQ6K, BlockQ8K);
    /// One output of the tiled `Q4_K` kernel.
    dot_q4_k_tiled = q4_k_tiled(BlockQ4K, BlockQ8K);
    /// One output of the tiled `Q5_K` kernel.
    dot_q5_k_tiled = q5_k_tiled(BlockQ5K, BlockQ8K);
    /// One output of the tiled `Q6_K` kernel.
    dot_q6_k_tiled = q6_k_tiled(BlockQ6K, BlockQ8K);
}

/// `Q5_0 · Q8_0`: AVX2 where the CPU has it, `simd128` in wasm, else the
/// scalar kernel (all the same arithmetic).
pub(crate) fn dot_q5_0(xs: &[BlockQ5_0], ys: &[BlockQ8]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    return crate::simd_k::x86::dot_q5_0(xs, ys);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::wasm::dot_q5_0(xs, ys);
    #[allow(unreachable_code)]
    scalar::q5_0(xs, ys)
}

/// Four-row dots: one weight row against four activation rows, each
/// output bit for bit the single-row kernel's (the weight's unpacking is
/// shared; AVX2 where the CPU has it).
macro_rules! dots4 {
    ($($(#[$doc:meta])* $name:ident = $kernel:ident ($x:ty, $y:ty);)*) => {$(
        $(#[$doc])*
        pub(crate) fn $name(xs: &[$x], ys: [&[$y]; 4]) -> [f32; 4] {
            #[cfg(target_arch = "x86_64")]
            return crate::simd_k::x86::$name(xs, ys);
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            return crate::wasm::$name(xs, ys);
            #[allow(unreachable_code)]
            ys.map(|y| scalar::$kernel(xs, y))
        }
    )*};
}

dots4! {
    /// Four outputs of the repacked `Q4_K` gemm (`ggml_gemm_q4_K_8x8_q8_K`).
    dot4_q4_k_repacked_gemm = q4_k_repacked_gemm(BlockQ4K, BlockQ8K);
    /// Four [`dot_q4_k_tiled`]s.
    dot4_q4_k_tiled = q4_k_tiled(BlockQ4K, BlockQ8K);
    /// Four [`dot_q5_k_tiled`]s.
    dot4_q5_k_tiled = q5_k_tiled(BlockQ5K, BlockQ8K);
    /// Four [`dot_q6_k_tiled`]s.
    dot4_q6_k_tiled = q6_k_tiled(BlockQ6K, BlockQ8K);
}

/// `Q5_0 · Q8_0` of one weight row against four activation rows, each as
/// [`dot_q5_0`] computes it.
pub(crate) fn dot4_q5_0(xs: &[BlockQ5_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
    #[cfg(target_arch = "x86_64")]
    return crate::simd_k::x86::dot4_q5_0(xs, ys);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::wasm::dot4_q5_0(xs, ys);
    #[allow(unreachable_code)]
    ys.map(|y| dot_q5_0(xs, y))
}

/// `ggml_vec_dot_f16` (or `_bf16`) of one row pair.
pub(crate) fn vec_dot_half(x: &[u16], y: &[u16], bf16: bool) -> f32 {
    #[cfg(target_arch = "x86_64")]
    return crate::simd_k::x86::vec_dot_half(x, y, bf16);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::wasm::dot_vec_half(x, y, bf16);
    #[allow(unreachable_code)]
    scalar::vec_dot_half(x, y, if bf16 { bf } else { h }, bf16)
}

/// tinyBLAS's f16 (or bf16) dot of one row pair.
pub(crate) fn tinyblas_half(x: &[u16], y: &[u16], bf16: bool) -> f32 {
    #[cfg(target_arch = "x86_64")]
    return crate::simd_k::x86::tinyblas_half(x, y, bf16);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::wasm::dot_tinyblas_half(x, y, bf16);
    #[allow(unreachable_code)]
    scalar::tinyblas(x, y, if bf16 { bf } else { h })
}

/// `ggml_vec_dot_f32` of one row pair (`simd128` in wasm; natively the
/// scalar kernel: no shipped model multiplies F32 matrices).
pub(crate) fn vec_dot_f32(x: &[f32], y: &[f32]) -> f32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::wasm::dot_vec_f32(x, y);
    #[allow(unreachable_code)]
    scalar::vec_dot_f32(x, y)
}

/// tinyBLAS's f32 dot of one row pair (`k` a multiple of 8).
pub(crate) fn tinyblas_f32(x: &[f32], y: &[f32]) -> f32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return crate::wasm::dot_tinyblas_f32(x, y);
    #[allow(unreachable_code)]
    scalar::tinyblas(x, y, |v| v)
}

/// The `Q8_K` blocks of `m` rows of `k` values; with `interleaved`, the
/// rows in whole groups of four as the repack path quantizes them.
fn quantize_rows_k(lhs: &[f32], m: usize, k: usize, interleaved: bool) -> Vec<BlockQ8K> {
    let mut ys = Vec::with_capacity(m * k / QK_K);
    let grouped = if interleaved { m - m % 4 } else { 0 };
    for i in 0..m {
        let row = &lhs[i * k..(i + 1) * k];
        if i < grouped {
            quantize_q8k_x4(row, &mut ys);
        } else {
            quantize_q8k(row, &mut ys);
        }
    }
    ys
}

/// `ggml_tiled_min_batch`: the tiled K-quant kernel takes `MUL_MAT`s of at
/// least this many activation rows (`GGML_CPU_TILED_MM` on, the default).
const TILED_MIN_ROWS: usize = 8;

/// A `Q8_K`-activation dot: one row pair, or one weight row against four
/// activation rows.
type DotK<X> = fn(&[X], &[BlockQ8K]) -> f32;
type Dot4K<X> = fn(&[X], [&[BlockQ8K]; 4]) -> [f32; 4];

/// The `MUL_MAT` of a K-quant that is not repacked (`Q5_K`, `Q6_K`):
/// vec_dot below [`TILED_MIN_ROWS`] activation rows, else the tiled kernel
/// with its four-row version.
fn plain_k<X: Sync>(
    b: &[X],
    (m, k, n): (usize, usize, usize),
    lhs: &[f32],
    dst: &mut [f32],
    (vec_dot, tiled_dot, tiled_dot4): (DotK<X>, DotK<X>, Dot4K<X>),
) {
    use crate::quant::{tiled, tiled4};
    let kb = k / QK_K;
    let ys = quantize_rows_k(lhs, m, k, false);
    let x = |j: usize| &b[j * kb..(j + 1) * kb];
    let y = |i: usize| &ys[i * kb..(i + 1) * kb];
    if m >= TILED_MIN_ROWS {
        tiled4(
            m,
            n,
            dst,
            |j, i| tiled_dot(x(j), y(i)),
            |j, i| tiled_dot4(x(j), std::array::from_fn(|r| y(i + r))),
        )
    } else {
        tiled(m, n, dst, |j, i| vec_dot(x(j), y(i)))
    }
}

/// The K-quant and float kinds' `MUL_MAT`, on the path llama.cpp takes.
pub(crate) fn matmul(
    w: &crate::quant::Blocks<'_>,
    (m, k, n): (usize, usize, usize),
    lhs: &[f32],
    dst: &mut [f32],
) {
    use crate::quant::{tiled, tiled4, Blocks};
    let kb = k / QK_K;
    // llamafile_sgemm's float tinyBLAS: m ≥ 2, k % 8 == 0, rows % 4 == 0
    let tinyblas = m >= 2 && k.is_multiple_of(8) && n.is_multiple_of(4);
    // the activation rows `i..i + 4` of `ys`
    fn four(ys: &[BlockQ8K], kb: usize, i: usize) -> [&[BlockQ8K]; 4] {
        std::array::from_fn(|r| &ys[(i + r) * kb..(i + r + 1) * kb])
    }
    match *w {
        Blocks::Q4K(b) => {
            // CPU_REPACK's q4_K_8x8: rows in fours through the gemm, the
            // rest through the gemv; else the tiled kernel for m ≥ 8
            let repacked = n.is_multiple_of(8);
            let ys = quantize_rows_k(lhs, m, k, repacked);
            let x = |j: usize| &b[j * kb..(j + 1) * kb];
            let y = |i: usize| &ys[i * kb..(i + 1) * kb];
            let tiled_k = m >= TILED_MIN_ROWS;
            tiled4(
                m,
                n,
                dst,
                |j, i| {
                    if repacked {
                        dot_q4_k_repacked(x(j), y(i))
                    } else if tiled_k {
                        dot_q4_k_tiled(x(j), y(i))
                    } else {
                        dot_q4_k(x(j), y(i))
                    }
                },
                |j, i| {
                    if repacked {
                        dot4_q4_k_repacked_gemm(x(j), four(&ys, kb, i))
                    } else if tiled_k {
                        dot4_q4_k_tiled(x(j), four(&ys, kb, i))
                    } else {
                        four(&ys, kb, i).map(|y| dot_q4_k(x(j), y))
                    }
                },
            )
        }
        Blocks::Q5K(b) => plain_k(
            b,
            (m, k, n),
            lhs,
            dst,
            (dot_q5_k, dot_q5_k_tiled, dot4_q5_k_tiled),
        ),
        Blocks::Q6K(b) => plain_k(
            b,
            (m, k, n),
            lhs,
            dst,
            (dot_q6_k, dot_q6_k_tiled, dot4_q6_k_tiled),
        ),
        Blocks::F16(b) => {
            let ys: Vec<u16> = lhs[..m * k]
                .iter()
                .map(|&x| f16::from_f32(x).to_bits())
                .collect();
            tiled(m, n, dst, |j, i| {
                let (x, y) = (&b[j * k..(j + 1) * k], &ys[i * k..(i + 1) * k]);
                if tinyblas {
                    tinyblas_half(x, y, false)
                } else {
                    vec_dot_half(x, y, false)
                }
            })
        }
        Blocks::BF16(b) => {
            let ys: Vec<u16> = lhs[..m * k].iter().map(|&x| to_bf16(x)).collect();
            tiled(m, n, dst, |j, i| {
                let (x, y) = (&b[j * k..(j + 1) * k], &ys[i * k..(i + 1) * k]);
                if tinyblas {
                    tinyblas_half(x, y, true)
                } else {
                    vec_dot_half(x, y, true)
                }
            })
        }
        Blocks::F32(b) => tiled(m, n, dst, |j, i| {
            let (x, y) = (&b[j * k..(j + 1) * k], &lhs[i * k..(i + 1) * k]);
            if tinyblas {
                tinyblas_f32(x, y)
            } else {
                vec_dot_f32(x, y)
            }
        }),
        _ => unreachable!("kquant::matmul of a 32-value block kind"),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::quant::{quantize_q8, Kind};

    /// A xorshift32 stream (the tests' random blocks).
    pub(crate) fn rng(seed: u32) -> impl FnMut() -> u32 {
        let mut x = seed.max(1);
        move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        }
    }

    /// `n` blocks of `kind` as random bytes with sane f16 scales at
    /// `scales` (byte offsets in a block).
    fn blocks(kind: Kind, n: usize, seed: u32) -> Vec<u8> {
        let mut next = rng(seed);
        let bb = kind.block_bytes();
        let scales: &[usize] = match kind {
            Kind::Q5_0 | Kind::Q4_0 => &[0],
            Kind::Q5_1 | Kind::Q4_K | Kind::Q5_K => &[0, 2],
            Kind::Q6_K => &[208],
            _ => &[],
        };
        let mut out: Vec<u8> = (0..n * bb).map(|_| next() as u8).collect();
        for b in 0..n {
            for &o in scales {
                let v = 0.0005 + (next() % 1000) as f32 / 80_000.0;
                let v = if o == 2 && next().is_multiple_of(4) {
                    -v
                } else {
                    v
                };
                out[b * bb + o..b * bb + o + 2].copy_from_slice(&f16::from_f32(v).to_le_bytes());
            }
        }
        out
    }

    fn activations(n: usize, seed: u32) -> Vec<f32> {
        let mut next = rng(seed);
        (0..n)
            .map(|_| (next() % 20_001) as f32 / 5_000.0 - 2.0)
            .collect()
    }

    fn aligned(bytes: &[u8]) -> (Vec<u8>, usize) {
        let mut v = vec![0u8; bytes.len() + 4];
        let o = v.as_ptr().align_offset(4);
        v[o..o + bytes.len()].copy_from_slice(bytes);
        (v, o)
    }

    #[test]
    fn block_structs_have_ggmls_sizes() {
        assert_eq!(std::mem::size_of::<BlockQ5_0>(), Kind::Q5_0.block_bytes());
        assert_eq!(std::mem::size_of::<BlockQ5_1>(), Kind::Q5_1.block_bytes());
        assert_eq!(std::mem::size_of::<BlockQ4K>(), Kind::Q4_K.block_bytes());
        assert_eq!(std::mem::size_of::<BlockQ5K>(), Kind::Q5_K.block_bytes());
        assert_eq!(std::mem::size_of::<BlockQ6K>(), Kind::Q6_K.block_bytes());
    }

    #[test]
    fn q8k_quantizers_differ_only_in_the_sign_of_a_tied_maximum() {
        let mut x = activations(2 * QK_K, 3);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        quantize_q8k(&x, &mut a);
        quantize_q8k_x4(&x, &mut b);
        for (a, b) in a.iter().zip(&b) {
            assert_eq!(a.d.to_bits(), b.d.to_bits());
            assert_eq!(a.qs, b.qs);
            assert_eq!(a.bsums, b.bsums);
        }
        // -3 first, then +3: the row quantizer takes -3, the 4x8 one +3
        x[10] = -3.0;
        x[20] = 3.0;
        let (mut a, mut b) = (Vec::new(), Vec::new());
        quantize_q8k(&x, &mut a);
        quantize_q8k_x4(&x, &mut b);
        assert_eq!(a[0].d, -b[0].d);
        assert_eq!(a[0].qs[10], -127);
        assert_eq!(b[0].qs[10], 127);
        assert_eq!(a[0].bsums[0], -b[0].bsums[0]);
    }

    /// The AVX2 dots (where the CPU has them) equal the scalar ones bit for
    /// bit on random blocks.
    #[test]
    fn simd_dots_agree_with_the_scalar_arithmetic() {
        check_simd_dots();
    }

    /// The same in wasm: the simd128 kernels (and, in the `relaxed-simd`
    /// build, the relaxed ones) equal the scalar ones.
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_simd_dots_agree_with_the_scalar_arithmetic() {
        check_simd_dots();
    }

    fn check_simd_dots() {
        let nb = 8;
        let x = activations(nb * QK_K, 11);
        let mut y8 = Vec::new();
        quantize_q8(&x, &mut y8);
        let (mut yk, mut yk4) = (Vec::new(), Vec::new());
        quantize_q8k(&x, &mut yk);
        quantize_q8k_x4(&x, &mut yk4);
        for seed in 1..=12 {
            let n32 = nb * QK_K / 32;
            macro_rules! check {
                ($kind:expr, $n:expr, $ty:ty, $fast:path, $slow:path, $ys:expr) => {{
                    let (v, o) = aligned(&blocks($kind, $n, seed));
                    let b: &[$ty] =
                        crate::quant::cast_blocks(&v[o..o + $n * $kind.block_bytes()]).unwrap();
                    let (f, s) = ($fast(b, $ys), $slow(b, $ys));
                    assert_eq!(
                        f.to_bits(),
                        s.to_bits(),
                        "{:?} seed {seed}: {f} vs {s}",
                        $kind
                    );
                }};
            }
            check!(Kind::Q5_0, n32, BlockQ5_0, dot_q5_0, scalar::q5_0, &y8);
            check!(Kind::Q5_1, n32, BlockQ5_1, dot_q5_1, scalar::q5_1, &y8);
            check!(
                Kind::Q4_0,
                n32,
                crate::quant::BlockQ4_0,
                dot_q4_0_repacked,
                scalar::q4_0_repacked,
                &y8
            );
            check!(
                Kind::Q4_K,
                nb,
                BlockQ4K,
                dot_q4_k_repacked,
                scalar::q4_k_repacked,
                &yk4
            );
            check!(Kind::Q4_K, nb, BlockQ4K, dot_q4_k, scalar::q4_k, &yk);
            check!(Kind::Q5_K, nb, BlockQ5K, dot_q5_k, scalar::q5_k, &yk);
            check!(Kind::Q6_K, nb, BlockQ6K, dot_q6_k, scalar::q6_k, &yk);
            check!(
                Kind::Q4_K,
                nb,
                BlockQ4K,
                dot_q4_k_tiled,
                scalar::q4_k_tiled,
                &yk
            );
            check!(
                Kind::Q5_K,
                nb,
                BlockQ5K,
                dot_q5_k_tiled,
                scalar::q5_k_tiled,
                &yk
            );
            check!(
                Kind::Q6_K,
                nb,
                BlockQ6K,
                dot_q6_k_tiled,
                scalar::q6_k_tiled,
                &yk
            );
        }
        // the four-row kernels against four single-row scalar dots
        let rows: Vec<(Vec<BlockQ8K>, Vec<BlockQ8K>)> = (0..4)
            .map(|r| {
                let x = activations(nb * QK_K, 20 + r);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                quantize_q8k(&x, &mut a);
                quantize_q8k_x4(&x, &mut b);
                (a, b)
            })
            .collect();
        let plain: [&[BlockQ8K]; 4] = std::array::from_fn(|r| &rows[r].0[..]);
        let grouped: [&[BlockQ8K]; 4] = std::array::from_fn(|r| &rows[r].1[..]);
        for seed in 1..=6 {
            macro_rules! check4 {
                ($kind:expr, $ty:ty, $four:path, $slow:path, $ys:expr) => {{
                    let (v, o) = aligned(&blocks($kind, nb, seed));
                    let b: &[$ty] =
                        crate::quant::cast_blocks(&v[o..o + nb * $kind.block_bytes()]).unwrap();
                    let f = $four(b, $ys);
                    for r in 0..4 {
                        let s = $slow(b, $ys[r]);
                        assert_eq!(
                            f[r].to_bits(),
                            s.to_bits(),
                            "{:?} seed {seed} row {r}",
                            $kind
                        );
                    }
                }};
            }
            check4!(
                Kind::Q4_K,
                BlockQ4K,
                dot4_q4_k_repacked_gemm,
                scalar::q4_k_repacked_gemm,
                grouped
            );
            check4!(
                Kind::Q4_K,
                BlockQ4K,
                dot4_q4_k_tiled,
                scalar::q4_k_tiled,
                plain
            );
            check4!(
                Kind::Q5_K,
                BlockQ5K,
                dot4_q5_k_tiled,
                scalar::q5_k_tiled,
                plain
            );
            check4!(
                Kind::Q6_K,
                BlockQ6K,
                dot4_q6_k_tiled,
                scalar::q6_k_tiled,
                plain
            );
        }
        for n in [32 * 20, 1004, 8 * 37, 1003] {
            let a = activations(n, 5);
            let b = activations(n, 6);
            let (f, s) = (vec_dot_f32(&a, &b), scalar::vec_dot_f32(&a, &b));
            assert_eq!(f.to_bits(), s.to_bits(), "vec_dot f32 n={n}");
            let (f, s) = (tinyblas_f32(&a, &b), scalar::tinyblas(&a, &b, |v| v));
            assert_eq!(f.to_bits(), s.to_bits(), "tinyBLAS f32 n={n}");
            for bf16 in [false, true] {
                let cvt = if bf16 { bf } else { h };
                let enc = |v: &[f32]| -> Vec<u16> {
                    v.iter()
                        .map(|&x| {
                            if bf16 {
                                to_bf16(x)
                            } else {
                                f16::from_f32(x).to_bits()
                            }
                        })
                        .collect()
                };
                let (x, y) = (enc(&a), enc(&b));
                let (f, s) = (
                    vec_dot_half(&x, &y, bf16),
                    scalar::vec_dot_half(&x, &y, cvt, bf16),
                );
                assert_eq!(f.to_bits(), s.to_bits(), "vec_dot bf16={bf16} n={n}");
                if n % 8 == 0 {
                    let (f, s) = (tinyblas_half(&x, &y, bf16), scalar::tinyblas(&x, &y, cvt));
                    assert_eq!(f.to_bits(), s.to_bits(), "tinyBLAS bf16={bf16} n={n}");
                }
            }
        }
    }
}

/// In wasm: every kind's `matmul` (the wasm kernels of this build)
/// against the llama.cpp goldens, as
/// tests/kernel_goldens.rs checks natively.
#[cfg(all(test, target_arch = "wasm32"))]
mod wasm_tests {
    use crate::quant::{self, Kind};
    use std::io::Read;

    const MATMUL: &[u8] = include_bytes!("../tests/golden/kernels/matmul.bin.gz");

    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_matmul_equals_llama_cpp() {
        let mut data = Vec::new();
        flate2::read::GzDecoder::new(MATMUL)
            .read_to_end(&mut data)
            .unwrap();
        let mut at = 0;
        let mut take = |n: usize| {
            at += n;
            &data[at - n..at]
        };
        let u = |b: &[u8]| u32::from_le_bytes(b.try_into().unwrap()) as usize;
        let f = |b: &[u8]| -> Vec<f32> {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                .collect()
        };
        assert_eq!(take(4), b"PSKM");
        assert_eq!(u(take(4)), 1);
        let mut lhs = std::collections::HashMap::new();
        for _ in 0..u(take(4)) {
            let k = u(take(4));
            lhs.insert(k, f(take(32 * k)));
        }
        let mut checked = 0;
        for _ in 0..u(take(4)) {
            let kind = Kind::from_ggml(u(take(4)) as u32).unwrap();
            let (k, n) = (u(take(4)), u(take(4)));
            let ms: Vec<usize> = (0..u(take(4))).map(|_| u(take(4))).collect();
            let wb = u(take(4));
            let bytes = take(wb);
            let mut store = vec![0u8; wb + 4];
            let o = store.as_ptr().align_offset(4);
            store[o..o + wb].copy_from_slice(bytes);
            for m in ms {
                let want = f(take(4 * m * n));
                let mut got = vec![0f32; m * n];
                quant::matmul(kind, &store[o..o + wb], (m, k, n), &lhs[&k], &mut got).unwrap();
                for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(a.to_bits(), b.to_bits(), "{kind:?} k={k} n={n} m={m} [{i}]");
                }
                checked += 1;
            }
        }
        assert!(checked >= 4 * quant::KINDS.len());
    }
}
