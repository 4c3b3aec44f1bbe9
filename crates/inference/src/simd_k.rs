//! AVX2 versions of the dots in [`crate::kquant`], chosen at run time; each
//! mirrors the intrinsics of the ggml kernel it stands for (the integer
//! parts are exact, so only the f32 operations' order matters, and that is
//! the scalar versions' order). `unsafe` here: the intrinsics, unaligned
//! loads of exactly the bytes of a block's arrays, and calls of
//! `#[target_feature]` functions after the features were detected.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use crate::kquant::{scalar, scales_k4, BlockQ4K, BlockQ5K, BlockQ5_0, BlockQ5_1, BlockQ6K};
    use crate::kquant::{BlockQ8K, QK_K};
    use crate::quant::{BlockQ4_0, BlockQ8};
    use crate::simd::x86::h;
    use std::arch::x86_64::*;
    use std::sync::OnceLock;

    pub fn has_avx2() -> bool {
        static HAS: OnceLock<bool> = OnceLock::new();
        *HAS.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("f16c")
        })
    }

    macro_rules! dispatch {
        ($(#[$doc:meta])* $name:ident, $fast:ident, $slow:path, ($($arg:ident: $ty:ty),*)) => {
            $(#[$doc])*
            pub fn $name($($arg: $ty),*) -> f32 {
                if !has_avx2() {
                    return $slow($($arg),*);
                }
                // SAFETY: AVX2, FMA and F16C are present (checked above).
                unsafe { $fast($($arg),*) }
            }
        };
    }

    dispatch!(dot_q5_0, q5_0_avx2, scalar::q5_0, (xs: &[BlockQ5_0], ys: &[BlockQ8]));
    dispatch!(dot_q5_1, q5_1_avx2, scalar::q5_1, (xs: &[BlockQ5_1], ys: &[BlockQ8]));
    dispatch!(dot_q4_0_repacked, q4_0_repacked_avx2, scalar::q4_0_repacked, (xs: &[BlockQ4_0], ys: &[BlockQ8]));
    dispatch!(dot_q4_k_repacked, q4_k_repacked_avx2, scalar::q4_k_repacked, (xs: &[BlockQ4K], ys: &[BlockQ8K]));
    dispatch!(dot_q4_k, q4_k_avx2, scalar::q4_k, (xs: &[BlockQ4K], ys: &[BlockQ8K]));
    dispatch!(dot_q5_k, q5_k_avx2, scalar::q5_k, (xs: &[BlockQ5K], ys: &[BlockQ8K]));
    dispatch!(dot_q6_k, q6_k_avx2, scalar::q6_k, (xs: &[BlockQ6K], ys: &[BlockQ8K]));
    dispatch!(dot_q4_k_tiled, q4_k_tiled_avx2, scalar::q4_k_tiled, (xs: &[BlockQ4K], ys: &[BlockQ8K]));
    dispatch!(dot_q5_k_tiled, q5_k_tiled_avx2, scalar::q5_k_tiled, (xs: &[BlockQ5K], ys: &[BlockQ8K]));
    dispatch!(dot_q6_k_tiled, q6_k_tiled_avx2, scalar::q6_k_tiled, (xs: &[BlockQ6K], ys: &[BlockQ8K]));

    /// Four-row versions: one weight row against four activation rows,
    /// each output bit for bit its single-row kernel's.
    macro_rules! dispatch4 {
        ($(#[$doc:meta])* $name:ident, $fast:ident, $slow:path, $x:ty, $y:ty) => {
            $(#[$doc])*
            pub fn $name(xs: &[$x], ys: [&[$y]; 4]) -> [f32; 4] {
                if !has_avx2() {
                    return ys.map(|y| $slow(xs, y));
                }
                // SAFETY: AVX2, FMA and F16C are present (checked above).
                unsafe { $fast(xs, ys) }
            }
        };
    }

    dispatch4!(
        dot4_q4_k_repacked_gemm,
        q4_k_gemm_x4_avx2,
        scalar::q4_k_repacked_gemm,
        BlockQ4K,
        BlockQ8K
    );
    dispatch4!(
        dot4_q4_k_tiled,
        q4_k_tiled_x4_avx2,
        scalar::q4_k_tiled,
        BlockQ4K,
        BlockQ8K
    );
    dispatch4!(
        dot4_q5_k_tiled,
        q5_k_tiled_x4_avx2,
        scalar::q5_k_tiled,
        BlockQ5K,
        BlockQ8K
    );
    dispatch4!(
        dot4_q6_k_tiled,
        q6_k_tiled_x4_avx2,
        scalar::q6_k_tiled,
        BlockQ6K,
        BlockQ8K
    );

    /// `ggml_vec_dot_f16` / `_bf16`, AVX2 where the CPU has it.
    pub fn vec_dot_half(x: &[u16], y: &[u16], bf16: bool) -> f32 {
        if !has_avx2() {
            let cvt = if bf16 {
                crate::kquant::bf
            } else {
                crate::kquant::h
            };
            return scalar::vec_dot_half(x, y, cvt, bf16);
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { vec_dot_half_avx2(x, y, bf16) }
    }

    /// tinyBLAS's f16 / bf16 dot, AVX2 where the CPU has it.
    pub fn tinyblas_half(x: &[u16], y: &[u16], bf16: bool) -> f32 {
        if !has_avx2() {
            let cvt = if bf16 {
                crate::kquant::bf
            } else {
                crate::kquant::h
            };
            return scalar::tinyblas(x, y, cvt);
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { tinyblas_half_avx2(x, y, bf16) }
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn hsum(acc: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_extractf128_ps(acc, 1), _mm256_castps256_ps128(acc));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_movehdup_ps(s));
        _mm_cvtss_f32(s)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn hsum_i32(v: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_extracti128_si256(v, 1), _mm256_castsi256_si128(v));
        let s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
        _mm_cvtsi128_si32(s)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn load32(p: &[u8]) -> __m256i {
        assert!(p.len() >= 32);
        // SAFETY: reads 32 bytes of `p` (checked), unaligned load.
        unsafe { _mm256_loadu_si256(p.as_ptr() as *const __m256i) }
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn load32i(p: &[i8]) -> __m256i {
        assert!(p.len() >= 32);
        // SAFETY: reads 32 bytes of `p` (checked), unaligned load.
        unsafe { _mm256_loadu_si256(p.as_ptr() as *const __m256i) }
    }

    /// `bytes_from_nibbles_32`: low nibbles in the lower 128 bits.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn nibbles(qs: &[u8; 16]) -> __m256i {
        // SAFETY: reads exactly the 16 bytes of `qs`, unaligned load.
        let v = unsafe { _mm_loadu_si128(qs.as_ptr() as *const __m128i) };
        let both = _mm256_set_m128i(_mm_srli_epi16(v, 4), v);
        _mm256_and_si256(both, _mm256_set1_epi8(0x0F))
    }

    /// `bytes_from_bits_32`: byte `i` is 0xFF where bit `i` is set.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn bits(qh: &[u8; 4]) -> __m256i {
        let x = u32::from_le_bytes(*qh) as i32;
        let shuf = _mm256_set_epi64x(
            0x0303030303030303,
            0x0202020202020202,
            0x0101010101010101,
            0,
        );
        let bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(x), shuf);
        let bytes = _mm256_or_si256(bytes, _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe));
        _mm256_cmpeq_epi8(bytes, _mm256_set1_epi64x(-1))
    }

    /// `mul_sum_i8_pairs_float`: the eight lanes of 4-byte products, as f32.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn mul_sum_i8(x: __m256i, y: __m256i) -> __m256 {
        let ax = _mm256_sign_epi8(x, x);
        let sy = _mm256_sign_epi8(y, x);
        let dot = _mm256_madd_epi16(_mm256_maddubs_epi16(ax, sy), _mm256_set1_epi16(1));
        _mm256_cvtepi32_ps(dot)
    }

    /// `mul_sum_us8_pairs_float`: unsigned `x`.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn mul_sum_u8(x: __m256i, y: __m256i) -> __m256 {
        let dot = _mm256_madd_epi16(_mm256_maddubs_epi16(x, y), _mm256_set1_epi16(1));
        _mm256_cvtepi32_ps(dot)
    }

    /// `Q5_0 · Q8_0` of one weight row against four activation rows, each
    /// computed exactly as [`dot_q5_0`] does.
    pub fn dot4_q5_0(xs: &[BlockQ5_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        if !has_avx2() {
            return ys.map(|y| scalar::q5_0(xs, y));
        }
        // SAFETY: AVX2, FMA and F16C are present (checked above).
        unsafe { q5_0x4_avx2(xs, ys) }
    }

    /// Four [`q5_0_avx2`]s sharing each weight block's unpacking.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_0x4_avx2(xs: &[BlockQ5_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        let mut acc = [_mm256_setzero_ps(); 4];
        for (b, x) in xs.iter().enumerate() {
            let dx = _mm256_set1_ps(h(x.d));
            let hi = _mm256_andnot_si256(bits(&x.qh), _mm256_set1_epi8(0xF0u8 as i8));
            let qx = _mm256_or_si256(nibbles(&x.qs), hi);
            // the sign trick's |x| once per block
            let ax = _mm256_sign_epi8(qx, qx);
            for r in 0..4 {
                let y = &ys[r][b];
                // dx·dy in every lane (see simd::x86::q8_0x4_avx2)
                let d = _mm256_mul_ps(dx, _mm256_broadcast_ss(&y.d));
                let sy = _mm256_sign_epi8(load32i(&y.qs), qx);
                let dot = _mm256_madd_epi16(_mm256_maddubs_epi16(ax, sy), _mm256_set1_epi16(1));
                acc[r] = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dot), acc[r]);
            }
        }
        std::array::from_fn(|r| hsum(acc[r]))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_0_avx2(xs: &[BlockQ5_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        for (x, y) in xs.iter().zip(ys) {
            let d = _mm256_set1_ps(h(x.d) * y.d);
            let hi = _mm256_andnot_si256(bits(&x.qh), _mm256_set1_epi8(0xF0u8 as i8));
            let qx = _mm256_or_si256(nibbles(&x.qs), hi);
            let q = mul_sum_i8(qx, load32i(&y.qs));
            acc = _mm256_fmadd_ps(d, q, acc);
        }
        hsum(acc)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_1_avx2(xs: &[BlockQ5_1], ys: &[BlockQ8]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let dx = h(x.d);
            summs = h(x.m).mul_add(y.s, summs);
            let hi = _mm256_and_si256(bits(&x.qh), _mm256_set1_epi8(0x10));
            let qx = _mm256_or_si256(nibbles(&x.qs), hi);
            let q = mul_sum_u8(qx, load32i(&y.qs));
            acc = _mm256_fmadd_ps(q, _mm256_set1_ps(dx * y.d), acc);
        }
        hsum(acc) + summs
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_0_repacked_avx2(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = 0f32;
        let off = _mm256_set1_epi8(8);
        for (x, y) in xs.iter().zip(ys) {
            let qx = _mm256_sub_epi8(nibbles(&x.qs), off);
            let ax = _mm256_sign_epi8(qx, qx);
            let sy = _mm256_sign_epi8(load32i(&y.qs), qx);
            let s = hsum_i32(_mm256_madd_epi16(
                _mm256_maddubs_epi16(ax, sy),
                _mm256_set1_epi16(1),
            ));
            acc = (s as f32).mul_add(h(x.d) * y.d, acc);
        }
        acc
    }

    /// The 6-bit scales of a `Q4_K` / `Q5_K` block, sub-block `s`'s scale
    /// broadcast as i16.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn scale16(s: i32) -> __m256i {
        _mm256_set1_epi16(s as i16)
    }

    /// `Σ_j sc[2j]·(lo_j · y) + sc[2j+1]·(hi_j · y)` of a `Q4_K` block in
    /// eight i32 lanes (lane `l` holds bytes `4l..4l+4` of each 32-byte
    /// group, as ggml's `vec_dot_q4_K_q8_K` leaves them).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_lanes(x: &BlockQ4K, y: &BlockQ8K, sc: &[i32; 8]) -> __m256i {
        let m4 = _mm256_set1_epi8(0x0F);
        let mut sumi = _mm256_setzero_si256();
        for j in 0..4 {
            let q4 = load32(&x.qs[32 * j..]);
            let q4l = _mm256_and_si256(q4, m4);
            let q4h = _mm256_and_si256(_mm256_srli_epi16(q4, 4), m4);
            let p16l = _mm256_maddubs_epi16(q4l, load32i(&y.qs[64 * j..]));
            let p16h = _mm256_maddubs_epi16(q4h, load32i(&y.qs[64 * j + 32..]));
            let p16l = _mm256_madd_epi16(scale16(sc[2 * j]), p16l);
            let p16h = _mm256_madd_epi16(scale16(sc[2 * j + 1]), p16h);
            sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(p16l, p16h));
        }
        sumi
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_repacked_avx2(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        let (mut acc, mut accm) = (0f32, 0f32);
        for (x, y) in xs.iter().zip(ys) {
            let (sc, mn) = scales_k4(&x.scales);
            let isum = hsum_i32(q4_k_lanes(x, y, &sc));
            let mut imin = 0i32;
            for (g, &m) in mn.iter().enumerate() {
                imin += m * (y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32);
            }
            acc = (isum as f32).mul_add(h(x.d) * y.d, acc);
            accm = (imin as f32).mul_add(h(x.dmin) * y.d, accm);
        }
        acc - accm
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_avx2(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        let mut accm = [0f32; 4];
        for (x, y) in xs.iter().zip(ys) {
            let d = y.d * h(x.d);
            let dmin = -y.d * h(x.dmin);
            let (sc, mn) = scales_k4(&x.scales);
            for (t, a) in accm.iter_mut().enumerate() {
                let s = |g: usize| y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32;
                let p = mn[2 * t] * s(2 * t) + mn[2 * t + 1] * s(2 * t + 1);
                *a = dmin.mul_add(p as f32, *a);
            }
            let sumi = q4_k_lanes(x, y, &sc);
            acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
        }
        hsum(acc) + ((accm[0] + accm[2]) + (accm[1] + accm[3]))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_k_avx2(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let d = y.d * h(x.d);
            let dmin = -y.d * h(x.dmin);
            let (sc, mn) = scales_k4(&x.scales);
            let mut m = 0i32;
            for (g, &mn) in mn.iter().enumerate() {
                m += mn * (y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32);
            }
            summs = dmin.mul_add(m as f32, summs);
            let sumi = q5_k_lanes(x, y, &sc);
            acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
        }
        hsum(acc) + summs
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q6_k_avx2(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 {
        let mut acc = _mm256_setzero_ps();
        for (x, y) in xs.iter().zip(ys) {
            let d = y.d * h(x.d);
            let sumi = q6_k_lanes(x, y);
            acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
        }
        hsum(acc)
    }

    /// `vec_dot_q5_K_q8_K`'s eight i32 lanes of `Σ scale·dot` of a block.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_k_lanes(x: &BlockQ5K, y: &BlockQ8K, sc: &[i32; 8]) -> __m256i {
        let hbits = load32(&x.qh);
        let mut sumi = _mm256_setzero_si256();
        for j in 0..4 {
            let (q0, q1) = q5_k_pair(x, hbits, j);
            let p0 = _mm256_maddubs_epi16(q0, load32i(&y.qs[64 * j..]));
            let p1 = _mm256_maddubs_epi16(q1, load32i(&y.qs[64 * j + 32..]));
            let p0 = _mm256_madd_epi16(scale16(sc[2 * j]), p0);
            let p1 = _mm256_madd_epi16(scale16(sc[2 * j + 1]), p1);
            sumi = _mm256_add_epi32(sumi, _mm256_add_epi32(p0, p1));
        }
        sumi
    }

    /// The 5-bit values of sub-blocks `2j` and `2j + 1` of a `Q5_K` block
    /// (`hbits`: its 32 bytes of high bits).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_k_pair(x: &BlockQ5K, hbits: __m256i, j: usize) -> (__m256i, __m256i) {
        let m4 = _mm256_set1_epi8(0x0F);
        let q5 = load32(&x.qs[32 * j..]);
        let high = |bit: usize| {
            let b = _mm256_set1_epi8(1 << bit);
            _mm256_and_si256(
                _mm256_cmpeq_epi8(_mm256_and_si256(hbits, b), b),
                _mm256_set1_epi8(16),
            )
        };
        let q0 = _mm256_or_si256(_mm256_and_si256(q5, m4), high(2 * j));
        let q1 = _mm256_or_si256(
            _mm256_and_si256(_mm256_srli_epi16(q5, 4), m4),
            high(2 * j + 1),
        );
        (q0, q1)
    }

    /// The 6-bit values (0..64) of the four 32-value quarters of half `j`
    /// of a `Q6_K` block.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q6_k_quads(x: &BlockQ6K, j: usize) -> [__m256i; 4] {
        let (m3, m15) = (_mm256_set1_epi8(3), _mm256_set1_epi8(15));
        let q4bits1 = load32(&x.ql[64 * j..]);
        let q4bits2 = load32(&x.ql[64 * j + 32..]);
        let q4bits_h = load32(&x.qh[32 * j..]);
        let h0 = _mm256_slli_epi16(_mm256_and_si256(q4bits_h, m3), 4);
        let h1 = _mm256_slli_epi16(_mm256_and_si256(q4bits_h, _mm256_set1_epi8(12)), 2);
        let h2 = _mm256_and_si256(q4bits_h, _mm256_set1_epi8(48));
        let h3 = _mm256_srli_epi16(_mm256_and_si256(q4bits_h, _mm256_set1_epi8(-64)), 2);
        [
            _mm256_or_si256(_mm256_and_si256(q4bits1, m15), h0),
            _mm256_or_si256(_mm256_and_si256(q4bits2, m15), h1),
            _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(q4bits1, 4), m15), h2),
            _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(q4bits2, 4), m15), h3),
        ]
    }

    /// Scales `s` and `s + 1` of a `Q6_K` block as i16, one per 128-bit half.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q6_k_scales(x: &BlockQ6K, s: usize) -> __m256i {
        _mm256_set_m128i(
            _mm_set1_epi16(x.scales[s + 1] as i16),
            _mm_set1_epi16(x.scales[s] as i16),
        )
    }

    /// `vec_dot_q6_K_q8_K`'s eight i32 lanes of `Σ scale·(q − 32)·y`.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q6_k_lanes(x: &BlockQ6K, y: &BlockQ8K) -> __m256i {
        // SAFETY: reads exactly the 32 bytes of `bsums`, unaligned load.
        let q8sums = unsafe { _mm256_loadu_si256(y.bsums.as_ptr() as *const __m256i) };
        // SAFETY: reads exactly the 16 bytes of `scales`, unaligned load.
        let scales = unsafe { _mm_loadu_si128(x.scales.as_ptr() as *const __m128i) };
        let scales16 = _mm256_cvtepi8_epi16(scales);
        let q8sclsub = _mm256_slli_epi32(_mm256_madd_epi16(q8sums, scales16), 5);
        let mut sumi = _mm256_setzero_si256();
        for j in 0..QK_K / 128 {
            for (v, &q) in q6_k_quads(x, j).iter().enumerate() {
                let p16 = _mm256_maddubs_epi16(q, load32i(&y.qs[128 * j + 32 * v..]));
                let sc = q6_k_scales(x, 8 * j + 2 * v);
                sumi = _mm256_add_epi32(sumi, _mm256_madd_epi16(sc, p16));
            }
        }
        _mm256_sub_epi32(sumi, q8sclsub)
    }

    /// The tiled kernel's epilogue over super-blocks (see
    /// `kquant::scalar::tiled`).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn tiled_step(out: f32, d: f32, dmin: f32, s1: i32, s2: i32, dy: f32) -> f32 {
        let res = (-dmin).mul_add(s2 as f32, d * s1 as f32);
        res.mul_add(dy, out)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn mins_k(y: &BlockQ8K, mn: &[i32; 8]) -> i32 {
        let mut m = 0i32;
        for (g, &mn) in mn.iter().enumerate() {
            m += mn * (y.bsums[2 * g] as i32 + y.bsums[2 * g + 1] as i32);
        }
        m
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_tiled_avx2(xs: &[BlockQ4K], ys: &[BlockQ8K]) -> f32 {
        let mut out = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let (sc, mn) = scales_k4(&x.scales);
            let s1 = hsum_i32(q4_k_lanes(x, y, &sc));
            out = tiled_step(out, h(x.d), h(x.dmin), s1, mins_k(y, &mn), y.d);
        }
        out
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_k_tiled_avx2(xs: &[BlockQ5K], ys: &[BlockQ8K]) -> f32 {
        let mut out = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let (sc, mn) = scales_k4(&x.scales);
            let s1 = hsum_i32(q5_k_lanes(x, y, &sc));
            out = tiled_step(out, h(x.d), h(x.dmin), s1, mins_k(y, &mn), y.d);
        }
        out
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q6_k_tiled_avx2(xs: &[BlockQ6K], ys: &[BlockQ8K]) -> f32 {
        let mut out = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            let s1 = hsum_i32(q6_k_lanes(x, y));
            out = tiled_step(out, h(x.d), 0.0, s1, 0, y.d);
        }
        out
    }

    /// The sums of each of four vectors' eight i32 lanes (wrapping, as
    /// [`hsum_i32`]'s: the same integers in any order).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn hsum4_i32(v: [__m256i; 4]) -> __m128i {
        let a = _mm256_hadd_epi32(v[0], v[1]);
        let b = _mm256_hadd_epi32(v[2], v[3]);
        // low half: lanes 0..4 of each vector summed, high half: 4..8
        let c = _mm256_hadd_epi32(a, b);
        _mm_add_epi32(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1))
    }

    /// [`hsum4_i32`] as four integers.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn hsum4_i32s(v: [__m256i; 4]) -> [i32; 4] {
        let mut out = [0i32; 4];
        // SAFETY: writes the four i32 of `out`, unaligned store.
        unsafe { _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, hsum4_i32(v)) };
        out
    }

    /// The four activation rows' blocks `b`.
    fn rows4<'a>(ys: &[&'a [BlockQ8K]; 4], b: usize) -> [&'a BlockQ8K; 4] {
        [&ys[0][b], &ys[1][b], &ys[2][b], &ys[3][b]]
    }

    /// [`q4_k_lanes`]' products of sub-block pair `j` for four rows, the
    /// weight's nibbles unpacked once.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_pair_x4(x: &BlockQ4K, y: &[&BlockQ8K; 4], sc: &[i32; 8], j: usize) -> [__m256i; 4] {
        let m4 = _mm256_set1_epi8(0x0F);
        let q4 = load32(&x.qs[32 * j..]);
        let q4l = _mm256_and_si256(q4, m4);
        let q4h = _mm256_and_si256(_mm256_srli_epi16(q4, 4), m4);
        let (sl, sh) = (scale16(sc[2 * j]), scale16(sc[2 * j + 1]));
        let mut out = [_mm256_setzero_si256(); 4];
        for (o, y) in out.iter_mut().zip(y) {
            let p16l = _mm256_maddubs_epi16(q4l, load32i(&y.qs[64 * j..]));
            let p16h = _mm256_maddubs_epi16(q4h, load32i(&y.qs[64 * j + 32..]));
            *o = _mm256_add_epi32(_mm256_madd_epi16(sl, p16l), _mm256_madd_epi16(sh, p16h));
        }
        out
    }

    /// `imin` of each sub-block pair `j` ([`scalar::q4_k_repacked_gemm`])
    /// for four rows, as one vector per pair holding rows 0..4 (exact
    /// integers, any order).
    #[target_feature(enable = "avx2,fma,f16c")]
    fn pair_mins_x4(y: &[&BlockQ8K; 4], mn: &[i32; 8]) -> [__m128i; 4] {
        // SAFETY: reads the eight i32 of `mn`, unaligned load.
        let mn = unsafe { _mm256_loadu_si256(mn.as_ptr() as *const __m256i) };
        let ones = _mm256_set1_epi16(1);
        // row r: lane g = mn[g]·(bsums[2g] + bsums[2g+1])
        let p: [__m256i; 4] = std::array::from_fn(|r| {
            // SAFETY: reads exactly the 32 bytes of `bsums`, unaligned load.
            let b = unsafe { _mm256_loadu_si256(y[r].bsums.as_ptr() as *const __m256i) };
            _mm256_mullo_epi32(_mm256_madd_epi16(b, ones), mn)
        });
        // [r0 j0, r0 j1, r1 j0, r1 j1 | r0 j2, r0 j3, r1 j2, r1 j3] and rows 2, 3
        let a = _mm256_hadd_epi32(p[0], p[1]);
        let b = _mm256_hadd_epi32(p[2], p[3]);
        let pick = |lo: __m128i, hi: __m128i, odd: bool| {
            let (lo, hi) = (_mm_castsi128_ps(lo), _mm_castsi128_ps(hi));
            _mm_castps_si128(if odd {
                _mm_shuffle_ps(lo, hi, 0b11_01_11_01)
            } else {
                _mm_shuffle_ps(lo, hi, 0b10_00_10_00)
            })
        };
        let (alo, blo) = (_mm256_castsi256_si128(a), _mm256_castsi256_si128(b));
        let (ahi, bhi) = (
            _mm256_extracti128_si256(a, 1),
            _mm256_extracti128_si256(b, 1),
        );
        [
            pick(alo, blo, false),
            pick(alo, blo, true),
            pick(ahi, bhi, false),
            pick(ahi, bhi, true),
        ]
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_gemm_x4_avx2(xs: &[BlockQ4K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
        let (mut acc, mut accm) = (_mm_setzero_ps(), _mm_setzero_ps());
        for (b, x) in xs.iter().enumerate() {
            let y = rows4(&ys, b);
            let dy = _mm_setr_ps(y[0].d, y[1].d, y[2].d, y[3].d);
            let dd = _mm_mul_ps(_mm_set1_ps(h(x.d)), dy);
            let dm = _mm_mul_ps(_mm_set1_ps(h(x.dmin)), dy);
            let (sc, mn) = scales_k4(&x.scales);
            let mins = pair_mins_x4(&y, &mn);
            for (j, &imin) in mins.iter().enumerate() {
                let isum = hsum4_i32(q4_k_pair_x4(x, &y, &sc, j));
                acc = _mm_fmadd_ps(_mm_cvtepi32_ps(isum), dd, acc);
                accm = _mm_fmadd_ps(_mm_cvtepi32_ps(imin), dm, accm);
            }
        }
        let mut out = [0f32; 4];
        // SAFETY: writes the four f32 of `out`, unaligned store.
        unsafe { _mm_storeu_ps(out.as_mut_ptr(), _mm_sub_ps(acc, accm)) };
        out
    }

    /// [`tiled_step`] for four rows, from their `Σ scale·dot` lanes and
    /// (`Q4_K`/`Q5_K`) the mins; `Q6_K` has none.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn tiled_step_x4(
        out: &mut [f32; 4],
        lanes: [__m256i; 4],
        (d, dmin): (f32, f32),
        y: &[&BlockQ8K; 4],
        mn: Option<&[i32; 8]>,
    ) {
        let s1 = hsum4_i32s(lanes);
        for r in 0..4 {
            let s2 = mn.map_or(0, |mn| mins_k(y[r], mn));
            out[r] = tiled_step(out[r], d, dmin, s1[r], s2, y[r].d);
        }
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q4_k_tiled_x4_avx2(xs: &[BlockQ4K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
        let mut out = [0f32; 4];
        for (b, x) in xs.iter().enumerate() {
            let y = rows4(&ys, b);
            let (sc, mn) = scales_k4(&x.scales);
            let mut lanes = [_mm256_setzero_si256(); 4];
            for j in 0..4 {
                let p = q4_k_pair_x4(x, &y, &sc, j);
                for r in 0..4 {
                    lanes[r] = _mm256_add_epi32(lanes[r], p[r]);
                }
            }
            tiled_step_x4(&mut out, lanes, (h(x.d), h(x.dmin)), &y, Some(&mn));
        }
        out
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q5_k_tiled_x4_avx2(xs: &[BlockQ5K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
        let mut out = [0f32; 4];
        for (b, x) in xs.iter().enumerate() {
            let y = rows4(&ys, b);
            let (sc, mn) = scales_k4(&x.scales);
            let hbits = load32(&x.qh);
            let mut lanes = [_mm256_setzero_si256(); 4];
            for j in 0..4 {
                let (q0, q1) = q5_k_pair(x, hbits, j);
                let (s0, s1) = (scale16(sc[2 * j]), scale16(sc[2 * j + 1]));
                for r in 0..4 {
                    let p0 = _mm256_maddubs_epi16(q0, load32i(&y[r].qs[64 * j..]));
                    let p1 = _mm256_maddubs_epi16(q1, load32i(&y[r].qs[64 * j + 32..]));
                    let p = _mm256_add_epi32(_mm256_madd_epi16(s0, p0), _mm256_madd_epi16(s1, p1));
                    lanes[r] = _mm256_add_epi32(lanes[r], p);
                }
            }
            tiled_step_x4(&mut out, lanes, (h(x.d), h(x.dmin)), &y, Some(&mn));
        }
        out
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn q6_k_tiled_x4_avx2(xs: &[BlockQ6K], ys: [&[BlockQ8K]; 4]) -> [f32; 4] {
        let mut out = [0f32; 4];
        for (b, x) in xs.iter().enumerate() {
            let y = rows4(&ys, b);
            // SAFETY: reads exactly the 16 bytes of `scales`, unaligned load.
            let scales = unsafe { _mm_loadu_si128(x.scales.as_ptr() as *const __m128i) };
            let scales16 = _mm256_cvtepi8_epi16(scales);
            let mut lanes = [_mm256_setzero_si256(); 4];
            for (l, y) in lanes.iter_mut().zip(&y) {
                // SAFETY: reads exactly the 32 bytes of `bsums`, unaligned load.
                let q8sums = unsafe { _mm256_loadu_si256(y.bsums.as_ptr() as *const __m256i) };
                *l = _mm256_sub_epi32(
                    *l,
                    _mm256_slli_epi32(_mm256_madd_epi16(q8sums, scales16), 5),
                );
            }
            for j in 0..QK_K / 128 {
                for (v, &q) in q6_k_quads(x, j).iter().enumerate() {
                    let sc = q6_k_scales(x, 8 * j + 2 * v);
                    for (l, y) in lanes.iter_mut().zip(&y) {
                        let p16 = _mm256_maddubs_epi16(q, load32i(&y.qs[128 * j + 32 * v..]));
                        *l = _mm256_add_epi32(*l, _mm256_madd_epi16(sc, p16));
                    }
                }
            }
            tiled_step_x4(&mut out, lanes, (h(x.d), 0.0), &y, None);
        }
        out
    }

    /// Eight f16 or bf16 values as f32.
    #[target_feature(enable = "avx2,fma,f16c")]
    fn load8(p: &[u16], bf16: bool) -> __m256 {
        assert!(p.len() >= 8);
        // SAFETY: reads 16 bytes of `p` (checked), unaligned load.
        let v = unsafe { _mm_loadu_si128(p.as_ptr() as *const __m128i) };
        if bf16 {
            _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(v), 16))
        } else {
            _mm256_cvtph_ps(v)
        }
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn vec_dot_half_avx2(x: &[u16], y: &[u16], bf16: bool) -> f32 {
        let np = x.len() & !31;
        let mut s = [_mm256_setzero_ps(); 4];
        let mut i = 0;
        while i < np {
            for (r, acc) in s.iter_mut().enumerate() {
                let o = i + 8 * r;
                *acc = _mm256_fmadd_ps(load8(&x[o..], bf16), load8(&y[o..], bf16), *acc);
            }
            i += 32;
        }
        let c = _mm256_add_ps(_mm256_add_ps(s[0], s[2]), _mm256_add_ps(s[1], s[3]));
        let mut sum = if bf16 {
            hsum(c)
        } else {
            let t0 = _mm_add_ps(_mm256_castps256_ps128(c), _mm256_extractf128_ps(c, 1));
            let t1 = _mm_hadd_ps(t0, t0);
            _mm_cvtss_f32(_mm_hadd_ps(t1, t1))
        } as f64;
        let cvt = if bf16 {
            crate::kquant::bf
        } else {
            crate::kquant::h
        };
        for (&a, &b) in x[np..].iter().zip(&y[np..]) {
            sum += (cvt(a) * cvt(b)) as f64;
        }
        sum as f32
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    fn tinyblas_half_avx2(x: &[u16], y: &[u16], bf16: bool) -> f32 {
        let mut acc = _mm256_setzero_ps();
        let mut i = 0;
        while i + 8 <= x.len() {
            acc = _mm256_fmadd_ps(load8(&x[i..], bf16), load8(&y[i..], bf16), acc);
            i += 8;
        }
        hsum(acc)
    }
}
