// Rotary embedding in place of the batch's [token][head][dim] rows at
// positions pos.., from the CPU path's cos/sin tables ([position][pair],
// the table at `table`), NEOX (halves) or NORM (adjacent pairs), then
// times `scale` (Gemma's query scale; 1 otherwise).

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
}

struct Rope {
    heads: u32,
    hd: u32,
    table: u32,
    neox: u32,
    scale: f32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> C: Rope;
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read> COS: array<f32>;
@group(0) @binding(4) var<storage, read> SIN: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let half = C.hd / 2u;
    let i = gid.x + gid.y * nwg.x * 64u;
    if (i >= P.n * C.heads * half) {
        return;
    }
    let t = i / (C.heads * half);
    let rem = i % (C.heads * half);
    let h = rem / half;
    let p = rem % half;
    let at = C.table + (P.pos + t) * half + p;
    let c = COS[at];
    let s = SIN[at];
    let base = (t * C.heads + h) * C.hd;
    var i0 = base + 2u * p;
    var i1 = i0 + 1u;
    if (C.neox != 0u) {
        i0 = base + p;
        i1 = base + p + half;
    }
    let x0 = X[i0];
    let x1 = X[i1];
    // the CPU's fused multiply-adds; then the query scale (a product)
    let y0 = fma_rn(x0, c, -(x1 * s));
    let y1 = fma_rn(x0, s, x1 * c);
    if (C.scale == 1.0) {
        X[i0] = y0;
        X[i1] = y1;
    } else {
        X[i0] = y0 * C.scale;
        X[i1] = y1 * C.scale;
    }
}
