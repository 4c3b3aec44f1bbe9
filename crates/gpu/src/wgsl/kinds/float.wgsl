// F32 / F16 / BF16 rows against f32 activations (rounded to the weight's
// precision first, as the CPU path converts them): `weight(i)` and
// `activation(x)` come with the kind.
fn block_dot(row: u32, b: u32, t0: u32, nt: u32) -> vec4<f32> {
    var out = vec4<f32>(0.0);
    let j0 = b * 32u;
    let j1 = min(j0 + 32u, M.k);
    for (var j = j0; j < j1; j++) {
        let w = weight(row * M.k + j);
        for (var t = 0u; t < nt; t++) {
            out[t] += w * activation(a_f32((t0 + t) * M.k + j));
        }
    }
    return out;
}
