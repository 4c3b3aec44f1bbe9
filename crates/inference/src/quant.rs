//! Quantized matrix-vector kernels for the GGUF block types small models
//! ship in (`Q4_0`, `Q4_1`, `Q8_0`), plugged into candle as a
//! [`QuantizedType`] storage.
//!
//! candle 0.11 computes `Q4_1` with a scalar loop and picks its `Q8_0` SIMD
//! path at compile time only, so a SmolLM2 Q4_1 token cost about 50 ms on
//! one x86 core against llama.cpp's 13 ms. These kernels follow llama.cpp's
//! `ggml-cpu` arithmetic: the activations are quantized per 32-value block
//! to `Q8_0` / `Q8_1` (scale `127 / amax`, round half to even, scales stored
//! as f16, `Q8_1` keeping `d * Σq` as f16), integer dot products per block,
//! then `d_x * d_y * Σ` (+ `m_x * s_y` for `Q4_1`) accumulated in f32. AVX2
//! is chosen at run time on x86-64, `simd128` at compile time on wasm32,
//! and a scalar loop with the same arithmetic everywhere else.
//!
//! Each storage keeps the blocks in ggml's byte layout (`#[repr(C)]`, the
//! same as candle's own block structs), so candle code that reinterprets
//! `as_ptr` for these dtypes reads the right bytes.

use candle_core::quantized::{GgmlDType, QuantizedType};
use candle_core::{CpuStorage, Result};
use half::f16;

/// Values per block for all three types.
pub const QK: usize = 32;

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct BlockQ4_0 {
    pub d: u16,
    pub qs: [u8; 16],
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct BlockQ4_1 {
    pub d: u16,
    pub m: u16,
    pub qs: [u8; 16],
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct BlockQ8_0 {
    pub d: u16,
    pub qs: [i8; 32],
}

/// An activation block quantized for a dot product: `Q8_0`, plus `s = d·Σq`
/// (f16-rounded) for `Q8_1`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockQ8 {
    pub d: f32,
    pub s: f32,
    pub qs: [i8; 32],
}

impl Default for BlockQ8 {
    fn default() -> Self {
        BlockQ8 {
            d: 0.0,
            s: 0.0,
            qs: [0; 32],
        }
    }
}

fn h(bits: u16) -> f32 {
    f16::from_bits(bits).to_f32()
}

fn to_h(x: f32) -> u16 {
    f16::from_f32(x).to_bits()
}

/// Quantizes one row of activations the way ggml-cpu's x86 `quantize_row_q8_0`
/// / `quantize_row_q8_1` do. `xs.len()` is a multiple of [`QK`].
pub(crate) fn quantize_q8(xs: &[f32], out: &mut Vec<BlockQ8>) {
    out.clear();
    for chunk in xs.chunks_exact(QK) {
        let amax = chunk.iter().fold(0f32, |a, &x| a.max(x.abs()));
        let d = amax / 127.0;
        let id = if amax != 0.0 { 127.0 / amax } else { 0.0 };
        let mut b = BlockQ8 {
            d: h(to_h(d)),
            ..BlockQ8::default()
        };
        let mut sum = 0i32;
        for (q, &x) in b.qs.iter_mut().zip(chunk) {
            let v = round_even(x * id) as i32;
            *q = v as i8;
            sum += v;
        }
        b.s = h(to_h(sum as f32 * d));
        out.push(b);
    }
}

/// Round half to even for |x| ≤ 2^22 (here |x| ≤ 127): adding and
/// subtracting 1.5·2^23 leaves the nearest integer, as `roundps` does
/// (`round_ties_even` is a libm call without SSE4.1).
#[inline(always)]
fn round_even(x: f32) -> f32 {
    const MAGIC: f32 = 12_582_912.0;
    (x + MAGIC) - MAGIC
}

/// The weight types with a fast path here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// ggml `Q4_0`
    Q4_0,
    /// ggml `Q4_1`
    Q4_1,
    /// ggml `Q8_0`
    Q8_0,
}

impl Kind {
    /// The kind for a ggml dtype, if it has a fast path.
    pub fn of(dtype: GgmlDType) -> Option<Kind> {
        match dtype {
            GgmlDType::Q4_0 => Some(Kind::Q4_0),
            GgmlDType::Q4_1 => Some(Kind::Q4_1),
            GgmlDType::Q8_0 => Some(Kind::Q8_0),
            _ => None,
        }
    }

    fn block_bytes(self) -> usize {
        match self {
            Kind::Q4_0 => 18,
            Kind::Q4_1 => 20,
            Kind::Q8_0 => 34,
        }
    }
}

/// Blocks of one weight tensor.
#[derive(Clone, Debug)]
pub(crate) enum Blocks {
    Q4_0(Vec<BlockQ4_0>),
    Q4_1(Vec<BlockQ4_1>),
    Q8_0(Vec<BlockQ8_0>),
}

/// A weight tensor's blocks as a candle CPU quantized storage.
#[derive(Clone, Debug)]
pub struct FastStorage {
    blocks: Blocks,
}

fn le16(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[0], b[1]])
}

impl FastStorage {
    /// Parses ggml blocks from their file bytes (little-endian scales).
    /// `bytes.len()` must be a whole number of blocks.
    pub fn from_bytes(kind: Kind, bytes: &[u8]) -> std::result::Result<FastStorage, String> {
        let bb = kind.block_bytes();
        if !bytes.len().is_multiple_of(bb) {
            return Err(format!(
                "{kind:?} data of {} bytes is not a whole number of {bb}-byte blocks",
                bytes.len()
            ));
        }
        let chunks = bytes.chunks_exact(bb);
        let blocks = match kind {
            Kind::Q4_0 => Blocks::Q4_0(
                chunks
                    .map(|c| {
                        let mut b = BlockQ4_0 {
                            d: le16(c),
                            ..Default::default()
                        };
                        b.qs.copy_from_slice(&c[2..18]);
                        b
                    })
                    .collect(),
            ),
            Kind::Q4_1 => Blocks::Q4_1(
                chunks
                    .map(|c| {
                        let mut b = BlockQ4_1 {
                            d: le16(c),
                            m: le16(&c[2..]),
                            ..Default::default()
                        };
                        b.qs.copy_from_slice(&c[4..20]);
                        b
                    })
                    .collect(),
            ),
            Kind::Q8_0 => Blocks::Q8_0(
                chunks
                    .map(|c| {
                        let mut b = BlockQ8_0 {
                            d: le16(c),
                            ..Default::default()
                        };
                        for (q, &x) in b.qs.iter_mut().zip(&c[2..34]) {
                            *q = x as i8;
                        }
                        b
                    })
                    .collect(),
            ),
        };
        Ok(FastStorage { blocks })
    }

    /// The kind of blocks held.
    pub fn kind(&self) -> Kind {
        match self.blocks {
            Blocks::Q4_0(_) => Kind::Q4_0,
            Blocks::Q4_1(_) => Kind::Q4_1,
            Blocks::Q8_0(_) => Kind::Q8_0,
        }
    }

    fn n_blocks(&self) -> usize {
        match &self.blocks {
            Blocks::Q4_0(b) => b.len(),
            Blocks::Q4_1(b) => b.len(),
            Blocks::Q8_0(b) => b.len(),
        }
    }

    /// Dequantizes blocks `[first, first + count)` into `out`.
    pub fn dequantize_blocks(&self, first: usize, count: usize, out: &mut [f32]) {
        let out = &mut out[..count * QK];
        match &self.blocks {
            Blocks::Q4_0(b) => {
                for (blk, o) in b[first..first + count].iter().zip(out.chunks_exact_mut(QK)) {
                    let d = h(blk.d);
                    for j in 0..16 {
                        o[j] = ((blk.qs[j] & 0x0F) as i32 - 8) as f32 * d;
                        o[j + 16] = ((blk.qs[j] >> 4) as i32 - 8) as f32 * d;
                    }
                }
            }
            Blocks::Q4_1(b) => {
                for (blk, o) in b[first..first + count].iter().zip(out.chunks_exact_mut(QK)) {
                    let (d, m) = (h(blk.d), h(blk.m));
                    for j in 0..16 {
                        o[j] = (blk.qs[j] & 0x0F) as f32 * d + m;
                        o[j + 16] = (blk.qs[j] >> 4) as f32 * d + m;
                    }
                }
            }
            Blocks::Q8_0(b) => {
                for (blk, o) in b[first..first + count].iter().zip(out.chunks_exact_mut(QK)) {
                    let d = h(blk.d);
                    for (o, &q) in o.iter_mut().zip(&blk.qs) {
                        *o = q as f32 * d;
                    }
                }
            }
        }
    }

    /// `Σ_blocks` dot of weight row blocks `[first, first + ys.len())` with
    /// the quantized activations `ys`.
    fn dot(&self, first: usize, ys: &[BlockQ8]) -> f32 {
        let n = ys.len();
        match &self.blocks {
            Blocks::Q4_0(b) => kernels::dot_q4_0(&b[first..first + n], ys),
            Blocks::Q4_1(b) => kernels::dot_q4_1(&b[first..first + n], ys),
            Blocks::Q8_0(b) => kernels::dot_q8_0(&b[first..first + n], ys),
        }
    }

    /// `dst[i][j] = lhs[i] · row_j` for an `(m, k)` lhs against `n` weight
    /// rows of `k` values.
    pub fn matmul(&self, (m, k, n): (usize, usize, usize), lhs: &[f32], dst: &mut [f32]) {
        let kb = k / QK;
        let mut ys = Vec::with_capacity(kb * m);
        let mut row = Vec::with_capacity(kb);
        for i in 0..m {
            quantize_q8(&lhs[i * k..(i + 1) * k], &mut row);
            ys.extend_from_slice(&row);
        }
        // Weight rows outermost in tiles so that each tile stays in cache
        // while every activation row passes over it.
        const TILE: usize = 16;
        let work = |j0: usize, out: &mut [f32]| {
            let rows = out.len() / m;
            let mut i = 0;
            // four activation rows at a time share each weight block's
            // unpacking (each row's arithmetic is unchanged)
            if let Blocks::Q4_1(b) = &self.blocks {
                while i + 4 <= m {
                    let y: [&[BlockQ8]; 4] =
                        std::array::from_fn(|r| &ys[(i + r) * kb..(i + r + 1) * kb]);
                    for r in 0..rows {
                        let first = (j0 + r) * kb;
                        let d = kernels::dot4_q4_1(&b[first..first + kb], y);
                        out[r * m + i..r * m + i + 4].copy_from_slice(&d);
                    }
                    i += 4;
                }
            }
            for i in i..m {
                let y = &ys[i * kb..(i + 1) * kb];
                for r in 0..rows {
                    out[r * m + i] = self.dot((j0 + r) * kb, y);
                }
            }
        };
        let mut tmp = vec![0f32; n * m];
        par_tiles(&mut tmp, TILE * m, |t, out| work(t * TILE, out));
        for j in 0..n {
            for i in 0..m {
                dst[i * n + j] = tmp[j * m + i];
            }
        }
    }
}

/// Runs `f(tile_index, tile)` over `chunk`-sized tiles of `out`: on a rayon
/// pool of [`crate::threads`] threads natively when there is more than one,
/// otherwise in order on the calling thread (always so on wasm32).
fn par_tiles(out: &mut [f32], chunk: usize, f: impl Fn(usize, &mut [f32]) + Sync + Send) {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(pool) = crate::threads::pool() {
        use rayon::prelude::*;
        pool.install(|| {
            out.par_chunks_mut(chunk)
                .enumerate()
                .for_each(|(t, o)| f(t, o))
        });
        return;
    }
    for (t, o) in out.chunks_mut(chunk).enumerate() {
        f(t, o);
    }
}

fn quantize_row_q4_1(xs: &[f32]) -> Vec<BlockQ4_1> {
    xs.chunks_exact(QK)
        .map(|c| {
            let min = c.iter().copied().fold(f32::INFINITY, f32::min);
            let max = c.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let d = (max - min) / 15.0;
            let id = if d != 0.0 { 1.0 / d } else { 0.0 };
            let mut b = BlockQ4_1 {
                d: to_h(d),
                m: to_h(min),
                ..Default::default()
            };
            for j in 0..16 {
                let q0 = (((c[j] - min) * id + 0.5) as u8).min(15);
                let q1 = (((c[j + 16] - min) * id + 0.5) as u8).min(15);
                b.qs[j] = q0 | (q1 << 4);
            }
            b
        })
        .collect()
}

fn quantize_row_q4_0(xs: &[f32]) -> Vec<BlockQ4_0> {
    xs.chunks_exact(QK)
        .map(|c| {
            let mut amax = 0f32;
            let mut max = 0f32;
            for &x in c {
                if x.abs() > amax {
                    amax = x.abs();
                    max = x;
                }
            }
            let d = max / -8.0;
            let id = if d != 0.0 { 1.0 / d } else { 0.0 };
            let mut b = BlockQ4_0 {
                d: to_h(d),
                ..Default::default()
            };
            for j in 0..16 {
                let q0 = ((c[j] * id + 8.5) as u8).min(15);
                let q1 = ((c[j + 16] * id + 8.5) as u8).min(15);
                b.qs[j] = q0 | (q1 << 4);
            }
            b
        })
        .collect()
}

impl QuantizedType for FastStorage {
    fn dtype(&self) -> GgmlDType {
        match self.kind() {
            Kind::Q4_0 => GgmlDType::Q4_0,
            Kind::Q4_1 => GgmlDType::Q4_1,
            Kind::Q8_0 => GgmlDType::Q8_0,
        }
    }

    fn matmul_t(&self, mkn: (usize, usize, usize), lhs: &[f32], dst: &mut [f32]) -> Result<()> {
        let (m, k, n) = mkn;
        if !k.is_multiple_of(QK)
            || self.n_blocks() != n * (k / QK)
            || lhs.len() < m * k
            || dst.len() < m * n
        {
            candle_core::bail!(
                "{:?} matmul: weights of {} blocks do not fit (m, k, n) = {mkn:?}",
                self.kind(),
                self.n_blocks()
            );
        }
        self.matmul(mkn, lhs, dst);
        Ok(())
    }

    fn matmul_t_f16(&self, mkn: (usize, usize, usize), lhs: &[f16], dst: &mut [f16]) -> Result<()> {
        let lhs: Vec<f32> = lhs.iter().map(|x| x.to_f32()).collect();
        let mut out = vec![0f32; dst.len()];
        self.matmul_t(mkn, &lhs, &mut out)?;
        for (d, o) in dst.iter_mut().zip(out) {
            *d = f16::from_f32(o);
        }
        Ok(())
    }

    fn embedding(&self, ids: &[u32], rows: usize, hidden: usize) -> Result<CpuStorage> {
        if !hidden.is_multiple_of(QK) {
            candle_core::bail!("embedding width {hidden} is not a multiple of {QK}");
        }
        let kb = hidden / QK;
        let mut out = vec![0f32; ids.len() * hidden];
        for (o, &id) in out.chunks_exact_mut(hidden).zip(ids) {
            let id = id as usize;
            if id >= rows {
                candle_core::bail!("token id {id} is outside the embedding table of {rows} rows");
            }
            self.dequantize_blocks(id * kb, kb, o);
        }
        Ok(CpuStorage::F32(out))
    }

    fn dequantize(&self, elem_count: usize) -> Result<CpuStorage> {
        let nb = self.n_blocks();
        if elem_count != nb * QK {
            candle_core::bail!("dequantize: {elem_count} values asked of {nb} blocks");
        }
        let mut out = vec![0f32; elem_count];
        self.dequantize_blocks(0, nb, &mut out);
        Ok(CpuStorage::F32(out))
    }

    fn storage_size_in_bytes(&self) -> usize {
        self.n_blocks() * self.kind().block_bytes()
    }

    fn as_ptr(&self) -> *const u8 {
        match &self.blocks {
            Blocks::Q4_0(b) => b.as_ptr() as *const u8,
            Blocks::Q4_1(b) => b.as_ptr() as *const u8,
            Blocks::Q8_0(b) => b.as_ptr() as *const u8,
        }
    }

    fn block_size(&self) -> usize {
        QK
    }

    fn from_float(&mut self, xs: &[f32]) {
        self.blocks = match self.kind() {
            Kind::Q4_0 => Blocks::Q4_0(quantize_row_q4_0(xs)),
            Kind::Q4_1 => Blocks::Q4_1(quantize_row_q4_1(xs)),
            Kind::Q8_0 => {
                let mut q = Vec::new();
                quantize_q8(xs, &mut q);
                Blocks::Q8_0(
                    q.iter()
                        .map(|b| BlockQ8_0 {
                            d: to_h(b.d),
                            qs: b.qs,
                        })
                        .collect(),
                )
            }
        };
    }

    fn from_float_imatrix(&mut self, xs: &[f32], _imatrix_weights: &[f32], _n_per_row: usize) {
        self.from_float(xs)
    }

    fn size(&self) -> usize {
        self.storage_size_in_bytes()
    }
}

/// The per-block dot products, with a scalar reference that fixes the
/// arithmetic and SIMD versions that must agree with it.
pub(crate) mod kernels {
    use super::{h, BlockQ4_0, BlockQ4_1, BlockQ8, BlockQ8_0};
    use crate::attention::hsum8;

    /// The eight i32 lanes of one block as AVX2's `maddubs` + `madd`
    /// leave them: lane `j` sums the products of bytes `4j..4j+4` of
    /// `[x_0..x_32]·[y_0..y_32]` (exact, so any order gives them).
    fn lanes(x: impl Fn(usize) -> i32, y: &[i8; 32]) -> [f32; 8] {
        std::array::from_fn(|j| (4 * j..4 * j + 4).map(|b| x(b) * y[b] as i32).sum::<i32>() as f32)
    }

    /// `acc[j] = fma(d, lanes[j], acc[j])`, the AVX2 build's accumulation.
    fn accumulate(acc: &mut [f32; 8], d: f32, lanes: &[f32; 8]) {
        for (a, &l) in acc.iter_mut().zip(lanes) {
            *a = d.mul_add(l, *a);
        }
    }

    /// Scalar `Q4_1 · Q8_1` in the AVX2 build's order.
    pub fn dot_q4_1_scalar(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
        let mut acc = [0f32; 8];
        let mut summs = 0f32;
        for (x, y) in xs.iter().zip(ys) {
            summs += h(x.m) * y.s;
            let q = |b: usize| {
                if b < 16 {
                    (x.qs[b] & 0x0F) as i32
                } else {
                    (x.qs[b - 16] >> 4) as i32
                }
            };
            accumulate(&mut acc, h(x.d) * y.d, &lanes(q, &y.qs));
        }
        hsum8(&acc) + summs
    }

    /// Scalar `Q4_0 · Q8_0` in the AVX2 build's order.
    pub fn dot_q4_0_scalar(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = [0f32; 8];
        for (x, y) in xs.iter().zip(ys) {
            let q = |b: usize| {
                if b < 16 {
                    (x.qs[b] & 0x0F) as i32 - 8
                } else {
                    (x.qs[b - 16] >> 4) as i32 - 8
                }
            };
            accumulate(&mut acc, h(x.d) * y.d, &lanes(q, &y.qs));
        }
        hsum8(&acc)
    }

    /// Scalar `Q8_0 · Q8_0` in the AVX2 build's order.
    pub fn dot_q8_0_scalar(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        let mut acc = [0f32; 8];
        for (x, y) in xs.iter().zip(ys) {
            accumulate(&mut acc, h(x.d) * y.d, &lanes(|b| x.qs[b] as i32, &y.qs));
        }
        hsum8(&acc)
    }

    pub fn dot_q4_1(xs: &[BlockQ4_1], ys: &[BlockQ8]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot_q4_1(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::simd::wasm::dot_q4_1(xs, ys);
        #[allow(unreachable_code)]
        dot_q4_1_scalar(xs, ys)
    }

    /// `Q4_1 · Q8_1` of one weight row against four activation rows.
    pub fn dot4_q4_1(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot4_q4_1(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::simd::wasm::dot4_q4_1(xs, ys);
        #[allow(unreachable_code)]
        ys.map(|y| dot_q4_1(xs, y))
    }

    pub fn dot_q4_0(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot_q4_0(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::simd::wasm::dot_q4_0(xs, ys);
        #[allow(unreachable_code)]
        dot_q4_0_scalar(xs, ys)
    }

    pub fn dot_q8_0(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot_q8_0(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::simd::wasm::dot_q8_0(xs, ys);
        #[allow(unreachable_code)]
        dot_q8_0_scalar(xs, ys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::quantized::{QStorage, QTensor};
    use candle_core::Device;

    /// Deterministic bytes of `n` blocks of `kind` with sane f16 scales.
    fn blocks(kind: Kind, n: usize, seed: u32) -> Vec<u8> {
        let mut x = seed;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut out = Vec::new();
        for _ in 0..n {
            let scale = to_h(0.001 + (next() % 1000) as f32 / 50_000.0).to_le_bytes();
            let min = to_h(-((next() % 1000) as f32) / 20_000.0).to_le_bytes();
            match kind {
                Kind::Q4_0 => out.extend_from_slice(&scale),
                Kind::Q4_1 => {
                    out.extend_from_slice(&scale);
                    out.extend_from_slice(&min);
                }
                Kind::Q8_0 => out.extend_from_slice(&scale),
            }
            let qs = if kind == Kind::Q8_0 { 32 } else { 16 };
            out.extend((0..qs).map(|_| next() as u8));
        }
        out
    }

    fn activations(n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| ((i * 7919) % 257) as f32 / 64.0 - 2.0)
            .collect()
    }

    #[test]
    fn dequantization_equals_candles() {
        for (kind, dtype) in [
            (Kind::Q4_0, GgmlDType::Q4_0),
            (Kind::Q4_1, GgmlDType::Q4_1),
            (Kind::Q8_0, GgmlDType::Q8_0),
        ] {
            let bytes = blocks(kind, 24, 7);
            let ours = FastStorage::from_bytes(kind, &bytes).unwrap();
            let mut got = vec![0f32; 24 * QK];
            ours.dequantize_blocks(0, 24, &mut got);
            let theirs =
                QStorage::from_data(std::borrow::Cow::Borrowed(&bytes), &Device::Cpu, dtype)
                    .unwrap();
            let want: Vec<f32> = QTensor::new(theirs, (24 * QK,))
                .unwrap()
                .dequantize(&Device::Cpu)
                .unwrap()
                .to_vec1()
                .unwrap();
            assert_eq!(got, want, "{kind:?}");
        }
    }

    #[test]
    fn simd_dots_agree_with_the_scalar_arithmetic() {
        check_simd_dots();
    }

    /// The same in wasm: the simd128 kernels (exact FMA through f64) equal
    /// the scalar AVX2-order ones bit for bit.
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_simd_dots_agree_with_the_scalar_arithmetic() {
        check_simd_dots();
    }

    /// The four-row kernel equals four single dots, bit for bit.
    #[cfg(target_arch = "wasm32")]
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn wasm_dot4_equals_four_dots() {
        check_dot4();
    }

    #[test]
    fn dot4_equals_four_dots() {
        check_dot4();
    }

    fn check_dot4() {
        let k = 32 * QK;
        let rows: Vec<Vec<BlockQ8>> = (0..4)
            .map(|r| {
                let mut ys = Vec::new();
                let a: Vec<f32> = activations(k + r).into_iter().skip(r).collect();
                quantize_q8(&a, &mut ys);
                ys
            })
            .collect();
        let s = FastStorage::from_bytes(Kind::Q4_1, &blocks(Kind::Q4_1, 32, 5)).unwrap();
        let Blocks::Q4_1(b) = &s.blocks else {
            unreachable!()
        };
        let four = kernels::dot4_q4_1(b, [&rows[0], &rows[1], &rows[2], &rows[3]]);
        for r in 0..4 {
            assert_eq!(four[r].to_bits(), kernels::dot_q4_1(b, &rows[r]).to_bits());
            assert_eq!(
                four[r].to_bits(),
                kernels::dot_q4_1_scalar(b, &rows[r]).to_bits()
            );
        }
    }

    fn check_simd_dots() {
        let k = 64 * QK;
        let mut ys = Vec::new();
        quantize_q8(&activations(k), &mut ys);
        for (kind, seed) in [Kind::Q4_0, Kind::Q4_1, Kind::Q8_0]
            .into_iter()
            .flat_map(|k| (1..=16).map(move |s| (k, s)))
        {
            let s = FastStorage::from_bytes(kind, &blocks(kind, 64, seed)).unwrap();
            let fast = s.dot(0, &ys);
            let slow = match &s.blocks {
                Blocks::Q4_0(b) => kernels::dot_q4_0_scalar(b, &ys),
                Blocks::Q4_1(b) => kernels::dot_q4_1_scalar(b, &ys),
                Blocks::Q8_0(b) => kernels::dot_q8_0_scalar(b, &ys),
            };
            // the same arithmetic in the same order: bit for bit
            assert_eq!(fast.to_bits(), slow.to_bits(), "{kind:?}: {fast} vs {slow}");
        }
    }

    #[test]
    fn matmul_handles_several_rows_and_bad_shapes() {
        // six rows: four through the shared-unpacking kernel, two alone
        let (m, k, n) = (6, 2 * QK, 5);
        let s = FastStorage::from_bytes(Kind::Q4_1, &blocks(Kind::Q4_1, n * 2, 3)).unwrap();
        let lhs = activations(m * k);
        let mut dst = vec![0f32; m * n];
        s.matmul_t((m, k, n), &lhs, &mut dst).unwrap();
        for i in 0..m {
            let mut ys = Vec::new();
            quantize_q8(&lhs[i * k..(i + 1) * k], &mut ys);
            for j in 0..n {
                assert_eq!(dst[i * n + j], s.dot(j * 2, &ys));
            }
        }
        assert!(s
            .matmul_t((m, k, n + 1), &lhs, &mut vec![0f32; m * (n + 1)])
            .is_err());
        assert!(FastStorage::from_bytes(Kind::Q4_1, &[0u8; 21]).is_err());
    }
}
