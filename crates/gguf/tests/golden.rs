//! The parser against gguf-py, the reference reader: the synthetic fixtures
//! (every value type, nested arrays, every ggml type, big-endian, custom
//! alignment; compared in full), the eight vocab-only corpus files and
//! SmolLM2 (compared with long arrays as SHA-256 digests). The goldens
//! were recorded by `tests/make_fixtures.py` with `tests/dump_gguf_py.py`;
//! nothing here needs Python, except fetching SmolLM2 once.

mod common;

use std::time::Instant;

use common::*;
use gguf_meta::{parse, parse_with, Endian, GgmlType, ParseOptions, ReadAt, SeekSource, Value};

fn parse_path(path: &std::path::Path) -> gguf_meta::GgufFile {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(SeekSource::new(f)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn fixtures_match_gguf_py_in_full() {
    for name in ["all-types-le", "all-types-be", "align64"] {
        let path = fixture(&format!("{name}.gguf"));
        let file = parse_path(&path);
        assert_matches(&file.to_json(), &golden(&format!("{name}.json")), name);
        // Same from memory, and with tiny chunks (every item straddles a
        // buffer refill).
        let bytes = std::fs::read(&path).unwrap();
        for chunk in [1, 2, 3, 7, 64, 1 << 20] {
            let again = parse_with(&bytes[..], &ParseOptions::new().chunk_size(chunk)).unwrap();
            assert_eq!(again.to_json(), file.to_json(), "{name} with chunk {chunk}");
        }
    }
}

#[test]
fn big_endian_fixture_reads_like_little_endian() {
    let le = parse_path(&fixture("all-types-le.gguf"));
    let be = parse_path(&fixture("all-types-be.gguf"));
    assert_eq!(le.endian(), Endian::Little);
    assert_eq!(be.endian(), Endian::Big);
    // (NaN values make `metadata()` unequal to itself: compare as JSON.)
    assert_eq!(le.to_json(), be.to_json());
    assert_eq!(le.tensors(), be.tensors());
    assert_eq!(be.get_u64("test.u64"), Some((1 << 63) + 5));
    assert_eq!(be.get("test.f32"), Some(&Value::F32(1e-5)));
}

#[test]
fn fixture_covers_every_ggml_type_with_gguf_py_sizes() {
    let file = parse_path(&fixture("all-types-le.gguf"));
    assert_eq!(file.tensors().len(), GgmlType::ALL.len());
    for (t, &ty) in file.tensors().iter().zip(GgmlType::ALL) {
        assert_eq!(t.ggml_type, ty);
        assert_eq!(t.name, format!("t.{}", ty.name()));
        // Two blocks per row, three rows.
        assert_eq!(t.shape, vec![2 * ty.block_size(), 3]);
        assert_eq!(t.size, 6 * ty.type_size());
        assert_eq!(GgmlType::from_id(ty.id()), Some(ty));
    }
    assert_eq!(file.alignment(), 32);
    let align = parse_path(&fixture("align64.gguf"));
    assert_eq!(align.alignment(), 64);
    assert_eq!(align.tensor_data_offset() % 64, 0);
    assert_eq!(align.parameter_count(), 6 + 5 + 32);
}

#[test]
fn corpus_files_match_gguf_py() {
    let mut n = 0;
    for (stem, path) in common::corpus_vocab_files() {
        let file = parse_path(&path);
        assert_matches(
            &digest_doc(&file),
            &golden(&format!("corpus-{stem}.json")),
            stem,
        );
        // Vocab-only files: the whole file is metadata, read once.
        let stats = file.read_stats();
        assert!(stats.bytes_read <= file.file_size(), "{stem}: {stats:?}");
        n += 1;
    }
    assert_eq!(n, 8);
}

#[test]
fn f32_json_numbers_read_back_exactly() {
    // Every score in the SPM corpus files: the JSON number we print parses
    // back (as f32) to the same f32.
    for name in ["llama-spm.gguf", "gemma3.gguf", "mistral-hf.gguf"] {
        let file = parse_path(&common::corpus_file(name));
        let Some(gguf_meta::Array::F32(scores)) = file.get_array("tokenizer.ggml.scores") else {
            panic!("{name}: no f32 scores");
        };
        for &x in scores {
            let text = gguf_meta::f32_to_json(x).to_string();
            assert_eq!(
                text.parse::<f32>().unwrap(),
                x,
                "{name}: {x} printed as {text}"
            );
        }
    }
    // The shortest f32 decimal, not the double nearest the f32.
    for (x, shortest) in [
        (1e-5f32, 1e-5f64),
        (0.1, 0.1),
        (3.4e38, 3.4e38),
        (1.0 / 3.0, 0.33333334),
    ] {
        assert_eq!(gguf_meta::f32_to_json(x).as_f64(), Some(shortest));
    }
    assert_eq!(gguf_meta::f32_to_json(f32::NAN), serde_json::json!("NaN"));
}

/// Counts what is read.
struct Counting<S> {
    inner: S,
    bytes: u64,
    calls: u64,
}

impl<S: ReadAt> ReadAt for Counting<S> {
    fn size(&mut self) -> std::io::Result<u64> {
        self.inner.size()
    }
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read_at(offset, buf)?;
        self.bytes += n as u64;
        self.calls += 1;
        Ok(n)
    }
}

#[test]
fn smollm2_matches_gguf_py_and_reads_only_metadata() {
    let path = smollm2();
    let f = std::fs::File::open(&path).unwrap();
    let mut src = Counting {
        inner: SeekSource::new(f),
        bytes: 0,
        calls: 0,
    };
    let start = Instant::now();
    let file = parse(&mut src).unwrap();
    let elapsed = start.elapsed();
    println!(
        "SmolLM2 ({} bytes): metadata parsed in {:.2?}, {} bytes read in {} reads, tensor data at {}",
        file.file_size(),
        elapsed,
        src.bytes,
        src.calls,
        file.tensor_data_offset()
    );
    assert_eq!(file.read_stats().bytes_read, src.bytes);
    assert_eq!(file.file_size(), testkit::SMOLLM2_SIZE);
    // The metadata plus at most one 1 MiB chunk past it.
    assert!(
        src.bytes <= file.tensor_data_offset() + (1 << 20),
        "read {}",
        src.bytes
    );
    assert!(src.bytes < file.file_size() / 30);
    assert_matches(&digest_doc(&file), &golden("smollm2.json"), "smollm2");

    // Sizes, parameters, memory.
    assert_eq!(file.architecture(), Some("llama"));
    assert_eq!(file.tensors().len(), 272);
    let data_end = file
        .tensors()
        .iter()
        .map(|t| file.tensor_data_offset() + t.offset + t.size)
        .max()
        .unwrap();
    assert!(data_end <= file.file_size() && file.file_size() - data_end < 32);
    assert_eq!(file.parameter_count(), 134_515_008);
    let mem = file.estimate_memory(4096);
    // 30 layers × (64 × 3 KV heads × 4096 tokens) × 2 bytes, keys and values.
    assert_eq!(mem.kv_keys, 30 * 64 * 3 * 4096 * 2);
    assert_eq!(mem.kv_values, mem.kv_keys);
    assert_eq!(mem.weights, file.tensor_bytes());
    assert!(mem.has_attention);
    // Dominated by the logits of a 512-token batch over 49,152 tokens.
    let logits = 2 * 4 * 512 * (576 + 49152);
    assert!(mem.compute > logits && mem.compute < 2 * logits, "{mem:?}");
    println!(
        "SmolLM2 at num_ctx 4096: weights {} + KV {} + compute {} = {} bytes",
        mem.weights,
        mem.kv_cache(),
        mem.compute,
        mem.total()
    );
}

#[test]
fn smollm2_parse_time_release_like() {
    // Parsing from memory, repeated: the cost of the parser itself.
    let path = smollm2();
    let f = std::fs::File::open(&path).unwrap();
    let first = parse(SeekSource::new(f)).unwrap();
    let mut head = vec![0u8; first.tensor_data_offset() as usize];
    use std::io::Read;
    std::fs::File::open(&path)
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    // A source that claims the full size but only holds the metadata: the
    // parser must never ask for more.
    struct Head<'a>(&'a [u8], u64);
    impl ReadAt for Head<'_> {
        fn size(&mut self) -> std::io::Result<u64> {
            Ok(self.1)
        }
        fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
            let mut s = self.0;
            let n = s.read_at(offset, buf)?;
            // Past the metadata, pretend the rest is zeros.
            if n < buf.len() && offset + (n as u64) < self.1 {
                let end = buf.len().min((self.1 - offset) as usize);
                buf[n..end].fill(0);
                return Ok(end);
            }
            Ok(n)
        }
    }
    let runs = 5;
    let start = Instant::now();
    for _ in 0..runs {
        let f = parse(Head(&head, first.file_size())).unwrap();
        assert_eq!(f.metadata().len(), first.metadata().len());
    }
    println!(
        "SmolLM2 metadata ({} bytes) parsed from memory in {:.2?} per run",
        head.len(),
        start.elapsed() / runs
    );
}
