//! What runs where: the graph a model runs on, the weight types it holds,
//! the CPU instructions the kernels use and the threads, for the Generate
//! pane, `promptscope generate --debug` and the server's log.

use gguf_meta::GgufFile;
use serde_json::{json, Value};

/// A model's runner, as the user sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Runner {
    /// `general.architecture`.
    pub arch: String,
    /// The graph that runs it: `Promptscope's decoder`.
    pub graph: &'static str,
    /// Tensor types and how many tensors of each, most first (ties by
    /// name), as ggml names them.
    pub types: Vec<(String, usize)>,
    /// The instructions the matrix products use: `AVX2`, `wasm simd128`,
    /// `wasm relaxed-simd (fused multiply-add)` or `scalar`.
    pub simd: &'static str,
    /// Threads the matrix products use.
    pub threads: usize,
    /// The bytes the weights take (used in place from the file).
    pub weight_bytes: u64,
}

impl Runner {
    /// `gemma3 · Q5_0 ×81, Q4_K ×27, … · Promptscope's decoder · CPU AVX2, 1 thread`
    pub fn line(&self) -> String {
        let types = self
            .types
            .iter()
            .map(|(t, n)| format!("{t} ×{n}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "{} · {types} · {} · CPU {}, {} thread{}",
            self.arch,
            self.graph,
            self.simd,
            self.threads,
            if self.threads == 1 { "" } else { "s" }
        )
    }

    /// The same as a JSON object (`_debug_info.runner`).
    pub fn to_json(&self) -> Value {
        json!({
            "arch": self.arch,
            "graph": self.graph,
            "tensor_types": self.types.iter().map(|(t, n)| json!({"type": t, "count": n})).collect::<Vec<_>>(),
            "cpu": self.simd,
            "threads": self.threads,
            "weight_bytes": self.weight_bytes,
        })
    }
}

/// The tensor types of a GGUF and their counts, most first.
pub fn tensor_types(file: &GgufFile) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for t in file.tensors() {
        let name = t.ggml_type.name();
        match counts.iter_mut().find(|(n, _)| n == name) {
            Some((_, c)) => *c += 1,
            None => counts.push((name.to_string(), 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    counts
}

/// The instructions this build's kernels use on this machine.
pub fn simd() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma")
            && std::arch::is_x86_feature_detected!("f16c")
        {
            return "AVX2";
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return match crate::wasm::arithmetic() {
            "relaxed-simd" => "wasm relaxed-simd (fused multiply-add)",
            _ => "wasm simd128",
        };
    }
    #[allow(unreachable_code)]
    "scalar"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_everything() {
        let r = Runner {
            arch: "gemma3".into(),
            graph: "Promptscope's decoder",
            types: vec![("Q5_0".into(), 81), ("Q4_K".into(), 27)],
            simd: "AVX2",
            threads: 1,
            weight_bytes: 10,
        };
        assert_eq!(
            r.line(),
            "gemma3 · Q5_0 ×81, Q4_K ×27 · Promptscope's decoder · CPU AVX2, 1 thread"
        );
        assert_eq!(r.to_json()["tensor_types"][1]["count"], 27);
    }
}
