const KIND: i32 = 2;

fn weight(i: u32) -> f32 {
    return bitcast<f32>(w_u16(2u * i) << 16u);
}

// round to nearest even bf16 (ggml_compute_fp32_to_bf16; NaN kept quiet)
fn activation(x: f32) -> f32 {
    let u = bitcast<u32>(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        return bitcast<f32>((u | 0x00400000u) & 0xffff0000u);
    }
    return bitcast<f32>((u + 0x7fffu + ((u >> 16u) & 1u)) & 0xffff0000u);
}
