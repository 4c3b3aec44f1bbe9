// Roundings the CPU path does exactly, written out: WGSL lets
// `quantizeToF16` round either way and `/` be 2.5 ulp off, and not every
// implementation's `round` breaks ties to even.

// x rounded to the nearest integer, ties to even (|x| < 2^23; x − floor(x)
// is exact there).
fn round_even(x: f32) -> f32 {
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
    var guard = 0u;
    var sticky = select(0u, 1u, r != 0u);
    if ((q >> 25u) != 0u) {
        mant = q >> 2u;
        guard = (q >> 1u) & 1u;
        sticky |= q & 1u;
    } else {
        e -= 1;
        mant = q >> 1u;
        guard = q & 1u;
    }
    if (guard == 1u && (sticky == 1u || (mant & 1u) == 1u)) {
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
