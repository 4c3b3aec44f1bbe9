// F32 / F16 / BF16 rows against the f32 activations rounded to the
// weight's precision (as the CPU path converts them), in the CPU kernel's
// order: tinyBLAS (eight FMA lanes over k, hsum) for 2+ activation rows
// when k % 8 == 0 and the rows % 4 == 0, else ggml_vec_dot_f16 / _bf16 /
// _f32 (four accumulators of eight FMA lanes over 32-value steps, the
// kind's reduction, then the tail: f16/bf16 products summed in f64,
// f32's by its vectorised and fused rules). The kind's snippet gives
// `weight(i)`, `activation(x)` and KIND (0 F32, 1 F16, 2 BF16).

fn tinyblas(row: u32, t: u32) -> f32 {
    var lo = vec4<f32>(0.0);
    var hi = vec4<f32>(0.0);
    let w0 = row * M.k;
    let a0 = t * M.k;
    for (var i = 0u; i + 8u <= M.k; i += 8u) {
        for (var l = 0u; l < 4u; l++) {
            lo[l] = fma_rn(weight(w0 + i + l), activation(a_f32(a0 + i + l)), lo[l]);
            hi[l] = fma_rn(weight(w0 + i + 4u + l), activation(a_f32(a0 + i + 4u + l)), hi[l]);
        }
    }
    return hsum8(lo, hi);
}

fn vec_dot(row: u32, t: u32) -> f32 {
    let w0 = row * M.k;
    let a0 = t * M.k;
    let np = M.k & ~31u;
    // four accumulators of eight lanes: [r] lanes 0..4, [4 + r] lanes 4..8
    var s: array<vec4<f32>, 8>;
    for (var i = 0u; i < np; i += 32u) {
        for (var r = 0u; r < 4u; r++) {
            for (var l = 0u; l < 8u; l++) {
                let at = i + 8u * r + l;
                let k = r + 4u * (l / 4u);
                s[k][l % 4u] = fma_rn(weight(w0 + at), activation(a_f32(a0 + at)), s[k][l % 4u]);
            }
        }
    }
    // lanes (s0 + s2) + (s1 + s3)
    let xl = (s[0] + s[2]) + (s[1] + s[3]);
    let xh = (s[4] + s[6]) + (s[5] + s[7]);
    if (KIND == 0) {
        // GGML_F32x8_REDUCE, then the tail as GCC vectorised it: rounded
        // products added in order in groups of 8 and 4, the last k % 4 fused
        let tt = xl + xh;
        var sum = (tt.x + tt.y) + (tt.z + tt.w);
        let fused = M.k - (M.k - np) % 4u;
        for (var i = np; i < M.k; i++) {
            let p = weight(w0 + i);
            let q = a_f32(a0 + i);
            if (i < fused) {
                sum = sum + guard(p * q);
            } else {
                sum = fma_rn(p, q, sum);
            }
        }
        return sum;
    }
    var head = 0.0;
    if (KIND == 2) {
        head = hsum8(xl, xh);
    } else {
        let tt = xl + xh;
        head = (tt.x + tt.y) + (tt.z + tt.w);
    }
    // the tail's f32 products summed in f64 (float-float here), rounded once
    var sum = vec2<f32>(head, 0.0);
    for (var i = np; i < M.k; i++) {
        sum = ff_add(sum, weight(w0 + i) * activation(a_f32(a0 + i)));
    }
    return sum.x + sum.y;
}

fn row_dot4(row: u32, t0: u32, nt: u32) -> vec4<f32> {
    let tiny = batch() >= 2u && M.k % 8u == 0u && M.total_rows % 4u == 0u;
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        if (tiny) {
            out[t] = tinyblas(row, t0 + t);
        } else {
            out[t] = vec_dot(row, t0 + t);
        }
    }
    return out;
}
