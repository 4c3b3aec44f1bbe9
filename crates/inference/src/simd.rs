//! SIMD versions of the block dot products in [`crate::quant::kernels`].
//! This and the FMA dispatch in `attention.rs` are the only `unsafe` code
//! in the crate: the intrinsics, unaligned loads of exactly the 16 or 32
//! bytes of a block's array, and calls of `#[target_feature]` functions
//! after the feature was detected.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use crate::quant::kernels::{dot_q4_0_scalar, dot_q4_1_scalar, dot_q8_0_scalar};
    use crate::quant::{BlockQ4_0, BlockQ4_1, BlockQ8, BlockQ8_0};
    use std::arch::x86_64::*;
    use std::sync::OnceLock;

    fn has_avx2() -> bool {
        static HAS: OnceLock<bool> = OnceLock::new();
        *HAS.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("f16c")
        })
    }

    /// f16 to f32 with the F16C instruction (the `half` crate decides per
    /// call, which costs more than a block's dot product). Written out:
    /// from `_mm_cvtph_ps(_mm_cvtsi32_si128(..))` LLVM makes a `vpinsrw`
    /// into whatever register is free, often a loop's accumulator, which
    /// chains every block's scale to the previous block's sum (3x slower);
    /// `vmovd` from a general register writes the whole register.
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(crate) fn h(bits: u16) -> f32 {
        let out: __m128;
        // SAFETY: two register-only instructions of the F16C and AVX
        // features this function requires; no memory, no stack, no flags.
        unsafe {
            std::arch::asm!(
                "vmovd {o}, {b:e}",
                "vcvtph2ps {o}, {o}",
                b = in(reg) bits as u32,
                o = out(xmm_reg) out,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        _mm_cvtss_f32(out)
    }

    /// `Q4_1 · Q8_1`, AVX2 where the CPU has it.
    pub fn dot_q4_1(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
        if !has_avx2() {
            return dot_q4_1_scalar(xs, ys);
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { q4_1_avx2(xs, ys) }
    }

    /// `Q4_1 · Q8_1` of one weight row against four activation rows, each
    /// computed exactly as [`dot_q4_1`] does.
    pub fn dot4_q4_1(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        if !has_avx2() {
            return ys.map(|y| dot_q4_1_scalar(xs, y));
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { q4_1x4_avx2(xs, ys) }
    }

    /// `Q4_0 · Q8_0`, AVX2 where the CPU has it.
    pub fn dot_q4_0(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        if !has_avx2() {
            return dot_q4_0_scalar(xs, ys);
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { q4_0_avx2(xs, ys) }
    }

    /// `Q8_0 · Q8_0`, AVX2 where the CPU has it.
    pub fn dot_q8_0(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        if !has_avx2() {
            return dot_q8_0_scalar(xs, ys);
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { q8_0_avx2(xs, ys) }
    }

    /// `Q8_0 · Q8_0` of one weight row against four activation rows, each
    /// computed exactly as [`dot_q8_0`] does.
    pub fn dot4_q8_0(xs: &[BlockQ8_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        if !has_avx2() {
            return ys.map(|y| dot_q8_0_scalar(xs, y));
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { q8_0x4_avx2(xs, ys) }
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn hsum(acc: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_extractf128_ps(acc, 1), _mm256_castps256_ps128(acc));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_movehdup_ps(s));
        _mm_cvtss_f32(s)
    }

    /// The 32 nibbles of a 4-bit block as bytes: low nibbles in the lower
    /// 128 bits, high nibbles in the upper.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn nibbles(qs: &[u8; 16]) -> __m256i {
        // SAFETY: reads exactly the 16 bytes of `qs`, unaligned load.
        let v = unsafe { _mm_loadu_si128(qs.as_ptr() as *const __m128i) };
        let both = _mm256_set_m128i(_mm_srli_epi16(v, 4), v);
        _mm256_and_si256(both, _mm256_set1_epi8(0x0F))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn load32(qs: &[i8; 32]) -> __m256i {
        // SAFETY: reads exactly the 32 bytes of `qs`, unaligned load.
        unsafe { _mm256_loadu_si256(qs.as_ptr() as *const __m256i) }
    }

    /// Σ x·y of 32 signed bytes, as 8 f32 lanes (llama.cpp's
    /// `mul_sum_i8_pairs_float`).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn mul_sum_i8(x: __m256i, y: __m256i) -> __m256 {
        let ax = _mm256_sign_epi8(x, x);
        let sy = _mm256_sign_epi8(y, x);
        let dot = _mm256_maddubs_epi16(ax, sy);
        _mm256_cvtepi32_ps(_mm256_madd_epi16(dot, _mm256_set1_epi16(1)))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_1_avx2(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            summs += h(x.m) * y.s;
            let d = _mm256_set1_ps(h(x.d) * y.d);
            let qx = nibbles(&x.qs);
            let qy = load32(&y.qs);
            // unsigned nibbles times signed bytes, pairwise into i16 (at
            // most 2·15·127), then into i32
            let dot = _mm256_maddubs_epi16(qx, qy);
            let f = _mm256_cvtepi32_ps(_mm256_madd_epi16(dot, _mm256_set1_epi16(1)));
            acc = _mm256_fmadd_ps(d, f, acc);
        }
        hsum(acc) + summs
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_1x4_avx2(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        let mut acc = [_mm256_setzero_ps(); 4];
        let mut summs = [0f32; 4];
        let ones = _mm256_set1_epi16(1);
        for (b, x) in xs.iter().enumerate() {
            let (dx, mx) = (_mm256_set1_ps(h(x.d)), h(x.m));
            let qx = nibbles(&x.qs);
            for r in 0..4 {
                let y = &ys[r][b];
                summs[r] += mx * y.s;
                // dx·dy in every lane (see q8_0x4_avx2)
                let d = _mm256_mul_ps(dx, _mm256_broadcast_ss(&y.d));
                let dot = _mm256_maddubs_epi16(qx, load32(&y.qs));
                let f = _mm256_cvtepi32_ps(_mm256_madd_epi16(dot, ones));
                acc[r] = _mm256_fmadd_ps(d, f, acc[r]);
            }
        }
        std::array::from_fn(|r| hsum(acc[r]) + summs[r])
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_0_avx2(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        for (x, y) in xs.iter().zip(ys) {
            let d = _mm256_set1_ps(h(x.d) * y.d);
            let qx = _mm256_sub_epi8(nibbles(&x.qs), _mm256_set1_epi8(8));
            let f = mul_sum_i8(qx, load32(&y.qs));
            acc = _mm256_fmadd_ps(d, f, acc);
        }
        hsum(acc)
    }

    /// Four [`q8_0_avx2`]s sharing each weight block's load and sign
    /// (four independent accumulators: the same operations per row).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q8_0x4_avx2(xs: &[BlockQ8_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        let mut acc = [_mm256_setzero_ps(); 4];
        let ones = _mm256_set1_epi16(1);
        for (b, x) in xs.iter().enumerate() {
            let dx = _mm256_set1_ps(h(x.d));
            let qx = load32(&x.qs);
            let ax = _mm256_sign_epi8(qx, qx);
            for r in 0..4 {
                let y = &ys[r][b];
                // dx·dy in every lane (a broadcast load and a vector
                // multiply: no shuffle per row)
                let d = _mm256_mul_ps(dx, _mm256_broadcast_ss(&y.d));
                let sy = _mm256_sign_epi8(load32(&y.qs), qx);
                let dot = _mm256_maddubs_epi16(ax, sy);
                let f = _mm256_cvtepi32_ps(_mm256_madd_epi16(dot, ones));
                acc[r] = _mm256_fmadd_ps(d, f, acc[r]);
            }
        }
        std::array::from_fn(|r| hsum(acc[r]))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q8_0_avx2(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        for (x, y) in xs.iter().zip(ys) {
            let d = _mm256_set1_ps(h(x.d) * y.d);
            let f = mul_sum_i8(load32(&x.qs), load32(&y.qs));
            acc = _mm256_fmadd_ps(d, f, acc);
        }
        hsum(acc)
    }

    /// `quantize_row_q8_0` / `quantize_row_q8_1` (AVX2) into `out`; false
    /// where the CPU lacks AVX2 (the caller then runs the scalar version,
    /// which gives the same blocks).
    pub fn quantize_q8(xs: &[f32], out: &mut Vec<BlockQ8>) -> bool {
        if !has_avx2() {
            return false;
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { quantize_q8_avx2(xs, out) };
        true
    }

    /// f32 to f16 and back, round to nearest even.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn f16_round(x: f32) -> f32 {
        _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtps_ph(
            _mm_set_ss(x),
            _MM_FROUND_TO_NEAREST_INT,
        )))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn quantize_q8_avx2(xs: &[f32], out: &mut Vec<BlockQ8>) {
        out.clear();
        out.reserve(xs.len() / 32);
        let sign = _mm256_set1_ps(-0.0);
        for chunk in xs.chunks_exact(32) {
            // SAFETY: reads the 32 values of `chunk`, unaligned loads.
            let v: [__m256; 4] =
                std::array::from_fn(|k| unsafe { _mm256_loadu_ps(chunk.as_ptr().add(8 * k)) });
            let mut m = _mm256_andnot_ps(sign, v[0]);
            for v in &v[1..] {
                m = _mm256_max_ps(m, _mm256_andnot_ps(sign, *v));
            }
            let m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
            let m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
            let amax = _mm_cvtss_f32(_mm_max_ss(m4, _mm_movehdup_ps(m4)));
            let d = amax / 127.0;
            let id = if amax != 0.0 { 127.0 / amax } else { 0.0 };
            let mul = _mm256_set1_ps(id);
            let q: [__m256i; 4] = std::array::from_fn(|k| {
                let r = _mm256_round_ps(
                    _mm256_mul_ps(v[k], mul),
                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC,
                );
                _mm256_cvtps_epi32(r)
            });
            let sum = _mm256_add_epi32(_mm256_add_epi32(q[0], q[1]), _mm256_add_epi32(q[2], q[3]));
            let s4 = _mm_add_epi32(
                _mm256_extracti128_si256(sum, 1),
                _mm256_castsi256_si128(sum),
            );
            let s4 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
            let sum = _mm_cvtsi128_si32(_mm_add_epi32(s4, _mm_shuffle_epi32(s4, 1)));
            let packed = _mm256_packs_epi16(
                _mm256_packs_epi32(q[0], q[1]),
                _mm256_packs_epi32(q[2], q[3]),
            );
            let ordered =
                _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
            let mut b = BlockQ8 {
                d: f16_round(d),
                s: f16_round(sum as f32 * d),
                qs: [0; 32],
            };
            // SAFETY: writes exactly the 32 bytes of `qs`, unaligned store.
            unsafe { _mm256_storeu_si256(b.qs.as_mut_ptr() as *mut __m256i, ordered) };
            out.push(b);
        }
    }

    /// `ggml_vec_swiglu_f32` (AVX2): `x / (1 + ggml_v_expf(0 − x)) · g`,
    /// eight lanes at a time, the last `len % 8` through libm's `expf`
    /// (as [`crate::attention::swiglu`]'s scalar version).
    pub fn swiglu(x: &[f32], g: &[f32]) -> Option<Vec<f32>> {
        if !has_avx2() {
            return None;
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        Some(unsafe { swiglu_avx2(x, g) })
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn swiglu_avx2(x: &[f32], g: &[f32]) -> Vec<f32> {
        let n = x.len().min(g.len());
        let mut out = vec![0f32; n];
        let one = _mm256_set1_ps(1.0);
        let body = n / 8 * 8;
        for i in (0..body).step_by(8) {
            // SAFETY: i + 8 <= n, within x, g and out.
            unsafe {
                let xi = _mm256_loadu_ps(x.as_ptr().add(i));
                let gi = _mm256_loadu_ps(g.as_ptr().add(i));
                let e = v_expf(_mm256_sub_ps(_mm256_setzero_ps(), xi));
                let y = _mm256_mul_ps(_mm256_div_ps(xi, _mm256_add_ps(one, e)), gi);
                _mm256_storeu_ps(out.as_mut_ptr().add(i), y);
            }
        }
        for i in body..n {
            out[i] = x[i] / (1.0 + (-x[i]).exp()) * g[i];
        }
        out
    }

    /// `ggml_v_expf` (AVX2).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn v_expf(x: __m256) -> __m256 {
        let c = |bits: u32| _mm256_set1_ps(f32::from_bits(bits));
        let r = c(0x4b40_0000); // 0x1.8p23
        let z = _mm256_fmadd_ps(x, c(0x3fb8_aa3b), r);
        let n = _mm256_sub_ps(z, r);
        let b = _mm256_fnmadd_ps(n, c(0x35bf_be8e), _mm256_fnmadd_ps(n, c(0x3f31_7200), x));
        let e = _mm256_slli_epi32(_mm256_castps_si256(z), 23);
        let k = _mm256_castsi256_ps(_mm256_add_epi32(e, _mm256_castps_si256(c(0x3f80_0000))));
        let abs_n = _mm256_andnot_ps(_mm256_set1_ps(-0.0), n);
        let big = _mm256_cmp_ps(abs_n, _mm256_set1_ps(126.0), _CMP_GT_OQ);
        let u = _mm256_mul_ps(b, b);
        let j = _mm256_fmadd_ps(
            _mm256_fmadd_ps(
                _mm256_fmadd_ps(c(0x3c07_2010), b, c(0x3d2b_9f17)),
                u,
                _mm256_fmadd_ps(c(0x3e2a_af33), b, c(0x3eff_fedb)),
            ),
            u,
            _mm256_mul_ps(c(0x3f7f_fff6), b),
        );
        if _mm256_movemask_ps(big) == 0 {
            return _mm256_fmadd_ps(j, k, k);
        }
        let le0 = _mm256_castps_si256(_mm256_cmp_ps(n, _mm256_setzero_ps(), _CMP_LE_OQ));
        let g = _mm256_and_si256(le0, _mm256_set1_epi32(0x8200_0000u32 as i32));
        let s1 = _mm256_castsi256_ps(_mm256_add_epi32(g, _mm256_set1_epi32(0x7f00_0000)));
        let s2 = _mm256_castsi256_ps(_mm256_sub_epi32(e, g));
        let huge = _mm256_cmp_ps(abs_n, _mm256_set1_ps(192.0), _CMP_GT_OQ);
        _mm256_or_ps(
            _mm256_and_ps(huge, _mm256_mul_ps(s1, s1)),
            _mm256_andnot_ps(
                huge,
                _mm256_or_ps(
                    _mm256_and_ps(big, _mm256_mul_ps(_mm256_fmadd_ps(s2, j, s2), s1)),
                    _mm256_andnot_ps(big, _mm256_fmadd_ps(k, j, k)),
                ),
            ),
        )
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm {
    use crate::kquant::BlockQ5_0;
    use crate::quant::{BlockQ4_0, BlockQ4_1, BlockQ8, BlockQ8_0};
    use core::arch::wasm32::*;
    use half::f16;

    fn h(bits: u16) -> f32 {
        f16::from_bits(bits).to_f32()
    }

    fn load16(p: &[u8]) -> v128 {
        assert!(p.len() >= 16);
        // SAFETY: at least 16 readable bytes (asserted); v128_load is unaligned.
        unsafe { v128_load(p.as_ptr() as *const v128) }
    }

    fn load16i(p: &[i8]) -> v128 {
        assert!(p.len() >= 16);
        // SAFETY: at least 16 readable bytes (asserted); v128_load is unaligned.
        unsafe { v128_load(p.as_ptr() as *const v128) }
    }

    /// Four i32 lanes of 16 byte products: lane `j` sums bytes
    /// `4j..4j+4` (AVX2's `maddubs` + `madd` lanes). `x` is
    /// sign-extended when `signed`, zero-extended otherwise.
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

    /// Eight f32 accumulators, `[lo, hi]` as two f32x4 vectors.
    #[derive(Clone, Copy)]
    struct Acc8(v128, v128);

    /// Where the f64 sum could mislead the f32 rounding: a f32 midpoint
    /// (low 29 mantissa bits `1000...`) or tiny (f32 subnormals).
    #[inline(always)]
    fn risky(s: v128) -> v128 {
        let low = v128_and(s, i64x2_splat(0x1FFF_FFFF));
        let mid = i64x2_eq(low, i64x2_splat(0x1000_0000));
        let tiny = f64x2_lt(f64x2_abs(s), f64x2_splat(f32::MIN_POSITIVE as f64 * 2.0));
        v128_or(mid, tiny)
    }

    impl Acc8 {
        fn zero() -> Acc8 {
            Acc8(f32x4_splat(0.0), f32x4_splat(0.0))
        }

        /// `acc[j] = fma(d, lanes[j], acc[j])` for the eight lanes
        /// `[lo, hi]` (i32), each rounded once to f32 as `vfmadd` does.
        ///
        /// The products are exact in f64 (24 by 13 bits), and the f64 sum
        /// only misleads the f32 rounding where [`risky`] says so; there
        /// the sum is rounded to odd first (one ulp toward the exact
        /// value), which makes the f32 rounding correct (see
        /// `attention::fma_via_f64`).
        #[inline(always)]
        fn fma(&mut self, d: v128, lo: v128, hi: v128) {
            let f0 = f64x2_convert_low_i32x4(lo);
            let f1 = f64x2_convert_low_i32x4(i32x4_shuffle::<2, 3, 0, 1>(lo, lo));
            let f2 = f64x2_convert_low_i32x4(hi);
            let f3 = f64x2_convert_low_i32x4(i32x4_shuffle::<2, 3, 0, 1>(hi, hi));
            let a0 = f64x2_promote_low_f32x4(self.0);
            let a1 = f64x2_promote_low_f32x4(i32x4_shuffle::<2, 3, 0, 1>(self.0, self.0));
            let a2 = f64x2_promote_low_f32x4(self.1);
            let a3 = f64x2_promote_low_f32x4(i32x4_shuffle::<2, 3, 0, 1>(self.1, self.1));
            let (p0, p1, p2, p3) = (
                f64x2_mul(d, f0),
                f64x2_mul(d, f1),
                f64x2_mul(d, f2),
                f64x2_mul(d, f3),
            );
            let (mut s0, mut s1, mut s2, mut s3) = (
                f64x2_add(p0, a0),
                f64x2_add(p1, a1),
                f64x2_add(p2, a2),
                f64x2_add(p3, a3),
            );
            let any = v128_or(v128_or(risky(s0), risky(s1)), v128_or(risky(s2), risky(s3)));
            if v128_any_true(any) {
                s0 = round_to_odd(p0, a0, s0);
                s1 = round_to_odd(p1, a1, s1);
                s2 = round_to_odd(p2, a2, s2);
                s3 = round_to_odd(p3, a3, s3);
            }
            self.0 = i32x4_shuffle::<0, 1, 4, 5>(
                f32x4_demote_f64x2_zero(s0),
                f32x4_demote_f64x2_zero(s1),
            );
            self.1 = i32x4_shuffle::<0, 1, 4, 5>(
                f32x4_demote_f64x2_zero(s2),
                f32x4_demote_f64x2_zero(s3),
            );
        }

        /// The lanes as two f32x4 vectors `[lo, hi]`.
        fn f32s(&self) -> (v128, v128) {
            (self.0, self.1)
        }
    }

    /// `s = p + a` rounded to odd: one ulp toward the exact sum where
    /// TwoSum finds it inexact and the last bit is even.
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

    /// ggml's `hsum_float_8` of the lanes `[lo, hi]`.
    #[inline(always)]
    fn hsum8(lo: v128, hi: v128) -> f32 {
        let a = f32x4_add(hi, lo);
        (f32x4_extract_lane::<0>(a) + f32x4_extract_lane::<2>(a))
            + (f32x4_extract_lane::<1>(a) + f32x4_extract_lane::<3>(a))
    }

    // The dot products follow the AVX2 build's order (eight f32 lanes
    // accumulated with fused multiply-adds, then `hsum_float_8`), so that
    // the browser computes llama.cpp's results bit for bit, like the
    // scalar kernels in `quant::kernels`.

    pub fn dot_q4_1(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
        let mask = u8x16_splat(0x0F);
        let mut acc = Acc8::zero();
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            summs += h(x.m) * y.s;
            let d = f64x2_splat((h(x.d) * y.d) as f64);
            let v = load16(&x.qs);
            let lo = lanes4(v128_and(v, mask), load16i(&y.qs[..16]), false);
            let hi = lanes4(u8x16_shr(v, 4), load16i(&y.qs[16..]), false);
            acc.fma(d, lo, hi);
        }
        let (lo, hi) = acc.f32s();
        hsum8(lo, hi) + summs
    }

    /// `dot_q4_1` of one weight row against four activation rows, the
    /// nibbles and scales unpacked once per block.
    pub fn dot4_q4_1(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        let mask = u8x16_splat(0x0F);
        let mut acc = [Acc8::zero(); 4];
        let mut summs = [0f32; 4];
        for (b, x) in xs.iter().enumerate() {
            let (dx, mx) = (h(x.d), h(x.m));
            let v = load16(&x.qs);
            let (lo, hi) = (v128_and(v, mask), u8x16_shr(v, 4));
            for r in 0..4 {
                let y = &ys[r][b];
                summs[r] += mx * y.s;
                let d = f64x2_splat((dx * y.d) as f64);
                acc[r].fma(
                    d,
                    lanes4(lo, load16i(&y.qs[..16]), false),
                    lanes4(hi, load16i(&y.qs[16..]), false),
                );
            }
        }
        std::array::from_fn(|r| {
            let (lo, hi) = acc[r].f32s();
            hsum8(lo, hi) + summs[r]
        })
    }

    pub fn dot_q4_0(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        let mask = u8x16_splat(0x0F);
        let eight = i8x16_splat(8);
        let mut acc = Acc8::zero();
        for (x, y) in xs.iter().zip(ys) {
            let d = f64x2_splat((h(x.d) * y.d) as f64);
            let v = load16(&x.qs);
            let lo = i8x16_sub(v128_and(v, mask), eight);
            let hi = i8x16_sub(u8x16_shr(v, 4), eight);
            acc.fma(
                d,
                lanes4(lo, load16i(&y.qs[..16]), true),
                lanes4(hi, load16i(&y.qs[16..]), true),
            );
        }
        let (lo, hi) = acc.f32s();
        hsum8(lo, hi)
    }

    pub fn dot_q8_0(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = Acc8::zero();
        for (x, y) in xs.iter().zip(ys) {
            let d = f64x2_splat((h(x.d) * y.d) as f64);
            acc.fma(
                d,
                lanes4(load16i(&x.qs[..16]), load16i(&y.qs[..16]), true),
                lanes4(load16i(&x.qs[16..]), load16i(&y.qs[16..]), true),
            );
        }
        let (lo, hi) = acc.f32s();
        hsum8(lo, hi)
    }

    /// A `Q5_0` block's 32 values as signed bytes, `nibble | (bit << 4)
    /// − 16`: low nibbles (values 0..16) in `.0`, high nibbles in `.1`
    /// (AVX2's `bytes_from_nibbles_32` | `bytes_from_bits_32` layout).
    #[inline(always)]
    fn q5_0_values(x: &BlockQ5_0) -> (v128, v128) {
        let mask = u8x16_splat(0x0F);
        let v = load16(&x.qs);
        let qh = u32x4_splat(u32::from_le_bytes(x.qh));
        let bit = u8x16(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128);
        // byte i of each half: 0xFF where bit i (or 16 + i) of qh is set
        let set = |b: v128| u8x16_eq(v128_and(b, bit), bit);
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
        let f0 = u8x16_splat(0xF0);
        (
            v128_or(v128_and(v, mask), v128_andnot(f0, lo_bits)),
            v128_or(u8x16_shr(v, 4), v128_andnot(f0, hi_bits)),
        )
    }

    pub fn dot_q5_0(xs: &[BlockQ5_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = Acc8::zero();
        for (x, y) in xs.iter().zip(ys) {
            let d = f64x2_splat((h(x.d) * y.d) as f64);
            let (lo, hi) = q5_0_values(x);
            acc.fma(
                d,
                lanes4(lo, load16i(&y.qs[..16]), true),
                lanes4(hi, load16i(&y.qs[16..]), true),
            );
        }
        let (lo, hi) = acc.f32s();
        hsum8(lo, hi)
    }

    /// `dot_q5_0` of one weight row against four activation rows, each
    /// block unpacked once.
    pub fn dot4_q5_0(xs: &[BlockQ5_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        let mut acc = [Acc8::zero(); 4];
        for (b, x) in xs.iter().enumerate() {
            let dx = h(x.d);
            let (lo, hi) = q5_0_values(x);
            for r in 0..4 {
                let y = &ys[r][b];
                let d = f64x2_splat((dx * y.d) as f64);
                acc[r].fma(
                    d,
                    lanes4(lo, load16i(&y.qs[..16]), true),
                    lanes4(hi, load16i(&y.qs[16..]), true),
                );
            }
        }
        std::array::from_fn(|r| {
            let (lo, hi) = acc[r].f32s();
            hsum8(lo, hi)
        })
    }
}
