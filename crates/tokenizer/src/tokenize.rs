//! `llama_vocab::impl::tokenize` and the SPM, BPE and WPM sessions (UGM's
//! is in `ugm.rs`).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::error::Error;
use crate::pre::PreType;
use crate::special::Fragment;
use crate::split;
use crate::ugm;
use crate::unicode::{self, Flags};
use crate::vocab::{TokenAttr, Vocab, VocabType};

/// `▁` (U+2581), SentencePiece's visible space.
const SPACE_MARK: &[u8] = "\u{2581}".as_bytes();

/// `llama_escape_whitespace`: every space becomes `▁`.
fn escape_whitespace(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 8);
    for &b in text {
        if b == b' ' {
            out.extend_from_slice(SPACE_MARK);
        } else {
            out.push(b);
        }
    }
    out
}

#[derive(Clone, Copy, Debug)]
struct Symbol {
    prev: i32,
    next: i32,
    start: usize,
    n: usize,
}

/// Splits `text` into symbols of one UTF-8 sequence each, by lead byte
/// (`unicode_len_utf8`), the last one cut at the end of the text.
fn symbols_of(text: &[u8], from: usize, out: &mut Vec<Symbol>) {
    let mut offs = from;
    let mut index = out.len() as i32;
    while offs < text.len() {
        let n = unicode::len_utf8(text[offs]).min(text.len() - offs);
        offs += n;
        out.push(Symbol {
            prev: index - 1,
            next: if offs == text.len() { -1 } else { index + 1 },
            start: offs - n,
            n,
        });
        index += 1;
    }
}

/// An SPM candidate merge: the highest score first, then the leftmost.
#[derive(Clone, Copy, Debug)]
struct SpmBigram {
    left: i32,
    right: i32,
    score: f32,
    size: usize,
}

impl PartialEq for SpmBigram {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for SpmBigram {}
impl PartialOrd for SpmBigram {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for SpmBigram {
    fn cmp(&self, o: &Self) -> Ordering {
        // std::priority_queue with `l.score < r.score || (== && l.left > r.left)`.
        if self.score < o.score {
            Ordering::Less
        } else if o.score < self.score {
            Ordering::Greater
        } else {
            o.left.cmp(&self.left)
        }
    }
}

/// A BPE candidate merge: the lowest rank first, then the leftmost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BpeBigram {
    left: i32,
    right: i32,
    rank: u32,
    size: usize,
}

impl PartialOrd for BpeBigram {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for BpeBigram {
    fn cmp(&self, o: &Self) -> Ordering {
        o.rank.cmp(&self.rank).then(o.left.cmp(&self.left))
    }
}

impl Vocab {
    /// `llama_tokenize(vocab, text, add_special, parse_special)` on raw
    /// bytes (which need not be valid UTF-8, as in llama.cpp).
    pub fn tokenize_bytes(
        &self,
        text: &[u8],
        add_special: bool,
        parse_special: bool,
    ) -> Result<Vec<u32>, Error> {
        let frags = if text.is_empty() {
            Vec::new()
        } else {
            self.partition(text, parse_special)
        };
        let mut out = Vec::with_capacity(text.len() / 3 + 4);
        match self.kind {
            VocabType::Spm => {
                let mut is_prev_special = true;
                if add_special && self.add_bos {
                    out.push(self.bos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(special_bos_id != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
                for f in frags {
                    match f {
                        Fragment::Raw(off, len) => {
                            let mut raw = Vec::with_capacity(len + 1);
                            if self.add_space_prefix && is_prev_special {
                                raw.push(b' ');
                            }
                            raw.extend_from_slice(&text[off..off + len]);
                            self.spm_tokenize(&escape_whitespace(&raw), &mut out)?;
                            is_prev_special = false;
                        }
                        Fragment::Token(id) => {
                            out.push(id);
                            is_prev_special = true;
                        }
                    }
                }
                if add_special && self.add_eos {
                    out.push(self.eos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(special_eos_id != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
            }
            VocabType::Bpe => {
                if add_special && self.add_bos {
                    out.push(self.bos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(vocab.token_bos() != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
                for f in frags {
                    match f {
                        Fragment::Raw(off, len) => {
                            let raw = &text[off..off + len];
                            let escaped;
                            let raw = if self.escape_whitespaces {
                                escaped = escape_whitespace(raw);
                                &escaped[..]
                            } else {
                                raw
                            };
                            if self.model == "whitespace" {
                                self.whitespace_tokenize(raw, &mut out)?;
                            } else {
                                self.bpe_tokenize(raw, &mut out)?;
                            }
                        }
                        Fragment::Token(id) => out.push(id),
                    }
                }
                if add_special && self.add_eos {
                    out.push(self.eos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(vocab.token_eos() != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
            }
            VocabType::Wpm => {
                // add_special alone decides, whatever add_bos and add_sep say
                if add_special {
                    out.push(self.bos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(special_bos_id != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
                for f in frags {
                    match f {
                        Fragment::Raw(off, len) => {
                            self.wpm_tokenize(&text[off..off + len], &mut out)
                        }
                        Fragment::Token(id) => out.push(id),
                    }
                }
                if add_special {
                    out.push(self.sep.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(special_sep_id != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
            }
            VocabType::Ugm => {
                if add_special && self.add_bos {
                    out.push(self.bos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(special_bos_id != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
                let ugm = self
                    .ugm
                    .as_deref()
                    .expect("a UGM vocabulary has its tokenizer");
                let flags = ugm::Flags {
                    escape_whitespaces: self.escape_whitespaces,
                    treat_whitespace_as_suffix: self.treat_whitespace_as_suffix,
                    add_space_prefix: self.add_space_prefix,
                    remove_extra_whitespaces: self.remove_extra_whitespaces,
                };
                let score_of = |id: u32| {
                    let t = &self.tokens[id as usize];
                    if t.attr.has(TokenAttr::USER_DEFINED) {
                        0.0
                    } else {
                        t.score as f64
                    }
                };
                for f in frags {
                    match f {
                        Fragment::Raw(off, len) => ugm.tokenize(
                            &text[off..off + len],
                            &flags,
                            self.unk,
                            score_of,
                            &mut out,
                        )?,
                        Fragment::Token(id) => out.push(id),
                    }
                }
                if add_special && self.add_eos {
                    out.push(self.eos.ok_or_else(|| {
                        Error::tokenize("GGML_ASSERT(special_eos_id != LLAMA_TOKEN_NULL) failed")
                    })?);
                }
            }
        }
        Ok(out)
    }

    /// `llm_tokenizer_wpm_session::tokenize`: the text normalized and split
    /// into words (`wpm_words`), then per word, with a `▁` in front, the
    /// longest tokens from left to right; a word with a part no token
    /// matches is `[UNK]` whole.
    fn wpm_tokenize(&self, text: &[u8], out: &mut Vec<u32>) {
        for word in self.wpm_words(text) {
            if word.is_empty() {
                continue;
            }
            let mut w = Vec::with_capacity(word.len() + 3);
            w.extend_from_slice("\u{2581}".as_bytes());
            w.extend_from_slice(&word);
            let n = w.len();
            let start = out.len();
            let mut i = 0;
            while i < n {
                let mut matched = false;
                let mut j = n.min(i + self.max_token_len + 1);
                while j > i {
                    if let Some(&id) = self.token_to_id.get(&w[i..j]) {
                        out.push(id);
                        matched = true;
                        i = j - 1;
                        break;
                    }
                    j -= 1;
                }
                if !matched {
                    out.truncate(start);
                    break;
                }
                i += 1;
            }
            if out.len() == start {
                if let Some(unk) = self.unk {
                    out.push(unk);
                }
            }
        }
    }

    /// `llm_tokenizer_wpm_session::preprocess`: NFD (when stripping
    /// accents), whitespace ends a word, NUL, U+FFFD and control characters
    /// dropped, accent marks dropped when stripping, lower-cased when the
    /// normalizer says so, and each punctuation mark, ASCII symbol or
    /// Chinese character a word of its own.
    fn wpm_words(&self, text: &[u8]) -> Vec<Vec<u8>> {
        let mut cpts = unicode::cpts_from_utf8(text);
        if self.strip_accents || self.nfd_keeps_accents {
            for c in cpts.iter_mut() {
                *c = unicode::nfd(*c);
            }
        }
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        for cpt in cpts {
            let flags = Flags::of(cpt);
            if flags.is_whitespace() {
                if !words.last().is_some_and(Vec::is_empty) {
                    words.push(Vec::new());
                }
                continue;
            }
            if cpt == 0 || cpt == 0xFFFD || flags.is_control() {
                continue;
            }
            if self.strip_accents && flags.is_accent_mark() {
                continue;
            }
            let c = if self.lowercase {
                unicode::to_lower(cpt)
            } else {
                cpt
            };
            let mut s = Vec::with_capacity(4);
            // a code point out of range is dropped, as unicode_cpt_to_utf8
            // would throw (it cannot come from decoding)
            if unicode::push_utf8(&mut s, c).is_none() {
                continue;
            }
            if flags.is_punctuation() || (cpt < 0x7F && flags.is_symbol()) || is_chinese_char(cpt) {
                if !words.last().is_some_and(Vec::is_empty) {
                    words.push(Vec::new());
                }
                *words.last_mut().expect("a word") = s;
                words.push(Vec::new());
            } else {
                words.last_mut().expect("a word").extend_from_slice(&s);
            }
        }
        if words.last().is_some_and(Vec::is_empty) {
            words.pop();
        }
        words
    }

    /// `llm_tokenizer_spm_session::tokenize`.
    fn spm_tokenize(&self, text: &[u8], out: &mut Vec<u32>) -> Result<(), Error> {
        let mut symbols = Vec::with_capacity(text.len());
        symbols_of(text, 0, &mut symbols);
        if symbols.is_empty() {
            return Ok(());
        }
        let mut queue = BinaryHeap::new();
        let try_add =
            |symbols: &[Symbol], queue: &mut BinaryHeap<SpmBigram>, left: i32, right: i32| {
                if left == -1 || right == -1 {
                    return;
                }
                let (l, r) = (symbols[left as usize], symbols[right as usize]);
                let piece = &text[l.start..l.start + l.n + r.n];
                if let Some(&tok) = self.token_to_id.get(piece) {
                    queue.push(SpmBigram {
                        left,
                        right,
                        score: self.tokens[tok as usize].score,
                        size: piece.len(),
                    });
                }
            };
        for i in 1..symbols.len() as i32 {
            try_add(&symbols, &mut queue, i - 1, i);
        }
        while let Some(b) = queue.pop() {
            let (l, r) = (symbols[b.left as usize], symbols[b.right as usize]);
            if l.n == 0 || r.n == 0 || l.n + r.n != b.size {
                continue;
            }
            symbols[b.left as usize].n += r.n;
            symbols[b.right as usize].n = 0;
            symbols[b.left as usize].next = r.next;
            if r.next >= 0 {
                symbols[r.next as usize].prev = b.left;
            }
            let lp = symbols[b.left as usize].prev;
            let ln = symbols[b.left as usize].next;
            try_add(&symbols, &mut queue, lp, b.left);
            try_add(&symbols, &mut queue, b.left, ln);
        }
        let mut i = 0i32;
        while i != -1 {
            let s = symbols[i as usize];
            // resegment: a merged symbol is always a token (merges only
            // form token texts); anything else goes out byte by byte.
            let piece = &text[s.start..s.start + s.n];
            if let Some(&tok) = self.token_to_id.get(piece) {
                out.push(tok);
            } else {
                for &b in piece {
                    out.push(
                        self.byte_to_token(b)
                            .ok_or_else(|| Error::tokenize("unordered_map::at"))?,
                    );
                }
            }
            i = s.next;
        }
        Ok(())
    }

    /// `llm_tokenizer_bpe_session::tokenize` on one raw fragment.
    fn bpe_tokenize(&self, text: &[u8], out: &mut Vec<u32>) -> Result<(), Error> {
        let words = split::split(text, &self.splitters, self.byte_encode)
            .map_err(|e| Error::tokenize(e.0))?;
        let mut symbols: Vec<Symbol> = Vec::new();
        let mut queue: BinaryHeap<BpeBigram> = BinaryHeap::new();
        let mut key: Vec<u8> = Vec::with_capacity(64);
        for word in &words {
            symbols.clear();
            queue.clear();
            let mut offset = 0;
            // ignore_merges: a word that is a token is that token. Gemma 4:
            // so is a run of newlines.
            let whole = (self.ignore_merges
                || (self.pre == PreType::Gemma4 && word.iter().all(|&b| b == b'\n')))
                && self.token_to_id.contains_key(&word[..]);
            if whole {
                symbols.push(Symbol {
                    prev: -1,
                    next: -1,
                    start: 0,
                    n: word.len(),
                });
                offset = word.len();
            }
            symbols_of(word, offset, &mut symbols);
            let mut add =
                |symbols: &[Symbol], queue: &mut BinaryHeap<BpeBigram>, left: i32, right: i32| {
                    if left == -1 || right == -1 {
                        return;
                    }
                    let (l, r) = (symbols[left as usize], symbols[right as usize]);
                    key.clear();
                    key.extend_from_slice(&word[l.start..l.start + l.n]);
                    key.push(b' ');
                    key.extend_from_slice(&word[r.start..r.start + r.n]);
                    if let Some(&rank) = self.bpe_ranks.get(&key[..]) {
                        queue.push(BpeBigram {
                            left,
                            right,
                            rank,
                            size: l.n + r.n,
                        });
                    }
                };
            for i in 1..symbols.len() as i32 {
                add(&symbols, &mut queue, i - 1, i);
            }
            while let Some(b) = queue.pop() {
                let (l, r) = (symbols[b.left as usize], symbols[b.right as usize]);
                // A pair is current when both sides are alive and its text
                // is unchanged: sides stay adjacent while alive, so equal
                // length means equal text.
                if l.n == 0 || r.n == 0 || l.n + r.n != b.size {
                    continue;
                }
                symbols[b.left as usize].n += r.n;
                symbols[b.right as usize].n = 0;
                symbols[b.left as usize].next = r.next;
                if r.next >= 0 {
                    symbols[r.next as usize].prev = b.left;
                }
                let lp = symbols[b.left as usize].prev;
                let ln = symbols[b.left as usize].next;
                add(&symbols, &mut queue, lp, b.left);
                add(&symbols, &mut queue, b.left, ln);
            }
            for s in symbols.iter().filter(|s| s.n > 0) {
                let piece = &word[s.start..s.start + s.n];
                if let Some(&tok) = self.token_to_id.get(piece) {
                    out.push(tok);
                    continue;
                }
                for &b in piece {
                    let found = if self.byte_encode {
                        self.token_to_id.get(&[b][..])
                    } else {
                        self.token_to_id.get(format!("<0x{b:02X}>").as_bytes())
                    };
                    if let Some(&t) = found {
                        out.push(t);
                    }
                }
            }
        }
        Ok(())
    }

    /// `llm_tokenizer_whitespace_session::tokenize`: BPE on each run of
    /// non-whitespace, lower-cased when the normalizer says so.
    fn whitespace_tokenize(&self, text: &[u8], out: &mut Vec<u32>) -> Result<(), Error> {
        let mut segment = Vec::new();
        for cpt in unicode::cpts_from_utf8(text) {
            if Flags::of(cpt).is_whitespace() {
                if !segment.is_empty() {
                    self.bpe_tokenize(&segment, out)?;
                    segment.clear();
                }
            } else {
                let c = if self.lowercase {
                    unicode::to_lower(cpt)
                } else {
                    cpt
                };
                unicode::push_utf8(&mut segment, c)
                    .ok_or_else(|| Error::tokenize("invalid codepoint"))?;
            }
        }
        if !segment.is_empty() {
            self.bpe_tokenize(&segment, out)?;
        }
        Ok(())
    }
}

/// `llm_tokenizer_wpm_session::is_chinese_char` (its ranges, one of which
/// starts at U+2B920 as in the Hugging Face code).
fn is_chinese_char(cpt: u32) -> bool {
    matches!(cpt,
        0x04E00..=0x09FFF | 0x03400..=0x04DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B920..=0x2CEAF | 0x0F900..=0x0FAFF | 0x2F800..=0x2FA1F)
}
