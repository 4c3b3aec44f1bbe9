//! The special-token pass (`tokenizer_st_partition`): every cached special
//! token, longest first, is split out of the raw text fragments left by the
//! tokens before it.

use crate::vocab::{TokenAttr, Vocab};

/// A piece of the input after the special-token pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fragment {
    /// Raw text: offset and length in the input.
    Raw(usize, usize),
    /// A special token.
    Token(u32),
}

/// A byte trie over the special tokens' texts, to find which of them occur
/// in a text at all before running llama.cpp's token-by-token pass (a
/// vocabulary can have thousands of special tokens).
#[derive(Clone, Debug, Default)]
pub(crate) struct SpecialTrie {
    /// Per node: sorted (byte, child) edges.
    edges: Vec<Vec<(u8, u32)>>,
    /// Per node: the cache ranks of the tokens ending here.
    ends: Vec<Vec<u32>>,
    n_ranks: usize,
}

impl SpecialTrie {
    /// A trie of `(id, text)` in cache order; a token is known by its rank.
    pub fn new<'a>(tokens: impl Iterator<Item = (u32, &'a [u8])>) -> SpecialTrie {
        let mut t = SpecialTrie {
            edges: vec![Vec::new()],
            ends: vec![Vec::new()],
            n_ranks: 0,
        };
        for (rank, (_, text)) in tokens.enumerate() {
            let mut node = 0usize;
            for &b in text {
                node = match t.edges[node].binary_search_by_key(&b, |&(e, _)| e) {
                    Ok(i) => t.edges[node][i].1 as usize,
                    Err(i) => {
                        let child = t.edges.len();
                        t.edges.push(Vec::new());
                        t.ends.push(Vec::new());
                        t.edges[node].insert(i, (b, child as u32));
                        child
                    }
                };
            }
            t.ends[node].push(rank as u32);
            t.n_ranks = rank + 1;
        }
        t
    }

    /// The ranks of the tokens occurring anywhere in `text`, ascending.
    fn present(&self, text: &[u8]) -> Vec<u32> {
        let mut seen = vec![false; self.n_ranks];
        let mut any = false;
        for start in 0..text.len() {
            let mut node = 0usize;
            for &b in &text[start..] {
                match self.edges[node].binary_search_by_key(&b, |&(e, _)| e) {
                    Ok(i) => node = self.edges[node][i].1 as usize,
                    Err(_) => break,
                }
                for &r in &self.ends[node] {
                    seen[r as usize] = true;
                    any = true;
                }
            }
        }
        if !any {
            return Vec::new();
        }
        (0..self.n_ranks as u32)
            .filter(|&r| seen[r as usize])
            .collect()
    }
}

/// C `isspace` in the C locale.
fn is_c_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ')
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    if needle.len() > hay.len() {
        return None;
    }
    let first = needle[0];
    (0..=hay.len() - needle.len()).find(|&i| hay[i] == first && &hay[i..i + needle.len()] == needle)
}

impl Vocab {
    /// `tokenizer_st_partition`.
    pub(crate) fn partition(&self, text: &[u8], parse_special: bool) -> Vec<Fragment> {
        let mut frags = vec![Fragment::Raw(0, text.len())];
        if self.cache_special.is_empty() {
            return frags;
        }
        let skip = TokenAttr::CONTROL | TokenAttr::UNKNOWN;
        for rank in self.special_trie.present(text) {
            let id = self.cache_special[rank as usize];
            let data = &self.tokens[id as usize];
            if !parse_special && data.attr.has(skip) {
                continue;
            }
            let pat = &*data.text;
            let lstrip = data.attr.has(TokenAttr::LSTRIP);
            let rstrip = data.attr.has(TokenAttr::RSTRIP);
            let mut out = Vec::with_capacity(frags.len() + 2);
            for f in frags {
                let Fragment::Raw(off, len) = f else {
                    out.push(f);
                    continue;
                };
                let (mut base_off, mut base_len) = (off, len);
                loop {
                    let Some(rel) = find(&text[base_off..base_off + base_len], pat) else {
                        if base_len > 0 {
                            out.push(Fragment::Raw(base_off, base_len));
                        }
                        break;
                    };
                    let m = base_off + rel;
                    if rel > 0 {
                        let mut left_len = rel;
                        if lstrip {
                            while left_len > 0 && is_c_space(text[base_off + left_len - 1]) {
                                left_len -= 1;
                            }
                        }
                        if left_len > 0 {
                            out.push(Fragment::Raw(base_off, left_len));
                        }
                    }
                    out.push(Fragment::Token(id));
                    if m + pat.len() < base_off + base_len {
                        let mut r_off = m + pat.len();
                        let mut r_len = base_len - (rel + pat.len());
                        if rstrip {
                            while r_len > 0 && is_c_space(text[r_off]) {
                                r_off += 1;
                                r_len -= 1;
                            }
                        }
                        base_off = r_off;
                        base_len = r_len;
                    } else {
                        break;
                    }
                }
            }
            frags = out;
        }
        frags
    }
}
