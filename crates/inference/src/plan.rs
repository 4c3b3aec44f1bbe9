//! A loaded decoder described for another backend: every weight matrix as
//! the bytes it holds in the file (kind, rows, columns), every vector, and
//! the per-family switches, exactly as [`crate::decoder`] runs them, so
//! that a GPU path (`promptscope-gpu`) builds the same graph from the same
//! reading of the file. The rotary tables are this crate's (ggml's rope
//! cache), so both paths rotate by the same angles.
//!
//! [`crate::ops`] gives the CPU operations the other backend's kernels are
//! checked against.

use crate::quant::Kind;

/// A weight matrix where it lies in the file.
#[derive(Clone, Copy, Debug)]
pub struct MatrixView<'a> {
    pub kind: Kind,
    /// Output values (rows of the matrix).
    pub rows: usize,
    /// Input values per row.
    pub cols: usize,
    /// The tensor's bytes, ggml's blocks, `rows × cols / block values`
    /// blocks.
    pub bytes: &'a [u8],
}

/// The gated activation of the feed-forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `silu(gate) · up` (llama, qwen).
    SwiGlu,
    /// `gelu(gate) · up` with ggml's GELU table (the Gemmas).
    GeGlu,
}

/// One layer.
#[derive(Clone, Debug)]
pub struct LayerView<'a> {
    pub attn_norm: &'a [f32],
    pub wq: MatrixView<'a>,
    pub wk: MatrixView<'a>,
    pub wv: MatrixView<'a>,
    pub wo: MatrixView<'a>,
    pub bq: Option<&'a [f32]>,
    pub bk: Option<&'a [f32]>,
    pub bv: Option<&'a [f32]>,
    /// Per-head RMS norms of the queries and keys (qwen3, gemma3).
    pub q_norm: Option<&'a [f32]>,
    pub k_norm: Option<&'a [f32]>,
    pub ffn_norm: &'a [f32],
    pub w_gate: MatrixView<'a>,
    pub w_up: MatrixView<'a>,
    pub w_down: MatrixView<'a>,
    /// Gemma 2/3: RMS norms of the attention and feed-forward outputs.
    pub post_attn_norm: Option<&'a [f32]>,
    pub post_ffn_norm: Option<&'a [f32]>,
    pub n_head: usize,
    pub n_kv_head: usize,
    /// The sliding window of a local layer.
    pub window: Option<usize>,
    /// Which of [`Plan::ropes`] the layer rotates with.
    pub rope: usize,
}

/// A whole decoder.
#[derive(Clone, Debug)]
pub struct Plan<'a> {
    pub arch: &'a str,
    /// `embedding_length`.
    pub width: usize,
    pub head_dim: usize,
    pub n_vocab: usize,
    pub eps: f32,
    /// NEOX rotation (the two halves) or NORM (adjacent pairs).
    pub rope_neox: bool,
    /// The rotary tables, `[position][pair]` each, for positions
    /// `0..len` (see [`crate::Model::plan`]): cos, sin.
    pub ropes: Vec<(&'a [f32], &'a [f32])>,
    pub activation: Activation,
    /// Gemma: the queries' scale before `K·Q`.
    pub q_scale: Option<f32>,
    /// The softmax scale of `K·Q`.
    pub kq_scale: f32,
    pub attn_softcap: Option<f32>,
    pub final_softcap: Option<f32>,
    pub norm: &'a [f32],
    pub output: MatrixView<'a>,
    pub layers: Vec<LayerView<'a>>,
}
