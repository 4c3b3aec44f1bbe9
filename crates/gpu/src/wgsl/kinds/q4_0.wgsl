// Q4_0: d (f16), 32 nibbles, value − 8.
const BYTES: u32 = 18u;
const OFF: i32 = 8;
const MODE: i32 = 0;
const REPACKABLE: bool = true;

fn unpack(off: u32) -> B32 {
    var x: B32;
    x.d = w_f16(off);
    for (var i = 0u; i < 4u; i++) {
        let w = w_u32(off + 2u + 4u * i);
        x.q[i] = w & 0x0F0F0F0Fu;
        x.q[i + 4u] = (w >> 4u) & 0x0F0F0F0Fu;
    }
    return x;
}
