//! The WGSL sources: one matrix-product shader per weight kind (the
//! common body of `wgsl/matmul.wgsl` with the kind's block dot), and the
//! graph's other kernels. Everything here is text; the tests parse and
//! validate every shader natively with naga.

use inference::quant::Kind;

/// Where the kernels' correctly rounded fused multiply-add (`fma_rn`) comes
/// from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fma {
    /// The adapter's `fma`, which the start-up probe found rounded once on
    /// every hard case (`Gpu::new`).
    Native,
    /// Written out from Dekker's product and TwoSums (`wgsl/fma_emulated.wgsl`):
    /// some fifty operations instead of one, exact on any adapter.
    Emulated,
}

impl Fma {
    /// Both modes.
    pub const ALL: [Fma; 2] = [Fma::Native, Fma::Emulated];

    /// In words, for the runner line.
    pub fn describe(self) -> &'static str {
        match self {
            Fma::Native => "the adapter's fused multiply-add (probed exact)",
            Fma::Emulated => "an emulated fused multiply-add (the adapter's may round twice)",
        }
    }
}

/// How a weight kind's activations are prepared for its matrix product.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActFormat {
    /// ggml's `Q8_0` / `Q8_1` blocks of 32 values (10 words each).
    Q8,
    /// ggml's `Q8_K` blocks of 256 values (81 words each).
    Q8K,
    /// The f32 values themselves.
    F32,
}

impl ActFormat {
    /// The activation format of a weight kind, as the CPU path quantizes
    /// its activations.
    pub fn of(kind: Kind) -> ActFormat {
        match kind {
            Kind::Q4_0 | Kind::Q4_1 | Kind::Q8_0 | Kind::Q5_0 | Kind::Q5_1 => ActFormat::Q8,
            Kind::Q4_K | Kind::Q5_K | Kind::Q6_K => ActFormat::Q8K,
            Kind::F32 | Kind::F16 | Kind::BF16 => ActFormat::F32,
        }
    }

    /// Values per block.
    pub fn block_values(self) -> usize {
        match self {
            ActFormat::Q8 => 32,
            ActFormat::Q8K => 256,
            ActFormat::F32 => 1,
        }
    }

    /// 32-bit words per block.
    pub fn block_words(self) -> usize {
        match self {
            ActFormat::Q8 => 10,
            ActFormat::Q8K => 81,
            ActFormat::F32 => 1,
        }
    }

    /// The words `rows` rows of `k` values take.
    pub fn words(self, rows: usize, k: usize) -> usize {
        rows * k / self.block_values() * self.block_words()
    }
}

/// The block a matrix-product workgroup lane steps over: the kind's block
/// (32 or 256 values), or 32 values of a float row.
pub fn step_values(kind: Kind) -> usize {
    match kind {
        Kind::Q4_K | Kind::Q5_K | Kind::Q6_K => 256,
        _ => 32,
    }
}

const MATMUL: &str = include_str!("wgsl/matmul.wgsl");
const K_COMMON: &str = include_str!("wgsl/kinds/k_common.wgsl");
const K_SUM: &str = include_str!("wgsl/kinds/k_sum.wgsl");
const Q32: &str = include_str!("wgsl/kinds/q32.wgsl");
const Q5: &str = include_str!("wgsl/kinds/q5.wgsl");
const FLOAT: &str = include_str!("wgsl/kinds/float.wgsl");

/// The matrix-product shader of `kind` (entry point `main`).
pub fn matmul(kind: Kind, fma: Fma) -> String {
    let dot = match kind {
        Kind::Q4_0 => format!("{Q32}\n{}", include_str!("wgsl/kinds/q4_0.wgsl")),
        Kind::Q4_1 => format!("{Q32}\n{}", include_str!("wgsl/kinds/q4_1.wgsl")),
        Kind::Q8_0 => format!("{Q32}\n{}", include_str!("wgsl/kinds/q8_0.wgsl")),
        Kind::Q5_0 => format!("{Q32}\n{Q5}\n{}", include_str!("wgsl/kinds/q5_0.wgsl")),
        Kind::Q5_1 => format!("{Q32}\n{Q5}\n{}", include_str!("wgsl/kinds/q5_1.wgsl")),
        Kind::Q4_K => format!(
            "{K_COMMON}\n{K_SUM}\n{}",
            include_str!("wgsl/kinds/q4_k.wgsl")
        ),
        Kind::Q5_K => format!(
            "{K_COMMON}\n{K_SUM}\n{}",
            include_str!("wgsl/kinds/q5_k.wgsl")
        ),
        Kind::Q6_K => format!(
            "{K_COMMON}\n{K_SUM}\n{}",
            include_str!("wgsl/kinds/q6_k.wgsl")
        ),
        Kind::F32 => format!("{}\n{FLOAT}", include_str!("wgsl/kinds/f32.wgsl")),
        Kind::F16 => format!("{}\n{FLOAT}", include_str!("wgsl/kinds/f16.wgsl")),
        Kind::BF16 => format!("{}\n{FLOAT}", include_str!("wgsl/kinds/bf16.wgsl")),
    };
    format!(
        "{}\n{}",
        MATMUL.replace("//@BLOCK_DOT", &dot),
        exact_source(fma)
    )
}

/// The exact f16 rounding and division the kernels below use.
const EXACT: &str = include_str!("wgsl/exact.wgsl");

/// [`EXACT`] with the fused multiply-add of `fma`: what every kernel
/// includes.
pub fn exact_source(fma: Fma) -> String {
    let f = match fma {
        Fma::Native => include_str!("wgsl/fma_native.wgsl"),
        Fma::Emulated => include_str!("wgsl/fma_emulated.wgsl"),
    };
    format!("{EXACT}\n{f}")
}

/// The start-up probe: `OUT[i] = fma(IN[3i], IN[3i + 1], IN[3i + 2])`.
pub const FMA_PROBE: &str = include_str!("wgsl/fma_probe.wgsl");

/// The graph's other kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Activation quantization (entry points `q8`, `q8k`).
    Quantize,
    /// RMS norm (`main`).
    Norm,
    /// Rotary embedding (`main`).
    Rope,
    /// The KV cache's store (`main`).
    Kv,
    /// Attention (`main`).
    Attention,
    /// Element-wise steps (`swiglu`, `geglu`, `bias`, `add`, `softcap`).
    Elementwise,
}

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 6] = [
        Kernel::Quantize,
        Kernel::Norm,
        Kernel::Rope,
        Kernel::Kv,
        Kernel::Attention,
        Kernel::Elementwise,
    ];

    /// Its name (the pipeline cache's key).
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Quantize => "quantize",
            Kernel::Norm => "norm",
            Kernel::Rope => "rope",
            Kernel::Kv => "kv",
            Kernel::Attention => "attention",
            Kernel::Elementwise => "elementwise",
        }
    }

    /// Its WGSL source.
    pub fn source(self, fma: Fma) -> String {
        let (body, exact) = match self {
            Kernel::Quantize => (include_str!("wgsl/quantize.wgsl"), true),
            Kernel::Norm => (include_str!("wgsl/norm.wgsl"), true),
            Kernel::Rope => (include_str!("wgsl/rope.wgsl"), true),
            Kernel::Kv => (include_str!("wgsl/kv.wgsl"), true),
            Kernel::Attention => (include_str!("wgsl/attention.wgsl"), true),
            Kernel::Elementwise => (include_str!("wgsl/elementwise.wgsl"), true),
        };
        if exact {
            format!("{body}\n{}", exact_source(fma))
        } else {
            body.to_string()
        }
    }
}

/// Every shader in both [`Fma`] modes, and the probe: a name and its
/// source.
pub fn all() -> Vec<(String, String)> {
    let mut out = vec![("fma probe".to_string(), FMA_PROBE.to_string())];
    for fma in Fma::ALL {
        for &k in inference::quant::KINDS {
            out.push((format!("matmul {} {fma:?}", k.name()), matmul(k, fma)));
        }
        for k in Kernel::ALL {
            out.push((format!("{} {fma:?}", k.name()), k.source(fma)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shader parses and validates (naga, the WGSL front end wgpu
    /// uses natively).
    #[test]
    fn every_shader_is_valid_wgsl() {
        for (name, src) in all() {
            let module = naga::front::wgsl::parse_str(&src)
                .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(&src)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::all(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(&src)));
        }
    }

    #[test]
    fn every_kind_has_an_activation_format() {
        for &k in inference::quant::KINDS {
            let f = ActFormat::of(k);
            assert_eq!(
                f.block_values() == 1,
                matches!(k, Kind::F32 | Kind::F16 | Kind::BF16)
            );
            assert!(step_values(k).is_multiple_of(k.block_values()) || f == ActFormat::F32);
        }
        assert_eq!(ActFormat::Q8.words(2, 64), 40);
        assert_eq!(ActFormat::Q8K.words(1, 512), 162);
    }
}
