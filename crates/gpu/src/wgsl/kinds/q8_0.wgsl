// Q8_0: d (f16), 32 signed bytes.
const BYTES: u32 = 34u;
const OFF: i32 = 0;
const MODE: i32 = 0;
const REPACKABLE: bool = false;

fn unpack(off: u32) -> B32 {
    var x: B32;
    x.d = w_f16(off);
    for (var i = 0u; i < 8u; i++) {
        x.q[i] = w_u32(off + 2u + 4u * i);
    }
    return x;
}
