// RMS norm of rows of `w` values times the weight: the batch's rows
// (`groups` per token: 1 for the hidden state, the heads for per-head Q/K
// norms), or with `last` only the last token's, written as row 0.

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
}

struct Norm {
    w: u32,
    groups: u32,
    eps: f32,
    last: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> C: Norm;
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> G: array<f32>;
@group(0) @binding(4) var<storage, read_write> Y: array<f32>;

var<workgroup> part: array<vec2<f32>, 64>;

@compute @workgroup_size(64)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let row = wid.x + wid.y * nwg.x;
    var rows = P.n * C.groups;
    var src = row;
    if (C.last != 0u) {
        rows = C.groups;
        src = (P.n - 1u) * C.groups + row;
    }
    if (row >= rows) {
        return;
    }
    // the squares (rounded to f32, as the CPU's are) summed exactly enough
    // in float-float that the mean rounds as the CPU's f64 sum gives it;
    // the root and its inverse correctly rounded
    var s = vec2<f32>(0.0);
    for (var j = li; j < C.w; j += 64u) {
        let v = X[src * C.w + j];
        s = ff_add(s, v * v);
    }
    part[li] = s;
    workgroupBarrier();
    for (var st = 32u; st > 0u; st >>= 1u) {
        if (li < st) {
            part[li] = ff_add2(part[li], part[li + st]);
        }
        workgroupBarrier();
    }
    let mean = ff_div(part[0], f32(C.w));
    let scale = div_rn(1.0, sqrt_rn(mean + C.eps));
    for (var j = li; j < C.w; j += 64u) {
        Y[row * C.w + j] = X[src * C.w + j] * scale * G[j];
    }
}
