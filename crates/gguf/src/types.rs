//! The two type tables of GGUF: metadata value types and ggml tensor types.

use std::fmt;

/// The type tag of a metadata value (`gguf_type` in ggml, `GGUFValueType`
/// in gguf-py).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// `u8` (tag 0).
    U8,
    /// `i8` (tag 1).
    I8,
    /// `u16` (tag 2).
    U16,
    /// `i16` (tag 3).
    I16,
    /// `u32` (tag 4).
    U32,
    /// `i32` (tag 5).
    I32,
    /// `f32` (tag 6).
    F32,
    /// `bool`, one byte, any non-zero value is true (tag 7).
    Bool,
    /// A string: `u64` length and that many bytes, meant to be UTF-8 (tag 8).
    String,
    /// An array: element type tag, `u64` length, elements (tag 9).
    Array,
    /// `u64` (tag 10).
    U64,
    /// `i64` (tag 11).
    I64,
    /// `f64` (tag 12).
    F64,
}

impl ValueType {
    /// The type for a tag read from a file, if the tag is known.
    pub fn from_tag(tag: u32) -> Option<ValueType> {
        Some(match tag {
            0 => ValueType::U8,
            1 => ValueType::I8,
            2 => ValueType::U16,
            3 => ValueType::I16,
            4 => ValueType::U32,
            5 => ValueType::I32,
            6 => ValueType::F32,
            7 => ValueType::Bool,
            8 => ValueType::String,
            9 => ValueType::Array,
            10 => ValueType::U64,
            11 => ValueType::I64,
            12 => ValueType::F64,
            _ => return None,
        })
    }

    /// The tag written in files.
    pub fn tag(self) -> u32 {
        match self {
            ValueType::U8 => 0,
            ValueType::I8 => 1,
            ValueType::U16 => 2,
            ValueType::I16 => 3,
            ValueType::U32 => 4,
            ValueType::I32 => 5,
            ValueType::F32 => 6,
            ValueType::Bool => 7,
            ValueType::String => 8,
            ValueType::Array => 9,
            ValueType::U64 => 10,
            ValueType::I64 => 11,
            ValueType::F64 => 12,
        }
    }

    /// The name used by `promptscope gguf --json`: `u8 i8 u16 i16 u32 i32
    /// u64 i64 f32 f64 bool string array`.
    pub fn name(self) -> &'static str {
        match self {
            ValueType::U8 => "u8",
            ValueType::I8 => "i8",
            ValueType::U16 => "u16",
            ValueType::I16 => "i16",
            ValueType::U32 => "u32",
            ValueType::I32 => "i32",
            ValueType::F32 => "f32",
            ValueType::Bool => "bool",
            ValueType::String => "string",
            ValueType::Array => "array",
            ValueType::U64 => "u64",
            ValueType::I64 => "i64",
            ValueType::F64 => "f64",
        }
    }

    /// The size in bytes of a fixed-size value, `None` for strings and arrays.
    pub fn fixed_size(self) -> Option<u64> {
        match self {
            ValueType::U8 | ValueType::I8 | ValueType::Bool => Some(1),
            ValueType::U16 | ValueType::I16 => Some(2),
            ValueType::U32 | ValueType::I32 | ValueType::F32 => Some(4),
            ValueType::U64 | ValueType::I64 | ValueType::F64 => Some(8),
            ValueType::String | ValueType::Array => None,
        }
    }

    /// The fewest bytes a value of this type takes in a file: its fixed
    /// size, 8 for a string (the length) and 12 for an array (element type
    /// and length). Used to check counts before allocating.
    pub fn min_encoded_size(self) -> u64 {
        match self {
            ValueType::String => 8,
            ValueType::Array => 12,
            other => other.fixed_size().unwrap_or(1),
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! ggml_types {
    ($($(#[$doc:meta])* $variant:ident = $id:literal, $name:literal, $block:expr, $size:expr;)*) => {
        /// A ggml tensor type, with ggml's ids and names (`GGMLQuantizationType`
        /// and `GGML_QUANT_SIZES` in gguf-py). Ids ggml retired (4, 5, 31-33,
        /// 36-38) are not types.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        #[allow(non_camel_case_types)] // ggml's own names
        pub enum GgmlType {
            $($(#[$doc])* $variant,)*
        }

        impl GgmlType {
            /// Every known type, in id order.
            pub const ALL: &'static [GgmlType] = &[$(GgmlType::$variant,)*];

            /// The type for an id read from a file, if ggml knows it.
            pub fn from_id(id: u32) -> Option<GgmlType> {
                match id {
                    $($id => Some(GgmlType::$variant),)*
                    _ => None,
                }
            }

            /// The id written in files.
            pub fn id(self) -> u32 {
                match self {
                    $(GgmlType::$variant => $id,)*
                }
            }

            /// ggml's name: `F32`, `Q4_K`, `IQ4_NL`, `BF16`, ...
            pub fn name(self) -> &'static str {
                match self {
                    $(GgmlType::$variant => $name,)*
                }
            }

            /// Elements per block (1 for plain types, 32 for `Q4_0`, 256 for
            /// the k-quants).
            pub fn block_size(self) -> u64 {
                match self {
                    $(GgmlType::$variant => $block,)*
                }
            }

            /// Bytes per block.
            pub fn type_size(self) -> u64 {
                match self {
                    $(GgmlType::$variant => $size,)*
                }
            }
        }
    };
}

/// `QK_K`: elements in a k-quant super-block.
const QK_K: u64 = 256;

ggml_types! {
    /// 32-bit float.
    F32 = 0, "F32", 1, 4;
    /// 16-bit IEEE float.
    F16 = 1, "F16", 1, 2;
    /// 4-bit, blocks of 32 with an f16 scale.
    Q4_0 = 2, "Q4_0", 32, 2 + 16;
    /// 4-bit, blocks of 32 with f16 scale and minimum.
    Q4_1 = 3, "Q4_1", 32, 2 + 2 + 16;
    /// 5-bit, blocks of 32.
    Q5_0 = 6, "Q5_0", 32, 2 + 4 + 16;
    /// 5-bit with minimum, blocks of 32.
    Q5_1 = 7, "Q5_1", 32, 2 + 2 + 4 + 16;
    /// 8-bit, blocks of 32.
    Q8_0 = 8, "Q8_0", 32, 2 + 32;
    /// 8-bit with f32 scale and sum, blocks of 32.
    Q8_1 = 9, "Q8_1", 32, 4 + 4 + 32;
    /// 2-bit k-quant.
    Q2_K = 10, "Q2_K", QK_K, 2 + 2 + QK_K / 16 + QK_K / 4;
    /// 3-bit k-quant.
    Q3_K = 11, "Q3_K", QK_K, 2 + QK_K / 4 + QK_K / 8 + 12;
    /// 4-bit k-quant.
    Q4_K = 12, "Q4_K", QK_K, 2 + 2 + QK_K / 2 + 12;
    /// 5-bit k-quant.
    Q5_K = 13, "Q5_K", QK_K, 2 + 2 + QK_K / 2 + QK_K / 8 + 12;
    /// 6-bit k-quant.
    Q6_K = 14, "Q6_K", QK_K, 2 + QK_K / 2 + QK_K / 4 + QK_K / 16;
    /// 8-bit k-quant (intermediate results).
    Q8_K = 15, "Q8_K", QK_K, 4 + QK_K + QK_K / 8;
    /// i-quant, 2.06 bits per weight.
    IQ2_XXS = 16, "IQ2_XXS", QK_K, 2 + QK_K / 4;
    /// i-quant, 2.31 bits per weight.
    IQ2_XS = 17, "IQ2_XS", QK_K, 2 + QK_K / 4 + QK_K / 32;
    /// i-quant, 3.06 bits per weight.
    IQ3_XXS = 18, "IQ3_XXS", QK_K, 2 + QK_K / 4 + QK_K / 8;
    /// i-quant, 1.56 bits per weight.
    IQ1_S = 19, "IQ1_S", QK_K, 2 + QK_K / 8 + QK_K / 16;
    /// 4-bit non-linear, blocks of 32.
    IQ4_NL = 20, "IQ4_NL", 32, 2 + 16;
    /// i-quant, 3.44 bits per weight.
    IQ3_S = 21, "IQ3_S", QK_K, 2 + QK_K / 4 + QK_K / 8 + QK_K / 32 + 4;
    /// i-quant, 2.5 bits per weight.
    IQ2_S = 22, "IQ2_S", QK_K, 2 + QK_K / 4 + QK_K / 16;
    /// 4-bit non-linear super-blocks.
    IQ4_XS = 23, "IQ4_XS", QK_K, 2 + 2 + QK_K / 2 + QK_K / 64;
    /// 8-bit integer.
    I8 = 24, "I8", 1, 1;
    /// 16-bit integer.
    I16 = 25, "I16", 1, 2;
    /// 32-bit integer.
    I32 = 26, "I32", 1, 4;
    /// 64-bit integer.
    I64 = 27, "I64", 1, 8;
    /// 64-bit float.
    F64 = 28, "F64", 1, 8;
    /// i-quant, 1.75 bits per weight.
    IQ1_M = 29, "IQ1_M", QK_K, QK_K / 8 + QK_K / 16 + QK_K / 32;
    /// bfloat16.
    BF16 = 30, "BF16", 1, 2;
    /// Ternary, 1.69 bits per weight.
    TQ1_0 = 34, "TQ1_0", QK_K, 2 + 4 * 13;
    /// Ternary, 2.06 bits per weight.
    TQ2_0 = 35, "TQ2_0", QK_K, 2 + 64;
    /// Microscaling FP4, blocks of 32.
    MXFP4 = 39, "MXFP4", 32, 1 + 16;
    /// NVIDIA FP4, blocks of 64.
    NVFP4 = 40, "NVFP4", 64, 4 + 32;
    /// 1-bit, blocks of 128.
    Q1_0 = 41, "Q1_0", 128, 2 + 16;
}

impl GgmlType {
    /// Bytes taken by `n_elements` elements of this type, rounded up to
    /// whole blocks; `None` on overflow.
    pub fn bytes_for(self, n_elements: u64) -> Option<u64> {
        let blocks = n_elements.div_ceil(self.block_size());
        blocks.checked_mul(self.type_size())
    }

    /// Whether the type is a block-quantized one (block size above 1).
    pub fn is_quantized(self) -> bool {
        self.block_size() > 1
    }
}

impl fmt::Display for GgmlType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
