//! The start-up probe of the adapter's `fma`: WGSL lets `fma` round twice
//! (or not fuse at all), so the kernels' correctly rounded fused
//! multiply-add is written out (`wgsl/fma_emulated.wgsl`, some fifty
//! operations) unless the adapter's own passes every case here, compared
//! bit for bit with the CPU's `mul_add` (one rounding, as llama.cpp's AVX2
//! `_mm256_fmadd_ps`).
//!
//! The cases are the ones a wrong `fma` gets wrong:
//! - products cancelled by their own rounding (`c = -(a·b)` rounded): the
//!   result is the product's rounding error, which an unfused `a·b + c`
//!   loses (it gives 0);
//! - sums just below a tie of f32 by less than f64 can hold
//!   (`c = 1 + odd·2⁻²³` and `a·b = 2⁻²⁴ − i²·2⁻⁷⁰`): one rounding goes down
//!   to `c`, while rounding through f64 (or rounding the product first) lands
//!   on the tie and then on the even neighbour, up;
//! - random triples over a wide range of exponents and signs;
//! - products and sums among the subnormals, which a GPU may flush to zero
//!   (WGSL allows it; the CPU does not).

/// The probe's triples `(a, b, c)`.
pub fn cases() -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    let mut x: u32 = 0x2545_f491;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    // a value with a random 24-bit mantissa, sign and exponent in ±e
    let mut value = move |e: i32| -> f32 {
        let r = next();
        let mant = (r & 0x7f_ffff) | 1;
        let exp = (127 + (r >> 24) as i32 % (2 * e + 1) - e) as u32;
        let sign = (r >> 23) & 1;
        f32::from_bits(sign << 31 | exp << 23 | mant)
    };
    for _ in 0..256 {
        let (a, b) = (value(20), value(20));
        out.push([a, b, -(a * b)]);
    }
    for i in 1..=64u32 {
        for (j, scale) in [
            (1u32, 1.0f32),
            (3, 0.5),
            (0x3ffff, 8.0),
            (0x2aaaab, 2f32.powi(-20)),
        ] {
            let c = (1.0 + (2 * (j + i) + 1) as f32 * 2f32.powi(-23)) * scale;
            let a = 2f32.powi(-12) * (1.0 + i as f32 * 2f32.powi(-23)) * scale;
            let b = 2f32.powi(-12) * (1.0 - i as f32 * 2f32.powi(-23));
            out.push([a, b, c]);
            out.push([-a, b, -c]);
        }
    }
    for _ in 0..256 {
        out.push([value(30), value(30), value(30)]);
    }
    // results among the subnormals (a GPU may flush them; the CPU does not)
    for _ in 0..32 {
        let (a, b) = (value(4) * 2f32.powi(-70), value(4) * 2f32.powi(-62));
        out.push([a, b, value(4) * 2f32.powi(-130)]);
    }
    out
}

/// Which cases `got` (the adapter's results, in order) gets wrong, with
/// the first few named.
pub fn check(cases: &[[f32; 3]], got: &[f32]) -> Result<(), String> {
    if got.len() != cases.len() {
        return Err(format!(
            "the probe read back {} results for {} cases",
            got.len(),
            cases.len()
        ));
    }
    let wrong: Vec<String> = cases
        .iter()
        .zip(got)
        .filter(|(&[a, b, c], g)| a.mul_add(b, c).to_bits() != g.to_bits())
        .map(|(&[a, b, c], g)| {
            format!(
                "fma({a:e}, {b:e}, {c:e}) = {:e}, not {g:e}",
                a.mul_add(b, c)
            )
        })
        .collect();
    if wrong.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the adapter's fma is not rounded once on {} of {} cases, e.g. {}",
        wrong.len(),
        cases.len(),
        wrong[..wrong.len().min(2)].join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases catch both wrong `fma`s: an unfused `a·b + c` and one
    /// computed in f64 and rounded again; the exact one passes.
    #[test]
    fn the_cases_tell_a_wrong_fma_from_a_right_one() {
        let cases = cases();
        let exact: Vec<f32> = cases.iter().map(|&[a, b, c]| a.mul_add(b, c)).collect();
        assert_eq!(check(&cases, &exact), Ok(()));
        let unfused: Vec<f32> = cases.iter().map(|&[a, b, c]| a * b + c).collect();
        let e = check(&cases, &unfused).unwrap_err();
        assert!(e.contains("not rounded once on"), "{e}");
        let through_f64: Vec<f32> = cases
            .iter()
            .map(|&[a, b, c]| (a as f64 * b as f64 + c as f64) as f32)
            .collect();
        let wrong = cases
            .iter()
            .zip(&through_f64)
            .filter(|(&[a, b, c], g)| a.mul_add(b, c).to_bits() != g.to_bits())
            .count();
        assert!(wrong >= 64, "f64 then f32 gets only {wrong} cases wrong");
        assert!(check(&cases, &exact[1..]).is_err());
        // flushing subnormal results to zero is caught too
        let flushed: Vec<f32> = exact
            .iter()
            .map(|&v| {
                if v != 0.0 && v.abs() < f32::MIN_POSITIVE {
                    0.0 * v
                } else {
                    v
                }
            })
            .collect();
        assert!(
            check(&cases, &flushed).is_err(),
            "no subnormal result in the cases"
        );
    }
}
