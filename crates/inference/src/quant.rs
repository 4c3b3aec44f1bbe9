//! Quantized matrix-vector kernels for the GGUF block types small models
//! ship in (`Q4_0`, `Q4_1`, `Q8_0` here; `Q5_0`, `Q5_1`, `Q4_K`, `Q5_K`,
//! `Q6_K`, `F16`, `BF16`, `F32` in [`crate::kquant`], whose docs say which
//! of llama.cpp's code paths each type and batch size takes), reading the
//! weights in place from the file's bytes. `Q4_0` weights with a multiple
//! of 8 rows are repacked by llama.cpp (CPU_REPACK, `q4_0_8x8`), which
//! accumulates each output in one f32 lane: [`matmul`] follows that.
//!
//! These kernels follow llama.cpp's
//! `ggml-cpu` arithmetic: the activations are quantized per 32-value block
//! to `Q8_0` / `Q8_1` (scale `127 / amax`, round half to even, scales stored
//! as f16, `Q8_1` keeping `d * Σq` as f16), integer dot products per block,
//! then `d_x * d_y * Σ` (+ `m_x * s_y` for `Q4_1`) accumulated in f32. AVX2
//! is chosen at run time on x86-64, `simd128` at compile time on wasm32,
//! and a scalar loop with the same arithmetic everywhere else.
//!
//! The block structs have ggml's byte layout (`#[repr(C)]`), so a tensor's
//! bytes are used as blocks where they lie, without a copy.

use crate::kquant::{self, BlockQ4K, BlockQ5K, BlockQ5_0, BlockQ5_1, BlockQ6K, QK_K};
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
    #[cfg(target_arch = "x86_64")]
    if crate::simd::x86::quantize_q8(xs, out) {
        return;
    }
    quantize_q8_scalar(xs, out)
}

/// [`quantize_q8`] without SIMD.
pub(crate) fn quantize_q8_scalar(xs: &[f32], out: &mut Vec<BlockQ8>) {
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

/// The weight types this crate multiplies with, in ggml's block layouts.
#[allow(non_camel_case_types)] // ggml's names: Q4_K, Q5_K, Q6_K
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// ggml `Q4_0`
    Q4_0,
    /// ggml `Q4_1`
    Q4_1,
    /// ggml `Q8_0`
    Q8_0,
    /// ggml `F32`
    F32,
    /// ggml `F16`
    F16,
    /// ggml `Q5_0`
    Q5_0,
    /// ggml `Q5_1`
    Q5_1,
    /// ggml `Q4_K`
    Q4_K,
    /// ggml `Q5_K`
    Q5_K,
    /// ggml `Q6_K`
    Q6_K,
    /// ggml `BF16`
    BF16,
}

/// Every kind, in ggml type id order.
pub const KINDS: &[Kind] = &[
    Kind::F32,
    Kind::F16,
    Kind::Q4_0,
    Kind::Q4_1,
    Kind::Q5_0,
    Kind::Q5_1,
    Kind::Q8_0,
    Kind::Q4_K,
    Kind::Q5_K,
    Kind::Q6_K,
    Kind::BF16,
];

impl Kind {
    /// The kind for a ggml type id (`ggml_type`), if this crate runs it.
    pub fn from_ggml(id: u32) -> Option<Kind> {
        match id {
            0 => Some(Kind::F32),
            1 => Some(Kind::F16),
            2 => Some(Kind::Q4_0),
            3 => Some(Kind::Q4_1),
            6 => Some(Kind::Q5_0),
            7 => Some(Kind::Q5_1),
            8 => Some(Kind::Q8_0),
            12 => Some(Kind::Q4_K),
            13 => Some(Kind::Q5_K),
            14 => Some(Kind::Q6_K),
            30 => Some(Kind::BF16),
            _ => None,
        }
    }

    /// ggml's name of the type.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Q4_0 => "Q4_0",
            Kind::Q4_1 => "Q4_1",
            Kind::Q8_0 => "Q8_0",
            Kind::F32 => "F32",
            Kind::F16 => "F16",
            Kind::Q5_0 => "Q5_0",
            Kind::Q5_1 => "Q5_1",
            Kind::Q4_K => "Q4_K",
            Kind::Q5_K => "Q5_K",
            Kind::Q6_K => "Q6_K",
            Kind::BF16 => "BF16",
        }
    }

    /// Values per block.
    pub fn block_values(self) -> usize {
        match self {
            Kind::F32 | Kind::F16 | Kind::BF16 => 1,
            Kind::Q4_K | Kind::Q5_K | Kind::Q6_K => QK_K,
            _ => QK,
        }
    }

    /// Bytes per block.
    pub fn block_bytes(self) -> usize {
        match self {
            Kind::Q4_0 => 18,
            Kind::Q4_1 => 20,
            Kind::Q8_0 => 34,
            Kind::F32 => 4,
            Kind::F16 | Kind::BF16 => 2,
            Kind::Q5_0 => 22,
            Kind::Q5_1 => 24,
            Kind::Q4_K => 144,
            Kind::Q5_K => 176,
            Kind::Q6_K => 210,
        }
    }

    /// The alignment the block structs need of a byte slice.
    pub fn align(self) -> usize {
        match self {
            Kind::F32 => 4,
            _ => 2,
        }
    }
}

/// Blocks of one weight tensor, borrowed from the file's bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Blocks<'a> {
    Q4_0(&'a [BlockQ4_0]),
    Q4_1(&'a [BlockQ4_1]),
    Q8_0(&'a [BlockQ8_0]),
    F32(&'a [f32]),
    F16(&'a [u16]),
    BF16(&'a [u16]),
    Q5_0(&'a [BlockQ5_0]),
    Q5_1(&'a [BlockQ5_1]),
    Q4K(&'a [BlockQ4K]),
    Q5K(&'a [BlockQ5K]),
    Q6K(&'a [BlockQ6K]),
}

/// Reinterprets `bytes` as blocks of `T` in place (for the tests).
#[cfg(test)]
pub(crate) fn cast_blocks<T: Copy>(bytes: &[u8]) -> std::result::Result<&[T], String> {
    cast(bytes)
}

/// Reinterprets `bytes` as blocks of `T` in place.
fn cast<T: Copy>(bytes: &[u8]) -> std::result::Result<&[T], String> {
    let size = std::mem::size_of::<T>();
    if !bytes.len().is_multiple_of(size) {
        return Err(format!(
            "{} bytes are not a whole number of {size}-byte blocks",
            bytes.len()
        ));
    }
    if !(bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>()) {
        return Err(format!(
            "block data is not aligned to {} bytes",
            std::mem::align_of::<T>()
        ));
    }
    // SAFETY: the block structs are `#[repr(C)]` of integers and integer
    // arrays (every bit pattern is a value, no padding: their sizes equal
    // ggml's block sizes, checked in the tests), the length is a whole
    // number of blocks and the pointer is aligned for `T` (both checked
    // above); the slice borrows `bytes`, which outlives it.
    Ok(unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const T, bytes.len() / size) })
}

impl<'a> Blocks<'a> {
    /// The blocks of `kind` in `bytes` (little-endian scales, as in GGUF),
    /// without copying. `bytes` must be a whole number of blocks, aligned
    /// to [`Kind::align`].
    pub fn new(kind: Kind, bytes: &'a [u8]) -> std::result::Result<Blocks<'a>, String> {
        let bb = kind.block_bytes();
        if !bytes.len().is_multiple_of(bb) {
            return Err(format!(
                "{} data of {} bytes is not a whole number of {bb}-byte blocks",
                kind.name(),
                bytes.len()
            ));
        }
        Ok(match kind {
            Kind::Q4_0 => Blocks::Q4_0(cast(bytes)?),
            Kind::Q4_1 => Blocks::Q4_1(cast(bytes)?),
            Kind::Q8_0 => Blocks::Q8_0(cast(bytes)?),
            Kind::F32 => Blocks::F32(cast(bytes)?),
            Kind::F16 => Blocks::F16(cast(bytes)?),
            Kind::BF16 => Blocks::BF16(cast(bytes)?),
            Kind::Q5_0 => Blocks::Q5_0(cast(bytes)?),
            Kind::Q5_1 => Blocks::Q5_1(cast(bytes)?),
            Kind::Q4_K => Blocks::Q4K(cast(bytes)?),
            Kind::Q5_K => Blocks::Q5K(cast(bytes)?),
            Kind::Q6_K => Blocks::Q6K(cast(bytes)?),
        })
    }

    fn n_blocks(&self) -> usize {
        match self {
            Blocks::Q4_0(b) => b.len(),
            Blocks::Q4_1(b) => b.len(),
            Blocks::Q8_0(b) => b.len(),
            Blocks::F32(b) => b.len(),
            Blocks::F16(b) | Blocks::BF16(b) => b.len(),
            Blocks::Q5_0(b) => b.len(),
            Blocks::Q5_1(b) => b.len(),
            Blocks::Q4K(b) => b.len(),
            Blocks::Q5K(b) => b.len(),
            Blocks::Q6K(b) => b.len(),
        }
    }

    /// Values per block.
    fn block_values(&self) -> usize {
        match self {
            Blocks::F32(_) | Blocks::F16(_) | Blocks::BF16(_) => 1,
            Blocks::Q4K(_) | Blocks::Q5K(_) | Blocks::Q6K(_) => QK_K,
            _ => QK,
        }
    }

    /// Dequantizes blocks `[first, first + count)` into `out`.
    pub fn dequantize(&self, first: usize, count: usize, out: &mut [f32]) {
        let out = &mut out[..count * self.block_values()];
        let r = first..first + count;
        match self {
            Blocks::F32(b) => out.copy_from_slice(&b[r]),
            Blocks::F16(b) => {
                for (o, &x) in out.iter_mut().zip(&b[r]) {
                    *o = h(x);
                }
            }
            Blocks::BF16(b) => {
                for (o, &x) in out.iter_mut().zip(&b[r]) {
                    *o = kquant::bf(x);
                }
            }
            Blocks::Q5_0(b) => kquant::dequant::q5_0(&b[r], out),
            Blocks::Q5_1(b) => kquant::dequant::q5_1(&b[r], out),
            Blocks::Q4K(b) => kquant::dequant::q4_k(&b[r], out),
            Blocks::Q5K(b) => kquant::dequant::q5_k(&b[r], out),
            Blocks::Q6K(b) => kquant::dequant::q6_k(&b[r], out),
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
        match self {
            Blocks::Q4_0(b) => kernels::dot_q4_0(&b[first..first + n], ys),
            Blocks::Q4_1(b) => kernels::dot_q4_1(&b[first..first + n], ys),
            Blocks::Q8_0(b) => kernels::dot_q8_0(&b[first..first + n], ys),
            Blocks::Q5_0(b) => kquant::dot_q5_0(&b[first..first + n], ys),
            Blocks::Q5_1(b) => kquant::dot_q5_1(&b[first..first + n], ys),
            _ => unreachable!("dot of a kind without Q8_0 / Q8_1 activations"),
        }
    }

    /// Four [`Blocks::dot`]s of weight row blocks `[first, first + kb)`, one
    /// per activation row, bit for bit as four calls give them.
    fn dot4(&self, first: usize, y: [&[BlockQ8]; 4]) -> [f32; 4] {
        let kb = y[0].len();
        match self {
            Blocks::Q4_1(b) => kernels::dot4_q4_1(&b[first..first + kb], y),
            Blocks::Q8_0(b) => kernels::dot4_q8_0(&b[first..first + kb], y),
            Blocks::Q5_0(b) => kquant::dot4_q5_0(&b[first..first + kb], y),
            _ => y.map(|y| self.dot(first, y)),
        }
    }

    /// `dst[i][j] = lhs[i] · row_j` for an `(m, k)` lhs against `n` weight
    /// rows of `k` values.
    fn matmul(&self, (m, k, n): (usize, usize, usize), lhs: &[f32], dst: &mut [f32]) {
        match self {
            Blocks::Q4_0(b) if n.is_multiple_of(8) => {
                // CPU_REPACK's q4_0_8x8 (see crate::kquant)
                let kb = k / QK;
                let ys = quantize_rows(lhs, m, k);
                return tiled(m, n, dst, |j, i| {
                    kquant::dot_q4_0_repacked(&b[j * kb..(j + 1) * kb], &ys[i * kb..(i + 1) * kb])
                });
            }
            Blocks::Q4_0(_)
            | Blocks::Q4_1(_)
            | Blocks::Q8_0(_)
            | Blocks::Q5_0(_)
            | Blocks::Q5_1(_) => {}
            _ => return kquant::matmul(self, (m, k, n), lhs, dst),
        }
        let kb = k / QK;
        let ys = quantize_rows(lhs, m, k);
        let y = |i: usize| &ys[i * kb..(i + 1) * kb];
        // four activation rows at a time share each weight block's
        // unpacking where a kind has such a kernel (each row's arithmetic
        // is unchanged)
        tiled4(
            m,
            n,
            dst,
            |j, i| self.dot(j * kb, y(i)),
            |j, i| self.dot4(j * kb, std::array::from_fn(|r| y(i + r))),
        )
    }
}

/// The `Q8_0` / `Q8_1` blocks of `m` rows of `k` values, one row after the
/// other.
fn quantize_rows(lhs: &[f32], m: usize, k: usize) -> Vec<BlockQ8> {
    let mut ys = Vec::with_capacity(m * k / QK);
    let mut row = Vec::with_capacity(k / QK);
    for i in 0..m {
        quantize_q8(&lhs[i * k..(i + 1) * k], &mut row);
        ys.extend_from_slice(&row);
    }
    ys
}

/// `dst[i * n + j] = dot(j, i)` for `n` weight rows `j` and `m` activation
/// rows `i`, the weight rows split in tiles (across threads natively).
pub(crate) fn tiled(
    m: usize,
    n: usize,
    dst: &mut [f32],
    dot: impl Fn(usize, usize) -> f32 + Sync + Send,
) {
    tiled4(m, n, dst, &dot, |j, i| {
        std::array::from_fn(|r| dot(j, i + r))
    })
}

/// [`tiled`] with a kernel for four activation rows at once: `dot4(j, i)`
/// gives `dot(j, i + r)` for `r < 4`, bit for bit, and takes every whole
/// group of four rows (rows `i ≡ 0 mod 4`, `i + 4 ≤ m`); `dot` the rest.
pub(crate) fn tiled4(
    m: usize,
    n: usize,
    dst: &mut [f32],
    dot: impl Fn(usize, usize) -> f32 + Sync + Send,
    dot4: impl Fn(usize, usize) -> [f32; 4] + Sync + Send,
) {
    // Weight rows outermost in tiles so that each tile stays in cache
    // while every activation row passes over it. A tile's outputs are
    // `[activation row][weight row]`, so that each activation row's part
    // goes to `dst` as one run.
    const TILE: usize = 16;
    if m == 0 || n == 0 {
        // an empty product (a damaged file's zero-sized dimension)
        return;
    }
    let grouped = m - m % 4;
    let mut tmp = vec![0f32; n * m];
    par_tiles(&mut tmp, TILE * m, |t, out| {
        let rows = out.len() / m;
        for i in (0..grouped).step_by(4) {
            for r in 0..rows {
                let d = dot4(t * TILE + r, i);
                for (k, d) in d.into_iter().enumerate() {
                    out[(i + k) * rows + r] = d;
                }
            }
        }
        for i in grouped..m {
            for r in 0..rows {
                out[i * rows + r] = dot(t * TILE + r, i);
            }
        }
    });
    for (t, tile) in tmp.chunks(TILE * m).enumerate() {
        let rows = tile.len() / m;
        for (i, run) in tile.chunks_exact(rows).enumerate() {
            dst[i * n + t * TILE..i * n + t * TILE + rows].copy_from_slice(run);
        }
    }
}

/// Dequantizes the whole blocks of `kind` in `bytes` into `out`.
pub fn dequantize(kind: Kind, bytes: &[u8], out: &mut [f32]) -> std::result::Result<(), String> {
    let b = Blocks::new(kind, bytes)?;
    let nb = b.n_blocks();
    if out.len() < nb * kind.block_values() {
        return Err(format!(
            "{nb} {} blocks need {} values, the output holds {}",
            kind.name(),
            nb * kind.block_values(),
            out.len()
        ));
    }
    b.dequantize(0, nb, out);
    Ok(())
}

/// `dst[i][j] = lhs[i] · w_j` for an `(m, k)` row-major `lhs` and `n`
/// weight rows of `k` values each, held as blocks of `kind` in `w` (a whole
/// tensor as it lies in the file), computed as llama.cpp's CPU backend does
/// for its `MUL_MAT`.
pub fn matmul(
    kind: Kind,
    w: &[u8],
    mkn: (usize, usize, usize),
    lhs: &[f32],
    dst: &mut [f32],
) -> std::result::Result<(), String> {
    let (m, k, n) = mkn;
    let b = Blocks::new(kind, w)?;
    let bv = kind.block_values();
    if !k.is_multiple_of(bv)
        || b.n_blocks() != n * (k / bv)
        || lhs.len() < m * k
        || dst.len() < m * n
    {
        return Err(format!(
            "{} matmul: weights of {} blocks do not fit (m, k, n) = {mkn:?}",
            kind.name(),
            b.n_blocks()
        ));
    }
    b.matmul(mkn, lhs, dst);
    Ok(())
}

/// Runs `f(tile_index, tile)` over `chunk`-sized tiles of `out`: on a rayon
/// pool of [`crate::threads`] threads natively when there is more than one,
/// on the web pool in a wasm32 build with `threads` when it has helpers
/// (the threaded generation worker, `crate::web_pool`), otherwise in order
/// on the calling thread. A tile is computed by the same code on any
/// thread, and tiles never share an output, so the results do not depend
/// on it.
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
    #[cfg(all(target_arch = "wasm32", feature = "threads"))]
    if crate::web_pool::threads() > 1 {
        // each tile behind its own (never contended) lock: any thread
        // may take it
        let tiles: Vec<std::sync::Mutex<&mut [f32]>> =
            out.chunks_mut(chunk).map(std::sync::Mutex::new).collect();
        crate::web_pool::run(tiles.len(), &|t| {
            let mut tile = tiles[t].lock().unwrap_or_else(|e| e.into_inner());
            f(t, &mut tile)
        });
        return;
    }
    for (t, o) in out.chunks_mut(chunk).enumerate() {
        f(t, o);
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
        return crate::wasm::dot_q4_1(xs, ys);
        #[allow(unreachable_code)]
        dot_q4_1_scalar(xs, ys)
    }

    /// `Q4_1 · Q8_1` of one weight row against four activation rows.
    pub fn dot4_q4_1(xs: &[BlockQ4_1], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot4_q4_1(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::wasm::dot4_q4_1(xs, ys);
        #[allow(unreachable_code)]
        ys.map(|y| dot_q4_1(xs, y))
    }

    pub fn dot_q4_0(xs: &[BlockQ4_0], ys: &[BlockQ8]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot_q4_0(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::wasm::dot_q4_0(xs, ys);
        #[allow(unreachable_code)]
        dot_q4_0_scalar(xs, ys)
    }

    /// `Q8_0 · Q8_0` of one weight row against four activation rows.
    pub fn dot4_q8_0(xs: &[BlockQ8_0], ys: [&[BlockQ8]; 4]) -> [f32; 4] {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot4_q8_0(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::wasm::dot4_q8_0(xs, ys);
        #[allow(unreachable_code)]
        ys.map(|y| dot_q8_0(xs, y))
    }

    pub fn dot_q8_0(xs: &[BlockQ8_0], ys: &[BlockQ8]) -> f32 {
        #[cfg(target_arch = "x86_64")]
        return crate::simd::x86::dot_q8_0(xs, ys);
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return crate::wasm::dot_q8_0(xs, ys);
        #[allow(unreachable_code)]
        dot_q8_0_scalar(xs, ys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                Kind::Q5_0 => {
                    // scale, then the 32 high bits
                    out.extend_from_slice(&scale);
                    out.extend((0..4).map(|_| next() as u8));
                }
                _ => unreachable!("the kinds these tests make"),
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
    fn block_structs_have_ggmls_sizes() {
        assert_eq!(std::mem::size_of::<BlockQ4_0>(), Kind::Q4_0.block_bytes());
        assert_eq!(std::mem::size_of::<BlockQ4_1>(), Kind::Q4_1.block_bytes());
        assert_eq!(std::mem::size_of::<BlockQ8_0>(), Kind::Q8_0.block_bytes());
    }

    /// The AVX2 activation quantizer (where the CPU has it) gives the
    /// scalar one's blocks: random rows, a zero block, halves that round
    /// to even, large and tiny values.
    #[test]
    fn avx2_quantizer_equals_the_scalar_one() {
        let mut xs = activations(64 * QK);
        for v in &mut xs[32..64] {
            *v = 0.0;
        }
        for (i, v) in xs[64..96].iter_mut().enumerate() {
            *v = if i == 0 { 127.0 } else { i as f32 - 15.5 };
        }
        for (i, v) in xs[96..128].iter_mut().enumerate() {
            *v = (i as f32 - 16.0) * 1e30;
        }
        for (i, v) in xs[128..160].iter_mut().enumerate() {
            *v = (i as f32 - 16.0) * 1e-30;
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        quantize_q8(&xs, &mut a);
        quantize_q8_scalar(&xs, &mut b);
        assert_eq!(a.len(), b.len());
        for (i, (a, b)) in a.iter().zip(&b).enumerate() {
            assert_eq!(
                (a.d.to_bits(), a.s.to_bits(), a.qs),
                (b.d.to_bits(), b.s.to_bits(), b.qs),
                "block {i}"
            );
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
        let bytes = blocks(Kind::Q4_1, 32, 5);
        let Blocks::Q4_1(b) = Blocks::new(Kind::Q4_1, &bytes).unwrap() else {
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
        // the other four-row kernels, through Blocks::dot4, against the
        // scalar single-row arithmetic
        for kind in [Kind::Q8_0, Kind::Q5_0] {
            let bytes = blocks(kind, 32, 9);
            let s = Blocks::new(kind, &bytes).unwrap();
            let four = s.dot4(0, [&rows[0], &rows[1], &rows[2], &rows[3]]);
            for r in 0..4 {
                let one = match s {
                    Blocks::Q8_0(b) => kernels::dot_q8_0_scalar(b, &rows[r]),
                    Blocks::Q5_0(b) => kquant::scalar::q5_0(b, &rows[r]),
                    _ => unreachable!(),
                };
                assert_eq!(four[r].to_bits(), one.to_bits(), "{kind:?} row {r}");
            }
        }
    }

    fn check_simd_dots() {
        let k = 64 * QK;
        let mut ys = Vec::new();
        quantize_q8(&activations(k), &mut ys);
        for (kind, seed) in [Kind::Q4_0, Kind::Q4_1, Kind::Q8_0, Kind::Q5_0]
            .into_iter()
            .flat_map(|k| (1..=16).map(move |s| (k, s)))
        {
            let bytes = blocks(kind, 64, seed);
            let s = Blocks::new(kind, &bytes).unwrap();
            let fast = s.dot(0, &ys);
            let slow = match s {
                Blocks::Q4_0(b) => kernels::dot_q4_0_scalar(b, &ys),
                Blocks::Q4_1(b) => kernels::dot_q4_1_scalar(b, &ys),
                Blocks::Q8_0(b) => kernels::dot_q8_0_scalar(b, &ys),
                Blocks::Q5_0(b) => kquant::scalar::q5_0(b, &ys),
                _ => unreachable!("the kinds with SIMD kernels"),
            };
            // the same arithmetic in the same order: bit for bit
            assert_eq!(fast.to_bits(), slow.to_bits(), "{kind:?}: {fast} vs {slow}");
        }
    }

    #[test]
    fn matmul_handles_several_rows_and_bad_shapes() {
        // six rows: four through the shared-unpacking kernel, two alone
        let (m, k, n) = (6, 2 * QK, 5);
        let bytes = blocks(Kind::Q4_1, n * 2, 3);
        let s = Blocks::new(Kind::Q4_1, &bytes).unwrap();
        let lhs = activations(m * k);
        let mut dst = vec![0f32; m * n];
        matmul(Kind::Q4_1, &bytes, (m, k, n), &lhs, &mut dst).unwrap();
        for i in 0..m {
            let mut ys = Vec::new();
            quantize_q8(&lhs[i * k..(i + 1) * k], &mut ys);
            for j in 0..n {
                assert_eq!(dst[i * n + j], s.dot(j * 2, &ys));
            }
        }
        assert!(matmul(
            Kind::Q4_1,
            &bytes,
            (m, k, n + 1),
            &lhs,
            &mut vec![0f32; m * (n + 1)]
        )
        .is_err());
        assert!(Blocks::new(Kind::Q4_1, &[0u8; 21]).is_err());
        // a view that is not aligned for the blocks is refused, not misread
        // on the heap, whose start is aligned, so `[1..]` is not
        #[allow(clippy::useless_vec)]
        let odd = vec![0u8; 41];
        assert!(Blocks::new(Kind::Q4_1, &odd[1..]).is_err());
    }
}
