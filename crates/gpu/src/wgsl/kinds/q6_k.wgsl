// Q6_K: 128 bytes of low nibbles, 64 bytes of high bit pairs, 16 signed
// 8-bit scales, d (f16); values − 32; against Q8_K activations (the −32
// through their 16-value block sums).
fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    let off = (row * M.blocks + b) * 210u;
    let d = w_f16(off + 208u);
    var isum = vec4<i32>(0);
    for (var g = 0u; g < 16u; g++) {
        let sc = (i32(w_u8(off + 192u + g)) << 24u) >> 24u;
        var v: array<u32, 4>;
        for (var w = 0u; w < 4u; w++) {
            // values i..i + 4 of the block
            let i = 16u * g + 4u * w;
            let c = i / 128u;
            let r = i % 128u;
            let part = r / 32u;
            let bb = r % 32u;
            var lo = w_u32(off + 64u * c + 32u * (part & 1u) + bb);
            if (part >= 2u) {
                lo = lo >> 4u;
            }
            let hi = (w_u32(off + 128u + 32u * c + bb) >> (2u * part)) & 0x03030303u;
            v[w] = (lo & 0x0F0F0F0Fu) | (hi << 4u);
        }
        for (var t = 0u; t < nt; t++) {
            let base = ((t0 + t) * M.blocks + b) * 81u;
            var p = 0;
            for (var w = 0u; w < 4u; w++) {
                p += dot4I8Packed(v[w], A[base + 1u + 4u * g + w]);
            }
            isum[t] += sc * (p - 32 * a_bsum(base, g));
        }
    }
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        out[t] = d * a_f32(((t0 + t) * M.blocks + b) * 81u) * f32(isum[t]);
    }
    return out;
}
