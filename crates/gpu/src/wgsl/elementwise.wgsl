// Element-wise steps over the batch's rows of `width` values: the gated
// activations (SwiGLU, GeGLU with ggml's GELU on f16 inputs), adding a
// bias to every row, adding one buffer into another, soft-capping.

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
}

struct Ew {
    width: u32,
    // rows: 0 for the batch's `n`
    tokens: u32,
    cap: f32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> C: Ew;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read> U: array<f32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
// GeGLU: ggml's GELU table, f16(gelu(x)) for every f16 x, two a word
@group(0) @binding(5) var<storage, read> T: array<u32>;

fn count() -> u32 {
    var n = P.n;
    if (C.tokens != 0u) {
        n = C.tokens;
    }
    return n * C.width;
}

fn index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * 64u;
}

// X = silu(B) · U as ggml_vec_swiglu_f32 computes it: x / (1 + e^-x) · g,
// e^-x by ggml_v_expf (the C library's expf for a row's last width % 8
// values, which this approximates with the same ggml_v_expf)
@compute @workgroup_size(64)
fn swiglu(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = index(gid, nwg);
    if (i >= count()) {
        return;
    }
    let x = B[i];
    let e = v_expf(0.0 - x);
    X[i] = div_rn_signed(x, 1.0 + e) * U[i];
}

// X = gelu(B) · U, the GELU looked up in ggml's table at f16(x) (0 for
// x ≤ −10, x itself for x ≥ 10), as ggml_vec_geglu_f32 does
@compute @workgroup_size(64)
fn geglu(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = index(gid, nwg);
    if (i >= count()) {
        return;
    }
    let x = B[i];
    var g = 0.0;
    if (x >= 10.0) {
        g = x;
    } else if (x > -10.0) {
        // f16_rne(x) is an f16 value, so packing it is exact
        let h = pack2x16float(vec2<f32>(f16_rne(x), 0.0)) & 0xffffu;
        g = unpack2x16float(T[h >> 1u] >> (16u * (h & 1u))).x;
    }
    X[i] = g * U[i];
}

// X[row] += B (a bias of `width` values)
@compute @workgroup_size(64)
fn bias(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = index(gid, nwg);
    if (i >= count()) {
        return;
    }
    X[i] += B[i % C.width];
}

// X += B
@compute @workgroup_size(64)
fn add(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = index(gid, nwg);
    if (i >= count()) {
        return;
    }
    X[i] += B[i];
}

// X = tanh(X / cap) · cap
@compute @workgroup_size(64)
fn softcap(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = index(gid, nwg);
    if (i >= count()) {
        return;
    }
    X[i] = tanh(X[i] / C.cap) * C.cap;
}
