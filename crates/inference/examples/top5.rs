fn main() {
    let path = std::env::args().nth(1).unwrap();
    let gold = std::env::args().nth(2).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    inference::threads::set_threads(1);
    let mut model = inference::Model::from_bytes(&bytes).unwrap();
    for line in std::fs::read_to_string(gold).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let ids: Vec<u32> = v["prompt_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect();
        model.reset();
        let logits = model.forward(&ids).unwrap();
        let mut idx: Vec<usize> = (0..logits.len()).collect();
        idx.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]));
        let mine: Vec<(usize, f32)> = idx[..3].iter().map(|&i| (i, logits[i])).collect();
        println!(
            "{:?}\n  gold {}",
            mine,
            v["top5_first_step"]
                .to_string()
                .chars()
                .take(100)
                .collect::<String>()
        );
    }
}
