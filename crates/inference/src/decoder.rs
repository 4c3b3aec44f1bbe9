//! The llama-style decoder (`llama`, `qwen2`, `qwen3` in llama.cpp's
//! terms): RMS norm, rotary attention with grouped KV heads, SwiGLU, on
//! the file's weights in place with this crate's quantized matrix products.
//!
//! Where llama.cpp's CPU graph rounds (its default KV cache is f16, so K,
//! V, the queries multiplied with K and the attention weights multiplied
//! with V pass through f16), this graph rounds the same values, so that the
//! logits agree with llama.cpp's to a few ulps of f16 and greedy decoding
//! picks the same tokens.

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
    kv: attention::KvCache,
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
    n_head: usize,
    n_kv_head: usize,
    head_dim: usize,
    rope: Rope,
    freq_base: f32,
    freq_factors: Option<Vec<f32>>,
    /// `[position][pair]` cos and sin of the rotary angles.
    cos: Vec<f32>,
    sin: Vec<f32>,
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
        if meta.opt_usize("expert_count")?.unwrap_or(0) > 0 {
            return Err(Error::Unsupported(format!(
                "mixture-of-experts {arch} models cannot run here"
            )));
        }
        let width = meta.usize("embedding_length")?;
        let n_layer = meta.usize("block_count")?;
        let n_head = meta.usize("attention.head_count")?;
        let n_kv_head = meta.opt_usize("attention.head_count_kv")?.unwrap_or(n_head);
        if n_head == 0 || n_kv_head == 0 || n_head % n_kv_head != 0 {
            return Err(Error::load(format!(
                "{arch}: {n_head} attention heads cannot share {n_kv_head} KV heads"
            )));
        }
        let head_dim = match meta.opt_usize("attention.key_length")? {
            Some(k) => k,
            None => width / n_head,
        };
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
        let rope = if arch == "llama" {
            Rope::Norm
        } else {
            Rope::Neox
        };
        let freq_factors = if t.has("rope_freqs.weight") {
            Some(t.vec("rope_freqs.weight")?)
        } else {
            None
        };
        let table = t.weight("token_embd.weight")?;
        if table.cols != width {
            return Err(Error::load(format!(
                "token_embd.weight has rows of {} values, the model is {width} wide",
                table.cols
            )));
        }
        let output = if t.has("output.weight") {
            t.weight("output.weight")?
        } else {
            table.clone()
        };
        let mut layers = Vec::with_capacity(n_layer);
        for i in 0..n_layer {
            let p = format!("blk.{i}");
            let opt = |t: &Gguf, name: &str| -> Result<Option<Vec<f32>>, Error> {
                let full = format!("{p}.{name}");
                if t.has(&full) {
                    t.vec(&full).map(Some)
                } else {
                    Ok(None)
                }
            };
            let mm = |t: &Gguf, name: &str| t.weight(&format!("{p}.{name}"));
            layers.push(Layer {
                attn_norm: t.vec(&format!("{p}.attn_norm.weight"))?,
                wq: mm(t, "attn_q.weight")?,
                wk: mm(t, "attn_k.weight")?,
                wv: mm(t, "attn_v.weight")?,
                wo: mm(t, "attn_output.weight")?,
                bq: opt(t, "attn_q.bias")?,
                bk: opt(t, "attn_k.bias")?,
                bv: opt(t, "attn_v.bias")?,
                q_norm: opt(t, "attn_q_norm.weight")?,
                k_norm: opt(t, "attn_k_norm.weight")?,
                ffn_norm: t.vec(&format!("{p}.ffn_norm.weight"))?,
                w_gate: mm(t, "ffn_gate.weight")?,
                w_up: mm(t, "ffn_up.weight")?,
                w_down: mm(t, "ffn_down.weight")?,
                kv: attention::KvCache::default(),
            });
        }
        let norm = t.vec("output_norm.weight")?;
        let mut d = Decoder {
            embed: Embedding { table, width },
            layers,
            norm,
            output,
            eps,
            n_head,
            n_kv_head,
            head_dim,
            rope,
            freq_base,
            freq_factors,
            cos: Vec::new(),
            sin: Vec::new(),
        };
        d.ensure_rope(512);
        Ok(d)
    }

    /// Grows the cos/sin tables to cover positions `0..len`, computed as
    /// ggml's rope cache does: `θ = p · base^(-2i/d)` by repeated f32
    /// multiplication, divided by the `rope_freqs` factor where the model
    /// has one.
    fn ensure_rope(&mut self, len: usize) {
        let have = self.cos.len() / (self.head_dim / 2);
        if have >= len {
            return;
        }
        let len = len.max(have * 2);
        let half = self.head_dim / 2;
        let scale = self.freq_base.powf(-2.0 / self.head_dim as f32);
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
                let th = theta / ff;
                cos.push(th.cos());
                sin.push(th.sin());
                theta *= scale;
            }
        }
        self.cos = cos;
        self.sin = sin;
    }

    pub fn reset(&mut self) {
        for l in &mut self.layers {
            l.kv.clear();
        }
    }

    /// Evaluates `ids` at positions `pos..` and returns the last one's
    /// logits.
    pub fn forward(&mut self, ids: &[u32], pos: usize) -> Result<Vec<f32>, Error> {
        let n = ids.len();
        self.ensure_rope(pos + n);
        let width = self.embed.width;
        let mut x = self.embed.lookup(ids)?;
        let half = self.head_dim / 2;
        let cos = &self.cos[pos * half..(pos + n) * half];
        let sin = &self.sin[pos * half..(pos + n) * half];
        let (nh, nkv, hd) = (self.n_head, self.n_kv_head, self.head_dim);
        let dims = attention::Dims {
            n_head: nh,
            n_kv_head: nkv,
            head_dim: hd,
        };
        let neox = self.rope == Rope::Neox;
        let eps = self.eps;
        // a matrix product: rows of `cols` values in, rows of the weight's
        // row count out
        let mm = |w: &Weight, v: &[f32], cols: usize| -> Result<Vec<f32>, Error> {
            w.matmul(v, v.len() / cols)
        };
        for l in &mut self.layers {
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
            let q = proj(&l.wq, &l.bq, &l.q_norm, nh, true)?;
            let k = proj(&l.wk, &l.bk, &l.k_norm, nkv, true)?;
            let v = proj(&l.wv, &l.bv, &None, nkv, false)?;
            let y = attention::attend(&mut l.kv, &dims, pos, &q, &k, &v);
            for (x, o) in x.iter_mut().zip(mm(&l.wo, &y, nh * hd)?) {
                *x += o;
            }
            let h = attention::rms_norm(&x, &l.ffn_norm, eps);
            let g = mm(&l.w_gate, &h, width)?;
            let u = mm(&l.w_up, &h, width)?;
            let ff = g.len() / n;
            let act: Vec<f32> = g
                .chunks_exact(ff)
                .zip(u.chunks_exact(ff))
                .flat_map(|(g, u)| attention::swiglu(g, u))
                .collect();
            for (x, o) in x.iter_mut().zip(mm(&l.w_down, &act, ff)?) {
                *x += o;
            }
        }
        let last = attention::rms_norm(&x[(n - 1) * width..], &self.norm, eps);
        mm(&self.output, &last, width)
    }
}
