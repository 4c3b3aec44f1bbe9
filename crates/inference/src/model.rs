//! Loading a GGUF model into candle and running its forward pass.
//!
//! The llama-style decoders (`llama`: SmolLM2, TinyLlama, Llama 2/3.x,
//! Mistral 7B; `qwen2`; `qwen3`) run on this crate's own graph in
//! [`crate::decoder`], whose `Q4_0` / `Q4_1` / `Q8_0` matrix products use the
//! kernels in [`crate::quant`]. `phi3` and `gemma`/`gemma2`/`gemma3` run on
//! candle-transformers' quantized models.

use crate::decoder::Decoder;
use crate::error::Error;
use candle_core::quantized::{gguf_file, QStorage, QTensor};
use candle_core::{Device, Tensor};
use candle_transformers::models as cm;
use std::io::{Read, Seek, SeekFrom};

/// A loaded model, ready to evaluate tokens.
pub struct Model {
    net: Net,
    device: Device,
    arch: String,
    n_vocab: usize,
    n_ctx_train: usize,
    pos: usize,
}

enum Net {
    Decoder(Box<Decoder>),
    Phi3(Box<cm::quantized_phi3::ModelWeights>),
    Gemma(Box<cm::quantized_gemma3::ModelWeights>),
}

/// The architectures [`Model::load`] accepts (`general.architecture`).
pub const ARCHITECTURES: &[&str] = &[
    "llama", "qwen2", "qwen3", "phi3", "gemma", "gemma2", "gemma3",
];

/// Reads metadata values of a candle [`gguf_file::Content`].
pub(crate) struct Meta<'a> {
    pub ct: &'a gguf_file::Content,
    pub arch: String,
}

impl Meta<'_> {
    pub fn get(&self, key: &str) -> Option<&gguf_file::Value> {
        self.ct.metadata.get(key)
    }

    /// `<arch>.<key>` as an unsigned integer.
    pub fn usize(&self, key: &str) -> Result<usize, Error> {
        let full = format!("{}.{key}", self.arch);
        self.opt_usize(key)?
            .ok_or_else(|| Error::load(format!("the GGUF has no {full}")))
    }

    pub fn opt_usize(&self, key: &str) -> Result<Option<usize>, Error> {
        use gguf_file::Value as V;
        let full = format!("{}.{key}", self.arch);
        let Some(v) = self.get(&full) else {
            return Ok(None);
        };
        let n: i128 = match v {
            V::U8(x) => *x as i128,
            V::I8(x) => *x as i128,
            V::U16(x) => *x as i128,
            V::I16(x) => *x as i128,
            V::U32(x) => *x as i128,
            V::I32(x) => *x as i128,
            V::U64(x) => *x as i128,
            V::I64(x) => *x as i128,
            // llama.cpp accepts an array for per-layer values; all small
            // models here have one value for every layer.
            V::Array(a) if !a.is_empty() => {
                return Meta::array_first(a, &full);
            }
            other => {
                return Err(Error::load(format!(
                    "{full} should be an integer, found {other:?}"
                )))
            }
        };
        usize::try_from(n)
            .map(Some)
            .map_err(|_| Error::load(format!("{full} = {n} is out of range")))
    }

    fn array_first(a: &[gguf_file::Value], full: &str) -> Result<Option<usize>, Error> {
        use gguf_file::Value as V;
        let first = match &a[0] {
            V::U32(x) => *x as usize,
            V::I32(x) if *x >= 0 => *x as usize,
            other => {
                return Err(Error::load(format!(
                    "{full} should hold integers, found {other:?}"
                )))
            }
        };
        Ok(Some(first))
    }

    /// `<arch>.<key>` as a float.
    pub fn opt_f32(&self, key: &str) -> Result<Option<f32>, Error> {
        use gguf_file::Value as V;
        let full = format!("{}.{key}", self.arch);
        match self.get(&full) {
            None => Ok(None),
            Some(V::F32(x)) => Ok(Some(*x)),
            Some(V::F64(x)) => Ok(Some(*x as f32)),
            Some(other) => Err(Error::load(format!(
                "{full} should be a float, found {other:?}"
            ))),
        }
    }
}

/// Reads tensors of a GGUF whose metadata is already parsed.
pub(crate) struct Tensors<'a, R> {
    pub ct: &'a gguf_file::Content,
    pub reader: &'a mut R,
    pub device: &'a Device,
}

impl<R: Read + Seek> Tensors<'_, R> {
    pub fn has(&self, name: &str) -> bool {
        self.ct.tensor_infos.contains_key(name)
    }

    /// A weight as a quantized tensor: `Q4_0`, `Q4_1` and `Q8_0` on this
    /// crate's kernels, other types on candle's.
    pub fn q(&mut self, name: &str) -> Result<QTensor, Error> {
        let info = self
            .ct
            .tensor_infos
            .get(name)
            .ok_or_else(|| Error::load(format!("the GGUF has no tensor {name}")))?;
        let dtype = info.ggml_dtype;
        let shape = info.shape.clone();
        let Some(kind) = crate::quant::Kind::of(dtype) else {
            return self
                .ct
                .tensor(self.reader, name, self.device)
                .map_err(|e| Error::load(format!("tensor {name}: {e}")));
        };
        let elems = shape.elem_count();
        if elems % dtype.block_size() != 0 {
            return Err(Error::load(format!(
                "tensor {name}: {elems} values are not whole {dtype:?} blocks"
            )));
        }
        let bytes = elems / dtype.block_size() * dtype.type_size();
        let start = self
            .ct
            .tensor_data_offset
            .checked_add(info.offset)
            .ok_or_else(|| Error::load(format!("tensor {name}: offset overflows")))?;
        let mut buf = vec![0u8; bytes];
        self.reader
            .seek(SeekFrom::Start(start))
            .and_then(|_| self.reader.read_exact(&mut buf))
            .map_err(|e| {
                Error::load(format!(
                    "tensor {name}: cannot read {bytes} bytes at offset {start}: {e}"
                ))
            })?;
        let storage = crate::quant::FastStorage::from_bytes(kind, &buf)
            .map_err(|e| Error::load(format!("tensor {name}: {e}")))?;
        QTensor::new(QStorage::Cpu(Box::new(storage)), shape)
            .map_err(|e| Error::load(format!("tensor {name}: {e}")))
    }

    /// A small tensor (norm weights, biases) as f32 values.
    pub fn vec(&mut self, name: &str) -> Result<Vec<f32>, Error> {
        self.f32(name)?
            .flatten_all()
            .and_then(|t| t.to_vec1())
            .map_err(|e| Error::load(format!("tensor {name}: {e}")))
    }

    /// A small tensor (norm weights, biases) as f32.
    pub fn f32(&mut self, name: &str) -> Result<Tensor, Error> {
        self.q(name)?
            .dequantize(self.device)
            .map_err(|e| Error::load(format!("tensor {name}: {e}")))
    }
}

impl Model {
    /// Loads a model from GGUF bytes behind any `Read + Seek` (a byte slice
    /// in a `Cursor`, or a reader over a browser `File`). Only the tensors
    /// the architecture uses are read.
    pub fn load<R: Read + Seek>(reader: &mut R) -> Result<Model, Error> {
        let device = Device::Cpu;
        reader
            .seek(SeekFrom::Start(0))
            .map_err(|e| Error::load(e.to_string()))?;
        let ct = gguf_file::Content::read(reader).map_err(|e| Error::load(e.to_string()))?;
        let arch = match ct.metadata.get("general.architecture") {
            Some(gguf_file::Value::String(s)) => s.clone(),
            _ => return Err(Error::load("the GGUF has no general.architecture")),
        };
        if !ARCHITECTURES.contains(&arch.as_str()) {
            return Err(Error::Unsupported(format!(
                "architecture {arch:?} cannot run here; supported: {}",
                ARCHITECTURES.join(", ")
            )));
        }
        let meta = Meta {
            ct: &ct,
            arch: arch.clone(),
        };
        let n_ctx_train = meta.opt_usize("context_length")?.unwrap_or(2048);
        let n_vocab = match ct.metadata.get("tokenizer.ggml.tokens") {
            Some(gguf_file::Value::Array(a)) => a.len(),
            _ => 0,
        };
        let net = match arch.as_str() {
            "llama" | "qwen2" | "qwen3" => {
                let mut t = Tensors {
                    ct: &ct,
                    reader,
                    device: &device,
                };
                Net::Decoder(Box::new(Decoder::load(&meta, &mut t)?))
            }
            "phi3" => Net::Phi3(Box::new(
                cm::quantized_phi3::ModelWeights::from_gguf(false, ct, reader, &device)
                    .map_err(|e| Error::load(e.to_string()))?,
            )),
            _ => Net::Gemma(Box::new(
                cm::quantized_gemma3::ModelWeights::from_gguf(ct, reader, &device)
                    .map_err(|e| Error::load(e.to_string()))?,
            )),
        };
        Ok(Model {
            net,
            device,
            arch,
            n_vocab,
            n_ctx_train,
            pos: 0,
        })
    }

    /// Loads a model from the bytes of a whole GGUF file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, Error> {
        Model::load(&mut std::io::Cursor::new(bytes))
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
        match &mut self.net {
            Net::Decoder(d) => d.reset(),
            // candle-transformers' phi3 and gemma drop their cache when
            // evaluation starts again at position 0
            Net::Phi3(_) | Net::Gemma(_) => {}
        }
    }

    /// Evaluates `tokens` after the ones already seen and returns the logits
    /// of the last one.
    pub fn forward(&mut self, tokens: &[u32]) -> Result<Vec<f32>, Error> {
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
        let pos = self.pos;
        let logits = match &mut self.net {
            Net::Decoder(d) => d.forward(tokens, pos),
            Net::Phi3(m) => Tensor::new(tokens, &self.device)
                .and_then(|t| t.unsqueeze(0))
                .and_then(|x| m.forward(&x, pos)),
            Net::Gemma(m) => Tensor::new(tokens, &self.device)
                .and_then(|t| t.unsqueeze(0))
                .and_then(|x| m.forward(&x, pos)),
        }
        .and_then(|t| t.flatten_all())
        .and_then(|t| t.to_dtype(candle_core::DType::F32))
        .and_then(|t| t.to_vec1::<f32>())
        .map_err(|e| Error::Run(e.to_string()))?;
        self.pos += tokens.len();
        Ok(logits)
    }
}
