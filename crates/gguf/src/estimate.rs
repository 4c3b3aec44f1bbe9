//! A memory estimate for running a model at a context size.
//!
//! An approximation in the spirit of what [gguf-parser-go] reports as its
//! llama.cpp estimate (`EstimateLLaMACppRun`, all layers offloaded to one
//! device, no flash attention), reduced to the terms that matter:
//!
//! - `n_ctx` = `num_ctx` rounded up to a multiple of 32 (llama.cpp pads the
//!   context); `n_tokens` = min(`n_ctx`, 512), the physical batch.
//! - **weights** = the sum of the tensor sizes.
//! - **KV cache** = for each layer `l` of `<arch>.block_count`:
//!   `bytes(kv_type, key_length × head_count_kv[l] × n_ctx)` for keys plus
//!   the same with `value_length` for values. `head_count_kv` may be a
//!   scalar or a per-layer array (absent: `head_count`); `key_length` and
//!   `value_length` default to `embedding_length / head_count[l]`
//!   (`key_length_mla`/`value_length_mla` win when both are present, as in
//!   gguf-parser-go). `kv_type` is F16 by default (2 bytes per element).
//! - **compute** (rough, f32 = 4 bytes): inputs `4·n_tokens·(3 + n_embd +
//!   n_ctx)` (token ids, positions, output ids, embeddings, KQ mask) plus
//!   the larger of attention `4·n_tokens·(n_embd + 2·n_head·key_length +
//!   n_ctx·n_head)` and feed-forward `4·n_tokens·(2·n_embd + 2·n_ff)`
//!   (one layer at a time: the graph reuses memory between layers), plus
//!   outputs `2 · 4·n_tokens·(n_embd + n_vocab)` (the graph's logits and
//!   llama.cpp's output buffer).
//! - **total** = weights + KV cache + compute.
//!
//! Not modelled: sliding-window caches (counted at full size, so an upper
//! bound for Gemma-style models), recurrent state (Mamba, RWKV: no KV cache
//! is counted), flash attention, multi-device splits, fixed overheads of a
//! few MiB. Treat the numbers as an estimate, like gguf-parser-go's.
//!
//! [gguf-parser-go]: https://github.com/gpustack/gguf-parser-go

use crate::file::GgufFile;
use crate::types::GgmlType;
use crate::value::Value;

/// Options for [`GgufFile::estimate_memory_with`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EstimateOptions {
    /// Context size in tokens (Ollama's `num_ctx`); 0 means the model's
    /// `<arch>.context_length`.
    pub num_ctx: u64,
    /// Element type of the KV cache (default F16).
    pub kv_type: GgmlType,
    /// Physical batch size (default 512).
    pub batch_size: u64,
}

impl EstimateOptions {
    /// Defaults for a context size.
    pub fn new(num_ctx: u64) -> EstimateOptions {
        EstimateOptions {
            num_ctx,
            kv_type: GgmlType::F16,
            batch_size: 512,
        }
    }

    /// Sets the KV cache type.
    pub fn kv_type(mut self, t: GgmlType) -> EstimateOptions {
        self.kv_type = t;
        self
    }

    /// Sets the physical batch size.
    pub fn batch_size(mut self, n: u64) -> EstimateOptions {
        self.batch_size = n.max(1);
        self
    }
}

/// The estimate, in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemoryEstimate {
    /// The context size used, padded to a multiple of 32.
    pub n_ctx: u64,
    /// Tensor data.
    pub weights: u64,
    /// KV cache, keys.
    pub kv_keys: u64,
    /// KV cache, values.
    pub kv_values: u64,
    /// The KV cache element type.
    pub kv_type: GgmlType,
    /// Compute buffers (rough).
    pub compute: u64,
    /// Whether the attention hyperparameters were found (otherwise the KV
    /// cache and attention terms are 0).
    pub has_attention: bool,
}

impl MemoryEstimate {
    /// Keys plus values.
    pub fn kv_cache(&self) -> u64 {
        self.kv_keys.saturating_add(self.kv_values)
    }

    /// Weights plus KV cache plus compute.
    pub fn total(&self) -> u64 {
        self.weights
            .saturating_add(self.kv_cache())
            .saturating_add(self.compute)
    }
}

/// A hyperparameter that may be a scalar or a per-layer array.
fn per_layer(v: Option<&Value>, layer: usize) -> Option<u64> {
    match v? {
        Value::Array(a) => a.get_u64(layer),
        other => other.as_u64(),
    }
}

fn max_per_layer(v: Option<&Value>, layers: usize) -> Option<u64> {
    match v? {
        Value::Array(a) => (0..a.len().min(layers.max(1)))
            .filter_map(|l| a.get_u64(l))
            .max(),
        other => other.as_u64(),
    }
}

impl GgufFile {
    /// The memory estimate at a context size, with the defaults (F16 KV
    /// cache, batch 512). See the [module docs](crate::estimate) for the
    /// formula.
    pub fn estimate_memory(&self, num_ctx: u64) -> MemoryEstimate {
        self.estimate_memory_with(&EstimateOptions::new(num_ctx))
    }

    /// The memory estimate with options.
    pub fn estimate_memory_with(&self, o: &EstimateOptions) -> MemoryEstimate {
        let num_ctx = match o.num_ctx {
            0 => self
                .arch_get("context_length")
                .and_then(Value::as_u64)
                .unwrap_or(2048),
            n => n,
        };
        let n_ctx = num_ctx.div_ceil(32).saturating_mul(32);
        let n_tokens = n_ctx.min(o.batch_size.max(1));
        let weights = self.tensor_bytes();

        let n_layer = self
            .arch_get("block_count")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let n_embd = self
            .arch_get("embedding_length")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let heads = self.arch_get("attention.head_count");
        let heads_kv = self.arch_get("attention.head_count_kv").or(heads);
        let (key_len, value_len) = match (
            self.arch_get("attention.key_length_mla")
                .and_then(Value::as_u64),
            self.arch_get("attention.value_length_mla")
                .and_then(Value::as_u64),
        ) {
            (Some(k), Some(v)) => (Some(k), Some(v)),
            _ => (
                self.arch_get("attention.key_length")
                    .and_then(Value::as_u64),
                self.arch_get("attention.value_length")
                    .and_then(Value::as_u64),
            ),
        };
        // Layers are bounded by what is plausible to loop over.
        let layers = n_layer.min(1 << 16) as usize;
        let mut kv_keys = 0u64;
        let mut kv_values = 0u64;
        let mut max_k_len = 0u64;
        for l in 0..layers {
            let h = per_layer(heads, l).unwrap_or(0);
            let hkv = per_layer(heads_kv, l).unwrap_or(0);
            let default_len = n_embd.checked_div(h).unwrap_or(0);
            let k_len = key_len.unwrap_or(default_len);
            let v_len = value_len.unwrap_or(default_len);
            max_k_len = max_k_len.max(k_len);
            let k_elems = k_len.saturating_mul(hkv).saturating_mul(n_ctx);
            let v_elems = v_len.saturating_mul(hkv).saturating_mul(n_ctx);
            kv_keys = kv_keys.saturating_add(o.kv_type.bytes_for(k_elems).unwrap_or(u64::MAX));
            kv_values = kv_values.saturating_add(o.kv_type.bytes_for(v_elems).unwrap_or(u64::MAX));
        }
        let has_attention = layers > 0 && kv_keys > 0;

        let n_head = max_per_layer(heads, layers).unwrap_or(0);
        let n_ff = max_per_layer(self.arch_get("feed_forward_length"), layers).unwrap_or(0);
        let n_vocab = self
            .get_array("tokenizer.ggml.tokens")
            .map(|a| a.len() as u64)
            .or_else(|| self.arch_get("vocab_size").and_then(Value::as_u64))
            .or_else(|| {
                self.tensor("token_embd.weight")
                    .and_then(|t| t.shape.get(1).copied())
            })
            .unwrap_or(0);

        let m = |a: u64, b: u64| a.saturating_mul(b);
        let add = |a: u64, b: u64| a.saturating_add(b);
        let f32s = |elems: u64| m(elems, 4);
        let input = f32s(m(n_tokens, add(add(3, n_embd), n_ctx)));
        let attention = if has_attention {
            f32s(m(
                n_tokens,
                add(add(n_embd, m(2, m(n_head, max_k_len))), m(n_ctx, n_head)),
            ))
        } else {
            0
        };
        let ffn = f32s(m(n_tokens, add(m(2, n_embd), m(2, n_ff))));
        let output = m(2, f32s(m(n_tokens, add(n_embd, n_vocab))));
        let compute = if layers == 0 && n_embd == 0 {
            0
        } else {
            add(add(input, attention.max(ffn)), output)
        };

        MemoryEstimate {
            n_ctx,
            weights,
            kv_keys,
            kv_values,
            kv_type: o.kv_type,
            compute,
            has_attention,
        }
    }
}
