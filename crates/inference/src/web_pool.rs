//! The matrix products' thread pool in the browser's threaded generation
//! worker (wasm32 with the `threads` feature, built with `+atomics`): the
//! worker's own thread, which asks for each product, and helper threads,
//! Web Workers that share its memory and each run [`help`] for good (the
//! app starts them and calls [`set_threads`]).
//!
//! A product's tiles are handed out one at a time from one atomic counter,
//! so every thread, the asking one too, takes the next tile until none is
//! left; each tile is computed by the same code on any thread, so no
//! result depends on which or how many threads ran. Between products a
//! helper spins on that counter for a while before it sleeps: one token
//! is a few hundred products separated by microseconds of other work, and
//! waking a sleeping Web Worker costs far more than that (rayon's pool,
//! tried first through wasm-bindgen-rayon, sleeps at once between jobs and
//! made generation slower on two threads than on one).

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// One product's work: `f(tile)` for each tile below the count.
type Tile<'a> = &'a (dyn Fn(usize) + Sync);

/// The running product: its number (bits 32 to 63), its tile count (16 to
/// 31) and its next unclaimed tile (0 to 15), in one word so that a claim
/// is for one product and within its count.
static STATE: AtomicU64 = AtomicU64::new(0);
/// The running product's work: the address of the asking thread's
/// [`Tile`], valid until all its tiles are done.
static JOB: AtomicUsize = AtomicUsize::new(0);
/// Its tiles done so far.
static DONE: AtomicUsize = AtomicUsize::new(0);
/// The pool's threads, the asking one included (1: no pool).
static THREADS: AtomicUsize = AtomicUsize::new(1);
/// Helpers asleep on [`WAKE`].
static SLEEPERS: AtomicUsize = AtomicUsize::new(0);
static LOCK: Mutex<()> = Mutex::new(());
static WAKE: Condvar = Condvar::new();

/// How many times a helper looks for the next product before it sleeps
/// (a fraction of a millisecond).
const SPINS: u32 = 1 << 17;

thread_local! {
    /// Whether this thread is running a tile (a product asked for inside
    /// one runs on this thread alone).
    static IN_TILE: Cell<bool> = const { Cell::new(false) };
}

/// Says that `n` threads run the products: this one and `n - 1` helpers
/// in [`help`] (they may still be starting: the tiles wait for no one).
pub fn set_threads(n: usize) {
    THREADS.store(n.max(1), Ordering::SeqCst);
}

/// The threads that run the products.
pub fn threads() -> usize {
    THREADS.load(Ordering::Relaxed)
}

/// The most tiles a product can have on the pool (more run on the asking
/// thread alone).
const MAX_TILES: usize = 0xffff;

fn epoch(state: u64) -> u32 {
    (state >> 32) as u32
}

/// Runs tiles of product `product` until none is left unclaimed (or
/// another product runs).
fn work(product: u32) {
    let mut s = STATE.load(Ordering::Acquire);
    loop {
        let (tiles, t) = (((s >> 16) & 0xffff) as usize, (s & 0xffff) as usize);
        if epoch(s) != product || t >= tiles {
            return;
        }
        match STATE.compare_exchange_weak(s, s + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {
                // the claim read the product's publication (or a claim
                // after it), so this is its job: a later one is published
                // only once this tile is done
                let job = JOB.load(Ordering::Relaxed);
                // SAFETY: `job` is the address of the `Tile` that the
                // asking thread published with this product; that thread
                // is in `run`, waiting for this tile among others, so the
                // `Tile` and what it borrows live until DONE counts it.
                let f = unsafe { *(job as *const Tile) };
                IN_TILE.with(|c| c.set(true));
                f(t);
                IN_TILE.with(|c| c.set(false));
                DONE.fetch_add(1, Ordering::Release);
                s = STATE.load(Ordering::Acquire);
            }
            Err(now) => s = now,
        }
    }
}

/// Runs `f(t)` for every `t < tiles`, on the pool where there is one.
pub fn run(tiles: usize, f: &(dyn Fn(usize) + Sync)) {
    if threads() == 1 || tiles <= 1 || tiles > MAX_TILES || IN_TILE.with(Cell::get) {
        (0..tiles).for_each(f);
        return;
    }
    let tile: Tile = f;
    JOB.store(&tile as *const Tile as usize, Ordering::Relaxed);
    DONE.store(0, Ordering::Relaxed);
    let product = epoch(STATE.load(Ordering::Relaxed)).wrapping_add(1);
    // publishes the job and the zeroed DONE above with it
    STATE.store(
        (u64::from(product) << 32) | ((tiles as u64) << 16),
        Ordering::SeqCst,
    );
    if SLEEPERS.load(Ordering::SeqCst) > 0 {
        let _held = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        WAKE.notify_all();
    }
    work(product);
    // the tiles the helpers claimed: each adds to DONE once written
    while DONE.load(Ordering::Acquire) < tiles {
        std::hint::spin_loop();
    }
}

/// A helper thread's life: waits for each product (spinning, then asleep)
/// and runs its tiles. Never returns.
pub fn help() -> ! {
    let mut seen = epoch(STATE.load(Ordering::Acquire));
    loop {
        let mut spins = 0;
        let product = loop {
            let now = epoch(STATE.load(Ordering::Acquire));
            if now != seen {
                break now;
            }
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
                continue;
            }
            // asleep until a product is published (the asking thread
            // counts SLEEPERS after publishing, this one STATE after
            // counting itself: one of them sees the other)
            let mut held = LOCK.lock().unwrap_or_else(|e| e.into_inner());
            SLEEPERS.fetch_add(1, Ordering::SeqCst);
            let now = loop {
                let now = epoch(STATE.load(Ordering::SeqCst));
                if now != seen {
                    break now;
                }
                held = WAKE.wait(held).unwrap_or_else(|e| e.into_inner());
            };
            SLEEPERS.fetch_sub(1, Ordering::SeqCst);
            break now;
        };
        seen = product;
        work(product);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// The pool natively, with std threads as the helpers: every tile of
    /// every product runs exactly once, whether the helpers spin, sleep or
    /// start late, for products of 1 to 700 tiles and nested ones.
    #[test]
    fn every_tile_runs_once_whoever_runs_it() {
        set_threads(3);
        assert_eq!(threads(), 3);
        let shared = AtomicBool::new(false);
        let me = std::thread::current().id();
        let check = |round: usize| {
            let tiles = 1 + round * 7 % 700;
            let hits: Vec<AtomicUsize> = (0..tiles).map(|_| AtomicUsize::new(0)).collect();
            run(tiles, &|t| {
                hits[t].fetch_add(1, Ordering::Relaxed);
                if std::thread::current().id() != me {
                    shared.store(true, Ordering::Relaxed);
                }
                if t % 128 == 0 {
                    std::thread::sleep(std::time::Duration::from_micros(20));
                }
            });
            for (t, h) in hits.iter().enumerate() {
                assert_eq!(
                    h.load(Ordering::Relaxed),
                    1,
                    "round {round}: tile {t} of {tiles}"
                );
            }
        };
        // no helper yet: the asking thread runs everything
        for round in 0..50 {
            check(round);
        }
        for _ in 0..2 {
            std::thread::spawn(|| help());
        }
        for round in 0..1500 {
            check(round);
            if round % 500 == 499 {
                // long enough for the helpers to stop spinning and sleep
                std::thread::sleep(std::time::Duration::from_millis(30));
            }
        }
        assert!(
            shared.load(Ordering::Relaxed),
            "the helpers never ran a tile"
        );
        // a product asked for inside a tile runs on that thread
        let inner = AtomicUsize::new(0);
        run(8, &|_| {
            run(5, &|_| _ = inner.fetch_add(1, Ordering::Relaxed))
        });
        assert_eq!(inner.load(Ordering::Relaxed), 40);
    }
}
