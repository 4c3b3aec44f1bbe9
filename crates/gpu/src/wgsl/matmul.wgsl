// y[t][row] = W[row] · a[t] for the weight rows of one matrix (or one
// chunk of its rows) against the activation rows of the batch, quantized
// to the kind's activation format (`quantize.wgsl`) or f32 for the float
// kinds. The weights are the file's ggml blocks, read as bytes and
// dequantized in registers; integer dot products of packed bytes where
// ggml has integer ones (`dot4I8Packed`).
//
// A workgroup holds 8 weight rows × 8 lanes; each lane strides the row's
// blocks and keeps the sums of up to 4 activation rows (z of the
// dispatch); the lanes' sums are added in workgroup memory.

struct Params {
    n: u32,
    pos: u32,
}

struct Mm {
    // weight rows in this chunk
    rows: u32,
    // blocks per row (32 or 256 values each; 32-value groups for floats)
    blocks: u32,
    // values per row (floats: the last group may be partial)
    k: u32,
    // output row stride and the first output column of this chunk
    out_stride: u32,
    out_offset: u32,
    // activation rows to use: 0 for the batch's `n`
    tokens: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> M: Mm;
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> A: array<u32>;
@group(0) @binding(4) var<storage, read_write> Y: array<f32>;

const RPW: u32 = 8u;
const LANES: u32 = 8u;
const TOK: u32 = 4u;

var<workgroup> red: array<vec4<f32>, 64>;

fn w_u8(off: u32) -> u32 {
    return (W[off >> 2u] >> ((off & 3u) * 8u)) & 0xffu;
}

// 16 bits at an even byte offset
fn w_u16(off: u32) -> u32 {
    return (W[off >> 2u] >> ((off & 2u) * 8u)) & 0xffffu;
}

// 32 bits at any byte offset
fn w_u32(off: u32) -> u32 {
    let i = off >> 2u;
    let s = (off & 3u) * 8u;
    if (s == 0u) {
        return W[i];
    }
    return (W[i] >> s) | (W[i + 1u] << (32u - s));
}

fn w_f16(off: u32) -> f32 {
    return unpack2x16float(w_u16(off)).x;
}

fn a_f32(i: u32) -> f32 {
    return bitcast<f32>(A[i]);
}

// the activation rows of this workgroup
fn token_count(t0: u32) -> u32 {
    var n = P.n;
    if (M.tokens != 0u) {
        n = M.tokens;
    }
    return min(TOK, n - t0);
}

//@BLOCK_DOT

@compute @workgroup_size(64)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let r = li / LANES;
    let lane = li % LANES;
    let row = (wid.x + wid.y * nwg.x) * RPW + r;
    let t0 = wid.z * TOK;
    let nt = token_count(t0);
    var acc = vec4<f32>(0.0);
    if (row < M.rows) {
        for (var b = lane; b < M.blocks; b += LANES) {
            acc += block_dot(row, b, t0, nt);
        }
    }
    red[li] = acc;
    workgroupBarrier();
    for (var s = LANES / 2u; s > 0u; s >>= 1u) {
        if (lane < s) {
            red[li] += red[li + s];
        }
        workgroupBarrier();
    }
    if (lane == 0u && row < M.rows) {
        let v = red[li];
        for (var t = 0u; t < nt; t++) {
            Y[(t0 + t) * M.out_stride + M.out_offset + row] = v[t];
        }
    }
}
