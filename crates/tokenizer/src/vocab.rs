//! The vocabulary, built from GGUF metadata as `llama_vocab::impl::load`
//! builds it: token texts, scores and attributes, merges, special-token
//! ids, the flags (`add_bos`, `add_space_prefix`, ...), the attribute fixes
//! llama.cpp applies by token text, and the special-token cache.

use std::collections::BTreeSet;
use std::sync::Arc;

use gguf_meta::{Array, GgufFile, Value};

use crate::compat::{self, Overlay};
use crate::error::{Error, ErrorKind};
use crate::pre::{self, PreType};
use crate::sort::std_sort;
use crate::special::SpecialTrie;
use crate::split::Splitter;
use crate::ugm::{self, Ugm};
use rustc_hash::FxHashMap;

/// Token attributes (`llama_token_attr`), a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TokenAttr(pub u32);

#[allow(missing_docs)]
impl TokenAttr {
    pub const UNDEFINED: TokenAttr = TokenAttr(0);
    pub const UNKNOWN: TokenAttr = TokenAttr(1 << 0);
    pub const UNUSED: TokenAttr = TokenAttr(1 << 1);
    pub const NORMAL: TokenAttr = TokenAttr(1 << 2);
    pub const CONTROL: TokenAttr = TokenAttr(1 << 3);
    pub const USER_DEFINED: TokenAttr = TokenAttr(1 << 4);
    pub const BYTE: TokenAttr = TokenAttr(1 << 5);
    pub const NORMALIZED: TokenAttr = TokenAttr(1 << 6);
    pub const LSTRIP: TokenAttr = TokenAttr(1 << 7);
    pub const RSTRIP: TokenAttr = TokenAttr(1 << 8);
    pub const SINGLE_WORD: TokenAttr = TokenAttr(1 << 9);
}

impl TokenAttr {
    /// Whether any bit of `other` is set.
    pub fn has(self, other: TokenAttr) -> bool {
        self.0 & other.0 != 0
    }

    /// The attribute a GGUF `tokenizer.ggml.token_type` value gives.
    pub fn from_token_type(t: i32) -> TokenAttr {
        match t {
            1 => TokenAttr::NORMAL,
            2 => TokenAttr::UNKNOWN,
            3 => TokenAttr::CONTROL,
            4 => TokenAttr::USER_DEFINED,
            5 => TokenAttr::UNUSED,
            6 => TokenAttr::BYTE,
            _ => TokenAttr::UNDEFINED,
        }
    }

    /// Names of the set bits, like `CONTROL|UNUSED`, or `UNDEFINED`.
    pub fn names(self) -> String {
        const NAMES: [&str; 10] = [
            "UNKNOWN",
            "UNUSED",
            "NORMAL",
            "CONTROL",
            "USER_DEFINED",
            "BYTE",
            "NORMALIZED",
            "LSTRIP",
            "RSTRIP",
            "SINGLE_WORD",
        ];
        let v: Vec<&str> = (0..10)
            .filter(|b| self.0 & (1 << b) != 0)
            .map(|b| NAMES[b])
            .collect();
        if v.is_empty() {
            "UNDEFINED".into()
        } else {
            v.join("|")
        }
    }
}

impl std::ops::BitOr for TokenAttr {
    type Output = TokenAttr;
    fn bitor(self, rhs: TokenAttr) -> TokenAttr {
        TokenAttr(self.0 | rhs.0)
    }
}

/// How a vocabulary is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadOptions {
    /// Apply Ollama's `llama/compat` metadata rewrites first, as Ollama's
    /// llama-server does for every model it runs: for files published in
    /// Ollama's registry they change the tokenizer model (gemma4, gemma3n),
    /// the pre-tokenizer (gpt-oss, Llama 3 files without one, lfm2,
    /// mistral3, glm4moelite, glm-ocr) or truncate the vocabulary to the
    /// embedding rows (gemma3, gemma3n). Files that carry none of the
    /// markers of Ollama's converter are left as they are.
    pub ollama_compat: bool,
    /// The llama.cpp build whose loader and tokenizer to follow.
    pub build: changes::Build,
}

impl Default for LoadOptions {
    /// No compat rewrites, the newest build.
    fn default() -> LoadOptions {
        LoadOptions {
            ollama_compat: false,
            build: changes::Build::NEWEST,
        }
    }
}

impl LoadOptions {
    /// Options with Ollama's compat rewrites on or off (the newest build).
    pub fn ollama(ollama_compat: bool) -> LoadOptions {
        LoadOptions {
            ollama_compat,
            ..LoadOptions::default()
        }
    }

    /// These options for another llama.cpp build.
    pub fn with_build(self, build: changes::Build) -> LoadOptions {
        LoadOptions { build, ..self }
    }
}

/// The tokenizer family (`llama_vocab_type`) this crate implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VocabType {
    /// SentencePiece-style, merged by score (`tokenizer.ggml.model` `llama`).
    Spm,
    /// Byte-pair encoding with a pre-tokenizer (`gpt2`, `whitespace`,
    /// `gemma4`).
    Bpe,
    /// BERT's WordPiece: greedy longest match per word (`bert`).
    Wpm,
    /// Unigram with SentencePiece's precompiled normalization, best path
    /// by score (`t5`).
    Ugm,
}

#[derive(Clone, Debug)]
pub(crate) struct TokenData {
    pub text: Box<[u8]>,
    pub score: f32,
    pub attr: TokenAttr,
}

/// A vocabulary and the tokenizer llama.cpp builds for it.
///
/// Built from a GGUF file's metadata ([`Vocab::from_gguf`]); tensor data is
/// never needed. Everything llama.cpp decides at load time (defaults per
/// type, GGUF overrides, attributes fixed by token text, the special-token
/// cache order) is decided here the same way.
#[derive(Clone, Debug)]
pub struct Vocab {
    pub(crate) kind: VocabType,
    pub(crate) model: String,
    pub(crate) pre_name: String,
    pub(crate) pre: PreType,
    pub(crate) tokens: Vec<TokenData>,
    pub(crate) token_to_id: FxHashMap<Box<[u8]>, u32>,
    /// `"left right"` → rank (first occurrence wins, as `emplace`).
    pub(crate) bpe_ranks: FxHashMap<Box<[u8]>, u32>,
    pub(crate) splitters: Vec<Splitter>,
    pub(crate) byte_encode: bool,

    pub(crate) bos: Option<u32>,
    pub(crate) eos: Option<u32>,
    pub(crate) eot: Option<u32>,
    pub(crate) eom: Option<u32>,
    pub(crate) unk: Option<u32>,
    pub(crate) sep: Option<u32>,
    pub(crate) pad: Option<u32>,
    pub(crate) mask: Option<u32>,
    pub(crate) fim: [Option<u32>; 6],
    pub(crate) linefeed: Option<u32>,

    pub(crate) add_space_prefix: bool,
    pub(crate) add_bos: bool,
    pub(crate) add_eos: bool,
    pub(crate) add_sep: bool,
    pub(crate) ignore_merges: bool,
    pub(crate) clean_spaces: bool,
    pub(crate) remove_extra_whitespaces: bool,
    pub(crate) escape_whitespaces: bool,
    pub(crate) lowercase: bool,
    /// The BERT normalizer's `strip_accents` (NFD, accent marks dropped).
    pub(crate) strip_accents: bool,
    /// WPM text NFD-decomposed with its accent marks kept (before
    /// `wpm_strip_accents`).
    pub(crate) nfd_keeps_accents: bool,
    /// The longest token text, in bytes (WPM's longest-match bound).
    pub(crate) max_token_len: usize,

    pub(crate) eog: BTreeSet<u32>,
    /// CONTROL, USER_DEFINED and UNKNOWN tokens, longest text first, in
    /// libstdc++ `std::sort`'s order.
    pub(crate) cache_special: Vec<u32>,
    pub(crate) special_trie: SpecialTrie,
    pub(crate) compat_applied: Vec<&'static str>,
    pub(crate) compat_chat_template: Option<&'static str>,
    /// The llama.cpp build the vocabulary was loaded as, and the rows of
    /// its change table the load consulted.
    pub(crate) build: changes::Build,
    pub(crate) build_rules_applied: Vec<&'static changes::Change>,
    /// Never set from a GGUF key in llama.cpp (always false).
    pub(crate) treat_whitespace_as_suffix: bool,
    /// The UGM tokenizer (for [`VocabType::Ugm`]).
    pub(crate) ugm: Option<Arc<Ugm>>,
}

/// GGUF type names as ggml's `gguf_type_name` prints them.
fn gguf_type_name(v: &Value) -> &'static str {
    match v {
        Value::U8(_) => "u8",
        Value::I8(_) => "i8",
        Value::U16(_) => "u16",
        Value::I16(_) => "i16",
        Value::U32(_) => "u32",
        Value::I32(_) => "i32",
        Value::F32(_) => "f32",
        Value::Bool(_) => "bool",
        Value::String(_) => "str",
        Value::Array(_) => "arr",
        Value::I64(_) => "i64",
        Value::U64(_) => "u64",
        Value::F64(_) => "f64",
    }
}

fn wrong_type(key: &str, v: &Value, expected: &str) -> Error {
    Error::load(format!(
        "key {key} has wrong type {} but expected type {expected}",
        gguf_type_name(v)
    ))
}

/// Typed key access with `llama_model_loader::get_key`'s strictness, over
/// the file's metadata and the Ollama compat overlay (if any).
struct Meta<'a> {
    file: &'a GgufFile,
    ov: Overlay,
}

impl Meta<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.file.get(key)
    }

    fn string(&self, key: &str) -> Result<Option<Vec<u8>>, Error> {
        if let Some(v) = self.ov.string(key) {
            return Ok(Some(v.to_vec()));
        }
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_bytes().to_vec())),
            Some(v) => Err(wrong_type(key, v, "str")),
        }
    }

    fn boolean(&self, key: &str) -> Result<Option<bool>, Error> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(wrong_type(key, v, "bool")),
        }
    }

    fn u32(&self, key: &str) -> Result<Option<u32>, Error> {
        if let Some(v) = self.ov.u32(key) {
            return Ok(Some(v));
        }
        match self.get(key) {
            None => Ok(None),
            Some(Value::U32(n)) => Ok(Some(*n)),
            Some(v) => Err(wrong_type(key, v, "u32")),
        }
    }
}

/// Text C strings keep: a GGUF string read through `const char *` ends at
/// its first NUL.
fn c_str(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == 0) {
        Some(i) => &bytes[..i],
        None => bytes,
    }
}

fn t_bytes(list: &[gguf_meta::GgufString], i: usize) -> &[u8] {
    list[i].as_bytes()
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const EOT_NAMES: &[&str] = &[
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "<|end_of_text|>",
    "<EOT>",
    "_<EOT>",
    "[EOT]",
    "<｜end▁of▁sentence｜>",
    "<end_of_utterance>",
];
const EOM_NAMES: &[&str] = &["<|eom_id|>"];
const FIM_PRE_NAMES: &[&str] = &[
    "<|fim_prefix|>",
    "<fim-prefix>",
    "<fim_prefix>",
    "<｜fim▁begin｜>",
    "<PRE>",
    "▁<PRE>",
    "<|code_prefix|>",
    "<|prefix|>",
];
const FIM_SUF_NAMES: &[&str] = &[
    "<|fim_suffix|>",
    "<fim-suffix>",
    "<fim_suffix>",
    "<｜fim▁hole｜>",
    "<SUF>",
    "▁<SUF>",
    "<|code_suffix|>",
    "<|suffix|>",
];
const FIM_MID_NAMES: &[&str] = &[
    "<|fim_middle|>",
    "<fim-middle>",
    "<fim_middle>",
    "<｜fim▁end｜>",
    "<MID>",
    "▁<MID>",
    "<|code_middle|>",
    "<|middle|>",
];
const FIM_PAD_NAMES: &[&str] = &["<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"];
const FIM_REP_NAMES: &[&str] = &[
    "<|fim_repo|>",
    "<|repo_name|>",
    "<fim-repo>",
    "<REPO>",
    "<reponame>",
];
const FIM_SEP_NAMES: &[&str] = &["<|file_sep|>"];
const EOG_NAMES: &[&str] = &[
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|flush|>",
    "<|calls|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "</s>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "[EOT]",
    "[EOS]",
    "<|end_of_text|>",
    "<end_of_utterance>",
    "<eos>",
    "<turn|>",
    "<|tool_response>",
    "<｜end▁of▁sentence｜>",
    "[e~[",
];

impl Vocab {
    /// Parses a whole GGUF file held in memory (only its metadata is read)
    /// and builds the vocabulary.
    pub fn from_gguf_bytes(bytes: &[u8]) -> Result<Vocab, Error> {
        let file =
            gguf_meta::parse(bytes).map_err(|e| Error::new(ErrorKind::Gguf, e.to_string()))?;
        Vocab::from_gguf(&file)
    }

    /// Builds the vocabulary from parsed GGUF metadata, as llama.cpp's
    /// `llama_vocab::impl::load` does.
    pub fn from_gguf(file: &GgufFile) -> Result<Vocab, Error> {
        Vocab::from_gguf_with(file, LoadOptions::default())
    }

    /// Builds the vocabulary as Ollama's llama-server does: Ollama's
    /// `llama/compat` metadata rewrites for files published in its registry
    /// first (see [`LoadOptions::ollama_compat`]), then llama.cpp's loader.
    pub fn from_gguf_ollama(file: &GgufFile) -> Result<Vocab, Error> {
        Vocab::from_gguf_with(file, LoadOptions::ollama(true))
    }

    /// Builds the vocabulary with options.
    pub fn from_gguf_with(file: &GgufFile, options: LoadOptions) -> Result<Vocab, Error> {
        let rules = changes::Rules::new(options.build);
        let ov = if options.ollama_compat {
            compat::ollama_overlay(file)
        } else {
            Overlay::default()
        };
        let meta = Meta { file, ov };
        let model_bytes = meta
            .string("tokenizer.ggml.model")?
            .ok_or_else(|| Error::load("key not found in model: tokenizer.ggml.model"))?;
        let model = lossy(c_str(&model_bytes));
        let mut pre_name = lossy(c_str(
            &meta.string("tokenizer.ggml.pre")?.unwrap_or_default(),
        ));
        meta.u32("tokenizer.ggml.token_type_count")?;

        let unsupported = |what: &str| {
            Error::new(
                ErrorKind::Unsupported,
                format!("tokenizer model '{what}' is not supported"),
            )
        };

        // Vocabulary type and default special tokens (bos, eos, unk, sep,
        // pad, mask).
        let (kind, defaults): (VocabType, [Option<u32>; 6]) = match model.as_str() {
            "llama" => (
                VocabType::Spm,
                [Some(1), Some(2), Some(0), None, None, None],
            ),
            "gpt2" | "whitespace" => (VocabType::Bpe, [Some(11), Some(11), None, None, None, None]),
            "gemma4" => {
                pre_name = "gemma4".into();
                (VocabType::Bpe, [None; 6])
            }
            "bert" => (
                VocabType::Wpm,
                [Some(101), None, Some(100), Some(102), Some(0), Some(103)],
            ),
            "t5" => (
                VocabType::Ugm,
                [None, Some(1), Some(2), None, Some(0), None],
            ),
            "no_vocab" | "none" | "rwkv" | "test" | "plamo2" | "hybriddna" => {
                return Err(unsupported(&model));
            }
            other => return Err(Error::load(format!("unknown tokenizer: '{other}'"))),
        };
        let [mut bos, eos, unk, sep, pad, mask] = defaults;
        let charsmap: Option<Vec<u8>> = if kind == VocabType::Ugm {
            let key = "tokenizer.ggml.precompiled_charsmap";
            match meta.get(key) {
                None => None,
                Some(_) if meta.ov.charsmap.is_some() => meta.ov.charsmap.clone(),
                Some(Value::Array(Array::U8(b))) => Some(b.clone()),
                Some(Value::Array(Array::I8(b))) => Some(b.iter().map(|&x| x as u8).collect()),
                Some(_) => return Err(Error::load(format!("invalid gguf type for {key}"))),
            }
        } else {
            None
        };
        if let Some(m) = &charsmap {
            ugm::check_charsmap(m)?;
        }
        let read_merges = kind == VocabType::Bpe;

        let mut bpe_ranks: FxHashMap<Box<[u8]>, u32> = FxHashMap::default();
        if read_merges {
            match meta.get("tokenizer.ggml.merges") {
                None => {
                    if pre_name != "kimi-k2" {
                        return Err(Error::load("cannot find tokenizer merges in model file"));
                    }
                }
                Some(Value::Array(Array::String(merges))) => {
                    bpe_ranks.reserve(merges.len());
                    for (i, m) in merges.iter().enumerate() {
                        let word = c_str(m.as_bytes());
                        // llama.cpp splits at the first space after index 0
                        // and looks pairs up as (left, right) without
                        // spaces, so "left right" is the key; a line with no
                        // such space is the pair ("", ""), never found.
                        let key: Vec<u8> = if word.iter().skip(1).any(|&b| b == b' ') {
                            word.to_vec()
                        } else {
                            b" ".to_vec()
                        };
                        bpe_ranks.entry(key.into_boxed_slice()).or_insert(i as u32);
                    }
                }
                Some(_) => {
                    return Err(Error::load("invalid gguf type for tokenizer.ggml.merges"));
                }
            }
        }

        let mut add_space_prefix;
        let mut add_bos = false;
        let mut add_eos = false;
        let mut add_sep = false;
        let mut ignore_merges = false;
        let mut clean_spaces;
        let mut remove_extra_whitespaces = false;
        let mut escape_whitespaces = true;
        let mut lowercase = true;
        let pre_type;
        match kind {
            VocabType::Bpe => {
                add_space_prefix = false;
                escape_whitespaces = false;
                clean_spaces = true;
                // pre-tokenizers that older builds do not know
                let row = match pre_name.as_str() {
                    "hy_v4" => Some(&changes::llamacpp::NEW_PRETOKENIZER_HY_V4),
                    "spark2_5" => Some(&changes::llamacpp::NEW_PRETOKENIZER_SPARK2_5),
                    "ufakzeka" => Some(&changes::llamacpp::NEW_PRETOKENIZER_UFAKZEKA),
                    "glm5" => Some(&changes::llamacpp::NEW_PRETOKENIZER_GLM5),
                    "cohere2moe" => Some(&changes::llamacpp::NEW_PRETOKENIZER_COHERE2MOE),
                    "mellum2" => Some(&changes::llamacpp::NEW_PRETOKENIZER_MELLUM2),
                    "granite-embed-multi-311m" | "granite-embed-multi-97m" => {
                        Some(&changes::llamacpp::NEW_PRETOKENIZER_GRANITE_EMBED_MULTI)
                    }
                    _ => None,
                };
                let known = pre::from_name(&pre_name).filter(|_| row.is_none_or(|r| rules.on(r)));
                let Some((t, mut s)) = known else {
                    return Err(Error::load(format!(
                        "unknown pre-tokenizer type: '{pre_name}'"
                    )));
                };
                // before `glm4_ignore_merges`, glm4 merges like chatglm-bpe
                if pre_name == "glm4" && !rules.on(&changes::llamacpp::GLM4_IGNORE_MERGES) {
                    s.ignore_merges = false;
                }
                pre_type = t;
                if s.clean_spaces_off {
                    clean_spaces = false;
                }
                if s.ignore_merges {
                    ignore_merges = true;
                }
                if s.add_bos {
                    add_bos = true;
                }
                if s.add_sep {
                    add_sep = true;
                }
                if s.bos_null {
                    bos = None;
                }
                if s.escape_whitespaces {
                    escape_whitespaces = true;
                }
                // before `wpm_normalizer_lowercase` the whitespace
                // pre-tokenizer lower-cases unless the GGUF says not to
                if s.lowercase_off && rules.on(&changes::llamacpp::WPM_NORMALIZER_LOWERCASE) {
                    lowercase = false;
                }
            }
            VocabType::Spm => {
                pre_type = PreType::Default;
                add_space_prefix = true;
                clean_spaces = false;
                add_bos = true;
                add_eos = false;
            }
            VocabType::Wpm => {
                pre_type = PreType::Default;
                add_space_prefix = false;
                clean_spaces = true;
                add_bos = true;
                add_eos = false;
                add_sep = true;
            }
            VocabType::Ugm => {
                pre_type = PreType::Default;
                add_space_prefix = false;
                clean_spaces = false;
                add_bos = false;
                add_eos = true;
            }
        }
        if let Some(v) = meta.boolean("tokenizer.ggml.add_space_prefix")? {
            add_space_prefix = v;
        }
        if let Some(v) = meta.boolean("tokenizer.ggml.remove_extra_whitespaces")? {
            remove_extra_whitespaces = v;
        }

        // Tokens, scores, types.
        let token_list = match meta.get("tokenizer.ggml.tokens") {
            None => return Err(Error::load("cannot find tokenizer vocab in model file")),
            Some(Value::Array(Array::String(t))) => match meta.ov.vocab_limit {
                Some(n) if n < t.len() => &t[..n],
                _ => &t[..],
            },
            Some(_) => return Err(Error::load("invalid gguf type for tokenizer.ggml.tokens")),
        };
        let n_tokens = token_list.len();
        let scores: Option<Vec<f32>> = match meta.get("tokenizer.ggml.scores") {
            None => None,
            Some(Value::Array(Array::F32(s))) => Some(s.clone()),
            Some(Value::Array(Array::I32(s))) => Some(s.iter().map(|&x| x as f32).collect()),
            Some(_) => return Err(Error::load("invalid gguf type for tokenizer.ggml.scores")),
        };
        if let Some(s) = &scores {
            if s.len() < n_tokens {
                return Err(Error::load(format!(
                    "Index out of array bounds for scores ({} < {n_tokens})",
                    s.len()
                )));
            }
        }
        let toktypes: Option<&[i32]> = match meta.get("tokenizer.ggml.token_type") {
            None => None,
            Some(Value::Array(Array::I32(t))) => match meta.ov.vocab_limit {
                Some(n) if n < t.len() => Some(&t[..n]),
                _ => Some(&t[..]),
            },
            Some(_) => {
                return Err(Error::load(
                    "invalid gguf type for tokenizer.ggml.token_type",
                ));
            }
        };
        if let Some(t) = toktypes {
            if t.len() < n_tokens {
                return Err(Error::load(format!(
                    "Index out of array bounds for toktypes ({} < {n_tokens})",
                    t.len()
                )));
            }
        }

        let mut max_token_len = 0usize;
        let mut tokens = Vec::with_capacity(n_tokens);
        let mut token_to_id: FxHashMap<Box<[u8]>, u32> = FxHashMap::default();
        token_to_id.reserve(n_tokens);
        for (i, t) in token_list.iter().enumerate() {
            let mut text: Box<[u8]> = c_str(t.as_bytes()).into();
            if text.is_empty() {
                text = format!("[EMPTY_{i}]").into_bytes().into_boxed_slice();
            }
            max_token_len = max_token_len.max(text.len());
            token_to_id.insert(text.clone(), i as u32);
            let attr = match toktypes {
                Some(t) => {
                    let raw = c_str(t_bytes(token_list, i));
                    if meta.ov.gemma3n_types
                        && raw.len() == 6
                        && raw.starts_with(b"<0x")
                        && raw[5] == b'>'
                    {
                        TokenAttr::BYTE
                    } else if meta.ov.gemma3n_types && raw.starts_with(b"<unused") {
                        TokenAttr::NORMAL
                    } else {
                        TokenAttr::from_token_type(t[i])
                    }
                }
                None => TokenAttr::NORMAL,
            };
            tokens.push(TokenData {
                text,
                score: scores.as_ref().map_or(0.0, |s| s[i]),
                attr,
            });
        }
        if token_to_id.len() != tokens.len() {
            return Err(Error::load(
                "GGML_ASSERT(id_to_token.size() == token_to_id.size()) failed: duplicate token texts",
            ));
        }

        let (patterns, byte_encode) = pre::patterns(pre_type);
        let splitters = if kind == VocabType::Bpe {
            patterns
                .iter()
                .map(|p| Splitter::with_rules(p, &rules).map_err(|e| Error::load(e.0)))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };

        let mut v = Vocab {
            kind,
            model,
            pre_name,
            pre: pre_type,
            tokens,
            token_to_id,
            bpe_ranks,
            splitters,
            byte_encode,
            bos,
            eos,
            eot: None,
            eom: None,
            unk,
            sep,
            pad,
            mask,
            fim: [None; 6],
            linefeed: None,
            add_space_prefix,
            add_bos,
            add_eos,
            add_sep,
            ignore_merges,
            clean_spaces,
            remove_extra_whitespaces,
            escape_whitespaces,
            lowercase,
            strip_accents: true,
            nfd_keeps_accents: false,
            max_token_len,
            eog: BTreeSet::new(),
            cache_special: Vec::new(),
            special_trie: SpecialTrie::default(),
            compat_applied: meta.ov.applied.clone(),
            compat_chat_template: meta.ov.chat_template,
            build: options.build,
            build_rules_applied: Vec::new(),
            treat_whitespace_as_suffix: false,
            ugm: None,
        };
        // llm_tokenizer_ugm is built from the attributes the token types
        // give, before special tokens are marked by their text.
        if v.kind == VocabType::Ugm {
            v.ugm = Some(Arc::new(Ugm::new(charsmap.as_deref(), &v.tokens)));
        }

        // The newline token (computed before special tokens are known, with
        // an empty special cache, as llama.cpp does).
        v.linefeed = match v.kind {
            VocabType::Spm => v.byte_to_token(b'\n').or(v.pad),
            VocabType::Wpm => v.pad,
            VocabType::Bpe | VocabType::Ugm => match v.tokenize_bytes(b"\n", false, false) {
                Ok(ids) if !ids.is_empty() => Some(ids[0]),
                Ok(_) => v.pad,
                Err(e) => return Err(Error::load(e.message().to_string())),
            },
        };

        v.read_special_ids(&meta)?;

        if let Some(b) = meta.boolean("tokenizer.ggml.add_bos_token")? {
            v.add_bos = b;
        }
        if let Some(b) = meta.boolean("tokenizer.ggml.add_eos_token")? {
            v.add_eos = b;
        }
        if let Some(b) = meta.boolean("tokenizer.ggml.add_sep_token")? {
            v.add_sep = b;
        }
        if v.pre == PreType::Gemma4 && !v.add_bos {
            v.add_bos = true;
        }
        // BertNormalizer options: strip_accents follows lowercase unless
        // given
        if let Some(b) = meta.boolean("tokenizer.ggml.normalizer.lowercase")? {
            v.lowercase = b;
        }
        v.strip_accents = v.lowercase;
        if let Some(b) = meta.boolean("tokenizer.ggml.normalizer.strip_accents")? {
            v.strip_accents = b;
        }
        if v.kind == VocabType::Wpm {
            // before `wpm_normalizer_lowercase` WPM always lower-cases
            // (noted where the GGUF says not to)
            if !v.lowercase && !rules.on(&changes::llamacpp::WPM_NORMALIZER_LOWERCASE) {
                v.lowercase = true;
            }
            // before `wpm_strip_accents` WPM text is always NFD-decomposed
            // and its accent marks kept
            if !rules.on(&changes::llamacpp::WPM_STRIP_ACCENTS) {
                v.strip_accents = false;
                v.nfd_keeps_accents = true;
            }
        }

        v.detect_special_by_text(&rules);
        v.build_special_cache();
        v.per_token_attrs(&meta)?;
        v.build_rules_applied = rules.applied();
        Ok(v)
    }

    fn read_special_ids(&mut self, meta: &Meta<'_>) -> Result<(), Error> {
        let n = self.tokens.len() as u64;
        let keys: [(&str, usize); 17] = [
            ("tokenizer.ggml.bos_token_id", 0),
            ("tokenizer.ggml.eos_token_id", 1),
            ("tokenizer.ggml.eot_token_id", 2),
            ("tokenizer.ggml.eom_token_id", 3),
            ("tokenizer.ggml.unknown_token_id", 4),
            ("tokenizer.ggml.seperator_token_id", 5),
            ("tokenizer.ggml.padding_token_id", 6),
            ("tokenizer.ggml.mask_token_id", 7),
            ("tokenizer.ggml.fim_pre_token_id", 8),
            ("tokenizer.ggml.fim_suf_token_id", 9),
            ("tokenizer.ggml.fim_mid_token_id", 10),
            ("tokenizer.ggml.fim_pad_token_id", 11),
            ("tokenizer.ggml.fim_rep_token_id", 12),
            ("tokenizer.ggml.fim_sep_token_id", 13),
            ("tokenizer.ggml.prefix_token_id", 8),
            ("tokenizer.ggml.suffix_token_id", 9),
            ("tokenizer.ggml.middle_token_id", 10),
        ];
        for (key, slot) in keys {
            let id = self.special_slot(slot);
            if id.is_some_and(|i| i as u64 >= n) {
                *id = None;
            }
            if let Some(new_id) = meta.u32(key)? {
                if (new_id as u64) < n {
                    *self.special_slot(slot) = Some(new_id);
                }
            }
        }
        Ok(())
    }

    fn special_slot(&mut self, slot: usize) -> &mut Option<u32> {
        match slot {
            0 => &mut self.bos,
            1 => &mut self.eos,
            2 => &mut self.eot,
            3 => &mut self.eom,
            4 => &mut self.unk,
            5 => &mut self.sep,
            6 => &mut self.pad,
            7 => &mut self.mask,
            s => &mut self.fim[s - 8],
        }
    }

    /// The attribute fixes llama.cpp applies by token text, walking its
    /// `token_to_id` map in libstdc++'s iteration order: the first EOT, EOM
    /// or FIM text found claims the role and becomes CONTROL.
    fn detect_special_by_text(&mut self, rules: &changes::Rules) {
        let order: Vec<u32> = {
            let keys: Vec<&[u8]> = self.tokens.iter().map(|t| &*t.text).collect();
            crate::unordered::iteration_order(&keys)
        };
        let is = |v: &Vocab, id: u32, names: &[&str]| {
            names
                .iter()
                .any(|n| *v.tokens[id as usize].text == *n.as_bytes())
        };
        for &id in &order {
            // slots: eot, eom, fim pre/suf/mid/pad/rep/sep
            let roles: [(&[&str], usize); 8] = [
                (EOT_NAMES, 2),
                (EOM_NAMES, 3),
                (FIM_PRE_NAMES, 8),
                (FIM_SUF_NAMES, 9),
                (FIM_MID_NAMES, 10),
                (FIM_PAD_NAMES, 11),
                (FIM_REP_NAMES, 12),
                (FIM_SEP_NAMES, 13),
            ];
            for (names, slot) in roles {
                if self.special_slot(slot).is_none() && is(self, id, names) {
                    *self.special_slot(slot) = Some(id);
                    let a = &mut self.tokens[id as usize].attr;
                    *a = *a | TokenAttr::CONTROL;
                }
            }
        }

        // Control tokens named "unused" are unused.
        for t in self.tokens.iter_mut() {
            if t.attr.has(TokenAttr::CONTROL)
                && !t.attr.has(TokenAttr::UNUSED)
                && t.text.windows(6).any(|w| w == b"unused")
            {
                t.attr = t.attr | TokenAttr::UNUSED;
            }
        }

        // End-of-generation tokens.
        self.eog.clear();
        for id in [self.fim[3], self.fim[4], self.fim[5]]
            .into_iter()
            .flatten()
        {
            self.eog.insert(id);
        }
        for &id in &order {
            if is(self, id, EOG_NAMES) {
                // MiniMax's end marker, before `minimax_eog_marker`, is no EOG
                if *self.tokens[id as usize].text == *b"[e~["
                    && !rules.on(&changes::llamacpp::MINIMAX_EOG_MARKER)
                {
                    continue;
                }
                self.eog.insert(id);
                let a = &mut self.tokens[id as usize].attr;
                *a = *a | TokenAttr::CONTROL;
            }
        }
        // gpt-oss: always render these.
        for &id in &order {
            if is(
                self,
                id,
                &["<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"],
            ) {
                self.tokens[id as usize].attr = TokenAttr::USER_DEFINED;
            }
        }
        for id in [self.eos, self.eot, self.eom].into_iter().flatten() {
            self.eog.insert(id);
        }
        // o200k_harmony / solar-open: <|end|> is not EOG.
        {
            let (mut has_return, mut has_call, mut has_end, mut has_flush) =
                (false, false, false, false);
            let mut end_id = None;
            for &tid in &self.eog {
                if tid as usize >= self.tokens.len() {
                    continue;
                }
                match &*self.tokens[tid as usize].text {
                    b"<|return|>" => has_return = true,
                    b"<|call|>" | b"<|calls|>" => has_call = true,
                    b"<|flush|>" => has_flush = true,
                    b"<|end|>" => {
                        has_end = true;
                        end_id = Some(tid);
                    }
                    _ => {}
                }
            }
            if has_end && has_call && (has_return || has_flush) {
                if let Some(e) = end_id {
                    self.eog.remove(&e);
                    self.tokens[e as usize].attr = TokenAttr::USER_DEFINED;
                }
            }
        }
        // gemma4 and plamo: </s> is a normal token.
        {
            let mut marker = false;
            let mut s_id = None;
            for &tid in &self.eog {
                if tid as usize >= self.tokens.len() {
                    continue;
                }
                match &*self.tokens[tid as usize].text {
                    b"<|tool_response>" => marker = true,
                    // before `plamo_s_normal`, only gemma4's marker
                    b"<|plamo:eos|>" if rules.on(&changes::llamacpp::PLAMO_S_NORMAL) => {
                        marker = true
                    }
                    b"</s>" => s_id = Some(tid),
                    _ => {}
                }
            }
            if let (true, Some(s)) = (marker, s_id) {
                self.eog.remove(&s);
                self.tokens[s as usize].attr = TokenAttr::NORMAL;
            }
        }
    }

    fn build_special_cache(&mut self) {
        let special = TokenAttr::CONTROL | TokenAttr::USER_DEFINED | TokenAttr::UNKNOWN;
        let mut cache: Vec<u32> = (0..self.tokens.len() as u32)
            .filter(|&id| self.tokens[id as usize].attr.has(special))
            .collect();
        let tokens = &self.tokens;
        std_sort(&mut cache, &|&a: &u32, &b: &u32| {
            tokens[a as usize].text.len() > tokens[b as usize].text.len()
        });
        self.special_trie = SpecialTrie::new(
            cache
                .iter()
                .map(|&id| (id, &*self.tokens[id as usize].text)),
        );
        self.cache_special = cache;
    }

    /// Attributes set by model, tokenizer or architecture name.
    fn per_token_attrs(&mut self, meta: &Meta<'_>) -> Result<(), Error> {
        let name = meta.string("general.name")?.unwrap_or_default();
        let pre = meta.string("tokenizer.ggml.pre")?.unwrap_or_default();
        let arch = meta.string("general.architecture")?.unwrap_or_default();
        let model_name: Vec<u8> = c_str(&name)
            .iter()
            .map(|b| b.to_ascii_lowercase())
            .collect();
        let contains = |hay: &[u8], needles: &[&str]| {
            needles
                .iter()
                .any(|n| hay.windows(n.len()).any(|w| w == n.as_bytes()))
        };
        let id_of = |v: &Vocab, text: &str| -> Result<u32, Error> {
            v.token_to_id
                .get(text.as_bytes())
                .copied()
                .ok_or_else(|| Error::load("unordered_map::at"))
        };
        if contains(c_str(&pre), &["jina-v2-de", "jina-v2-es", "jina-v2-code"])
            || contains(c_str(&arch), &["nomic-bert-moe", "jina-bert-v3"])
        {
            if let Some(&id) = self.token_to_id.get(&b"<mask>"[..]) {
                self.set_attr(id, TokenAttr::LSTRIP, true);
            }
        } else if contains(&model_name, &["phi-3", "phi3"]) {
            for id in self.cache_special.clone() {
                self.set_attr(id, TokenAttr::RSTRIP, true);
            }
            let id = id_of(self, "</s>")?;
            self.set_attr(id, TokenAttr::RSTRIP, true);
            for t in ["<unk>", "<s>", "<|endoftext|>"] {
                let id = id_of(self, t)?;
                self.set_attr(id, TokenAttr::RSTRIP, false);
            }
        } else if contains(&model_name, &["modern-bert"]) {
            if let Some(&id) = self.token_to_id.get(&b"[MASK]"[..]) {
                self.set_attr(id, TokenAttr::LSTRIP, true);
            }
        }
        Ok(())
    }

    fn set_attr(&mut self, id: u32, attr: TokenAttr, value: bool) {
        let a = &mut self.tokens[id as usize].attr;
        a.0 = if value { a.0 | attr.0 } else { a.0 & !attr.0 };
    }

    /// `llama_vocab::byte_to_token` for SPM: `<0xXX>`, else the byte itself.
    pub(crate) fn byte_to_token(&self, b: u8) -> Option<u32> {
        let hex = format!("<0x{b:02X}>");
        self.token_to_id
            .get(hex.as_bytes())
            .or_else(|| self.token_to_id.get(&[b][..]))
            .copied()
    }
}
