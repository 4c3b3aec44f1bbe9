//! Every case of `tests/corpus/tokenizer/tokenize.jsonl`: llama.cpp's ids
//! for 338 strings × 9 vocabularies × the four flag combinations.

mod common;

#[test]
fn corpus_ids_match_llama_cpp() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (vocab_name, cases) in common::cases_by_vocab() {
        let vocab = common::load_corpus_vocab(&vocab_name);
        let mut pass = 0;
        for c in &cases {
            match vocab.tokenize(&c.text, c.add_special, c.parse_special) {
                Ok(ids) if ids == c.ids => pass += 1,
                Ok(ids) => failures.push(format!(
                    "{}: text {:?}\n  expected {:?}\n  got      {:?}",
                    c.id, c.text, c.ids, ids
                )),
                Err(e) => failures.push(format!("{}: error {e}", c.id)),
            }
        }
        report.push(format!("{vocab_name}: {pass}/{} pass", cases.len()));
    }
    println!("per-vocabulary results:\n  {}", report.join("\n  "));
    for f in failures.iter().take(40) {
        println!("{f}");
    }
    assert!(
        failures.is_empty(),
        "{} corpus cases differ from llama.cpp",
        failures.len()
    );
}
