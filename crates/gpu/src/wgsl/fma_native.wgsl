// The fused multiply-add where the adapter's `fma` passed the start-up
// probe (`device.rs`: every case, cancelling products and sums that a second
// rounding would move, came back as the CPU's `mul_add` gives it): the
// hardware's, one rounding.
fn fma_rn(a: f32, b: f32, c: f32) -> f32 {
    return fma(a, b, c);
}
