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
    /// call, which costs more than a block's dot product).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn h(bits: u16) -> f32 {
        _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(bits as i32)))
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
            let (dx, mx) = (h(x.d), h(x.m));
            let qx = nibbles(&x.qs);
            for r in 0..4 {
                let y = &ys[r][b];
                summs[r] += mx * y.s;
                let d = _mm256_set1_ps(dx * y.d);
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
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm {
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

    /// Σ a·b over 16 signed bytes, in 4 i32 lanes.
    fn dot16(a: v128, b: v128) -> v128 {
        i32x4_add(
            i32x4_dot_i16x8(i16x8_extend_low_i8x16(a), i16x8_extend_low_i8x16(b)),
            i32x4_dot_i16x8(i16x8_extend_high_i8x16(a), i16x8_extend_high_i8x16(b)),
        )
    }

    fn hsum(v: v128) -> i32 {
        i32x4_extract_lane::<0>(v)
            + i32x4_extract_lane::<1>(v)
            + i32x4_extract_lane::<2>(v)
            + i32x4_extract_lane::<3>(v)
    }

    pub fn dot_q4_1(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
        let mask = u8x16_splat(0x0F);
        let mut sum = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let v = load16(&x.qs);
            let lo = v128_and(v, mask);
            let hi = u8x16_shr(v, 4);
            let p = i32x4_add(
                dot16(lo, load16i(&y.qs[..16])),
                dot16(hi, load16i(&y.qs[16..])),
            );
            sum += h(x.d) * y.d * hsum(p) as f32 + h(x.m) * y.s;
        }
        sum
    }

    pub fn dot_q4_0(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        let mask = u8x16_splat(0x0F);
        let eight = i8x16_splat(8);
        let mut sum = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let v = load16(&x.qs);
            let lo = i8x16_sub(v128_and(v, mask), eight);
            let hi = i8x16_sub(u8x16_shr(v, 4), eight);
            let p = i32x4_add(
                dot16(lo, load16i(&y.qs[..16])),
                dot16(hi, load16i(&y.qs[16..])),
            );
            sum += h(x.d) * y.d * hsum(p) as f32;
        }
        sum
    }

    pub fn dot_q8_0(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        let mut sum = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let p = i32x4_add(
                dot16(load16i(&x.qs[..16]), load16i(&y.qs[..16])),
                dot16(load16i(&x.qs[16..]), load16i(&y.qs[16..])),
            );
            sum += h(x.d) * y.d * hsum(p) as f32;
        }
        sum
    }
}
