//! The iteration order of libstdc++'s `std::unordered_map<std::string, int>`.
//!
//! llama.cpp walks its `token_to_id` map when it picks EOT, EOM and FIM
//! tokens by text: the first match in the map's iteration order wins and,
//! if it was not CONTROL, becomes CONTROL. With two candidate texts for one
//! role in a vocabulary, that order decides which token the special-token
//! pass splits out. This reproduces the order of a GNU/Linux build
//! (libstdc++: `std::_Hash_bytes`, the prime rehash policy, nodes linked at
//! the front of their bucket); builds with libc++ (macOS) or MSVC's STL may
//! order differently (see COMPATIBILITY.md).

/// `std::_Hash_bytes(ptr, len, 0xc70f6907)`, the 64-bit `std::hash<std::string>`.
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    const MUL: u64 = (0xc6a4_a793u64 << 32) + 0x5bd1_e995;
    let shift_mix = |v: u64| v ^ (v >> 47);
    let len = bytes.len();
    let aligned = len & !7;
    let mut hash: u64 = 0xc70f_6907u64 ^ (len as u64).wrapping_mul(MUL);
    for chunk in bytes[..aligned].chunks_exact(8) {
        let data = shift_mix(u64::from_le_bytes(chunk.try_into().unwrap()).wrapping_mul(MUL))
            .wrapping_mul(MUL);
        hash ^= data;
        hash = hash.wrapping_mul(MUL);
    }
    if len & 7 != 0 {
        let mut data: u64 = 0;
        for &b in bytes[aligned..].iter().rev() {
            data = (data << 8) + b as u64;
        }
        hash ^= data;
        hash = hash.wrapping_mul(MUL);
    }
    hash = shift_mix(hash).wrapping_mul(MUL);
    shift_mix(hash)
}

/// `__prime_list` from index 6 on (what `_M_next_bkt` searches for n >= 14).
static PRIMES: &[u64] = &[
    17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109, 113, 127,
    137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409,
    439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493,
    1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087,
    5503, 5953, 6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173,
    16411, 17749, 19183, 20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043,
    45481, 49201, 53201, 57557, 62233, 67307, 72817, 78779, 85229, 92203, 99733, 107897, 116731,
    126271, 136607, 147793, 159871, 172933, 187091, 202409, 218971, 236897, 256279, 277261, 299951,
    324503, 351061, 379787, 410857, 444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049,
    834181, 902483, 976369, 1056323, 1142821, 1236397, 1337629, 1447153, 1565659, 1693859, 1832561,
    1982627, 2144977, 2320627, 2510653, 2716249, 2938679, 3179303, 3439651, 3721303, 4026031,
    4355707, 4712381, 5098259, 5515729, 5967347, 6456007, 6984629, 7556579, 8175383, 8844859,
    9569143, 10352717, 11200489, 12117689, 13109983, 14183539, 15345007, 16601593, 17961079,
    19431899, 21023161, 22744717, 24607243, 26622317, 28802401, 31160981, 33712729, 36473443,
    39460231, 42691603, 46187573, 49969847, 54061849, 58488943, 63278561, 68460391, 74066549,
    80131819, 86693767, 93793069, 101473717, 109783337, 118773397, 128499677, 139022417, 150406843,
    162723577, 176048909, 190465427, 206062531, 222936881, 241193053, 260944219, 282312799,
    305431229, 330442829, 357502601, 386778277, 418451333, 452718089, 489790921, 529899637,
    573292817, 620239453, 671030513, 725980837, 785430967, 849749479, 919334987, 994618837,
    1076067617, 1164186217, 1259520799, 1362662261, 1474249943, 1594975441, 1725587117, 1866894511,
    2019773507, 2185171673, 2364114217, 2557710269, 2767159799, 2993761039, 3238918481, 3504151727,
    3791104843, 4101556399, 4294967291, 6442450933,
];

/// `_Prime_rehash_policy` with max load factor 1.
struct Policy {
    next_resize: u64,
}

impl Policy {
    fn next_bkt(&mut self, n: u64) -> u64 {
        const FAST: [u64; 14] = [2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13];
        if n < 14 {
            if n == 0 {
                return 1;
            }
            self.next_resize = FAST[n as usize];
            return FAST[n as usize];
        }
        let i = PRIMES.partition_point(|&p| p < n);
        let p = PRIMES.get(i).copied().unwrap_or(n);
        self.next_resize = p;
        p
    }

    fn need_rehash(&mut self, n_bkt: u64, n_elt: u64, n_ins: u64) -> Option<u64> {
        if n_elt + n_ins > self.next_resize {
            let min_bkts = (n_elt + n_ins).max(if self.next_resize != 0 { 0 } else { 11 });
            if min_bkts >= n_bkt {
                return Some(self.next_bkt((min_bkts + 1).max(n_bkt * 2)));
            }
            self.next_resize = n_bkt;
        }
        None
    }
}

const NIL: u32 = u32::MAX;
/// Bucket entry meaning "the node before is `_M_before_begin`".
const BEFORE_BEGIN: u32 = u32::MAX - 1;

/// Links `node` after `before` (a node, or `_M_before_begin`).
fn link_after(begin: &mut u32, next: &mut [u32], before: u32, node: u32) {
    if before == BEFORE_BEGIN {
        next[node as usize] = *begin;
        *begin = node;
    } else {
        next[node as usize] = next[before as usize];
        next[before as usize] = node;
    }
}

/// The ids of `keys` (inserted in order, all distinct, as
/// `token_to_id[text] = id`) in the map's iteration order.
pub(crate) fn iteration_order(keys: &[&[u8]]) -> Vec<u32> {
    let n = keys.len();
    let hashes: Vec<u64> = keys.iter().map(|k| hash_bytes(k)).collect();
    let mut next = vec![NIL; n];
    let mut begin = NIL;
    let mut n_bkt: u64 = 1;
    // Per bucket: the node *before* the bucket's first node.
    let mut buckets: Vec<u32> = vec![NIL; 1];
    let mut policy = Policy { next_resize: 0 };
    for (i, &h) in hashes.iter().enumerate() {
        let node = i as u32;
        if let Some(new_n) = policy.need_rehash(n_bkt, i as u64, 1) {
            // _M_rehash_aux(n, true_type)
            let mut nb = vec![NIL; new_n as usize];
            let mut p = begin;
            begin = NIL;
            let mut bbegin_bkt = 0usize;
            while p != NIL {
                let pn = next[p as usize];
                let bkt = (hashes[p as usize] % new_n) as usize;
                if nb[bkt] == NIL {
                    next[p as usize] = begin;
                    begin = p;
                    nb[bkt] = BEFORE_BEGIN;
                    if next[p as usize] != NIL {
                        nb[bbegin_bkt] = p;
                    }
                    bbegin_bkt = bkt;
                } else {
                    link_after(&mut begin, &mut next, nb[bkt], p);
                }
                p = pn;
            }
            buckets = nb;
            n_bkt = new_n;
        }
        // _M_insert_bucket_begin
        let bkt = (h % n_bkt) as usize;
        if buckets[bkt] != NIL {
            link_after(&mut begin, &mut next, buckets[bkt], node);
        } else {
            next[i] = begin;
            begin = node;
            if next[i] != NIL {
                let b = (hashes[next[i] as usize] % n_bkt) as usize;
                buckets[b] = node;
            }
            buckets[bkt] = BEFORE_BEGIN;
        }
    }
    let mut order = Vec::with_capacity(n);
    let mut p = begin;
    while p != NIL {
        order.push(p);
        p = next[p as usize];
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_matches_libstdcxx() {
        // Printed by g++ 12 / libstdc++: std::hash<std::string>{}(...)
        assert_eq!(hash_bytes(b""), 6142509188972423790);
        assert_eq!(hash_bytes(b"a"), 4993892634952068459);
        assert_eq!(hash_bytes(b"hello world!"), 6594337730806245023);
    }

    #[test]
    fn order_matches_libstdcxx() {
        // g++ 12: unordered_map<string,int> m; m["tok" + i] = i for i < 40;
        // then the ids in iteration order.
        const WANT: [u32; 40] = [
            38, 37, 36, 33, 32, 39, 31, 30, 29, 11, 17, 7, 8, 34, 5, 6, 9, 19, 3, 2, 1, 27, 18, 13,
            15, 22, 12, 20, 14, 4, 21, 16, 25, 35, 23, 0, 24, 10, 26, 28,
        ];
        let keys: Vec<Vec<u8>> = (0..40).map(|i| format!("tok{i}").into_bytes()).collect();
        let refs: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
        assert_eq!(iteration_order(&refs), WANT);
    }

    #[test]
    fn order_is_a_permutation() {
        let keys: Vec<Vec<u8>> = (0..1000).map(|i| format!("tok{i}").into_bytes()).collect();
        let refs: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
        let mut o = iteration_order(&refs);
        o.sort();
        assert_eq!(o, (0..1000).collect::<Vec<u32>>());
    }
}
