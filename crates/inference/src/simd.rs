//! AVX2 versions of the block dot products in [`crate::quant::kernels`]
//! (the wasm ones are in [`crate::wasm`]).
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
