//! What `ollama list` reads from a model's GGUF (server/model_list_cache.go
//! `readModelListGGUF`): the header values up to the tokenizer arrays, not
//! the arrays and never the tensor data. Ported line for line, errors
//! included, over the store's [`Dir`], 32 KiB at a time.

use crate::dir::Dir;

/// What the list takes from a GGUF.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListGguf {
    /// `completion` or `embedding`, `vision`, `audio`.
    pub capabilities: Vec<String>,
    /// `<arch>.context_length`.
    pub context_length: i64,
    /// `<arch>.embedding_length`.
    pub embedding_length: i64,
    /// `general.file_type` as ggml names it.
    pub file_type: String,
}

/// `fsgguf.MaxStringLength`, `fsgguf.MaxArraySize` (fs/gguf/gguf.go).
const MAX_STRING: u64 = 256 << 20;
const MAX_ARRAY: u64 = 1 << 30;

struct Reader<'a> {
    dir: &'a dyn Dir,
    path: &'a str,
    buf: Vec<u8>,
    pos: usize,
    offset: u64,
    big: bool,
    /// Bytes read from the file, for the "metadata only" checks.
    read: u64,
}

impl Reader<'_> {
    fn fill(&mut self) -> Result<(), String> {
        let piece = self
            .dir
            .read_at(self.path, self.offset, 32 << 10)
            .map_err(|e| e.to_string())?;
        self.read += piece.len() as u64;
        self.offset += piece.len() as u64;
        self.buf.drain(..self.pos);
        self.pos = 0;
        if piece.is_empty() {
            return Err("EOF".into());
        }
        self.buf.extend_from_slice(&piece);
        Ok(())
    }

    fn bytes(&mut self, n: usize) -> Result<&[u8], String> {
        let start_avail = self.buf.len() - self.pos;
        let mut first = true;
        while self.buf.len() - self.pos < n {
            match self.fill() {
                Ok(()) => first = false,
                Err(_) if first && start_avail == 0 && self.buf.len() == self.pos => {
                    return Err("EOF".into())
                }
                Err(_) => return Err("unexpected EOF".into()),
            }
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn discard(&mut self, mut n: u64) -> Result<(), String> {
        while n > 0 {
            if self.buf.len() == self.pos {
                // io.CopyN reports EOF when it copies less than asked.
                self.fill().map_err(|_| "EOF".to_string())?;
            }
            let take = ((self.buf.len() - self.pos) as u64).min(n) as usize;
            self.pos += take;
            n -= take as u64;
        }
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, String> {
        let big = self.big;
        let b: [u8; 4] = self.bytes(4)?.try_into().expect("4 bytes");
        Ok(if big {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    }

    fn u64(&mut self) -> Result<u64, String> {
        let big = self.big;
        let b: [u8; 8] = self.bytes(8)?.try_into().expect("8 bytes");
        Ok(if big {
            u64::from_be_bytes(b)
        } else {
            u64::from_le_bytes(b)
        })
    }

    fn int(&mut self, size: usize, signed: bool) -> Result<i64, String> {
        let big = self.big;
        let b = self.bytes(size)?;
        let mut v: u64 = 0;
        for i in 0..size {
            let byte = if big { b[i] } else { b[size - 1 - i] };
            v = (v << 8) | byte as u64;
        }
        Ok(if signed && size < 8 {
            let shift = 64 - 8 * size as u32;
            ((v << shift) as i64) >> shift
        } else {
            v as i64
        })
    }

    fn checked_len(n: u64, kind: &str, max: u64) -> Result<u64, String> {
        if n > i64::MAX as u64 {
            return Err(format!("gguf {kind} {n} exceeds maximum {}", i64::MAX));
        }
        if n > max {
            return Err(format!("gguf {kind} {n} exceeds maximum {max}"));
        }
        Ok(n)
    }

    fn string(&mut self, version: u32) -> Result<String, String> {
        let n = self.u64()?;
        let n = Self::checked_len(n, "string", MAX_STRING)? as usize;
        let mut b = self.bytes(n)?.to_vec();
        if version == 1 && b.last() == Some(&0) {
            b.pop();
        }
        Ok(String::from_utf8_lossy(&b).into_owned())
    }

    fn skip_string(&mut self) -> Result<(), String> {
        let n = self.u64()?;
        let n = Self::checked_len(n, "string", MAX_STRING)?;
        self.discard(n)
    }

    fn skip_value(&mut self, t: u32) -> Result<(), String> {
        match t {
            0 | 1 | 7 => self.discard(1),
            2 | 3 => self.discard(2),
            4..=6 => self.discard(4),
            10..=12 => self.discard(8),
            8 => self.skip_string(),
            9 => {
                let at = self.u32()?;
                let count = self.u64()?;
                self.skip_array(at, count)
            }
            _ => Err(format!("unsupported gguf value type {t}")),
        }
    }

    fn skip_array(&mut self, t: u32, count: u64) -> Result<(), String> {
        Self::checked_len(count, "array size", MAX_ARRAY)?;
        let size: u64 = match t {
            0 | 1 | 7 => 1,
            2 | 3 => 2,
            4..=6 => 4,
            10..=12 => 8,
            8 => {
                for _ in 0..count {
                    self.skip_string()?;
                }
                return Ok(());
            }
            _ => return Err(format!("unsupported gguf array type {t}")),
        };
        if count > i64::MAX as u64 / size {
            return Err(format!(
                "gguf array byte length {count}*{size} exceeds maximum {}",
                i64::MAX
            ));
        }
        self.discard(count * size)
    }

    fn int_value(&mut self, t: u32) -> Result<i64, String> {
        match t {
            0 => self.int(1, false),
            1 => self.int(1, true),
            2 => self.int(2, false),
            3 => self.int(2, true),
            4 => self.int(4, false),
            5 => self.int(4, true),
            10 => self.int(8, false),
            11 => self.int(8, true),
            _ => {
                self.skip_value(t)?;
                Err(format!("unexpected gguf integer type {t}"))
            }
        }
    }

    fn string_value(&mut self, t: u32, version: u32) -> Result<String, String> {
        if t != 8 {
            self.skip_value(t)?;
            return Err(format!("unexpected gguf string type {t}"));
        }
        self.string(version)
    }
}

fn add(caps: &mut Vec<String>, c: &str) {
    if !c.is_empty() && !caps.iter().any(|x| x == c) {
        caps.push(c.to_string());
    }
}

/// `readModelListGGUF` on the blob at `path`; also returns the bytes read.
pub fn list_info(dir: &dyn Dir, path: &str) -> (Result<ListGguf, String>, u64) {
    let mut r = Reader {
        dir,
        path,
        buf: Vec::new(),
        pos: 0,
        offset: 0,
        big: false,
        read: 0,
    };
    let out = scan(&mut r);
    (out, r.read)
}

fn scan(r: &mut Reader) -> Result<ListGguf, String> {
    let magic = r.u32()?;
    match magic {
        0x4655_4747 => {}
        0x4747_5546 => r.big = true,
        _ => return Err("invalid file magic".into()),
    }
    let version = r.u32()?;
    let num_kv = if version == 1 {
        let _ = r.u32()?;
        r.u32()? as u64
    } else {
        let _ = r.u64()?;
        r.u64()?
    };
    let mut info = ListGguf::default();
    let mut arch = String::new();
    let mut pooling = false;
    for _ in 0..num_kv {
        let key = r.string(version)?;
        let t = r.u32()?;
        if key == "general.architecture" {
            arch = r.string_value(t, version)?;
            continue;
        }
        if key == "general.file_type" {
            let v = r.int_value(t)?;
            info.file_type = ollama_file_type(v);
            continue;
        }
        if !arch.is_empty() && key.starts_with("tokenizer.") {
            break;
        }
        if !arch.is_empty() {
            if let Some(rest) = key.strip_prefix(&format!("{arch}.")) {
                match rest {
                    "pooling_type" => pooling = true,
                    "vision.block_count" => add(&mut info.capabilities, "vision"),
                    "audio.block_count" => add(&mut info.capabilities, "audio"),
                    "context_length" => {
                        info.context_length = r.int_value(t)?;
                        continue;
                    }
                    "embedding_length" => {
                        info.embedding_length = r.int_value(t)?;
                        continue;
                    }
                    _ => {}
                }
            }
        }
        r.skip_value(t)?;
    }
    add(
        &mut info.capabilities,
        if pooling { "embedding" } else { "completion" },
    );
    Ok(info)
}

/// fs/ggml `FileType(v).String()` (fs/ggml/type.go): Ollama's names for
/// llama.cpp's `general.file_type` values.
pub fn ollama_file_type(v: i64) -> String {
    // FileType is a uint32: Go's conversion wraps.
    let name = match v as u32 {
        0 => "F32",
        1 => "F16",
        2 => "Q4_0",
        3 => "Q4_1",
        7 => "Q8_0",
        8 => "Q5_0",
        9 => "Q5_1",
        10 => "Q2_K",
        11 => "Q3_K_S",
        12 => "Q3_K_M",
        13 => "Q3_K_L",
        14 => "Q4_K_S",
        15 => "Q4_K_M",
        16 => "Q5_K_S",
        17 => "Q5_K_M",
        18 => "Q6_K",
        19 => "IQ2_XXS",
        20 => "IQ2_XS",
        21 => "Q2_K_S",
        22 => "IQ3_XS",
        23 => "IQ3_XXS",
        24 => "IQ1_S",
        25 => "IQ4_NL",
        26 => "IQ3_S",
        27 => "IQ3_M",
        28 => "IQ2_S",
        29 => "IQ2_M",
        30 => "IQ4_XS",
        31 => "IQ1_M",
        32 => "BF16",
        36 => "TQ1_0",
        37 => "TQ2_0",
        38 => "MXFP4_MOE",
        39 => "NVFP4",
        40 => "Q1_0",
        _ => "unknown",
    };
    name.to_string()
}
