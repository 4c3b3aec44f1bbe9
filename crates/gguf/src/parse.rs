//! The parser: one `async fn` over an [`AsyncReadAt`], driven synchronously
//! for a [`ReadAt`] by polling it once (its reads are always ready).
//!
//! Reads are buffered: when the parser needs bytes it does not hold, it
//! reads at least [`ParseOptions::chunk_size`] bytes at once, dropping the
//! bytes it has consumed. Tensor data is never read; at most one chunk past
//! the end of the tensor infos is.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::io;
use std::pin::pin;
use std::task::{Poll, Waker};

use crate::error::{Context, Error, ErrorKind, HeaderField, Room, TensorField};
use crate::file::{Endian, GgufFile, ReadStats, TensorInfo};
use crate::source::{AsyncReadAt, ReadAt, Ready};
use crate::types::{GgmlType, ValueType};
use crate::value::{Array, GgufString, KeyValue, Value};

/// Deepest nesting of arrays accepted (an array value is depth 1, an array
/// inside it depth 2, ...). ggml accepts no nesting at all; gguf-py any.
pub const MAX_ARRAY_DEPTH: usize = 16;

/// GGUF's default alignment when `general.alignment` is absent.
pub const DEFAULT_ALIGNMENT: u64 = 32;

/// `GGML_MAX_DIMS`.
pub const MAX_DIMS: u32 = 4;

/// Options for parsing.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParseOptions {
    /// Bytes requested per read (default 1 MiB). A read is larger only
    /// when one item (a long string) needs more.
    pub chunk_size: usize,
    /// Largest metadata accepted, header to end of tensor infos (default
    /// 256 MiB; real models use up to a few tens of MB). Bounds memory and
    /// reads on huge or hostile files.
    pub max_metadata_size: u64,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            chunk_size: 1 << 20,
            max_metadata_size: 256 << 20,
        }
    }
}

impl ParseOptions {
    /// The defaults.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Sets [`ParseOptions::chunk_size`] (at least 1).
    pub fn chunk_size(mut self, n: usize) -> ParseOptions {
        self.chunk_size = n.max(1);
        self
    }

    /// Sets [`ParseOptions::max_metadata_size`].
    pub fn max_metadata_size(mut self, n: u64) -> ParseOptions {
        self.max_metadata_size = n;
        self
    }
}

/// Parses the metadata of a GGUF file from a synchronous source, with the
/// default options.
///
/// ```
/// let bytes: &[u8] = b"GGUF\x03\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
/// let file = gguf_meta::parse(bytes).unwrap();
/// assert_eq!(file.version(), 3);
/// assert!(file.metadata().is_empty());
/// ```
pub fn parse<S: ReadAt>(source: S) -> Result<GgufFile, Error> {
    parse_with(source, &ParseOptions::default())
}

/// Parses the metadata of a GGUF file from a synchronous source.
pub fn parse_with<S: ReadAt>(source: S, options: &ParseOptions) -> Result<GgufFile, Error> {
    let future = pin!(parse_async_with(Ready(source), options));
    let mut cx = std::task::Context::from_waker(Waker::noop());
    match future.poll(&mut cx) {
        Poll::Ready(result) => result,
        // `Ready` sources never leave a read pending.
        Poll::Pending => Err(Error::new(
            ErrorKind::NotReady,
            0,
            Context::Header(HeaderField::Magic),
        )),
    }
}

/// Parses the metadata of a GGUF file from an asynchronous source, with the
/// default options.
pub async fn parse_async<S: AsyncReadAt>(source: S) -> Result<GgufFile, Error> {
    parse_async_with(source, &ParseOptions::default()).await
}

/// Parses the metadata of a GGUF file from an asynchronous source.
pub async fn parse_async_with<S: AsyncReadAt>(
    mut source: S,
    options: &ParseOptions,
) -> Result<GgufFile, Error> {
    let file_size = source
        .size()
        .await
        .map_err(|e| Error::new(ErrorKind::Io(e), 0, Context::Header(HeaderField::Magic)))?;
    let mut parser = Parser {
        src: source,
        file_size,
        meta_end: file_size.min(options.max_metadata_size),
        max_meta: options.max_metadata_size,
        buf: Vec::new(),
        buf_start: 0,
        head: 0,
        chunk: options.chunk_size.max(1),
        big: false,
        stats: ReadStats::default(),
        ctx: Context::Header(HeaderField::Magic),
    };
    parser.run().await
}

/// An error before its context is attached: the kind and the offset of the
/// item being read.
struct Fail {
    kind: ErrorKind,
    at: u64,
}

type R<T> = Result<T, Fail>;

fn fail<T>(kind: ErrorKind, at: u64) -> R<T> {
    Err(Fail { kind, at })
}

/// One array being filled.
struct Frame {
    items: Array,
    len: u64,
    done: u64,
}

struct Parser<S> {
    src: S,
    file_size: u64,
    /// Metadata must end by here: min(file size, max_meta).
    meta_end: u64,
    max_meta: u64,
    /// Buffered bytes: file offsets `buf_start .. buf_start + buf.len()`.
    buf: Vec<u8>,
    buf_start: u64,
    /// Index in `buf` of the read position.
    head: usize,
    chunk: usize,
    big: bool,
    stats: ReadStats,
    ctx: Context,
}

macro_rules! decode_into {
    ($vec:expr, $bytes:expr, $t:ty, $big:expr) => {{
        const N: usize = std::mem::size_of::<$t>();
        $vec.extend($bytes.chunks_exact(N).map(|c| {
            let mut a = [0u8; N];
            a.copy_from_slice(c);
            if $big {
                <$t>::from_be_bytes(a)
            } else {
                <$t>::from_le_bytes(a)
            }
        }));
    }};
}

impl<S: AsyncReadAt> Parser<S> {
    fn pos(&self) -> u64 {
        self.buf_start + self.head as u64
    }

    fn available(&self) -> usize {
        self.buf.len() - self.head
    }

    /// Bytes left for metadata from the read position, and which limit.
    fn room(&self) -> (u64, Room) {
        let pos = self.pos();
        let room = self.meta_end.saturating_sub(pos);
        if self.meta_end < self.file_size {
            (room, Room::MetadataLimit)
        } else {
            (room, Room::File)
        }
    }

    fn with_ctx(&self, f: Fail) -> Error {
        Error::new(f.kind, f.at, self.ctx.clone())
    }

    /// Makes at least `n` bytes from the read position available.
    async fn need(&mut self, n: u64) -> R<()> {
        if self.available() as u64 >= n {
            return Ok(());
        }
        let pos = self.pos();
        let end = pos.saturating_add(n);
        if end > self.file_size {
            return fail(ErrorKind::Truncated, pos);
        }
        if end > self.meta_end {
            return fail(
                ErrorKind::MetadataTooLarge {
                    limit: self.max_meta,
                },
                pos,
            );
        }
        // n <= meta_end - pos <= max_meta: checked above, so it fits usize
        // whenever max_meta does.
        let Ok(n_usize) = usize::try_from(n) else {
            return fail(
                ErrorKind::MetadataTooLarge {
                    limit: self.max_meta,
                },
                pos,
            );
        };
        if self.head > 0 {
            self.buf.drain(..self.head);
            self.buf_start += self.head as u64;
            self.head = 0;
        }
        let have = self.buf.len();
        let want = n_usize.max(self.chunk) as u64;
        let read_end = self.buf_start.saturating_add(want).min(self.file_size);
        let to_read = (read_end - (self.buf_start + have as u64)) as usize;
        self.buf.resize(have + to_read, 0);
        let mut filled = have;
        while filled < n_usize {
            let at = self.buf_start + filled as u64;
            let got = match self.src.read_at(at, &mut self.buf[filled..]).await {
                Ok(got) => got,
                Err(e) => {
                    self.buf.truncate(filled);
                    return fail(ErrorKind::Io(e), pos);
                }
            };
            self.stats.read_calls += 1;
            self.stats.bytes_read += got as u64;
            if got == 0 {
                self.buf.truncate(filled);
                let e = io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "the source ended at {at}, before the size it reported ({})",
                        self.file_size
                    ),
                );
                return fail(ErrorKind::Io(e), pos);
            }
            filled += got.min(self.buf.len() - filled);
        }
        self.buf.truncate(filled);
        Ok(())
    }

    /// Takes `n` bytes that `need` made available.
    fn take(&mut self, n: usize) -> &[u8] {
        let start = self.head;
        self.head += n;
        &self.buf[start..start + n]
    }

    async fn fixed<const N: usize>(&mut self) -> R<[u8; N]> {
        self.need(N as u64).await?;
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N));
        Ok(a)
    }

    async fn u32(&mut self) -> R<u32> {
        let a = self.fixed::<4>().await?;
        Ok(if self.big {
            u32::from_be_bytes(a)
        } else {
            u32::from_le_bytes(a)
        })
    }

    async fn u64(&mut self) -> R<u64> {
        let a = self.fixed::<8>().await?;
        Ok(if self.big {
            u64::from_be_bytes(a)
        } else {
            u64::from_le_bytes(a)
        })
    }

    /// A string: `u64` length, bytes. Errors name the length's offset.
    async fn string(&mut self) -> R<Box<[u8]>> {
        if let Some(s) = self.buffered_string() {
            return Ok(s);
        }
        let at = self.pos();
        let len = self.u64().await?;
        let (room, limit) = self.room();
        if len > room {
            return fail(
                self.too_big(len, ErrorKind::StringTooLong { len, room, limit }),
                at,
            );
        }
        self.need(len).await.map_err(|f| Fail { at, ..f })?;
        Ok(self.take(len as usize).into())
    }

    /// The next string when it is entirely buffered (the common case),
    /// without going through the async path.
    fn buffered_string(&mut self) -> Option<Box<[u8]>> {
        let rest = &self.buf[self.head..];
        let len_bytes: [u8; 8] = rest.get(..8)?.try_into().ok()?;
        let len = if self.big {
            u64::from_be_bytes(len_bytes)
        } else {
            u64::from_le_bytes(len_bytes)
        };
        let len = usize::try_from(len).ok()?;
        let bytes: Box<[u8]> = rest.get(8..8usize.checked_add(len)?)?.into();
        // Buffered bytes lie within the file; the metadata limit is checked
        // by the slow path.
        if self.pos() + 8 + len as u64 > self.meta_end {
            return None;
        }
        self.head += 8 + len;
        Some(bytes)
    }

    /// Checks that `count` items of at least `min_size` bytes each fit.
    fn check_count(&self, what: &'static str, count: u64, min_size: u64, at: u64) -> R<()> {
        let (room, limit) = self.room();
        if count > room / min_size {
            let kind = ErrorKind::CountTooLarge {
                what,
                count,
                min_size,
                room,
                limit,
            };
            return fail(self.too_big(count.saturating_mul(min_size), kind), at);
        }
        Ok(())
    }

    /// The error for an item of `needed` bytes that does not fit: a
    /// plain truncation when a complete file could hold it (it is within
    /// the metadata limit and only the file's end is in the way), else
    /// `kind`, which names the absurd length or count.
    fn too_big(&self, needed: u64, kind: ErrorKind) -> ErrorKind {
        if self.meta_end == self.file_size && needed <= self.max_meta {
            ErrorKind::Truncated
        } else {
            kind
        }
    }

    async fn value_type(&mut self) -> R<ValueType> {
        let at = self.pos();
        let tag = self.u32().await?;
        ValueType::from_tag(tag).ok_or(Fail {
            kind: ErrorKind::UnknownValueType(tag),
            at,
        })
    }

    /// A scalar or string value.
    async fn scalar(&mut self, t: ValueType) -> R<Value> {
        let big = self.big;
        macro_rules! num {
            ($t:ty, $n:literal, $v:ident) => {{
                let a = self.fixed::<$n>().await?;
                Value::$v(if big {
                    <$t>::from_be_bytes(a)
                } else {
                    <$t>::from_le_bytes(a)
                })
            }};
        }
        Ok(match t {
            ValueType::U8 => Value::U8(self.fixed::<1>().await?[0]),
            ValueType::I8 => Value::I8(self.fixed::<1>().await?[0] as i8),
            ValueType::Bool => Value::Bool(self.fixed::<1>().await?[0] != 0),
            ValueType::U16 => num!(u16, 2, U16),
            ValueType::I16 => num!(i16, 2, I16),
            ValueType::U32 => num!(u32, 4, U32),
            ValueType::I32 => num!(i32, 4, I32),
            ValueType::F32 => num!(f32, 4, F32),
            ValueType::U64 => num!(u64, 8, U64),
            ValueType::I64 => num!(i64, 8, I64),
            ValueType::F64 => num!(f64, 8, F64),
            ValueType::String => Value::String(GgufString::from_bytes(self.string().await?)),
            // Arrays are read by `array`.
            ValueType::Array => return fail(ErrorKind::UnknownValueType(9), self.pos()),
        })
    }

    /// An array header (element type, length), checked before allocating.
    async fn array_header(&mut self) -> R<Frame> {
        let elem = self.value_type().await?;
        let at = self.pos();
        let len = self.u64().await?;
        self.check_count("array length", len, elem.min_encoded_size(), at)?;
        let cap = len.min(1 << 16) as usize;
        Ok(Frame {
            items: Array::with_capacity(elem, cap),
            len,
            done: 0,
        })
    }

    /// An array value, nested arrays included, without recursion. Errors
    /// carry the element path.
    async fn array(&mut self) -> Result<Array, (Fail, Vec<u64>)> {
        let mut stack: Vec<Frame> = Vec::new();
        let path = |stack: &[Frame]| stack.iter().map(|f| f.done).collect::<Vec<u64>>();
        match self.array_header().await {
            Ok(f) => stack.push(f),
            Err(e) => return Err((e, Vec::new())),
        }
        loop {
            let depth = stack.len();
            let Some(top) = stack.last_mut() else {
                return Ok(Array::empty(ValueType::U8));
            };
            if top.done == top.len {
                let Some(finished) = stack.pop() else {
                    continue;
                };
                match stack.last_mut() {
                    None => return Ok(finished.items),
                    Some(parent) => {
                        if let Array::Array(v) = &mut parent.items {
                            v.push(finished.items);
                        }
                        parent.done += 1;
                    }
                }
                continue;
            }
            let elem = top.items.element_type();
            let result: R<()> = match elem {
                ValueType::Array => {
                    if depth >= MAX_ARRAY_DEPTH {
                        fail(ErrorKind::NestingTooDeep(MAX_ARRAY_DEPTH), self.pos())
                    } else {
                        match self.array_header().await {
                            Ok(f) => {
                                stack.push(f);
                                Ok(())
                            }
                            Err(e) => Err(e),
                        }
                    }
                }
                ValueType::String => match self.string().await {
                    Ok(s) => {
                        if let Array::String(v) = &mut top.items {
                            v.push(GgufString::from_bytes(s));
                        }
                        top.done += 1;
                        Ok(())
                    }
                    Err(e) => Err(e),
                },
                _ => {
                    let size = elem.fixed_size().unwrap_or(1);
                    let at = self.pos();
                    match self.need(size).await {
                        Err(e) => Err(Fail { at, ..e }),
                        Ok(()) => {
                            let k = (top.len - top.done).min(self.available() as u64 / size);
                            let big = self.big;
                            let bytes = self.take((k * size) as usize);
                            match &mut top.items {
                                Array::U8(v) => v.extend_from_slice(bytes),
                                Array::I8(v) => v.extend(bytes.iter().map(|&b| b as i8)),
                                Array::Bool(v) => v.extend(bytes.iter().map(|&b| b != 0)),
                                Array::U16(v) => decode_into!(v, bytes, u16, big),
                                Array::I16(v) => decode_into!(v, bytes, i16, big),
                                Array::U32(v) => decode_into!(v, bytes, u32, big),
                                Array::I32(v) => decode_into!(v, bytes, i32, big),
                                Array::F32(v) => decode_into!(v, bytes, f32, big),
                                Array::U64(v) => decode_into!(v, bytes, u64, big),
                                Array::I64(v) => decode_into!(v, bytes, i64, big),
                                Array::F64(v) => decode_into!(v, bytes, f64, big),
                                Array::String(_) | Array::Array(_) => {}
                            }
                            top.done += k;
                            Ok(())
                        }
                    }
                }
            };
            if let Err(e) = result {
                return Err((e, path(&stack)));
            }
        }
    }

    async fn run(&mut self) -> Result<GgufFile, Error> {
        // Header.
        self.ctx = Context::Header(HeaderField::Magic);
        let magic = self.fixed::<4>().await.map_err(|f| self.with_ctx(f))?;
        if &magic != b"GGUF" {
            return Err(self.with_ctx(Fail {
                kind: ErrorKind::BadMagic(magic),
                at: 0,
            }));
        }
        self.ctx = Context::Header(HeaderField::Version);
        let raw = self.fixed::<4>().await.map_err(|f| self.with_ctx(f))?;
        let mut version = u32::from_le_bytes(raw);
        if version & 0xFFFF == 0 {
            self.big = true;
            version = u32::from_be_bytes(raw);
        }
        if version != 2 && version != 3 {
            return Err(self.with_ctx(Fail {
                kind: ErrorKind::UnsupportedVersion(version),
                at: 4,
            }));
        }
        self.ctx = Context::Header(HeaderField::TensorCount);
        let tensor_count = self.u64().await.map_err(|f| self.with_ctx(f))?;
        self.ctx = Context::Header(HeaderField::KvCount);
        let kv_count = self.u64().await.map_err(|f| self.with_ctx(f))?;
        // A key/value takes at least 8 (key length) + 4 (type) + 1 bytes; a
        // tensor info 8 (name length) + 4 (n_dims) + 4 (type) + 8 (offset).
        const MIN_KV: u64 = 13;
        const MIN_TENSOR: u64 = 24;
        self.check_count("key/value count", kv_count, MIN_KV, 16)
            .map_err(|f| self.with_ctx(f))?;
        self.ctx = Context::Header(HeaderField::TensorCount);
        {
            let (room, limit) = self.room();
            let room = room - kv_count * MIN_KV;
            if tensor_count > room / MIN_TENSOR {
                let kind = ErrorKind::CountTooLarge {
                    what: "tensor count",
                    count: tensor_count,
                    min_size: MIN_TENSOR,
                    room,
                    limit,
                };
                let needed = tensor_count.saturating_mul(MIN_TENSOR);
                return Err(self.with_ctx(Fail {
                    kind: self.too_big(needed, kind),
                    at: 8,
                }));
            }
        }

        // Key/value pairs.
        let mut metadata: Vec<KeyValue> = Vec::with_capacity(kv_count.min(1024) as usize);
        let mut index: HashMap<String, usize> = HashMap::with_capacity(kv_count.min(1024) as usize);
        for i in 0..kv_count {
            let kv_at = self.pos();
            self.ctx = Context::KeyName { index: i };
            let key = self.string().await.map_err(|f| self.with_ctx(f))?;
            let key = lossy(key);
            if index.contains_key(&key) {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::DuplicateKey(key),
                    at: kv_at,
                }));
            }
            self.ctx = Context::KeyType { key: key.clone() };
            let t = self.value_type().await.map_err(|f| self.with_ctx(f))?;
            self.ctx = Context::Value {
                key: key.clone(),
                element: Vec::new(),
            };
            let value = if t == ValueType::Array {
                match self.array().await {
                    Ok(a) => Value::Array(a),
                    Err((f, path)) => {
                        self.ctx = Context::Value { key, element: path };
                        return Err(self.with_ctx(f));
                    }
                }
            } else {
                self.scalar(t).await.map_err(|f| self.with_ctx(f))?
            };
            index.insert(key.clone(), metadata.len());
            metadata.push(KeyValue {
                key,
                value,
                offset: kv_at,
            });
        }

        // Alignment.
        let mut alignment = DEFAULT_ALIGNMENT;
        if let Some(&i) = index.get("general.alignment") {
            let kv = &metadata[i];
            let why = match kv.value {
                Value::U32(a) if a.is_power_of_two() => {
                    alignment = a.into();
                    None
                }
                Value::U32(a) => Some(format!("{a} is not a power of two")),
                ref other => Some(format!("type {} instead of u32", other.type_name())),
            };
            if let Some(why) = why {
                return Err(Error::new(
                    ErrorKind::BadAlignment(why),
                    kv.offset,
                    Context::Value {
                        key: kv.key.clone(),
                        element: Vec::new(),
                    },
                ));
            }
        }

        // Tensor infos.
        let mut tensors: Vec<TensorInfo> = Vec::with_capacity(tensor_count.min(4096) as usize);
        let mut names: HashSet<String> = HashSet::with_capacity(tensor_count.min(4096) as usize);
        for i in 0..tensor_count {
            let info_at = self.pos();
            self.ctx = Context::TensorName { index: i };
            let name = self.string().await.map_err(|f| self.with_ctx(f))?;
            let name = lossy(name);
            if names.contains(&name) {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::DuplicateTensor(name),
                    at: info_at,
                }));
            }
            let tensor_ctx = |name: &str, field| Context::Tensor {
                index: i,
                name: name.to_string(),
                field,
            };
            self.ctx = tensor_ctx(&name, TensorField::Shape);
            let dims_at = self.pos();
            let n_dims = self.u32().await.map_err(|f| self.with_ctx(f))?;
            if n_dims > MAX_DIMS {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::TooManyDimensions(n_dims),
                    at: dims_at,
                }));
            }
            let mut shape = Vec::with_capacity(n_dims as usize);
            for _ in 0..n_dims {
                shape.push(self.u64().await.map_err(|f| self.with_ctx(f))?);
            }
            let mut n_elements: u64 = 1;
            for (j, &d) in shape.iter().enumerate() {
                if d > i64::MAX as u64 {
                    return Err(self.with_ctx(Fail {
                        kind: ErrorKind::BadShape(format!(
                            "dimension {j} is {d}, above ggml's limit of {}",
                            i64::MAX
                        )),
                        at: dims_at,
                    }));
                }
                n_elements = match n_elements.checked_mul(d) {
                    Some(n) if n <= i64::MAX as u64 => n,
                    _ => {
                        return Err(self.with_ctx(Fail {
                            kind: ErrorKind::BadShape(format!(
                                "the element count of {shape:?} overflows ggml's int64"
                            )),
                            at: dims_at,
                        }))
                    }
                };
            }
            self.ctx = tensor_ctx(&name, TensorField::Type);
            let type_at = self.pos();
            let type_id = self.u32().await.map_err(|f| self.with_ctx(f))?;
            let Some(ggml_type) = GgmlType::from_id(type_id) else {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::UnknownGgmlType(type_id),
                    at: type_at,
                }));
            };
            let row = shape.first().copied().unwrap_or(1);
            if row % ggml_type.block_size() != 0 {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::BadShape(format!(
                        "the first dimension {row} is not a multiple of the {} block size {}",
                        ggml_type.name(),
                        ggml_type.block_size()
                    )),
                    at: type_at,
                }));
            }
            let Some(size) =
                (n_elements / ggml_type.block_size()).checked_mul(ggml_type.type_size())
            else {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::BadShape(format!(
                        "the byte size of {shape:?} {} overflows",
                        ggml_type.name()
                    )),
                    at: type_at,
                }));
            };
            self.ctx = tensor_ctx(&name, TensorField::Offset);
            let offset_at = self.pos();
            let offset = self.u64().await.map_err(|f| self.with_ctx(f))?;
            if offset % alignment != 0 {
                return Err(self.with_ctx(Fail {
                    kind: ErrorKind::MisalignedTensor { offset, alignment },
                    at: offset_at,
                }));
            }
            names.insert(name.clone());
            tensors.push(TensorInfo {
                name,
                ggml_type,
                shape,
                offset,
                size,
            });
        }
        drop(names);

        let metadata_end = self.pos();
        let tensor_data_offset = metadata_end.div_ceil(alignment).saturating_mul(alignment);
        for (i, t) in tensors.iter().enumerate() {
            let start = tensor_data_offset.saturating_add(t.offset);
            if start.saturating_add(t.size) > self.file_size {
                return Err(Error::new(
                    ErrorKind::TensorOutOfBounds {
                        start,
                        size: t.size,
                        file_size: self.file_size,
                    },
                    start,
                    Context::Tensor {
                        index: i as u64,
                        name: t.name.clone(),
                        field: TensorField::Data,
                    },
                ));
            }
        }

        Ok(GgufFile {
            version,
            endian: if self.big {
                Endian::Big
            } else {
                Endian::Little
            },
            alignment,
            tensor_data_offset,
            metadata_end,
            file_size: self.file_size,
            metadata,
            index,
            tensors,
            stats: self.stats,
        })
    }
}

fn lossy(bytes: Box<[u8]>) -> String {
    match String::from_utf8(bytes.into_vec()) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}
