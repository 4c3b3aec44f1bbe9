//! Errors: what went wrong, at which byte offset, while reading what.

use std::fmt;
use std::io;

/// A parse error: the kind of problem, the file offset of the item being
/// read, and what was being read.
///
/// Displays as `truncated file at offset 1234 while reading the value of
/// key "tokenizer.ggml.tokens" at element [17]`.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    offset: u64,
    context: Context,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, offset: u64, context: Context) -> Error {
        Error {
            kind,
            offset,
            context,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// File offset of the item being read (a length, a type tag, a
    /// value, an array element or a tensor info).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// What was being read.
    pub fn context(&self) -> &Context {
        &self.context
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at offset {} while reading {}",
            self.kind, self.offset, self.context
        )
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Which limit a count or length ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Room {
    /// The bytes left in the file.
    File,
    /// The bytes left under [`ParseOptions::max_metadata_size`](crate::ParseOptions::max_metadata_size).
    MetadataLimit,
}

impl fmt::Display for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Room::File => "left in the file",
            Room::MetadataLimit => "left under the metadata size limit",
        })
    }
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The byte source failed.
    Io(io::Error),
    /// The file ends in the middle of an item.
    Truncated,
    /// The first four bytes are not `GGUF`.
    BadMagic([u8; 4]),
    /// A version other than 2 or 3 (version 1 used 32-bit counts).
    UnsupportedVersion(u32),
    /// A count (keys, tensors, array elements) that cannot fit in the
    /// bytes left, each element taking at least `min_size` bytes, and that
    /// no file within the metadata size limit could hold (a count that
    /// merely runs past the end of a short file is [`ErrorKind::Truncated`]).
    CountTooLarge {
        /// What is counted, like `array length`.
        what: &'static str,
        /// The count read.
        count: u64,
        /// Fewest bytes one element takes.
        min_size: u64,
        /// Bytes left.
        room: u64,
        /// Which limit.
        limit: Room,
    },
    /// A string length longer than the bytes left and than the metadata
    /// size limit (one that merely runs past the end of a short file is
    /// [`ErrorKind::Truncated`]).
    StringTooLong {
        /// The length read.
        len: u64,
        /// Bytes left.
        room: u64,
        /// Which limit.
        limit: Room,
    },
    /// An unknown metadata value type tag.
    UnknownValueType(u32),
    /// An unknown (or retired) ggml tensor type id.
    UnknownGgmlType(u32),
    /// A tensor with more than 4 dimensions (`GGML_MAX_DIMS`).
    TooManyDimensions(u32),
    /// Arrays nested deeper than [`MAX_ARRAY_DEPTH`](crate::MAX_ARRAY_DEPTH).
    NestingTooDeep(usize),
    /// A key that appeared before.
    DuplicateKey(String),
    /// A tensor name that appeared before.
    DuplicateTensor(String),
    /// `general.alignment` is not a `u32` power of two.
    BadAlignment(String),
    /// A tensor shape ggml cannot hold: a dimension above `i64::MAX`, an
    /// element count or byte size that overflows, or rows that are not
    /// whole blocks.
    BadShape(String),
    /// A tensor offset that is not a multiple of the alignment.
    MisalignedTensor {
        /// The offset (relative to the data section).
        offset: u64,
        /// The alignment.
        alignment: u64,
    },
    /// Tensor data that extends past the end of the file.
    TensorOutOfBounds {
        /// Absolute file offset where the data starts.
        start: u64,
        /// Its byte size.
        size: u64,
        /// The file size.
        file_size: u64,
    },
    /// Metadata that extends past [`ParseOptions::max_metadata_size`](crate::ParseOptions::max_metadata_size).
    MetadataTooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// The source's future was not ready when driven synchronously (a
    /// [`ReadAt`](crate::ReadAt) never causes this).
    NotReady,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(e) => write!(f, "read error ({e})"),
            ErrorKind::Truncated => f.write_str("truncated file"),
            ErrorKind::BadMagic(m) => write!(
                f,
                "not a GGUF file (magic {:?}, expected \"GGUF\")",
                String::from_utf8_lossy(m)
            ),
            ErrorKind::UnsupportedVersion(1) => f.write_str(
                "GGUF version 1 is not supported (it used 32-bit counts; convert the model again with a current llama.cpp)",
            ),
            ErrorKind::UnsupportedVersion(v) => {
                write!(f, "unsupported GGUF version {v} (versions 2 and 3 are supported)")
            }
            ErrorKind::CountTooLarge {
                what,
                count,
                min_size,
                room,
                limit,
            } => write!(
                f,
                "{what} {count} cannot fit in the {room} bytes {limit} (each takes at least {min_size} bytes)"
            ),
            ErrorKind::StringTooLong { len, room, limit } => {
                write!(f, "string length {len} exceeds the {room} bytes {limit}")
            }
            ErrorKind::UnknownValueType(t) => write!(f, "unknown value type {t}"),
            ErrorKind::UnknownGgmlType(t) => write!(f, "unknown ggml type {t}"),
            ErrorKind::TooManyDimensions(n) => {
                write!(f, "{n} dimensions (ggml allows at most 4)")
            }
            ErrorKind::NestingTooDeep(d) => {
                write!(f, "arrays nested more than {d} deep")
            }
            ErrorKind::DuplicateKey(k) => write!(f, "duplicate key {k:?}"),
            ErrorKind::DuplicateTensor(t) => write!(f, "duplicate tensor name {t:?}"),
            ErrorKind::BadAlignment(why) => write!(f, "invalid general.alignment: {why}"),
            ErrorKind::BadShape(why) => write!(f, "invalid tensor shape: {why}"),
            ErrorKind::MisalignedTensor { offset, alignment } => write!(
                f,
                "tensor offset {offset} is not a multiple of the alignment {alignment}"
            ),
            ErrorKind::TensorOutOfBounds {
                start,
                size,
                file_size,
            } => write!(
                f,
                "tensor data ({size} bytes from offset {start}) extends past the end of the file ({file_size} bytes)"
            ),
            ErrorKind::MetadataTooLarge { limit } => {
                write!(f, "metadata larger than the limit of {limit} bytes")
            }
            ErrorKind::NotReady => {
                f.write_str("the byte source was not ready (use parse_async)")
            }
        }
    }
}

/// A part of the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderField {
    /// The magic `GGUF`.
    Magic,
    /// The version.
    Version,
    /// The tensor count.
    TensorCount,
    /// The key/value count.
    KvCount,
}

/// A part of a tensor info.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TensorField {
    /// The dimension count and dimensions.
    Shape,
    /// The ggml type.
    Type,
    /// The data offset.
    Offset,
    /// The data it points to.
    Data,
}

/// What was being read when an error occurred.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Context {
    /// A header field.
    Header(HeaderField),
    /// The name of key/value pair `index` (0-based).
    KeyName {
        /// Position in the file.
        index: u64,
    },
    /// The type tag of a key.
    KeyType {
        /// The key.
        key: String,
    },
    /// The value of a key.
    Value {
        /// The key.
        key: String,
        /// Element indices into nested arrays; empty for the value itself.
        element: Vec<u64>,
    },
    /// The name of tensor info `index` (0-based).
    TensorName {
        /// Position in the file.
        index: u64,
    },
    /// A part of a tensor info.
    Tensor {
        /// Position in the file.
        index: u64,
        /// Its name.
        name: String,
        /// Which part.
        field: TensorField,
    },
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Context::Header(h) => f.write_str(match h {
                HeaderField::Magic => "the header magic",
                HeaderField::Version => "the header version",
                HeaderField::TensorCount => "the header tensor count",
                HeaderField::KvCount => "the header key/value count",
            }),
            Context::KeyName { index } => write!(f, "the name of key #{index}"),
            Context::KeyType { key } => write!(f, "the type of key {key:?}"),
            Context::Value { key, element } => {
                write!(f, "the value of key {key:?}")?;
                if !element.is_empty() {
                    f.write_str(" at element ")?;
                    for i in element {
                        write!(f, "[{i}]")?;
                    }
                }
                Ok(())
            }
            Context::TensorName { index } => write!(f, "the name of tensor #{index}"),
            Context::Tensor { index, name, field } => {
                let part = match field {
                    TensorField::Shape => "the shape",
                    TensorField::Type => "the type",
                    TensorField::Offset => "the offset",
                    TensorField::Data => "the data",
                };
                write!(f, "{part} of tensor #{index} {name:?}")
            }
        }
    }
}
