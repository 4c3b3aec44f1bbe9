// The 32-value kinds against Q8_0 / Q8_1 activations, as the CPU kernels
// compute them (ggml_vec_dot_*_q8_*, tinyBLAS's Q0 blocks): per block the
// eight i32 lanes of 4-byte groups (values 0..16 the low nibbles or bytes,
// 16..32 the high ones), `acc[j] = fma(d_w·d_a, lane_j, acc[j])`, the
// `m·s` terms of Q4_1 (a product and a sum) and Q5_1 (a fused
// multiply-add) in their own sum, then hsum_float_8. Q4_0 with a multiple
// of 8 rows is repacked by llama.cpp (CPU_REPACK): one lane,
// `acc = fma(Σ, d_w·d_a, acc)` a block.
//
// The kind's snippet before this one gives BYTES (a block), OFF (the
// value offset), MODE (0: no m; 1: Q4_1; 2: Q5_1), REPACKABLE and
// `unpack(off) -> B32`.

struct B32 {
    d: f32,
    m: f32,
    // values 4j..4j + 4 as bytes (unsigned, the offset not taken out)
    q: array<u32, 8>,
}

fn row_dot4(row: u32, t0: u32, nt: u32) -> vec4<f32> {
    var lo: array<vec4<f32>, 4>;
    var hi: array<vec4<f32>, 4>;
    var summs = vec4<f32>(0.0);
    var one = vec4<f32>(0.0);
    let repacked = REPACKABLE && M.total_rows % 8u == 0u;
    for (var b = 0u; b < M.blocks; b++) {
        let x = unpack((row * M.blocks + b) * BYTES);
        for (var t = 0u; t < nt; t++) {
            let base = ((t0 + t) * M.blocks + b) * 10u;
            let d = x.d * a_f32(base);
            var l: array<f32, 8>;
            var sum = 0;
            for (var j = 0u; j < 8u; j++) {
                let aw = A[base + 2u + j];
                let lane = dot4I8Packed(x.q[j], aw) - OFF * dot4I8Packed(0x01010101u, aw);
                l[j] = f32(lane);
                sum += lane;
            }
            if (repacked) {
                one[t] = fma_rn(f32(sum), d, one[t]);
                continue;
            }
            if (MODE == 1) {
                summs[t] = summs[t] + guard(x.m * a_f32(base + 1u));
            } else if (MODE == 2) {
                summs[t] = fma_rn(x.m, a_f32(base + 1u), summs[t]);
            }
            let lt = lo[t];
            let ht = hi[t];
            lo[t] = vec4<f32>(
                fma_rn(d, l[0], lt.x),
                fma_rn(d, l[1], lt.y),
                fma_rn(d, l[2], lt.z),
                fma_rn(d, l[3], lt.w),
            );
            hi[t] = vec4<f32>(
                fma_rn(d, l[4], ht.x),
                fma_rn(d, l[5], ht.y),
                fma_rn(d, l[6], ht.z),
                fma_rn(d, l[7], ht.w),
            );
        }
    }
    var out = vec4<f32>(0.0);
    for (var t = 0u; t < nt; t++) {
        if (repacked) {
            out[t] = one[t];
        } else if (MODE == 0) {
            out[t] = hsum8(lo[t], hi[t]);
        } else {
            out[t] = hsum8(lo[t], hi[t]) + summs[t];
        }
    }
    return out;
}
