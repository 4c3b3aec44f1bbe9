//! The value model: Rust stand-ins for the Go values a template can see.
//!
//! Go templates work on `reflect.Value`s. What a template can observe of a
//! value is its kind, its static type (printed by `%T`, used for zero values
//! and error messages), its contents, and the methods of its type. [`Value`]
//! carries exactly that, and [`Type`] describes Go types well enough to print
//! them the way `reflect.Type.String()` does.
//!
//! Two values have no Go literal but matter to templates:
//! - [`Value::Invalid`] is the zero `reflect.Value` (a missing map key); it
//!   prints as `<no value>`.
//! - [`Value::Nil`] is a nil `interface{}` stored in a container (a JSON
//!   `null`); pipelines turn it into `Invalid`, as Go does.

use std::cmp::Ordering;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;

/// Signed integer types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    /// `int` (64 bits here, as on every platform Ollama ships).
    Int,
    /// `int8`
    I8,
    /// `int16`
    I16,
    /// `int32` (also `rune`)
    I32,
    /// `int64`
    I64,
}

/// Unsigned integer types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UintType {
    /// `uint`
    Uint,
    /// `uint8` (also `byte`)
    U8,
    /// `uint16`
    U16,
    /// `uint32`
    U32,
    /// `uint64`
    U64,
    /// `uintptr`
    Uintptr,
}

/// Float types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatType {
    /// `float32`
    F32,
    /// `float64`
    F64,
}

/// Complex types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComplexType {
    /// `complex64`
    C64,
    /// `complex128`
    C128,
}

impl IntType {
    /// Number of bits.
    pub fn bits(self) -> u32 {
        match self {
            IntType::Int | IntType::I64 => 64,
            IntType::I8 => 8,
            IntType::I16 => 16,
            IntType::I32 => 32,
        }
    }
    fn name(self) -> &'static str {
        match self {
            IntType::Int => "int",
            IntType::I8 => "int8",
            IntType::I16 => "int16",
            IntType::I32 => "int32",
            IntType::I64 => "int64",
        }
    }
}

impl UintType {
    /// Number of bits.
    pub fn bits(self) -> u32 {
        match self {
            UintType::Uint | UintType::U64 | UintType::Uintptr => 64,
            UintType::U8 => 8,
            UintType::U16 => 16,
            UintType::U32 => 32,
        }
    }
    fn name(self) -> &'static str {
        match self {
            UintType::Uint => "uint",
            UintType::U8 => "uint8",
            UintType::U16 => "uint16",
            UintType::U32 => "uint32",
            UintType::U64 => "uint64",
            UintType::Uintptr => "uintptr",
        }
    }
}

/// A Go type, as much of it as templates and `fmt` can observe.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `bool`
    Bool,
    /// `int`, `int8`, ...
    Int(IntType),
    /// `uint`, `uint8`, ...
    Uint(UintType),
    /// `float32`, `float64`
    Float(FloatType),
    /// `complex64`, `complex128`
    Complex(ComplexType),
    /// `string`
    String,
    /// The empty interface, `interface {}` (`any`).
    Interface,
    /// `error` (an interface with one method).
    Error,
    /// `reflect.Value`, the parameter type of several builtins.
    ReflectValue,
    /// `[]T`
    Slice(Arc<Type>),
    /// `[N]T`
    Array(usize, Arc<Type>),
    /// `map[K]V`
    Map(Arc<Type>, Arc<Type>),
    /// `*T`
    Pointer(Arc<Type>),
    /// A struct type, named or not.
    Struct(Arc<StructType>),
    /// A function type.
    Func(Arc<FuncType>),
    /// A defined (named) type over a non-struct underlying type, with methods,
    /// e.g. `type PropertyType []string`.
    Named(Arc<NamedType>),
}

/// A struct type.
#[derive(Debug)]
pub struct StructType {
    /// Qualified name as Go prints it (`template.templateMessage`), or empty
    /// for an unnamed struct type.
    pub name: String,
    /// Fields in declaration order.
    pub fields: Vec<FieldDef>,
    /// Methods on the value receiver and on the pointer receiver.
    pub methods: Vec<Method>,
}

impl PartialEq for StructType {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || (self.name == other.name && !self.name.is_empty())
    }
}

/// A struct field.
#[derive(Clone, Debug)]
pub struct FieldDef {
    /// Field name.
    pub name: String,
    /// Field type.
    pub ty: Type,
    /// The Go struct tag, e.g. `json:"name,omitempty"` (empty if none).
    pub tag: String,
}

impl FieldDef {
    /// A field without a tag.
    pub fn new(name: &str, ty: Type) -> FieldDef {
        FieldDef {
            name: name.to_string(),
            ty,
            tag: String::new(),
        }
    }

    /// A field with a Go struct tag.
    pub fn tagged(name: &str, ty: Type, tag: &str) -> FieldDef {
        FieldDef {
            name: name.to_string(),
            ty,
            tag: tag.to_string(),
        }
    }

    /// The value of `key` in the struct tag (Go's `StructTag.Get`).
    pub fn tag_value(&self, key: &str) -> Option<&str> {
        let mut rest = self.tag.as_str();
        loop {
            rest = rest.trim_start_matches(' ');
            let colon = rest.find(':')?;
            let name = &rest[..colon];
            let after = rest[colon + 1..].strip_prefix('"')?;
            let mut end = None;
            let mut escaped = false;
            for (i, c) in after.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let end = end?;
            if name == key {
                return Some(&after[..end]);
            }
            rest = &after[end + 1..];
        }
    }

    /// Whether the field is exported (its name starts with an upper-case letter).
    pub fn is_exported(&self) -> bool {
        self.name.chars().next().is_some_and(char::is_uppercase)
    }
}

/// A defined type over a non-struct type, with its methods.
#[derive(Debug)]
pub struct NamedType {
    /// Qualified name (`api.PropertyType`).
    pub name: String,
    /// The underlying type.
    pub underlying: Type,
    /// Methods.
    pub methods: Vec<Method>,
}

impl PartialEq for NamedType {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// The implementation of a Go function or method: takes the arguments
/// (for a method, the receiver first) and returns the result or an error
/// message (the `error` result of a Go function).
pub type NativeFn = dyn Fn(&[Value]) -> Result<Value, String> + Send + Sync;

/// A Go method, callable from templates as `.Name` and used by `fmt`
/// (`String`, `Error`).
#[derive(Clone)]
pub struct Method {
    /// Method name.
    pub name: String,
    /// Whether the method is declared on the pointer receiver `*T`.
    pub pointer_receiver: bool,
    /// Signature, without the receiver.
    pub sig: Arc<FuncType>,
    /// Implementation; receives the receiver (the value, not the pointer)
    /// followed by the arguments.
    pub imp: Arc<NativeFn>,
}

impl fmt::Debug for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Method({})", self.name)
    }
}

/// A function signature.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncType {
    /// Parameter types; for a variadic function the last one is the slice type.
    pub params: Vec<Type>,
    /// Whether the last parameter is variadic.
    pub variadic: bool,
    /// Result types (Go allows one, or two with `error` second, in templates).
    pub results: Vec<Type>,
}

/// A function value.
#[derive(Clone)]
pub struct Function {
    /// Name, for messages.
    pub name: String,
    /// Signature.
    pub sig: Arc<FuncType>,
    /// Implementation.
    pub imp: Arc<NativeFn>,
    /// Stable fake address, printed by `%p` and `%v`.
    pub addr: u64,
}

impl fmt::Debug for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Function({})", self.name)
    }
}

/// A slice or array value.
#[derive(Clone, Debug)]
pub struct Slice {
    /// The slice (or array) type.
    pub ty: Type,
    /// Backing array from the slice's start; `backing.len()` is the capacity.
    /// Elements past `len` are the array's (zero) values.
    pub backing: Arc<Vec<Value>>,
    /// Offset of the slice's first element in `backing`.
    pub start: usize,
    /// Length.
    pub len: usize,
    /// Capacity (from `start`).
    pub cap: usize,
    /// Whether this is a nil slice.
    pub is_nil: bool,
    /// Fake address of the first element, for `%p`.
    pub addr: u64,
}

impl Slice {
    /// The elements.
    pub fn items(&self) -> &[Value] {
        &self.backing[self.start..self.start + self.len]
    }
    /// The element type.
    pub fn elem_type(&self) -> Type {
        match self.ty.underlying() {
            Type::Slice(e) | Type::Array(_, e) => (**e).clone(),
            _ => Type::Interface,
        }
    }
}

/// A map value. Entries are kept in Go's `fmtsort` key order, which is the
/// order `range` and `fmt` use.
#[derive(Clone, Debug)]
pub struct Map {
    /// The map type.
    pub ty: Type,
    /// Entries sorted by key.
    pub entries: Vec<(Value, Value)>,
    /// Whether this is a nil map.
    pub is_nil: bool,
    /// Fake address, for `%p`.
    pub addr: u64,
}

impl Map {
    /// The key type.
    pub fn key_type(&self) -> Type {
        match self.ty.underlying() {
            Type::Map(k, _) => (**k).clone(),
            _ => Type::String,
        }
    }
    /// The element type.
    pub fn elem_type(&self) -> Type {
        match self.ty.underlying() {
            Type::Map(_, v) => (**v).clone(),
            _ => Type::Interface,
        }
    }
    /// Looks up a key; `None` if absent.
    pub fn get(&self, key: &Value) -> Option<&Value> {
        self.entries
            .binary_search_by(|(k, _)| compare_keys(k, key))
            .ok()
            .map(|i| &self.entries[i].1)
    }
    /// Looks up a string key.
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        self.entries
            .binary_search_by(|(k, _)| match k {
                Value::String(s) => (**s).cmp(key),
                other => compare_keys(other, &Value::string(key)),
            })
            .ok()
            .map(|i| &self.entries[i].1)
    }
}

/// A struct value.
#[derive(Clone, Debug)]
pub struct Struct {
    /// The struct type.
    pub ty: Arc<StructType>,
    /// Field values, in the order of `ty.fields`.
    pub fields: Vec<Value>,
}

/// A pointer value.
#[derive(Clone, Debug)]
pub struct Pointer {
    /// The pointer type (`*T`).
    pub ty: Type,
    /// What it points to; `None` for a nil pointer.
    pub target: Option<Value>,
    /// Fake address, printed by `%p` and for pointers at depth > 0.
    pub addr: u64,
}

/// A Go value.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// The zero `reflect.Value`: no value at all (a missing map key).
    #[default]
    Invalid,
    /// A nil `interface{}` (a JSON `null` inside a container).
    Nil,
    /// `bool`
    Bool(bool),
    /// Signed integers.
    Int(i64, IntType),
    /// Unsigned integers.
    Uint(u64, UintType),
    /// Floats.
    Float(f64, FloatType),
    /// Complex numbers (real, imaginary).
    Complex(f64, f64, ComplexType),
    /// `string`
    String(Arc<str>),
    /// Slices and arrays.
    Slice(Arc<Slice>),
    /// Maps.
    Map(Arc<Map>),
    /// Structs.
    Struct(Arc<Struct>),
    /// Pointers.
    Pointer(Arc<Pointer>),
    /// Functions.
    Func(Arc<Function>),
    /// A value of a defined non-struct type with methods (`type T []string`).
    Named(Arc<NamedType>, Box<Value>),
}

static NEXT_ADDR: AtomicU64 = AtomicU64::new(0xc000010000);

/// A fresh fake heap address. Go prints real addresses; ours look like
/// Go's (`0xc000...`) and are unique per process.
pub fn fake_addr(size: u64) -> u64 {
    let step = size.max(8).next_multiple_of(16);
    NEXT_ADDR.fetch_add(step, AtomicOrdering::Relaxed)
}

impl Value {
    /// A `string` value.
    pub fn string(s: impl Into<Arc<str>>) -> Value {
        Value::String(s.into())
    }

    /// An `int` value.
    pub fn int(i: i64) -> Value {
        Value::Int(i, IntType::Int)
    }

    /// A `float64` value.
    pub fn float(f: f64) -> Value {
        Value::Float(f, FloatType::F64)
    }

    /// A slice of the given element type, with capacity equal to its length.
    pub fn slice(elem: Type, items: Vec<Value>) -> Value {
        let cap = items.len();
        Value::slice_with_cap(elem, items, cap)
    }

    /// A slice whose capacity exceeds its length; the extra backing
    /// elements are zero values of the element type.
    pub fn slice_with_cap(elem: Type, mut items: Vec<Value>, cap: usize) -> Value {
        let len = items.len();
        let cap = cap.max(len);
        items.resize_with(cap, || elem.zero());
        Value::Slice(Arc::new(Slice {
            ty: Type::Slice(Arc::new(elem)),
            backing: Arc::new(items),
            start: 0,
            len,
            cap,
            is_nil: false,
            addr: fake_addr(16 * cap as u64),
        }))
    }

    /// A map with the given key and element types.
    pub fn map(key: Type, elem: Type, mut entries: Vec<(Value, Value)>) -> Value {
        entries.sort_by(|a, b| compare_keys(&a.0, &b.0));
        entries.dedup_by(|a, b| compare_keys(&a.0, &b.0) == Ordering::Equal);
        Value::Map(Arc::new(Map {
            ty: Type::Map(Arc::new(key), Arc::new(elem)),
            entries,
            is_nil: false,
            addr: fake_addr(48),
        }))
    }

    /// A struct value of the given type.
    pub fn new_struct(ty: Arc<StructType>, fields: Vec<Value>) -> Value {
        Value::Struct(Arc::new(Struct { ty, fields }))
    }

    /// A pointer to a value.
    pub fn pointer_to(v: Value) -> Value {
        let ty = Type::Pointer(Arc::new(v.type_of().unwrap_or(Type::Interface)));
        Value::Pointer(Arc::new(Pointer {
            ty,
            target: Some(v),
            addr: fake_addr(64),
        }))
    }

    /// A function value.
    pub fn func(name: &str, sig: FuncType, imp: Arc<NativeFn>) -> Value {
        Value::Func(Arc::new(Function {
            name: name.to_string(),
            sig: Arc::new(sig),
            imp,
            addr: fake_addr(8),
        }))
    }

    /// Whether this is the zero `reflect.Value`.
    pub fn is_valid(&self) -> bool {
        !matches!(self, Value::Invalid)
    }

    /// The dynamic type; `None` for `Invalid` and `Nil`.
    pub fn type_of(&self) -> Option<Type> {
        Some(match self {
            Value::Invalid | Value::Nil => return None,
            Value::Bool(_) => Type::Bool,
            Value::Int(_, t) => Type::Int(*t),
            Value::Uint(_, t) => Type::Uint(*t),
            Value::Float(_, t) => Type::Float(*t),
            Value::Complex(_, _, t) => Type::Complex(*t),
            Value::String(_) => Type::String,
            Value::Slice(s) => s.ty.clone(),
            Value::Map(m) => m.ty.clone(),
            Value::Struct(s) => Type::Struct(s.ty.clone()),
            Value::Pointer(p) => p.ty.clone(),
            Value::Func(f) => Type::Func(f.sig.clone()),
            Value::Named(t, _) => Type::Named(t.clone()),
        })
    }

    /// The value with any defined-type wrapper removed.
    pub fn underlying(&self) -> &Value {
        match self {
            Value::Named(_, v) => v.underlying(),
            v => v,
        }
    }

    /// Go's `reflect.Kind` name of the value (`invalid` for `Invalid`,
    /// `interface` for `Nil`).
    pub fn kind(&self) -> Kind {
        match self.underlying() {
            Value::Invalid => Kind::Invalid,
            Value::Nil => Kind::Interface,
            Value::Bool(_) => Kind::Bool,
            Value::Int(..) => Kind::Int,
            Value::Uint(..) => Kind::Uint,
            Value::Float(..) => Kind::Float,
            Value::Complex(..) => Kind::Complex,
            Value::String(_) => Kind::String,
            Value::Slice(s) => {
                if matches!(s.ty.underlying(), Type::Array(..)) {
                    Kind::Array
                } else {
                    Kind::Slice
                }
            }
            Value::Map(_) => Kind::Map,
            Value::Struct(_) => Kind::Struct,
            Value::Pointer(_) => Kind::Pointer,
            Value::Func(_) => Kind::Func,
            Value::Named(..) => unreachable!("underlying() removes Named"),
        }
    }

    /// The methods of the value's type (value receiver and, since templates
    /// take the address of addressable values, pointer receiver).
    pub fn methods(&self) -> &[Method] {
        match self {
            Value::Struct(s) => &s.ty.methods,
            Value::Named(t, _) => &t.methods,
            Value::Pointer(p) => match &p.target {
                Some(v) => v.methods(),
                None => match &p.ty {
                    Type::Pointer(inner) => match &**inner {
                        Type::Struct(st) => &st.methods,
                        Type::Named(nt) => &nt.methods,
                        _ => &[],
                    },
                    _ => &[],
                },
            },
            _ => &[],
        }
    }

    /// Finds a method by name.
    pub fn method(&self, name: &str) -> Option<&Method> {
        self.methods().iter().find(|m| m.name == name)
    }

    /// The string contents if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self.underlying() {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Length of a string (bytes), slice, array or map.
    pub fn len(&self) -> Option<usize> {
        match self.underlying() {
            Value::String(s) => Some(s.len()),
            Value::Slice(s) => Some(s.len),
            Value::Map(m) => Some(m.entries.len()),
            _ => None,
        }
    }

    /// Whether `len()` is `Some(0)`.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Decodes JSON text the way Go's `encoding/json` decodes into `any`:
    /// objects become `map[string]interface {}`, arrays `[]interface {}`
    /// (with the capacity `append` gives them), numbers `float64`, `null`
    /// a nil interface.
    pub fn from_json(text: &str) -> Result<Value, JsonError> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| JsonError {
            line: e.line(),
            column: e.column(),
            message: strip_position(&e.to_string()),
        })?;
        Ok(Value::from_json_value(&v))
    }

    /// Converts an already parsed JSON value (see [`Value::from_json`]).
    /// A top-level `null` becomes `Invalid`, as `reflect.ValueOf(nil)` is.
    pub fn from_json_value(v: &serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Invalid,
            v => json_elem(v),
        }
    }

    /// Converts a JSON value stored in an `interface{}` slot (a map value
    /// or array element): `null` is a nil interface.
    pub fn from_json_elem(v: &serde_json::Value) -> Value {
        json_elem(v)
    }
}

fn json_elem(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Nil,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => Value::float(number_to_f64(n)),
        serde_json::Value::String(s) => Value::string(s.as_str()),
        serde_json::Value::Array(a) => {
            let items: Vec<Value> = a.iter().map(json_elem).collect();
            let cap = append_capacity(items.len(), 16);
            Value::slice_with_cap(Type::Interface, items, cap)
        }
        serde_json::Value::Object(o) => Value::map(
            Type::String,
            Type::Interface,
            o.iter()
                .map(|(k, v)| (Value::string(k.as_str()), json_elem(v)))
                .collect(),
        ),
    }
}

fn number_to_f64(n: &serde_json::Number) -> f64 {
    // serde_json keeps integers exact; Go parses every number with
    // strconv.ParseFloat, which rounds to nearest even, as `as f64` does.
    if let Some(i) = n.as_i64() {
        i as f64
    } else if let Some(u) = n.as_u64() {
        u as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    }
}

/// Go's malloc size classes (bytes), used to predict `append`'s capacity.
const SIZE_CLASSES: [u64; 68] = [
    0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320,
    352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
    2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728,
    10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672,
    32768,
];

fn round_up_size(bytes: u64) -> u64 {
    if bytes <= 32768 {
        *SIZE_CLASSES.iter().find(|&&c| c >= bytes).unwrap_or(&32768)
    } else {
        bytes.next_multiple_of(8192)
    }
}

/// The capacity of a slice built by appending `len` elements one at a time
/// to `make([]T, 0)`, with `elem_size`-byte elements (Go's `growslice`).
pub fn append_capacity(len: usize, elem_size: u64) -> usize {
    let mut cap: usize = 0;
    let mut n: usize = 0;
    while n < len {
        n += 1;
        if n > cap {
            let doublecap = cap + cap;
            let mut newcap = if n > doublecap {
                n
            } else if cap < 256 {
                doublecap
            } else {
                let mut c = cap;
                while c < n {
                    c += (c + 3 * 256) >> 2;
                }
                c
            };
            let bytes = round_up_size(newcap as u64 * elem_size);
            newcap = (bytes / elem_size) as usize;
            cap = newcap;
        }
    }
    cap
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// A JSON syntax error with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid JSON at line {} column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for JsonError {}

/// `reflect.Kind`, the kinds templates distinguish.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No value.
    Invalid,
    /// `bool`
    Bool,
    /// Any signed integer.
    Int,
    /// Any unsigned integer.
    Uint,
    /// Any float.
    Float,
    /// Any complex.
    Complex,
    /// `string`
    String,
    /// Arrays.
    Array,
    /// Slices.
    Slice,
    /// Maps.
    Map,
    /// Structs.
    Struct,
    /// Pointers.
    Pointer,
    /// Functions.
    Func,
    /// A nil interface.
    Interface,
}

impl Type {
    /// The underlying type of a defined type; other types are their own.
    pub fn underlying(&self) -> &Type {
        match self {
            Type::Named(n) => n.underlying.underlying(),
            t => t,
        }
    }

    /// The zero value of the type. For `interface {}` it is the nil interface.
    pub fn zero(&self) -> Value {
        match self {
            Type::Bool => Value::Bool(false),
            Type::Int(t) => Value::Int(0, *t),
            Type::Uint(t) => Value::Uint(0, *t),
            Type::Float(t) => Value::Float(0.0, *t),
            Type::Complex(t) => Value::Complex(0.0, 0.0, *t),
            Type::String => Value::string(""),
            Type::Interface | Type::Error => Value::Nil,
            Type::ReflectValue => Value::Invalid,
            Type::Slice(_) => Value::Slice(Arc::new(Slice {
                ty: self.clone(),
                backing: Arc::new(Vec::new()),
                start: 0,
                len: 0,
                cap: 0,
                is_nil: true,
                addr: 0,
            })),
            Type::Array(n, e) => {
                let items = vec![e.zero(); *n];
                Value::Slice(Arc::new(Slice {
                    ty: self.clone(),
                    backing: Arc::new(items),
                    start: 0,
                    len: *n,
                    cap: *n,
                    is_nil: false,
                    addr: fake_addr(16 * *n as u64),
                }))
            }
            Type::Map(..) => Value::Map(Arc::new(Map {
                ty: self.clone(),
                entries: Vec::new(),
                is_nil: true,
                addr: 0,
            })),
            Type::Pointer(_) => Value::Pointer(Arc::new(Pointer {
                ty: self.clone(),
                target: None,
                addr: 0,
            })),
            Type::Struct(st) => {
                let fields = st.fields.iter().map(|f| f.ty.zero()).collect();
                Value::new_struct(st.clone(), fields)
            }
            Type::Func(sig) => Value::Func(Arc::new(Function {
                name: String::new(),
                sig: sig.clone(),
                imp: Arc::new(|_| Err("call of nil function".to_string())),
                addr: 0,
            })),
            Type::Named(n) => Value::Named(n.clone(), Box::new(n.underlying.zero())),
        }
    }

    /// Whether an untyped nil can be assigned to the type.
    pub fn can_be_nil(&self) -> bool {
        matches!(
            self.underlying(),
            Type::Interface
                | Type::Error
                | Type::ReflectValue
                | Type::Slice(_)
                | Type::Map(..)
                | Type::Pointer(_)
                | Type::Func(_)
        )
    }

    /// The `reflect.Kind` of values of this type.
    pub fn kind(&self) -> Kind {
        match self.underlying() {
            Type::Bool => Kind::Bool,
            Type::Int(_) => Kind::Int,
            Type::Uint(_) => Kind::Uint,
            Type::Float(_) => Kind::Float,
            Type::Complex(_) => Kind::Complex,
            Type::String => Kind::String,
            Type::Interface | Type::Error => Kind::Interface,
            Type::ReflectValue => Kind::Struct,
            Type::Slice(_) => Kind::Slice,
            Type::Array(..) => Kind::Array,
            Type::Map(..) => Kind::Map,
            Type::Pointer(_) => Kind::Pointer,
            Type::Struct(_) => Kind::Struct,
            Type::Func(_) => Kind::Func,
            Type::Named(_) => unreachable!("underlying() removes Named"),
        }
    }

    /// Whether a value of type `self` is assignable to a variable of type
    /// `to` (Go's assignability, for the types templates meet).
    pub fn assignable_to(&self, to: &Type) -> bool {
        match to {
            Type::Interface => true,
            Type::Error => self.implements_error(),
            _ => self == to,
        }
    }

    fn implements_error(&self) -> bool {
        let methods: &[Method] = match self {
            Type::Struct(s) => &s.methods,
            Type::Named(n) => &n.methods,
            Type::Error => return true,
            _ => &[],
        };
        methods.iter().any(|m| m.name == "Error")
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Bool => f.write_str("bool"),
            Type::Int(t) => f.write_str(t.name()),
            Type::Uint(t) => f.write_str(t.name()),
            Type::Float(FloatType::F32) => f.write_str("float32"),
            Type::Float(FloatType::F64) => f.write_str("float64"),
            Type::Complex(ComplexType::C64) => f.write_str("complex64"),
            Type::Complex(ComplexType::C128) => f.write_str("complex128"),
            Type::String => f.write_str("string"),
            Type::Interface => f.write_str("interface {}"),
            Type::Error => f.write_str("error"),
            Type::ReflectValue => f.write_str("reflect.Value"),
            Type::Slice(e) => write!(f, "[]{e}"),
            Type::Array(n, e) => write!(f, "[{n}]{e}"),
            Type::Map(k, v) => write!(f, "map[{k}]{v}"),
            Type::Pointer(e) => write!(f, "*{e}"),
            Type::Struct(s) => {
                if s.name.is_empty() {
                    f.write_str("struct {")?;
                    for (i, fd) in s.fields.iter().enumerate() {
                        if i > 0 {
                            f.write_str(";")?;
                        }
                        write!(f, " {} {}", fd.name, fd.ty)?;
                    }
                    if !s.fields.is_empty() {
                        f.write_str(" ")?;
                    }
                    f.write_str("}")
                } else {
                    f.write_str(&s.name)
                }
            }
            Type::Func(sig) => {
                f.write_str("func(")?;
                for (i, p) in sig.params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if sig.variadic && i + 1 == sig.params.len() {
                        match p {
                            Type::Slice(e) => write!(f, "...{e}")?,
                            p => write!(f, "...{p}")?,
                        }
                    } else {
                        write!(f, "{p}")?;
                    }
                }
                f.write_str(")")?;
                match sig.results.len() {
                    0 => Ok(()),
                    1 => write!(f, " {}", sig.results[0]),
                    _ => {
                        f.write_str(" (")?;
                        for (i, r) in sig.results.iter().enumerate() {
                            if i > 0 {
                                f.write_str(", ")?;
                            }
                            write!(f, "{r}")?;
                        }
                        f.write_str(")")
                    }
                }
            }
            Type::Named(n) => f.write_str(&n.name),
        }
    }
}

/// Orders map keys as Go's `internal/fmtsort` does: numbers numerically
/// (NaN first), strings bytewise, `false` before `true`, nil first.
pub fn compare_keys(a: &Value, b: &Value) -> Ordering {
    match (a.underlying(), b.underlying()) {
        (Value::String(x), Value::String(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Int(x, _), Value::Int(y, _)) => x.cmp(y),
        (Value::Uint(x, _), Value::Uint(y, _)) => x.cmp(y),
        (Value::Float(x, _), Value::Float(y, _)) => compare_floats(*x, *y),
        (Value::Complex(xr, xi, _), Value::Complex(yr, yi, _)) => {
            compare_floats(*xr, *yr).then_with(|| compare_floats(*xi, *yi))
        }
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Pointer(x), Value::Pointer(y)) => x.addr.cmp(&y.addr),
        (Value::Struct(x), Value::Struct(y)) => {
            for (fx, fy) in x.fields.iter().zip(y.fields.iter()) {
                let c = compare_keys(fx, fy);
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        }
        (Value::Slice(x), Value::Slice(y)) => {
            for (ex, ey) in x.items().iter().zip(y.items().iter()) {
                let c = compare_keys(ex, ey);
                if c != Ordering::Equal {
                    return c;
                }
            }
            Ordering::Equal
        }
        (Value::Nil | Value::Invalid, Value::Nil | Value::Invalid) => Ordering::Equal,
        (Value::Nil | Value::Invalid, _) => Ordering::Less,
        (_, Value::Nil | Value::Invalid) => Ordering::Greater,
        // Interface keys of different dynamic types: fmtsort orders by type
        // first; any stable order will do here.
        (x, y) => kind_rank(x).cmp(&kind_rank(y)),
    }
}

fn kind_rank(v: &Value) -> u8 {
    match v {
        Value::Invalid | Value::Nil => 0,
        Value::Bool(_) => 1,
        Value::Int(..) => 2,
        Value::Uint(..) => 3,
        Value::Float(..) => 4,
        Value::Complex(..) => 5,
        Value::String(_) => 6,
        Value::Slice(_) => 7,
        Value::Map(_) => 8,
        Value::Struct(_) => 9,
        Value::Pointer(_) => 10,
        Value::Func(_) => 11,
        Value::Named(..) => 12,
    }
}

fn compare_floats(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::string(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::string(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::int(i)
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::float(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_capacity_matches_go() {
        let caps: Vec<usize> = [0, 1, 2, 3, 5, 9, 17, 33, 257, 513]
            .iter()
            .map(|&n| append_capacity(n, 16))
            .collect();
        assert_eq!(caps, vec![0, 1, 2, 4, 8, 16, 32, 64, 512, 848]);
    }

    #[test]
    fn json_maps_sort_keys() {
        let v = Value::from_json(r#"{"b":1,"a":2}"#).unwrap();
        let Value::Map(m) = v else { panic!() };
        assert_eq!(m.entries[0].0.as_str(), Some("a"));
        assert_eq!(m.get_str("b").map(|v| v.kind()), Some(Kind::Float));
    }

    #[test]
    fn types_print_like_reflect() {
        let v = Value::from_json(r#"{"l":[1]}"#).unwrap();
        assert_eq!(v.type_of().unwrap().to_string(), "map[string]interface {}");
    }

    #[test]
    fn json_errors_have_positions() {
        let e = Value::from_json("{\n  \"a\": }").unwrap_err();
        assert_eq!((e.line, e.column), (2, 8));
    }
}
