//! Token pieces and detokenization (`llama_token_to_piece`,
//! `llama_detokenize`).

use crate::unicode;
use crate::vocab::{TokenAttr, Vocab, VocabType};

/// `llama_unescape_whitespace`: `▁` back to a space.
fn unescape_whitespace(text: &[u8]) -> Vec<u8> {
    let mark = "\u{2581}".as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(mark) {
            out.push(b' ');
            i += mark.len();
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

/// `llama_decode_text`: byte-level BPE text back to bytes; a code point that
/// stands for no byte becomes `[UNK_BYTE_0x..<text>]` as in llama.cpp.
fn decode_byte_level(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for cpt in unicode::cpts_from_utf8(text) {
        match unicode::cpt_to_byte(cpt) {
            Some(b) => out.push(b),
            None => {
                let mut utf8 = Vec::new();
                if unicode::push_utf8(&mut utf8, cpt).is_none() {
                    utf8.extend_from_slice("\u{FFFD}".as_bytes());
                }
                out.extend_from_slice(b"[UNK_BYTE_0x");
                for b in utf8 {
                    out.extend_from_slice(format!("{b:02x}").as_bytes());
                }
                out.extend_from_slice(text);
                out.push(b']');
            }
        }
    }
    out
}

/// C `strtol(s, NULL, 16)` on at most two characters, as a byte.
fn strtol_hex(s: &[u8]) -> u8 {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r') {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let mut v: i64 = 0;
    while i < s.len() {
        match (s[i] as char).to_digit(16) {
            Some(d) => v = v * 16 + d as i64,
            None => break,
        }
        i += 1;
    }
    (if neg { -v } else { v }) as u8
}

impl Vocab {
    /// `llama_token_to_piece(vocab, token, buf, len, lstrip, special)`: the
    /// bytes a token stands for. CONTROL and UNKNOWN tokens give nothing
    /// unless `special`; UNUSED and undefined tokens always give nothing;
    /// up to `lstrip` leading spaces are dropped. `None` for an id outside
    /// the vocabulary.
    pub fn token_to_piece(&self, token: u32, lstrip: usize, special: bool) -> Option<Vec<u8>> {
        let data = self.tokens.get(token as usize)?;
        let attr = data.attr;
        let attr_special = TokenAttr::UNKNOWN | TokenAttr::CONTROL;
        if !special && attr.has(attr_special) {
            return Some(Vec::new());
        }
        let mut piece = self.raw_piece(token);
        let strip = piece
            .iter()
            .take(lstrip)
            .take_while(|&&b| b == b' ')
            .count();
        piece.drain(..strip);
        Some(piece)
    }

    /// The cached piece of a token (`token_to_piece_for_cache(id, true)`).
    fn raw_piece(&self, token: u32) -> Vec<u8> {
        let data = &self.tokens[token as usize];
        let attr = data.attr;
        let text = &data.text[..];
        if attr.has(TokenAttr::UNKNOWN | TokenAttr::CONTROL | TokenAttr::USER_DEFINED) {
            return text.to_vec();
        }
        if attr.has(TokenAttr::NORMAL) {
            return match self.kind {
                VocabType::Spm | VocabType::Wpm | VocabType::Ugm => unescape_whitespace(text),
                VocabType::Bpe if self.escape_whitespaces => unescape_whitespace(text),
                VocabType::Bpe => decode_byte_level(text),
            };
        }
        if attr.has(TokenAttr::BYTE) {
            let hex = text.get(3..text.len().min(5)).unwrap_or(&[]);
            return vec![strtol_hex(hex)];
        }
        Vec::new()
    }

    /// `llama_detokenize(vocab, tokens, n, text, max, remove_special,
    /// unparse_special)`: the pieces joined, the first one losing a leading
    /// space when the vocabulary adds a space prefix, then llama.cpp's
    /// `clean_spaces` rules for vocabularies that set it. With
    /// `remove_special`, a leading BOS and trailing EOS the vocabulary adds
    /// are dropped. The result is bytes: pieces can split UTF-8 sequences.
    pub fn detokenize(
        &self,
        tokens: &[u32],
        remove_special: bool,
        unparse_special: bool,
    ) -> Vec<u8> {
        let mut toks = tokens;
        let mut remove_space = self.add_space_prefix;
        if remove_special && self.add_bos && !toks.is_empty() && Some(toks[0]) == self.bos {
            remove_space = false;
            toks = &toks[1..];
        }
        if remove_special
            && self.add_eos
            && !toks.is_empty()
            && Some(toks[toks.len() - 1]) == self.eos
        {
            toks = &toks[..toks.len() - 1];
        }
        let mut text = Vec::new();
        for &t in toks {
            if let Some(p) = self.token_to_piece(t, remove_space as usize, unparse_special) {
                text.extend_from_slice(&p);
            }
            remove_space = false;
        }
        if self.clean_spaces {
            clean_spaces(&mut text);
        }
        text
    }

    /// `llama_vocab::detokenize(tokens, special)` (what `common_detokenize`
    /// and llama-server use), as text with invalid UTF-8 replaced.
    pub fn detokenize_lossy(&self, tokens: &[u32], special: bool) -> String {
        String::from_utf8_lossy(&self.detokenize(tokens, false, special)).into_owned()
    }
}

/// llama.cpp's three `clean_spaces` passes over the detokenized bytes.
fn clean_spaces(text: &mut Vec<u8>) {
    // " ?", " !", " .", " ," lose the space.
    let total1 = text.len();
    let mut total = if total1 > 0 { 1 } else { 0 };
    for i in 1..total1 {
        let x = text[i];
        if text[i - 1] == b' ' && matches!(x, b'?' | b'!' | b'.' | b',') {
            total -= 1;
        }
        text[total] = x;
        total += 1;
    }
    text.truncate(total);

    // " ' " loses both spaces.
    let total2 = text.len();
    let mut total = if total2 > 0 { 1 } else { 0 };
    let mut i = 1;
    while i < total2 {
        let x = text[i];
        if x == b'\'' && i + 1 < total2 && text[i - 1] == b' ' && text[i + 1] == b' ' {
            total -= 1;
            i += 1;
            text[i] = 0;
        }
        text[total] = x;
        total += 1;
        i += 1;
    }
    text.truncate(total);

    // " 's", " 'm", " 're", " 've" lose the space.
    let total3 = text.len();
    let mut total = if total3 > 0 { 1 } else { 0 };
    for i in 1..total3 {
        let x = text[i];
        if text[i - 1] == b' ' && x == b'\'' && i + 1 < total3 {
            let x1 = text[i + 1];
            if x1 == b't' || x1 == b'd' {
                // kept
            } else if x1 == b's' || x1 == b'm' {
                total -= 1;
            } else if i + 2 < total3 {
                let x2 = text[i + 2];
                if x2 == b'e' && (x1 == b'r' || x1 == b'v') {
                    total -= 1;
                }
            }
        }
        text[total] = x;
        total += 1;
    }
    text.truncate(total);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(s: &str) -> String {
        let mut v = s.as_bytes().to_vec();
        clean_spaces(&mut v);
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn clean_spaces_passes() {
        assert_eq!(clean("Hello , world !"), "Hello, world!");
        assert_eq!(clean("a ' b"), "a'b");
        assert_eq!(
            clean("it 's I 'm we 're they 've I 'd don 't"),
            "it's I'm we're they've I 'd don 't"
        );
    }

    #[test]
    fn hex_bytes() {
        assert_eq!(strtol_hex(b"0A"), 10);
        assert_eq!(strtol_hex(b"FF"), 255);
        assert_eq!(strtol_hex(b"G1"), 0);
    }
}
