// The batch's keys and values into the layer's cache at positions pos..,
// rounded through f16 as llama.cpp's f16 cache rounds them.

struct Params {
    n: u32,
    pos: u32,
    // always 0 (see exact.wgsl's guard)
    zero: u32,
}

struct Kv {
    // values per token: kv heads × head size
    width: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> C: Kv;
@group(0) @binding(2) var<storage, read> KN: array<f32>;
@group(0) @binding(3) var<storage, read> VN: array<f32>;
@group(0) @binding(4) var<storage, read_write> KC: array<f32>;
@group(0) @binding(5) var<storage, read_write> VC: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let i = gid.x + gid.y * nwg.x * 64u;
    if (i >= P.n * C.width) {
        return;
    }
    let at = P.pos * C.width + i;
    KC[at] = f16_rne(KN[i]);
    VC[at] = f16_rne(VN[i]);
}
