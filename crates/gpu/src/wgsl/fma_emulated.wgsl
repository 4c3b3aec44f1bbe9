// The fused multiply-add where the adapter's `fma` did not pass the
// start-up probe (`device.rs`: WGSL lets `fma` round twice).
//
// a · b + c rounded once, as the CPU's fused multiply-add (WGSL's `fma`
// may round twice): the exact sum th + s + e of c and the product's two
// parts (TwoProduct, then TwoSums), rounded as th + s, corrected where that
// sum was a tie which e breaks.
fn fma_rn(a: f32, b: f32, c_in: f32) -> f32 {
    let c = guard(c_in);
    let u = two_prod(a, b);
    if (u.x == 0.0 || c == 0.0) {
        return u.x + c;
    }
    let t = two_sum(c, u.x);
    let s = two_sum(t.y, u.y);
    let z = two_sum(t.x, s.x);
    if (s.y == 0.0 || z.y == 0.0) {
        return z.x;
    }
    // the neighbour of z on the rest's side: a tie when the rest is half
    // the step to it
    let zb = bitcast<u32>(z.x);
    var nb = zb + 1u;
    if ((z.y > 0.0) != (z.x > 0.0)) {
        nb = zb - 1u;
    }
    let step = bitcast<f32>(nb) - z.x;
    if (abs(step) == 2.0 * abs(z.y) && (s.y > 0.0) == (z.y > 0.0)) {
        return bitcast<f32>(nb);
    }
    return z.x;
}
