//! The decoder graph of the llama family (`llama`, `qwen2`, `qwen3` in
//! llama.cpp's terms: RMS norm, rotary attention with grouped KV heads,
//! SwiGLU) and of the Gemmas (`gemma`, `gemma2`, `gemma3`), one graph with
//! per-architecture switches, on the file's weights in place with this
//! crate's quantized matrix products.
//!
//! The Gemmas differ from llama as llama.cpp's `src/models/gemma*.cpp`
//! build them: the input embedding is scaled by `sqrtf(n_embd)`; queries
//! are scaled by `f_attention_scale` (`1/√head_dim`, or `1/√(n_embd/n_head)`
//! for the 27B models) before `K·Q`, whose softmax scale is then 1; the
//! feed-forward is GeGLU (ggml's table GELU, see [`attention::geglu`]);
//! NEOX RoPE. Gemma 2 and 3 add RMS norms after attention and after the
//! feed-forward, and alternate sliding-window layers (llama.cpp's
//! `LLAMA_SWA_TYPE_STANDARD`, `set_swa_pattern`: layer `il` is local unless
//! `il % n_pattern == n_pattern - 1`; `n_pattern` 2 for Gemma 2, 6 for
//! Gemma 3, or `attention.sliding_window_pattern`) with their own rotary
//! base (`rope.freq_base_swa`; 10000 by default for Gemma 3, the global base
//! for Gemma 2). Gemma 2 soft-caps the attention logits
//! (`attn_logit_softcapping`, 50) and the output logits
//! (`final_logit_softcapping`, 30); Gemma 3 has per-head Q and K norms and
//! soft-caps the output only when the file says so.
//!
//! Where llama.cpp's CPU graph rounds (its default KV cache is f16, so K,
//! V, the queries multiplied with K and the attention weights multiplied
//! with V pass through f16), this graph rounds the same values, so that the
//! logits agree with llama.cpp's to a few ulps of f16 and greedy decoding
//! picks the same tokens.
//!
//! `phi3` (src/models/phi3.cpp) is the llama graph with fused matrices —
//! `attn_qkv` (with an optional bias) holds Q, K and V as consecutive rows,
//! `ffn_up` the gate's rows then the up rows (`ggml_swiglu`: SiLU of the
//! first half times the second) — which are split here into views of the
//! same bytes; NEOX RoPE with `rope_factors_long`/`rope_factors_short`
//! (long where the context, padded to 256, exceeds
//! `rope.scaling.original_context_length`) and `rope.scaling.attn_factor`;
//! queries scaled by `1/√head_dim` before `K·Q`; its sliding window is
//! ignored, as llama.cpp ignores it.

use crate::attention;
use crate::error::Error;
use crate::weights::{Gguf, Weight};

struct Layer {
    attn_norm: Vec<f32>,
    wq: Weight,
    wk: Weight,
    wv: Weight,
    wo: Weight,
    bq: Option<Vec<f32>>,
    bk: Option<Vec<f32>>,
    bv: Option<Vec<f32>>,
    q_norm: Option<Vec<f32>>,
    k_norm: Option<Vec<f32>>,
    ffn_norm: Vec<f32>,
    w_gate: Weight,
    w_up: Weight,
    w_down: Weight,
    /// Gemma 2/3: RMS norms of the attention and feed-forward outputs.
    post_attn_norm: Option<Vec<f32>>,
    post_ffn_norm: Option<Vec<f32>>,
    n_head: usize,
    n_kv_head: usize,
    /// The sliding window of a local (SWA) layer.
    window: Option<usize>,
    /// Index of the layer's rotary table in [`Decoder::ropes`].
    rope: usize,
    kv: attention::KvCache,
}

/// The model families the graph is switched between.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Family {
    /// `llama`, `qwen2`, `qwen3`
    Llama,
    Phi3,
    Gemma,
    Gemma2,
    Gemma3,
}

/// The feed-forward's gated activation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Act {
    SwiGlu,
    GeGlu,
}

/// One rotary base's cos/sin tables, `[position][pair]`.
struct RopeTable {
    base: f32,
    freq_scale: f32,
    cos: Vec<f32>,
    sin: Vec<f32>,
}

/// Rotary embedding layout: llama.cpp's `NORM` rotates adjacent pairs,
/// `NEOX` rotates the two halves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rope {
    Norm,
    Neox,
}

pub(crate) struct Decoder {
    embed: Embedding,
    layers: Vec<Layer>,
    norm: Vec<f32>,
    output: Weight,
    eps: f32,
    head_dim: usize,
    rope: Rope,
    freq_factors: Option<Vec<f32>>,
    /// `phi3`: the long and short rope factors and the context they switch
    /// at (`n_ctx_orig_yarn`); [`Decoder::set_n_ctx`] picks one.
    long_short: Option<(Vec<f32>, Vec<f32>, usize)>,
    /// ggml's `mscale`: the cos/sin values' factor (`attn_factor`).
    mscale: f32,
    /// The global rotary table, then the local layers' if they differ.
    ropes: Vec<RopeTable>,
    act: Act,
    /// Gemma: the input embedding's scale, `sqrtf(n_embd)`.
    embed_scale: Option<f32>,
    /// Gemma: the queries' scale before `K·Q` (`f_attention_scale`).
    q_scale: Option<f32>,
    kq_scale: f32,
    attn_softcap: Option<f32>,
    final_softcap: Option<f32>,
}

/// `<arch>.<key>` for every layer: a per-layer array of `n_layer` values,
/// or one value for all (llama.cpp's `get_key_or_arr`).
fn per_layer(meta: &Gguf, key: &str, n_layer: usize) -> Result<Option<Vec<usize>>, Error> {
    let full = format!("{}.{key}", meta.arch);
    match meta.file.get(&full) {
        None => Ok(None),
        Some(gguf_meta::Value::Array(a)) => {
            if a.len() != n_layer {
                return Err(Error::load(format!(
                    "{full} has {} values for {n_layer} layers",
                    a.len()
                )));
            }
            (0..n_layer)
                .map(|i| {
                    a.get_u64(i)
                        .and_then(|n| usize::try_from(n).ok())
                        .ok_or_else(|| {
                            Error::load(format!("{full}[{i}] is not a non-negative integer"))
                        })
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some)
        }
        Some(_) => Ok(meta.opt_usize(key)?.map(|n| vec![n; n_layer])),
    }
}

/// Which layers are local (sliding-window) layers: llama.cpp's
/// `load_swa_pattern`: `attention.sliding_window_pattern` as one flag per
/// layer, or as a period `n` (`set_swa_pattern`: layer `il` is local when
/// `n == 0 || il % n < n - 1`), `n_pattern` where the file has neither.
fn swa_layers(meta: &Gguf, n_layer: usize, n_pattern: usize) -> Result<Vec<bool>, Error> {
    let full = format!("{}.attention.sliding_window_pattern", meta.arch);
    let n = match meta.file.get(&full) {
        Some(gguf_meta::Value::Array(a)) => {
            if a.len() < n_layer {
                return Err(Error::load(format!(
                    "{full} has {} values for {n_layer} layers",
                    a.len()
                )));
            }
            return (0..n_layer)
                .map(|i| match a.get(i) {
                    Some(gguf_meta::Value::Bool(b)) => Ok(b),
                    Some(v) => v
                        .as_u64()
                        .map(|n| n != 0)
                        .ok_or_else(|| Error::load(format!("{full}[{i}] is not a flag"))),
                    None => Err(Error::load(format!("{full}[{i}] is missing"))),
                })
                .collect();
        }
        Some(_) => meta
            .opt_usize("attention.sliding_window_pattern")?
            .unwrap_or(n_pattern),
        None => n_pattern,
    };
    Ok((0..n_layer).map(|il| n == 0 || il % n < n - 1).collect())
}

/// The token embedding table, kept quantized in the file: rows are
/// dequantized per lookup. Models without `output.weight` share it as the
/// output matrix.
struct Embedding {
    table: Weight,
    width: usize,
}

impl Embedding {
    fn lookup(&self, ids: &[u32]) -> Result<Vec<f32>, Error> {
        let mut x = vec![0f32; ids.len() * self.width];
        for (row, &id) in x.chunks_exact_mut(self.width).zip(ids) {
            self.table.row(id as usize, row)?;
        }
        Ok(x)
    }
}

impl Decoder {
    pub fn load(meta: &Gguf) -> Result<Decoder, Error> {
        let t = meta;
        let arch = meta.arch.as_str();
        let family = match arch {
            "gemma" => Family::Gemma,
            "gemma2" => Family::Gemma2,
            "gemma3" => Family::Gemma3,
            "phi3" => Family::Phi3,
            _ => Family::Llama,
        };
        let gemma = matches!(family, Family::Gemma | Family::Gemma2 | Family::Gemma3);
        if meta.opt_usize("expert_count")?.unwrap_or(0) > 0 {
            return Err(Error::Unsupported(format!(
                "mixture-of-experts {arch} models cannot run here"
            )));
        }
        let width = meta.usize("embedding_length")?;
        if width == 0 {
            return Err(Error::load(format!("{arch}.embedding_length is 0")));
        }
        let n_layer = meta.usize("block_count")?;
        // every layer has its tensors (checked before any per-layer table
        // is allocated: a damaged count could ask for gigabytes)
        if n_layer > 0 && !t.has(&format!("blk.{}.attn_norm.weight", n_layer - 1)) {
            return Err(Error::load(format!(
                "{arch}.block_count is {n_layer}, but the file has no blk.{}.attn_norm.weight",
                n_layer - 1
            )));
        }
        let n_heads = per_layer(meta, "attention.head_count", n_layer)?
            .ok_or_else(|| Error::load(format!("the GGUF has no {arch}.attention.head_count")))?;
        let n_kv_heads =
            per_layer(meta, "attention.head_count_kv", n_layer)?.unwrap_or_else(|| n_heads.clone());
        let n_head0 = n_heads.first().copied().unwrap_or(0);
        for (il, (&nh, &nkv)) in n_heads.iter().zip(&n_kv_heads).enumerate() {
            if nh == 0 || nkv == 0 || nh % nkv != 0 {
                return Err(Error::load(format!(
                    "{arch}: layer {il}'s {nh} attention heads cannot share {nkv} KV heads"
                )));
            }
        }
        let head_dim = match meta.opt_usize("attention.key_length")? {
            Some(k) => k,
            None if n_head0 > 0 => width / n_head0,
            None => 0,
        };
        let v_dim = meta
            .opt_usize("attention.value_length")?
            .unwrap_or(head_dim);
        if v_dim != head_dim {
            return Err(Error::Unsupported(format!(
                "{arch}: keys of {head_dim} values with values of {v_dim}"
            )));
        }
        let rope_dim = meta.opt_usize("rope.dimension_count")?.unwrap_or(head_dim);
        if rope_dim != head_dim || head_dim % 2 != 0 || head_dim == 0 {
            return Err(Error::Unsupported(format!(
                "{arch}: rotary dimension {rope_dim} with head size {head_dim}"
            )));
        }
        let eps = meta
            .opt_f32("attention.layer_norm_rms_epsilon")?
            .unwrap_or(1e-5);
        let freq_base = meta.opt_f32("rope.freq_base")?.unwrap_or(10_000.0);
        // linear rope scaling (`rope.scaling.factor`, or the old
        // `rope.scale_linear`): llama.cpp's `freq_scale = 1 / factor`
        let linear = meta
            .file
            .get(&format!("{arch}.rope.scaling.type"))
            .and_then(|v| v.as_str())
            .is_none_or(|s| s == "linear");
        let factor = match meta.opt_f32("rope.scaling.factor")? {
            Some(f) => f,
            None => meta.opt_f32("rope.scale_linear")?.unwrap_or(0.0),
        };
        let freq_scale = if linear && factor != 0.0 {
            1.0 / factor
        } else {
            1.0
        };
        let rope = if arch == "llama" {
            Rope::Norm
        } else {
            Rope::Neox
        };
        // the Gemma graphs pass no rope factors; llama.cpp's
        // `get_rope_factors`: `rope_freqs`, else phi3's long or short ones
        let half = head_dim / 2;
        let factors = |name: &str| -> Result<Option<Vec<f32>>, Error> {
            if gemma || !t.has(name) {
                return Ok(None);
            }
            let v = t.vec(name)?;
            if v.len() != half {
                return Err(Error::load(format!(
                    "{name} has {} values, the rotary dimension needs {half}",
                    v.len()
                )));
            }
            Ok(Some(v))
        };
        let freq_factors = factors("rope_freqs.weight")?;
        let long_short = match (
            freq_factors.is_none(),
            factors("rope_factors_long.weight")?,
            factors("rope_factors_short.weight")?,
        ) {
            (true, Some(long), Some(short)) => {
                let n_ctx_train = meta.opt_usize("context_length")?.unwrap_or(0);
                let orig = meta
                    .opt_usize("rope.scaling.original_context_length")?
                    .filter(|&n| n != 0)
                    .unwrap_or(n_ctx_train);
                Some((long, short, orig))
            }
            (true, Some(_), None) | (true, None, Some(_)) => {
                return Err(Error::load(format!(
                    "{arch}: the GGUF has only one of rope_factors_long and rope_factors_short"
                )))
            }
            _ => None,
        };
        // llama.cpp's `yarn_attn_factor * rope_attn_factor` (no YaRN here)
        let mscale = meta.opt_f32("rope.scaling.attn_factor")?.unwrap_or(1.0);
        // sliding-window layers and their rotary base (llama.cpp's
        // `load_arch_hparams` of gemma2.cpp and gemma3.cpp)
        let (swa, n_swa, swa_rope) = match family {
            Family::Gemma2 => (
                swa_layers(meta, n_layer, 2)?,
                meta.opt_usize("attention.sliding_window")?.unwrap_or(4096),
                (
                    meta.opt_f32("rope.freq_base_swa")?.unwrap_or(freq_base),
                    freq_scale,
                ),
            ),
            Family::Gemma3 => match meta.opt_usize("attention.sliding_window")? {
                Some(n) if n > 0 => (
                    swa_layers(meta, n_layer, 6)?,
                    n,
                    (meta.opt_f32("rope.freq_base_swa")?.unwrap_or(10_000.0), 1.0),
                ),
                _ => (vec![false; n_layer], 0, (freq_base, freq_scale)),
            },
            _ => (vec![false; n_layer], 0, (freq_base, freq_scale)),
        };
        let table = |base: f32, freq_scale: f32| RopeTable {
            base,
            freq_scale,
            cos: Vec::new(),
            sin: Vec::new(),
        };
        let mut ropes = vec![table(freq_base, freq_scale)];
        let swa_table = if swa.iter().any(|&s| s) && swa_rope != (freq_base, freq_scale) {
            ropes.push(table(swa_rope.0, swa_rope.1));
            1
        } else {
            0
        };
        // `f_attention_scale`: gemma_pytorch's `query_pre_attn_scalar`
        let big = matches!(
            (family, n_layer),
            (Family::Gemma2, 46) | (Family::Gemma3, 62)
        );
        let q_scale = if !gemma {
            None
        } else if big {
            Some(1.0 / ((width / n_head0) as f32).sqrt())
        } else {
            Some(1.0 / (head_dim as f32).sqrt())
        };
        let q_scale = if family == Family::Phi3 {
            // `ggml_scale(Qcur, 1.0f / sqrtf(float(n_embd_head)))`
            Some(1.0 / (head_dim as f32).sqrt())
        } else {
            q_scale
        };
        let kq_scale = if q_scale.is_some() {
            1.0
        } else {
            1.0 / (head_dim as f32).sqrt()
        };
        let softcap = |key: &str, default: Option<f32>| -> Result<Option<f32>, Error> {
            Ok(meta.opt_f32(key)?.or(default).filter(|&c| c != 0.0))
        };
        let (attn_softcap, final_softcap) = match family {
            Family::Gemma2 => (
                softcap("attn_logit_softcapping", Some(50.0))?,
                softcap("final_logit_softcapping", Some(30.0))?,
            ),
            Family::Gemma3 => (None, softcap("final_logit_softcapping", None)?),
            _ => (None, None),
        };
        let table = t.weight("token_embd.weight")?;
        if table.cols != width {
            return Err(Error::load(format!(
                "token_embd.weight has rows of {} values, the model is {width} wide",
                table.cols
            )));
        }
        let output = // gemma and gemma2 always share the embedding (llama.cpp's
        // `TENSOR_DUPLICATED` tok_embd)
        if t.has("output.weight") && !matches!(family, Family::Gemma | Family::Gemma2) {
            t.weight("output.weight")?
        } else {
            table.clone()
        };
        if output.cols != width {
            return Err(Error::load(format!(
                "the output matrix has rows of {} values, the model is {width} wide",
                output.cols
            )));
        }
        let post_norms = matches!(family, Family::Gemma2 | Family::Gemma3);
        let mut layers = Vec::with_capacity(n_layer);
        for i in 0..n_layer {
            let p = format!("blk.{i}");
            // a norm's or a bias's values, as many as the graph uses
            let sized = |t: &Gguf, full: &str, n: usize| -> Result<Vec<f32>, Error> {
                let v = t.vec(full)?;
                if v.len() != n {
                    return Err(Error::load(format!(
                        "{full} has {} values, the model needs {n}",
                        v.len()
                    )));
                }
                Ok(v)
            };
            let opt = |t: &Gguf, name: &str, n: usize| -> Result<Option<Vec<f32>>, Error> {
                let full = format!("{p}.{name}");
                if t.has(&full) {
                    sized(t, &full, n).map(Some)
                } else {
                    Ok(None)
                }
            };
            let req = |t: &Gguf, name: &str, n: usize| sized(t, &format!("{p}.{name}"), n);
            let (nh, nkv) = (n_heads[i], n_kv_heads[i]);
            let mm = |t: &Gguf, name: &str, rows: usize, cols: usize| {
                let w = t.weight(&format!("{p}.{name}"))?;
                if (rows != 0 && w.rows != rows) || w.cols != cols {
                    return Err(Error::load(format!(
                        "{p}.{name} is {} x {}, the model needs {} x {cols}",
                        w.rows,
                        w.cols,
                        if rows == 0 {
                            "n".to_string()
                        } else {
                            rows.to_string()
                        }
                    )));
                }
                Ok(w)
            };
            // phi3's fused matrices, split into views of their rows
            let (w_gate, w_up) = if family == Family::Phi3 {
                let up = mm(t, "ffn_up.weight", 0, width)?;
                if up.rows % 2 != 0 {
                    return Err(Error::load(format!(
                        "{p}.ffn_up.weight has {} rows, not the gate's and the up rows",
                        up.rows
                    )));
                }
                let n_ff = up.rows / 2;
                (
                    up.split_rows(0, n_ff, "gate")?,
                    up.split_rows(n_ff, 2 * n_ff, "up")?,
                )
            } else {
                let gate = mm(t, "ffn_gate.weight", 0, width)?;
                let up = mm(t, "ffn_up.weight", gate.rows, width)?;
                (gate, up)
            };
            let n_ff = w_gate.rows;
            let (nq, nk) = (nh * head_dim, nkv * head_dim);
            let (wq, wk, wv, bq, bk, bv) = if t.has(&format!("{p}.attn_qkv.weight")) {
                let qkv = mm(t, "attn_qkv.weight", nq + 2 * nk, width)?;
                let b = opt(t, "attn_qkv.bias", nq + 2 * nk)?;
                let part = |b: &Option<Vec<f32>>, from: usize, to: usize| {
                    b.as_ref().map(|b| b[from..to].to_vec())
                };
                (
                    qkv.split_rows(0, nq, "Q")?,
                    qkv.split_rows(nq, nq + nk, "K")?,
                    qkv.split_rows(nq + nk, nq + 2 * nk, "V")?,
                    part(&b, 0, nq),
                    part(&b, nq, nq + nk),
                    part(&b, nq + nk, nq + 2 * nk),
                )
            } else {
                (
                    mm(t, "attn_q.weight", nq, width)?,
                    mm(t, "attn_k.weight", nk, width)?,
                    mm(t, "attn_v.weight", nk, width)?,
                    opt(t, "attn_q.bias", nq)?,
                    opt(t, "attn_k.bias", nk)?,
                    opt(t, "attn_v.bias", nk)?,
                )
            };
            let (post_attn_norm, post_ffn_norm) = if post_norms {
                (
                    Some(req(t, "post_attention_norm.weight", width)?),
                    Some(req(t, "post_ffw_norm.weight", width)?),
                )
            } else {
                (None, None)
            };
            let q_norm = opt(t, "attn_q_norm.weight", head_dim)?;
            let k_norm = opt(t, "attn_k_norm.weight", head_dim)?;
            if family == Family::Gemma3 && (q_norm.is_none() || k_norm.is_none()) {
                return Err(Error::load(format!("{p} has no attn_q_norm/attn_k_norm")));
            }
            layers.push(Layer {
                attn_norm: req(t, "attn_norm.weight", width)?,
                wq,
                wk,
                wv,
                wo: mm(t, "attn_output.weight", width, nq)?,
                bq,
                bk,
                bv,
                q_norm,
                k_norm,
                ffn_norm: req(t, "ffn_norm.weight", width)?,
                w_up,
                w_down: mm(t, "ffn_down.weight", width, n_ff)?,
                w_gate,
                post_attn_norm,
                post_ffn_norm,
                n_head: nh,
                n_kv_head: nkv,
                window: swa[i].then_some(n_swa),
                rope: if swa[i] { swa_table } else { 0 },
                kv: attention::KvCache::default(),
            });
        }
        let norm = t.vec("output_norm.weight")?;
        if norm.len() != width {
            return Err(Error::load(format!(
                "output_norm.weight has {} values, the model needs {width}",
                norm.len()
            )));
        }
        let mut d = Decoder {
            embed: Embedding { table, width },
            layers,
            norm,
            output,
            eps,
            head_dim,
            rope,
            freq_factors,
            long_short,
            mscale,
            ropes,
            act: if gemma { Act::GeGlu } else { Act::SwiGlu },
            embed_scale: gemma.then(|| (width as f32).sqrt()),
            q_scale,
            kq_scale,
            attn_softcap,
            final_softcap,
        };
        // the context Ollama asks for by default, until told another
        let n_ctx_train = meta.opt_usize("context_length")?.unwrap_or(0);
        d.set_n_ctx(crate::generate::effective_ctx(0, n_ctx_train));
        d.ensure_rope(512);
        Ok(d)
    }

    /// The context the model runs in, which picks `phi3`'s rope factors:
    /// long where llama.cpp's `n_ctx_seq` (the context padded to a multiple
    /// of 256, one sequence) exceeds `n_ctx_orig_yarn`. Returns whether the
    /// rotary tables changed (the KV cache then no longer fits them).
    pub(crate) fn set_n_ctx(&mut self, n_ctx: usize) -> bool {
        let Some((long, short, orig)) = &self.long_short else {
            return false;
        };
        let n_ctx_seq = n_ctx.div_ceil(256) * 256;
        let pick = if n_ctx_seq > *orig { long } else { short };
        if self.freq_factors.as_ref() == Some(pick) {
            return false;
        }
        self.freq_factors = Some(pick.clone());
        for r in &mut self.ropes {
            r.cos.clear();
            r.sin.clear();
        }
        true
    }

    /// Grows the cos/sin tables to cover positions `0..len`, computed as
    /// ggml's rope cache does: `θ = p · base^(-2i/d)` by repeated f32
    /// multiplication, divided by the `rope_freqs` factor where the model
    /// has one, times `freq_scale`; cos and sin times `mscale`.
    pub(crate) fn ensure_rope(&mut self, len: usize) {
        let half = self.head_dim / 2;
        for r in &mut self.ropes {
            let have = r.cos.len() / half;
            if have >= len {
                continue;
            }
            let len = len.max(have * 2);
            let scale = r.base.powf(-2.0 / self.head_dim as f32);
            let mut cos = Vec::with_capacity(len * half);
            let mut sin = Vec::with_capacity(len * half);
            for p in 0..len {
                let mut theta = p as f32;
                for i in 0..half {
                    let ff = self
                        .freq_factors
                        .as_ref()
                        .and_then(|f| f.get(i))
                        .copied()
                        .unwrap_or(1.0);
                    let th = r.freq_scale * (theta / ff);
                    cos.push(th.cos() * self.mscale);
                    sin.push(th.sin() * self.mscale);
                    theta *= scale;
                }
            }
            r.cos = cos;
            r.sin = sin;
        }
    }

    pub fn reset(&mut self) {
        for l in &mut self.layers {
            l.kv.clear();
        }
    }

    /// The graph for another backend, with rotary tables for positions
    /// `0..len` (grown first with [`Decoder::ensure_rope`]).
    pub fn plan<'a>(&'a self, arch: &'a str, n_vocab: usize, len: usize) -> crate::plan::Plan<'a> {
        use crate::plan::{Activation, LayerView, Plan};
        let half = self.head_dim / 2;
        Plan {
            arch,
            width: self.embed.width,
            head_dim: self.head_dim,
            n_vocab,
            eps: self.eps,
            rope_neox: self.rope == Rope::Neox,
            ropes: self
                .ropes
                .iter()
                .map(|r| (&r.cos[..len * half], &r.sin[..len * half]))
                .collect(),
            activation: match self.act {
                Act::SwiGlu => Activation::SwiGlu,
                Act::GeGlu => Activation::GeGlu,
            },
            q_scale: self.q_scale,
            kq_scale: self.kq_scale,
            attn_softcap: self.attn_softcap,
            final_softcap: self.final_softcap,
            norm: &self.norm,
            output: self.output.view(),
            layers: self
                .layers
                .iter()
                .map(|l| LayerView {
                    attn_norm: &l.attn_norm,
                    wq: l.wq.view(),
                    wk: l.wk.view(),
                    wv: l.wv.view(),
                    wo: l.wo.view(),
                    bq: l.bq.as_deref(),
                    bk: l.bk.as_deref(),
                    bv: l.bv.as_deref(),
                    q_norm: l.q_norm.as_deref(),
                    k_norm: l.k_norm.as_deref(),
                    ffn_norm: &l.ffn_norm,
                    w_gate: l.w_gate.view(),
                    w_up: l.w_up.view(),
                    w_down: l.w_down.view(),
                    post_attn_norm: l.post_attn_norm.as_deref(),
                    post_ffn_norm: l.post_ffn_norm.as_deref(),
                    n_head: l.n_head,
                    n_kv_head: l.n_kv_head,
                    window: l.window,
                    rope: l.rope,
                })
                .collect(),
        }
    }

    pub(crate) fn truncate_layers(&mut self, n: usize) {
        self.layers.truncate(n);
    }

    /// The input rows of `ids`: their embeddings, scaled as the family
    /// scales them.
    pub fn embed(&self, ids: &[u32]) -> Result<Vec<f32>, Error> {
        let mut x = self.embed.lookup(ids)?;
        if let Some(s) = self.embed_scale {
            for v in &mut x {
                *v *= s;
            }
        }
        Ok(x)
    }

    /// Evaluates `ids` at positions `pos..` and returns the last one's
    /// logits.
    pub fn forward(&mut self, ids: &[u32], pos: usize) -> Result<Vec<f32>, Error> {
        let n = ids.len();
        self.ensure_rope(pos + n);
        let width = self.embed.width;
        let mut x = self.embed(ids)?;
        let hd = self.head_dim;
        let half = hd / 2;
        let neox = self.rope == Rope::Neox;
        let eps = self.eps;
        let n_layer = self.layers.len();
        // a matrix product: rows of `cols` values in, rows of the weight's
        // row count out
        let mm = |w: &Weight, v: &[f32], cols: usize| -> Result<Vec<f32>, Error> {
            w.matmul(v, v.len() / cols)
        };
        let mut act = Vec::new();
        for (il, l) in self.layers.iter_mut().enumerate() {
            let table = &self.ropes[l.rope];
            let cos = &table.cos[pos * half..(pos + n) * half];
            let sin = &table.sin[pos * half..(pos + n) * half];
            let (nh, nkv) = (l.n_head, l.n_kv_head);
            let dims = attention::Dims {
                n_head: nh,
                n_kv_head: nkv,
                head_dim: hd,
                kq_scale: self.kq_scale,
                softcap: self.attn_softcap,
                window: l.window,
            };
            let h = attention::rms_norm(&x, &l.attn_norm, eps);
            // [token][head][dim], bias, per-head norm, RoPE
            let proj = |w: &Weight,
                        b: &Option<Vec<f32>>,
                        norm: &Option<Vec<f32>>,
                        heads: usize,
                        rotate: bool|
             -> Result<Vec<f32>, Error> {
                let mut v = mm(w, &h, width)?;
                if let Some(b) = b {
                    for row in v.chunks_exact_mut(b.len()) {
                        for (y, &b) in row.iter_mut().zip(b) {
                            *y += b;
                        }
                    }
                }
                if let Some(w) = norm {
                    v = attention::rms_norm(&v, w, eps);
                }
                if rotate {
                    for (t, tok) in v.chunks_exact_mut(heads * hd).enumerate() {
                        let (c, s) = (
                            &cos[t * half..(t + 1) * half],
                            &sin[t * half..(t + 1) * half],
                        );
                        for head in tok.chunks_exact_mut(hd) {
                            attention::rope(head, c, s, neox);
                        }
                    }
                }
                Ok(v)
            };
            let mut q = proj(&l.wq, &l.bq, &l.q_norm, nh, true)?;
            if let Some(s) = self.q_scale {
                for v in &mut q {
                    *v *= s;
                }
            }
            let k = proj(&l.wk, &l.bk, &l.k_norm, nkv, true)?;
            let v = proj(&l.wv, &l.bv, &None, nkv, false)?;
            let mut y = attention::attend(&mut l.kv, &dims, pos, &q, &k, &v);
            if il + 1 == n_layer && n > 1 {
                // llama.cpp keeps only the output row past the last
                // attention (`inp_out_ids`); rows are independent
                y.drain(..(n - 1) * nh * hd);
                x.drain(..(n - 1) * width);
            }
            let mut o = mm(&l.wo, &y, nh * hd)?;
            if let Some(w) = &l.post_attn_norm {
                o = attention::rms_norm(&o, w, eps);
            }
            for (x, o) in x.iter_mut().zip(o) {
                *x += o;
            }
            let h = attention::rms_norm(&x, &l.ffn_norm, eps);
            let g = mm(&l.w_gate, &h, width)?;
            let u = mm(&l.w_up, &h, width)?;
            let ff = l.w_gate.rows;
            act.clear();
            match self.act {
                Act::SwiGlu => {
                    for (g, u) in g.chunks_exact(ff).zip(u.chunks_exact(ff)) {
                        act.extend(attention::swiglu(g, u));
                    }
                }
                Act::GeGlu => attention::geglu(&g, &u, &mut act),
            }
            let mut d = mm(&l.w_down, &act, ff)?;
            if let Some(w) = &l.post_ffn_norm {
                d = attention::rms_norm(&d, w, eps);
            }
            for (x, o) in x.iter_mut().zip(d) {
                *x += o;
            }
        }
        let rows = x.len() / width;
        let last = attention::rms_norm(&x[(rows - 1) * width..], &self.norm, eps);
        let mut logits = mm(&self.output, &last, width)?;
        if let Some(c) = self.final_softcap {
            // ggml_scale(1/c), ggml_tanh, ggml_scale(c)
            let inv = 1.0 / c;
            for l in &mut logits {
                *l = attention::tanhf(*l * inv) * c;
            }
        }
        Ok(logits)
    }
}
