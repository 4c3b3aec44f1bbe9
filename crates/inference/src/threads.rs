//! How many threads the matrix products use. Natively, a rayon pool of
//! [`set_threads`] threads. In wasm32, the calling thread alone, except in
//! a build with the `threads` feature: there the browser's threaded
//! generation worker (nightly, `+atomics`, shared memory, so only where
//! the page is cross-origin isolated) starts helper Web Workers that run
//! [`help`] and says how many threads there are with [`set_threads`]
//! (`crate::web_pool`). Every output is computed by the same code whichever
//! thread runs it, so the thread count never changes a result.

#[cfg(all(target_arch = "wasm32", feature = "threads"))]
pub use crate::web_pool::help;

#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Mutex, OnceLock};

#[cfg(not(target_arch = "wasm32"))]
static POOL: OnceLock<Mutex<Option<std::sync::Arc<rayon::ThreadPool>>>> = OnceLock::new();

/// Sets the number of threads the matrix products use; 0 means one per
/// available core.
pub fn set_threads(n: usize) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let n = if n == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            n
        };
        let pool = if n > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .ok()
                .map(std::sync::Arc::new)
        } else {
            None
        };
        *POOL
            .get_or_init(|| Mutex::new(None))
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = pool;
    }
    #[cfg(all(target_arch = "wasm32", feature = "threads"))]
    crate::web_pool::set_threads(n);
    #[cfg(all(target_arch = "wasm32", not(feature = "threads")))]
    let _ = n;
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn pool() -> Option<std::sync::Arc<rayon::ThreadPool>> {
    POOL.get_or_init(|| {
        let n = std::thread::available_parallelism().map_or(1, |n| n.get());
        let pool = (n > 1)
            .then(|| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok())
            .flatten()
            .map(std::sync::Arc::new);
        Mutex::new(pool)
    })
    .lock()
    .unwrap_or_else(|e| e.into_inner())
    .clone()
}

/// The number of threads the matrix products use now.
pub fn current() -> usize {
    #[cfg(not(target_arch = "wasm32"))]
    {
        pool().map_or(1, |p| p.current_num_threads())
    }
    #[cfg(all(target_arch = "wasm32", feature = "threads"))]
    {
        crate::web_pool::threads()
    }
    #[cfg(all(target_arch = "wasm32", not(feature = "threads")))]
    {
        1
    }
}
