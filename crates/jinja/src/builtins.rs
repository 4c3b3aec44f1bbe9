//! The builtin half of `common/jinja/value.cpp`: `global_builtins()` (globals
//! and `test_is_*` tests) and each type's `get_builtins()` (filters and methods).
//!
//! The tables keep the C++ `std::map` semantics: the first entry of a
//! duplicated name wins (strings' `default` is `default_value`).

use crate::cstd::{cpp_stod, cpp_stoi, parse_utf8_codepoint};
use crate::error::{Error, Result};
use crate::string::{JString, StringPart};
use crate::utils::{find_bytes, rfind_bytes};
use crate::value::{
    copy_object, equivalent, value_compare, value_to_json, BuiltinFn, CompareOp, FuncArgs, ValType,
    Value, ValueKind,
};

type Table = &'static [(&'static str, BuiltinFn)];

/// Looks a name up in a table (first match wins, like `std::map` built from an initializer list).
pub fn lookup(table: Table, name: &str) -> Option<BuiltinFn> {
    table.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// The builtins of a value's type (`get_builtins()`); `None` where the C++ throws "has no builtins".
pub fn builtins_of(v: &Value) -> Option<Table> {
    Some(match v.kind() {
        ValueKind::Int(..) => INT_BUILTINS,
        ValueKind::Float(..) => FLOAT_BUILTINS,
        ValueKind::Str(_) => STRING_BUILTINS,
        ValueKind::Bool(_) => BOOL_BUILTINS,
        ValueKind::Array { .. } => ARRAY_BUILTINS,
        ValueKind::Object(o) => {
            if o.borrow().has_builtins {
                OBJECT_BUILTINS
            } else {
                &[]
            }
        }
        ValueKind::None => NONE_BUILTINS,
        ValueKind::Undefined(_) => UNDEFINED_BUILTINS,
        _ => return None,
    })
}

/// `global_builtins()`.
pub fn global_builtin(name: &str) -> Option<BuiltinFn> {
    lookup(GLOBAL_BUILTINS, name)
}

/// Names of the builtin tables, for the fuzz tests: (type, names).
pub fn builtin_names() -> Vec<(&'static str, Vec<&'static str>)> {
    let names = |t: Table| {
        let mut v: Vec<&str> = Vec::new();
        for (n, _) in t {
            if !v.contains(n) {
                v.push(n);
            }
        }
        v.sort();
        v
    };
    vec![
        ("global", names(GLOBAL_BUILTINS)),
        ("int", names(INT_BUILTINS)),
        ("float", names(FLOAT_BUILTINS)),
        ("string", names(STRING_BUILTINS)),
        ("array", names(ARRAY_BUILTINS)),
        ("object", names(OBJECT_BUILTINS)),
    ]
}

/// Python-style slicing of `len` items: the indices taken.
fn slice_indices(
    ctx: &crate::runtime::Context,
    len: i64,
    start: i64,
    stop: i64,
    step: i64,
) -> Vec<usize> {
    // before `jinja_slice_negative_step_bounds` a negative step takes the
    // whole sequence backwards whatever its start and stop (noted only
    // where they are not the whole sequence already)
    let (start, stop) = if step < 0
        && (start, stop) != (len - 1, -1)
        && !ctx
            .rules
            .on(&changes::llamacpp::JINJA_SLICE_NEGATIVE_STEP_BOUNDS)
    {
        (len - 1, -1)
    } else {
        (start, stop)
    };
    let direction = step.signum();
    let (start_val, stop_val);
    if direction >= 0 {
        start_val = if start < 0 {
            (len + start).max(0)
        } else {
            start.min(len)
        };
        stop_val = if stop < 0 {
            (len + stop).max(0)
        } else {
            stop.min(len)
        };
    } else {
        start_val = if start < 0 {
            (len + start).max(0)
        } else {
            start.min(len - 1)
        };
        stop_val = if stop < -1 {
            (len + stop).max(-1)
        } else {
            stop.min(len - 1)
        };
    }
    let mut out = Vec::new();
    if direction == 0 {
        return out;
    }
    let mut i = start_val;
    while direction.wrapping_mul(i) < direction.wrapping_mul(stop_val) {
        if i >= 0 && i < len {
            out.push(i as usize);
        }
        match i.checked_add(step) {
            Some(n) => i = n,
            None => break,
        }
    }
    out
}

/// A call the build's engine never returns from (it loops forever, its
/// memory growing): an error that names the row after which it returns,
/// where llama.cpp would hang.
fn never_returns(a: &FuncArgs, call: &str, row: &'static changes::Change) -> Error {
    Error::new(
        crate::ErrorKind::NeverReturns,
        format!(
            "{call} never returns in llama.cpp {} (it loops forever until {}, first in b{})",
            a.ctx.rules.build(),
            row.id,
            row.first
        ),
    )
}

fn undef() -> Value {
    Value::undefined("")
}

fn raised(msg: impl Into<String>) -> Error {
    Error::raised(msg)
}

fn ensure_ascii(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut pos = 0;
    while pos < json.len() {
        let ch = json[pos];
        if !in_string {
            out.push(ch);
            if ch == b'"' {
                in_string = true;
            }
            pos += 1;
            continue;
        }
        if escaped {
            out.push(ch);
            escaped = false;
            pos += 1;
            continue;
        }
        if ch == b'\\' {
            out.push(ch);
            escaped = true;
            pos += 1;
            continue;
        }
        if ch == b'"' {
            out.push(ch);
            in_string = false;
            pos += 1;
            continue;
        }
        if ch < 0x80 {
            out.push(ch);
            pos += 1;
            continue;
        }
        match parse_utf8_codepoint(json, pos) {
            Some((cp, n)) => {
                let mut u16 = |v: u32| out.extend_from_slice(format!("\\u{:04x}", v).as_bytes());
                if cp <= 0xFFFF {
                    u16(cp);
                } else {
                    let c = cp - 0x10000;
                    u16(0xD800 + ((c >> 10) & 0x3FF));
                    u16(0xDC00 + (c & 0x3FF));
                }
                pos += n;
            }
            None => {
                out.extend_from_slice(b"\\ufffd");
                pos += 1;
            }
        }
    }
    out
}

fn tojson(args: &FuncArgs) -> Result<Value> {
    args.ensure_count(1, 5)?;
    let val_ascii = args.get_kwarg_or_pos("ensure_ascii", 1);
    let val_indent = args.get_kwarg_or_pos("indent", 2);
    let val_separators = args.get_kwarg_or_pos("separators", 3);
    let val_sort = args.get_kwarg_or_pos("sort_keys", 4);
    let mut indent: i32 = -1;
    if args.ctx.is_get_stats {
        args.get_pos(0)?.mark_used(true);
    }
    if val_indent.is(ValType::Int) {
        indent = val_indent.as_int()? as i32;
    }
    if val_sort.as_bool()? {
        return Err(Error::not_implemented(
            "tojson sort_keys=true not implemented",
        ));
    }
    let ascii = val_ascii.as_bool()?;
    let separators = if val_separators.is(ValType::Array) {
        val_separators.as_array()?
    } else {
        Vec::new()
    };
    let item_sep = match separators.first() {
        Some(s) => s.as_string()?.bytes(),
        None => (if indent < 0 { ", " } else { "," }).as_bytes().to_vec(),
    };
    let key_sep = match separators.get(1) {
        Some(s) => s.as_string()?.bytes(),
        None => b": ".to_vec(),
    };
    let mut json = value_to_json(&args.get_pos(0)?, indent, &item_sep, &key_sep)?;
    if ascii {
        json = ensure_ascii(&json);
    }
    args.ctx.charge_bytes(json.len())?;
    Ok(Value::str(json))
}

fn get_attribute(val: &Value, attr: &Value, default: &Value) -> Result<Value> {
    if !attr.is_undefined() {
        if val.is(ValType::Array) {
            let mut idx = attr.clone();
            if let Some(s) = attr.string_ref() {
                let b = s.bytes();
                if !b.is_empty() && b.iter().all(|c| c.is_ascii_digit()) {
                    idx = match std::str::from_utf8(&b)
                        .ok()
                        .and_then(|t| t.parse::<i64>().ok())
                    {
                        Some(i) => Value::int(i),
                        None => undef(),
                    };
                }
            }
            return val.at_or(&idx, default.clone());
        } else if val.is(ValType::Object) {
            return val.at_or(attr, default.clone());
        }
    }
    Ok(default.clone())
}

/// The attribute lookup of `join`, `map`, `sort`, `min`, `max` and
/// `selectattr` as the build does it: `before` is what builds before
/// `jinja_shared_get_attribute` did in that filter (an error, or the value;
/// `None` = the item unchanged). The row is consulted only where the two
/// give different results.
fn attribute_of(
    ctx: &crate::runtime::Context,
    item: &Value,
    attr: &Value,
    default: &Value,
    before: Result<Option<Value>>,
) -> Result<Value> {
    let now = get_attribute(item, attr, default)?;
    let before = match before {
        Ok(Some(v)) if v.ptr_eq(&now) || (v.is_undefined() && now.is_undefined()) => {
            return Ok(now)
        }
        Ok(v) => Ok(v.unwrap_or_else(|| item.clone())),
        Err(e) => Err(e),
    };
    if ctx.rules.on(&changes::llamacpp::JINJA_SHARED_GET_ATTRIBUTE) {
        Ok(now)
    } else {
        before
    }
}

/// Before `jinja_shared_get_attribute`: an integer attribute indexes an
/// array item (`at(i)`: out of bounds is an error), any other attribute
/// names an object item's key (`at(key)`: a missing key is an error), and
/// other items stay as they are.
fn strict_attribute(item: &Value, attr: &Value) -> Result<Option<Value>> {
    if attr.is(ValType::Int) {
        if item.is(ValType::Array) {
            return item.at_index(attr.as_int()?).map(Some);
        }
    } else if item.is(ValType::Object) {
        return item.at(attr).map(Some);
    }
    Ok(None)
}

fn selectattr_impl(args: &FuncArgs, is_reject: bool) -> Result<Value> {
    args.ensure_count(2, 4)?;
    args.ensure_vals(&[
        (ValType::Array, true),
        (ValType::Str, true),
        (ValType::Str, false),
        (ValType::Str, false),
    ])?;
    let arr = args.get_pos(0)?.as_array()?;
    let attribute = args.get_pos(1)?;
    let out = Value::array(Vec::new());
    let val_default = undef();
    let pick = |sel: bool| if is_reject { !sel } else { sel };
    // before `jinja_shared_get_attribute`: every item must be an object
    let before = |item: &Value| -> Result<Option<Value>> {
        if !item.is(ValType::Object) {
            return Err(raised("selectattr: item is not an object"));
        }
        item.at_or(&attribute, val_default.clone()).map(Some)
    };
    match args.count() {
        2 => {
            for item in &arr {
                let a = attribute_of(args.ctx, item, &attribute, &val_default, before(item))?;
                if pick(a.as_bool()?) {
                    out.push_back(item.clone())?;
                }
            }
        }
        3 => {
            let test_name = args.get_pos(1)?.as_string()?.str();
            let test_val = args.get_pos(2)?;
            let f = global_builtin(&format!("test_is_{test_name}"))
                .ok_or_else(|| raised(format!("selectattr: unknown test '{test_name}'")))?;
            for item in &arr {
                let mut ta = FuncArgs::new(args.ctx);
                ta.push_back(item.clone());
                ta.push_back(test_val.clone());
                if pick(f(&ta)?.as_bool()?) {
                    out.push_back(item.clone())?;
                }
            }
        }
        _ => {
            let test_name = args.get_pos(2)?.as_string()?.str();
            let extra = args.get_pos(3)?;
            let f = global_builtin(&format!("test_is_{test_name}"))
                .ok_or_else(|| raised(format!("selectattr: unknown test '{test_name}'")))?;
            for item in &arr {
                let a = attribute_of(args.ctx, item, &attribute, &val_default, before(item))?;
                let mut ta = FuncArgs::new(args.ctx);
                ta.push_back(a);
                ta.push_back(extra.clone());
                if pick(f(&ta)?.as_bool()?) {
                    out.push_back(item.clone())?;
                }
            }
        }
    }
    Ok(out)
}

fn selectattr(args: &FuncArgs) -> Result<Value> {
    selectattr_impl(args, false)
}

fn rejectattr(args: &FuncArgs) -> Result<Value> {
    selectattr_impl(args, true)
}

fn default_value(args: &FuncArgs) -> Result<Value> {
    args.ensure_count(2, 3)?;
    let check_bool = args.get_kwarg_or_pos("boolean", 2).as_bool()?;
    let v = args.get_pos(0)?;
    let no_value = if check_bool {
        !v.as_bool()?
    } else {
        v.is_undefined() || v.is_none()
    };
    if no_value {
        args.get_pos(1)
    } else {
        Ok(v)
    }
}

/// `namespace(...)`: [`toobject`]; before `jinja_dict_builtin`, keyword
/// arguments only.
fn namespace(args: &FuncArgs) -> Result<Value> {
    if args.ctx.dialect == crate::Dialect::Jinja2 {
        for a in args.get_args() {
            if let crate::value::ValueKind::Kwarg(k, _) = a.kind() {
                crate::jinja2::check_namespace_name(k)?;
            }
        }
    }
    if args.get_args().iter().any(|a| !a.is(ValType::Kwarg))
        && !args.ctx.rules.on(&changes::llamacpp::JINJA_DICT_BUILTIN)
    {
        return Err(raised("namespace() arguments must be kwargs"));
    }
    toobject(args)
}

fn toobject(args: &FuncArgs) -> Result<Value> {
    let out = Value::object();
    let iter = args.get_pos_or(0, undef());
    let mut iter_first = false;
    if iter.is(ValType::Array) {
        iter_first = true;
        for it in iter.as_array()? {
            if it.is(ValType::Array) && it.array_len() == 2 {
                let t = it.as_array()?;
                out.insert(t[0].clone(), t[1].clone())?;
            } else {
                return Err(raised(format!(
                    "namespace/dict() iterable argument must consist of tuples, not {}",
                    it.type_name()
                )));
            }
        }
    } else if iter.is(ValType::Object) {
        iter_first = true;
        for (k, v) in iter.as_ordered_object()? {
            out.insert(k, v)?;
        }
    }
    for arg in args.get_args() {
        if let ValueKind::Kwarg(k, v) = arg.kind() {
            out.insert_str(k, v.clone())?;
        } else if !iter_first {
            return Err(raised(format!(
                "namespace/dict() arguments must be kwargs, dict and/or iterable of tuples, not {}",
                arg.type_name()
            )));
        }
        iter_first = false;
    }
    Ok(out)
}

fn raise_exception(args: &FuncArgs) -> Result<Value> {
    if args.ctx.dialect == crate::Dialect::Jinja2 {
        let msg = crate::jinja2::py_str(&args.get_pos(0)?)?;
        return Err(crate::Error::python("TemplateError", msg));
    }
    args.ensure1(ValType::Str)?;
    let msg = args.get_pos(0)?.as_string()?.str();
    Err(raised(format!("Jinja Exception: {msg}")))
}

fn strftime_now(args: &FuncArgs) -> Result<Value> {
    args.ensure1(ValType::Str)?;
    let fmt = args.get_pos(0)?.as_string()?.bytes();
    let s = crate::time::strftime(&fmt, args.ctx.current_time);
    if s.is_empty() || s.len() >= 100 {
        return Err(raised("strftime_now: failed to format time"));
    }
    Ok(Value::str(s))
}

fn range(args: &FuncArgs) -> Result<Value> {
    args.ensure_count(1, 3)?;
    args.ensure_vals(&[
        (ValType::Int, true),
        (ValType::Int, false),
        (ValType::Int, false),
    ])?;
    let a0 = args.get_pos(0)?;
    let a1 = args.get_pos_or(1, undef());
    let a2 = args.get_pos_or(2, undef());
    let (start, stop, step) = match args.count() {
        1 => (0, a0.as_int()?, 1),
        2 => (a0.as_int()?, a1.as_int()?, 1),
        _ => (a0.as_int()?, a1.as_int()?, a2.as_int()?),
    };
    if step == 0 {
        return Err(raised("range() step argument must not be zero"));
    }
    let mut items = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        args.ctx.charge(4)?;
        items.push(Value::int(i));
        match i.checked_add(step) {
            Some(n) => i = n,
            None => break,
        }
    }
    Ok(Value::array(items))
}

fn test_type(args: &FuncArgs, types: &[ValType]) -> Result<Value> {
    args.ensure_count(1, 999)?;
    let v = args.get_pos(0)?;
    Ok(Value::bool(types.iter().any(|t| v.is(*t))))
}

fn test_compare(args: &FuncArgs, op: CompareOp) -> Result<Value> {
    args.ensure_count(2, 2)?;
    Ok(Value::bool(value_compare(
        &args.get_pos(0)?,
        &args.get_pos(1)?,
        op,
    )?))
}

fn test_is_in(args: &FuncArgs) -> Result<Value> {
    args.ensure_count(2, 999)?;
    let needle = args.get_pos(0)?;
    let haystack = args.get_pos(1)?;
    if haystack.is_undefined() {
        return Ok(Value::bool(false));
    }
    if haystack.is(ValType::Array) {
        for item in haystack.as_array()? {
            if equivalent(&needle, &item) {
                return Ok(Value::bool(true));
            }
        }
        return Ok(Value::bool(false));
    }
    if haystack.is(ValType::Str) {
        if !needle.is(ValType::Str) {
            return Err(raised(format!(
                "'in' test expects args[1] as string when args[0] is string, got args[1] as {}",
                needle.type_name()
            )));
        }
        let h = haystack.as_string()?.bytes();
        let n = needle.as_string()?.bytes();
        return Ok(Value::bool(find_bytes(&h, &n, 0).is_some()));
    }
    if haystack.is(ValType::Object) {
        return Ok(Value::bool(haystack.has_key(&needle)?));
    }
    Err(raised(format!(
        "'in' test expects iterable as first argument, got {}",
        haystack.type_name()
    )))
}

fn test_is_sameas(args: &FuncArgs) -> Result<Value> {
    if !args.ctx.rules.on(&changes::llamacpp::JINJA_SAMEAS) {
        return Err(Error::not_implemented("sameas test not implemented"));
    }
    args.ensure_count(2, 999)?;
    let a = args.get_pos(0)?;
    let b = args.get_pos(1)?;
    let mut res = false;
    if !a.is_undefined() && !b.is_undefined() {
        if a.is_none() && b.is_none() {
            res = true;
        } else if a.is(ValType::Bool) && b.is(ValType::Bool) {
            res = a.as_bool()? == b.as_bool()?;
        } else if a.is(ValType::Int) && b.is(ValType::Int) {
            let x = a.as_int()?;
            res = (-5..=256).contains(&x) && x == b.as_int()?;
        } else if a.ptr_eq(&b) {
            res = true;
        }
    }
    Ok(Value::bool(res))
}

/// `is iterable` and `is sequence`: arrays, strings, undefined and (from
/// `jinja_iterable_sequence_dict` on) objects.
fn test_is_iterable(a: &FuncArgs) -> Result<Value> {
    if a.count() >= 1
        && a.get_pos(0)?.is(ValType::Object)
        && !a
            .ctx
            .rules
            .on(&changes::llamacpp::JINJA_ITERABLE_SEQUENCE_DICT)
    {
        return test_type(a, &[ValType::Array, ValType::Str, ValType::Undefined]);
    }
    test_type(
        a,
        &[
            ValType::Object,
            ValType::Array,
            ValType::Str,
            ValType::Undefined,
        ],
    )
}

macro_rules! tfn {
    ($($t:ident),*) => {
        |a: &FuncArgs| test_type(a, &[$(ValType::$t),*])
    };
}

macro_rules! cmpfn {
    ($op:ident) => {
        |a: &FuncArgs| test_compare(a, CompareOp::$op)
    };
}

static GLOBAL_BUILTINS: Table = &[
    ("raise_exception", raise_exception),
    ("dict", toobject),
    ("namespace", namespace),
    ("strftime_now", strftime_now),
    ("range", range),
    ("tojson", tojson),
    ("test_is_boolean", tfn!(Bool)),
    ("test_is_callable", tfn!(Func)),
    ("test_is_odd", |a| {
        a.ensure1(ValType::Int)?;
        Ok(Value::bool(a.get_pos(0)?.as_int()? % 2 != 0))
    }),
    ("test_is_even", |a| {
        a.ensure1(ValType::Int)?;
        Ok(Value::bool(a.get_pos(0)?.as_int()? % 2 == 0))
    }),
    ("test_is_false", |a| {
        a.ensure_count(1, 999)?;
        let v = a.get_pos(0)?;
        Ok(Value::bool(v.is(ValType::Bool) && !v.as_bool()?))
    }),
    ("test_is_true", |a| {
        a.ensure_count(1, 999)?;
        let v = a.get_pos(0)?;
        Ok(Value::bool(v.is(ValType::Bool) && v.as_bool()?))
    }),
    ("test_is_divisibleby", |a| {
        a.ensure_vals(&[(ValType::Int, true), (ValType::Int, true)])?;
        let x = a.get_pos(0)?.as_int()?;
        let y = a.get_pos(1)?.as_int()?;
        // divergence: the C++ dies with SIGFPE on a zero divisor
        match x.checked_rem(y) {
            Some(r) => Ok(Value::bool(r == 0)),
            None => Err(Error::runtime("divisibleby: integer division by zero")),
        }
    }),
    ("test_is_string", tfn!(Str)),
    ("test_is_integer", tfn!(Int)),
    ("test_is_float", tfn!(Float)),
    ("test_is_number", tfn!(Int, Float)),
    ("test_is_iterable", test_is_iterable),
    ("test_is_sequence", |a| {
        // a Python iterator has no len(): not a sequence in Jinja2
        if a.ctx.dialect == crate::Dialect::Jinja2 && a.get_pos(0)?.py_iter().is_some() {
            return Ok(Value::bool(false));
        }
        test_is_iterable(a)
    }),
    ("test_is_mapping", tfn!(Object)),
    ("test_is_lower", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::bool(a.get_pos(0)?.as_string()?.is_lowercase()))
    }),
    ("test_is_upper", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::bool(a.get_pos(0)?.as_string()?.is_uppercase()))
    }),
    ("test_is_none", tfn!(None)),
    ("test_is_defined", |a| {
        a.ensure_count(1, 999)?;
        Ok(Value::bool(!a.get_pos(0)?.is_undefined()))
    }),
    ("test_is_undefined", tfn!(Undefined)),
    ("test_is_eq", cmpfn!(Eq)),
    ("test_is_equalto", cmpfn!(Eq)),
    ("test_is_ge", cmpfn!(Ge)),
    ("test_is_gt", cmpfn!(Gt)),
    ("test_is_greaterthan", cmpfn!(Gt)),
    ("test_is_lt", cmpfn!(Lt)),
    ("test_is_lessthan", cmpfn!(Lt)),
    ("test_is_ne", cmpfn!(Ne)),
    ("test_is_in", test_is_in),
    ("test_is_test", |a| {
        a.ensure1(ValType::Str)?;
        let name = a.get_pos(0)?.as_string()?.str();
        Ok(Value::bool(
            global_builtin(&format!("test_is_{name}")).is_some(),
        ))
    }),
    ("test_is_sameas", test_is_sameas),
    ("test_is_escaped", |a| {
        if a.ctx.dialect == crate::Dialect::Jinja2 {
            let v = a.get_pos(0)?;
            return Ok(Value::bool(
                matches!(v.kind(), crate::value::ValueKind::Str(s) if s.is_safe()),
            ));
        }
        Err(Error::not_implemented("escaped test not implemented"))
    }),
    ("test_is_filter", |a| {
        if a.ctx.dialect == crate::Dialect::Jinja2 {
            return Ok(Value::bool(crate::jinja2::is_filter(&a.get_pos(0)?)));
        }
        Err(Error::not_implemented("filter test not implemented"))
    }),
];

static INT_BUILTINS: Table = &[
    ("default", default_value),
    ("abs", |a| {
        a.ensure1(ValType::Int)?;
        let v = a.get_pos(0)?.as_int()?;
        Ok(Value::int(if v < 0 { v.wrapping_neg() } else { v }))
    }),
    ("int", |a| {
        a.ensure1(ValType::Int)?;
        Ok(Value::int(a.get_pos(0)?.as_int()?))
    }),
    ("float", |a| {
        a.ensure1(ValType::Int)?;
        Ok(Value::float(a.get_pos(0)?.as_int()? as f64))
    }),
    ("safe", tojson),
    ("string", tojson),
    ("tojson", tojson),
];

static FLOAT_BUILTINS: Table = &[
    ("default", default_value),
    ("abs", |a| {
        a.ensure1(ValType::Float)?;
        let v = a.get_pos(0)?.as_float()?;
        Ok(Value::float(if v < 0.0 { -v } else { v }))
    }),
    ("int", |a| {
        a.ensure1(ValType::Float)?;
        Ok(Value::int(crate::utils::f64_to_i64(
            a.get_pos(0)?.as_float()?,
        )))
    }),
    ("float", |a| {
        a.ensure1(ValType::Float)?;
        Ok(Value::float(a.get_pos(0)?.as_float()?))
    }),
    ("safe", tojson),
    ("string", tojson),
    ("tojson", tojson),
];

fn strip_impl(a: &FuncArgs, left: bool, right: bool) -> Result<Value> {
    let chars = a.get_kwarg_or_pos("chars", 1);
    let s = a.get_pos(0)?.as_string()?;
    if chars.is_undefined() {
        Ok(Value::string(s.strip(left, right, None)))
    } else {
        let c = chars.as_string()?.bytes();
        Ok(Value::string(s.strip(left, right, Some(&c))))
    }
}

fn split_impl(a: &FuncArgs, reverse: bool) -> Result<Value> {
    a.ensure_count(1, 3)?;
    let input = a.get_pos(0)?;
    if !input.is(ValType::Str) {
        return Err(raised(if reverse {
            "rsplit() first argument must be a string"
        } else {
            "split() first argument must be a string"
        }));
    }
    let mut s = input.as_string()?.bytes();
    let delim = if a.count() > 1 {
        a.get_pos(1)?.as_string()?.bytes()
    } else {
        b" ".to_vec()
    };
    let empty_separator = delim.is_empty();
    if empty_separator
        && a.ctx
            .rules
            .on(&changes::llamacpp::JINJA_SPLIT_REPLACE_EMPTY)
    {
        return Err(raised("empty separator"));
    }
    let mut maxsplit = if a.count() > 2 {
        a.get_pos(2)?.as_int()?
    } else {
        -1
    };
    if empty_separator {
        // before `jinja_split_replace_empty`: the empty separator is found
        // at the start (the end for rsplit) and nothing is removed, so
        // each split takes an empty string until maxsplit reaches 0, which
        // a negative one never does
        let call = if reverse { "rsplit('')" } else { "split('')" };
        if maxsplit < 0 {
            return Err(never_returns(
                a,
                call,
                &changes::llamacpp::JINJA_SPLIT_REPLACE_EMPTY,
            ));
        }
        a.ctx.charge(maxsplit as u64)?;
        let mut items = vec![Value::str(Vec::new()); maxsplit as usize];
        let mut whole = JString::new(input.as_string()?.bytes(), false);
        whole.mark_input_based_on(&input.as_string()?);
        if reverse {
            items.insert(0, Value::string(whole));
        } else {
            items.push(Value::string(whole));
        }
        return Ok(Value::array(items));
    }
    let mut items = Vec::new();
    loop {
        if maxsplit == 0 {
            break;
        }
        if reverse {
            let Some(p) = rfind_bytes(&s, &delim) else {
                break;
            };
            items.push(Value::str(s[p + delim.len()..].to_vec()));
            s.truncate(p);
        } else {
            let Some(p) = find_bytes(&s, &delim, 0) else {
                break;
            };
            items.push(Value::str(s[..p].to_vec()));
            s.drain(..p + delim.len());
        }
        a.ctx.charge(1)?;
        maxsplit = maxsplit.wrapping_sub(1);
    }
    let mut last = JString::new(s, false);
    last.mark_input_based_on(&input.as_string()?);
    items.push(Value::string(last));
    if reverse {
        items.reverse();
    }
    Ok(Value::array(items))
}

fn string_replace(a: &FuncArgs) -> Result<Value> {
    a.ensure_vals(&[
        (ValType::Str, true),
        (ValType::Str, true),
        (ValType::Str, true),
        (ValType::Int, false),
    ])?;
    let input = a.get_pos(0)?;
    let mut s = input.as_string()?.bytes();
    let old = a.get_pos(1)?.as_string()?.bytes();
    let new = a.get_pos(2)?.as_string()?.bytes();
    let count = if a.count() > 3 {
        a.get_pos(3)?.as_int()?
    } else {
        -1
    };
    if count >= 0 && a.ctx.dialect == crate::Dialect::Jinja2 {
        return crate::jinja2::replace_count(&input, &old, &new, count as usize, a.ctx);
    }
    if count > 0 {
        return Err(Error::not_implemented(
            "String replace with count argument not implemented",
        ));
    }
    if old.is_empty()
        && !a
            .ctx
            .rules
            .on(&changes::llamacpp::JINJA_SPLIT_REPLACE_EMPTY)
    {
        // before: the empty string is found again after each insertion
        return Err(never_returns(
            a,
            "replace('', ...)",
            &changes::llamacpp::JINJA_SPLIT_REPLACE_EMPTY,
        ));
    }
    if old != new {
        if old.is_empty() {
            a.ctx.charge_bytes(s.len() + new.len() * (s.len() + 1))?;
            let mut r = new.clone();
            for &c in &s {
                r.push(c);
                r.extend_from_slice(&new);
            }
            s = r;
        } else {
            let mut r = Vec::with_capacity(s.len());
            let mut last = 0;
            while let Some(p) = find_bytes(&s, &old, last) {
                r.extend_from_slice(&s[last..p]);
                r.extend_from_slice(&new);
                last = p + old.len();
                a.ctx.charge_bytes(new.len() + 1)?;
            }
            r.extend_from_slice(&s[last..]);
            s = r;
        }
    }
    let mut res = JString::new(s, false);
    res.mark_input_based_on(&input.as_string()?);
    Ok(Value::string(res))
}

fn string_format(a: &FuncArgs) -> Result<Value> {
    if a.ctx.dialect == crate::Dialect::Jinja2 {
        return crate::jinja2::str_format(a);
    }
    let input = a.get_pos(0)?;
    if !input.is(ValType::Str) {
        return Err(raised("format() first argument must be a string"));
    }
    let fmt = input.as_string()?;
    let fmt_is_input = fmt.all_parts_are_input();
    let s = fmt.bytes();
    let mut result = JString::default();
    let mut literal = Vec::new();
    let mut arg_idx = 1;
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'{' {
            literal.push(s[i]);
            i += 1;
            continue;
        }
        if i + 1 >= s.len() || s[i + 1] != b'}' {
            return Err(Error::not_implemented(
                "format() only supports simple '{}' placeholders",
            ));
        }
        i += 2;
        if !literal.is_empty() {
            result.parts.push(StringPart {
                is_input: fmt_is_input,
                val: std::mem::take(&mut literal),
            });
        }
        let arg = a.get_pos(arg_idx)?.as_string()?;
        arg_idx += 1;
        result.parts.extend(arg.parts);
    }
    if !literal.is_empty() {
        result.parts.push(StringPart {
            is_input: fmt_is_input,
            val: literal,
        });
    }
    a.ctx.charge_bytes(result.length())?;
    Ok(Value::string(result))
}

fn string_indent(a: &FuncArgs) -> Result<Value> {
    a.ensure_count(1, 4)?;
    let input = a.get_pos(0)?;
    let width = a.get_kwarg_or_pos("width", 1);
    let first = a.get_kwarg_or_pos("first", 2).as_bool()?;
    let blank = a.get_kwarg_or_pos("blank", 3).as_bool()?;
    if !input.is(ValType::Str) {
        return Err(raised("indent() first argument must be a string"));
    }
    let indent: Vec<u8> = if width.is(ValType::Int) {
        let n = width.as_int()?;
        if n < 0 {
            return Err(Error::runtime("basic_string::_M_replace_aux"));
        }
        a.ctx.charge_bytes(n as usize)?;
        vec![b' '; n as usize]
    } else if width.is(ValType::Str) {
        width.as_string()?.bytes()
    } else {
        b"    ".to_vec()
    };
    let s = input.as_string()?.bytes();
    let mut lines: Vec<&[u8]> = s.split(|&c| c == b'\n').collect();
    if s.is_empty() || s.last() == Some(&b'\n') {
        lines.pop();
    }
    let mut out: Vec<u8> = Vec::new();
    for line in lines {
        if !out.is_empty() {
            out.push(b'\n');
        }
        let add = if out.is_empty() {
            first
        } else {
            !line.is_empty() || blank
        };
        if add {
            a.ctx.charge_bytes(indent.len())?;
            out.extend_from_slice(&indent);
        }
        out.extend_from_slice(line);
    }
    if s.last() == Some(&b'\n') {
        out.push(b'\n');
        if blank {
            out.extend_from_slice(&indent);
        }
    }
    let mut res = JString::new(out, false);
    res.mark_input_based_on(&input.as_string()?);
    Ok(Value::string(res))
}

fn slice_args(a: &FuncArgs) -> Result<(i64, i64, i64)> {
    let a0 = a.get_pos(1)?;
    let a1 = a.get_pos_or(2, undef());
    let a2 = a.get_pos_or(3, undef());
    let r = match a.count() {
        1 => (0, a0.as_int()?, 1),
        2 => (a0.as_int()?, a1.as_int()?, 1),
        _ => (a0.as_int()?, a1.as_int()?, a2.as_int()?),
    };
    if r.2 == 0 {
        return Err(raised("slice step cannot be zero"));
    }
    Ok(r)
}

static STRING_BUILTINS: Table = &[
    ("default", default_value),
    ("upper", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::string(a.get_pos(0)?.as_string()?.uppercase()))
    }),
    ("lower", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::string(a.get_pos(0)?.as_string()?.lowercase()))
    }),
    ("strip", |a| {
        if !a.get_pos(0)?.is(ValType::Str) {
            return Err(raised("strip() first argument must be a string"));
        }
        strip_impl(a, true, true)
    }),
    ("rstrip", |a| {
        a.ensure1(ValType::Str)?;
        strip_impl(a, false, true)
    }),
    ("lstrip", |a| {
        a.ensure1(ValType::Str)?;
        strip_impl(a, true, false)
    }),
    ("title", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::string(a.get_pos(0)?.as_string()?.titlecase()))
    }),
    ("capitalize", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::string(a.get_pos(0)?.as_string()?.capitalize()))
    }),
    ("length", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::int(a.get_pos(0)?.as_string()?.length() as i64))
    }),
    ("startswith", |a| {
        a.ensure_vals(&[(ValType::Str, true), (ValType::Str, true)])?;
        let s = a.get_pos(0)?.as_string()?.bytes();
        let p = a.get_pos(1)?.as_string()?.bytes();
        Ok(Value::bool(s.starts_with(&p)))
    }),
    ("endswith", |a| {
        a.ensure_vals(&[(ValType::Str, true), (ValType::Str, true)])?;
        let s = a.get_pos(0)?.as_string()?.bytes();
        let p = a.get_pos(1)?.as_string()?.bytes();
        Ok(Value::bool(s.ends_with(&p)))
    }),
    ("split", |a| split_impl(a, false)),
    ("rsplit", |a| split_impl(a, true)),
    ("replace", string_replace),
    ("format", string_format),
    ("int", |a| {
        let input = a.get_pos(0)?;
        let def = a.get_kwarg_or_pos("default", 1);
        let base_v = a.get_kwarg_or_pos("base", 2);
        let base = if base_v.is_undefined() {
            10
        } else {
            base_v.as_int()? as i32 as i64
        };
        let bad_base = base != 0 && !(2..=36).contains(&base);
        if bad_base && a.ctx.rules.on(&changes::llamacpp::JINJA_INT_BASE_RANGE) {
            return Err(raised("int() base must be 0 or between 2 and 36"));
        }
        if !input.is(ValType::Str) {
            return Err(raised("int() first argument must be a string"));
        }
        if bad_base {
            // before the check, std::stoi was given the bad base: glibc
            // converts nothing and the value is 0, the default unused
            return Ok(Value::int(0));
        }
        match cpp_stoi(&input.as_string()?.bytes(), base) {
            Some(v) => Ok(Value::int(v)),
            None => Ok(Value::int(if def.is_undefined() {
                0
            } else {
                def.as_int()?
            })),
        }
    }),
    ("float", |a| {
        a.ensure1(ValType::Str)?;
        let def = a.get_kwarg_or_pos("default", 1);
        match cpp_stod(&a.get_pos(0)?.as_string()?.bytes()) {
            Some(v) => Ok(Value::float(v)),
            None => Ok(Value::float(if def.is_undefined() {
                0.0
            } else {
                def.as_float()?
            })),
        }
    }),
    ("string", |a| {
        a.ensure1(ValType::Str)?;
        Ok(Value::string(a.get_pos(0)?.as_string()?))
    }),
    ("slice", |a| {
        a.ensure_count(1, 4)?;
        a.ensure_vals(&[
            (ValType::Str, true),
            (ValType::Int, true),
            (ValType::Int, false),
            (ValType::Int, false),
        ])?;
        let (start, stop, step) = slice_args(a)?;
        let input = a.get_pos(0)?;
        let s = input.as_string()?;
        let b = s.bytes();
        let out: Vec<u8> = slice_indices(a.ctx, b.len() as i64, start, stop, step)
            .into_iter()
            .map(|i| b[i])
            .collect();
        let mut res = JString::new(out, false);
        res.mark_input_based_on(&s);
        Ok(Value::string(res))
    }),
    ("safe", |a| {
        a.ensure1(ValType::Str)?;
        a.get_pos(0)
    }),
    ("tojson", tojson),
    ("indent", string_indent),
    ("join", |_| {
        Err(Error::not_implemented(
            "String join builtin not implemented",
        ))
    }),
];

fn bool_tostring(a: &FuncArgs) -> Result<Value> {
    a.ensure1(ValType::Bool)?;
    Ok(Value::str(if a.get_pos(0)?.as_bool()? {
        "True"
    } else {
        "False"
    }))
}

static BOOL_BUILTINS: Table = &[
    ("default", default_value),
    ("int", |a| {
        a.ensure1(ValType::Bool)?;
        Ok(Value::int(a.get_pos(0)?.as_bool()? as i64))
    }),
    ("float", |a| {
        a.ensure1(ValType::Bool)?;
        Ok(Value::float(if a.get_pos(0)?.as_bool()? {
            1.0
        } else {
            0.0
        }))
    }),
    ("safe", bool_tostring),
    ("string", bool_tostring),
    ("tojson", tojson),
];

fn same_kind(val: &Value, items: Vec<Value>) -> Value {
    if val.is(ValType::Tuple) {
        Value::tuple(items)
    } else {
        Value::array(items)
    }
}

fn array_join(a: &FuncArgs) -> Result<Value> {
    a.ensure_count(1, 3)?;
    if !a.get_pos(0)?.is(ValType::Array) {
        return Err(raised("join() first argument must be an array"));
    }
    let d = a.get_kwarg_or_pos("d", 1);
    let attribute = a.get_kwarg_or_pos("attribute", 2);
    let u = undef();
    let arr = a.get_pos(0)?.as_array()?;
    let delim = if d.is_undefined() {
        Vec::new()
    } else {
        d.as_string()?.bytes()
    };
    // before: a string or integer attribute only, taken strictly
    if !attribute.is_undefined()
        && !attribute.is(ValType::Str)
        && !attribute.is(ValType::Int)
        && !a
            .ctx
            .rules
            .on(&changes::llamacpp::JINJA_SHARED_GET_ATTRIBUTE)
    {
        return Err(raised("join() attribute must be string or integer"));
    }
    let mut out = Vec::new();
    for (i, item) in arr.iter().enumerate() {
        let mut v = item.clone();
        if !attribute.is_undefined() {
            let before = strict_attribute(&v, &attribute);
            v = attribute_of(a.ctx, &v, &attribute, &u, before)?;
        }
        if !v.is(ValType::Str) && !v.is(ValType::Int) && !v.is(ValType::Float) {
            return Err(raised("join() can only join arrays of strings or numerics"));
        }
        out.extend(v.as_string()?.bytes());
        if i + 1 < arr.len() {
            out.extend_from_slice(&delim);
        }
        a.ctx.charge_bytes(out.len())?;
    }
    Ok(Value::str(out))
}

fn array_map(a: &FuncArgs) -> Result<Value> {
    a.ensure_count(2, 999)?;
    if !a.get_pos(0)?.is(ValType::Array) {
        return Err(raised("map: first argument must be an array"));
    }
    if !a.get_args()[1].is(ValType::Kwarg) && a.ctx.dialect == crate::Dialect::Jinja2 {
        return crate::jinja2::map_filter(a);
    }
    if !a.get_args()[1].is(ValType::Kwarg) {
        return Err(Error::not_implemented(
            "map: filter-mapping not implemented",
        ));
    }
    let val = a.get_pos(0)?;
    let attribute = a.get_kwarg_or_pos("attribute", 1);
    let def = a.get_kwarg("default", undef());
    // before: a string or integer attribute only (even absent), an
    // integer for array items, a string for object items
    if !attribute.is(ValType::Str)
        && !attribute.is(ValType::Int)
        && !a
            .ctx
            .rules
            .on(&changes::llamacpp::JINJA_SHARED_GET_ATTRIBUTE)
    {
        return Err(raised("map: attribute must be string or integer"));
    }
    let mut out = Vec::new();
    for item in val.as_array()? {
        let before = if attribute.is(ValType::Int) && item.is(ValType::Array) {
            item.at_index_or(attribute.as_int()?, def.clone()).map(Some)
        } else if attribute.is(ValType::Str) && item.is(ValType::Object) {
            item.at_or(&attribute, def.clone()).map(Some)
        } else {
            Ok(Some(def.clone()))
        };
        out.push(attribute_of(a.ctx, &item, &attribute, &def, before)?);
    }
    Ok(same_kind(&val, out))
}

fn array_sort(a: &FuncArgs) -> Result<Value> {
    a.ensure_count(1, 4)?;
    if !a.get_pos(0)?.is(ValType::Array) {
        return Err(raised("sort: first argument must be an array"));
    }
    let val = a.get_pos(0)?;
    let reverse = a.get_kwarg_or_pos("reverse", 1).as_bool()?;
    let _case = a.get_kwarg_or_pos("case_sensitive", 2);
    let attribute = a.get_kwarg_or_pos("attribute", 3);
    let u = undef();
    let mut arr = val.as_array()?;
    let op = if reverse {
        CompareOp::Gt
    } else {
        CompareOp::Lt
    };
    crate::sort::cpp_sort(&mut arr, &mut |x: &Value, y: &Value| {
        let (mut va, mut vb) = (x.clone(), y.clone());
        if !attribute.is_undefined() {
            // before: both arrays with an integer attribute, or both
            // objects with another one, taken strictly; else an error
            let int = attribute.is(ValType::Int);
            let pair = (int && x.is(ValType::Array) && y.is(ValType::Array))
                || (!int && x.is(ValType::Object) && y.is(ValType::Object));
            let before = |item: &Value| {
                if pair {
                    strict_attribute(item, &attribute)
                } else {
                    Err(raised(format!(
                        "sort: unsupported object attribute comparison between {} and {}",
                        x.type_name(),
                        y.type_name()
                    )))
                }
            };
            va = attribute_of(a.ctx, x, &attribute, &u, before(x))?;
            vb = attribute_of(a.ctx, y, &attribute, &u, before(y))?;
        }
        value_compare(&va, &vb, op)
    })?;
    Ok(same_kind(&val, arr))
}

fn array_minmax(a: &FuncArgs, op: CompareOp) -> Result<Value> {
    a.ensure_count(1, 4)?;
    a.ensure1(ValType::Array)?;
    let _case = a.get_kwarg_or_pos("case_sensitive", 1);
    let attribute = a.get_kwarg_or_pos("attribute", 2);
    if !attribute.is_undefined() && !a.ctx.rules.on(&changes::llamacpp::JINJA_MINMAX_ATTRIBUTE) {
        return Err(Error::not_implemented(if matches!(op, CompareOp::Lt) {
            "min: attribute not implemented"
        } else {
            "max: attribute not implemented"
        }));
    }
    let u = undef();
    let arr = a.get_pos(0)?.as_array()?;
    if arr.is_empty() {
        return Ok(u);
    }
    let mut result = arr[0].clone();
    for item in &arr {
        let (mut x, mut y) = (item.clone(), result.clone());
        if !attribute.is_undefined() {
            x = get_attribute(&x, &attribute, &u)?;
            y = get_attribute(&y, &attribute, &u)?;
        }
        if value_compare(&x, &y, op)? {
            result = item.clone();
        }
    }
    Ok(result)
}

fn container_string(a: &FuncArgs, t: ValType) -> Result<Value> {
    a.ensure1(t)?;
    if a.ctx.is_get_stats {
        a.get_pos(0)?.mark_used(true);
    }
    let s = a.get_pos(0)?.as_string()?;
    a.ctx.charge_bytes(s.length())?;
    Ok(Value::string(s))
}

static ARRAY_BUILTINS: Table = &[
    ("default", default_value),
    ("list", |a| {
        a.ensure1(ValType::Array)?;
        Ok(Value::array(a.get_pos(0)?.as_array()?))
    }),
    ("first", |a| {
        a.ensure1(ValType::Array)?;
        Ok(a.get_pos(0)?
            .as_array()?
            .first()
            .cloned()
            .unwrap_or_else(undef))
    }),
    ("last", |a| {
        a.ensure1(ValType::Array)?;
        Ok(a.get_pos(0)?
            .as_array()?
            .last()
            .cloned()
            .unwrap_or_else(undef))
    }),
    ("length", |a| {
        a.ensure1(ValType::Array)?;
        Ok(Value::int(a.get_pos(0)?.array_len() as i64))
    }),
    ("slice", |a| {
        a.ensure_count(1, 4)?;
        a.ensure_vals(&[
            (ValType::Array, true),
            (ValType::Int, true),
            (ValType::Int, false),
            (ValType::Int, false),
        ])?;
        let val = a.get_pos(0)?;
        let (start, stop, step) = slice_args(a)?;
        let items = val.as_array()?;
        let out = slice_indices(a.ctx, items.len() as i64, start, stop, step)
            .into_iter()
            .map(|i| items[i].clone())
            .collect();
        Ok(same_kind(&val, out))
    }),
    ("selectattr", selectattr),
    ("select", selectattr),
    ("rejectattr", rejectattr),
    ("reject", rejectattr),
    ("join", array_join),
    ("string", |a| container_string(a, ValType::Array)),
    ("tojson", tojson),
    ("map", array_map),
    ("append", |a| {
        a.ensure_count(2, 999)?;
        let arr = a.get_pos(0)?;
        if !arr.is(ValType::Array) {
            return Err(raised("append: first argument must be an array"));
        }
        a.ctx.charge(1)?;
        arr.push_back(a.get_pos(1)?)?;
        Ok(arr)
    }),
    ("pop", |a| {
        a.ensure_count(1, 2)?;
        a.ensure_vals(&[(ValType::Array, true), (ValType::Int, false)])?;
        let index = if a.count() == 2 {
            a.get_pos(1)?.as_int()?
        } else {
            -1
        };
        a.get_pos(0)?.pop_at(index)
    }),
    ("sort", array_sort),
    ("reverse", |a| {
        a.ensure1(ValType::Array)?;
        let val = a.get_pos(0)?;
        let mut items = val.as_array()?;
        items.reverse();
        Ok(same_kind(&val, items))
    }),
    ("min", |a| array_minmax(a, CompareOp::Lt)),
    ("max", |a| array_minmax(a, CompareOp::Gt)),
    ("unique", |_| {
        Err(Error::not_implemented(
            "Array unique builtin not implemented",
        ))
    }),
];

fn object_dictsort(a: &FuncArgs) -> Result<Value> {
    let input = a.get_pos(0)?;
    let _case = a.get_kwarg_or_pos("case_sensitive", 1);
    let by = a.get_kwarg_or_pos("by", 2);
    let reverse = a.get_kwarg_or_pos("reverse", 3).as_bool()?;
    let by_value = by.is(ValType::Str) && by.as_string()?.bytes() == b"value";
    let mut data = copy_object(&input)?;
    let op = if reverse {
        CompareOp::Gt
    } else {
        CompareOp::Lt
    };
    crate::sort::cpp_sort(
        data.entries_mut(),
        &mut |x: &(Value, Value), y: &(Value, Value)| {
            if by_value {
                value_compare(&x.1, &y.1, op)
            } else {
                value_compare(&x.0, &y.0, op)
            }
        },
    )?;
    data.reindex()?;
    Ok(Value::object_from_data(data))
}

static OBJECT_BUILTINS: Table = &[
    ("get", |a| {
        a.ensure_count(2, 3)?;
        if !a.get_pos(0)?.is(ValType::Object) {
            return Err(raised("get: first argument must be an object"));
        }
        if !a.get_pos(1)?.is(ValType::Str) {
            return Err(raised("get: second argument must be a string (key)"));
        }
        let def = if a.count() == 3 {
            a.get_pos(2)?
        } else {
            Value::none()
        };
        a.get_pos(0)?.at_or(&a.get_pos(1)?, def)
    }),
    ("keys", |a| {
        a.ensure1(ValType::Object)?;
        Ok(Value::array(
            a.get_pos(0)?
                .as_ordered_object()?
                .into_iter()
                .map(|p| p.0)
                .collect(),
        ))
    }),
    ("values", |a| {
        a.ensure1(ValType::Object)?;
        Ok(Value::array(
            a.get_pos(0)?
                .as_ordered_object()?
                .into_iter()
                .map(|p| p.1)
                .collect(),
        ))
    }),
    ("items", |a| {
        a.ensure1(ValType::Object)?;
        Ok(Value::array(
            a.get_pos(0)?
                .as_ordered_object()?
                .into_iter()
                .map(|(k, v)| Value::tuple(vec![k, v]))
                .collect(),
        ))
    }),
    ("tojson", tojson),
    ("string", |a| container_string(a, ValType::Object)),
    ("length", |a| {
        a.ensure1(ValType::Object)?;
        Ok(Value::int(a.get_pos(0)?.as_ordered_object()?.len() as i64))
    }),
    ("dictsort", object_dictsort),
    ("join", |_| {
        Err(Error::not_implemented("object join not implemented"))
    }),
];

fn none_tostring(_: &FuncArgs) -> Result<Value> {
    Ok(Value::str("None"))
}

fn empty_array(_: &FuncArgs) -> Result<Value> {
    Ok(Value::array(Vec::new()))
}
fn empty_string(_: &FuncArgs) -> Result<Value> {
    Ok(Value::str(""))
}
fn empty_int(_: &FuncArgs) -> Result<Value> {
    Ok(Value::int(0))
}
fn empty_undefined(_: &FuncArgs) -> Result<Value> {
    Ok(undef())
}

static NONE_BUILTINS: Table = &[
    ("default", default_value),
    ("tojson", tojson),
    ("string", none_tostring),
    ("safe", none_tostring),
    ("items", empty_array),
    ("map", empty_array),
    ("reject", empty_array),
    ("rejectattr", empty_array),
    ("select", empty_array),
    ("selectattr", empty_array),
    ("unique", empty_array),
];

static UNDEFINED_BUILTINS: Table = &[
    ("default", default_value),
    ("capitalize", empty_string),
    ("first", empty_undefined),
    ("items", empty_array),
    ("join", empty_string),
    ("last", empty_undefined),
    ("length", empty_int),
    ("list", empty_array),
    ("lower", empty_string),
    ("map", empty_array),
    ("max", empty_undefined),
    ("min", empty_undefined),
    ("reject", empty_array),
    ("rejectattr", empty_array),
    ("replace", empty_string),
    ("reverse", empty_array),
    ("safe", empty_string),
    ("select", empty_array),
    ("selectattr", empty_array),
    ("sort", empty_array),
    ("string", empty_string),
    ("strip", empty_string),
    ("sum", empty_int),
    ("title", empty_string),
    ("truncate", empty_string),
    ("unique", empty_array),
    ("upper", empty_string),
    ("wordcount", empty_int),
];
