// Q4_1: d, m (f16), 32 nibbles (d·value + m); against Q8_1 activations.
fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    let off = (row * M.blocks + b) * 20u;
    let d = w_f16(off);
    let m = w_f16(off + 2u);
    var q: array<u32, 8>;
    for (var i = 0u; i < 4u; i++) {
        let w = w_u32(off + 4u + 4u * i);
        q[i] = w & 0x0F0F0F0Fu;
        q[i + 4u] = (w >> 4u) & 0x0F0F0F0Fu;
    }
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        let base = ((t0 + t) * M.blocks + b) * 10u;
        var s = 0;
        for (var i = 0u; i < 8u; i++) {
            s += dot4I8Packed(q[i], A[base + 2u + i]);
        }
        out[t] = d * a_f32(base) * f32(s) + m * a_f32(base + 1u);
    }
    return out;
}
