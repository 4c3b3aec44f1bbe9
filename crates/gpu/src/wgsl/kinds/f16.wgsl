const KIND: i32 = 1;

fn weight(i: u32) -> f32 {
    return unpack2x16float(w_u16(2u * i)).x;
}

fn activation(x: f32) -> f32 {
    return f16_rne(x);
}
