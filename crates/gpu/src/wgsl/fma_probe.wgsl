// The start-up probe of the adapter's `fma` (`device.rs`): one fused
// multiply-add per case, its operands read from a buffer so that no
// compiler can fold them.
@group(0) @binding(0) var<storage, read> IN: array<f32>;
@group(0) @binding(1) var<storage, read_write> OUT: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i < arrayLength(&OUT)) {
        OUT[i] = fma(IN[3u * i], IN[3u * i + 1u], IN[3u * i + 2u]);
    }
}
