//! Token ids of a Hugging Face `tokenizer.json`, as the `tokenizers`
//! library gives them: what transformers' `apply_chat_template(tokenize=True)`
//! (which encodes the rendered prompt with `add_special_tokens=False`),
//! vLLM, SGLang and MLX-LM count with.
//!
//! A thin front over the `tokenizers` crate (the library Python's
//! `tokenizers` package wraps), kept in its own crate because it is large:
//! only the command line and the app's tokenizer worker link it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

/// A loaded `tokenizer.json`.
pub struct HfTokenizer {
    inner: tokenizers::Tokenizer,
}

/// Why a `tokenizer.json` could not be loaded or a text encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl HfTokenizer {
    /// Loads a `tokenizer.json` from its bytes. The error names what is
    /// wrong (`not JSON at line 1 column 2`, or what the library refused).
    pub fn from_json(bytes: &[u8]) -> Result<HfTokenizer, Error> {
        if let Err(e) = serde_json::from_slice::<serde_json::Value>(bytes) {
            return Err(Error(format!("tokenizer.json is not JSON: {e}")));
        }
        tokenizers::Tokenizer::from_bytes(bytes)
            .map(|inner| HfTokenizer { inner })
            .map_err(|e| {
                Error(format!(
                    "tokenizer.json is not a tokenizer the tokenizers library loads: {e}"
                ))
            })
    }

    /// `tokenizer.encode(text, add_special_tokens=...).ids`.
    pub fn encode(&self, text: &str, add_special_tokens: bool) -> Result<Vec<u32>, Error> {
        self.inner
            .encode(text, add_special_tokens)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| Error(format!("cannot encode: {e}")))
    }

    /// The text of a token id, if the vocabulary has it.
    pub fn token(&self, id: u32) -> Option<String> {
        self.inner.id_to_token(id)
    }

    /// The vocabulary's size, added tokens included.
    pub fn vocab_size(&self) -> usize {
        self.inner.get_vocab_size(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_says_what_is_wrong() {
        let e = HfTokenizer::from_json(b"{").err().unwrap();
        assert!(e.0.starts_with("tokenizer.json is not JSON: EOF"), "{e}");
        let e = HfTokenizer::from_json(b"{\"model\": 3}").err().unwrap();
        assert!(e.0.starts_with("tokenizer.json is not a tokenizer"), "{e}");
    }
}
