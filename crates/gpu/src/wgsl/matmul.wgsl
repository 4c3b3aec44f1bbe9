// y[t][row] = W[row] · a[t] for the weight rows of one matrix (or one
// chunk of its rows) against the activation rows of the batch, quantized
// to the kind's activation format (`quantize.wgsl`) or f32 for the float
// kinds. The weights are the file's ggml blocks, read as bytes and
// dequantized in registers.
//
// One invocation computes one weight row against up to 4 activation rows
// (z of the dispatch), block after block in the CPU kernel's order: its
// integer sums (`dot4I8Packed` on packed bytes), its eight f32 lanes and
// fused multiply-adds (`fma_rn`, exactly rounded once), its final sums, so
// that each output is the CPU path's bit for bit where the kind's snippet
// follows the CPU kernel (`row_dot4`).

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
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
    // all the matrix's rows (the CPU picks its kernel by them)
    total_rows: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> M: Mm;
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> A: array<u32>;
@group(0) @binding(4) var<storage, read_write> Y: array<f32>;

const TOK: u32 = 4u;

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

// the activation rows of the batch (the CPU's m)
fn batch() -> u32 {
    if (M.tokens != 0u) {
        return M.tokens;
    }
    return P.n;
}

// ggml's hsum_float_8 of eight lanes
fn hsum8(lo: vec4<f32>, hi: vec4<f32>) -> f32 {
    let a = hi + lo;
    return (a.x + a.z) + (a.y + a.w);
}

//@BLOCK_DOT

@compute @workgroup_size(64)
fn main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let row = (wid.x + wid.y * nwg.x) * 64u + li;
    let t0 = wid.z * TOK;
    let nt = min(TOK, batch() - t0);
    if (row >= M.rows) {
        return;
    }
    let v = row_dot4(row, t0, nt);
    for (var t = 0u; t < nt; t++) {
        Y[(t0 + t) * M.out_stride + M.out_offset + row] = v[t];
    }
}
