const KIND: i32 = 0;

fn weight(i: u32) -> f32 {
    return bitcast<f32>(W[i]);
}

fn activation(x: f32) -> f32 {
    return x;
}
