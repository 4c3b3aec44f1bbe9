//! `promptscope gguf FILE [--json] [--num-ctx N]`: the metadata of a GGUF
//! file, without reading its tensor data (`shared/spec/cli.md`).
//!
//! `--json` prints the specified shape (`GgufFile::to_json`): version,
//! alignment, tensor_data_offset, every key/value with its type and complete
//! value, every tensor. The text form summarises: header, parameter count,
//! sizes, a memory estimate, keys (long arrays and strings shortened) and
//! tensors. A file that is not valid GGUF exits with 2 and a message naming
//! the byte offset and the key or tensor being read.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::{Duration, Instant};

use gguf_meta::{Array, Endian, GgufFile, SeekSource, Value};

use crate::{write_json_line, Failure};

/// Ollama's default context size, for the memory estimate.
const DEFAULT_NUM_CTX: u64 = 4096;

/// `promptscope gguf [--json] [--num-ctx N] FILE`.
#[derive(clap::Args)]
pub struct Args {
    /// The specified JSON shape, every value complete
    #[arg(long)]
    json: bool,
    /// Context size for the memory estimate (Ollama's default: 4096)
    #[arg(long, value_name = "N", value_parser = positive)]
    num_ctx: Option<u64>,
    /// The GGUF file (read by random access, so not standard input)
    #[arg(value_name = "FILE")]
    file: Option<String>,
}

fn positive(v: &str) -> Result<u64, String> {
    v.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("invalid --num-ctx {v:?}: expected a positive integer"))
}

/// Runs `promptscope gguf`.
pub fn run(args: Args) -> Result<(), Failure> {
    let path =
        match args.file.as_deref() {
            None | Some("-") => return Err(Failure::Usage(
                "gguf needs a FILE (a GGUF file is read by random access, not from standard input)"
                    .into(),
            )),
            Some(p) => p,
        };
    let file = std::fs::File::open(path)
        .map_err(|e| Failure::Usage(format!("cannot read {path}: {e}")))?;
    let start = Instant::now();
    let gguf = gguf_meta::parse(SeekSource::new(file))
        .map_err(|e| Failure::Usage(format!("{path}: {e}")))?;
    let elapsed = start.elapsed();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    if args.json {
        write_json_line(&mut out, &gguf.to_json())?;
    } else {
        let text = text_report(
            path,
            &gguf,
            args.num_ctx.unwrap_or(DEFAULT_NUM_CTX),
            elapsed,
        );
        out.write_all(text.as_bytes())
            .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))?;
    }
    out.flush()
        .map_err(|e| Failure::Usage(format!("cannot write output: {e}")))
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in binary units: `92.1 MiB`.
fn human(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// A parameter count: `134.5 M`, `7.24 B`.
fn params(n: u64) -> String {
    let v = n as f64;
    if v >= 1e9 {
        format!("{:.2} B", v / 1e9)
    } else if v >= 1e6 {
        format!("{:.1} M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.1} K", v / 1e3)
    } else {
        n.to_string()
    }
}

/// A string quoted with escapes, shortened past `max` characters.
fn quoted(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head:?}... ({} bytes)", s.len())
    }
}

/// One scalar or short value, as in the text summary.
fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => quoted(&s.to_string_lossy(), 100),
        Value::Array(a) => array_text(a, 100),
        other => other.to_json().to_string(),
    }
}

/// `[49152 × string] "a", "b", ...`: the length, the element type, and as
/// many elements as fit in about `width` characters.
fn array_text(a: &Array, width: usize) -> String {
    let elem = match a
        .type_name()
        .strip_prefix("array<")
        .and_then(|t| t.strip_suffix('>'))
    {
        Some(t) => t.to_string(),
        None => a.type_name(),
    };
    let mut out = format!("[{} × {elem}]", grouped(a.len() as u64));
    let mut shown = 0;
    for i in 0..a.len() {
        let item = match a.get(i) {
            Some(Value::String(s)) => quoted(&s.to_string_lossy(), 40),
            Some(Value::Array(inner)) => inner.to_json().to_string(),
            Some(other) => other.to_json().to_string(),
            None => break,
        };
        let sep = if shown == 0 { " " } else { ", " };
        if shown > 0 && out.len() + sep.len() + item.len() > width {
            break;
        }
        out.push_str(sep);
        out.push_str(&item);
        shown += 1;
    }
    if shown < a.len() {
        out.push_str(if shown == 0 { " ..." } else { ", ..." });
    }
    out
}

/// The human-readable summary.
fn text_report(path: &str, g: &GgufFile, num_ctx: u64, elapsed: Duration) -> String {
    let mut o = String::new();
    let endian = match g.endian() {
        Endian::Little => "little-endian",
        Endian::Big => "big-endian",
    };
    let _ = writeln!(o, "file:               {path}");
    let _ = writeln!(
        o,
        "format:             GGUF v{} ({endian}), {} bytes ({})",
        g.version(),
        grouped(g.file_size()),
        human(g.file_size())
    );
    if let Some(arch) = g.architecture() {
        let _ = writeln!(o, "architecture:       {arch}");
    }
    if let Some(name) = g.get_str("general.name") {
        let _ = writeln!(o, "name:               {name}");
    }
    let _ = writeln!(o, "alignment:          {}", g.alignment());
    let _ = writeln!(
        o,
        "tensor data offset: {} (metadata: {})",
        grouped(g.tensor_data_offset()),
        human(g.metadata_end())
    );
    let _ = writeln!(o, "metadata keys:      {}", g.metadata().len());
    let _ = writeln!(o, "tensors:            {}", g.tensors().len());
    if !g.tensors().is_empty() {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for t in g.tensors() {
            match counts.iter_mut().find(|(n, _)| *n == t.ggml_type.name()) {
                Some((_, c)) => *c += 1,
                None => counts.push((t.ggml_type.name(), 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = counts.iter().map(|(n, c)| format!("{n} × {c}")).collect();
        let _ = writeln!(o, "tensor types:       {}", list.join(", "));
        let _ = writeln!(
            o,
            "parameters:         {} ({})",
            grouped(g.parameter_count()),
            params(g.parameter_count())
        );
        let _ = writeln!(
            o,
            "tensor data:        {} bytes ({})",
            grouped(g.tensor_bytes()),
            human(g.tensor_bytes())
        );
        let mut contexts = vec![num_ctx];
        if let Some(train) = g.arch_get("context_length").and_then(Value::as_u64) {
            if train != num_ctx && train > 0 {
                contexts.push(train);
            }
        }
        for ctx in contexts {
            let m = g.estimate_memory(ctx);
            let _ = writeln!(
                o,
                "memory estimate:    {} at num_ctx {} = weights {} + KV cache {} ({}) + compute {}",
                human(m.total()),
                ctx,
                human(m.weights),
                human(m.kv_cache()),
                m.kv_type.name(),
                human(m.compute)
            );
        }
    }
    let stats = g.read_stats();
    let _ = writeln!(
        o,
        "read:               {} in {} reads, {:.1} ms",
        human(stats.bytes_read),
        stats.read_calls,
        elapsed.as_secs_f64() * 1000.0
    );

    let _ = writeln!(o, "\nmetadata:");
    let key_w = g
        .metadata()
        .iter()
        .map(|kv| kv.key.chars().count())
        .max()
        .unwrap_or(0)
        .min(48);
    let type_w = g
        .metadata()
        .iter()
        .map(|kv| kv.value.type_name().len())
        .max()
        .unwrap_or(0)
        .min(24);
    for kv in g.metadata() {
        let _ = writeln!(
            o,
            "  {:key_w$}  {:type_w$}  {}",
            kv.key,
            kv.value.type_name(),
            scalar_text(&kv.value)
        );
    }

    if !g.tensors().is_empty() {
        let _ = writeln!(o, "\ntensors:");
        let name_w = g
            .tensors()
            .iter()
            .map(|t| t.name.chars().count())
            .max()
            .unwrap_or(0)
            .clamp(4, 48);
        let shapes: Vec<String> = g
            .tensors()
            .iter()
            .map(|t| {
                let dims: Vec<String> = t.shape.iter().map(u64::to_string).collect();
                format!("[{}]", dims.join(", "))
            })
            .collect();
        let shape_w = shapes.iter().map(String::len).max().unwrap_or(0).max(5);
        let _ = writeln!(
            o,
            "  {:>5}  {:name_w$}  {:7}  {:shape_w$}  {:>15}  {:>15}",
            "#", "name", "type", "shape", "offset", "bytes"
        );
        for (i, (t, shape)) in g.tensors().iter().zip(&shapes).enumerate() {
            let _ = writeln!(
                o,
                "  {:>5}  {:name_w$}  {:7}  {:shape_w$}  {:>15}  {:>15}",
                i,
                t.name,
                t.ggml_type.name(),
                shape,
                grouped(t.offset),
                grouped(t.size)
            );
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> std::path::PathBuf {
        std::path::PathBuf::from(
            std::env::var_os("CARGO_MANIFEST_DIR")
                .expect("cargo sets CARGO_MANIFEST_DIR at run time"),
        )
        .join("../gguf/tests/fixtures")
        .join(name)
    }

    fn load(name: &str) -> GgufFile {
        let f = std::fs::File::open(fixture(name)).unwrap();
        gguf_meta::parse(SeekSource::new(f)).unwrap()
    }

    #[test]
    fn helpers() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(123), "123");
        assert_eq!(human(1023), "1023 bytes");
        assert_eq!(human(96_576_768), "92.1 MiB");
        assert_eq!(params(134_515_008), "134.5 M");
        assert_eq!(quoted("a\"b\n", 10), "\"a\\\"b\\n\"");
        assert_eq!(quoted("abcdef", 3), "\"abc\"... (6 bytes)");
    }

    #[test]
    fn arrays_are_summarised() {
        let a = Array::String(
            (0..49152)
                .map(|i| format!("t{i}").as_str().into())
                .collect(),
        );
        let s = array_text(&a, 40);
        assert!(s.starts_with("[49,152 × string] \"t0\", \"t1\", "), "{s}");
        assert!(s.ends_with(", ..."), "{s}");
        assert_eq!(array_text(&Array::U8(vec![1, 2]), 100), "[2 × u8] 1, 2");
        assert_eq!(array_text(&Array::U8(vec![]), 100), "[0 × u8]");
        assert_eq!(
            array_text(
                &Array::Array(vec![Array::I32(vec![1, 2]), Array::I32(vec![3])]),
                100
            ),
            "[2 × array<i32>] [1,2], [3]"
        );
    }

    #[test]
    fn text_report_of_the_fixture() {
        let g = load("all-types-le.gguf");
        let t = text_report("x.gguf", &g, 4096, Duration::from_millis(1));
        assert!(
            t.contains("format:             GGUF v3 (little-endian), 17,152 bytes (16.8 KiB)\n"),
            "{t}"
        );
        assert!(t.contains("architecture:       llama\n"));
        assert!(t.contains("tensors:            34\n"));
        assert!(t.contains("memory estimate:    "));
        assert!(t.contains("[40 × string] \"tok0\", \"tok1\""), "{t}");
        assert!(t.contains("[2 × array<i32>] [1,2], [3]"), "{t}");
        assert!(t.contains("t.Q4_K"));
        let be = text_report("x.gguf", &load("all-types-be.gguf"), 4096, Duration::ZERO);
        assert!(be.contains("(big-endian)"));
    }
}
