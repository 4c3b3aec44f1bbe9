//! The CPU operations of the decoder graph, public so that another
//! backend's kernels (`promptscope-gpu`) can be checked against them: the
//! same functions [`crate::decoder`] runs, llama.cpp's AVX2 arithmetic.

/// RMS norm of each row of `w.len()` values, times `w`.
pub fn rms_norm(x: &[f32], w: &[f32], eps: f32) -> Vec<f32> {
    crate::attention::rms_norm(x, w, eps)
}

/// Rotary embedding of one head in place (`cos`, `sin`: one position's
/// pairs), NEOX (the two halves) or NORM (adjacent pairs).
pub fn rope(x: &mut [f32], cos: &[f32], sin: &[f32], neox: bool) {
    crate::attention::rope(x, cos, sin, neox)
}

/// ggml's AVX2 `ggml_v_expf`, one lane (SwiGLU's and the softmax's exp).
pub fn v_expf(x: f32) -> f32 {
    crate::attention::v_expf(x)
}

/// `silu(gate) · up` of one row.
pub fn swiglu(gate: &[f32], up: &[f32]) -> Vec<f32> {
    crate::attention::swiglu(gate, up)
}

/// `gelu(gate) · up` with ggml's GELU table.
pub fn geglu(gate: &[f32], up: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(gate.len());
    crate::attention::geglu(gate, up, &mut out);
    out
}

/// ggml-cpu's GELU table: `f16(gelu(x))` for every f16 `x` (by its
/// bits), which GeGLU looks values up in.
pub fn gelu_table() -> &'static [u16] {
    crate::attention::gelu_table()
}

/// Attention of `n` new tokens at positions `pos..pos + n` over a KV
/// cache that holds the positions before `pos` (`cache` grows): `q`
/// `[token][head][dim]`, `k` and `v` `[token][kv head][dim]`; the output
/// `[token][head][dim]`.
pub fn attend(
    cache: &mut KvCache,
    dims: &AttnDims,
    pos: usize,
    q: &[f32],
    k: &[f32],
    v: &[f32],
) -> Vec<f32> {
    let d = crate::attention::Dims {
        n_head: dims.n_head,
        n_kv_head: dims.n_kv_head,
        head_dim: dims.head_dim,
        kq_scale: dims.kq_scale,
        softcap: dims.softcap,
        window: dims.window,
    };
    crate::attention::attend(&mut cache.0, &d, pos, q, k, v)
}

/// A layer's KV cache for [`attend`].
#[derive(Default)]
pub struct KvCache(crate::attention::KvCache);

/// The shapes and switches of [`attend`].
#[derive(Clone, Copy, Debug)]
pub struct AttnDims {
    pub n_head: usize,
    pub n_kv_head: usize,
    pub head_dim: usize,
    /// The softmax scale of `K·Q`.
    pub kq_scale: f32,
    /// Soft-capping of the attention logits.
    pub softcap: Option<f32>,
    /// A sliding window.
    pub window: Option<usize>,
}
