// Activations quantized as the CPU path quantizes them for each weight
// kind: `q8` gives ggml's Q8_0 / Q8_1 blocks (d and d·Σq rounded to f16,
// values round(x·127/amax)), 10 words per 32 values (d, s, 8 words of
// bytes); `q8k` gives Q8_K blocks (quantize_row_q8_K_ref: the scale of the
// first largest |x|), 81 words per 256 values (d, 64 words of bytes, 16
// block sums).

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
}

struct Quant {
    // values per row
    k: u32,
    // rows to quantize: 0 for the batch's `n`
    tokens: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> C: Quant;
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> A: array<u32>;

fn rows() -> u32 {
    if (C.tokens != 0u) {
        return C.tokens;
    }
    return P.n;
}

@compute @workgroup_size(64)
fn q8(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let blocks = C.k / 32u;
    let i = gid.x + gid.y * nwg.x * 64u;
    if (i >= rows() * blocks) {
        return;
    }
    let x0 = (i / blocks) * C.k + (i % blocks) * 32u;
    var amax = 0.0;
    for (var j = 0u; j < 32u; j++) {
        amax = max(amax, abs(X[x0 + j]));
    }
    let d = div_rn(amax, 127.0);
    var id = 0.0;
    if (amax != 0.0) {
        id = div_rn(127.0, amax);
    }
    var sum = 0;
    let base = i * 10u;
    for (var w = 0u; w < 8u; w++) {
        var word = 0u;
        for (var q = 0u; q < 4u; q++) {
            let v = i32(round_even(X[x0 + 4u * w + q] * id));
            sum += v;
            word |= (bitcast<u32>(v) & 0xffu) << (8u * q);
        }
        A[base + 2u + w] = word;
    }
    A[base] = bitcast<u32>(f16_rne(d));
    A[base + 1u] = bitcast<u32>(f16_rne(f32(sum) * d));
}

@compute @workgroup_size(64)
fn q8k(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let blocks = C.k / 256u;
    let i = gid.x + gid.y * nwg.x * 64u;
    if (i >= rows() * blocks) {
        return;
    }
    let x0 = (i / blocks) * C.k + (i % blocks) * 256u;
    let base = i * 81u;
    var amax = 0.0;
    var mx = 0.0;
    for (var j = 0u; j < 256u; j++) {
        let v = X[x0 + j];
        if (abs(v) > amax) {
            amax = abs(v);
            mx = v;
        }
    }
    // -127 / mx and 1 / iscale, each correctly rounded
    var iscale = 0.0;
    if (amax != 0.0) {
        iscale = -sign(mx) * div_rn(127.0, amax);
    }
    for (var g = 0u; g < 16u; g++) {
        var bs = 0;
        for (var w = 0u; w < 4u; w++) {
            var word = 0u;
            for (var q = 0u; q < 4u; q++) {
                let v = min(i32(round_even(iscale * X[x0 + 16u * g + 4u * w + q])), 127);
                bs += v;
                word |= (bitcast<u32>(v) & 0xffu) << (8u * q);
            }
            A[base + 1u + 4u * g + w] = word;
        }
        A[base + 65u + g] = bitcast<u32>(bs);
    }
    var d = 0.0;
    if (amax != 0.0) {
        d = sign(iscale) * div_rn(1.0, abs(iscale));
    }
    A[base] = bitcast<u32>(d);
}
