//! The kernels against the CPU path's, in a browser with WebGPU (CI:
//! headless Chromium on SwiftShader, `scripts/test.sh`'s `test-gpu`).
//!
//! The GPU sums in another order than the CPU's AVX2 lanes and its
//! division is not correctly rounded (WGSL allows 2.5 ulp), so an
//! activation value can quantize one step apart; each test states its
//! tolerance and prints the largest error it saw, relative to the
//! magnitude of the terms summed (`Σ|w|·|x|` for a matrix product).

use crate::device::Gpu;
use crate::shaders::{self, ActFormat, Fma};
use inference::quant::{self, Kind};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn rng(seed: u32) -> impl FnMut() -> u32 {
    let mut x = seed.max(1);
    move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    }
}

/// `n` blocks of `kind`: random bytes with sane f16 scales (the CPU
/// kernel tests' recipe), or random values for the float kinds.
fn weights(kind: Kind, n_values: usize, seed: u32) -> Vec<u8> {
    let mut next = rng(seed);
    let bb = kind.block_bytes();
    let nb = n_values / kind.block_values();
    let f16 = |v: f32| half_bits(v).to_le_bytes();
    match kind {
        Kind::F32 => (0..n_values)
            .flat_map(|_| ((next() % 2001) as f32 / 1000.0 - 1.0).to_le_bytes())
            .collect(),
        Kind::F16 | Kind::BF16 => (0..n_values)
            .flat_map(|_| {
                let v = (next() % 2001) as f32 / 1000.0 - 1.0;
                if kind == Kind::F16 {
                    f16(v)
                } else {
                    ((v.to_bits() >> 16) as u16).to_le_bytes()
                }
            })
            .collect(),
        _ => {
            let scales: &[usize] = match kind {
                Kind::Q4_0 | Kind::Q5_0 | Kind::Q8_0 => &[0],
                Kind::Q4_1 | Kind::Q5_1 | Kind::Q4_K | Kind::Q5_K => &[0, 2],
                Kind::Q6_K => &[208],
                _ => &[],
            };
            let mut out: Vec<u8> = (0..nb * bb).map(|_| next() as u8).collect();
            for b in 0..nb {
                for &o in scales {
                    let v = 0.0005 + (next() % 1000) as f32 / 80_000.0;
                    let v = if o == 2 && next().is_multiple_of(4) {
                        -v
                    } else {
                        v
                    };
                    out[b * bb + o..b * bb + o + 2].copy_from_slice(&f16(v));
                }
            }
            out
        }
    }
}

fn half_bits(v: f32) -> u16 {
    // round to nearest even f16 of a small normal value
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let m = b & 0x7f_ffff;
    if e <= 0 {
        return sign;
    }
    let mut h = ((e as u32) << 10) | (m >> 13);
    let rest = m & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

fn activations(n: usize, seed: u32) -> Vec<f32> {
    let mut next = rng(seed);
    (0..n)
        .map(|_| (next() % 20_001) as f32 / 5_000.0 - 2.0)
        .collect()
}

async fn gpu() -> Gpu {
    Gpu::new()
        .await
        .unwrap_or_else(|e| panic!("this test needs WebGPU (Chromium: --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader): {e}"))
}

/// The fused multiply-adds to test: the emulated one always, the adapter's
/// where the probe finds it exact (said on the console either way).
async fn fma_modes() -> Vec<Fma> {
    let probed = gpu().await;
    console_log!(
        "fma: {} ({})",
        probed.fma().describe(),
        probed
            .info()
            .fma_probe
            .as_deref()
            .unwrap_or("the probe passed")
    );
    let mut modes = vec![Fma::Emulated];
    if probed.fma() == Fma::Native {
        modes.push(Fma::Native);
    }
    modes
}

async fn gpu_with(fma: Fma) -> Gpu {
    Gpu::with_fma(Some(fma)).await.unwrap()
}

fn params(gpu: &Gpu, n: usize, pos: usize) -> wgpu::Buffer {
    gpu.uniform("params", &[n as u32, pos as u32])
}

/// One dispatch of one of the graph's kernels.
fn run_kernel(
    gpu: &Gpu,
    k: shaders::Kernel,
    entry: &str,
    buffers: &[&wgpu::Buffer],
    groups: (u32, u32, u32),
) {
    run(gpu, k.name(), &k.source(gpu.fma), entry, buffers, groups)
}

/// One compute dispatch of `entry` with `buffers` at bindings 0, 1, ….
fn run(
    gpu: &Gpu,
    key: &str,
    src: &str,
    entry: &str,
    buffers: &[&wgpu::Buffer],
    groups: (u32, u32, u32),
) {
    let p = gpu.pipeline(key, src, entry);
    let at: Vec<(u32, &wgpu::Buffer)> = buffers
        .iter()
        .enumerate()
        .map(|(i, &b)| (i as u32, b))
        .collect();
    let bind = gpu.bind(&p, &at);
    let mut enc = gpu.device.create_command_encoder(&Default::default());
    {
        let mut pass = enc.begin_compute_pass(&Default::default());
        pass.set_pipeline(&p);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(groups.0, groups.1, groups.2);
    }
    gpu.queue.submit([enc.finish()]);
}

/// The matrix product of `m` rows against `n` random weight rows of `k`
/// values on both paths: (gpu, cpu, Σ|w|·|x| per output).
async fn matmul_both(
    gpu: &Gpu,
    kind: Kind,
    (m, k, n): (usize, usize, usize),
    seed: u32,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let w = weights(kind, n * k, seed);
    let x = activations(m * k, seed + 100);
    // the CPU path (its bytes aligned as the file's would be)
    let mut aligned = vec![0u8; w.len() + 8];
    let o = aligned.as_ptr().align_offset(4);
    aligned[o..o + w.len()].copy_from_slice(&w);
    let mut cpu = vec![0f32; m * n];
    quant::matmul(kind, &aligned[o..o + w.len()], (m, k, n), &x, &mut cpu).unwrap();
    let mut wf = vec![0f32; n * k];
    quant::dequantize(kind, &aligned[o..o + w.len()], &mut wf).unwrap();
    let mag: Vec<f32> = (0..m * n)
        .map(|i| {
            let (t, r) = (i / n, i % n);
            (0..k).map(|j| (wf[r * k + j] * x[t * k + j]).abs()).sum()
        })
        .collect();
    // the GPU path: quantize, multiply
    let format = ActFormat::of(kind);
    let p = params(gpu, m, 0);
    let xb = gpu.floats("x", &x);
    let a = match format {
        ActFormat::F32 => xb.clone(),
        f => {
            let a = gpu.scratch("a", f.words(m, k));
            let c = gpu.uniform("q", &[k as u32, 0]);
            let entry = if f == ActFormat::Q8 { "q8" } else { "q8k" };
            let blocks = (m * k / f.block_values()) as u32;
            run_kernel(
                gpu,
                shaders::Kernel::Quantize,
                entry,
                &[&p, &c, &xb, &a],
                (blocks.div_ceil(64), 1, 1),
            );
            a
        }
    };
    let wb = gpu.storage("w", &w);
    let y = gpu.scratch("y", m * n);
    let blocks = k.div_ceil(shaders::step_values(kind)) as u32;
    let c = gpu.uniform(
        "mm",
        &[n as u32, blocks, k as u32, n as u32, 0, 0, n as u32],
    );
    let src = shaders::matmul(kind, gpu.fma);
    run(
        gpu,
        &format!("matmul {}", kind.name()),
        &src,
        "main",
        &[&p, &c, &wb, &a, &y],
        ((n as u32).div_ceil(64), 1, (m as u32).div_ceil(4)),
    );
    let got = gpu.read(&y, (m * n * 4) as u64).await.unwrap_or_else(|e| {
        panic!(
            "{} m={m} k={k} n={n}: {e} ({})",
            kind.name(),
            gpu.take_error().unwrap_or_default()
        )
    });
    (got, cpu, mag)
}

/// How many values are not bit for bit the same.
fn bits_differ(a: &[f32], b: &[f32]) -> usize {
    a.iter()
        .zip(b)
        .filter(|(x, y)| x.to_bits() != y.to_bits())
        .count()
}

/// The largest `|a − b| / scale` and where.
fn worst(a: &[f32], b: &[f32], scale: &[f32]) -> (f32, usize) {
    let mut w = (0f32, 0);
    for i in 0..a.len() {
        let e = (a[i] - b[i]).abs() / scale[i].max(1e-12);
        assert!(e.is_finite(), "output {i}: {} vs {}", a[i], b[i]);
        if e > w.0 {
            w = (e, i);
        }
    }
    w
}

/// The exact roundings the kernels depend on (`wgsl/exact.wgsl`) equal
/// the CPU's on edge cases and random values: division by 127, of 127 and
/// of 1 (correctly rounded), round-half-to-even, f16 rounding (the `half`
/// crate's, ties to even, subnormals, overflow) and the fused
/// multiply-add (on random triples and on nearly cancelling ones).
#[wasm_bindgen_test]
async fn wasm_exact_roundings_are_the_cpus() {
    let gpu = gpu().await;
    let mut next = rng(5);
    let mut xs: Vec<f32> = vec![
        1.0,
        127.0,
        0.5,
        126.5,
        127.5,
        2.5,
        3.5,
        -2.5,
        65504.0,
        65519.0,
        65520.0,
        1e-7,
        6e-8,
        3e-8,
        2.98e-8,
        1.0e-5,
        6.1e-5,
        6.103e-5,
        0.1,
        1.0 / 3.0,
    ];
    for _ in 0..20_000 {
        let e = 90 + next() % 80;
        xs.push(f32::from_bits((next() & 0x807f_ffff) | (e << 23)));
    }
    const SRC: &str = "
        @group(0) @binding(0) var<storage, read> X: array<f32>;
        @group(0) @binding(1) var<storage, read_write> Y: array<f32>;
        @group(0) @binding(2) var<storage, read_write> F: array<f32>;
        @group(0) @binding(3) var<storage, read_write> G: array<f32>;
        @group(0) @binding(4) var<storage, read> E: array<f32>;
        struct Params { n: u32, pos: u32, zero: u32 }
        @group(0) @binding(5) var<uniform> P: Params;
        @compute @workgroup_size(64)
        fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
            let i = gid.x;
            if (i >= arrayLength(&X)) { return; }
            let x = X[i];
            let a = abs(x);
            Y[5u * i] = div_rn(127.0, a);
            Y[5u * i + 1u] = div_rn(a, 127.0);
            Y[5u * i + 2u] = div_rn(1.0, a);
            Y[5u * i + 3u] = round_even(x * 1000.0);
            Y[5u * i + 4u] = f16_rne(x);
            // fused multiply-adds: a random product and c, and one that
            // nearly cancels
            let b = X[(i * 7u + 3u) % arrayLength(&X)];
            let c = X[(i * 13u + 5u) % arrayLength(&X)];
            F[2u * i] = fma_rn(x, b, c);
            F[2u * i + 1u] = fma_rn(x, b, -(x * b) + c * 1e-6);
            // ggml_v_expf on (−20, 20), and a quotient
            G[2u * i] = v_expf(E[i]);
            G[2u * i + 1u] = div_rn_signed(x, 1.0 + abs(b));
        }";
    let src = format!("{SRC}\n{}", shaders::exact_source(gpu.fma()));
    let xb = gpu.floats("x", &xs);
    // floats() pads one word: the kernel reads arrayLength of the padded buffer
    let y = gpu.scratch("y", 5 * (xs.len() + 1));
    let fb = gpu.scratch("f", 2 * (xs.len() + 1));
    let gb = gpu.scratch("g", 2 * (xs.len() + 1));
    let es: Vec<f32> = xs
        .iter()
        .map(|x| (x.abs() * 1000.0).fract() * 40.0 - 20.0)
        .chain([0.0])
        .collect();
    let eb = gpu.floats("e", &es);
    let groups = (xs.len() as u32 + 1).div_ceil(64);
    run(
        &gpu,
        "exact",
        &src,
        "main",
        &[&xb, &y, &fb, &gb, &eb, &params(&gpu, 0, 0)],
        (groups, 1, 1),
    );
    let gs = gpu.read(&gb, (2 * xs.len() * 4) as u64).await.unwrap();
    let got = gpu.read(&y, (5 * xs.len() * 4) as u64).await.unwrap();
    let fmas = gpu.read(&fb, (2 * xs.len() * 4) as u64).await.unwrap();
    // the padded buffer's length: one word more than xs
    let len = xs.len() + 1;
    let at = |i: usize| if i < xs.len() { xs[i] } else { 0.0 };
    let mut fma_wrong = Vec::new();
    for i in 0..xs.len() {
        let (x, b, c) = (xs[i], at((i * 7 + 3) % len), at((i * 13 + 5) % len));
        let cases = [x.mul_add(b, c), x.mul_add(b, -(x * b) + c * 1e-6)];
        for (j, w) in cases.into_iter().enumerate() {
            // the normal range (the emulation's proof assumes no underflow)
            let small = |v: f32| v != 0.0 && v.abs() < 1e-30;
            if small(w) || small(x * b) || !w.is_finite() {
                continue;
            }
            let g = fmas[2 * i + j];
            if g.to_bits() != w.to_bits() {
                fma_wrong.push(format!("fma({x:e}, {b:e}, c) case {j}: {g:e} vs {w:e}"));
            }
        }
    }
    for i in 0..xs.len() {
        let (x, b) = (xs[i], at((i * 7 + 3) % len));
        let e = es[i];
        for (j, w) in [inference::ops::v_expf(e), x / (1.0 + b.abs())]
            .into_iter()
            .enumerate()
        {
            let normal = |v: f32| v.is_normal() || v == 0.0;
            if j == 1 && !(normal(x) && normal(w)) {
                continue;
            }
            let g = gs[2 * i + j];
            if g.to_bits() != w.to_bits() {
                fma_wrong.push(format!(
                    "{} of {e:e} / {x:e}: {g:e} vs {w:e}",
                    ["v_expf", "x/(1+|b|)"][j]
                ));
            }
        }
    }
    assert!(
        fma_wrong.is_empty(),
        "{} fused multiply-adds differ: {:?}",
        fma_wrong.len(),
        &fma_wrong[..fma_wrong.len().min(10)]
    );
    let mut wrong = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let a = x.abs();
        let want = [
            127.0 / a,
            a / 127.0,
            1.0 / a,
            (x * 1000.0).round_ties_even(),
            half::f16::from_f32(x).to_f32(),
        ];
        for (j, w) in want.iter().enumerate() {
            let g = got[5 * i + j];
            let normal = |v: f32| v.is_normal() || v == 0.0;
            // the divisions are exact for normal operands and quotients
            if j < 3 && !(normal(a) && normal(*w)) {
                continue;
            }
            if j == 3 && (x * 1000.0).abs() >= 8_388_608.0 {
                continue;
            }
            if g.to_bits() != w.to_bits() {
                wrong.push(format!("op {j} of {x:e}: {g:e} vs {w:e}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differ: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
}

/// Every kind's matrix product, on the CPU's paths for the shape (one
/// activation row, several, rows a multiple of 8 or 4 or not): the
/// 32-value kinds and the floats bit for bit the CPU's (the activations
/// quantize to the same blocks, `wasm_exact_roundings_are_the_cpus`, the
/// integer dots are exact and the float operations run in the CPU
/// kernel's order); the K-quants within 10⁻⁶ of `Σ|w|·|x|`.
#[wasm_bindgen_test]
async fn wasm_matmul_kernels_are_close_to_the_cpu_kernels() {
    for fma in fma_modes().await {
        matmul_kernels_are_close_to_the_cpu_kernels(&gpu_with(fma).await).await;
    }
}

async fn matmul_kernels_are_close_to_the_cpu_kernels(gpu: &Gpu) {
    console_log!("fma: {:?}", gpu.fma());
    for &kind in quant::KINDS {
        // rows of a few blocks and of many
        let ks: &[usize] = if shaders::step_values(kind) == 256 {
            &[512, 2560]
        } else {
            &[96, 576, 1003]
        };
        // one activation row (vec_dot), several (tinyBLAS for the floats
        // where the rows are a multiple of 4), rows a multiple of 8 (the
        // repacked Q4_0) or not
        let shapes = [(1, 40, 1), (6, 24, 2), (2, 36, 3), (3, 30, 4)];
        for (k, m, n, seed) in ks
            .iter()
            .filter(|&&k| k % kind.block_values() == 0)
            .flat_map(|&k| shapes.map(|(m, n, seed)| (k, m, n, seed)))
        {
            let (got, want, mag) = matmul_both(gpu, kind, (m, k, n), seed).await;
            let (e, i) = worst(&got, &want, &mag);
            console_log!(
                "matmul {} m={m} k={k} n={n}: largest error {e:.2e} of Σ|w·x| (output {i}: {} vs {})",
                kind.name(),
                got[i],
                want[i]
            );
            let exact = shaders::step_values(kind) == 32;
            let differ = got
                .iter()
                .zip(&want)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            assert!(
                !exact || differ == 0,
                "{} m={m} k={k} n={n}: {differ} of {} outputs are not the CPU's bits",
                kind.name(),
                got.len()
            );
            assert!(
                e <= 1e-6,
                "{} m={m}: output {i} is {} on the GPU, {} on the CPU ({e:.2e} of Σ|w·x| = {})",
                kind.name(),
                got[i],
                want[i],
                mag[i]
            );
        }
    }
}

/// RMS norm, rotary embedding and the gated activations bit for bit the
/// CPU's: the norm's f64 sum through float-float sums and its root and
/// inverse correctly rounded, RoPE's and ggml_v_expf's fused
/// multiply-adds, SwiGLU's division correctly rounded, GeGLU through
/// ggml's GELU table. (These feed the activations' quantization, where a
/// last-bit difference can move a value one step.)
#[wasm_bindgen_test]
async fn wasm_norm_rope_and_activations_are_close_to_the_cpu() {
    let gpu = gpu().await;
    let (n, w) = (5usize, 576usize);
    let x = activations(n * w, 7);
    let g = activations(w, 8);
    let p = params(&gpu, n, 3);
    // RMS norm
    let xb = gpu.floats("x", &x);
    let gb = gpu.floats("g", &g);
    let y = gpu.scratch("y", n * w);
    let c = gpu.uniform("norm", &[w as u32, 1, 1e-6f32.to_bits(), 0]);
    run_kernel(
        &gpu,
        shaders::Kernel::Norm,
        "main",
        &[&p, &c, &xb, &gb, &y],
        (n as u32, 1, 1),
    );
    let got = gpu.read(&y, (n * w * 4) as u64).await.unwrap();
    let want = inference::ops::rms_norm(&x, &g, 1e-6);
    let scale: Vec<f32> = want.iter().map(|v| v.abs().max(1e-3)).collect();
    let (e, _) = worst(&got, &want, &scale);
    let differ = got
        .iter()
        .zip(&want)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    console_log!(
        "rms_norm: largest relative error {e:.2e}, {differ} of {} values not bit-equal",
        got.len()
    );
    assert_eq!(
        differ, 0,
        "rms_norm: the CPU's bits (largest error {e:.2e})"
    );
    // RoPE, both layouts, at positions 3..8 of a table
    let (heads, hd) = (3usize, 32usize);
    let half = hd / 2;
    let len = 16;
    let cos: Vec<f32> = (0..len * half)
        .map(|i| ((i % 97) as f32 * 0.37).cos())
        .collect();
    let sin: Vec<f32> = (0..len * half)
        .map(|i| ((i % 97) as f32 * 0.37).sin())
        .collect();
    for neox in [false, true] {
        let q = activations(n * heads * hd, 9);
        let qb = gpu.floats("q", &q);
        let cb = gpu.floats("cos", &cos);
        let sb = gpu.floats("sin", &sin);
        let c = gpu.uniform(
            "rope",
            &[heads as u32, hd as u32, 0, neox as u32, 0.5f32.to_bits()],
        );
        let count = (n * heads * half) as u32;
        run_kernel(
            &gpu,
            shaders::Kernel::Rope,
            "main",
            &[&p, &c, &qb, &cb, &sb],
            (count.div_ceil(64), 1, 1),
        );
        let got = gpu.read(&qb, (q.len() * 4) as u64).await.unwrap();
        let mut want = q.clone();
        for t in 0..n {
            let at = (3 + t) * half;
            for h in want[t * heads * hd..(t + 1) * heads * hd].chunks_exact_mut(hd) {
                inference::ops::rope(h, &cos[at..at + half], &sin[at..at + half], neox);
                for v in h.iter_mut() {
                    *v *= 0.5;
                }
            }
        }
        let scale = vec![1.0; want.len()];
        let (e, _) = worst(&got, &want, &scale);
        console_log!("rope (neox: {neox}): largest error {e:.2e}");
        assert_eq!(bits_differ(&got, &want), 0, "rope neox={neox}: {e}");
    }
    // SwiGLU and GeGLU
    for entry in ["swiglu", "geglu"] {
        let a = activations(n * w, 11);
        let b = activations(n * w, 12);
        let (ab, bb) = (gpu.floats("a", &a), gpu.floats("b", &b));
        let out = gpu.scratch("out", n * w);
        let c = gpu.uniform("ew", &[w as u32, 0, 0]);
        let groups = ((n * w) as u32).div_ceil(64);
        let act = if entry == "geglu" {
            inference::plan::Activation::GeGlu
        } else {
            inference::plan::Activation::SwiGlu
        };
        let table = crate::model::gelu_table(&gpu, act);
        let mut buffers = vec![&p, &c, &ab, &bb, &out];
        if entry == "geglu" {
            buffers.push(&table);
        }
        run_kernel(
            &gpu,
            shaders::Kernel::Elementwise,
            entry,
            &buffers,
            (groups, 1, 1),
        );
        let got = gpu.read(&out, (n * w * 4) as u64).await.unwrap();
        let want: Vec<f32> = a
            .chunks_exact(w)
            .zip(b.chunks_exact(w))
            .flat_map(|(a, b)| {
                if entry == "swiglu" {
                    inference::ops::swiglu(a, b)
                } else {
                    inference::ops::geglu(a, b)
                }
            })
            .collect();
        let scale: Vec<f32> = b.iter().map(|v| v.abs().max(1e-3)).collect();
        let (e, _) = worst(&got, &want, &scale);
        console_log!("{entry}: largest error {e:.2e} of |up|");
        assert_eq!(bits_differ(&got, &want), 0, "{entry}: {e:.2e}");
        let tol = 1e-5;
        assert!(e <= tol, "{entry}: {e}");
    }
}

/// Attention over a KV cache filled in three steps (5 tokens, 3, then 1:
/// the batch and the one-token orders), with grouped KV heads, with and
/// without a sliding window: bit for bit the CPU's; with soft-capping
/// (tanhf, the C library's on the CPU) within 10⁻³ of the largest |v|.
#[wasm_bindgen_test]
async fn wasm_attention_is_close_to_the_cpu() {
    let gpu = gpu().await;
    let (nh, nkv, hd) = (4usize, 2usize, 64usize);
    for (window, softcap) in [
        (None, None),
        (Some(4usize), None),
        (Some(4usize), Some(20.0f32)),
    ] {
        let dims = inference::ops::AttnDims {
            n_head: nh,
            n_kv_head: nkv,
            head_dim: hd,
            kq_scale: 1.0 / (hd as f32).sqrt(),
            softcap,
            window,
        };
        let mut cache = inference::ops::KvCache::default();
        let n_ctx = 16;
        let kc = gpu.scratch("kc", n_ctx * nkv * hd);
        let vc = gpu.scratch("vc", n_ctx * nkv * hd);
        let mut pos = 0;
        for (step, n) in [5usize, 3, 1].into_iter().enumerate() {
            let q = activations(n * nh * hd, 20 + step as u32);
            let k = activations(n * nkv * hd, 30 + step as u32);
            let v = activations(n * nkv * hd, 40 + step as u32);
            let want = inference::ops::attend(&mut cache, &dims, pos, &q, &k, &v);
            let p = params(&gpu, n, pos);
            let (kb, vb, qb) = (
                gpu.floats("k", &k),
                gpu.floats("v", &v),
                gpu.floats("q", &q),
            );
            let c = gpu.uniform("kv", &[(nkv * hd) as u32]);
            let groups = ((n * nkv * hd) as u32).div_ceil(64);
            run_kernel(
                &gpu,
                shaders::Kernel::Kv,
                "main",
                &[&p, &c, &kb, &vb, &kc, &vc],
                (groups, 1, 1),
            );
            let out = gpu.scratch("o", n * nh * hd);
            let c = gpu.uniform(
                "att",
                &[
                    nh as u32,
                    nkv as u32,
                    hd as u32,
                    window.unwrap_or(0) as u32,
                    dims.kq_scale.to_bits(),
                    softcap.unwrap_or(0.0).to_bits(),
                ],
            );
            run_kernel(
                &gpu,
                shaders::Kernel::Attention,
                "main",
                &[&p, &c, &qb, &kc, &vc, &out],
                (nh as u32, n as u32, 1),
            );
            let got = gpu.read(&out, (n * nh * hd * 4) as u64).await.unwrap();
            let scale = vec![2.0; got.len()];
            let (e, i) = worst(&got, &want, &scale);
            console_log!("attention (window {window:?}, softcap {softcap:?}) step {step}: largest error {e:.2e} ({} vs {})", got[i], want[i]);
            // without soft-capping (whose tanhf is the C library's on the
            // CPU) bit for bit
            let differ = got
                .iter()
                .zip(&want)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            assert!(
                softcap.is_some() || differ == 0,
                "attention step {step}: {differ} of {} values are not the CPU's bits ({e:.2e})",
                got.len()
            );
            assert!(
                e <= 1e-3,
                "attention step {step}: output {i} {} vs {}",
                got[i],
                want[i]
            );
            pos += n;
        }
    }
}

/// Whole tiny models of every family the GPU path runs (llama, qwen3 with
/// q/k norms, gemma3 with sliding windows and post norms, gemma with more
/// query heads than width, gemma2 with soft-capping; Q8_0, F16 and F32
/// weights), with either fused multiply-add: the logits of a prompt and of
/// two more tokens are the CPU's bit for bit, but gemma2's, whose tanh
/// soft-cap is the GPU's `tanh` (within 10⁻⁶ of the largest |logit|; about
/// 2·10⁻⁷ seen). phi3's synthetic model, with heads of 16 values, is
/// refused (the CPU runs it).
#[wasm_bindgen_test]
async fn wasm_tiny_models_match_the_cpu_logits() {
    let models: [(&str, &[u8]); 5] = [
        (
            "tiny-llama",
            include_bytes!("../../../fuzz/seeds-model/tiny-llama.gguf"),
        ),
        (
            "tiny-qwen3",
            include_bytes!("../../../fuzz/seeds-model/tiny-qwen3.gguf"),
        ),
        (
            "tiny-gemma3",
            include_bytes!("../../../fuzz/seeds-model/tiny-gemma3.gguf"),
        ),
        (
            "gemma-synthetic",
            include_bytes!("../../inference/tests/golden/gemma-synthetic.gguf"),
        ),
        (
            "gemma2-synthetic",
            include_bytes!("../../inference/tests/golden/gemma2-synthetic.gguf"),
        ),
    ];
    let phi3 = include_bytes!("../../inference/tests/golden/phi3-synthetic.gguf");
    let refused =
        crate::Model::load(inference::Model::from_bytes(phi3).unwrap(), gpu().await, 64).await;
    match refused {
        Err((e, _)) => assert!(e.0.contains("multiples of 32"), "{e}"),
        Ok(_) => panic!("phi3-synthetic's 16-value heads loaded on the GPU"),
    }
    for fma in fma_modes().await {
        for &(name, bytes) in &models {
            tiny_model_matches_the_cpu_logits(name, bytes, gpu_with(fma).await).await;
        }
    }
}

async fn tiny_model_matches_the_cpu_logits(name: &str, bytes: &[u8], gpu: Gpu) {
    let fma = gpu.fma();
    let name = format!("{name} ({fma:?} fma)");
    {
        let mut cpu = inference::Model::from_bytes(bytes).unwrap();
        let n_vocab = cpu.forward(&[1]).unwrap().len() as u32;
        cpu.reset();
        let mut gpu = crate::Model::load(inference::Model::from_bytes(bytes).unwrap(), gpu, 64)
            .await
            .unwrap_or_else(|(e, _)| panic!("{name}: {e}"));
        let prompt: Vec<u32> = (0..7).map(|i| (i * 5 + 2) % n_vocab).collect();
        for (step, ids) in [prompt.clone(), vec![3 % n_vocab], vec![1]]
            .into_iter()
            .enumerate()
        {
            let want = cpu.forward(&ids).unwrap();
            let got = gpu
                .forward(&ids)
                .await
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(got.len(), want.len(), "{name}");
            let top = want.iter().fold(0f32, |a, v| a.max(v.abs())).max(1e-3);
            let scale = vec![top; want.len()];
            let (e, i) = worst(&got, &want, &scale);
            console_log!(
                "{name} step {step}: largest logit error {e:.2e} of the largest |logit| ({} vs {})",
                got[i],
                want[i]
            );
            if name.starts_with("gemma2") {
                assert!(
                    e <= 1e-6,
                    "{name} step {step}: logit {i} {} vs {}",
                    got[i],
                    want[i]
                );
            } else {
                assert_eq!(
                    bits_differ(&got, &want),
                    0,
                    "{name} step {step}: logit {i} {} vs {}",
                    got[i],
                    want[i]
                );
            }
        }
    }
}
