// Roundings the CPU path does exactly, written out: WGSL lets
// `quantizeToF16` round either way and `/` be 2.5 ulp off, and not every
// implementation's `round` breaks ties to even. And a compiler may fuse a
// product into the addition that uses it (SwiftShader does), which rounds
// once where the CPU rounds twice and breaks error-free sums: products
// that an addition uses go through `guard` (an exclusive-or with a zero
// the compiler cannot know, the including shader's `P.zero`).

// x, opaque to the compiler (no multiplication fuses through it).
fn guard(x: f32) -> f32 {
    return bitcast<f32>(bitcast<u32>(x) ^ P.zero);
}

// x rounded to the nearest integer, ties to even (|x| < 2^23; x − floor(x)
// is exact there).
fn round_even(v: f32) -> f32 {
    let x = guard(v);
    let f = floor(x);
    let r = x - f;
    var k = f;
    if (r > 0.5 || (r == 0.5 && (i32(f) & 1) != 0)) {
        k = f + 1.0;
    }
    // a zero keeps x's sign, as roundeven does
    return bitcast<f32>(bitcast<u32>(k) | (bitcast<u32>(x) & 0x80000000u));
}

// x rounded to the nearest f16 (ties to even), as an f32 (±inf beyond
// f16's range), as the `half` crate and F16C round.
fn f16_rne(x: f32) -> f32 {
    let b = bitcast<u32>(x);
    let a = b & 0x7fffffffu;
    if (a >= 0x7f800000u) {
        return x;
    }
    if (a >= 0x477ff000u) {
        return bitcast<f32>((b & 0x80000000u) | 0x7f800000u);
    }
    if (a < 0x38800000u) {
        // f16 subnormals: multiples of 2^-24 (the scalings are exact)
        return round_even(x * 16777216.0) / 16777216.0;
    }
    let low = b & 0x1fffu;
    var r = b & 0xffffe000u;
    if (low > 0x1000u || (low == 0x1000u && (b & 0x2000u) != 0u)) {
        r += 0x2000u;
    }
    return bitcast<f32>(r);
}

// n / d rounded to nearest (ties to even), for positive normal n, d whose
// quotient is a normal f32 (long division of the mantissas); the
// hardware's quotient otherwise.
fn div_rn(n: f32, d: f32) -> f32 {
    let bn = bitcast<u32>(n);
    let bd = bitcast<u32>(d);
    let en = i32(bn >> 23u);
    let ed = i32(bd >> 23u);
    if (en == 0 || en >= 255 || ed == 0 || ed >= 255) {
        return n / d;
    }
    let md = (bd & 0x7fffffu) | 0x800000u;
    var r = (bn & 0x7fffffu) | 0x800000u;
    var q = 0u;
    for (var i = 0u; i < 26u; i++) {
        q = q << 1u;
        if (r >= md) {
            r -= md;
            q |= 1u;
        }
        r = r << 1u;
    }
    // q = floor(mantissa quotient · 2^25), the quotient in (1/2, 2)
    var e = en - ed + 127;
    var mant = 0u;
    var round_bit = 0u;
    var sticky = select(0u, 1u, r != 0u);
    if ((q >> 25u) != 0u) {
        mant = q >> 2u;
        round_bit = (q >> 1u) & 1u;
        sticky |= q & 1u;
    } else {
        e -= 1;
        mant = q >> 1u;
        round_bit = q & 1u;
    }
    if (round_bit == 1u && (sticky == 1u || (mant & 1u) == 1u)) {
        mant += 1u;
        if (mant == 0x1000000u) {
            mant = mant >> 1u;
            e += 1;
        }
    }
    if (e <= 0 || e >= 255) {
        return n / d;
    }
    return bitcast<f32>((u32(e) << 23u) | (mant & 0x7fffffu));
}

// a + b = s + e exactly (Knuth's TwoSum).
fn two_sum(a: f32, b: f32) -> vec2<f32> {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    return vec2<f32>(s, e);
}

// a · b as p + e exactly (Dekker's product with Veltkamp's split into
// 12-bit halves; every product guarded so that none fuses into the sums;
// |a|, |b| < 2^115 and a product far from the subnormals, as here).
fn two_prod(a: f32, b: f32) -> vec2<f32> {
    let p = guard(a * b);
    let ca = guard(4097.0 * a);
    let ah = ca - (ca - a);
    let al = a - ah;
    let cb = guard(4097.0 * b);
    let bh = cb - (cb - b);
    let bl = b - bh;
    let e = ((guard(ah * bh) - p) + guard(ah * bl) + guard(al * bh)) + guard(al * bl);
    return vec2<f32>(p, e);
}

// A float-float sum (hi + lo) plus x.
fn ff_add(a: vec2<f32>, x: f32) -> vec2<f32> {
    let s = two_sum(a.x, guard(x));
    return two_sum(s.x, s.y + a.y);
}

// Two float-float sums added.
fn ff_add2(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
    let s = two_sum(a.x, b.x);
    return two_sum(s.x, s.y + a.y + b.y);
}

// (hi + lo) / n rounded to f32 (n a small positive integer value).
fn ff_div(a: vec2<f32>, n: f32) -> f32 {
    let q = div_rn(a.x, n);
    if (a.x == 0.0) {
        return a.y / n;
    }
    // the rest, exactly: hi − q·n, plus lo
    let p = two_prod(q, n);
    let r = ((a.x - p.x) - p.y) + a.y;
    return q + r / n;
}

// sqrt(t) rounded to nearest, for a positive normal t: of the hardware's
// root and its neighbours, the one whose square is nearest t (exact
// residuals).
fn sqrt_rn(t: f32) -> f32 {
    let s = sqrt(t);
    var best = s;
    var err = 3.4e38;
    for (var k = -1; k <= 1; k++) {
        let c = bitcast<f32>(u32(i32(bitcast<u32>(s)) + k));
        let p = two_prod(c, c);
        let d = abs((p.x - t) + p.y);
        if (d < err) {
            err = d;
            best = c;
        }
    }
    return best;
}

// n / d rounded to nearest, any signs (div_rn's magnitudes; a zero or
// non-normal operand the hardware's, which is exact there).
fn div_rn_signed(n: f32, d: f32) -> f32 {
    if (n == 0.0) {
        return n / d;
    }
    let q = div_rn(abs(n), abs(d));
    if ((n < 0.0) != (d < 0.0)) {
        return -q;
    }
    return q;
}

// 1 / (hi + lo) rounded to f32 (hi positive and normal).
fn ff_recip(s: vec2<f32>) -> f32 {
    let q = div_rn(1.0, s.x);
    // the residual 1 − q·(hi + lo), exactly enough
    let p = two_prod(q, s.x);
    let r = ((1.0 - p.x) - p.y) - guard(q * s.y);
    return q + guard(r * q);
}

// ggml_v_expf (the AVX2 build's exp, one lane) with its fused
// multiply-adds: a degree-5 polynomial on the reduced argument, scaled by
// building the exponent's bits.
fn v_expf(x: f32) -> f32 {
    let r = 12582912.0;
    let z = fma_rn(x, bitcast<f32>(0x3fb8aa3bu), r);
    let n = z - r;
    let b = fma_rn(-n, bitcast<f32>(0x35bfbe8eu), fma_rn(-n, bitcast<f32>(0x3f317200u), x));
    let e = bitcast<u32>(z) << 23u;
    let k = bitcast<f32>(e + bitcast<u32>(1.0));
    let u = b * b;
    let t1 = fma_rn(bitcast<f32>(0x3c072010u), b, bitcast<f32>(0x3d2b9f17u));
    let t2 = fma_rn(bitcast<f32>(0x3e2aaf33u), b, bitcast<f32>(0x3efffedbu));
    let j = fma_rn(fma_rn(t1, u, t2), u, bitcast<f32>(0x3f7ffff6u) * b);
    if (!(abs(n) > 126.0)) {
        return fma_rn(j, k, k);
    }
    var g = 0u;
    if (n <= 0.0) {
        g = 0x82000000u;
    }
    let s1 = bitcast<f32>(g + 0x7f000000u);
    let s2 = bitcast<f32>(e - g);
    if (abs(n) > 192.0) {
        return s1 * s1;
    }
    return fma_rn(s2, j, s2) * s1;
}
