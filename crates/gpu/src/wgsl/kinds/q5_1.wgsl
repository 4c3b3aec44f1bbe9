// Q5_1: d, m (f16), the fifth bits (32), 32 nibbles, d·value + m.
const BYTES: u32 = 24u;
const OFF: i32 = 0;
const MODE: i32 = 2;
const REPACKABLE: bool = false;

fn unpack(off: u32) -> B32 {
    var x: B32;
    x.d = w_f16(off);
    x.m = w_f16(off + 2u);
    fives(&x, w_u32(off + 4u), off + 8u);
    return x;
}
