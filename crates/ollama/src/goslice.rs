//! How Go's `append` grows a slice (runtime/slice.go `growslice`, Go
//! 1.26, the Go every supported Ollama release builds with), for the one
//! place where Ollama's output depends on it: `chatPrompt`'s system
//! messages share their backing array with a truncation trial when the
//! array has room (see `server.rs`).

/// `unsafe.Sizeof(api.Message{})` on 64-bit platforms at every supported
/// release (recorded with Go 1.26.0 at each tag: 128 bytes). It holds
/// pointers, so its allocations carry a malloc header.
pub const API_MESSAGE_SIZE: usize = 128;

/// runtime/sizeclasses.go `class_to_size` (Go 1.26): the sizes the small
/// object allocator rounds up to.
const CLASS_TO_SIZE: [usize; 68] = [
    0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320,
    352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
    2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728,
    10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672,
    32768,
];

const MAX_SMALL_SIZE: usize = 32768;
const MALLOC_HEADER_SIZE: usize = 8;
const MIN_SIZE_FOR_MALLOC_HEADER: usize = 512;
const PAGE_SIZE: usize = 8192;

/// runtime/msize.go `roundupsize`: the bytes an allocation of `size`
/// really gets (less the malloc header a pointerful object over 512 bytes
/// carries).
fn roundupsize(size: usize, noscan: bool) -> usize {
    if size <= MAX_SMALL_SIZE - MALLOC_HEADER_SIZE {
        let req = if !noscan && size > MIN_SIZE_FOR_MALLOC_HEADER {
            size + MALLOC_HEADER_SIZE
        } else {
            size
        };
        let class = CLASS_TO_SIZE
            .iter()
            .copied()
            .find(|&c| c >= req)
            .unwrap_or(MAX_SMALL_SIZE);
        return class - (req - size);
    }
    (size + PAGE_SIZE - 1) & !(PAGE_SIZE - 1)
}

/// runtime/slice.go `nextslicecap`.
fn nextslicecap(new_len: usize, old_cap: usize) -> usize {
    let double = old_cap * 2;
    if new_len > double {
        return new_len;
    }
    const THRESHOLD: usize = 256;
    if old_cap < THRESHOLD {
        return double;
    }
    let mut cap = old_cap;
    while cap < new_len {
        cap += (cap + 3 * THRESHOLD) >> 2;
    }
    cap
}

/// The capacity of a slice of `elem_size`-byte pointerful elements built
/// from empty by `len` one-element appends.
pub fn append_capacity(len: usize, elem_size: usize) -> usize {
    let mut cap = 0;
    for n in 1..=len {
        if n > cap {
            let next = nextslicecap(n, cap);
            cap = roundupsize(next * elem_size, false) / elem_size;
        }
    }
    cap
}
