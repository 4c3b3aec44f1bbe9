//! Go's builtin template functions (`funcs.go`) and the calling convention
//! for functions and methods supplied by embedders.

use std::sync::{Arc, OnceLock};

use crate::exec::{indirect, is_true, printable_value, sig, Printable, Rv};
use crate::gofmt;
use crate::value::{FuncType, Function, IntType, Kind, Method, Slice, Type, UintType, Value};

/// The builtin functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `and`
    And,
    /// `call`
    Call,
    /// `html`
    Html,
    /// `index`
    Index,
    /// `slice`
    Slice,
    /// `js`
    Js,
    /// `len`
    Len,
    /// `not`
    Not,
    /// `or`
    Or,
    /// `print`
    Print,
    /// `printf`
    Printf,
    /// `println`
    Println,
    /// `urlquery`
    Urlquery,
    /// `eq`
    Eq,
    /// `ge`
    Ge,
    /// `gt`
    Gt,
    /// `le`
    Le,
    /// `lt`
    Lt,
    /// `ne`
    Ne,
}

impl Builtin {
    /// Looks a builtin up by name.
    pub fn by_name(name: &str) -> Option<Builtin> {
        Some(match name {
            "and" => Builtin::And,
            "call" => Builtin::Call,
            "html" => Builtin::Html,
            "index" => Builtin::Index,
            "slice" => Builtin::Slice,
            "js" => Builtin::Js,
            "len" => Builtin::Len,
            "not" => Builtin::Not,
            "or" => Builtin::Or,
            "print" => Builtin::Print,
            "printf" => Builtin::Printf,
            "println" => Builtin::Println,
            "urlquery" => Builtin::Urlquery,
            "eq" => Builtin::Eq,
            "ge" => Builtin::Ge,
            "gt" => Builtin::Gt,
            "le" => Builtin::Le,
            "lt" => Builtin::Lt,
            "ne" => Builtin::Ne,
            _ => return None,
        })
    }

    /// The Go signature of the builtin.
    pub fn sig(self) -> Arc<FuncType> {
        static SIGS: OnceLock<Vec<Arc<FuncType>>> = OnceLock::new();
        let sigs = SIGS.get_or_init(|| {
            let rv = || Type::ReflectValue;
            let rvs = || Type::Slice(Arc::new(Type::ReflectValue));
            let anys = || Type::Slice(Arc::new(Type::Interface));
            vec![
                sig(vec![rv(), rvs()], true, vec![rv()]),    // and/or
                sig(vec![rv(), rvs()], true, vec![rv()]),    // call
                sig(vec![anys()], true, vec![Type::String]), // html/js/urlquery/print/println
                sig(vec![rv(), rvs()], true, vec![rv(), Type::Error]), // index/slice
                sig(
                    vec![rv()],
                    false,
                    vec![Type::Int(IntType::Int), Type::Error],
                ), // len
                sig(vec![rv()], false, vec![Type::Bool]),    // not
                sig(vec![Type::String, anys()], true, vec![Type::String]), // printf
                sig(vec![rv(), rvs()], true, vec![Type::Bool, Type::Error]), // eq
                sig(vec![rv(), rv()], false, vec![Type::Bool, Type::Error]), // ne lt le gt ge
            ]
        });
        let i = match self {
            Builtin::And | Builtin::Or => 0,
            Builtin::Call => 1,
            Builtin::Html | Builtin::Js | Builtin::Urlquery | Builtin::Print | Builtin::Println => {
                2
            }
            Builtin::Index | Builtin::Slice => 3,
            Builtin::Len => 4,
            Builtin::Not => 5,
            Builtin::Printf => 6,
            Builtin::Eq => 7,
            Builtin::Ne | Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge => 8,
        };
        sigs[i].clone()
    }
}

/// Something a template can call.
#[derive(Clone, Debug)]
pub(crate) enum Callable {
    Builtin(Builtin),
    Func(Arc<Function>),
    Method(Value, Method),
}

impl Callable {
    pub fn sig(&self) -> Arc<FuncType> {
        match self {
            Callable::Builtin(b) => b.sig(),
            Callable::Func(f) => f.sig.clone(),
            Callable::Method(_, m) => m.sig.clone(),
        }
    }

    pub fn invoke(&self, argv: Vec<Rv>) -> Result<Rv, String> {
        match self {
            Callable::Builtin(b) => call_builtin(*b, argv),
            Callable::Func(f) => {
                call_native(&*f.imp, &f.sig, argv.into_iter().map(|a| a.v).collect())
            }
            Callable::Method(recv, m) => {
                let mut args = Vec::with_capacity(argv.len() + 1);
                args.push(recv.clone());
                args.extend(argv.into_iter().map(|a| a.v));
                call_native(&*m.imp, &m.sig, args)
            }
        }
    }
}

fn call_native(
    imp: &crate::value::NativeFn,
    sig: &FuncType,
    args: Vec<Value>,
) -> Result<Rv, String> {
    let v = imp(&args)?;
    let rt = sig.results.first().cloned().unwrap_or(Type::Interface);
    Ok(Rv::from_slot(v, &rt))
}

/// Go's `goodFunc`.
pub(crate) fn good_func(name: &str, sig: &FuncType) -> Result<(), String> {
    match sig.results.len() {
        1 => Ok(()),
        2 if sig.results[1] == Type::Error => Ok(()),
        2 => Err(format!(
            "invalid function signature for {name}: second return value should be error; is {}",
            sig.results[1]
        )),
        n => Err(format!(
            "function {name} has {n} return values; should be 1 or 2"
        )),
    }
}

/// `truth`.
pub(crate) fn truth(v: &Rv) -> bool {
    is_true(&v.clone().indirect_interface()).unwrap_or(false)
}

fn call_builtin(b: Builtin, argv: Vec<Rv>) -> Result<Rv, String> {
    let mut it = argv.into_iter();
    match b {
        Builtin::And | Builtin::Or | Builtin::Call => unreachable!("handled by the evaluator"),
        Builtin::Not => Ok(Rv::new(Value::Bool(!truth(&it.next().unwrap_or_default())))),
        Builtin::Len => {
            length(it.next().unwrap_or_default()).map(|n| Rv::new(Value::int(n as i64)))
        }
        Builtin::Index => {
            let item = it.next().unwrap_or_default();
            index(item, it.collect())
        }
        Builtin::Slice => {
            let item = it.next().unwrap_or_default();
            slice(item, it.collect())
        }
        Builtin::Print => Ok(str_rv(gofmt::sprint(&any_args(it)))),
        Builtin::Println => Ok(str_rv(gofmt::sprintln(&any_args(it)))),
        Builtin::Printf => {
            let format = it.next().unwrap_or_default();
            let format = format.v.as_str().unwrap_or("").to_string();
            Ok(str_rv(gofmt::sprintf(&format, &any_args(it))))
        }
        Builtin::Html => Ok(str_rv(html_escape(&eval_args(it.collect())))),
        Builtin::Js => Ok(str_rv(js_escape(&eval_args(it.collect())))),
        Builtin::Urlquery => Ok(str_rv(query_escape(&eval_args(it.collect())))),
        Builtin::Eq => {
            let a = it.next().unwrap_or_default();
            eq(a, it.collect()).map(|b| Rv::new(Value::Bool(b)))
        }
        Builtin::Ne => {
            let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
            eq(a, vec![b]).map(|e| Rv::new(Value::Bool(!e)))
        }
        Builtin::Lt => {
            let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
            lt(a, b).map(|x| Rv::new(Value::Bool(x)))
        }
        Builtin::Le => {
            let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
            le(a, b).map(|x| Rv::new(Value::Bool(x)))
        }
        Builtin::Gt => {
            let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
            le(a, b).map(|x| Rv::new(Value::Bool(!x)))
        }
        Builtin::Ge => {
            let (a, b) = (it.next().unwrap_or_default(), it.next().unwrap_or_default());
            lt(a, b).map(|x| Rv::new(Value::Bool(!x)))
        }
    }
}

fn str_rv(s: String) -> Rv {
    Rv::new(Value::string(s))
}

/// Arguments passed as `...any`: a nil interface stays nil.
fn any_args(it: impl Iterator<Item = Rv>) -> Vec<Value> {
    it.map(|a| match a.v {
        Value::Invalid => Value::Nil,
        v => v,
    })
    .collect()
}

/// Go's `evalArgs`: `fmt.Sprint` with pointers indirected and missing
/// values printed as `<no value>`.
fn eval_args(args: Vec<Rv>) -> String {
    if args.len() == 1 {
        if let Value::String(s) = &args[0].v {
            return s.to_string();
        }
    }
    let vals: Vec<Value> = args
        .into_iter()
        .map(|a| {
            let a = a.indirect_interface();
            match printable_value(a.clone()) {
                Some(Printable::NoValue) => Value::string("<no value>"),
                Some(Printable::Value(v)) => v,
                None => a.v,
            }
        })
        .collect();
    gofmt::sprint(&vals)
}

fn index_arg(index: &Rv, cap: usize) -> Result<usize, String> {
    let x: i64 = match index.v.underlying() {
        _ if index.iface => return Err("cannot index slice/array with type interface {}".into()),
        Value::Int(i, _) => *i,
        Value::Uint(u, _) => *u as i64,
        Value::Invalid => return Err("cannot index slice/array with nil".into()),
        _ => {
            return Err(format!(
                "cannot index slice/array with type {}",
                index.type_name()
            ))
        }
    };
    if x < 0 || x as u64 > cap as u64 {
        return Err(format!("index out of range: {x}"));
    }
    Ok(x as usize)
}

/// `prepareArg`.
fn prepare_arg(value: Rv, arg_type: &Type) -> Result<Rv, String> {
    let value = if !value.is_valid() {
        if !arg_type.can_be_nil() {
            return Err(format!("value is nil; should be of type {arg_type}"));
        }
        Rv::from_slot(arg_type.zero(), arg_type)
    } else {
        value
    };
    let vt = if value.iface {
        Some(Type::Interface)
    } else {
        value.v.type_of()
    };
    if let Some(vt) = &vt {
        if vt.assignable_to(arg_type) {
            return Ok(value);
        }
        if let Some(converted) = convert_int_like(&value.v, arg_type) {
            return Ok(Rv::new(converted));
        }
        return Err(format!("value has type {vt}; should be {arg_type}"));
    }
    Ok(value)
}

fn convert_int_like(v: &Value, to: &Type) -> Option<Value> {
    let as_i128: i128 = match v.underlying() {
        Value::Int(i, _) => *i as i128,
        Value::Uint(u, _) => *u as i128,
        _ => return None,
    };
    Some(match to.underlying() {
        Type::Int(t) => {
            let i = as_i128 as i64;
            Value::Int(
                match t.bits() {
                    8 => i as i8 as i64,
                    16 => i as i16 as i64,
                    32 => i as i32 as i64,
                    _ => i,
                },
                *t,
            )
        }
        Type::Uint(t) => {
            let u = as_i128 as u64;
            Value::Uint(
                match t.bits() {
                    8 => u as u8 as u64,
                    16 => u as u16 as u64,
                    32 => u as u32 as u64,
                    _ => u,
                },
                *t,
            )
        }
        _ => return None,
    })
}

/// `index`.
fn index(item: Rv, indexes: Vec<Rv>) -> Result<Rv, String> {
    let mut item = item.indirect_interface();
    if !item.is_valid() {
        return Err("index of untyped nil".into());
    }
    for index in indexes {
        let index = index.indirect_interface();
        let (it, is_nil) = indirect(item);
        if is_nil {
            return Err("index of nil pointer".into());
        }
        item = match it.v.underlying() {
            Value::Slice(s) => {
                let x = index_arg(&index, s.len)?;
                if x == s.len {
                    return Err(if it.v.kind() == Kind::Array {
                        "reflect: array index out of range".into()
                    } else {
                        "reflect: slice index out of range".into()
                    });
                }
                Rv::from_slot(s.items()[x].clone(), &s.elem_type())
            }
            Value::String(st) => {
                let x = index_arg(&index, st.len())?;
                if x == st.len() {
                    return Err("reflect: string index out of range".into());
                }
                Rv::new(Value::Uint(st.as_bytes()[x] as u64, UintType::U8))
            }
            Value::Map(m) => {
                let key = prepare_arg(index, &m.key_type())?;
                let et = m.elem_type();
                match m.get(&key.v) {
                    Some(v) => Rv::from_slot(v.clone(), &et),
                    None => Rv::from_slot(et.zero(), &et),
                }
            }
            _ => return Err(format!("can't index item of type {}", it.type_name())),
        };
    }
    Ok(item)
}

/// `slice`.
fn slice(item: Rv, indexes: Vec<Rv>) -> Result<Rv, String> {
    let item = item.indirect_interface();
    if !item.is_valid() {
        return Err("slice of untyped nil".into());
    }
    let (item, is_nil) = indirect(item);
    if is_nil {
        return Err("slice of nil pointer".into());
    }
    if indexes.len() > 3 {
        return Err(format!("too many slice indexes: {}", indexes.len()));
    }
    let (cap, len) = match item.v.underlying() {
        Value::String(s) => {
            if indexes.len() == 3 {
                return Err("cannot 3-index slice a string".into());
            }
            (s.len(), s.len())
        }
        Value::Slice(s) => (s.cap, s.len),
        _ => return Err(format!("can't slice item of type {}", item.type_name())),
    };
    let mut idx = [0usize, len, 0];
    for (i, index) in indexes.iter().enumerate() {
        idx[i] = index_arg(index, cap)?;
    }
    if idx[0] > idx[1] {
        return Err(format!("invalid slice index: {} > {}", idx[0], idx[1]));
    }
    if indexes.len() == 3 && idx[1] > idx[2] {
        return Err(format!("invalid slice index: {} > {}", idx[1], idx[2]));
    }
    Ok(Rv::new(match item.v.underlying() {
        Value::String(s) => {
            let bytes = &s.as_bytes()[idx[0]..idx[1]];
            Value::string(String::from_utf8_lossy(bytes).into_owned())
        }
        Value::Slice(s) => {
            let new_cap = if indexes.len() == 3 {
                idx[2] - idx[0]
            } else {
                s.cap - idx[0]
            };
            let ty = match s.ty.underlying() {
                Type::Array(_, e) => Type::Slice(e.clone()),
                _ => s.ty.clone(),
            };
            Value::Slice(Arc::new(Slice {
                ty,
                backing: s.backing.clone(),
                start: s.start + idx[0],
                len: idx[1] - idx[0],
                cap: new_cap,
                is_nil: false,
                addr: s.addr + 16 * idx[0] as u64,
            }))
        }
        _ => unreachable!(),
    }))
}

/// `length`.
fn length(item: Rv) -> Result<usize, String> {
    let (item, is_nil) = indirect(item);
    if is_nil {
        return Err("len of nil pointer".into());
    }
    if !item.is_valid() {
        return Err("reflect: call of reflect.Value.Type on zero Value".into());
    }
    item.v
        .len()
        .ok_or_else(|| format!("len of type {}", item.type_name()))
}

/// `call`.
pub(crate) fn call(name: &str, argv: Vec<Rv>) -> Result<Rv, String> {
    let mut it = argv.into_iter();
    let fun = it.next().unwrap_or_default().indirect_interface();
    let args: Vec<Rv> = it.collect();
    if !fun.is_valid() {
        return Err("call of nil".into());
    }
    let Value::Func(f) = fun.v.underlying() else {
        return Err(format!("non-function {name} of type {}", fun.type_name()));
    };
    let f = f.clone();
    good_func(name, &f.sig)?;
    let num_in = f.sig.params.len();
    let ddd_type = if f.sig.variadic {
        if args.len() < num_in - 1 {
            return Err(format!(
                "wrong number of args for {name}: got {} want at least {}",
                args.len(),
                num_in - 1
            ));
        }
        match &f.sig.params[num_in - 1] {
            Type::Slice(e) => Some((**e).clone()),
            t => Some(t.clone()),
        }
    } else {
        if args.len() != num_in {
            return Err(format!(
                "wrong number of args for {name}: got {} want {num_in}",
                args.len()
            ));
        }
        None
    };
    let mut argv = Vec::with_capacity(args.len());
    for (i, arg) in args.into_iter().enumerate() {
        let arg = arg.indirect_interface();
        let arg_type = match (&ddd_type, i < num_in.saturating_sub(1)) {
            (Some(d), false) => d.clone(),
            _ => f.sig.params[i].clone(),
        };
        argv.push(prepare_arg(arg, &arg_type).map_err(|e| format!("arg {i}: {e}"))?);
    }
    Callable::Func(f).invoke(argv)
}

// ---- comparison ----

#[derive(Clone, Copy, PartialEq, Eq)]
enum BasicKind {
    Invalid,
    Bool,
    Complex,
    Int,
    Float,
    String,
    Uint,
}

const ERR_BAD_COMPARISON_TYPE: &str = "invalid type for comparison";

fn basic_kind(v: &Rv) -> BasicKind {
    if v.iface {
        return BasicKind::Invalid;
    }
    match v.v.underlying() {
        Value::Bool(_) => BasicKind::Bool,
        Value::Int(..) => BasicKind::Int,
        Value::Uint(..) => BasicKind::Uint,
        Value::Float(..) => BasicKind::Float,
        Value::Complex(..) => BasicKind::Complex,
        Value::String(_) => BasicKind::String,
        _ => BasicKind::Invalid,
    }
}

fn as_int(v: &Rv) -> i64 {
    match v.v.underlying() {
        Value::Int(i, _) => *i,
        _ => 0,
    }
}

fn as_uint(v: &Rv) -> u64 {
    match v.v.underlying() {
        Value::Uint(u, _) => *u,
        _ => 0,
    }
}

fn as_float(v: &Rv) -> f64 {
    match v.v.underlying() {
        Value::Float(f, _) => *f,
        _ => 0.0,
    }
}

fn is_nil_value(v: &Rv) -> bool {
    if !v.is_valid() {
        return true;
    }
    if v.iface {
        return matches!(v.v, Value::Nil);
    }
    match v.v.underlying() {
        Value::Slice(s) => s.is_nil,
        Value::Map(m) => m.is_nil,
        Value::Pointer(p) => p.target.is_none(),
        Value::Func(f) => f.addr == 0,
        _ => false,
    }
}

fn comparable(v: &Value) -> bool {
    match v.underlying() {
        Value::Slice(s) => {
            matches!(s.ty.underlying(), Type::Array(..)) && s.items().iter().all(comparable)
        }
        Value::Map(_) | Value::Func(_) => false,
        Value::Struct(s) => s.fields.iter().all(comparable),
        _ => true,
    }
}

fn values_equal(a: &Value, b: &Value) -> bool {
    match (a.underlying(), b.underlying()) {
        (Value::Pointer(x), Value::Pointer(y)) => x.addr == y.addr && x.ty == y.ty,
        (Value::Struct(x), Value::Struct(y)) => {
            x.ty == y.ty
                && x.fields
                    .iter()
                    .zip(&y.fields)
                    .all(|(p, q)| values_equal(p, q))
        }
        (Value::Slice(x), Value::Slice(y)) => {
            x.ty == y.ty
                && x.len == y.len
                && x.items()
                    .iter()
                    .zip(y.items())
                    .all(|(p, q)| values_equal(p, q))
        }
        (Value::Nil, Value::Nil) => true,
        (x, y) => {
            x.type_of() == y.type_of()
                && match (x, y) {
                    (Value::Bool(p), Value::Bool(q)) => p == q,
                    (Value::Int(p, _), Value::Int(q, _)) => p == q,
                    (Value::Uint(p, _), Value::Uint(q, _)) => p == q,
                    (Value::Float(p, _), Value::Float(q, _)) => p == q,
                    (Value::Complex(p, pi, _), Value::Complex(q, qi, _)) => p == q && pi == qi,
                    (Value::String(p), Value::String(q)) => p == q,
                    _ => false,
                }
        }
    }
}

fn fmt_v(v: &Rv) -> String {
    crate::exec::sprint_v(v)
}

/// `%s` of a reflect.Value, as Go's comparison errors print it.
fn fmt_s(v: &Rv) -> String {
    gofmt::sprintf("%s", std::slice::from_ref(&v.v))
}

/// `eq`.
fn eq(arg1: Rv, arg2: Vec<Rv>) -> Result<bool, String> {
    let arg1 = arg1.indirect_interface();
    if arg2.is_empty() {
        return Err("missing argument for comparison".into());
    }
    let k1 = basic_kind(&arg1);
    for arg in arg2 {
        let arg = arg.indirect_interface();
        let k2 = basic_kind(&arg);
        let truth = if k1 != k2 {
            match (k1, k2) {
                (BasicKind::Int, BasicKind::Uint) => {
                    as_int(&arg1) >= 0 && as_int(&arg1) as u64 == as_uint(&arg)
                }
                (BasicKind::Uint, BasicKind::Int) => {
                    as_int(&arg) >= 0 && as_uint(&arg1) == as_int(&arg) as u64
                }
                _ => {
                    if arg1.is_valid() && arg.is_valid() {
                        return Err(format!(
                            "incompatible types for comparison: {} and {}",
                            arg1.type_name(),
                            arg.type_name()
                        ));
                    }
                    false
                }
            }
        } else {
            match k1 {
                BasicKind::Bool
                | BasicKind::Int
                | BasicKind::Uint
                | BasicKind::String
                | BasicKind::Complex => values_equal_basic(&arg1.v, &arg.v),
                BasicKind::Float => as_float(&arg1) == as_float(&arg),
                BasicKind::Invalid => {
                    let (ka, kb) = (arg1.kind(), arg.kind());
                    let can_compare = ka == kb || ka == Kind::Invalid || kb == Kind::Invalid;
                    if !can_compare {
                        return Err(format!(
                            "non-comparable types {}: {}, {}: {}",
                            fmt_s(&arg1),
                            arg1.type_name(),
                            arg.type_name(),
                            fmt_v(&arg)
                        ));
                    }
                    if is_nil_value(&arg1) || is_nil_value(&arg) {
                        is_nil_value(&arg) == is_nil_value(&arg1)
                    } else {
                        if !comparable(&arg.v) {
                            return Err(format!(
                                "non-comparable type {}: {}",
                                fmt_s(&arg),
                                arg.type_name()
                            ));
                        }
                        values_equal(&arg1.v, &arg.v)
                    }
                }
            }
        };
        if truth {
            return Ok(true);
        }
    }
    Ok(false)
}

fn values_equal_basic(a: &Value, b: &Value) -> bool {
    match (a.underlying(), b.underlying()) {
        (Value::Bool(p), Value::Bool(q)) => p == q,
        (Value::Int(p, _), Value::Int(q, _)) => p == q,
        (Value::Uint(p, _), Value::Uint(q, _)) => p == q,
        (Value::String(p), Value::String(q)) => p == q,
        (Value::Complex(p, pi, _), Value::Complex(q, qi, _)) => p == q && pi == qi,
        _ => false,
    }
}

/// `lt`.
fn lt(arg1: Rv, arg2: Rv) -> Result<bool, String> {
    let arg1 = arg1.indirect_interface();
    let k1 = basic_kind(&arg1);
    if k1 == BasicKind::Invalid {
        return Err(ERR_BAD_COMPARISON_TYPE.into());
    }
    let arg2 = arg2.indirect_interface();
    let k2 = basic_kind(&arg2);
    if k2 == BasicKind::Invalid {
        return Err(ERR_BAD_COMPARISON_TYPE.into());
    }
    if k1 != k2 {
        return match (k1, k2) {
            (BasicKind::Int, BasicKind::Uint) => {
                Ok(as_int(&arg1) < 0 || (as_int(&arg1) as u64) < as_uint(&arg2))
            }
            (BasicKind::Uint, BasicKind::Int) => {
                Ok(as_int(&arg2) >= 0 && as_uint(&arg1) < as_int(&arg2) as u64)
            }
            _ => Err(format!(
                "incompatible types for comparison: {} and {}",
                arg1.type_name(),
                arg2.type_name()
            )),
        };
    }
    match k1 {
        BasicKind::Bool | BasicKind::Complex => Err(ERR_BAD_COMPARISON_TYPE.into()),
        BasicKind::Float => Ok(as_float(&arg1) < as_float(&arg2)),
        BasicKind::Int => Ok(as_int(&arg1) < as_int(&arg2)),
        BasicKind::Uint => Ok(as_uint(&arg1) < as_uint(&arg2)),
        BasicKind::String => {
            Ok(arg1.v.as_str().unwrap_or("").as_bytes() < arg2.v.as_str().unwrap_or("").as_bytes())
        }
        BasicKind::Invalid => unreachable!(),
    }
}

/// `le`.
fn le(arg1: Rv, arg2: Rv) -> Result<bool, String> {
    if lt(arg1.clone(), arg2.clone())? {
        return Ok(true);
    }
    eq(arg1, vec![arg2])
}

// ---- escaping ----

/// `template.HTMLEscapeString`.
pub fn html_escape(s: &str) -> String {
    if !s.contains(['\'', '"', '&', '<', '>', '\0']) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '\0' => out.push('\u{FFFD}'),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// `template.JSEscapeString`.
pub fn js_escape(s: &str) -> String {
    let special = |c: char| {
        matches!(c, '\\' | '\'' | '"' | '<' | '>' | '&' | '=') || c < ' ' || !c.is_ascii()
    };
    if !s.contains(special) {
        return s.to_string();
    }
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if !special(c) {
            out.push(c);
            continue;
        }
        if c.is_ascii() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\'' => out.push_str("\\'"),
                '"' => out.push_str("\\\""),
                '<' => out.push_str("\\u003C"),
                '>' => out.push_str("\\u003E"),
                '&' => out.push_str("\\u0026"),
                '=' => out.push_str("\\u003D"),
                _ => {
                    let b = c as u8;
                    out.push_str("\\u00");
                    out.push(HEX[(b >> 4) as usize] as char);
                    out.push(HEX[(b & 0xf) as usize] as char);
                }
            }
        } else if crate::unicode::is_print(c) {
            out.push(c);
        } else {
            out.push_str(&format!("\\u{:04X}", c as u32));
        }
    }
    out
}

/// `url.QueryEscape`.
pub fn query_escape(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len() + 8);
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
        }
    }
    out
}
