// Q4_1: d, m (f16), 32 nibbles, d·value + m.
const BYTES: u32 = 20u;
const OFF: i32 = 0;
const MODE: i32 = 1;
const REPACKABLE: bool = false;

fn unpack(off: u32) -> B32 {
    var x: B32;
    x.d = w_f16(off);
    x.m = w_f16(off + 2u);
    for (var i = 0u; i < 4u; i++) {
        let w = w_u32(off + 4u + 4u * i);
        x.q[i] = w & 0x0F0F0F0Fu;
        x.q[i + 4u] = (w >> 4u) & 0x0F0F0F0Fu;
    }
    return x;
}
