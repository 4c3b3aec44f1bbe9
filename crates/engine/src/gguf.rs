//! A model's GGUF as Ollama's llama-server loads it: its metadata and its
//! vocabulary (with Ollama's compat rewrites), what the render takes from
//! it, and the token counts (`TokenCounter`, `PromptTokens`).

use ollama::case::RenderCase;
use ollama::model::GgufFacts;
use ollama::server::TokenCounter;
use tokenizer::{LoadOptions, Vocab};

/// A model's GGUF: its metadata and its vocabulary as Ollama's llama-server
/// loads it (with Ollama's compat rewrites).
pub struct Gguf {
    /// The metadata.
    pub file: gguf_meta::GgufFile,
    /// The vocabulary.
    pub vocab: Vocab,
}

impl TokenCounter for Gguf {
    fn count(&self, text: &str) -> Result<usize, String> {
        self.vocab
            .count_for_truncation(text)
            .map_err(|e| e.message().to_string())
    }
}

impl Gguf {
    /// Reads a GGUF's metadata and vocabulary as Ollama's llama-server
    /// loads it (its compat rewrites, its llama.cpp build); `label` names
    /// it in errors.
    pub fn read<R: std::io::Read + std::io::Seek>(r: R, label: &str) -> Result<Gguf, String> {
        let options = LoadOptions::ollama(true).with_build(ollama::server::OLLAMA_LLAMA_CPP);
        Gguf::read_with(r, label, options)
    }

    /// Reads a GGUF's metadata and vocabulary with the loader's `options`
    /// (llama-server itself: no compat rewrites, its own build).
    pub fn read_with<R: std::io::Read + std::io::Seek>(
        r: R,
        label: &str,
        options: LoadOptions,
    ) -> Result<Gguf, String> {
        let file =
            gguf_meta::parse(gguf_meta::SeekSource::new(r)).map_err(|e| format!("{label}: {e}"))?;
        let vocab = Vocab::from_gguf_with(&file, options)
            .map_err(|e| format!("{label}: {}", e.llama_log_line()))?;
        Ok(Gguf { file, vocab })
    }

    /// Fills what Ollama reads from the GGUF into the case's model.
    pub fn apply(&self, case: &mut RenderCase) {
        let m = &mut case.model;
        if m.chat_template.is_none() {
            m.chat_template = self.file.chat_template(None).map(str::to_string);
        }
        if m.chat_template_tool_use.is_none() {
            m.chat_template_tool_use = self
                .file
                .chat_template(Some("tool_use"))
                .map(str::to_string);
        }
        if m.chat_template.is_none() && m.compat_chat_template.is_none() {
            m.compat_chat_template = self.vocab.ollama_compat_chat_template().map(str::to_string);
        }
        m.bos_token = self.vocab.bos_text().unwrap_or_default();
        m.eos_token = self.vocab.eos_text().unwrap_or_default();
        m.add_bos = self.vocab.add_bos();
        m.add_eos = self.vocab.add_eos();
        m.gguf = Some(GgufFacts {
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
        });
    }

    /// What the embedding handlers read of this file.
    pub fn embed_kv(&self) -> ollama::embed::EmbedKv {
        store::show::embed_kv(&self.file)
    }

    /// Ollama's `tokenizerAddsBOS()` for this file.
    pub fn adds_bos(&self) -> bool {
        ollama::server::tokenizer_adds_bos(
            self.file.get_str("tokenizer.ggml.pre").unwrap_or(""),
            self.file.get_str("tokenizer.ggml.model").unwrap_or(""),
            self.file
                .get("tokenizer.ggml.add_bos_token")
                .and_then(|v| v.as_bool()),
        )
    }
}

impl ollama::cache::PromptTokens for Gguf {
    fn prompt_tokens(&self, completion: &str) -> Result<Vec<u32>, String> {
        self.vocab
            .tokenize(completion, true, true)
            .map_err(|e| e.message().to_string())
    }
    fn text_tokens(&self, text: &str) -> Result<Vec<u32>, String> {
        self.vocab
            .tokenize(text, false, true)
            .map_err(|e| e.message().to_string())
    }
    fn piece(&self, id: u32) -> Vec<u8> {
        self.vocab.token_to_piece(id, 0, true).unwrap_or_default()
    }
    fn adds_bos(&self) -> bool {
        Gguf::adds_bos(self)
    }
    fn architecture(&self) -> &str {
        self.file.architecture().unwrap_or("")
    }
}
