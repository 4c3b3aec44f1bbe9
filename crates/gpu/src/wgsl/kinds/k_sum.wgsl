// The K-quants' blocks summed in order (the block dots' own sums are not
// yet the CPU kernels' order).
fn row_dot4(row: u32, t0: u32, nt: u32) -> vec4<f32> {
    var acc = vec4<f32>(0.0);
    for (var b = 0u; b < M.blocks; b++) {
        acc += block_dot(row, b, t0, nt);
    }
    return acc;
}
