//! The decoder graph on the GPU: built once from the CPU model's
//! [`inference::plan::Plan`] as a list of dispatches whose bind groups
//! never change (every buffer is sized for the largest batch), so that a
//! forward pass writes the batch's embeddings and its size, records the
//! list into one command buffer and reads the logits back.

use crate::device::{grid, Gpu};
use crate::shaders::{self, ActFormat};
use crate::Error;
use inference::plan::{Activation, MatrixView, Plan};

/// The most tokens one command buffer evaluates (llama-server's default
/// `n_batch`; longer prompts go in several).
pub const BATCH: usize = 512;

/// How a step's workgroup counts follow the batch's size `n`.
#[derive(Clone, Copy, Debug)]
enum Size {
    /// 64 invocations a workgroup, `per_token` of them per token (or per
    /// row of a fixed count).
    Threads { per_token: u32, fixed: Option<u32> },
    /// One workgroup per row.
    Rows { per_token: u32, fixed: Option<u32> },
    /// A matrix product: 64 weight rows by 4 tokens a workgroup.
    Matmul { rows: u32, fixed: Option<u32> },
    /// Attention: one workgroup per head and token.
    Heads { heads: u32 },
}

impl Size {
    fn dispatch(self, n: u32) -> (u32, u32, u32) {
        let tokens = |fixed: Option<u32>| fixed.unwrap_or(n);
        match self {
            Size::Threads { per_token, fixed } => {
                let (x, y) = grid((per_token * tokens(fixed)).div_ceil(64));
                (x, y, 1)
            }
            Size::Rows { per_token, fixed } => {
                let (x, y) = grid(per_token * tokens(fixed));
                (x, y, 1)
            }
            Size::Matmul { rows, fixed } => {
                let (x, y) = grid(rows.div_ceil(64));
                (x, y, tokens(fixed).div_ceil(4))
            }
            Size::Heads { heads } => (heads, n, 1),
        }
    }
}

struct Step {
    pipeline: wgpu::ComputePipeline,
    bind: wgpu::BindGroup,
    size: Size,
}

/// The activation buffers, by name, for the quantized-input bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Buf {
    X,
    H,
    Q,
    K,
    V,
    Qn,
    Kn,
    Y,
    O,
    O2,
    G,
    U,
    Act,
    Logits,
}

struct Buffers {
    x: wgpu::Buffer,
    h: wgpu::Buffer,
    q: wgpu::Buffer,
    k: wgpu::Buffer,
    v: wgpu::Buffer,
    qn: wgpu::Buffer,
    kn: wgpu::Buffer,
    y: wgpu::Buffer,
    o: wgpu::Buffer,
    o2: wgpu::Buffer,
    g: wgpu::Buffer,
    u: wgpu::Buffer,
    act: wgpu::Buffer,
    logits: wgpu::Buffer,
    a8: wgpu::Buffer,
    a8k: wgpu::Buffer,
    cos: wgpu::Buffer,
    sin: wgpu::Buffer,
    gelu: wgpu::Buffer,
}

impl Buffers {
    fn get(&self, b: Buf) -> &wgpu::Buffer {
        match b {
            Buf::X => &self.x,
            Buf::H => &self.h,
            Buf::Q => &self.q,
            Buf::K => &self.k,
            Buf::V => &self.v,
            Buf::Qn => &self.qn,
            Buf::Kn => &self.kn,
            Buf::Y => &self.y,
            Buf::O => &self.o,
            Buf::O2 => &self.o2,
            Buf::G => &self.g,
            Buf::U => &self.u,
            Buf::Act => &self.act,
            Buf::Logits => &self.logits,
        }
    }
}

/// Builds the step list.
struct Builder<'g> {
    gpu: &'g Gpu,
    params: wgpu::Buffer,
    bufs: Buffers,
    steps: Vec<Step>,
    /// What the Q8 and Q8_K activation buffers hold (the buffer they
    /// quantize, its row width and fixed row count).
    a8_of: Option<(Buf, usize, Option<u32>)>,
    a8k_of: Option<(Buf, usize, Option<u32>)>,
    /// Kept alive with the model: weights, vectors, caches, uniforms.
    keep: Vec<wgpu::Buffer>,
    weight_bytes: u64,
}

impl Builder<'_> {
    /// A step whose buffers are at bindings 0, 1, ….
    fn step(&mut self, pipeline: wgpu::ComputePipeline, buffers: &[&wgpu::Buffer], size: Size) {
        let at: Vec<(u32, &wgpu::Buffer)> = buffers
            .iter()
            .enumerate()
            .map(|(i, &b)| (i as u32, b))
            .collect();
        self.step_at(pipeline, &at, size)
    }

    /// A step with its buffers at the given bindings.
    fn step_at(
        &mut self,
        pipeline: wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
        size: Size,
    ) {
        let bind = self.gpu.bind(&pipeline, buffers);
        self.steps.push(Step {
            pipeline,
            bind,
            size,
        });
    }

    fn uniform(&mut self, words: &[u32]) -> wgpu::Buffer {
        let b = self.gpu.uniform("step", words);
        self.keep.push(b.clone());
        b
    }

    fn vector(&mut self, label: &str, v: &[f32]) -> wgpu::Buffer {
        let b = self.gpu.floats(label, v);
        self.keep.push(b.clone());
        b
    }

    /// `dst` was written: quantized copies of it are stale.
    fn wrote(&mut self, dst: Buf) {
        if matches!(self.a8_of, Some((b, ..)) if b == dst) {
            self.a8_of = None;
        }
        if matches!(self.a8k_of, Some((b, ..)) if b == dst) {
            self.a8k_of = None;
        }
    }

    /// The activations of `src` (rows of `k` values) in `format`,
    /// quantizing them first where the buffer holds something else.
    fn input(&mut self, src: Buf, k: usize, format: ActFormat, fixed: Option<u32>) -> wgpu::Buffer {
        let (entry, held) = match format {
            ActFormat::F32 => return self.bufs.get(src).clone(),
            ActFormat::Q8 => ("q8", self.a8_of),
            ActFormat::Q8K => ("q8k", self.a8k_of),
        };
        let out = match format {
            ActFormat::Q8 => self.bufs.a8.clone(),
            _ => self.bufs.a8k.clone(),
        };
        if held != Some((src, k, fixed)) {
            let p = self.gpu.kernel(shaders::Kernel::Quantize, entry);
            let c = self.uniform(&[k as u32, fixed.unwrap_or(0)]);
            let blocks = (k / format.block_values()) as u32;
            let input = self.bufs.get(src).clone();
            let params = self.params.clone();
            self.step(
                p,
                &[&params, &c, &input, &out],
                Size::Threads {
                    per_token: blocks,
                    fixed,
                },
            );
            match format {
                ActFormat::Q8 => self.a8_of = Some((src, k, fixed)),
                _ => self.a8k_of = Some((src, k, fixed)),
            }
        }
        out
    }

    /// `dst[t][..w.rows] = w · src[t]`, in chunks of rows that fit one
    /// storage binding.
    fn matmul(
        &mut self,
        w: &MatrixView<'_>,
        src: Buf,
        dst: Buf,
        fixed: Option<u32>,
    ) -> Result<(), Error> {
        let a = self.input(src, w.cols, ActFormat::of(w.kind), fixed);
        let row_bytes = w.bytes.len() / w.rows.max(1);
        let fit = (self.gpu.max_binding.saturating_sub(8) / row_bytes.max(1) as u64) as usize;
        if fit == 0 {
            return Err(Error(format!(
                "a {} row of {} bytes is larger than the GPU's largest storage binding ({} bytes)",
                w.kind.name(),
                row_bytes,
                self.gpu.max_binding
            )));
        }
        let p = self.gpu.pipeline(
            &format!("matmul {}", w.kind.name()),
            &shaders::matmul(w.kind, self.gpu.fma),
            "main",
        );
        let blocks = w.cols.div_ceil(shaders::step_values(w.kind)) as u32;
        let out = self.bufs.get(dst).clone();
        let params = self.params.clone();
        let mut r0 = 0;
        while r0 < w.rows {
            let rows = fit.min(w.rows - r0);
            let wb = self
                .gpu
                .storage("weights", &w.bytes[r0 * row_bytes..(r0 + rows) * row_bytes]);
            self.weight_bytes += (rows * row_bytes) as u64;
            self.keep.push(wb.clone());
            let c = self.uniform(&[
                rows as u32,
                blocks,
                w.cols as u32,
                w.rows as u32,
                r0 as u32,
                fixed.unwrap_or(0),
                w.rows as u32,
            ]);
            self.step(
                p.clone(),
                &[&params, &c, &wb, &a, &out],
                Size::Matmul {
                    rows: rows as u32,
                    fixed,
                },
            );
            r0 += rows;
        }
        self.wrote(dst);
        Ok(())
    }

    /// RMS norm of `src`'s rows (`groups` a token, `w` values each) into
    /// `dst`; with `last`, only the last token's, into row 0.
    fn norm(
        &mut self,
        src: Buf,
        dst: Buf,
        weight: &[f32],
        (w, groups): (usize, usize),
        eps: f32,
        last: bool,
    ) {
        let p = self.gpu.kernel(shaders::Kernel::Norm, "main");
        let c = self.uniform(&[w as u32, groups as u32, eps.to_bits(), last as u32]);
        let g = self.vector("norm", weight);
        let (x, y, params) = (
            self.bufs.get(src).clone(),
            self.bufs.get(dst).clone(),
            self.params.clone(),
        );
        self.step(
            p,
            &[&params, &c, &x, &g, &y],
            Size::Rows {
                per_token: groups as u32,
                fixed: last.then_some(1),
            },
        );
        self.wrote(dst);
    }

    /// An element-wise step over rows of `width` values.
    fn elementwise(
        &mut self,
        entry: &str,
        inputs: &[&wgpu::Buffer],
        dst: Buf,
        width: usize,
        fixed: Option<u32>,
        cap: f32,
    ) {
        let p = self.gpu.kernel(shaders::Kernel::Elementwise, entry);
        let c = self.uniform(&[width as u32, fixed.unwrap_or(0), cap.to_bits()]);
        let (x, params, table) = (
            self.bufs.get(dst).clone(),
            self.params.clone(),
            self.bufs.gelu.clone(),
        );
        // B and U at 2 and 3 (those the entry point reads), X at 4, the
        // GELU table at 5 (GeGLU)
        let mut all: Vec<(u32, &wgpu::Buffer)> = vec![(0, &params), (1, &c)];
        all.extend(inputs.iter().enumerate().map(|(i, &b)| (2 + i as u32, b)));
        all.push((4, &x));
        if entry == "geglu" {
            all.push((5, &table));
        }
        self.step_at(
            p,
            &all,
            Size::Threads {
                per_token: width as u32,
                fixed,
            },
        );
        self.wrote(dst);
    }

    fn rope(
        &mut self,
        dst: Buf,
        (heads, hd): (usize, usize),
        table: usize,
        neox: bool,
        scale: f32,
    ) {
        let p = self.gpu.kernel(shaders::Kernel::Rope, "main");
        let c = self.uniform(&[
            heads as u32,
            hd as u32,
            table as u32,
            neox as u32,
            scale.to_bits(),
        ]);
        let (x, cos, sin, params) = (
            self.bufs.get(dst).clone(),
            self.bufs.cos.clone(),
            self.bufs.sin.clone(),
            self.params.clone(),
        );
        self.step(
            p,
            &[&params, &c, &x, &cos, &sin],
            Size::Threads {
                per_token: (heads * hd / 2) as u32,
                fixed: None,
            },
        );
        self.wrote(dst);
    }
}

/// A decoder on the GPU, behind the same interface as the CPU model: the
/// logits of the last token of each call, positions counted since the last
/// reset.
pub struct Model {
    cpu: inference::Model,
    gpu: Gpu,
    params: wgpu::Buffer,
    x: wgpu::Buffer,
    logits: wgpu::Buffer,
    steps: Vec<Step>,
    _keep: Vec<wgpu::Buffer>,
    n_ctx: usize,
    n_vocab: usize,
    pos: usize,
    weight_bytes: u64,
}

impl Model {
    /// Builds `cpu`'s graph on `gpu` for a context of `n_ctx` positions:
    /// uploads the weights, allocates the KV cache, compiles the kernels.
    /// Where it cannot, the error comes back with the CPU model, which can
    /// still run.
    pub async fn load(
        mut cpu: inference::Model,
        gpu: Gpu,
        n_ctx: usize,
    ) -> Result<Model, (Error, inference::Model)> {
        let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let n_ctx = n_ctx.max(1);
        let built = build(&gpu, &cpu.plan(n_ctx), n_ctx);
        let oom = oom.pop().await;
        let invalid = scope.pop().await;
        let built = match (built, oom, invalid) {
            (Err(e), ..) => return Err((e, cpu)),
            (_, Some(e), _) => {
                let e = Error(format!("the GPU has not enough memory for this model: {e}"));
                return Err((e, cpu));
            }
            (_, _, Some(e)) => {
                let e = Error(format!("the GPU refused the model's kernels: {e}"));
                return Err((e, cpu));
            }
            (Ok(b), None, None) => b,
        };
        let (params, x, logits, steps, keep, n_vocab, weight_bytes) = built;
        Ok(Model {
            cpu,
            gpu,
            params,
            x,
            logits,
            steps,
            _keep: keep,
            n_ctx,
            n_vocab,
            pos: 0,
            weight_bytes,
        })
    }

    /// The CPU model (its tokenizer metadata, its runner line).
    pub fn cpu(&self) -> &inference::Model {
        &self.cpu
    }

    /// The device.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Weight bytes uploaded to the GPU.
    pub fn weight_bytes(&self) -> u64 {
        self.weight_bytes
    }

    /// The context the KV cache holds.
    pub fn n_ctx(&self) -> usize {
        self.n_ctx
    }

    /// Tokens evaluated since the last [`Model::reset`].
    pub fn n_past(&self) -> usize {
        self.pos
    }

    /// Forgets every evaluated token.
    pub fn reset(&mut self) {
        self.pos = 0;
    }

    /// Evaluates `tokens` after the ones already seen and returns the
    /// logits of the last one (read back once, after the last batch).
    pub async fn forward(&mut self, tokens: &[u32]) -> Result<Vec<f32>, Error> {
        if tokens.is_empty() {
            return Err(Error("no tokens to evaluate".into()));
        }
        if self.pos + tokens.len() > self.n_ctx {
            return Err(Error(format!(
                "{} positions do not fit the GPU's KV cache of {}",
                self.pos + tokens.len(),
                self.n_ctx
            )));
        }
        let scope = self
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::Validation);
        for chunk in tokens.chunks(BATCH) {
            let x = self.cpu.embed(chunk)?;
            let n = chunk.len() as u32;
            let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
            self.gpu.queue.write_buffer(&self.x, 0, &bytes);
            let mut p = [0u8; 16];
            p[..4].copy_from_slice(&n.to_le_bytes());
            p[4..8].copy_from_slice(&(self.pos as u32).to_le_bytes());
            self.gpu.queue.write_buffer(&self.params, 0, &p);
            let mut enc = self.gpu.device.create_command_encoder(&Default::default());
            {
                let mut pass = enc.begin_compute_pass(&Default::default());
                for s in &self.steps {
                    let (x, y, z) = s.size.dispatch(n);
                    pass.set_pipeline(&s.pipeline);
                    pass.set_bind_group(0, &s.bind, &[]);
                    pass.dispatch_workgroups(x, y, z);
                }
            }
            self.gpu.queue.submit([enc.finish()]);
            self.pos += chunk.len();
        }
        let logits = self.gpu.read(&self.logits, (self.n_vocab * 4) as u64).await;
        if let Some(e) = scope.pop().await {
            return Err(Error(format!("the GPU refused a forward pass: {e}")));
        }
        if let Some(e) = self.gpu.take_error() {
            return Err(Error(format!("the GPU failed: {e}")));
        }
        logits
    }
}

type Built = (
    wgpu::Buffer,
    wgpu::Buffer,
    wgpu::Buffer,
    Vec<Step>,
    Vec<wgpu::Buffer>,
    usize,
    u64,
);

fn build(gpu: &Gpu, plan: &Plan<'_>, n_ctx: usize) -> Result<Built, Error> {
    let b = BATCH;
    let (w, hd) = (plan.width, plan.head_dim);
    let max_heads = plan.layers.iter().map(|l| l.n_head).max().unwrap_or(1);
    let max_kv = plan.layers.iter().map(|l| l.n_kv_head).max().unwrap_or(1);
    let max_ff = plan.layers.iter().map(|l| l.w_gate.rows).max().unwrap_or(1);
    if hd > 256 {
        return Err(Error(format!(
            "heads of {hd} values: the GPU's attention takes at most 256"
        )));
    }
    if !hd.is_multiple_of(32) {
        // ggml_vec_dot_f16 adds the values past the last multiple of 32 in
        // f64, which WGSL has not: the CPU computes those heads exactly
        return Err(Error(format!(
            "heads of {hd} values: the GPU's attention takes multiples of 32"
        )));
    }
    // the widest input any matrix product quantizes
    let mut widest = [0usize; 2];
    let mats = plan
        .layers
        .iter()
        .flat_map(|l| [&l.wq, &l.wk, &l.wv, &l.wo, &l.w_gate, &l.w_up, &l.w_down])
        .chain([&plan.output]);
    for m in mats {
        match ActFormat::of(m.kind) {
            ActFormat::Q8 => widest[0] = widest[0].max(m.cols),
            ActFormat::Q8K => widest[1] = widest[1].max(m.cols),
            ActFormat::F32 => {}
        }
    }
    let half = hd / 2;
    let cos: Vec<f32> = plan
        .ropes
        .iter()
        .flat_map(|(c, _)| c.iter().copied())
        .collect();
    let sin: Vec<f32> = plan
        .ropes
        .iter()
        .flat_map(|(_, s)| s.iter().copied())
        .collect();
    let table_len = n_ctx * half;
    let bufs = Buffers {
        x: gpu.scratch("x", b * w),
        h: gpu.scratch("h", b * w.max(max_heads * hd)),
        q: gpu.scratch("q", b * max_heads * hd),
        k: gpu.scratch("k", b * max_kv * hd),
        v: gpu.scratch("v", b * max_kv * hd),
        qn: gpu.scratch("qn", b * max_heads * hd),
        kn: gpu.scratch("kn", b * max_kv * hd),
        y: gpu.scratch("y", b * max_heads * hd),
        o: gpu.scratch("o", b * w),
        o2: gpu.scratch("o2", b * w),
        g: gpu.scratch("g", b * max_ff),
        u: gpu.scratch("u", b * max_ff),
        act: gpu.scratch("act", b * max_ff),
        logits: gpu.scratch("logits", plan.n_vocab),
        a8: gpu.scratch("a8", ActFormat::Q8.words(b, widest[0])),
        a8k: gpu.scratch("a8k", ActFormat::Q8K.words(b, widest[1])),
        cos: gpu.floats("cos", &cos),
        sin: gpu.floats("sin", &sin),
        gelu: gelu_table(gpu, plan.activation),
    };
    let params = gpu.uniform("params", &[0, 0, 0, 0]);
    let mut bl = Builder {
        gpu,
        params: params.clone(),
        bufs,
        steps: Vec::new(),
        a8_of: None,
        a8k_of: None,
        keep: Vec::new(),
        weight_bytes: 0,
    };
    let eps = plan.eps;
    let neox = plan.rope_neox;
    for l in &plan.layers {
        let (nh, nkv) = (l.n_head, l.n_kv_head);
        let kv_width = nkv * hd;
        // attention
        bl.norm(Buf::X, Buf::H, l.attn_norm, (w, 1), eps, false);
        let q_raw = if l.q_norm.is_some() { Buf::Qn } else { Buf::Q };
        let k_raw = if l.k_norm.is_some() { Buf::Kn } else { Buf::K };
        for (m, bias, dst) in [
            (&l.wq, l.bq, q_raw),
            (&l.wk, l.bk, k_raw),
            (&l.wv, l.bv, Buf::V),
        ] {
            bl.matmul(m, Buf::H, dst, None)?;
            if let Some(bias) = bias {
                let bb = bl.vector("bias", bias);
                bl.elementwise("bias", &[&bb], dst, m.rows, None, 0.0);
            }
        }
        if let Some(qn) = l.q_norm {
            bl.norm(Buf::Qn, Buf::Q, qn, (hd, nh), eps, false);
        }
        if let Some(kn) = l.k_norm {
            bl.norm(Buf::Kn, Buf::K, kn, (hd, nkv), eps, false);
        }
        let table = l.rope * table_len;
        bl.rope(Buf::Q, (nh, hd), table, neox, plan.q_scale.unwrap_or(1.0));
        bl.rope(Buf::K, (nkv, hd), table, neox, 1.0);
        let kc = gpu.scratch("k cache", n_ctx * kv_width);
        let vc = gpu.scratch("v cache", n_ctx * kv_width);
        bl.keep.push(kc.clone());
        bl.keep.push(vc.clone());
        {
            let p = gpu.kernel(shaders::Kernel::Kv, "main");
            let c = bl.uniform(&[kv_width as u32]);
            let (k, v, params) = (bl.bufs.k.clone(), bl.bufs.v.clone(), bl.params.clone());
            bl.step(
                p,
                &[&params, &c, &k, &v, &kc, &vc],
                Size::Threads {
                    per_token: kv_width as u32,
                    fixed: None,
                },
            );
        }
        {
            let p = gpu.kernel(shaders::Kernel::Attention, "main");
            let c = bl.uniform(&[
                nh as u32,
                nkv as u32,
                hd as u32,
                l.window.unwrap_or(0) as u32,
                plan.kq_scale.to_bits(),
                plan.attn_softcap.unwrap_or(0.0).to_bits(),
            ]);
            let (q, y, params) = (bl.bufs.q.clone(), bl.bufs.y.clone(), bl.params.clone());
            bl.step(
                p,
                &[&params, &c, &q, &kc, &vc, &y],
                Size::Heads { heads: nh as u32 },
            );
            bl.wrote(Buf::Y);
        }
        bl.matmul(&l.wo, Buf::Y, Buf::O, None)?;
        residual(&mut bl, l.post_attn_norm, w, eps);
        // feed-forward
        bl.norm(Buf::X, Buf::H, l.ffn_norm, (w, 1), eps, false);
        bl.matmul(&l.w_gate, Buf::H, Buf::G, None)?;
        bl.matmul(&l.w_up, Buf::H, Buf::U, None)?;
        let (g, u) = (bl.bufs.g.clone(), bl.bufs.u.clone());
        let entry = match plan.activation {
            Activation::SwiGlu => "swiglu",
            Activation::GeGlu => "geglu",
        };
        bl.elementwise(entry, &[&g, &u], Buf::Act, l.w_gate.rows, None, 0.0);
        bl.matmul(&l.w_down, Buf::Act, Buf::O, None)?;
        residual(&mut bl, l.post_ffn_norm, w, eps);
    }
    // the last token's logits
    bl.norm(Buf::X, Buf::H, plan.norm, (w, 1), eps, true);
    bl.matmul(&plan.output, Buf::H, Buf::Logits, Some(1))?;
    if let Some(c) = plan.final_softcap {
        bl.elementwise("softcap", &[], Buf::Logits, plan.n_vocab, Some(1), c);
    }
    let Builder {
        bufs,
        steps,
        mut keep,
        weight_bytes,
        ..
    } = bl;
    let (x, logits) = (bufs.x.clone(), bufs.logits.clone());
    keep.extend([
        bufs.h, bufs.q, bufs.k, bufs.v, bufs.qn, bufs.kn, bufs.y, bufs.o, bufs.o2, bufs.g, bufs.u,
        bufs.act, bufs.a8, bufs.a8k, bufs.cos, bufs.sin,
    ]);
    Ok((params, x, logits, steps, keep, plan.n_vocab, weight_bytes))
}

/// ggml's GELU table on the GPU (GeGLU models; one word for the others).
pub(crate) fn gelu_table(gpu: &Gpu, act: Activation) -> wgpu::Buffer {
    match act {
        Activation::GeGlu => {
            let bytes: Vec<u8> = inference::ops::gelu_table()
                .iter()
                .flat_map(|h| h.to_le_bytes())
                .collect();
            gpu.storage("gelu", &bytes)
        }
        Activation::SwiGlu => gpu.scratch("gelu", 1),
    }
}

/// `x += o`, through the post norm where the layer has one.
fn residual(bl: &mut Builder<'_>, post: Option<&[f32]>, w: usize, eps: f32) {
    let src = match post {
        Some(weight) => {
            bl.norm(Buf::O, Buf::O2, weight, (w, 1), eps, false);
            Buf::O2
        }
        None => Buf::O,
    };
    let o = bl.bufs.get(src).clone();
    bl.elementwise("add", &[&o], Buf::X, w, None, 0.0);
}
