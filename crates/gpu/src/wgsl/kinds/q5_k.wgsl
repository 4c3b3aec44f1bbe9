// Q5_K: d, dmin (f16), 12 bytes of scales and mins, the fifth bits (32
// bytes: bit s of byte l for value 32s + l), 256 nibbles; against Q8_K.
fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    let off = (row * M.blocks + b) * 176u;
    let d = w_f16(off);
    let dmin = w_f16(off + 2u);
    var isum = vec4<i32>(0);
    var imin = vec4<i32>(0);
    for (var s = 0u; s < 8u; s++) {
        let sm = scale_min(off + 4u, s);
        let qoff = off + 48u + 32u * (s / 2u);
        let shift = 4u * (s & 1u);
        var v: array<u32, 8>;
        for (var i = 0u; i < 8u; i++) {
            let high = ((w_u32(off + 16u + 4u * i) >> s) & 0x01010101u) << 4u;
            v[i] = ((w_u32(qoff + 4u * i) >> shift) & 0x0F0F0F0Fu) | high;
        }
        for (var t = 0u; t < nt; t++) {
            let base = ((t0 + t) * M.blocks + b) * 81u;
            var p = 0;
            for (var i = 0u; i < 8u; i++) {
                p += dot4I8Packed(v[i], A[base + 1u + 8u * s + i]);
            }
            isum[t] += sm.x * p;
            imin[t] += sm.y * (a_bsum(base, 2u * s) + a_bsum(base, 2u * s + 1u));
        }
    }
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        let da = a_f32(((t0 + t) * M.blocks + b) * 81u);
        out[t] = d * da * f32(isum[t]) - dmin * da * f32(imin[t]);
    }
    return out;
}
