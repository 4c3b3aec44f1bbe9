// The 6-bit scale and min of sub-block `j` of a Q4_K / Q5_K block whose 12
// scale bytes start at `off` (ggml's get_scale_min_k4).
fn scale_min(off: u32, j: u32) -> vec2<i32> {
    if (j < 4u) {
        return vec2<i32>(i32(w_u8(off + j) & 63u), i32(w_u8(off + j + 4u) & 63u));
    }
    let a = w_u8(off + j + 4u);
    let sc = (a & 0xFu) | ((w_u8(off + j - 4u) >> 6u) << 4u);
    let mn = (a >> 4u) | ((w_u8(off + j) >> 6u) << 4u);
    return vec2<i32>(i32(sc), i32(mn));
}

// Q8_K activation blocks: d, 64 words of bytes, 16 block sums (i32)
fn a_bsum(base: u32, g: u32) -> i32 {
    return bitcast<i32>(A[base + 65u + g]);
}
