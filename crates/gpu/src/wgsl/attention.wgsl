// Attention of the batch's tokens over the layer's KV cache, one
// workgroup per (head, token), in the CPU graph's arithmetic
// (`inference::attention`, llama.cpp's CPU order):
//
// * the query rounded through f16; K·Q over the visible positions (causal;
//   a sliding window where the layer has one) as ggml_vec_dot_f16 (one
//   token: four accumulators of eight fused lanes over 32 values) or
//   tinyBLAS (a batch: eight lanes over 8 values), soft-capped, scaled;
// * the softmax: the largest score, `ggml_v_expf(s − max)` of each, their
//   sum by chunks of eight (hsum_float_8) in f64 (float-float here), the
//   weights `f16(e · (1/sum))`;
// * V·P: per output value, accumulators by position (lane `i % 8`, and
//   for one token block `(i / 8) % 4`), each in increasing position
//   order with fused multiply-adds, then the matching reduction.
//
// The scores are computed again in each pass instead of being stored.

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
}

struct Att {
    nh: u32,
    nkv: u32,
    hd: u32,
    // 0: no sliding window
    window: u32,
    scale: f32,
    // 0: no soft-capping
    softcap: f32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> C: Att;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read> KC: array<f32>;
@group(0) @binding(4) var<storage, read> VC: array<f32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

var<workgroup> qs: array<f32, 256>;
var<workgroup> red_m: array<f32, 64>;
var<workgroup> red_s: array<vec2<f32>, 64>;
var<workgroup> ps: array<f32, 64>;

// below every score (finite: WGSL has no infinite constants)
const LOW: f32 = -3.4e38;

fn hsum8(lo: vec4<f32>, hi: vec4<f32>) -> f32 {
    let a = hi + lo;
    return (a.x + a.z) + (a.y + a.w);
}

// K·Q of position i (kv head g), soft-capped and scaled, as the CPU
// computes it
fn score(i: u32, g: u32) -> f32 {
    let koff = (i * C.nkv + g) * C.hd;
    var dot = 0.0;
    if (P.n >= 2u) {
        // tinyBLAS: eight lanes over steps of 8
        var lo = vec4<f32>(0.0);
        var hi = vec4<f32>(0.0);
        for (var d = 0u; d + 8u <= C.hd; d += 8u) {
            for (var l = 0u; l < 4u; l++) {
                lo[l] = fma_rn(KC[koff + d + l], qs[d + l], lo[l]);
                hi[l] = fma_rn(KC[koff + d + 4u + l], qs[d + 4u + l], hi[l]);
            }
        }
        dot = hsum8(lo, hi);
    } else {
        // ggml_vec_dot_f16: four accumulators of eight lanes over steps of 32
        var s: array<vec4<f32>, 8>;
        for (var d = 0u; d + 32u <= C.hd; d += 32u) {
            for (var r = 0u; r < 4u; r++) {
                for (var l = 0u; l < 4u; l++) {
                    let a = d + 8u * r + l;
                    s[r][l] = fma_rn(KC[koff + a], qs[a], s[r][l]);
                    s[4u + r][l] = fma_rn(KC[koff + a + 4u], qs[a + 4u], s[4u + r][l]);
                }
            }
        }
        let xl = (s[0] + s[2]) + (s[1] + s[3]);
        let xh = (s[4] + s[6]) + (s[5] + s[7]);
        let t = xl + xh;
        dot = (t.x + t.y) + (t.z + t.w);
    }
    if (C.softcap != 0.0) {
        // tanhf is the C library's on the CPU, WGSL's tanh here
        dot = tanh(dot * div_rn(1.0, C.softcap)) * C.softcap;
    }
    return dot * C.scale + 0.0;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let h = wid.x;
    let t = wid.y;
    let g = h / (C.nh / C.nkv);
    let last = P.pos + t;
    var first = 0u;
    if (C.window != 0u && last + 1u > C.window) {
        first = last + 1u - C.window;
    }
    let qoff = (t * C.nh + h) * C.hd;
    for (var d = li; d < C.hd; d += 64u) {
        qs[d] = f16_rne(Q[qoff + d]);
    }
    workgroupBarrier();
    // the largest score
    var m = LOW;
    for (var i = first + li; i <= last; i += 64u) {
        m = max(m, score(i, g));
    }
    red_m[li] = m;
    workgroupBarrier();
    for (var st = 32u; st > 0u; st >>= 1u) {
        if (li < st) {
            red_m[li] = max(red_m[li], red_m[li + st]);
        }
        workgroupBarrier();
    }
    let mx = red_m[0];
    // the sum of exp(s − max) by chunks of eight positions (the masked
    // ones add 0), in float-float
    var sum = vec2<f32>(0.0);
    for (var c = first / 8u + li; c <= last / 8u; c += 64u) {
        var lo = vec4<f32>(0.0);
        var hi = vec4<f32>(0.0);
        for (var l = 0u; l < 8u; l++) {
            let i = 8u * c + l;
            var e = 0.0;
            if (i >= first && i <= last) {
                e = v_expf(score(i, g) - mx);
            }
            if (l < 4u) {
                lo[l] = e;
            } else {
                hi[l - 4u] = e;
            }
        }
        sum = ff_add(sum, hsum8(lo, hi));
    }
    red_s[li] = sum;
    workgroupBarrier();
    for (var st = 32u; st > 0u; st >>= 1u) {
        if (li < st) {
            red_s[li] = ff_add2(red_s[li], red_s[li + st]);
        }
        workgroupBarrier();
    }
    let inv = ff_recip(red_s[0]);
    workgroupBarrier();
    // V·P for the output values li, li + 64, …: 32 accumulators each
    // ([block][lane]; a batch uses block 0)
    let vw = C.nkv * C.hd;
    for (var d0 = 0u; d0 < C.hd; d0 += 64u) {
        let d = d0 + li;
        var acc: array<f32, 32>;
        for (var start = first; start <= last; start += 64u) {
            let i = start + li;
            var p = 0.0;
            if (i <= last) {
                p = f16_rne(v_expf(score(i, g) - mx) * inv);
            }
            ps[li] = p;
            workgroupBarrier();
            let count = min(64u, last + 1u - start);
            if (d < C.hd) {
                for (var j = 0u; j < count; j++) {
                    let pj = ps[j];
                    if (pj == 0.0) {
                        continue;
                    }
                    let pos = start + j;
                    var slot = pos % 8u;
                    if (P.n < 2u) {
                        slot += 8u * ((pos / 8u) % 4u);
                    }
                    acc[slot] = fma_rn(VC[pos * vw + g * C.hd + d], pj, acc[slot]);
                }
            }
            workgroupBarrier();
        }
        if (d < C.hd) {
            var out = 0.0;
            if (P.n >= 2u) {
                out = hsum8(
                    vec4<f32>(acc[0], acc[1], acc[2], acc[3]),
                    vec4<f32>(acc[4], acc[5], acc[6], acc[7]),
                );
            } else {
                var x: array<f32, 8>;
                for (var l = 0u; l < 8u; l++) {
                    x[l] = (acc[l] + acc[16u + l]) + (acc[8u + l] + acc[24u + l]);
                }
                let t0 = x[0] + x[4];
                let t1 = x[1] + x[5];
                let t2 = x[2] + x[6];
                let t3 = x[3] + x[7];
                out = (t0 + t1) + (t2 + t3);
            }
            O[qoff + d] = out;
        }
    }
}
