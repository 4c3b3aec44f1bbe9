// Q8_0: d (f16), 32 signed bytes; against Q8_0 activations.
fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    let off = (row * M.blocks + b) * 34u;
    let d = w_f16(off);
    var q: array<u32, 8>;
    for (var i = 0u; i < 8u; i++) {
        q[i] = w_u32(off + 2u + 4u * i);
    }
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        let base = ((t0 + t) * M.blocks + b) * 10u;
        var s = 0;
        for (var i = 0u; i < 8u; i++) {
            s += dot4I8Packed(q[i], A[base + 2u + i]);
        }
        out[t] = d * a_f32(base) * f32(s);
    }
    return out;
}
