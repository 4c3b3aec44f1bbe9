//! Port of `common/jinja/value.h` and the non-builtin half of `value.cpp`:
//! the value types, `func_args`, JSON in (`global_from_json`) and out
//! (`value_to_json`), printing, equality and `value_compare`.
//!
//! A [`Value`] is a shared pointer (like the C++ `std::shared_ptr<value_t>`):
//! arrays and objects are mutable in place (`append`, `pop`, `set ns.x`), and
//! the usage statistics (`stats`) live on the pointee, so caps detection sees
//! which input values a template touched.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use crate::ast::StmtPtr;
use crate::error::{Error, ErrorKind, Result};
use crate::runtime::Context;
use crate::string::JString;
use crate::utils::{cpp_ostream_f64, cpp_to_string_f64, f64_to_i64, lossy, Hasher};

/// How deep values may nest when printed, compared or converted (our addition).
pub const MAX_VALUE_DEPTH: usize = 256;

/// `value`: a shared pointer to a [`ValueData`].
#[derive(Clone, Debug)]
pub struct Value(pub(crate) Rc<ValueData>);

/// `value_t::stats_t`: whether the value was used and by which operations.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Marked used.
    pub used: bool,
    /// Builtins and operations applied (`array_access`, `object_access`, `test_is_string`, ...).
    pub ops: BTreeSet<String>,
}

/// The pointee: a kind and its statistics.
#[derive(Debug)]
pub struct ValueData {
    /// The kind and payload.
    pub kind: ValueKind,
    stats: RefCell<Option<Box<Stats>>>,
    /// Jinja2 dialect: an array that stands for a Python iterator (a
    /// `generator` from `map`/`select`/..., a `list_reverseiterator`), by
    /// its type name.
    py_iter: std::cell::Cell<Option<&'static str>>,
}

/// The value types.
#[derive(Debug)]
pub enum ValueKind {
    /// `value_int_t`: `val_int` and `val_flt` (infinite when the int does not round-trip).
    Int(i64, f64),
    /// `value_float_t`: `val_flt` and `val_int`.
    Float(f64, i64),
    /// `value_string_t`.
    Str(JString),
    /// `value_bool_t`.
    Bool(bool),
    /// `value_array_t` (`tuple` false) and `value_tuple_t` (`tuple` true).
    Array {
        /// The items.
        items: RefCell<Vec<Value>>,
        /// Immutable tuple.
        tuple: bool,
    },
    /// `value_object_t`.
    Object(RefCell<ObjectData>),
    /// `value_none_t`.
    None,
    /// `value_undefined_t` with its hint.
    Undefined(String),
    /// `value_func_t`.
    Func(FuncData),
    /// `value_kwarg_t`.
    Kwarg(String, Value),
}

/// A builtin function.
pub type BuiltinFn = fn(&FuncArgs) -> Result<Value>;

/// What a function value runs.
#[derive(Debug)]
pub enum FuncKind {
    /// A builtin.
    Builtin(BuiltinFn),
    /// A `{% macro %}` (the statement).
    Macro(StmtPtr),
    /// The `caller` of a `{% call %}` block, with the scope it closes over.
    Caller(StmtPtr, Box<Context>),
}

/// `value_func_t`: name, what it runs and the bound `this` argument.
#[derive(Debug)]
pub struct FuncData {
    /// The name (for error messages).
    pub name: String,
    /// What it runs.
    pub kind: FuncKind,
    /// Bound first argument.
    pub arg0: Option<Value>,
}

/// The key of an object entry: equal exactly when the C++ hash and `==` agree.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum KeyRepr {
    Num(i64, u64),
    Str(Vec<u8>),
    None,
    Tuple(Vec<KeyRepr>),
    Kwarg(String, usize),
    Unique(usize),
}

impl Drop for ValueData {
    /// Drops nested containers iteratively, so a deeply nested value cannot
    /// overflow the stack when it goes away (our addition).
    fn drop(&mut self) {
        let mut work: Vec<Value> = Vec::new();
        take_children(&mut self.kind, &mut work);
        while let Some(v) = work.pop() {
            if let Ok(mut data) = Rc::try_unwrap(v.0) {
                take_children(&mut data.kind, &mut work);
            }
        }
    }
}

fn take_children(kind: &mut ValueKind, work: &mut Vec<Value>) {
    match kind {
        ValueKind::Array { items, .. } => work.append(items.get_mut()),
        ValueKind::Object(o) => {
            let o = o.get_mut();
            o.index.clear();
            for (k, v) in o.entries.drain(..) {
                work.push(k);
                work.push(v);
            }
        }
        ValueKind::Kwarg(_, v) => work.push(std::mem::replace(v, Value::none_static())),
        ValueKind::Func(f) => {
            if let Some(a) = f.arg0.take() {
                work.push(a);
            }
            if let FuncKind::Caller(_, ctx) = &mut f.kind {
                work.push(ctx.take_env());
            }
        }
        _ => {}
    }
}

/// `value_object_t`'s storage: insertion-ordered pairs and an index.
#[derive(Clone, Debug)]
pub struct ObjectData {
    entries: Vec<(Value, Value)>,
    index: HashMap<KeyRepr, usize>,
    /// False for the context and `loop` objects (no builtins).
    pub has_builtins: bool,
}

impl ObjectData {
    /// The ordered pairs.
    pub fn entries(&self) -> &[(Value, Value)] {
        &self.entries
    }
    fn rebuild_index(&mut self) -> Result<()> {
        self.index.clear();
        for (i, (k, _)) in self.entries.iter().enumerate() {
            let r = key_repr(k, 0)?;
            self.index.entry(r).or_insert(i);
        }
        Ok(())
    }
}

fn int_flt(v: i64) -> f64 {
    let f = v as f64;
    if f64_to_i64(f) != v {
        if v < 0 {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    } else {
        f
    }
}

fn too_deep() -> Error {
    Error::new(
        ErrorKind::TooDeep,
        format!("value nesting exceeds the limit of {MAX_VALUE_DEPTH} levels"),
    )
}

fn key_repr(v: &Value, depth: usize) -> Result<KeyRepr> {
    if depth > MAX_VALUE_DEPTH {
        return Err(too_deep());
    }
    Ok(match &v.0.kind {
        ValueKind::Int(i, f) => KeyRepr::Num(*i, norm_bits(*f)),
        ValueKind::Float(f, i) => {
            if f.is_nan() {
                KeyRepr::Unique(Rc::as_ptr(&v.0) as usize)
            } else {
                KeyRepr::Num(*i, norm_bits(*f))
            }
        }
        ValueKind::Bool(b) => KeyRepr::Num(*b as i64, norm_bits(*b as i64 as f64)),
        ValueKind::Str(s) => KeyRepr::Str(s.bytes()),
        ValueKind::None => KeyRepr::None,
        ValueKind::Array { items, .. } => {
            let items = items.borrow();
            let mut out = Vec::with_capacity(items.len());
            for it in items.iter() {
                out.push(key_repr(it, depth + 1)?);
            }
            KeyRepr::Tuple(out)
        }
        ValueKind::Kwarg(k, val) => KeyRepr::Kwarg(k.clone(), Rc::as_ptr(&val.0) as usize),
        _ => KeyRepr::Unique(Rc::as_ptr(&v.0) as usize),
    })
}

fn norm_bits(f: f64) -> u64 {
    if f == 0.0 {
        0.0f64.to_bits()
    } else {
        f.to_bits()
    }
}

/// The C++ class a type check names (`typeid(T).name()` of `std::shared_ptr<T>` with GCC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum ValType {
    Int,
    Float,
    Str,
    Bool,
    Array,
    Tuple,
    Object,
    None,
    Undefined,
    Func,
    Kwarg,
}

impl ValType {
    fn class(self) -> &'static str {
        match self {
            ValType::Int => "value_int_t",
            ValType::Float => "value_float_t",
            ValType::Str => "value_string_t",
            ValType::Bool => "value_bool_t",
            ValType::Array => "value_array_t",
            ValType::Tuple => "value_tuple_t",
            ValType::Object => "value_object_t",
            ValType::None => "value_none_t",
            ValType::Undefined => "value_undefined_t",
            ValType::Func => "value_func_t",
            ValType::Kwarg => "value_kwarg_t",
        }
    }
    /// `typeid(std::shared_ptr<T>).name()` as GCC mangles it.
    pub fn mangled(self) -> String {
        let c = self.class();
        format!("St10shared_ptrIN5jinja{}{}EE", c.len(), c)
    }
}

impl Value {
    fn mk(kind: ValueKind) -> Value {
        Value(Rc::new(ValueData {
            kind,
            stats: RefCell::new(None),
            py_iter: std::cell::Cell::new(None),
        }))
    }
    /// `mk_val<value_int>`.
    pub fn int(v: i64) -> Value {
        Self::mk(ValueKind::Int(v, int_flt(v)))
    }
    /// `mk_val<value_float>`.
    pub fn float(v: f64) -> Value {
        let i = if v.is_finite() { f64_to_i64(v) } else { 0 };
        Self::mk(ValueKind::Float(v, i))
    }
    /// `mk_val<value_bool>`.
    pub fn bool(v: bool) -> Value {
        Self::mk(ValueKind::Bool(v))
    }
    /// `mk_val<value_string>` from a [`JString`].
    pub fn string(s: JString) -> Value {
        Self::mk(ValueKind::Str(s))
    }
    /// `mk_val<value_string>` from template bytes.
    pub fn str(s: impl Into<Vec<u8>>) -> Value {
        Self::string(JString::new(s, false))
    }
    /// Jinja2 dialect: the Python iterator type this array stands for.
    pub fn py_iter(&self) -> Option<&'static str> {
        self.0.py_iter.get()
    }
    /// Jinja2 dialect: makes this array stand for a Python iterator.
    pub fn set_py_iter(&self, type_name: &'static str) {
        self.0.py_iter.set(Some(type_name));
    }
    /// `mk_val<value_array>`.
    pub fn array(items: Vec<Value>) -> Value {
        Self::mk(ValueKind::Array {
            items: RefCell::new(items),
            tuple: false,
        })
    }
    /// `mk_val<value_tuple>`.
    pub fn tuple(items: Vec<Value>) -> Value {
        Self::mk(ValueKind::Array {
            items: RefCell::new(items),
            tuple: true,
        })
    }
    /// An empty `mk_val<value_object>`.
    pub fn object() -> Value {
        Self::mk(ValueKind::Object(RefCell::new(ObjectData {
            entries: Vec::new(),
            index: HashMap::new(),
            has_builtins: true,
        })))
    }
    pub(crate) fn object_from_data(d: ObjectData) -> Value {
        Self::mk(ValueKind::Object(RefCell::new(d)))
    }
    fn none_static() -> Value {
        Self::mk(ValueKind::None)
    }
    /// `mk_val<value_none>`.
    pub fn none() -> Value {
        Self::mk(ValueKind::None)
    }
    /// `mk_val<value_undefined>(hint)`.
    pub fn undefined(hint: &str) -> Value {
        Self::mk(ValueKind::Undefined(hint.to_string()))
    }
    /// `mk_val<value_func>` of a builtin, optionally bound to `this`.
    pub fn builtin(name: &str, f: BuiltinFn, arg0: Option<Value>) -> Value {
        Self::func(FuncData {
            name: name.to_string(),
            kind: FuncKind::Builtin(f),
            arg0,
        })
    }
    pub(crate) fn func(f: FuncData) -> Value {
        Self::mk(ValueKind::Func(f))
    }
    /// `mk_val<value_kwarg>`.
    pub fn kwarg(key: &str, v: Value) -> Value {
        Self::mk(ValueKind::Kwarg(key.to_string(), v))
    }

    /// The kind.
    pub fn kind(&self) -> &ValueKind {
        &self.0.kind
    }
    /// Identity (`shared_ptr ==`).
    pub fn ptr_eq(&self, other: &Value) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
    /// The statistics (a copy).
    pub fn stats(&self) -> Stats {
        self.0
            .stats
            .borrow()
            .as_deref()
            .cloned()
            .unwrap_or_default()
    }
    /// `stats.ops.insert(op)`.
    pub fn add_op(&self, op: &str) {
        let mut s = self.0.stats.borrow_mut();
        let s = s.get_or_insert_with(Default::default);
        if !s.ops.contains(op) {
            s.ops.insert(op.to_string());
        }
    }
    /// True when `stats.ops` holds `op`.
    pub fn has_op(&self, op: &str) -> bool {
        self.0
            .stats
            .borrow()
            .as_ref()
            .is_some_and(|s| s.ops.contains(op))
    }
    /// `stats_t::mark_used(val, deep)`.
    pub fn mark_used(&self, deep: bool) {
        self.mark_used_depth(deep, 0);
    }
    fn mark_used_depth(&self, deep: bool, depth: usize) {
        self.0
            .stats
            .borrow_mut()
            .get_or_insert_with(Default::default)
            .used = true;
        if !deep || depth > MAX_VALUE_DEPTH {
            return;
        }
        match &self.0.kind {
            ValueKind::Array { items, .. } => {
                let items = items.borrow().clone();
                for it in &items {
                    it.mark_used_depth(deep, depth + 1);
                }
            }
            ValueKind::Object(o) => {
                let entries = o.borrow().entries.clone();
                for (k, v) in &entries {
                    k.mark_used_depth(deep, depth + 1);
                    v.mark_used_depth(deep, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// `type()`.
    pub fn type_name(&self) -> String {
        match &self.0.kind {
            ValueKind::Int(..) => "Integer".into(),
            ValueKind::Float(..) => "Float".into(),
            ValueKind::Str(_) => "String".into(),
            ValueKind::Bool(_) => "Boolean".into(),
            ValueKind::Array { tuple: false, .. } => "Array".into(),
            ValueKind::Array { tuple: true, .. } => "Tuple".into(),
            ValueKind::Object(_) => "Object".into(),
            ValueKind::None => "None".into(),
            ValueKind::Undefined(h) if h.is_empty() => "Undefined".into(),
            ValueKind::Undefined(h) => format!("Undefined (hint: '{h}')"),
            ValueKind::Func(_) => "Function".into(),
            ValueKind::Kwarg(..) => "KwArg".into(),
        }
    }

    fn type_error(&self, expected: &str) -> Error {
        Error::runtime(format!("{} {}", self.type_name(), expected))
    }

    /// `is_val<T>`.
    pub fn is(&self, t: ValType) -> bool {
        matches!(
            (t, &self.0.kind),
            (ValType::Int, ValueKind::Int(..))
                | (ValType::Float, ValueKind::Float(..))
                | (ValType::Str, ValueKind::Str(_))
                | (ValType::Bool, ValueKind::Bool(_))
                | (ValType::Array, ValueKind::Array { .. })
                | (ValType::Tuple, ValueKind::Array { tuple: true, .. })
                | (ValType::Object, ValueKind::Object(_))
                | (ValType::None, ValueKind::None)
                | (ValType::Undefined, ValueKind::Undefined(_))
                | (ValType::Func, ValueKind::Func(_))
                | (ValType::Kwarg, ValueKind::Kwarg(..))
        )
    }
    /// Int or float (not bool).
    pub fn is_int_or_float(&self) -> bool {
        matches!(self.0.kind, ValueKind::Int(..) | ValueKind::Float(..))
    }
    /// `is_none()`.
    pub fn is_none(&self) -> bool {
        matches!(self.0.kind, ValueKind::None)
    }
    /// `is_undefined()`.
    pub fn is_undefined(&self) -> bool {
        matches!(self.0.kind, ValueKind::Undefined(_))
    }
    /// `is_numeric()`: int, float, bool.
    pub fn is_numeric(&self) -> bool {
        self.num_parts().is_some()
    }
    fn num_parts(&self) -> Option<(i64, f64)> {
        match self.0.kind {
            ValueKind::Int(i, f) => Some((i, f)),
            ValueKind::Float(f, i) => Some((i, f)),
            ValueKind::Bool(b) => Some((b as i64, b as i64 as f64)),
            _ => None,
        }
    }
    /// `is_immutable()`.
    pub fn is_immutable(&self) -> bool {
        !matches!(
            self.0.kind,
            ValueKind::Array { tuple: false, .. } | ValueKind::Object(_)
        )
    }
    /// `is_hashable()` (false past [`MAX_VALUE_DEPTH`] nested tuples).
    pub fn is_hashable(&self) -> bool {
        self.is_hashable_depth(0)
    }
    fn is_hashable_depth(&self, depth: usize) -> bool {
        if depth > MAX_VALUE_DEPTH {
            return false;
        }
        match &self.0.kind {
            ValueKind::Undefined(_) | ValueKind::Func(_) => false,
            ValueKind::Array { items, .. } => items
                .borrow()
                .iter()
                .all(|v| v.is_immutable() && v.is_hashable_depth(depth + 1)),
            ValueKind::Object(o) => o
                .borrow()
                .entries
                .iter()
                .all(|(_, v)| v.is_immutable() && v.is_hashable_depth(depth + 1)),
            _ => true,
        }
    }

    /// `as_int()`.
    pub fn as_int(&self) -> Result<i64> {
        self.num_parts()
            .map(|p| p.0)
            .ok_or_else(|| self.type_error("is not an int value"))
    }
    /// `as_float()` (a bool is not a float here).
    pub fn as_float(&self) -> Result<f64> {
        match self.0.kind {
            ValueKind::Int(_, f) | ValueKind::Float(f, _) => Ok(f),
            _ => Err(self.type_error("is not a float value")),
        }
    }
    /// `as_bool()`.
    pub fn as_bool(&self) -> Result<bool> {
        if self.py_iter().is_some() {
            // a Python iterator is true however many items it has left
            return Ok(true);
        }
        Ok(match &self.0.kind {
            ValueKind::Int(i, _) => *i != 0,
            ValueKind::Float(f, _) => *f != 0.0,
            ValueKind::Str(s) => s.length() > 0,
            ValueKind::Bool(b) => *b,
            ValueKind::Array { items, .. } => !items.borrow().is_empty(),
            ValueKind::Object(o) => !o.borrow().entries.is_empty(),
            ValueKind::None | ValueKind::Undefined(_) => false,
            _ => return Err(self.type_error("is not a bool value")),
        })
    }
    /// `as_string()`.
    pub fn as_string(&self) -> Result<JString> {
        self.as_string_depth(0)
    }
    pub(crate) fn as_string_depth(&self, depth: usize) -> Result<JString> {
        if depth > MAX_VALUE_DEPTH {
            return Err(too_deep());
        }
        Ok(match &self.0.kind {
            ValueKind::Int(i, _) => JString::new(i.to_string(), false),
            ValueKind::Float(f, _) => JString::new(float_to_string(*f), false),
            ValueKind::Str(s) => s.clone(),
            ValueKind::Bool(b) => JString::new(if *b { "True" } else { "False" }, false),
            ValueKind::Array { items, tuple } => {
                let items = items.borrow().clone();
                let mut out = if *tuple { b"(".to_vec() } else { b"[".to_vec() };
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    out.extend(value_to_string_repr(v, depth + 1)?);
                }
                if *tuple && items.len() == 1 {
                    out.push(b',');
                }
                out.push(if *tuple { b')' } else { b']' });
                JString::new(out, false)
            }
            ValueKind::Object(o) => {
                let entries = o.borrow().entries.clone();
                let mut out = b"{".to_vec();
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    out.extend(value_to_string_repr(k, depth + 1)?);
                    out.extend_from_slice(b": ");
                    out.extend(value_to_string_repr(v, depth + 1)?);
                }
                out.push(b'}');
                JString::new(out, false)
            }
            ValueKind::None => JString::new("None", false),
            _ => return Err(self.type_error("is not a string value")),
        })
    }
    /// `as_repr()` (debugging and printing inside containers).
    pub fn as_repr(&self) -> Result<Vec<u8>> {
        self.as_repr_depth(0)
    }
    fn as_repr_depth(&self, depth: usize) -> Result<Vec<u8>> {
        Ok(match &self.0.kind {
            ValueKind::Str(s) => {
                let mut out = Vec::new();
                for p in &s.parts {
                    out.extend_from_slice(if p.is_input { b"INPUT: " } else { b"TMPL:  " });
                    out.extend_from_slice(&p.val);
                    out.push(b'\n');
                }
                out
            }
            ValueKind::None | ValueKind::Undefined(_) | ValueKind::Kwarg(..) => {
                self.type_name().into_bytes()
            }
            ValueKind::Func(f) => {
                let mut out = format!("Function<{}>(", f.name).into_bytes();
                if let Some(a) = &f.arg0 {
                    if depth > MAX_VALUE_DEPTH {
                        return Err(too_deep());
                    }
                    out.extend(a.as_repr_depth(depth + 1)?);
                }
                out.push(b')');
                out
            }
            _ => self.as_string_depth(depth)?.bytes(),
        })
    }
    /// The items of an array or tuple (a copy of the pointers).
    pub fn as_array(&self) -> Result<Vec<Value>> {
        match &self.0.kind {
            ValueKind::Array { items, .. } => Ok(items.borrow().clone()),
            _ => Err(self.type_error("is not an array value")),
        }
    }
    /// Number of items of an array (0 otherwise).
    pub fn array_len(&self) -> usize {
        match &self.0.kind {
            ValueKind::Array { items, .. } => items.borrow().len(),
            _ => 0,
        }
    }
    /// The pairs of an object (a copy of the pointers).
    pub fn as_ordered_object(&self) -> Result<Vec<(Value, Value)>> {
        match &self.0.kind {
            ValueKind::Object(o) => Ok(o.borrow().entries.clone()),
            _ => Err(self.type_error("is not an object value")),
        }
    }
    /// The string payload.
    pub fn string_ref(&self) -> Option<&JString> {
        match &self.0.kind {
            ValueKind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// `push_back` on an array ("Attempting to modify immutable type" on tuples).
    pub fn push_back(&self, v: Value) -> Result<()> {
        match &self.0.kind {
            ValueKind::Array {
                items,
                tuple: false,
            } => {
                items.borrow_mut().push(v);
                Ok(())
            }
            ValueKind::Array { tuple: true, .. } => {
                Err(Error::runtime("Attempting to modify immutable type"))
            }
            _ => Err(self.type_error("is not an array value")),
        }
    }
    /// `pop_at` on an array.
    pub fn pop_at(&self, index: i64) -> Result<Value> {
        match &self.0.kind {
            ValueKind::Array {
                items,
                tuple: false,
            } => {
                let mut items = items.borrow_mut();
                let len = items.len() as i64;
                let idx = if index < 0 { len + index } else { index };
                if idx < 0 || idx >= len {
                    return Err(Error::runtime(format!(
                        "Index {idx} out of bounds for array of size {len}"
                    )));
                }
                Ok(items.remove(idx as usize))
            }
            ValueKind::Array { tuple: true, .. } => {
                Err(Error::runtime("Attempting to modify immutable type"))
            }
            _ => Err(self.type_error("is not an array value")),
        }
    }
    /// `has_key` on an object.
    pub fn has_key(&self, key: &Value) -> Result<bool> {
        match &self.0.kind {
            ValueKind::Object(o) => {
                let r = check_key(key)?;
                Ok(o.borrow().index.contains_key(&r))
            }
            _ => Err(self.type_error("is not an object value")),
        }
    }
    /// `insert` on an object (replaces in place when the key exists).
    pub fn insert(&self, key: Value, val: Value) -> Result<()> {
        match &self.0.kind {
            ValueKind::Object(o) => {
                let r = check_key(&key)?;
                let mut o = o.borrow_mut();
                if let Some(&i) = o.index.get(&r) {
                    o.entries[i].1 = val;
                } else {
                    let i = o.entries.len();
                    o.entries.push((key, val));
                    o.index.insert(r, i);
                }
                Ok(())
            }
            _ => Err(self.type_error("is not an object value")),
        }
    }
    /// `insert(std::string, value)`.
    pub fn insert_str(&self, key: &str, val: Value) -> Result<()> {
        self.insert(Value::str(key), val)
    }
    /// `at(key, default)`: objects by key, arrays by int/bool index.
    pub fn at_or(&self, key: &Value, default: Value) -> Result<Value> {
        match &self.0.kind {
            ValueKind::Object(o) => {
                let r = check_key(key)?;
                let o = o.borrow();
                Ok(match o.index.get(&r) {
                    Some(&i) => o.entries[i].1.clone(),
                    None => default,
                })
            }
            ValueKind::Array { .. } => {
                if !key.is(ValType::Int) && !key.is(ValType::Bool) {
                    return Ok(default);
                }
                self.at_index_or(key.as_int()?, default)
            }
            _ => Err(self.type_error("is not an object value")),
        }
    }
    /// `at(key)`: throws when missing.
    pub fn at(&self, key: &Value) -> Result<Value> {
        match &self.0.kind {
            ValueKind::Object(_) => {
                if !self.has_key(key)? {
                    return Err(Error::runtime(format!(
                        "Key '{}' not found in value of type {}",
                        key.as_string()?.str(),
                        self.type_name()
                    )));
                }
                self.at_or(key, Value::none())
            }
            _ => Err(self.type_error("is not an object value")),
        }
    }
    /// `at(std::string)`.
    pub fn at_str(&self, key: &str) -> Result<Value> {
        self.at(&Value::str(key))
    }
    /// `at(int64_t, default)` on arrays (negative counts from the end).
    pub fn at_index_or(&self, index: i64, default: Value) -> Result<Value> {
        match &self.0.kind {
            ValueKind::Array { items, .. } => {
                let items = items.borrow();
                let len = items.len() as i64;
                let idx = if index < 0 { index + len } else { index };
                if idx < 0 || idx >= len {
                    return Ok(default);
                }
                Ok(items[idx as usize].clone())
            }
            _ => Err(self.type_error("is not an array value")),
        }
    }
    /// `at(int64_t)`: throws when out of range.
    pub fn at_index(&self, index: i64) -> Result<Value> {
        match &self.0.kind {
            ValueKind::Array { items, .. } => {
                let len = items.borrow().len() as i64;
                let idx = if index < 0 { index + len } else { index };
                if idx < 0 || idx >= len {
                    return Err(Error::runtime(format!(
                        "Index {idx} out of bounds for array of size {len}"
                    )));
                }
                Ok(items.borrow()[idx as usize].clone())
            }
            _ => Err(self.type_error("is not an array value")),
        }
    }

    /// `unique_hash().digest()` (the C++ type hashes are replaced by fixed tags).
    pub fn unique_hash(&self) -> u64 {
        let mut h = Hasher::new();
        match &self.0.kind {
            ValueKind::Int(..) | ValueKind::Bool(_) | ValueKind::Float(..) => {
                let (i, f) = self.num_parts().unwrap_or((0, 0.0));
                if matches!(self.0.kind, ValueKind::Float(..)) && (i as f64) != f {
                    h.update(b"float");
                } else {
                    h.update(b"int");
                }
                h.update(&i.to_le_bytes()).update(&f.to_le_bytes());
            }
            ValueKind::Str(s) => {
                h.update(b"string");
                s.hash_update(&mut h);
            }
            ValueKind::Array { items, tuple } => {
                h.update(if *tuple { b"tuple" } else { b"array" });
                for it in items.borrow().iter() {
                    h.update(&it.unique_hash().to_le_bytes());
                }
            }
            ValueKind::Object(o) => {
                h.update(b"object");
                for (k, v) in o.borrow().entries.iter() {
                    h.update(&k.unique_hash().to_le_bytes());
                    h.update(&v.unique_hash().to_le_bytes());
                }
            }
            ValueKind::None => {
                h.update(b"none");
            }
            ValueKind::Undefined(_) => {
                h.update(b"undefined");
            }
            ValueKind::Func(_) => {
                h.update(b"func");
            }
            ValueKind::Kwarg(k, v) => {
                h.update(&v.unique_hash().to_le_bytes())
                    .update(b"kwarg")
                    .update(k.as_bytes());
            }
        }
        h.digest()
    }
}

fn check_key(key: &Value) -> Result<KeyRepr> {
    if !key.is_immutable() || !key.is_hashable() {
        return Err(Error::runtime(format!(
            "Object key of unhashable type: {}",
            key.type_name()
        )));
    }
    key_repr(key, 0)
}

/// `value_float_t::as_string`: `std::to_string` with trailing zeros removed (one kept).
pub fn float_to_string(f: f64) -> String {
    let mut out = cpp_to_string_f64(f);
    let keep = out
        .bytes()
        .rposition(|c| c != b'0')
        .map(|p| p + 1)
        .unwrap_or(0);
    out.truncate(keep);
    if out.ends_with('.') {
        out.push('0');
    }
    out
}

/// `operator==` (`equivalent`): numbers across int/float/bool, strings by text,
/// arrays and objects element-wise when hashable, functions always equal.
pub fn equivalent(a: &Value, b: &Value) -> bool {
    equivalent_depth(a, b, 0)
}

fn equivalent_depth(a: &Value, b: &Value, depth: usize) -> bool {
    if depth > MAX_VALUE_DEPTH {
        return false;
    }
    let equivalent = |x: &Value, y: &Value| equivalent_depth(x, y, depth + 1);
    match &a.0.kind {
        ValueKind::Int(..) | ValueKind::Float(..) | ValueKind::Bool(_) => {
            match (a.num_parts(), b.num_parts()) {
                (Some((ai, af)), Some((bi, bf))) => ai == bi && af == bf,
                _ => false,
            }
        }
        ValueKind::Str(s) => match &b.0.kind {
            ValueKind::Str(t) => s.bytes() == t.bytes(),
            _ => false,
        },
        ValueKind::Array { items, tuple } => match &b.0.kind {
            ValueKind::Array {
                items: items2,
                tuple: tuple2,
            } if tuple == tuple2 => {
                if !a.is_hashable() || !b.is_hashable() {
                    return false;
                }
                let x = items.borrow();
                let y = items2.borrow();
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equivalent(p, q))
            }
            _ => false,
        },
        ValueKind::Object(o) => match &b.0.kind {
            ValueKind::Object(o2) => {
                if !a.is_hashable() || !b.is_hashable() {
                    return false;
                }
                let x = o.borrow();
                let y = o2.borrow();
                x.entries.len() == y.entries.len()
                    && x.entries
                        .iter()
                        .zip(y.entries.iter())
                        .all(|(p, q)| equivalent(&p.0, &q.0) && equivalent(&p.1, &q.1))
            }
            _ => false,
        },
        ValueKind::None => b.is_none(),
        ValueKind::Undefined(_) => b.is_undefined(),
        ValueKind::Func(_) => matches!(b.0.kind, ValueKind::Func(_)),
        ValueKind::Kwarg(k, v) => match &b.0.kind {
            ValueKind::Kwarg(k2, v2) => k == k2 && v.ptr_eq(v2),
            _ => false,
        },
    }
}

/// `value_compare_op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum CompareOp {
    Eq,
    Ge,
    Gt,
    Lt,
    Ne,
}

/// `value_compare`.
pub fn value_compare(a: &Value, b: &Value, op: CompareOp) -> Result<bool> {
    if a.is_int_or_float() && b.is_int_or_float() {
        let x = a.as_float()?;
        let y = b.as_float()?;
        return Ok(match op {
            CompareOp::Eq => x == y,
            CompareOp::Ge => x >= y,
            CompareOp::Gt => x > y,
            CompareOp::Lt => x < y,
            CompareOp::Ne => x != y,
        });
    }
    let sa = a.is(ValType::Str);
    let sb = b.is(ValType::Str);
    if (sb && a.is_int_or_float()) || (sa && b.is_int_or_float()) || (sa && sb) {
        let x = a.as_string()?.bytes();
        let y = b.as_string()?.bytes();
        return Ok(match op {
            CompareOp::Eq => x == y,
            CompareOp::Ge => x >= y,
            CompareOp::Gt => x > y,
            CompareOp::Lt => x < y,
            CompareOp::Ne => x != y,
        });
    }
    if let (ValueKind::Bool(x), ValueKind::Bool(y)) = (&a.0.kind, &b.0.kind) {
        return match op {
            CompareOp::Eq => Ok(x == y),
            CompareOp::Ne => Ok(x != y),
            _ => Err(Error::runtime(
                "Unsupported comparison operator for bool type",
            )),
        };
    }
    Ok(false)
}

/// `func_args`: the arguments of a call, the calling context and the function name.
pub struct FuncArgs<'a> {
    /// For error messages.
    pub func_name: String,
    /// The calling context.
    pub ctx: &'a Context,
    args: Vec<Value>,
}

impl<'a> FuncArgs<'a> {
    /// No arguments yet.
    pub fn new(ctx: &'a Context) -> Self {
        FuncArgs {
            func_name: String::new(),
            ctx,
            args: Vec::new(),
        }
    }
    /// Appends an argument.
    pub fn push_back(&mut self, v: Value) {
        self.args.push(v);
    }
    /// Prepends an argument.
    pub fn push_front(&mut self, v: Value) {
        self.args.insert(0, v);
    }
    /// Number of arguments (keyword arguments included).
    pub fn count(&self) -> usize {
        self.args.len()
    }
    /// All arguments.
    pub fn get_args(&self) -> &[Value] {
        &self.args
    }
    /// `get_kwarg`.
    pub fn get_kwarg(&self, key: &str, default: Value) -> Value {
        for a in &self.args {
            if let ValueKind::Kwarg(k, v) = &a.0.kind {
                if k == key {
                    return v.clone();
                }
            }
        }
        default
    }
    /// `get_kwarg_or_pos`.
    pub fn get_kwarg_or_pos(&self, key: &str, pos: usize) -> Value {
        let v = self.get_kwarg(key, Value::undefined(""));
        if v.is_undefined() && pos < self.count() && !self.args[pos].is(ValType::Kwarg) {
            return self.args[pos].clone();
        }
        v
    }
    /// `get_pos`: raises when missing.
    pub fn get_pos(&self, pos: usize) -> Result<Value> {
        match self.args.get(pos) {
            Some(v) => Ok(v.clone()),
            None => Err(Error::raised(format!(
                "Function '{}' expected at least {} arguments, got {}",
                self.func_name,
                pos + 1,
                self.count()
            ))),
        }
    }
    /// `get_pos(pos, default)`.
    pub fn get_pos_or(&self, pos: usize, default: Value) -> Value {
        self.args.get(pos).cloned().unwrap_or(default)
    }
    /// `ensure_count(min, max)`.
    pub fn ensure_count(&self, min: usize, max: usize) -> Result<()> {
        let n = self.args.len();
        if n < min || n > max {
            return Err(Error::runtime(format!(
                "Function '{}' expected between {} and {} arguments, got {}",
                self.func_name, min, max, n
            )));
        }
        Ok(())
    }
    /// `ensure_val<T>`.
    pub fn ensure_val(&self, v: &Value, t: ValType) -> Result<()> {
        if !v.is(t) {
            return Err(Error::runtime(format!(
                "Function '{}' expected value of type {}, got {}",
                self.func_name,
                t.mangled(),
                v.type_name()
            )));
        }
        Ok(())
    }
    /// `ensure_vals<T0, ...>(required0, ...)`.
    pub fn ensure_vals(&self, spec: &[(ValType, bool)]) -> Result<()> {
        let required = spec.iter().filter(|s| s.1).count();
        self.ensure_count(required, 999)?;
        for (i, (t, req)) in spec.iter().enumerate() {
            if *req && self.args.len() > i {
                self.ensure_val(&self.args[i], *t)?;
            }
        }
        Ok(())
    }
    /// `ensure_vals<T>()` with one required argument.
    pub fn ensure1(&self, t: ValType) -> Result<()> {
        self.ensure_vals(&[(t, true)])
    }
}

/// Converts JSON to a value (`from_json`), marking strings as input when asked.
pub fn from_json(j: &serde_json::Value, mark_input: bool) -> Result<Value> {
    from_json_depth(j, mark_input, 0)
}

fn from_json_depth(j: &serde_json::Value, mark_input: bool, depth: usize) -> Result<Value> {
    if depth > MAX_VALUE_DEPTH {
        return Err(too_deep());
    }
    Ok(match j {
        serde_json::Value::Null => Value::none(),
        serde_json::Value::Bool(b) => Value::bool(*b),
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::int(i)
            } else if let Some(u) = n.as_u64() {
                Value::int(u as i64)
            } else {
                Value::float(n.as_f64().unwrap_or(0.0))
            }
        }
        serde_json::Value::String(s) => Value::string(JString::new(s.as_bytes(), mark_input)),
        serde_json::Value::Array(a) => {
            let mut items = Vec::with_capacity(a.len());
            for it in a {
                items.push(from_json_depth(it, mark_input, depth + 1)?);
            }
            Value::array(items)
        }
        serde_json::Value::Object(o) => {
            let obj = Value::object();
            for (k, v) in o {
                obj.insert_str(k, from_json_depth(v, mark_input, depth + 1)?)?;
            }
            obj
        }
    })
}

/// `global_from_json`: sets each key of the JSON object as a variable of `ctx`.
pub fn global_from_json(
    ctx: &mut Context,
    json: &serde_json::Value,
    mark_input: bool,
) -> Result<()> {
    let obj = match json {
        serde_json::Value::Object(o) => o,
        _ => {
            return Err(Error::new(
                ErrorKind::Json,
                "global_from_json: input JSON value must be an object",
            ))
        }
    };
    for (k, v) in obj {
        ctx.set_val(k, from_json(v, mark_input)?)?;
    }
    Ok(())
}

/// `value_to_json(val, indent, item_sep, key_sep)`.
pub fn value_to_json(val: &Value, indent: i32, item_sep: &[u8], key_sep: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    value_to_json_internal(&mut out, val, 0, indent, item_sep, key_sep)?;
    Ok(out)
}

fn json_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for &c in s {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            c if c < 0x20 => out.extend_from_slice(format!("\\u{:04x}", c).as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

fn value_to_json_internal(
    out: &mut Vec<u8>,
    val: &Value,
    lvl: usize,
    indent: i32,
    item_sep: &[u8],
    key_sep: &[u8],
) -> Result<()> {
    if lvl > MAX_VALUE_DEPTH {
        return Err(too_deep());
    }
    let indent_str = |out: &mut Vec<u8>, l: usize| {
        if indent > 0 {
            out.extend(std::iter::repeat_n(b' ', l * indent as usize));
        }
    };
    let newline = |out: &mut Vec<u8>| {
        if indent >= 0 {
            out.push(b'\n');
        }
    };
    match &val.0.kind {
        ValueKind::None | ValueKind::Undefined(_) => out.extend_from_slice(b"null"),
        ValueKind::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        ValueKind::Int(i, _) => out.extend_from_slice(i.to_string().as_bytes()),
        ValueKind::Float(f, _) => out.extend_from_slice(cpp_ostream_f64(*f).as_bytes()),
        ValueKind::Str(s) => json_string(out, &s.bytes()),
        ValueKind::Array { items, .. } => {
            let items = items.borrow().clone();
            out.push(b'[');
            if !items.is_empty() {
                newline(out);
                for (i, it) in items.iter().enumerate() {
                    indent_str(out, lvl + 1);
                    value_to_json_internal(out, it, lvl + 1, indent, item_sep, key_sep)?;
                    if i + 1 < items.len() {
                        out.extend_from_slice(item_sep);
                    }
                    newline(out);
                }
                indent_str(out, lvl);
            }
            out.push(b']');
        }
        ValueKind::Object(o) => {
            let entries = o.borrow().entries.clone();
            out.push(b'{');
            if !entries.is_empty() {
                newline(out);
                for (i, (k, v)) in entries.iter().enumerate() {
                    indent_str(out, lvl + 1);
                    json_string(out, &k.as_string_depth(lvl + 1)?.bytes());
                    out.extend_from_slice(key_sep);
                    value_to_json_internal(out, v, lvl + 1, indent, item_sep, key_sep)?;
                    if i + 1 < entries.len() {
                        out.extend_from_slice(item_sep);
                    }
                    newline(out);
                }
                indent_str(out, lvl);
            }
            out.push(b'}');
        }
        _ => out.extend_from_slice(b"null"),
    }
    Ok(())
}

/// `value_to_string_repr`: strings quoted (as JSON when they hold `'`), the rest as `as_repr`.
pub fn value_to_string_repr(val: &Value, depth: usize) -> Result<Vec<u8>> {
    if depth > MAX_VALUE_DEPTH {
        return Err(too_deep());
    }
    match &val.0.kind {
        ValueKind::Str(s) => {
            let b = s.bytes();
            if b.contains(&b'\'') {
                let mut out = Vec::new();
                json_string(&mut out, &b);
                Ok(out)
            } else {
                let mut out = vec![b'\''];
                out.extend_from_slice(&b);
                out.push(b'\'');
                Ok(out)
            }
        }
        _ => val.as_repr_depth(depth),
    }
}

impl Value {
    /// Converts back to JSON (for inspection; not a C++ API).
    pub fn to_json_text(&self) -> Result<String> {
        Ok(lossy(value_to_json(self, -1, b", ", b": ")?))
    }
}

/// A copy of an object's data (`mk_val<value_object>(val)`), builtins on.
pub(crate) fn copy_object(v: &Value) -> Result<ObjectData> {
    match &v.0.kind {
        ValueKind::Object(o) => {
            let mut d = o.borrow().clone();
            d.has_builtins = true;
            Ok(d)
        }
        _ => Err(v.type_error("is not an object value")),
    }
}

impl ObjectData {
    /// Mutable pairs (for `dictsort`); call `reindex` after reordering.
    pub(crate) fn entries_mut(&mut self) -> &mut Vec<(Value, Value)> {
        &mut self.entries
    }
    pub(crate) fn reindex(&mut self) -> Result<()> {
        self.rebuild_index()
    }
}

/// Sets `has_builtins` on an object value.
pub(crate) fn set_has_builtins(v: &Value, on: bool) {
    if let ValueKind::Object(o) = &v.0.kind {
        o.borrow_mut().has_builtins = on;
    }
}
