// Attention of the batch's tokens over the layer's KV cache: one workgroup
// per (head, token). K·Q over the visible positions (causal; a sliding
// window where the layer has one), soft-capped and scaled, a softmax whose
// weights are rounded through f16 (as llama.cpp's CPU graph rounds them
// before V), and V·P. The query is rounded through f16 too.

struct Params {
    n: u32,
    pos: u32,
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
var<workgroup> red_s: array<f32, 64>;
var<workgroup> ps: array<f32, 64>;

const LOW: f32 = -3.0e38;

fn score(i: u32, g: u32) -> f32 {
    let koff = (i * C.nkv + g) * C.hd;
    var dot = 0.0;
    for (var d = 0u; d < C.hd; d++) {
        dot += KC[koff + d] * qs[d];
    }
    if (C.softcap != 0.0) {
        dot = tanh(dot / C.softcap) * C.softcap;
    }
    return dot * C.scale;
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
    // the largest score and the sum of exp(score − largest), per thread
    var m = LOW;
    var s = 0.0;
    for (var i = first + li; i <= last; i += 64u) {
        let sc = score(i, g);
        if (sc > m) {
            s = s * exp(m - sc) + 1.0;
            m = sc;
        } else {
            s += exp(sc - m);
        }
    }
    red_m[li] = m;
    red_s[li] = s;
    workgroupBarrier();
    for (var st = 32u; st > 0u; st >>= 1u) {
        if (li < st) {
            let m1 = red_m[li];
            let m2 = red_m[li + st];
            let mm = max(m1, m2);
            red_s[li] = red_s[li] * exp(m1 - mm) + red_s[li + st] * exp(m2 - mm);
            red_m[li] = mm;
        }
        workgroupBarrier();
    }
    let mx = red_m[0];
    let inv = div_rn(1.0, red_s[0]);
    workgroupBarrier();
    var acc = vec4<f32>(0.0);
    let vw = C.nkv * C.hd;
    for (var start = first; start <= last; start += 64u) {
        let i = start + li;
        var p = 0.0;
        if (i <= last) {
            p = f16_rne(exp(score(i, g) - mx) * inv);
        }
        ps[li] = p;
        workgroupBarrier();
        let count = min(64u, last + 1u - start);
        for (var j = 0u; j < count; j++) {
            let voff = (start + j) * vw + g * C.hd;
            for (var k = 0u; k < 4u; k++) {
                let d = li + 64u * k;
                if (d < C.hd) {
                    acc[k] += ps[j] * VC[voff + d];
                }
            }
        }
        workgroupBarrier();
    }
    for (var k = 0u; k < 4u; k++) {
        let d = li + 64u * k;
        if (d < C.hd) {
            O[qoff + d] = acc[k];
        }
    }
}
