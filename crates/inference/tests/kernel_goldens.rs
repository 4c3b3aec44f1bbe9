//! The matrix-product and dequantization kernels against goldens recorded
//! from llama.cpp (tools/kernel-goldens): `quant::matmul` must give
//! ggml_mul_mat's bits on llama.cpp's AVX2 CPU build, `quant::dequantize`
//! gguf-py's numpy dequantization.

use inference::quant::{self, Kind};
use std::io::Read;

fn golden(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/golden/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    let gz = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a
    }
    fn u32(&mut self) -> usize {
        u32::from_le_bytes(self.bytes(4).try_into().unwrap()) as usize
    }
    fn f32s(&mut self, n: usize) -> Vec<f32> {
        self.bytes(4 * n)
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
}

/// `b` copied to a 4-aligned place (the kernels need the blocks'
/// alignment, which a GGUF's tensor data has).
struct Aligned {
    store: Vec<u8>,
    start: usize,
    len: usize,
}

impl Aligned {
    fn new(b: &[u8]) -> Aligned {
        let mut store = vec![0u8; b.len() + 4];
        let start = store.as_ptr().align_offset(4);
        store[start..start + b.len()].copy_from_slice(b);
        Aligned {
            store,
            start,
            len: b.len(),
        }
    }
    fn as_slice(&self) -> &[u8] {
        &self.store[self.start..self.start + self.len]
    }
}

#[test]
fn dequantization_equals_gguf_py() {
    let data = golden("dequantize.bin.gz");
    let mut r = Reader(&data);
    assert_eq!(r.bytes(4), b"PSKD");
    assert_eq!(r.u32(), 1);
    let count = r.u32();
    let mut kinds = Vec::new();
    for _ in 0..count {
        let id = r.u32() as u32;
        let kind = Kind::from_ggml(id).unwrap_or_else(|| panic!("type {id}"));
        let nb = r.u32();
        let aligned = Aligned::new(r.bytes(nb));
        let nv = r.u32();
        let want = r.f32s(nv);
        let mut got = vec![0f32; nv];
        quant::dequantize(kind, aligned.as_slice(), &mut got).unwrap();
        let bad = got
            .iter()
            .zip(&want)
            .position(|(a, b)| a.to_bits() != b.to_bits());
        assert!(
            bad.is_none(),
            "{kind:?}: value {} is {} where gguf-py has {}",
            bad.unwrap(),
            got[bad.unwrap()],
            want[bad.unwrap()]
        );
        kinds.push(kind);
    }
    assert_eq!(kinds.len(), quant::KINDS.len(), "every kind is covered");
}

#[test]
fn matmul_equals_llama_cpp() {
    let data = golden("matmul.bin.gz");
    let mut r = Reader(&data);
    assert_eq!(r.bytes(4), b"PSKM");
    assert_eq!(r.u32(), 1);
    let mut lhs = std::collections::HashMap::new();
    for _ in 0..r.u32() {
        let k = r.u32();
        lhs.insert(k, r.f32s(8 * k));
    }
    let cases = r.u32();
    let (mut checked, mut failures) = (0, Vec::new());
    for _ in 0..cases {
        let id = r.u32() as u32;
        let kind = Kind::from_ggml(id).unwrap_or_else(|| panic!("type {id}"));
        let (k, n) = (r.u32(), r.u32());
        let ms: Vec<usize> = (0..r.u32()).map(|_| r.u32()).collect();
        let wb = r.u32();
        let w = Aligned::new(r.bytes(wb));
        let x = &lhs[&k];
        for m in ms {
            let want = r.f32s(m * n);
            let mut got = vec![0f32; m * n];
            quant::matmul(kind, w.as_slice(), (m, k, n), x, &mut got).unwrap();
            let bad = got
                .iter()
                .zip(&want)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            if bad > 0 {
                let i = got
                    .iter()
                    .zip(&want)
                    .position(|(a, b)| a.to_bits() != b.to_bits())
                    .unwrap();
                let rows: Vec<usize> = (0..m)
                    .filter(|r| {
                        (0..n).any(|j| got[r * n + j].to_bits() != want[r * n + j].to_bits())
                    })
                    .collect();
                failures.push(format!(
                    "{kind:?} k={k} n={n} m={m}: {bad} of {} differ (rows {rows:?}), first [{i}] {} vs {}",
                    m * n,
                    got[i],
                    want[i]
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 4 * quant::KINDS.len());
}
