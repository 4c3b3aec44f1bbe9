//! Loading a GGUF model and running its forward pass.
//!
//! Every architecture here — the llama-style decoders (`llama`: SmolLM2,
//! TinyLlama, Llama 2/3.x, Mistral 7B; `qwen2`; `qwen3`), `phi3` and the
//! Gemmas (`gemma`, `gemma2`, `gemma3`) — runs on this crate's own graph in
//! [`crate::decoder`], on the file's weights in place (see
//! [`crate::weights`]) with the kernels in [`crate::quant`].

use crate::decoder::Decoder;
use crate::error::Error;
use crate::weights::{Blob, Gguf};
use std::io::{Read, Seek, SeekFrom};
use std::sync::Arc;

/// A loaded model, ready to evaluate tokens.
pub struct Model {
    net: Box<Decoder>,
    arch: String,
    n_vocab: usize,
    n_ctx_train: usize,
    pos: usize,
    types: Vec<(String, usize)>,
    weight_bytes: u64,
}

/// The architectures [`Model::load`] accepts (`general.architecture`).
pub const ARCHITECTURES: &[&str] = &[
    "llama", "qwen2", "qwen3", "phi3", "gemma", "gemma2", "gemma3",
];

impl Model {
    /// Loads a model from the bytes of a whole GGUF file, held once: the
    /// weights of this crate's own graph are views into `blob`, which the
    /// model keeps (a buffer the caller read, or a memory map).
    pub fn from_blob(blob: Blob) -> Result<Model, Error> {
        let g = Gguf::parse(blob)?;
        let arch = g.arch.clone();
        if !ARCHITECTURES.contains(&arch.as_str()) {
            return Err(Error::Unsupported(format!(
                "architecture {arch:?} cannot run here; supported: {}",
                ARCHITECTURES.join(", ")
            )));
        }
        let n_ctx_train = g.opt_usize("context_length")?.unwrap_or(2048);
        let n_vocab = g.n_vocab();
        let types = crate::report::tensor_types(&g.file);
        let weight_bytes = g.file.tensor_bytes();
        let net = Box::new(Decoder::load(&g)?);
        Ok(Model {
            net,
            arch,
            n_vocab,
            n_ctx_train,
            pos: 0,
            types,
            weight_bytes,
        })
    }

    /// What runs where: the graph, the weight types, the CPU instructions
    /// and the threads.
    pub fn runner(&self) -> crate::report::Runner {
        crate::report::Runner {
            arch: self.arch.clone(),
            graph: "Promptscope's decoder",
            types: self.types.clone(),
            simd: crate::report::simd(),
            threads: crate::threads::current(),
            weight_bytes: self.weight_bytes,
        }
    }

    /// Loads a model from GGUF bytes behind any `Read + Seek`, read whole
    /// into one buffer the model keeps.
    pub fn load<R: Read + Seek>(reader: &mut R) -> Result<Model, Error> {
        let mut bytes = Vec::new();
        reader
            .seek(SeekFrom::Start(0))
            .and_then(|_| reader.read_to_end(&mut bytes))
            .map_err(|e| Error::load(e.to_string()))?;
        Model::from_vec(bytes)
    }

    /// Loads a model from a buffer holding a whole GGUF file, which the
    /// model keeps without copying it.
    pub fn from_vec(bytes: Vec<u8>) -> Result<Model, Error> {
        Model::from_blob(Arc::new(bytes))
    }

    /// Loads a model from the bytes of a whole GGUF file (copied once).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, Error> {
        Model::from_vec(bytes.to_vec())
    }

    /// `general.architecture`.
    pub fn arch(&self) -> &str {
        &self.arch
    }

    /// The context length the model was trained with.
    pub fn n_ctx_train(&self) -> usize {
        self.n_ctx_train
    }

    /// Tokens evaluated since the last [`Model::reset`].
    pub fn n_past(&self) -> usize {
        self.pos
    }

    /// Forgets every evaluated token.
    pub fn reset(&mut self) {
        self.pos = 0;
        self.net.reset();
    }

    /// The context the model runs in (llama-server's `n_ctx`; until set,
    /// what Ollama asks for by default). It matters to `phi3`, whose rope
    /// factors depend on it; where they change, the evaluated tokens are
    /// forgotten.
    pub fn set_n_ctx(&mut self, n_ctx: usize) {
        if self.net.set_n_ctx(n_ctx) {
            self.reset();
        }
    }

    /// Evaluates `tokens` after the ones already seen and returns the logits
    /// of the last one.
    pub fn forward(&mut self, tokens: &[u32]) -> Result<Vec<f32>, Error> {
        self.check_ids(tokens)?;
        let pos = self.pos;
        let logits = self.net.forward(tokens, pos)?;
        self.pos += tokens.len();
        Ok(logits)
    }
}

impl Model {
    /// The decoder graph for another backend (`promptscope-gpu`) running a
    /// context of `len` positions, with rotary tables for them.
    pub fn plan(&mut self, len: usize) -> crate::plan::Plan<'_> {
        self.set_n_ctx(len);
        self.net.ensure_rope(len);
        self.net.plan(&self.arch, self.n_vocab, len)
    }

    /// The input rows of `ids` (embeddings, scaled as the family scales
    /// them), for a backend that runs the layers itself.
    pub fn embed(&self, ids: &[u32]) -> Result<Vec<f32>, Error> {
        self.check_ids(ids)?;
        self.net.embed(ids)
    }

    /// Keeps only the first `n` layers of the decoder (the final norm and
    /// the output stay): for checking another backend layer by layer.
    #[doc(hidden)]
    pub fn truncate_layers(&mut self, n: usize) {
        self.net.truncate_layers(n);
    }

    fn check_ids(&self, tokens: &[u32]) -> Result<(), Error> {
        if tokens.is_empty() {
            return Err(Error::Run("no tokens to evaluate".into()));
        }
        if self.n_vocab > 0 {
            if let Some(&bad) = tokens.iter().find(|&&t| t as usize >= self.n_vocab) {
                return Err(Error::Run(format!(
                    "token id {bad} is outside the vocabulary of {}",
                    self.n_vocab
                )));
            }
        }
        Ok(())
    }
}
