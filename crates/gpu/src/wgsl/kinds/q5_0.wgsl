// Q5_0: d (f16), the fifth bits (32), 32 nibbles (value − 16); against
// Q8_0 activations.

// four bits (the low ones of `b`) as bit 4 of four bytes
fn spread4(b: u32) -> u32 {
    return ((b & 1u) << 4u) | ((b & 2u) << 11u) | ((b & 4u) << 18u) | ((b & 8u) << 25u);
}

fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    let off = (row * M.blocks + b) * 22u;
    let d = w_f16(off);
    let qh = w_u32(off + 2u);
    var q: array<u32, 8>;
    for (var i = 0u; i < 4u; i++) {
        let w = w_u32(off + 6u + 4u * i);
        q[i] = (w & 0x0F0F0F0Fu) | spread4(qh >> (4u * i));
        q[i + 4u] = ((w >> 4u) & 0x0F0F0F0Fu) | spread4(qh >> (16u + 4u * i));
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
        out[t] = d * a_f32(base) * f32(s - 16 * sa);
    }
    return out;
}
