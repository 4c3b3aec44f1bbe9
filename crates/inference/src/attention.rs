//! Attention with llama.cpp's CPU arithmetic, operation for operation.
//!
//! SmolLM2-class models quantize every activation to int8 before each
//! matrix product, so a difference of one ulp in an attention output can
//! move an int8 value across a rounding boundary and the logits by tenths.
//! Greedy decoding only agrees with llama.cpp when attention is computed in
//! the same order. This module reproduces ggml-cpu's non-flash-attention
//! path as built for x86-64 with AVX2 and FMA (the build the goldens were
//! recorded with: its `ggml_v_expf` is the AVX2 one), on every machine and
//! in wasm, in plain scalar code:
//!
//! - RoPE as `ggml_rope` (`rotate_pairs`, with GCC's contraction of
//!   `x0·cos − x1·sin` into one fused multiply-add), on the rope cache
//!   computed in [`crate::decoder`];
//! - K and V stored in an f16 cache; Q and the attention weights rounded to
//!   f16 before their products (ggml converts `src1` to `vec_dot_type`);
//! - `K·Q` and `V·P`: for a batch of two or more tokens llamafile's tinyBLAS
//!   (8 lanes, fused multiply-add per lane over the reduction, then its
//!   `hsum`); for one token `ggml_vec_dot_f16` (four 8-lane accumulators,
//!   combined pairwise, then `GGML_F32x8_REDUCE`'s `hadd`s);
//! - softmax as `ggml_soft_max_ext`: scale, mask, `ggml_v_expf`'s
//!   polynomial, 8-value chunk sums accumulated in f64, multiply by the
//!   f32 reciprocal;
//! - SwiGLU as `ggml_vec_swiglu_f32` and RMS norm as
//!   `ggml_compute_forward_rms_norm_f32` (squares summed in f64, in order);
//! - GeGLU (the Gemmas) as `ggml_vec_geglu_f32` with `GGML_GELU_FP16`,
//!   which vec.h always defines: the GELU is looked up in ggml's 65536-entry
//!   f16 table at `f16(x)` (0 below -10, `x` above 10), a table this module
//!   builds to the same bits (checked against a digest of llama.cpp's);
//! - Gemma 2's attention soft-cap (`tanhf(K·Q · (1/c)) · c` before the
//!   softmax) and the sliding window of local layers (`p1 - p0 >= n`
//!   masked, llama.cpp's standard SWA), the positions keeping their places
//!   in the sums.

use half::f16;

const LANES: usize = 8;
/// llama.cpp pads the KV view to a multiple of 256 cells; the padding only
/// adds zeros, but it decides where `ggml_vec_dot_f16` stops.
const KV_PAD: usize = 256;

/// A fused multiply-add, `a·b + c` rounded once, as the AVX2 build's
/// `vfmadd` computes it. Natively `f32::mul_add` (the FMA instruction where
/// the CPU has it); in wasm32, which has no scalar FMA and where
/// `mul_add` is a slow software `fmaf`, [`fma_via_f64`].
trait FusedMulAdd {
    fn fmadd(self, b: f32, c: f32) -> f32;
}

impl FusedMulAdd for f32 {
    #[inline(always)]
    fn fmadd(self, b: f32, c: f32) -> f32 {
        #[cfg(target_arch = "wasm32")]
        {
            fma_via_f64(self, b, c)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.mul_add(b, c)
        }
    }
}

/// `fmaf(a, b, c)` exactly, in f64: the product of two f32 is exact in
/// f64; the sum is rounded to odd (TwoSum's error decides the last bit)
/// and then to f32, which is the correctly rounded result because f64 has
/// more than 24 + 2 bits (Boldo and Melquiond's round-to-odd).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)]
pub(crate) fn fma_via_f64(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let c = c as f64;
    let s = p + c;
    if !s.is_finite() {
        return s as f32;
    }
    // TwoSum: p + c = s + e exactly
    let bp = s - p;
    let e = (p - (s - bp)) + (c - bp);
    let bits = s.to_bits();
    let odd = if e != 0.0 && bits & 1 == 0 {
        // one ulp toward the exact sum (s is not 0: a 0 sum is exact)
        f64::from_bits(if (e > 0.0) == (s > 0.0) {
            bits + 1
        } else {
            bits - 1
        })
    } else {
        s
    };
    odd as f32
}

#[inline(always)]
fn f16r(x: f32) -> f32 {
    f16::from_f32(x).to_f32()
}

/// tinyBLAS's `hsum(__m256)`, ggml's softmax chunk sum and its
/// `hsum_float_8` (the quantized dots' end): high half plus low half, then
/// `(a0 + a2) + (a1 + a3)`.
#[inline(always)]
pub(crate) fn hsum8(v: &[f32; LANES]) -> f32 {
    let a: [f32; 4] = std::array::from_fn(|i| v[i + 4] + v[i]);
    (a[0] + a[2]) + (a[1] + a[3])
}

/// tinyBLAS's dot product of `k` values (`k` a multiple of 8).
#[inline(always)]
fn dot_tinyblas(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    for (ca, cb) in a.chunks_exact(LANES).zip(b.chunks_exact(LANES)) {
        for l in 0..LANES {
            acc[l] = ca[l].fmadd(cb[l], acc[l]);
        }
    }
    hsum8(&acc)
}

/// `ggml_vec_dot_f16` (AVX2): four 8-lane accumulators over the first
/// multiple of 32 values, `(s0+s2)+(s1+s3)`, then `GGML_F32x8_REDUCE`'s
/// halves and two `hadd`s into an f64 sum, to which the leftover values'
/// f32 products are added in f64 (a head of 16 or 80 values has them),
/// then rounded to f32.
#[inline(always)]
fn dot_vec_f16(a: &[f32], b: &[f32]) -> f32 {
    let mut s = [[0f32; LANES]; 4];
    for (ca, cb) in a.chunks_exact(4 * LANES).zip(b.chunks_exact(4 * LANES)) {
        for ((acc, ca), cb) in s
            .iter_mut()
            .zip(ca.chunks_exact(LANES))
            .zip(cb.chunks_exact(LANES))
        {
            for ((a, &x), &y) in acc.iter_mut().zip(ca).zip(cb) {
                *a = x.fmadd(y, *a);
            }
        }
    }
    let n = a.len().min(b.len());
    let np = n / (4 * LANES) * (4 * LANES);
    let mut sum = reduce_vec_f16(&s) as f64;
    for i in np..n {
        sum += (a[i] * b[i]) as f64;
    }
    sum as f32
}

/// The end of `ggml_vec_dot_f16`: `GGML_F32x8_REDUCE` of four accumulators.
#[inline(always)]
fn reduce_vec_f16(s: &[[f32; LANES]; 4]) -> f32 {
    let x: [f32; LANES] = std::array::from_fn(|l| (s[0][l] + s[2][l]) + (s[1][l] + s[3][l]));
    let t: [f32; 4] = std::array::from_fn(|i| x[i] + x[i + 4]);
    ((t[0] + t[1]) + (t[2] + t[3])) as f64 as f32
}

#[inline(always)]
fn swiglu_impl(x: &[f32], g: &[f32]) -> Vec<f32> {
    // A plain loop, not an iterator chain: a closure inlined into core's
    // generic `fold` is compiled without the caller's FMA feature, and
    // each of `v_expf`'s fused multiply-adds became a libm call.
    let n = x.len().min(g.len());
    let body = x.len() / LANES * LANES;
    let mut out = vec![0f32; n];
    for i in 0..n {
        let x = x[i];
        let e = if i < body {
            v_expf(0.0 - x)
        } else {
            (-x).exp()
        };
        out[i] = x / (1.0 + e) * g[i];
    }
    out
}

/// `tanhf`, as ggml's `ggml_vec_tanh_f32` calls it (the C library's; Rust's
/// `f32::tanh` is the same call natively).
#[inline(always)]
pub(crate) fn tanhf(x: f32) -> f32 {
    x.tanh()
}

/// ggml's `ggml_gelu_f32`, as the AVX2 build compiles it (GCC contracts
/// `1 + a·x·x` into one fused multiply-add), with `tanhf` correctly rounded
/// (computed in f64): for every f16 input, its f16 rounding is the entry of
/// llama.cpp's table (see the test).
#[inline(always)]
fn gelu_f32(x: f32) -> f32 {
    const GELU_COEF_A: f32 = 0.044715;
    const SQRT_2_OVER_PI: f32 = 0.797_884_6;
    let inner = (GELU_COEF_A * x).fmadd(x, 1.0);
    let t = ((SQRT_2_OVER_PI * x * inner) as f64).tanh() as f32;
    0.5 * x * (1.0 + t)
}

fn gelu_table_impl() -> Vec<u16> {
    (0..=u16::MAX)
        .map(|h| {
            let x = f16::from_bits(h).to_f32();
            if x.is_finite() || x == f32::INFINITY {
                f16::from_f32(gelu_f32(x)).to_bits()
            } else {
                // NaN in, and -inf (-inf · 0): the x86 build's quiet NaN,
                // with the input's sign (NaN bits are not portable)
                (h & 0x8000) | 0x7e00
            }
        })
        .collect()
}

/// ggml-cpu's `ggml_table_gelu_f16`: `f16(gelu(x))` for every f16 `x`,
/// which its GELU and GeGLU look values up in (`GGML_GELU_FP16`).
pub(crate) fn gelu_table() -> &'static [u16] {
    use std::sync::OnceLock;
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        if has_fma() {
            // SAFETY: the CPU has FMA (checked above).
            return unsafe { gelu_table_fma() };
        }
        gelu_table_impl()
    })
}

/// `ggml_vec_geglu_f32` (with `GGML_GELU_FP16`): `gelu(x) · g`, the GELU
/// looked up in the f16 table at `f16(x)`, 0 for `x ≤ -10`, `x` itself for
/// `x ≥ 10`.
pub(crate) fn geglu(x: &[f32], g: &[f32], out: &mut Vec<f32>) {
    let table = gelu_table();
    out.extend(x.iter().zip(g).map(|(&x, &g)| {
        if x <= -10.0 {
            0.0
        } else if x >= 10.0 {
            x * g
        } else {
            f16::from_bits(table[f16::from_f32(x).to_bits() as usize]).to_f32() * g
        }
    }));
}

/// `ggml_v_expf` (AVX2 build), one lane: a degree-5 polynomial on the
/// reduced argument, scaled by building the exponent's bits.
#[inline(always)]
pub(crate) fn v_expf(x: f32) -> f32 {
    let r = 12_582_912.0f32;
    let z = x.fmadd(f32::from_bits(0x3fb8_aa3b), r);
    let n = z - r;
    let b = (-n).fmadd(
        f32::from_bits(0x35bf_be8e),
        (-n).fmadd(f32::from_bits(0x3f31_7200), x),
    );
    let e = z.to_bits() << 23;
    let k = f32::from_bits(e.wrapping_add(1f32.to_bits()));
    let c = n.abs() > 126.0;
    let u = b * b;
    let j = (f32::from_bits(0x3c07_2010).fmadd(b, f32::from_bits(0x3d2b_9f17)))
        .fmadd(
            u,
            f32::from_bits(0x3e2a_af33).fmadd(b, f32::from_bits(0x3eff_fedb)),
        )
        .fmadd(u, f32::from_bits(0x3f7f_fff6) * b);
    if !c {
        return j.fmadd(k, k);
    }
    let g: u32 = if n <= 0.0 { 0x8200_0000 } else { 0 };
    let s1 = f32::from_bits(g.wrapping_add(0x7f00_0000));
    let s2 = f32::from_bits(e.wrapping_sub(g));
    if n.abs() > 192.0 {
        s1 * s1
    } else {
        s2.fmadd(j, s2) * s1
    }
}

/// `ggml_rms_norm` then `ggml_mul` by the weight, row by row: squares
/// summed in f64 in order, `1/sqrt(mean + eps)` in f32.
pub(crate) fn rms_norm(x: &[f32], w: &[f32], eps: f32) -> Vec<f32> {
    let n = w.len();
    let mut out = Vec::with_capacity(x.len());
    for row in x.chunks_exact(n) {
        let sum: f64 = row.iter().map(|&v| (v * v) as f64).sum();
        let mean = (sum / n as f64) as f32;
        let scale = 1.0 / (mean + eps).sqrt();
        out.extend(row.iter().zip(w).map(|(&v, &w)| (v * scale) * w));
    }
    out
}

#[inline(always)]
fn rope_impl(x: &mut [f32], cos: &[f32], sin: &[f32], neox: bool) {
    let half = x.len() / 2;
    for i in 0..half {
        let (a, b) = if neox {
            (i, i + half)
        } else {
            (2 * i, 2 * i + 1)
        };
        let (x0, x1) = (x[a], x[b]);
        x[a] = x0.fmadd(cos[i], -(x1 * sin[i]));
        x[b] = x0.fmadd(sin[i], x1 * cos[i]);
    }
}

/// One layer's f16 KV cache, as f32 values: `[position][kv head][dim]`.
#[derive(Default)]
pub(crate) struct KvCache {
    k: Vec<f32>,
    v: Vec<f32>,
}

impl KvCache {
    pub fn clear(&mut self) {
        self.k.clear();
        self.v.clear();
    }
}

/// Shapes and arithmetic of one attention call.
pub(crate) struct Dims {
    pub n_head: usize,
    pub n_kv_head: usize,
    pub head_dim: usize,
    /// `ggml_soft_max_ext`'s scale of `K·Q` (`1/√d` for llama; 1 for the
    /// Gemmas, whose queries are scaled before the product).
    pub kq_scale: f32,
    /// Gemma 2's attention logit soft-cap `c`: `K·Q` becomes
    /// `tanh(K·Q · (1/c)) · c` before the softmax.
    pub softcap: Option<f32>,
    /// A sliding window of `n` positions (llama.cpp's `LLAMA_SWA_TYPE_STANDARD`):
    /// a query at position `p1` sees `p0` only when `p1 - p0 < n`.
    pub window: Option<usize>,
}

#[inline(always)]
fn attend_impl(
    cache: &mut KvCache,
    d: &Dims,
    pos: usize,
    q: &[f32],
    k: &[f32],
    v: &[f32],
) -> Vec<f32> {
    let (nh, nkv, hd) = (d.n_head, d.n_kv_head, d.head_dim);
    let n = q.len() / (nh * hd);
    cache.k.extend(k.iter().map(|&x| f16r(x)));
    cache.v.extend(v.iter().map(|&x| f16r(x)));
    let total = pos + n;
    let n_kv = total.div_ceil(KV_PAD) * KV_PAD;
    let scale = d.kq_scale;
    let cap = d.softcap.map(|c| (c, 1.0 / c));
    let window = d.window.unwrap_or(usize::MAX);
    let batch = n >= 2;
    let group = nh / nkv;
    let mut out = vec![0f32; n * nh * hd];
    let mut scores = vec![0f32; n_kv];
    let mut qh = vec![0f32; hd];
    // accumulators of V·P: [block][lane][dim] (one block for tinyBLAS),
    // each (block, lane)'s dims contiguous so that a position's update is
    // one vector loop over the head's dims
    let mut acc = vec![0f32; 4 * LANES * hd];
    for h in 0..nh {
        let g = h / group;
        for t in 0..n {
            let qoff = (t * nh + h) * hd;
            for (dst, &x) in qh.iter_mut().zip(&q[qoff..qoff + hd]) {
                *dst = f16r(x);
            }
            let last = pos + t; // the last position this token sees
                                // Positions past `last` are masked: their weight is 0 and they
                                // add nothing to any sum, so the loops stop at the first
                                // multiple of 32 (the widest stride of the orders reproduced).
                                // A sliding window masks the positions `window` or more before
                                // `last` as well; a cell's place in the sums stays its position.
            let span = (last + 1).div_ceil(32) * 32;
            let first = (last + 1).saturating_sub(window);
            let scores = &mut scores[..span];
            // K·Q, soft-capped, scaled, masked
            for (i, s) in scores.iter_mut().enumerate() {
                if i > last || i < first {
                    *s = f32::NEG_INFINITY;
                    continue;
                }
                let koff = (i * nkv + g) * hd;
                let krow = &cache.k[koff..koff + hd];
                let mut dot = if batch {
                    dot_tinyblas(krow, &qh)
                } else {
                    dot_vec_f16(krow, &qh)
                };
                if let Some((c, inv)) = cap {
                    dot = tanhf(dot * inv) * c;
                }
                *s = dot * scale + 0.0;
            }
            // softmax
            let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0f64;
            let mut chunk = [0f32; LANES];
            for c in scores.chunks_exact_mut(LANES) {
                for (o, s) in chunk.iter_mut().zip(c.iter_mut()) {
                    *s = v_expf(*s - max);
                    *o = *s;
                }
                sum += hsum8(&chunk) as f64;
            }
            let inv = (1.0 / sum) as f32;
            for s in scores.iter_mut() {
                *s = f16r(*s * inv);
            }
            // V·P: every output dimension's lanes advance together, each
            // lane in increasing position order (a zero weight leaves a lane
            // unchanged, so those positions are skipped)
            acc.fill(0.0);
            for (i, &p) in scores[..=last].iter().enumerate().skip(first) {
                if p == 0.0 {
                    continue;
                }
                let (blk, lane) = if batch {
                    (0, i % LANES)
                } else {
                    ((i / LANES) % 4, i % LANES)
                };
                let voff = (i * nkv + g) * hd;
                let a = &mut acc[(blk * LANES + lane) * hd..(blk * LANES + lane + 1) * hd];
                for (a, &v) in a.iter_mut().zip(&cache.v[voff..voff + hd]) {
                    *a = v.fmadd(p, *a);
                }
            }
            let o = &mut out[qoff..qoff + hd];
            for (dim, o) in o.iter_mut().enumerate() {
                let at = |blk: usize, lane: usize| acc[(blk * LANES + lane) * hd + dim];
                *o = if batch {
                    hsum8(&std::array::from_fn(|l| at(0, l)))
                } else {
                    reduce_vec_f16(&std::array::from_fn(|b| std::array::from_fn(|l| at(b, l))))
                };
            }
        }
    }
    out
}

// Dispatch: the arithmetic above leans on fused multiply-adds, which Rust
// lowers to a libm call unless the FMA instruction is enabled. On x86-64
// with FMA the same code is compiled again with it enabled (results are
// identical: `mul_add` is one rounding either way).

#[cfg(target_arch = "x86_64")]
fn has_fma() -> bool {
    use std::sync::OnceLock;
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| std::arch::is_x86_feature_detected!("fma"))
}

macro_rules! with_fma {
    ($fast:ident, $impl:ident, ($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "fma")]
        fn $fast($($arg: $ty),*) -> $ret {
            $impl($($arg),*)
        }
    };
}

with_fma!(attend_fma, attend_impl, (cache: &mut KvCache, d: &Dims, pos: usize, q: &[f32], k: &[f32], v: &[f32]) -> Vec<f32>);
with_fma!(swiglu_fma, swiglu_impl, (x: &[f32], g: &[f32]) -> Vec<f32>);
with_fma!(gelu_table_fma, gelu_table_impl, () -> Vec<u16>);
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn rope_fma(x: &mut [f32], cos: &[f32], sin: &[f32], neox: bool) {
    rope_impl(x, cos, sin, neox)
}

/// Attention of `n` new tokens at positions `pos..pos+n`. `q` is
/// `[token][head][dim]` after RoPE, `k`/`v` `[token][kv head][dim]` (K
/// after RoPE). Appends K and V to the cache and returns
/// `[token][head][dim]`.
pub(crate) fn attend(
    cache: &mut KvCache,
    d: &Dims,
    pos: usize,
    q: &[f32],
    k: &[f32],
    v: &[f32],
) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if has_fma() {
        // SAFETY: the CPU has FMA (checked above).
        return unsafe { attend_fma(cache, d, pos, q, k, v) };
    }
    attend_impl(cache, d, pos, q, k, v)
}

/// `ggml_vec_swiglu_f32` (AVX2): `x / (1 + ggml_v_expf(-x)) · g` (a tail
/// of fewer than 8 values with libm's `expf`, as ggml does).
pub(crate) fn swiglu(x: &[f32], g: &[f32]) -> Vec<f32> {
    #[cfg(target_arch = "x86_64")]
    if let Some(y) = crate::simd::x86::swiglu(x, g) {
        return y;
    }
    #[cfg(target_arch = "x86_64")]
    if has_fma() {
        // SAFETY: the CPU has FMA (checked above).
        return unsafe { swiglu_fma(x, g) };
    }
    swiglu_impl(x, g)
}

/// Rotary position embedding of one head (`x.len()` = head size), pairs
/// `(2i, 2i+1)` for llama.cpp's NORM mode or `(i, i + d/2)` for NEOX.
pub(crate) fn rope(x: &mut [f32], cos: &[f32], sin: &[f32], neox: bool) {
    #[cfg(target_arch = "x86_64")]
    if has_fma() {
        // SAFETY: the CPU has FMA (checked above).
        return unsafe { rope_fma(x, cos, sin, neox) };
    }
    rope_impl(x, cos, sin, neox)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wasm FMA against the hardware's on random and awkward inputs.
    #[test]
    fn fma_via_f64_is_a_correctly_rounded_fma() {
        check_fma_via_f64();
    }

    /// The same in wasm (against the software `fmaf`).
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_fma_via_f64_is_a_correctly_rounded_fma() {
        check_fma_via_f64();
    }

    fn check_fma_via_f64() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let special = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1.0 + f32::EPSILON,
            1.0 - f32::EPSILON / 2.0,
        ];
        let check = |a: f32, b: f32, c: f32| {
            let want = a.mul_add(b, c);
            let got = fma_via_f64(a, b, c);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "fma({a:e}, {b:e}, {c:e}) = {want:e}, got {got:e}"
            );
        };
        for &a in &special {
            for &b in &special {
                for &c in &special {
                    check(a, b, c);
                }
            }
        }
        for i in 0..2_000_000u32 {
            let r = next();
            let (a, b) = (f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32));
            // c near -a·b half the time: cancellation, the hard case
            let c = if i % 2 == 0 {
                f32::from_bits(next() as u32)
            } else {
                -(a * b) * (1.0 + (next() % 64) as f32 * f32::EPSILON)
            };
            if a.is_nan() || b.is_nan() || c.is_nan() {
                continue;
            }
            check(a, b, c);
            // values of the magnitudes attention sees
            let small = |v: u64| (v % 2001) as f32 / 1000.0 - 1.0;
            check(small(r), small(r >> 20), small(r >> 40));
        }
    }

    /// FNV-1a 64 of llama.cpp's `ggml_table_gelu_f16` (its 131072
    /// little-endian bytes), as `tools/gemma-goldens/gelu_table.py` reads it
    /// from the reference build's libggml-cpu.so.
    const GELU_TABLE_FNV: u64 = 0xab04_4edb_a0ed_200c;

    fn check_gelu_table(table: &[u16]) {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in table.iter().flat_map(|v| v.to_le_bytes()) {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        assert_eq!(h, GELU_TABLE_FNV, "the GELU table is not llama.cpp's");
    }

    /// Every entry of the GELU table, in both builds of it, is llama.cpp's.
    #[test]
    fn gelu_table_is_llama_cpps() {
        check_gelu_table(gelu_table());
        check_gelu_table(&gelu_table_impl());
        // gelu(1) = 0.8413, and the ends of the lookup
        let mut out = Vec::new();
        geglu(&[1.0, -10.0, 10.0, -3.0], &[2.0, 5.0, 0.5, 1.0], &mut out);
        assert_eq!(out[0], f16::from_bits(0x3abb).to_f32() * 2.0);
        assert_eq!(&out[1..3], &[0.0, 5.0]);
        assert!(out[3] < 0.0 && out[3] > -0.01, "{}", out[3]);
    }

    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_gelu_table_is_llama_cpps() {
        check_gelu_table(gelu_table());
    }

    /// The AVX2 SwiGLU (where the CPU has it) equals the scalar one bit
    /// for bit: ordinary values, the exponent's edges (|n| past 126 and
    /// 192, both signs), infinities, NaN, and a tail of fewer than 8.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_swiglu_equals_the_scalar_one() {
        if !has_fma() {
            return;
        }
        let mut s = 99u32;
        let mut x: Vec<f32> = (0..4003)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                (s % 20001) as f32 / 1000.0 - 10.0
            })
            .collect();
        let edges = [
            -87.5,
            -88.7,
            -89.0,
            -100.0,
            -130.0,
            -133.0,
            -140.0,
            87.5,
            88.7,
            90.0,
            100.0,
            130.0,
            133.5,
            140.0,
            200.0,
            -200.0,
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-30,
            -1e-30,
            3.4e38,
            -3.4e38,
        ];
        for (i, e) in edges.iter().enumerate() {
            x[i * 7] = *e;
        }
        let g: Vec<f32> = x.iter().map(|v| 0.5 - v * 0.01).collect();
        let Some(fast) = crate::simd::x86::swiglu(&x, &g) else {
            return;
        };
        // SAFETY: the CPU has FMA (checked above).
        let slow = unsafe { swiglu_fma(&x, &g) };
        for (i, (a, b)) in fast.iter().zip(&slow).enumerate() {
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "x = {}: {a} vs {b}",
                x[i]
            );
        }
    }

    #[test]
    fn v_expf_is_close_to_exp_and_handles_the_edges() {
        for i in -800..=800 {
            let x = i as f32 / 10.0;
            let (a, b) = (v_expf(x), x.exp());
            assert!(
                (a - b).abs() <= 4e-7 * b.max(f32::MIN_POSITIVE),
                "{x}: {a} vs {b}"
            );
        }
        assert_eq!(v_expf(f32::NEG_INFINITY), 0.0);
        assert_eq!(v_expf(0.0), 1.0);
        assert_eq!(v_expf(200.0), f32::INFINITY);
    }

    #[test]
    fn reductions_follow_the_tree() {
        let mut v = [0f32; 8];
        v[0] = 1e8;
        v[4] = -1e8;
        v[1] = 1.0;
        // (v0 + v4) first: the 1.0 survives
        assert_eq!(hsum8(&v), 1.0);
        let a: Vec<f32> = (0..64).map(|i| i as f32).collect();
        let b = vec![1f32; 64];
        assert_eq!(dot_tinyblas(&a, &b), 2016.0);
        assert_eq!(dot_vec_f16(&a, &b), 2016.0);
    }
}
