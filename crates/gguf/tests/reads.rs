//! What the parser reads: a 30 GB model costs its metadata plus at most one
//! chunk; the async entry point reads an async source (futures that are
//! pending before they are ready) to the same result.

mod common;

use std::future::Future;
use std::io;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use common::W;
use gguf_meta::{parse, parse_async, parse_with, AsyncReadAt, ParseOptions, ReadAt};

/// A 30 GB "file": real metadata, then zeros, never materialised. Counts
/// every byte read.
struct Virtual {
    head: Vec<u8>,
    size: u64,
    bytes: u64,
    calls: u64,
    furthest: u64,
}

impl ReadAt for Virtual {
    fn size(&mut self) -> io::Result<u64> {
        Ok(self.size)
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.size.saturating_sub(offset) as usize);
        for (i, b) in buf[..n].iter_mut().enumerate() {
            *b = self.head.get(offset as usize + i).copied().unwrap_or(0);
        }
        self.bytes += n as u64;
        self.calls += 1;
        self.furthest = self.furthest.max(offset + n as u64);
        Ok(n)
    }
}

/// Metadata of a model with `layers` × 7 tensors of `rows` × 4096 F16 and
/// a 50,000-token vocabulary; returns (metadata bytes, total file size).
fn big_model(layers: u64, rows: u64) -> (Vec<u8>, u64) {
    let names = [
        "attn_q",
        "attn_k",
        "attn_v",
        "attn_output",
        "ffn_gate",
        "ffn_up",
        "ffn_down",
    ];
    let mut w = W::new(false);
    w.header(3, layers * names.len() as u64, 6)
        .kv_str("general.architecture", "llama")
        .kv_u32("llama.block_count", layers as u32)
        .kv_u32("llama.embedding_length", 4096)
        .kv_u32("llama.attention.head_count", 32)
        .kv_u32("llama.attention.head_count_kv", 8);
    let tokens: Vec<String> = (0..50_000).map(|i| format!("token{i}")).collect();
    w.kv_strings(
        "tokenizer.ggml.tokens",
        &tokens.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
    );
    let size = rows * 4096 * 2;
    let mut offset = 0;
    for l in 0..layers {
        for n in names {
            w.tensor(&format!("blk.{l}.{n}.weight"), &[4096, rows], 1, offset);
            offset += size;
        }
    }
    w.pad(32);
    let total = w.pos() + offset;
    (w.bytes(), total)
}

#[test]
fn a_30_gb_file_costs_its_metadata_plus_one_chunk() {
    let (head, size) = big_model(80, 13_000);
    assert!(size > 30_000_000_000, "{size}");
    let mut src = Virtual {
        head,
        size,
        bytes: 0,
        calls: 0,
        furthest: 0,
    };
    let file = parse(&mut src).unwrap();
    let meta = file.tensor_data_offset();
    println!(
        "30 GB model: {} bytes of metadata, {} bytes read in {} reads",
        meta, src.bytes, src.calls
    );
    assert_eq!(file.tensors().len(), 560);
    assert_eq!(file.tensor_bytes() + meta, size);
    assert!(src.bytes <= meta + (1 << 20), "{} bytes read", src.bytes);
    assert!(src.furthest <= meta + (1 << 20));
    assert!(src.calls <= meta / (1 << 20) + 2, "{} reads", src.calls);
    assert_eq!(file.read_stats().bytes_read, src.bytes);
    let mem = file.estimate_memory(8192);
    // 80 layers × 128 × 8 heads × 8192 × 2 bytes.
    assert_eq!(mem.kv_keys, 80 * 128 * 8 * 8192 * 2);
    assert_eq!(mem.weights, size - meta);

    // With small chunks the bound is tighter, in more reads.
    let mut src = Virtual {
        head: src.head,
        size,
        bytes: 0,
        calls: 0,
        furthest: 0,
    };
    parse_with(&mut src, &ParseOptions::new().chunk_size(4096)).unwrap();
    assert!(src.bytes <= meta + 4096, "{} bytes read", src.bytes);
}

/// An async source whose every read is pending once before it is ready,
/// like a browser `Blob` read.
struct Slow<'a> {
    data: &'a [u8],
    polls: u64,
}

struct YieldOnce<T> {
    value: Option<T>,
    yielded: bool,
}

impl<T: Unpin> Future for YieldOnce<T> {
    type Output = T;
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        if !self.yielded {
            self.yielded = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        match self.value.take() {
            Some(v) => Poll::Ready(v),
            None => Poll::Pending,
        }
    }
}

impl AsyncReadAt for Slow<'_> {
    fn size(&mut self) -> impl Future<Output = io::Result<u64>> {
        YieldOnce {
            value: Some(Ok(self.data.len() as u64)),
            yielded: false,
        }
    }

    async fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        self.polls += 1;
        let mut data = self.data;
        let result = data.read_at(offset, buf);
        YieldOnce {
            value: Some(()),
            yielded: false,
        }
        .await;
        result
    }
}

/// Polls a future to completion (a busy loop: enough for a test).
fn block_on<F: Future>(f: F) -> (F::Output, u64) {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    let mut pending = 0;
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return (v, pending);
        }
        pending += 1;
    }
}

#[test]
fn async_source_gives_the_same_result() {
    for name in ["all-types-le.gguf", "all-types-be.gguf", "align64.gguf"] {
        let bytes = std::fs::read(common::fixture(name)).unwrap();
        let mut src = Slow {
            data: &bytes,
            polls: 0,
        };
        let (result, pending) = block_on(parse_async(&mut src));
        let file = result.unwrap();
        assert!(pending >= 2, "{name}: the source was never pending");
        assert_eq!(
            file.to_json(),
            parse(&bytes[..]).unwrap().to_json(),
            "{name}"
        );
        // Errors too.
        let cut = &bytes[..bytes.len() / 2];
        let (async_err, _) = block_on(parse_async(Slow {
            data: cut,
            polls: 0,
        }));
        assert_eq!(
            async_err.unwrap_err().to_string(),
            parse(cut).unwrap_err().to_string()
        );
    }
}

#[test]
fn a_source_that_never_answers_leaves_the_future_pending() {
    // `parse` takes only `ReadAt` sources, which are always ready; the
    // async parser driven by hand with a source that never becomes ready
    // simply stays pending.
    struct Never;
    impl AsyncReadAt for Never {
        fn size(&mut self) -> impl Future<Output = io::Result<u64>> {
            std::future::pending()
        }
        fn read_at(&mut self, _: u64, _: &mut [u8]) -> impl Future<Output = io::Result<usize>> {
            std::future::pending()
        }
    }
    let mut f = pin!(parse_async(Never));
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..3 {
        assert!(f.as_mut().poll(&mut cx).is_pending());
    }
}
