// Q5_0: d (f16), the fifth bits (32), 32 nibbles, value − 16.
const BYTES: u32 = 22u;
const OFF: i32 = 16;
const MODE: i32 = 0;
const REPACKABLE: bool = false;

fn unpack(off: u32) -> B32 {
    var x: B32;
    x.d = w_f16(off);
    fives(&x, w_u32(off + 2u), off + 6u);
    return x;
}
