// Q4_0: d (f16), 32 nibbles (value − 8); against Q8_0 activations.
fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    let off = (row * M.blocks + b) * 18u;
    let d = w_f16(off);
    var q: array<u32, 8>;
    for (var i = 0u; i < 4u; i++) {
        let w = w_u32(off + 2u + 4u * i);
        q[i] = w & 0x0F0F0F0Fu;
        q[i + 4u] = (w >> 4u) & 0x0F0F0F0Fu;
    }
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        let base = ((t0 + t) * M.blocks + b) * 10u;
        var s = 0;
        var sa = 0;
        for (var i = 0u; i < 8u; i++) {
            s += dot4I8Packed(q[i], A[base + 2u + i]);
            sa += dot4I8Packed(0x01010101u, A[base + 2u + i]);
        }
        out[t] = d * a_f32(base) * f32(s - 8 * sa);
    }
    return out;
}
