//! A model's GGUF in the app: its metadata and its vocabulary, what Ollama
//! reads from it into a render (the same rules as `promptscope render`),
//! `prompt_eval_count`, a token view and the metadata pane's rows.

use gguf_meta::{GgufFile, Value as GValue};
use ollama::case::RenderCase;
use ollama::model::GgufFacts;
use ollama::server::TokenCounter;
use serde_json::Value;
use tokenizer::{LoadOptions, Vocab};

use crate::highlight::escape;

/// The context length Ollama uses when the request sets no `num_ctx`.
pub const DEFAULT_NUM_CTX: u64 = 4096;

/// A loaded GGUF: metadata, and the vocabulary when it loads.
#[derive(Debug)]
pub struct Gguf {
    /// The file name.
    pub name: String,
    /// The parsed metadata and tensor infos.
    pub file: GgufFile,
    /// The vocabulary as Ollama's llama-server loads it, or why it failed;
    /// `None` where it is not loaded (the page's copy: the engine worker
    /// holds the vocabulary).
    pub vocab: Option<Result<Vocab, String>>,
}

impl TokenCounter for Gguf {
    fn count(&self, text: &str) -> Result<usize, String> {
        self.vocab()?
            .count_for_truncation(text)
            .map_err(|e| e.message().to_string())
    }
}

impl ollama::cache::PromptTokens for Gguf {
    fn prompt_tokens(&self, completion: &str) -> Result<Vec<u32>, String> {
        self.vocab()?
            .tokenize(completion, true, true)
            .map_err(|e| e.message().to_string())
    }
    fn text_tokens(&self, text: &str) -> Result<Vec<u32>, String> {
        self.vocab()?
            .tokenize(text, false, true)
            .map_err(|e| e.message().to_string())
    }
    fn piece(&self, id: u32) -> Vec<u8> {
        self.vocab()
            .ok()
            .and_then(|v| v.token_to_piece(id, 0, true))
            .unwrap_or_default()
    }
    fn adds_bos(&self) -> bool {
        Gguf::adds_bos(self)
    }
    fn architecture(&self) -> &str {
        self.file.architecture().unwrap_or("")
    }
}

/// One metadata row.
#[derive(Clone, Debug, PartialEq)]
pub struct MetaRow {
    /// The key.
    pub key: String,
    /// The GGUF type name.
    pub type_name: String,
    /// A short form (arrays summarised).
    pub summary: String,
    /// For arrays, the elements (at most [`ARRAY_SHOWN`]).
    pub elements: Option<Vec<String>>,
}

/// The most array elements the metadata pane lists.
pub const ARRAY_SHOWN: usize = 1000;

fn short(v: &Value, max: usize) -> String {
    let s = match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    if s.chars().count() > max {
        let cut: String = s.chars().take(max).collect();
        format!("{cut}…")
    } else {
        s
    }
}

impl Gguf {
    /// Loads the vocabulary of a parsed file.
    pub fn new(name: impl Into<String>, file: GgufFile) -> Gguf {
        let vocab = Vocab::from_gguf_with(
            &file,
            LoadOptions::ollama(true).with_build(ollama::server::OLLAMA_LLAMA_CPP),
        )
        .map_err(|e| e.llama_log_line());
        Gguf {
            name: name.into(),
            file,
            vocab: Some(vocab),
        }
    }

    /// A parsed file without its vocabulary: renders with it take the
    /// file's chat template and facts but count no tokens.
    pub fn metadata_only(name: impl Into<String>, file: GgufFile) -> Gguf {
        Gguf {
            name: name.into(),
            file,
            vocab: None,
        }
    }

    /// Whether the vocabulary is loaded here and usable.
    pub fn has_vocab(&self) -> bool {
        matches!(self.vocab, Some(Ok(_)))
    }

    /// What Ollama's embedding handlers read of the file (`kvData`).
    pub fn embed_kv(&self) -> ollama::embed::EmbedKv {
        store::show::embed_kv(&self.file)
    }

    /// Parses a whole file held in memory (tests).
    pub fn from_bytes(name: &str, bytes: &[u8]) -> Result<Gguf, String> {
        let file = gguf_meta::parse(bytes).map_err(|e| e.to_string())?;
        Ok(Gguf::new(name, file))
    }

    /// The vocabulary, or why there is none.
    pub fn vocab(&self) -> Result<&Vocab, String> {
        match &self.vocab {
            Some(v) => v.as_ref().map_err(Clone::clone),
            None => Err("the vocabulary is not loaded".to_string()),
        }
    }

    /// The chat template, if the file has one.
    pub fn chat_template(&self) -> Option<&str> {
        self.file.chat_template(None)
    }

    /// `tokenizer.chat_template.tool_use`: llama-server's template for
    /// requests with tools.
    pub fn tool_use_template(&self) -> Option<&str> {
        self.file.chat_template(Some("tool_use"))
    }

    /// BOS text, EOS text.
    pub fn bos_eos(&self) -> (String, String) {
        match self.vocab() {
            Ok(v) => (
                v.bos_text().unwrap_or_default(),
                v.eos_text().unwrap_or_default(),
            ),
            Err(_) => (String::new(), String::new()),
        }
    }

    /// The capability facts Ollama reads from the file.
    pub fn facts(&self) -> GgufFacts {
        GgufFacts {
            architecture: self.file.architecture().unwrap_or("").to_string(),
            pooling: self.file.get("pooling_type").is_some()
                || self.file.arch_get("pooling_type").is_some(),
            vision: self.file.get("vision.block_count").is_some(),
            audio: self.file.get("audio.block_count").is_some(),
            context_length: self
                .file
                .arch_get("context_length")
                .and_then(|v| v.as_u64()),
            sliding_window: self
                .file
                .arch_get("attention.sliding_window")
                .and_then(|v| v.as_u64()),
            block_count: self.file.arch_get("block_count").and_then(|v| v.as_u64()),
        }
    }

    /// Fills what Ollama reads from the GGUF into the case's model (as
    /// `promptscope render` does).
    pub fn apply(&self, case: &mut RenderCase) {
        let m = &mut case.model;
        if m.chat_template.is_none() {
            m.chat_template = self.chat_template().map(str::to_string);
        }
        if m.chat_template_tool_use.is_none() {
            m.chat_template_tool_use = self.tool_use_template().map(str::to_string);
        }
        if let Ok(v) = self.vocab() {
            m.bos_token = v.bos_text().unwrap_or_default();
            m.eos_token = v.eos_text().unwrap_or_default();
            m.add_bos = v.add_bos();
            m.add_eos = v.add_eos();
        }
        m.gguf = Some(self.facts());
    }

    /// Ollama's `tokenizerAddsBOS()` for this file.
    fn adds_bos(&self) -> bool {
        ollama::server::tokenizer_adds_bos(
            self.file.get_str("tokenizer.ggml.pre").unwrap_or(""),
            self.file.get_str("tokenizer.ggml.model").unwrap_or(""),
            self.file
                .get("tokenizer.ggml.add_bos_token")
                .and_then(|v| v.as_bool()),
        )
    }

    /// The prompt as llama-server receives it (a renderer's leading BOS
    /// removed when Ollama's tokenizer adds one).
    fn sent<'a>(&self, prompt: &'a str, leading_bos: Option<&str>) -> &'a str {
        ollama::server::completion_prompt(prompt, leading_bos, self.adds_bos())
    }

    /// What the model sees of this rendered prompt (as `promptscope
    /// render --json`): its tokens and the runner's stage (`num_keep`, the
    /// cut or Ollama's error; llama-server's own refusal in native mode).
    pub fn seen(
        &self,
        case: &RenderCase,
        r: &ollama::server::Rendered,
        prompt: &str,
    ) -> Result<ollama::cache::Seen, String> {
        ollama::cache::seen(case, r, prompt, self)
    }

    /// The prompt's tokens as llama-server tokenizes it: `(id, piece)`.
    pub fn tokens(
        &self,
        prompt: &str,
        leading_bos: Option<&str>,
    ) -> Result<Vec<(u32, String)>, String> {
        let v = self.vocab()?;
        let ids = v
            .tokenize(self.sent(prompt, leading_bos), true, true)
            .map_err(|e| e.message().to_string())?;
        Ok(ids
            .into_iter()
            .map(|id| {
                let piece = v.token_to_piece(id, 0, true).unwrap_or_default();
                (id, String::from_utf8_lossy(&piece).into_owned())
            })
            .collect())
    }

    /// The metadata rows, in file order.
    pub fn meta_rows(&self) -> Vec<MetaRow> {
        self.file
            .metadata()
            .iter()
            .map(|kv| {
                let type_name = kv.value.type_name();
                match &kv.value {
                    GValue::Array(a) => {
                        // only the shown elements are converted (a
                        // vocabulary has hundreds of thousands)
                        let items: Vec<Value> = (0..a.len().min(ARRAY_SHOWN))
                            .filter_map(|i| a.get(i))
                            .map(|v| v.to_json())
                            .collect();
                        let first: Vec<String> =
                            items.iter().take(3).map(|x| short(x, 40)).collect();
                        let more = if a.len() > 3 { ", …" } else { "" };
                        MetaRow {
                            key: kv.key.clone(),
                            type_name,
                            summary: format!("[{}{more}] ({} items)", first.join(", "), a.len()),
                            elements: Some(items.iter().map(|x| short(x, 200)).collect()),
                        }
                    }
                    other => MetaRow {
                        key: kv.key.clone(),
                        type_name,
                        summary: short(&other.to_json(), 2000),
                        elements: None,
                    },
                }
            })
            .collect()
    }
}

/// The corpus's small Llama 3 vocabulary GGUF (`tests/corpus/tokenizer`).
#[cfg(test)]
pub(crate) fn corpus_llama3() -> Gguf {
    let path = testkit::corpus("tokenizer/llama3.gguf");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Gguf::from_bytes("llama3.gguf", &bytes).expect("llama3.gguf parses")
}

/// The token view's HTML: tokens tinted alternately, id and text in `title`.
pub fn tokens_html(tokens: &[(u32, String)]) -> String {
    let mut out = String::new();
    for (i, (id, piece)) in tokens.iter().enumerate() {
        let class = if i % 2 == 0 { "tk tk-a" } else { "tk tk-b" };
        out.push_str(&format!(
            "<span class=\"{class}\" title=\"{id}: {}\">{}</span>",
            escape(&format!("{piece:?}")),
            escape(piece)
        ));
    }
    out
}

/// A byte size for people (`1.5 MiB`).
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = n as f64;
    let mut u = 0;
    while x >= 1024.0 && u < UNITS.len() - 1 {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

/// A parameter count for people (`134.5M`).
pub fn human_count(n: u64) -> String {
    let x = n as f64;
    if x >= 1e9 {
        format!("{:.2}B", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.1}M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1}K", x / 1e3)
    } else {
        n.to_string()
    }
}

/// The `num_ctx` of a request body, else Ollama's default.
pub fn num_ctx(body: &Value) -> u64 {
    body.get("options")
        .and_then(|o| o.get("num_ctx"))
        .and_then(Value::as_u64)
        .filter(|&n| n > 0)
        .unwrap_or(DEFAULT_NUM_CTX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_files_name_the_offset() {
        let e = Gguf::from_bytes("x", b"GGUF\x03\x00\x00\x00\x01").unwrap_err();
        assert!(e.contains("offset"), "{e}");
    }

    #[test]
    fn sizes_and_counts() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_count(134_515_008), "134.5M");
        assert_eq!(
            num_ctx(&serde_json::json!({"options": {"num_ctx": 64}})),
            64
        );
        assert_eq!(num_ctx(&serde_json::json!({})), DEFAULT_NUM_CTX);
    }

    #[test]
    fn tokens_are_escaped_and_alternate() {
        let html = tokens_html(&[(1, "<s>".into()), (2, "a\"b".into())]);
        assert!(html.contains("tk-a") && html.contains("tk-b"));
        assert!(html.contains("&lt;s&gt;"));
    }

    #[test]
    fn array_rows_show_the_first_elements_and_count_them_all() {
        let g = corpus_llama3();
        let rows = g.meta_rows();
        let tokens = rows
            .iter()
            .find(|r| r.key == "tokenizer.ggml.tokens")
            .unwrap();
        assert_eq!(tokens.type_name, "array<string>");
        assert_eq!(tokens.summary, "[\"!\", \"\\\"\", \"#\", …] (128256 items)");
        let shown = tokens.elements.as_ref().unwrap();
        assert_eq!(shown.len(), ARRAY_SHOWN);
        assert_eq!(shown[0], "\"!\"");
    }
}
