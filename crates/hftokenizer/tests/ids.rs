//! Token ids equal to Python `tokenizers` 0.23.3 (recorded by
//! tools/transformers-goldens/tokenizers_record.py) for five tokenizer.json
//! files of different model types (byte-level BPE, BPE after a split
//! regex, SentencePiece-style BPE with byte fallback, WordPiece, Unigram),
//! 15 texts each, with and without special tokens.

use std::collections::BTreeMap;
use std::path::PathBuf;

use hftokenizer::HfTokenizer;

#[test]
fn ids_equal_to_python_tokenizers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/hf-tokenizer");
    let mut loaded: BTreeMap<String, HfTokenizer> = BTreeMap::new();
    let mut n = 0;
    for line in std::fs::read_to_string(dir.join("ids.jsonl"))
        .unwrap()
        .lines()
    {
        let row: serde_json::Value = serde_json::from_str(line).unwrap();
        let name = row["tokenizer"].as_str().unwrap();
        let t = loaded.entry(name.to_string()).or_insert_with(|| {
            HfTokenizer::from_json(&std::fs::read(dir.join(format!("{name}.json"))).unwrap())
                .unwrap()
        });
        let text = row["text"].as_str().unwrap();
        let special = row["add_special_tokens"].as_bool().unwrap();
        let want: Vec<u32> = serde_json::from_value(row["ids"].clone()).unwrap();
        assert_eq!(
            t.encode(text, special).unwrap(),
            want,
            "{name} {text:?} add_special_tokens={special}"
        );
        n += 1;
    }
    assert_eq!((loaded.len(), n), (5, 150));
}
