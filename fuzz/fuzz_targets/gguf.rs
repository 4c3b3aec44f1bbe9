//! GGUF metadata parsing of arbitrary bytes (`crates/gguf`): no panic, no
//! unbounded allocation, no hang; and the outcome does not depend on how
//! the bytes are read (whole, in tiny chunks, through `Read + Seek`); and
//! llama-quantize COPY's rewrite of a file reads back.
#![no_main]

use gguf_meta::{parse, parse_with, ParseOptions, SeekSource};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let whole = parse(data);
    // A chunk size of 1 to 64 bytes, from the last byte, so that buffer
    // refills fall everywhere.
    let chunk = data.last().map_or(1, |&b| 1 + usize::from(b % 64));
    let small = parse_with(data, &ParseOptions::new().chunk_size(chunk));
    let seek = parse(SeekSource::new(std::io::Cursor::new(data)));
    for other in [&small, &seek] {
        match (&whole, other) {
            (Ok(a), Ok(b)) => assert_eq!(a.to_json(), b.to_json()),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!(
                "outcome depends on the reads: {:?} vs {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    }
    match whole {
        Ok(file) => {
            let _ = file.to_json().to_string();
            let _ = file.parameter_count();
            let _ = file.tensor_bytes();
            for num_ctx in [0, 1, 4096, u64::MAX] {
                let m = file.estimate_memory(num_ctx);
                let _ = m.total();
            }
            for kv in file.metadata() {
                let _ = kv.value.type_name();
            }
            // Ollama's own writer (a projector given clip.projector_type):
            // no panic, and an error only in Ollama's words
            match gguf_meta::copy::ollama_write_gguf(&file, &[]) {
                Ok(c) => assert!(c.pieces.len() == file.tensors().len()),
                Err(e) => assert!(
                    e.starts_with("improper type for ") || e == "architecture not set" || e == "a big-endian GGUF",
                    "{e}"
                ),
            }
            // llama-quantize COPY's file: an aligned header, and the whole
            // file (where the input holds the tensors' bytes) reads back
            // with the same tensors
            if let Ok(c) = gguf_meta::copy::llama_quantize_copy(&file) {
                assert_eq!(c.header.len() % 32, 0);
                let mut out = c.header.clone();
                let mut whole = true;
                for p in &c.pieces {
                    let from = usize::try_from(p.from).unwrap_or(usize::MAX);
                    let size = usize::try_from(p.size).unwrap_or(usize::MAX);
                    match data.get(from..from.saturating_add(size)) {
                        Some(b) => out.extend_from_slice(b),
                        None => {
                            whole = false;
                            break;
                        }
                    }
                    out.resize(out.len() + p.pad as usize, 0);
                }
                // (an input whose general.alignment is not 32 keeps the key
                // while llama-quantize aligns the data to 32, so its output
                // does not read back: as llama.cpp b10488 writes it)
                let align = file.get("general.alignment");
                let realigned = align.is_some() && align != Some(&gguf_meta::Value::U32(32));
                if whole && !realigned {
                    let back = parse(&out[..]).expect("the copy reads back");
                    assert_eq!(back.tensors().len(), file.tensors().len());
                    assert!(back.metadata().len() >= 2);
                }
            }
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains(" at offset "), "{msg}");
        }
    }
});
