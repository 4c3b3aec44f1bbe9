//! The llama-style decoder (`llama`, `qwen2`, `qwen3` in llama.cpp's
//! terms): RMS norm, rotary attention with grouped KV heads, SwiGLU, on
//! candle tensors with this crate's quantized matrix products.
//!
//! Where llama.cpp's CPU graph rounds (its default KV cache is f16, so K,
//! V, the queries multiplied with K and the attention weights multiplied
//! with V pass through f16), this graph rounds the same values, so that the
//! logits agree with llama.cpp's to a few ulps of f16 and greedy decoding
//! picks the same tokens.

use crate::attention;
use crate::error::Error;
use crate::model::{Meta, Tensors};
use candle_core::quantized::{QMatMul, QTensor};
use candle_core::{Device, Module, Tensor};
use std::io::{Read, Seek};
use std::sync::Arc;

struct Layer {
    attn_norm: Vec<f32>,
    wq: QMatMul,
    wk: QMatMul,
    wv: QMatMul,
    wo: QMatMul,
    bq: Option<Vec<f32>>,
    bk: Option<Vec<f32>>,
    bv: Option<Vec<f32>>,
    q_norm: Option<Vec<f32>>,
    k_norm: Option<Vec<f32>>,
    ffn_norm: Vec<f32>,
    w_gate: QMatMul,
    w_up: QMatMul,
    w_down: QMatMul,
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
    output: QMatMul,
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
    device: Device,
}

/// The token embedding table, kept quantized: rows are dequantized per
/// lookup. Models without `output.weight` share it as the output matrix.
struct Embedding {
    table: Arc<QTensor>,
    width: usize,
}

impl Embedding {
    fn lookup(&self, ids: &[u32], device: &Device) -> candle_core::Result<Tensor> {
        let ids_t = Tensor::new(ids, device)?;
        self.table
            .embedding(&ids_t)?
            .reshape((1, ids.len(), self.width))
    }
}

fn err(e: candle_core::Error) -> Error {
    Error::Run(e.to_string())
}

impl Decoder {
    pub fn load<R: Read + Seek>(meta: &Meta, t: &mut Tensors<R>) -> Result<Decoder, Error> {
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
            Some(
                t.f32("rope_freqs.weight")?
                    .flatten_all()
                    .and_then(|x| x.to_vec1::<f32>())
                    .map_err(err)?,
            )
        } else {
            None
        };
        let table = Arc::new(t.q("token_embd.weight")?);
        let output = if t.has("output.weight") {
            QMatMul::from_qtensor(t.q("output.weight")?)
        } else {
            QMatMul::from_arc(table.clone())
        }
        .map_err(err)?;
        let mut layers = Vec::with_capacity(n_layer);
        for i in 0..n_layer {
            let p = format!("blk.{i}");
            let opt = |t: &mut Tensors<R>, name: &str| -> Result<Option<Vec<f32>>, Error> {
                let full = format!("{p}.{name}");
                if t.has(&full) {
                    t.vec(&full).map(Some)
                } else {
                    Ok(None)
                }
            };
            let mm = |t: &mut Tensors<R>, name: &str| -> Result<QMatMul, Error> {
                let q = t.q(&format!("{p}.{name}"))?;
                QMatMul::from_qtensor(q).map_err(err)
            };
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
        let device = t.device.clone();
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
            device,
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

    pub fn forward(&mut self, ids: &[u32], pos: usize) -> candle_core::Result<Tensor> {
        let n = ids.len();
        self.ensure_rope(pos + n);
        let dev = self.device.clone();
        let width = self.embed.width;
        let mut x: Vec<f32> = self.embed.lookup(ids, &dev)?.flatten_all()?.to_vec1()?;
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
        // a matrix product on candle: rows of `cols` values in, a vector out
        let mm = |w: &QMatMul, v: &[f32], cols: usize| -> candle_core::Result<Vec<f32>> {
            let t = Tensor::from_slice(v, (1, v.len() / cols, cols), &dev)?;
            w.forward(&t)?.flatten_all()?.to_vec1()
        };
        for l in &mut self.layers {
            let h = attention::rms_norm(&x, &l.attn_norm, eps);
            // [token][head][dim], bias, per-head norm, RoPE
            let proj = |w: &QMatMul,
                        b: &Option<Vec<f32>>,
                        norm: &Option<Vec<f32>>,
                        heads: usize,
                        rotate: bool|
             -> candle_core::Result<Vec<f32>> {
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
        let logits = mm(&self.output, &last, width)?;
        let len = logits.len();
        Tensor::from_vec(logits, len, &dev)
    }
}
