//! The Unigram tokenizer (`tokenizer.ggml.model = "t5"`, llama.cpp's
//! `LLAMA_VOCAB_TYPE_UGM`) as `llm_tokenizer_ugm` and
//! `llm_tokenizer_ugm_session` do it: the text normalized by the
//! precompiled charsmap (SentencePiece's XOR-compressed double array over
//! `tokenizer.ggml.precompiled_charsmap`), user-defined tokens kept as they
//! are, spaces escaped to `▁` and merged, then the Viterbi best path over
//! the token trie with llama.cpp's unknown-token score, consecutive
//! unknowns merged.

use std::fmt;

use crate::error::Error;
use crate::unicode;
use crate::vocab::{TokenAttr, TokenData};

/// A node of [`Trie`]: children (byte, node index) and the value, if a
/// key ends here.
#[derive(Clone, Default)]
struct Node {
    children: Vec<(u8, u32)>,
    value: Option<u32>,
}

/// `naive_trie`: a byte trie, children looked up by byte.
#[derive(Clone, Default)]
struct Trie {
    nodes: Vec<Node>,
}

impl Trie {
    fn new() -> Trie {
        Trie {
            nodes: vec![Node::default()],
        }
    }

    /// `insert`: a later key with the same text overwrites the value.
    fn insert(&mut self, key: &[u8], value: u32) {
        let mut n = 0usize;
        for &b in key {
            n = match self.child(n, b) {
                Some(c) => c,
                None => {
                    let c = self.nodes.len();
                    self.nodes.push(Node::default());
                    self.nodes[n].children.push((b, c as u32));
                    c
                }
            };
        }
        self.nodes[n].value = Some(value);
    }

    fn child(&self, node: usize, b: u8) -> Option<usize> {
        self.nodes[node]
            .children
            .iter()
            .find(|(c, _)| *c == b)
            .map(|&(_, n)| n as usize)
    }

    /// `get_longest_prefix(key, len).second`: how far the key can be walked
    /// down the trie, whether or not a key ends there (llama.cpp does not
    /// look at `has_value`).
    fn walk_len(&self, key: &[u8]) -> usize {
        let mut n = 0usize;
        for (i, &b) in key.iter().enumerate() {
            match self.child(n, b) {
                Some(c) => n = c,
                None => return i,
            }
        }
        key.len()
    }
}

/// What `llm_tokenizer_ugm`'s constructor builds.
#[derive(Clone)]
pub(crate) struct Ugm {
    /// The XCDA entries (`xcda_array`).
    xcda: Vec<u32>,
    /// The NUL-terminated replacement strings after them.
    replacements: Vec<u8>,
    user_defined: Trie,
    tokens: Trie,
    pub(crate) unknown_token_score: f32,
}

impl fmt::Debug for Ugm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ugm")
            .field("xcda_len", &self.xcda.len())
            .field("replacements_len", &self.replacements.len())
            .field("trie_nodes", &self.tokens.nodes.len())
            .field("unknown_token_score", &self.unknown_token_score)
            .finish()
    }
}

/// The load-time checks llama.cpp makes on `precompiled_charsmap` (the
/// array's type is checked by the caller).
pub(crate) fn check_charsmap(map: &[u8]) -> Result<(), Error> {
    if map.len() < 4 {
        return Err(Error::load(
            "precompiled_charsmap too small for xcda_blob_size header!",
        ));
    }
    let blob = u32::from_le_bytes([map[0], map[1], map[2], map[3]]) as usize;
    if blob + 4 >= map.len() {
        return Err(Error::load(
            "Index out of array bounds in precompiled charsmap!",
        ));
    }
    Ok(())
}

/// The result of `normalize_prefix`: the replacement and how much input it
/// consumed.
enum Norm<'a> {
    Slice(&'a [u8], usize),
    Replacement,
}

const FFFD: &[u8] = "\u{FFFD}".as_bytes();
const ESCAPED_SPACE: &[u8] = "\u{2581}".as_bytes();

impl Ugm {
    /// `llm_tokenizer_ugm::llm_tokenizer_ugm`, over the tokens' attributes
    /// as they are when llama.cpp builds the tokenizer (from the GGUF token
    /// types, before special tokens are marked by text).
    pub(crate) fn new(charsmap: Option<&[u8]>, tokens: &[TokenData]) -> Ugm {
        let mut xcda = Vec::new();
        let mut replacements = Vec::new();
        if let Some(map) = charsmap.filter(|m| !m.is_empty()) {
            let blob = u32::from_le_bytes([map[0], map[1], map[2], map[3]]) as usize;
            let n = blob / 4;
            xcda = (0..n)
                .map(|i| {
                    let o = 4 + 4 * i;
                    u32::from_le_bytes([map[o], map[o + 1], map[o + 2], map[o + 3]])
                })
                .collect();
            replacements = map[4 + blob..].to_vec();
        }
        // (llama.cpp also keeps the maximum score, unused)
        let mut min_score = f32::MAX;
        let mut user_defined = Trie::new();
        let mut matcher = Trie::new();
        for (id, t) in tokens.iter().enumerate() {
            let normal = t.attr.has(TokenAttr::NORMAL);
            let user = t.attr.has(TokenAttr::USER_DEFINED);
            let unused = t.attr.has(TokenAttr::UNUSED);
            if normal {
                min_score = min_score.min(t.score);
            }
            if normal || user || unused {
                matcher.insert(&t.text, id as u32);
            }
            if user {
                user_defined.insert(&t.text, 0);
            }
        }
        Ugm {
            xcda,
            replacements,
            user_defined,
            tokens: matcher,
            unknown_token_score: min_score - 10.0,
        }
    }

    fn node(&self, index: u32) -> Result<u32, Error> {
        self.xcda
            .get(index as usize)
            .copied()
            .ok_or_else(|| Error::tokenize("Index out of array bounds in XCDA array!"))
    }

    fn base(&self, index: u32) -> Result<u32, Error> {
        let p = self.node(index)?;
        Ok((p >> 10) << ((p & (1 << 9)) >> 6))
    }

    /// `normalize_prefix`.
    fn normalize_prefix<'a>(&'a self, input: &'a [u8], off: usize) -> Result<Norm<'a>, Error> {
        if off == input.len() {
            return Ok(Norm::Slice(&[], 0));
        }
        let n = self.user_defined.walk_len(&input[off..]);
        if n > 0 {
            return Ok(Norm::Slice(&input[off..off + n], n));
        }
        let mut longest_len = 0usize;
        let mut longest_off = 0u32;
        if !self.xcda.is_empty() {
            let mut node = self.base(0)?;
            for (i, &c) in input[off..].iter().enumerate() {
                if c == 0 {
                    break;
                }
                node ^= c as u32;
                let p = self.node(node)?;
                if p & ((1 << 31) | 0xff) != c as u32 {
                    break;
                }
                let leaf = (p >> 8) & 1 == 1;
                node ^= self.base(node)?;
                if leaf {
                    longest_len = i + 1;
                    longest_off = self.node(node)? & ((1 << 31) - 1);
                }
            }
        }
        if longest_len > 0 {
            let o = longest_off as usize;
            if o >= self.replacements.len() {
                return Err(Error::tokenize(
                    "Index out of array bounds in precompiled charsmap!",
                ));
            }
            let rest = &self.replacements[o..];
            let Some(end) = rest.iter().position(|&b| b == 0) else {
                return Err(Error::tokenize(
                    "Unterminated string in precompiled charsmap!",
                ));
            };
            return Ok(Norm::Slice(&rest[..end], longest_len));
        }
        match utf8_seq_len(input, off) {
            Some(n) => Ok(Norm::Slice(&input[off..off + n], n)),
            None => Ok(Norm::Replacement),
        }
    }

    /// `llm_tokenizer_ugm_session::normalize`.
    fn normalize(&self, input: &[u8], flags: &Flags) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(input.len() * 3);
        let space: &[u8] = if flags.escape_whitespaces {
            ESCAPED_SPACE
        } else {
            b" "
        };
        let prepend = !flags.treat_whitespace_as_suffix && flags.add_space_prefix;
        let append = flags.treat_whitespace_as_suffix && flags.add_space_prefix;
        let merge = flags.remove_extra_whitespaces;
        let mut space_prepended = false;
        let mut processing_non_ws = false;
        let mut off = 0;
        while off < input.len() {
            let (norm, consumed) = match self.normalize_prefix(input, off)? {
                Norm::Slice(s, n) => (s, n),
                Norm::Replacement => (FFFD, 1),
            };
            for &c in norm {
                if c != b' ' {
                    if !processing_non_ws {
                        processing_non_ws = true;
                        if (prepend && !space_prepended) || merge {
                            out.extend_from_slice(space);
                            space_prepended = true;
                        }
                    }
                    out.push(c);
                } else {
                    processing_non_ws = false;
                    if !merge {
                        out.extend_from_slice(space);
                    }
                }
            }
            off += consumed;
        }
        if append {
            out.extend_from_slice(space);
        }
        Ok(out)
    }

    /// `llm_tokenizer_ugm_session::tokenize`: appends the best path's
    /// tokens to `out`. `score_of(id)` is the score the session gives a
    /// token (0 for user-defined tokens), `unk` the unknown token.
    pub(crate) fn tokenize(
        &self,
        text: &[u8],
        flags: &Flags,
        unk: Option<u32>,
        score_of: impl Fn(u32) -> f64,
        out: &mut Vec<u32>,
    ) -> Result<(), Error> {
        let normalized = self.normalize(text, flags)?;
        let n = normalized.len();
        if n == 0 {
            return Ok(());
        }
        // (token, input offset, score sum); None is LLAMA_TOKEN_NULL.
        let mut best: Vec<(Option<u32>, usize, f64)> = vec![(unk, 0, -f64::MAX); n + 1];
        best[0] = (unk, 0, 0.0);
        let mut off = 0;
        while off < n {
            let units = unicode::len_utf8(normalized[off]).min(n - off);
            let mut single = false;
            let current = best[off].2;
            let mut node = Some(0usize);
            let mut p = off;
            while let Some(nd) = node {
                if p >= n {
                    break;
                }
                match self.tokens.child(nd, normalized[p]) {
                    Some(c) => {
                        p += 1;
                        if let Some(id) = self.tokens.nodes[c].value {
                            if p - off == units {
                                single = true;
                            }
                            let challenger = current + score_of(id);
                            if challenger > best[p].2 {
                                best[p] = (Some(id), off, challenger);
                            }
                        }
                        node = Some(c);
                    }
                    None => node = None,
                }
            }
            if !single {
                let challenger = current + self.unknown_token_score as f64;
                let p = off + units;
                if challenger > best[p].2 {
                    best[p] = (unk, off, challenger);
                }
            }
            off += units;
        }
        let start = out.len();
        let mut prev_unknown = false;
        let mut i = n;
        loop {
            let (tok, from, _) = best[i];
            let unknown = tok == unk;
            if !(prev_unknown && unknown) {
                out.push(tok.ok_or_else(|| {
                    Error::tokenize("UGM: the unknown token is LLAMA_TOKEN_NULL")
                })?);
            }
            if from == 0 {
                break;
            }
            prev_unknown = unknown;
            i = from;
        }
        out[start..].reverse();
        Ok(())
    }
}

/// The flags the UGM session reads from the vocabulary.
pub(crate) struct Flags {
    pub escape_whitespaces: bool,
    pub treat_whitespace_as_suffix: bool,
    pub add_space_prefix: bool,
    pub remove_extra_whitespaces: bool,
}

/// `unicode_cpt_from_utf8`'s length for the sequence at `off`, or `None`
/// where it throws (only lead and continuation bits are checked).
fn utf8_seq_len(s: &[u8], off: usize) -> Option<usize> {
    let b = s[off];
    let n = if b & 0x80 == 0 {
        return Some(1);
    } else if b & 0x40 == 0 {
        return None;
    } else if b & 0x20 == 0 {
        2
    } else if b & 0x10 == 0 {
        3
    } else if b & 0x08 == 0 {
        4
    } else {
        return None;
    };
    if off + n > s.len() {
        return None;
    }
    if s[off + 1..off + n].iter().all(|&c| c & 0xc0 == 0x80) {
        Some(n)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_lengths_as_llama_cpp() {
        assert_eq!(utf8_seq_len(b"a", 0), Some(1));
        assert_eq!(utf8_seq_len(b"\xc3\xa9", 0), Some(2));
        assert_eq!(utf8_seq_len(b"\xc3", 0), None);
        assert_eq!(utf8_seq_len(b"\x80", 0), None);
        assert_eq!(utf8_seq_len(b"\xc0\xaf", 0), Some(2));
        assert_eq!(utf8_seq_len(b"\xed\xa0\x80", 0), Some(3));
        assert_eq!(utf8_seq_len(b"\xf8\x88\x80\x80", 0), None);
    }

    #[test]
    fn trie_walk_ignores_values() {
        let mut t = Trie::new();
        t.insert(b"<mask>", 0);
        assert_eq!(t.walk_len(b"<ma"), 3);
        assert_eq!(t.walk_len(b"<mask>x"), 6);
        assert_eq!(t.walk_len(b"x"), 0);
    }
}
