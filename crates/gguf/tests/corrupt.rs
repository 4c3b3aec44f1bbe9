//! Truncated, corrupt and hostile files: each gets a clear error naming
//! the offset and what was being read; none panics, allocates without
//! bound or hangs.

mod common;

use common::W;
use gguf_meta::{parse, parse_with, ErrorKind, ParseOptions, ReadAt, MAX_ARRAY_DEPTH};

fn err(bytes: &[u8]) -> String {
    match parse(bytes) {
        Ok(f) => panic!("parsed: {:?}", f.to_json()),
        Err(e) => e.to_string(),
    }
}

/// A small valid file; returns it with (start, end, expected context) for
/// every item, in file order.
fn small_file(big: bool) -> (Vec<u8>, Vec<(u64, u64, String)>) {
    let mut w = W::new(big);
    let mut at = Vec::new();
    fn mark(at: &mut Vec<(u64, u64, String)>, w: &W, start: u64, what: String) {
        at.push((start, w.pos(), what));
    }
    w.raw(b"GGUF");
    mark(&mut at, &w, 0, "the header magic".into());
    w.u32(3);
    mark(&mut at, &w, 4, "the header version".into());
    w.u64(2);
    mark(&mut at, &w, 8, "the header tensor count".into());
    w.u64(4);
    mark(&mut at, &w, 16, "the header key/value count".into());
    type WriteValue<'a> = &'a dyn Fn(&mut W);
    let kvs: [(&str, WriteValue); 4] = [
        ("general.architecture", &|w: &mut W| {
            w.u32(8).str("llama");
        }),
        ("llama.block_count", &|w: &mut W| {
            w.u32(4).u32(2);
        }),
        ("tokenizer.ggml.tokens", &|w: &mut W| {
            w.u32(9).u32(8).u64(3).str("a").str("bc").str("<s>");
        }),
        ("test.nested", &|w: &mut W| {
            // array<array<u8>>: [[1, 2], [3]]
            w.u32(9).u32(9).u64(2);
            w.u32(0).u64(2).u8(1).u8(2);
            w.u32(0).u64(1).u8(3);
        }),
    ];
    for (i, (key, value)) in kvs.iter().enumerate() {
        let s = w.pos();
        w.str(key);
        mark(&mut at, &w, s, format!("the name of key #{i}"));
        let s = w.pos();
        // The type tag is the first 4 bytes the value writer emits.
        let before = w.buf.len();
        value(&mut w);
        let tag_end = before as u64 + 4;
        at.push((s, tag_end, format!("the type of key {key:?}")));
        at.push((tag_end, w.pos(), format!("the value of key {key:?}")));
    }
    let tensors: [(&str, &[u64], u32, u64); 2] = [
        ("token_embd.weight", &[4, 2], 0, 0),
        ("blk.0.attn_q.weight", &[32], 2, 32),
    ];
    for (i, (name, dims, t, offset)) in tensors.iter().enumerate() {
        let s = w.pos();
        w.str(name);
        mark(&mut at, &w, s, format!("the name of tensor #{i}"));
        let s = w.pos();
        w.u32(dims.len() as u32);
        for &d in dims.iter() {
            w.u64(d);
        }
        mark(&mut at, &w, s, format!("the shape of tensor #{i} {name:?}"));
        let s = w.pos();
        w.u32(*t);
        mark(&mut at, &w, s, format!("the type of tensor #{i} {name:?}"));
        let s = w.pos();
        w.u64(*offset);
        mark(
            &mut at,
            &w,
            s,
            format!("the offset of tensor #{i} {name:?}"),
        );
    }
    let s = w.pos();
    w.pad(32);
    let data = w.pos();
    w.zeros(32);
    mark(
        &mut at,
        &w,
        s,
        "the data of tensor #0 \"token_embd.weight\"".into(),
    );
    let s = w.pos();
    w.zeros(18);
    mark(
        &mut at,
        &w,
        s,
        "the data of tensor #1 \"blk.0.attn_q.weight\"".into(),
    );
    assert_eq!(data % 32, 0);
    (w.bytes(), at)
}

#[test]
fn small_file_parses() {
    for big in [false, true] {
        let (bytes, _) = small_file(big);
        let f = parse(&bytes[..]).unwrap();
        assert_eq!(f.metadata().len(), 4);
        assert_eq!(f.tensors().len(), 2);
        assert_eq!(f.tensors()[1].size, 18);
        assert_eq!(f.parameter_count(), 8 + 32);
        assert_eq!(
            f.get("test.nested").unwrap().type_name(),
            "array<array<u8>>"
        );
        assert_eq!(
            f.get("test.nested").unwrap().to_json(),
            serde_json::json!([[1, 2], [3]])
        );
    }
    let (le, _) = small_file(false);
    let (be, _) = small_file(true);
    assert_ne!(le, be);
    assert_eq!(
        parse(&le[..]).unwrap().to_json(),
        parse(&be[..]).unwrap().to_json()
    );
}

#[test]
fn truncated_at_every_byte() {
    for big in [false, true] {
        let (bytes, items) = small_file(big);
        let header_counts_room = 24 + 4 * 13 + 2 * 24;
        for cut in 0..bytes.len() {
            let e = parse_with(&bytes[..cut], &ParseOptions::new().chunk_size(1 + cut % 5))
                .expect_err("a truncated file must not parse");
            let msg = e.to_string();
            let (_, _, what) = items
                .iter()
                .find(|(s, end, _)| (*s as usize) <= cut && cut < *end as usize)
                .unwrap_or_else(|| panic!("no item at {cut}"));
            // The header's counts are checked against the bytes left first.
            let counts_first = cut < header_counts_room
                && (msg.ends_with("while reading the header key/value count")
                    || msg.ends_with("while reading the header tensor count"));
            assert!(
                msg.ends_with(&format!("while reading {what}"))
                    || msg.contains(&format!("while reading {what} at element"))
                    || counts_first,
                "cut at {cut}: {msg:?}, expected {what:?}"
            );
            match e.kind() {
                ErrorKind::Truncated
                | ErrorKind::CountTooLarge { .. }
                | ErrorKind::StringTooLong { .. } => assert!(e.offset() <= cut as u64, "{msg}"),
                ErrorKind::TensorOutOfBounds { .. } => assert!(what.starts_with("the data")),
                other => panic!("cut at {cut}: unexpected {other:?}"),
            }
        }
        assert!(parse(&bytes[..]).is_ok());
    }
}

#[test]
fn truncation_messages() {
    let (bytes, _) = small_file(false);
    assert_eq!(
        err(&bytes[..2]),
        "truncated file at offset 0 while reading the header magic"
    );
    assert_eq!(
        err(&bytes[..6]),
        "truncated file at offset 4 while reading the header version"
    );
    // Inside token 80 of 100 (a shorter cut fails the length check first).
    let mut w = header(1, 0);
    let tokens: Vec<String> = (0..100).map(|i| format!("tok{i:02}")).collect();
    w.kv_strings(
        "tokenizer.ggml.tokens",
        &tokens.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
    );
    let bytes80 = w.bytes();
    let token80 = bytes80.windows(5).position(|w| w == b"tok80").unwrap();
    assert_eq!(
        err(&bytes80[..token80 + 2]),
        format!(
            "truncated file at offset {} while reading the value of key \"tokenizer.ggml.tokens\" at element [80]",
            token80 - 8
        )
    );
    // A real vocabulary cut short.
    let spm = std::fs::read(common::corpus_file("llama-spm.gguf")).unwrap();
    let msg = err(&spm[..300_000]);
    assert!(
        msg.starts_with("truncated file at offset ")
            && msg
                .contains(" while reading the value of key \"tokenizer.ggml.tokens\" at element ["),
        "{msg}"
    );
    // Inside [[1, 2], [3]]: the length of element [1] says 1 byte, none is left.
    let end_of_kvs = bytes
        .windows(17)
        .position(|w| w == b"token_embd.weight")
        .unwrap()
        - 8;
    assert_eq!(
        err(&bytes[..end_of_kvs - 1]),
        format!(
            "truncated file at offset {} while reading the value of key \"test.nested\" at element [1]",
            end_of_kvs - 9
        )
    );
}

fn header(kvs: u64, tensors: u64) -> W {
    let mut w = W::new(false);
    w.header(3, tensors, kvs);
    w
}

#[test]
fn wrong_magic_and_versions() {
    assert_eq!(
        err(b"GGML\x03\0\0\0"),
        "not a GGUF file (magic \"GGML\", expected \"GGUF\") at offset 0 while reading the header magic"
    );
    assert_eq!(
        err(b""),
        "truncated file at offset 0 while reading the header magic"
    );
    let mut w = W::new(false);
    w.raw(b"GGUF").u32(1).u32(0).u32(0);
    assert_eq!(
        err(&w.bytes()),
        "GGUF version 1 is not supported (it used 32-bit counts; convert the model again with a current llama.cpp) at offset 4 while reading the header version"
    );
    let mut w = W::new(false);
    w.header(4, 0, 0);
    assert_eq!(
        err(&w.bytes()),
        "unsupported GGUF version 4 (versions 2 and 3 are supported) at offset 4 while reading the header version"
    );
    // Version 2 has the same layout as 3.
    let mut w = W::new(false);
    w.header(2, 0, 1).kv_u32("a", 1);
    assert_eq!(parse(&w.bytes()[..]).unwrap().version(), 2);
    // A big-endian version 1 is rejected the same way.
    let mut w = W::new(true);
    w.raw(b"GGUF").u32(1).u32(0).u32(0);
    assert!(err(&w.bytes()).starts_with("GGUF version 1 is not supported"));
}

#[test]
fn big_endian_detected_and_read() {
    let mut w = W::new(true);
    w.header(3, 1, 2)
        .kv_str("general.architecture", "llama")
        .kv_u32("general.alignment", 64)
        .tensor("x", &[2, 2], 0, 0)
        .pad(64)
        .zeros(16);
    let f = parse(&w.bytes()[..]).unwrap();
    assert_eq!(f.endian(), gguf_meta::Endian::Big);
    assert_eq!(f.architecture(), Some("llama"));
    assert_eq!(f.alignment(), 64);
    assert_eq!(f.tensors()[0].shape, vec![2, 2]);
    assert_eq!(f.tensor_data_offset() % 64, 0);
}

#[test]
fn absurd_counts() {
    let mut w = header(1 << 60, 0);
    w.kv_u32("a", 1);
    assert_eq!(
        err(&w.bytes()),
        "key/value count 1152921504606846976 cannot fit in the 17 bytes left in the file (each takes at least 13 bytes) at offset 16 while reading the header key/value count"
    );
    let mut w = header(0, 1 << 60);
    w.tensor("t", &[1], 0, 0);
    assert_eq!(
        err(&w.bytes()),
        "tensor count 1152921504606846976 cannot fit in the 33 bytes left in the file (each takes at least 24 bytes) at offset 8 while reading the header tensor count"
    );
    // A key name of length 2^63.
    let mut w = header(1, 0);
    w.u64(1 << 63).raw(b"abc").u32(4).u32(0);
    assert_eq!(
        err(&w.bytes()),
        "string length 9223372036854775808 exceeds the 11 bytes left in the file at offset 24 while reading the name of key #0"
    );
    // A string value of length 2^63.
    let mut w = header(1, 0);
    w.str("k").u32(8).u64(1 << 63).raw(b"abcdef");
    assert_eq!(
        err(&w.bytes()),
        "string length 9223372036854775808 exceeds the 6 bytes left in the file at offset 37 while reading the value of key \"k\""
    );
    // An array of 2^62 u32.
    let mut w = header(1, 0);
    w.str("k").u32(9).u32(4).u64(1 << 62).u32(7);
    assert_eq!(
        err(&w.bytes()),
        "array length 4611686018427387904 cannot fit in the 4 bytes left in the file (each takes at least 4 bytes) at offset 41 while reading the value of key \"k\""
    );
    // An array of u64::MAX strings, and of arrays.
    let mut w = header(1, 0);
    w.str("k").u32(9).u32(8).u64(u64::MAX).str("x");
    assert!(err(&w.bytes()).starts_with("array length 18446744073709551615 cannot fit in the 9 bytes left in the file (each takes at least 8 bytes)"));
    let mut w = header(1, 0);
    w.str("k").u32(9).u32(9).u64(u64::MAX).zeros(100);
    assert!(err(&w.bytes()).contains("(each takes at least 12 bytes)"));
    // A string inside an array whose length is absurd.
    let mut w = header(1, 0);
    w.str("k")
        .u32(9)
        .u32(8)
        .u64(2)
        .str("ok")
        .u64(u64::MAX)
        .zeros(8);
    assert_eq!(
        err(&w.bytes()),
        "string length 18446744073709551615 exceeds the 8 bytes left in the file at offset 59 while reading the value of key \"k\" at element [1]"
    );
}

#[test]
fn bad_tensor_infos() {
    let with_tensor = |dims: &[u64], t: u32, offset: u64, data: usize| {
        let mut w = header(0, 1);
        w.tensor("w", dims, t, offset).pad(32).zeros(data);
        err(&w.bytes())
    };
    // n_dims = 1000.
    let mut w = header(0, 1);
    w.str("w").u32(1000).zeros(64);
    assert_eq!(
        err(&w.bytes()),
        "1000 dimensions (ggml allows at most 4) at offset 33 while reading the shape of tensor #0 \"w\""
    );
    assert_eq!(
        with_tensor(&[4], 4, 0, 64),
        "unknown ggml type 4 at offset 45 while reading the type of tensor #0 \"w\""
    );
    assert_eq!(
        with_tensor(&[4], 1000, 0, 64),
        "unknown ggml type 1000 at offset 45 while reading the type of tensor #0 \"w\""
    );
    assert_eq!(
        with_tensor(&[4], 0, 1 << 40, 64),
        "tensor data (16 bytes from offset 1099511627840) extends past the end of the file (128 bytes) at offset 1099511627840 while reading the data of tensor #0 \"w\""
    );
    assert_eq!(
        with_tensor(&[4], 0, 4, 64),
        "tensor offset 4 is not a multiple of the alignment 32 at offset 49 while reading the offset of tensor #0 \"w\""
    );
    assert_eq!(
        with_tensor(&[40], 2, 0, 64),
        "invalid tensor shape: the first dimension 40 is not a multiple of the Q4_0 block size 32 at offset 45 while reading the type of tensor #0 \"w\""
    );
    assert_eq!(
        with_tensor(&[1 << 63], 0, 0, 64),
        "invalid tensor shape: dimension 0 is 9223372036854775808, above ggml's limit of 9223372036854775807 at offset 33 while reading the shape of tensor #0 \"w\""
    );
    assert!(with_tensor(&[1 << 40, 1 << 40], 0, 0, 64).starts_with(
        "invalid tensor shape: the element count of [1099511627776, 1099511627776] overflows ggml's int64"
    ));
    assert!(with_tensor(&[1 << 62], 27, 0, 64)
        .starts_with("invalid tensor shape: the byte size of [4611686018427387904] I64 overflows"));
    // Data past the end by one byte.
    assert!(with_tensor(&[4], 0, 0, 15).starts_with("tensor data (16 bytes from offset 64)"));
    // Duplicate names.
    let mut w = header(0, 2);
    w.tensor("w", &[4], 0, 0)
        .tensor("w", &[4], 0, 32)
        .pad(32)
        .zeros(64);
    assert_eq!(
        err(&w.bytes()),
        "duplicate tensor name \"w\" at offset 57 while reading the name of tensor #1"
    );
}

#[test]
fn bad_keys_and_values() {
    let mut w = header(1, 0);
    w.str("k").u32(13).u32(0);
    assert_eq!(
        err(&w.bytes()),
        "unknown value type 13 at offset 33 while reading the type of key \"k\""
    );
    let mut w = header(1, 0);
    w.str("k").u32(9).u32(99).u64(1).zeros(8);
    assert_eq!(
        err(&w.bytes()),
        "unknown value type 99 at offset 37 while reading the value of key \"k\""
    );
    let mut w = header(2, 0);
    w.kv_u32("k", 1).kv_u32("k", 2);
    assert_eq!(
        err(&w.bytes()),
        "duplicate key \"k\" at offset 41 while reading the name of key #1"
    );
    for (value, why) in [
        (48u32, "48 is not a power of two"),
        (0, "0 is not a power of two"),
    ] {
        let mut w = header(1, 0);
        w.kv_u32("general.alignment", value);
        assert_eq!(
            err(&w.bytes()),
            format!("invalid general.alignment: {why} at offset 24 while reading the value of key \"general.alignment\"")
        );
    }
    let mut w = header(1, 0);
    w.kv_str("general.alignment", "32");
    assert_eq!(
        err(&w.bytes()),
        "invalid general.alignment: type string instead of u32 at offset 24 while reading the value of key \"general.alignment\""
    );
    // Invalid UTF-8 is kept in values and replaced in keys.
    let mut w = header(2, 0);
    w.str("k").u32(8).u64(2).raw(&[0xff, b'a']);
    w.u64(2).raw(&[b'x', 0xfe]).u32(4).u32(1);
    let f = parse(&w.bytes()[..]).unwrap();
    assert_eq!(
        f.get("k").unwrap().as_gguf_string().unwrap().as_bytes(),
        &[0xff, b'a']
    );
    assert_eq!(f.metadata()[1].key, "x\u{fffd}");
}

fn nested(depth: usize) -> Vec<u8> {
    let mut w = header(1, 0);
    w.str("deep").u32(9);
    for _ in 1..depth {
        w.u32(9).u64(1);
    }
    w.u32(0).u64(1).u8(42);
    w.bytes()
}

#[test]
fn deeply_nested_arrays() {
    let f = parse(&nested(MAX_ARRAY_DEPTH)[..]).unwrap();
    let v = f.get("deep").unwrap();
    assert_eq!(
        v.type_name(),
        format!(
            "{}u8{}",
            "array<".repeat(MAX_ARRAY_DEPTH),
            ">".repeat(MAX_ARRAY_DEPTH)
        )
    );
    assert_eq!(
        err(&nested(MAX_ARRAY_DEPTH + 1)),
        format!(
            "arrays nested more than 16 deep at offset {} while reading the value of key \"deep\" at element {}",
            24 + (8 + 4) + 4 + 12 * MAX_ARRAY_DEPTH,
            "[0]".repeat(MAX_ARRAY_DEPTH)
        )
    );
    // A million levels: refused at level 17, without recursion.
    let msg = err(&nested(1_000_000));
    assert!(msg.starts_with("arrays nested more than 16 deep"), "{msg}");
    // Many empty inner arrays are fine.
    let mut w = header(1, 0);
    w.str("k").u32(9).u32(9).u64(10_000);
    for _ in 0..10_000 {
        w.u32(4).u64(0);
    }
    let f = parse(&w.bytes()[..]).unwrap();
    assert_eq!(f.get("k").unwrap().as_array().unwrap().len(), 10_000);
    assert_eq!(f.get("k").unwrap().type_name(), "array<array<u32>>");
}

#[test]
fn metadata_size_limit() {
    let (bytes, _) = small_file(false);
    let e = parse_with(&bytes[..], &ParseOptions::new().max_metadata_size(60)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "key/value count 4 cannot fit in the 36 bytes left under the metadata size limit (each takes at least 13 bytes) at offset 16 while reading the header key/value count"
    );
    let e = parse_with(&bytes[..], &ParseOptions::new().max_metadata_size(150)).unwrap_err();
    assert!(
        e.to_string().contains("left under the metadata size limit"),
        "{e}"
    );
    assert!(parse_with(
        &bytes[..],
        &ParseOptions::new().max_metadata_size(bytes.len() as u64)
    )
    .is_ok());
}

struct Failing;
impl ReadAt for Failing {
    fn size(&mut self) -> std::io::Result<u64> {
        Ok(1000)
    }
    fn read_at(&mut self, _: u64, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("disk on fire"))
    }
}

/// Reports more bytes than it has.
struct Liar(Vec<u8>);
impl ReadAt for Liar {
    fn size(&mut self) -> std::io::Result<u64> {
        Ok(self.0.len() as u64 + 1000)
    }
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        (&self.0[..]).read_at(offset, buf)
    }
}

/// One byte per read.
struct Trickle<'a>(&'a [u8]);
impl ReadAt for Trickle<'_> {
    fn size(&mut self) -> std::io::Result<u64> {
        Ok(self.0.len() as u64)
    }
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(1);
        (&self.0[..]).read_at(offset, &mut buf[..n])
    }
}

#[test]
fn misbehaving_sources() {
    assert_eq!(
        parse(Failing).unwrap_err().to_string(),
        "read error (disk on fire) at offset 0 while reading the header magic"
    );
    let (bytes, _) = small_file(false);
    let e = parse(Liar(bytes[..100].to_vec())).unwrap_err();
    assert!(
        e.to_string()
            .contains("the source ended at 100, before the size it reported (1100)"),
        "{e}"
    );
    let f = parse(Trickle(&bytes)).unwrap();
    assert_eq!(f.to_json(), parse(&bytes[..]).unwrap().to_json());
    assert_eq!(f.read_stats().bytes_read, f.read_stats().read_calls);
}
