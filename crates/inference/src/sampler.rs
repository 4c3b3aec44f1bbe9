//! llama.cpp's sampler chain as llama-server builds it for the options
//! Ollama sends: penalties, top-k, typical-p, top-p, min-p, temperature,
//! then a draw from `std::mt19937` seeded with `seed`
//! (`src/llama-sampler.cpp`, `common/sampling.cpp`). DRY, XTC, top-n-sigma
//! and mirostat are off in Ollama's requests and are not reproduced.
//!
//! The prompt's tokens enter the penalty window before the first draw, as
//! llama-server accepts them into the sampler.

use crate::options::Options;
use std::collections::{HashMap, VecDeque};

/// libstdc++'s `std::mt19937`.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    /// `std::mt19937(seed)`.
    pub fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] = 1_812_433_253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: 624 }
    }

    fn twist(&mut self) {
        for i in 0..624 {
            let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
            let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= 0x9908_b0df;
            }
            self.state[i] = v;
        }
        self.index = 0;
    }

    /// The next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `std::uniform_real_distribution<double>(0, 1)(rng)` as libstdc++
    /// computes it: `generate_canonical<double, 53>`, two draws.
    pub fn uniform(&mut self) -> f64 {
        let lo = self.next_u32() as f64;
        let hi = self.next_u32() as f64;
        let r = (lo + hi * 4_294_967_296.0) / 18_446_744_073_709_551_616.0;
        if r >= 1.0 {
            1.0 - f64::EPSILON / 2.0
        } else {
            r
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Cand {
    id: u32,
    logit: f32,
    p: f32,
}

/// A sampler for one generation.
pub struct Sampler {
    opts: Options,
    last_n: usize,
    prev: VecDeque<u32>,
    counts: HashMap<u32, i32>,
    rng: Mt19937,
    seed: u32,
}

/// llama.cpp's `LLAMA_DEFAULT_SEED`: draw a random seed.
pub const DEFAULT_SEED: u32 = 0xFFFF_FFFF;

impl Sampler {
    /// A sampler with Ollama's `opts` for a context of `n_ctx` tokens.
    /// `random_seed` is used when the seed is -1 (llama-server's
    /// `LLAMA_DEFAULT_SEED`, which draws from `std::random_device`).
    pub fn new(opts: &Options, n_ctx: usize, random_seed: u32) -> Sampler {
        // Ollama's int seed reaches llama-server as a uint32
        let seed = opts.seed as u32;
        let seed = if seed == DEFAULT_SEED {
            random_seed
        } else {
            seed
        };
        let last_n = match opts.repeat_last_n {
            n if n < 0 => n_ctx,
            n => n as usize,
        };
        Sampler {
            opts: opts.clone(),
            last_n,
            prev: VecDeque::new(),
            counts: HashMap::new(),
            rng: Mt19937::new(seed),
            seed,
        }
    }

    /// The seed in use.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    fn penalties_off(&self) -> bool {
        self.last_n == 0
            || (self.opts.repeat_penalty == 1.0
                && self.opts.frequency_penalty == 0.0
                && self.opts.presence_penalty == 0.0)
    }

    /// Records a prompt or generated token in the penalty window.
    pub fn accept(&mut self, token: u32) {
        if self.last_n == 0 {
            return;
        }
        *self.counts.entry(token).or_insert(0) += 1;
        if self.prev.len() >= self.last_n {
            if let Some(old) = self.prev.pop_front() {
                if let Some(c) = self.counts.get_mut(&old) {
                    *c -= 1;
                    if *c == 0 {
                        self.counts.remove(&old);
                    }
                }
            }
        }
        self.prev.push_back(token);
    }

    /// `logit` after the penalties for a token seen `n` times in the window.
    fn penalize(&self, logit: f32, n: i32) -> f32 {
        let l = if logit <= 0.0 {
            logit * self.opts.repeat_penalty
        } else {
            logit / self.opts.repeat_penalty
        };
        l - (n as f32 * self.opts.frequency_penalty
            + (n > 0) as i32 as f32 * self.opts.presence_penalty)
    }

    /// Greedy decoding without building the candidate list: at temperature
    /// 0 the chain (top-k, top-p, min-p) always keeps the highest logit
    /// with the lowest id, which is what [`Sampler::sample`] then picks.
    /// `None` where that could differ: typical-p (it may drop the top
    /// token), a NaN logit, or a highest logit of ±0 (the sort tells −0
    /// from +0, the final pick does not).
    fn greedy(&mut self, logits: &[f32]) -> Option<u32> {
        if self.opts.temperature > 0.0 || self.opts.typical_p < 1.0 || logits.is_empty() {
            return None;
        }
        let penalized: Option<Vec<f32>> = (!self.penalties_off()).then(|| {
            let mut v = logits.to_vec();
            for (&id, &n) in &self.counts {
                if let Some(x) = v.get_mut(id as usize) {
                    *x = self.penalize(*x, n);
                }
            }
            v
        });
        let v = penalized.as_deref().unwrap_or(logits);
        let mut best = 0;
        for (i, &l) in v.iter().enumerate() {
            if l.is_nan() {
                return None;
            }
            if l > v[best] {
                best = i;
            }
        }
        if v[best] == 0.0 {
            return None;
        }
        // `dist` draws once even from a single candidate
        self.rng.uniform();
        Some(best as u32)
    }

    /// Picks the next token from the last position's logits.
    pub fn sample(&mut self, logits: &[f32]) -> u32 {
        match self.greedy(logits) {
            Some(id) => id,
            None => self.chain(logits),
        }
    }

    /// The whole sampler chain, candidate list and all.
    fn chain(&mut self, logits: &[f32]) -> u32 {
        let mut c: Vec<Cand> = logits
            .iter()
            .enumerate()
            .map(|(i, &l)| Cand {
                id: i as u32,
                logit: l,
                p: 0.0,
            })
            .collect();
        let mut sorted = false;
        if !self.penalties_off() {
            // only the tokens seen in the penalty window change (c is still
            // indexed by token id here)
            for (&id, &n) in &self.counts {
                if let Some(x) = c.get_mut(id as usize) {
                    x.logit = self.penalize(x.logit, n);
                }
            }
        }
        // top-k
        if self.opts.top_k > 0 {
            let k = (self.opts.top_k as usize).min(c.len());
            sort_desc(&mut c, k);
            c.truncate(k);
            sorted = true;
        }
        // typical-p
        if self.opts.typical_p < 1.0 && !c.is_empty() {
            softmax(&mut c, &mut sorted, true);
            let entropy: f32 = c.iter().map(|x| -x.p * x.p.ln()).sum();
            let mut idx: Vec<usize> = (0..c.len()).collect();
            let shifted: Vec<f32> = c.iter().map(|x| (-x.p.ln() - entropy).abs()).collect();
            idx.sort_by(|&a, &b| shifted[a].total_cmp(&shifted[b]));
            let mut cum = 0f32;
            let mut last = idx.len();
            for (i, &j) in idx.iter().enumerate() {
                cum += c[j].p;
                if cum > self.opts.typical_p {
                    last = i + 1;
                    break;
                }
            }
            c = idx[..last].iter().map(|&j| c[j]).collect();
            sorted = false;
        }
        // top-p
        if self.opts.top_p < 1.0 && !c.is_empty() {
            softmax(&mut c, &mut sorted, false);
            if !sorted {
                let n = c.len();
                sort_desc(&mut c, n);
                sorted = true;
            }
            let mut cum = 0f32;
            let mut last = c.len();
            for (i, x) in c.iter().enumerate() {
                cum += x.p;
                if cum >= self.opts.top_p && i + 1 >= 1 {
                    last = i + 1;
                    break;
                }
            }
            c.truncate(last);
        }
        // min-p
        if self.opts.min_p > 0.0 && !c.is_empty() {
            let max = c.iter().map(|x| x.logit).fold(-f32::MAX, f32::max);
            let min_logit = max + self.opts.min_p.ln();
            let kept: Vec<Cand> = c.iter().copied().filter(|x| x.logit >= min_logit).collect();
            if !kept.is_empty() {
                c = kept;
            }
        }
        // temperature
        if self.opts.temperature <= 0.0 {
            let mut best = 0;
            for i in 1..c.len() {
                if c[i].logit > c[best].logit
                    || (c[i].logit == c[best].logit && c[i].id < c[best].id)
                {
                    best = i;
                }
            }
            let keep = c[best];
            c = vec![keep];
        } else {
            for x in &mut c {
                x.logit /= self.opts.temperature;
            }
        }
        let _ = sorted;
        self.dist(&mut c)
    }

    /// llama.cpp's `dist` sampler: softmax, one uniform draw, first index
    /// whose running sum reaches `rnd · Σ`.
    fn dist(&mut self, c: &mut [Cand]) -> u32 {
        let rnd = self.rng.uniform();
        if c.len() == 1 {
            return c[0].id;
        }
        let max = c.iter().map(|x| x.logit).fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0f64;
        for x in c.iter_mut() {
            x.p = (x.logit - max).exp();
            sum += x.p as f64;
        }
        let target = sum * rnd;
        let mut run = 0f64;
        for x in c.iter() {
            run += x.p as f64;
            if run >= target {
                return x.id;
            }
        }
        c[c.len() - 1].id
    }
}

/// Sorts the first `k` candidates by logit, descending (ties: lower id
/// first; llama.cpp's `std::partial_sort` leaves their order unspecified).
fn sort_desc(c: &mut Vec<Cand>, k: usize) {
    let cmp = |a: &Cand, b: &Cand| b.logit.total_cmp(&a.logit).then(a.id.cmp(&b.id));
    if k < c.len() {
        c.select_nth_unstable_by(k, cmp);
        c.truncate(k);
    }
    c.sort_by(cmp);
}

/// `llama_sampler_softmax_impl`.
fn softmax(c: &mut Vec<Cand>, sorted: &mut bool, do_sort: bool) {
    if do_sort && !*sorted {
        let n = c.len();
        sort_desc(c, n);
        *sorted = true;
    }
    let max = if *sorted {
        c[0].logit
    } else {
        c.iter().map(|x| x.logit).fold(f32::NEG_INFINITY, f32::max)
    };
    let mut sum = 0f32;
    for x in c.iter_mut() {
        x.p = (x.logit - max).exp();
        sum += x.p;
    }
    for x in c.iter_mut() {
        x.p /= sum;
    }
}

/// The highest logit, ties to the lowest id: what greedy decoding picks.
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0;
    for (i, &l) in logits.iter().enumerate() {
        if l > logits[best] {
            best = i;
        }
    }
    best as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_matches_the_cpp_standard() {
        // [rand.predef]: the 10000th output of a default-constructed
        // std::mt19937 (seed 5489) is 4123659995.
        let mut r = Mt19937::new(5489);
        let mut last = 0;
        for _ in 0..10_000 {
            last = r.next_u32();
        }
        assert_eq!(last, 4_123_659_995);
    }

    #[test]
    fn greedy_when_temperature_is_zero() {
        let mut o = Options::defaults(2048);
        o.temperature = 0.0;
        let mut s = Sampler::new(&o, 2048, 1);
        assert_eq!(s.sample(&[0.1, 3.0, 3.0, -1.0]), 1);
        assert_eq!(argmax(&[0.1, 3.0, 3.0, -1.0]), 1);
    }

    #[test]
    fn top_k_one_is_greedy_at_any_temperature() {
        let mut o = Options::defaults(2048);
        o.top_k = 1;
        o.temperature = 5.0;
        let mut s = Sampler::new(&o, 2048, 7);
        for _ in 0..20 {
            assert_eq!(s.sample(&[0.0, 1.0, 0.5, 0.9]), 1);
        }
    }

    #[test]
    fn repeat_penalty_pushes_seen_tokens_down() {
        let mut o = Options::defaults(2048);
        o.temperature = 0.0;
        o.repeat_penalty = 2.0;
        let mut s = Sampler::new(&o, 2048, 1);
        s.accept(1);
        // 3.0 / 2 = 1.5 < 2.0
        assert_eq!(s.sample(&[0.0, 3.0, 2.0]), 2);
        // the window forgets the oldest token
        o.repeat_last_n = 1;
        let mut s = Sampler::new(&o, 2048, 1);
        s.accept(1);
        s.accept(0);
        assert_eq!(s.sample(&[0.0, 3.0, 2.0]), 1);
    }

    #[test]
    fn same_seed_same_draws() {
        let o = Options {
            seed: 42,
            ..Options::defaults(2048)
        };
        let logits: Vec<f32> = (0..100).map(|i| ((i * 37) % 11) as f32 / 3.0).collect();
        let run = || {
            let mut s = Sampler::new(&o, 2048, 0);
            (0..50).map(|_| s.sample(&logits)).collect::<Vec<_>>()
        };
        let a = run();
        assert_eq!(a, run());
        // with top_k 40 / top_p 0.9 there is more than one outcome
        assert!(a.iter().any(|&t| t != a[0]));
    }

    /// The greedy shortcut gives what the whole chain gives and leaves the
    /// random generator where the chain leaves it.
    #[test]
    fn greedy_shortcut_equals_the_chain() {
        let mut x = 12345u32;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let mut taken = 0;
        for case in 0..400 {
            let mut o = Options::defaults(2048);
            o.temperature = if case % 7 == 0 { -1.0 } else { 0.0 };
            o.top_k = [0, 1, 2, 40][case % 4];
            o.top_p = [1.0, 0.9, 0.05][case % 3];
            o.min_p = [0.0, 0.5][case % 2];
            o.typical_p = if case % 11 == 0 { 0.5 } else { 1.0 };
            if case % 5 == 0 {
                o.repeat_penalty = 1.3;
                o.frequency_penalty = 0.2;
                o.presence_penalty = 0.1;
            }
            let n = 1 + (next() % 60) as usize;
            // few distinct values, so that ties are common
            let mut logits: Vec<f32> = (0..n).map(|_| (next() % 9) as f32 - 4.0).collect();
            match case % 13 {
                0 => logits[next() as usize % n] = f32::NAN,
                1 => logits.iter_mut().for_each(|l| *l = -l.abs() * 0.0),
                _ => {}
            }
            let mut a = Sampler::new(&o, 2048, 3);
            for _ in 0..(next() % 8) {
                a.accept(next() % n as u32);
            }
            let mut b = Sampler {
                opts: a.opts.clone(),
                last_n: a.last_n,
                prev: a.prev.clone(),
                counts: a.counts.clone(),
                rng: Mt19937::new(3),
                seed: a.seed,
            };
            if let Some(fast) = a.greedy(&logits) {
                taken += 1;
                assert_eq!(fast, b.chain(&logits), "case {case}: {logits:?}");
                assert_eq!(a.rng.next_u32(), b.rng.next_u32(), "case {case}");
            }
        }
        assert!(taken > 200, "{taken}");
    }

    #[test]
    fn uniform_is_in_unit_interval() {
        let mut r = Mt19937::new(1);
        for _ in 0..1000 {
            let u = r.uniform();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
