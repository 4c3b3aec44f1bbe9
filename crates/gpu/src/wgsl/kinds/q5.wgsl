// four bits (the low ones of `b`) as bit 4 of four bytes
fn spread4(b: u32) -> u32 {
    return ((b & 1u) << 4u) | ((b & 2u) << 11u) | ((b & 4u) << 18u) | ((b & 8u) << 25u);
}

// 32 nibbles at `qs` and their fifth bits `qh` as the values' bytes
fn fives(x: ptr<function, B32>, qh: u32, qs: u32) {
    for (var i = 0u; i < 4u; i++) {
        let w = w_u32(qs + 4u * i);
        (*x).q[i] = (w & 0x0F0F0F0Fu) | spread4(qh >> (4u * i));
        (*x).q[i + 4u] = ((w >> 4u) & 0x0F0F0F0Fu) | spread4(qh >> (16u + 4u * i));
    }
}
