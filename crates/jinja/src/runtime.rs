//! Port of `common/jinja/runtime.h` / `runtime.cpp`: the [`Context`] (scoped
//! variables), statement execution with the C++ error wrapping, and
//! [`gather_string_parts`].
//!
//! Our additions (bounds for untrusted templates): the fuel budget
//! ([`FUEL`]), the output cap ([`MAX_OUTPUT_BYTES`]) and the execution depth
//! limit ([`MAX_EXEC_DEPTH`]); their errors pass through the source wrapping
//! unchanged, like the C++ `not_implemented_exception`.

use std::cell::Cell;
use std::rc::Rc;

use crate::ast::{Program, StmtKind, StmtPtr};
use crate::builtins::{builtins_of, global_builtin};
use crate::error::{Error, ErrorKind, Result};
use crate::string::JString;
use crate::utils::{lossy, peak_source};
use crate::value::{
    equivalent, set_has_builtins, FuncArgs, FuncData, FuncKind, ValType, Value, ValueKind,
};

/// Execution steps allowed per [`Context::new`] (our addition). Every executed
/// node costs 1, every loop iteration 8 more, every scope copy its variable
/// count, created strings 1 per 16 bytes, and a concatenation 1 per 256 bytes
/// and per 4 parts of its result.
pub const FUEL: u64 = 4_000_000;
/// The largest string (and so the largest output) a template may build (our addition).
pub const MAX_OUTPUT_BYTES: usize = 64 << 20;
/// The most parts one string may have (our addition; see [`crate::string::JString`]).
pub const MAX_STRING_PARTS: usize = 1 << 20;
/// How deep statement execution may nest, macro recursion included (our addition).
pub const MAX_EXEC_DEPTH: usize = 128;

#[derive(Debug)]
struct Limits {
    fuel: Cell<u64>,
    depth: Cell<usize>,
}

/// `jinja::context`: the variables of one scope, the source (for error
/// messages), the current time and the stats flag.
#[derive(Debug)]
pub struct Context {
    env: Value,
    /// The template source, used in error messages (may be empty).
    pub src: Rc<Vec<u8>>,
    /// Seconds since the epoch, for `strftime_now`.
    pub current_time: i64,
    /// Collect usage statistics (`caps_get` sets it).
    pub is_get_stats: bool,
    /// The llama.cpp build whose engine this is, and the rows of the
    /// change table the work consulted (shared by every scope).
    pub rules: Rc<changes::Rules>,
    /// Whose semantics the engine follows.
    pub dialect: crate::Dialect,
    limits: Rc<Limits>,
}

fn now() -> i64 {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        0
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    }
}

fn new_env() -> Value {
    let env = Value::object();
    set_has_builtins(&env, false);
    env
}

impl Context {
    /// `context(src)`: the constants `true`/`True`/`false`/`False`/`none`/`None`,
    /// the current time (0 on `wasm32-unknown-unknown`; set [`Context::current_time`]),
    /// with the newest build's rules.
    pub fn new(src: &str) -> Context {
        Context::with_rules(src, Rc::new(changes::Rules::default()))
    }

    /// [`Context::new`] with the rules of a given build (and its record of
    /// the rows consulted).
    pub fn with_rules(src: &str, rules: Rc<changes::Rules>) -> Context {
        let env = new_env();
        for (k, v) in [
            ("true", Value::bool(true)),
            ("True", Value::bool(true)),
            ("false", Value::bool(false)),
            ("False", Value::bool(false)),
            ("none", Value::none()),
            ("None", Value::none()),
        ] {
            let _ = env.insert_str(k, v);
        }
        Context {
            env,
            src: Rc::new(src.as_bytes().to_vec()),
            current_time: now(),
            is_get_stats: false,
            rules,
            dialect: crate::Dialect::LlamaCpp,
            limits: Rc::new(Limits {
                fuel: Cell::new(FUEL),
                depth: Cell::new(0),
            }),
        }
    }

    /// `context(const context & parent)`: a new scope with a copy of the parent's variables.
    pub fn new_scope(&self) -> Result<Context> {
        let entries = self.env.as_ordered_object()?;
        self.charge(entries.len() as u64 + 1)?;
        let env = new_env();
        for k in ["true", "True", "false", "False"] {
            env.insert_str(k, Value::bool(k.starts_with(['t', 'T'])))?;
        }
        env.insert_str("none", Value::none())?;
        env.insert_str("None", Value::none())?;
        for (k, v) in entries {
            env.insert(k, v)?;
        }
        Ok(Context {
            env,
            src: self.src.clone(),
            current_time: self.current_time,
            is_get_stats: self.is_get_stats,
            rules: self.rules.clone(),
            dialect: self.dialect,
            limits: self.limits.clone(),
        })
    }

    /// `get_val`: the variable, or an undefined with the name as hint.
    pub fn get_val(&self, name: &str) -> Value {
        self.env
            .at_or(&Value::str(name), Value::undefined(name))
            .unwrap_or_else(|_| Value::undefined(name))
    }

    /// `set_val`.
    pub fn set_val(&self, name: &str, val: Value) -> Result<()> {
        self.env.insert_str(name, val)
    }

    /// `set_val(value, value)`.
    pub fn set_val_key(&self, name: Value, val: Value) -> Result<()> {
        self.env.insert(name, val)
    }

    /// `print_vars`, as text: `Context Variables:\n` and the variables as JSON (indent 2).
    pub fn print_vars(&self) -> Result<String> {
        let json = crate::value::value_to_json(&self.env, 2, b", ", b": ")?;
        Ok(format!("Context Variables:\n{}\n", lossy(json)))
    }

    pub(crate) fn take_env(&mut self) -> Value {
        std::mem::replace(&mut self.env, Value::none())
    }

    /// The variables object.
    pub fn env(&self) -> &Value {
        &self.env
    }

    /// Fuel left.
    pub fn fuel_left(&self) -> u64 {
        self.limits.fuel.get()
    }

    /// Spends `n` steps of fuel.
    pub fn charge(&self, n: u64) -> Result<()> {
        let f = self.limits.fuel.get();
        if f < n {
            self.limits.fuel.set(0);
            return Err(Error::new(
                ErrorKind::FuelExhausted,
                format!("template execution exceeded its budget of {FUEL} steps"),
            ));
        }
        self.limits.fuel.set(f - n);
        Ok(())
    }

    /// Spends fuel for `n` created bytes and enforces the output cap.
    pub fn charge_bytes(&self, n: usize) -> Result<()> {
        if n > MAX_OUTPUT_BYTES {
            return Err(output_too_large());
        }
        self.charge((n as u64).div_ceil(16))
    }
}

fn output_too_large() -> Error {
    Error::new(
        ErrorKind::OutputTooLarge,
        format!("template output exceeds the limit of {MAX_OUTPUT_BYTES} bytes"),
    )
}

pub(crate) fn get_line_col(source: &[u8], pos: usize) -> String {
    let mut line = 1;
    let mut col = 1;
    for &c in source.iter().take(pos) {
        if c == b'\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    format!("line {line}, column {col}")
}

fn rt(msg: impl Into<String>) -> Error {
    Error::runtime(msg)
}

/// `statement::execute`: runs a node; errors other than the pass-through
/// kinds get the C++ source context, once.
pub fn execute(stmt: &StmtPtr, ctx: &Context) -> Result<Value> {
    let d = ctx.limits.depth.get();
    if d >= MAX_EXEC_DEPTH {
        return Err(Error::new(
            ErrorKind::TooDeep,
            format!(
                "template execution nested deeper than {MAX_EXEC_DEPTH} levels (at {} {})",
                stmt.type_name(),
                get_line_col(&ctx.src, stmt.pos)
            ),
        ));
    }
    ctx.charge(1)?;
    ctx.limits.depth.set(d + 1);
    let r = execute_impl(stmt, ctx);
    ctx.limits.depth.set(d);
    r.map_err(|e| wrap_error(e, stmt, ctx))
}

fn wrap_error(e: Error, stmt: &StmtPtr, ctx: &Context) -> Error {
    if e.passes_through() {
        return e;
    }
    let source = &ctx.src;
    let msg = if source.is_empty() {
        format!(
            "\nError executing {} at position {}: {}",
            stmt.type_name(),
            stmt.pos,
            e.message()
        )
    } else {
        format!(
            "\n------------\nWhile executing {} at {} in source:\n{}\nError: {}",
            stmt.type_name(),
            get_line_col(source, stmt.pos),
            lossy(peak_source(source, stmt.pos)),
            e.message()
        )
    };
    let mut out = Error::new(e.kind(), msg);
    out.rethrown = true;
    out
}

/// Appends the parts of `val`; `total` is the byte length of `parts` so far,
/// kept by the caller so the output cap costs nothing per append (a fresh
/// `length()` each time made long loops quadratic).
fn gather_string_parts_recursive(
    val: &Value,
    parts: &mut JString,
    total: &mut usize,
    depth: usize,
) -> Result<()> {
    if depth > crate::value::MAX_VALUE_DEPTH {
        return Err(Error::new(
            ErrorKind::TooDeep,
            "value nesting too deep to print",
        ));
    }
    match val.kind() {
        ValueKind::Str(s) => {
            *total += s.length();
            parts.append(s);
        }
        ValueKind::Int(..) | ValueKind::Float(..) | ValueKind::Bool(_) => {
            let s = val.as_string()?;
            *total += s.length();
            parts.append(&s);
        }
        ValueKind::Array { .. } => {
            for it in val.as_array()? {
                gather_string_parts_recursive(&it, parts, total, depth + 1)?;
            }
        }
        _ => {}
    }
    if *total > MAX_OUTPUT_BYTES || parts.parts.len() > MAX_STRING_PARTS {
        return Err(output_too_large());
    }
    Ok(())
}

#[inline(never)]
fn exec_statements(stmts: &[StmtPtr], ctx: &Context) -> Result<Value> {
    let mut s = JString::default();
    let mut total = 0;
    for st in stmts {
        let v = execute(st, ctx)?;
        gather_string_parts_recursive(&v, &mut s, &mut total, 0)?;
    }
    ctx.charge_bytes(total)?;
    Ok(Value::string(s))
}

/// `runtime::gather_string_parts`: the output as string parts, neighbours
/// with the same `is_input` merged.
pub fn gather_string_parts(val: &Value) -> Result<JString> {
    let mut parts = JString::default();
    gather_string_parts_recursive(val, &mut parts, &mut 0, 0)?;
    let p = &mut parts.parts;
    if p.is_empty() {
        return Ok(parts);
    }
    let mut w = 0;
    for r in 1..p.len() {
        if p[w].is_input == p[r].is_input {
            let v = std::mem::take(&mut p[r].val);
            p[w].val.extend_from_slice(&v);
        } else {
            w += 1;
            if w != r {
                p.swap(w, r);
            }
        }
    }
    p.truncate(w + 1);
    Ok(parts)
}

/// `jinja::runtime`.
pub struct Runtime<'a> {
    ctx: &'a Context,
}

impl<'a> Runtime<'a> {
    /// A runtime over a context.
    pub fn new(ctx: &'a Context) -> Self {
        Runtime { ctx }
    }

    /// `execute`: one result value per top-level statement, as an array.
    pub fn execute(&self, prog: &Program) -> Result<Value> {
        let mut results = Vec::with_capacity(prog.body.len());
        for st in &prog.body {
            results.push(execute(st, self.ctx)?);
        }
        Ok(Value::array(results))
    }

    /// `runtime::gather_string_parts`.
    pub fn gather_string_parts(val: &Value) -> Result<JString> {
        gather_string_parts(val)
    }
}

/// A builtin the table has that the build's engine does not have yet:
/// `str.format()` before `jinja_string_format`, `|min` and `|max` on
/// arrays before `jinja_minmax_filters`.
fn absent_at_build(ctx: &Context, name: &str, input: &Value) -> bool {
    match (input.kind(), name) {
        (ValueKind::Str(_), "format") => !ctx.rules.on(&changes::llamacpp::JINJA_STRING_FORMAT),
        (ValueKind::Array { .. }, "min" | "max") => {
            !ctx.rules.on(&changes::llamacpp::JINJA_MINMAX_FILTERS)
        }
        _ => false,
    }
}

/// `value_func_t::invoke`: copies the arguments, sets the name, prepends the bound `this`.
#[inline(never)]
pub fn invoke(func: &Value, args: &FuncArgs) -> Result<Value> {
    let ValueKind::Func(f) = func.kind() else {
        return Err(rt(format!("{} is not a function value", func.type_name())));
    };
    let mut new_args = FuncArgs::new(args.ctx);
    for a in args.get_args() {
        new_args.push_back(a.clone());
    }
    new_args.func_name = f.name.clone();
    if let Some(a0) = &f.arg0 {
        new_args.push_front(a0.clone());
    }
    match &f.kind {
        FuncKind::Builtin(b) => b(&new_args),
        FuncKind::Macro(stmt) => {
            let StmtKind::Macro {
                args: params, body, ..
            } = &stmt.kind
            else {
                return Err(rt("cannot exec Macro"));
            };
            let macro_ctx = new_args.ctx.new_scope()?;
            bind_parameters(&f.name, params, &new_args, &macro_ctx)?;
            exec_statements(body, &macro_ctx)
        }
        FuncKind::Caller(stmt, caller_ctx) => {
            let StmtKind::CallStatement {
                caller_args, body, ..
            } = &stmt.kind
            else {
                return Err(rt("cannot exec CallStatement"));
            };
            let block_ctx = caller_ctx.new_scope()?;
            bind_parameters("caller", caller_args, &new_args, &block_ctx)?;
            exec_statements(body, &block_ctx)
        }
    }
}

fn bind_parameters(name: &str, params: &[StmtPtr], args: &FuncArgs, ctx: &Context) -> Result<()> {
    let input_count = args.count();
    for (i, p) in params.iter().enumerate() {
        if i < input_count {
            if let Some(param) = p.as_identifier() {
                ctx.set_val(param, args.get_kwarg_or_pos(param, i))?;
            } else if let StmtKind::KeywordArgument { key, .. } = &p.kind {
                let Some(param) = key.as_identifier() else {
                    return Err(rt(format!(
                        "Keyword argument key must be an identifier in '{name}'"
                    )));
                };
                ctx.set_val(param, args.get_kwarg_or_pos(param, i))?;
            } else {
                return Err(rt(format!("Invalid parameter type in '{name}'")));
            }
        } else if let StmtKind::KeywordArgument { key, val } = &p.kind {
            let Some(param) = key.as_identifier() else {
                return Err(rt(format!(
                    "Keyword argument key must be an identifier in '{name}'"
                )));
            };
            let v = execute(val, args.ctx)?;
            ctx.set_val(param, v)?;
        } else {
            return Err(rt(format!("Not enough arguments provided to '{name}'")));
        }
    }
    Ok(())
}

fn try_builtin_func(
    ctx: &Context,
    name: &str,
    input: &Value,
    undef_on_missing: bool,
) -> Result<Value> {
    if ctx.is_get_stats {
        input.mark_used(false);
        input.add_op(name);
    }
    let Some(table) = builtins_of(input) else {
        return Err(rt(format!("{} has no builtins", input.type_name())));
    };
    if let Some(f) =
        crate::builtins::lookup(table, name).filter(|_| !absent_at_build(ctx, name, input))
    {
        return Ok(Value::builtin(name, f, Some(input.clone())));
    }
    if undef_on_missing {
        return Ok(Value::undefined(name));
    }
    if ctx.dialect == crate::Dialect::Jinja2 {
        return Err(crate::jinja2::unknown_filter(name, input));
    }
    Err(rt(format!(
        "Unknown (built-in) filter '{}' for type {}",
        name,
        input.type_name()
    )))
}

/// `set_filter_alias`: the filter a name stands for (before
/// `jinja_filter_aliases` llama.cpp knew only `trim`; Jinja2 knows all).
fn filter_alias<'a>(ctx: &Context, id: &'a str) -> &'a str {
    match id {
        "count" | "d" | "e"
            if ctx.dialect != crate::Dialect::Jinja2
                && !ctx.rules.on(&changes::llamacpp::JINJA_FILTER_ALIASES) =>
        {
            id
        }
        "count" => "length",
        "d" => "default",
        "e" => "escape",
        "trim" => "strip",
        other => other,
    }
}

#[inline(never)]
fn apply_filter(ctx: &Context, filter: &StmtPtr, input: Value) -> Result<Value> {
    if ctx.dialect != crate::Dialect::Jinja2 {
        return apply_filter_inner(ctx, filter, input);
    }
    let id = match &filter.kind {
        StmtKind::Identifier(id) => filter_alias(ctx, id),
        StmtKind::Call { callee, .. } => callee
            .as_identifier()
            .map(|id| filter_alias(ctx, id))
            .unwrap_or(""),
        _ => "",
    };
    let out = apply_filter_inner(ctx, filter, input.clone())?;
    crate::jinja2::after_filter(id, &input, &out);
    Ok(out)
}

fn apply_filter_inner(ctx: &Context, filter: &StmtPtr, input: Value) -> Result<Value> {
    let mut input = input;
    match &filter.kind {
        StmtKind::Identifier(id) => {
            let id = filter_alias(ctx, id);
            if ctx.dialect == crate::Dialect::Jinja2 {
                if let Some(v) = crate::jinja2::filter(ctx, id, &input, &FuncArgs::new(ctx))? {
                    return Ok(v);
                }
            }
            if !input.is_undefined()
                && !input.is(ValType::Str)
                && matches!(
                    id,
                    "capitalize" | "lower" | "replace" | "strip" | "title" | "upper" | "wordcount"
                )
            {
                input = Value::string(input.as_string()?);
            }
            invoke(
                &try_builtin_func(ctx, id, &input, false)?,
                &FuncArgs::new(ctx),
            )
        }
        StmtKind::Call { callee, args } => {
            let Some(id) = callee.as_identifier() else {
                return Err(rt("Filter callee must be an identifier"));
            };
            let id = filter_alias(ctx, id);
            let mut fa = FuncArgs::new(ctx);
            for a in args {
                fa.push_back(execute(a, ctx)?);
            }
            if ctx.dialect == crate::Dialect::Jinja2 {
                if let Some(v) = crate::jinja2::filter(ctx, id, &input, &fa)? {
                    return Ok(v);
                }
            }
            invoke(&try_builtin_func(ctx, id, &input, false)?, &fa)
        }
        _ => Err(rt("Invalid filter expression")),
    }
}

pub(crate) fn string_concat(ctx: &Context, left: JString, right: &JString) -> Result<Value> {
    let mut out = left;
    let len = out.length() + right.length();
    let parts = out.parts.len() + right.parts.len();
    if len > MAX_OUTPUT_BYTES || parts > MAX_STRING_PARTS {
        return Err(output_too_large());
    }
    // copying is cheap per byte; `s = s ~ x` in a loop is quadratic in the C++ too
    ctx.charge((len / 256 + parts / 4) as u64)?;
    out.append(right);
    Ok(Value::string(out))
}

#[inline(never)]
fn binary(ctx: &Context, op: &str, left: &StmtPtr, right: &StmtPtr) -> Result<Value> {
    let lv = execute(left, ctx)?;
    if op == "and" {
        return if lv.as_bool()? {
            execute(right, ctx)
        } else {
            Ok(lv)
        };
    }
    if op == "or" {
        return if lv.as_bool()? {
            Ok(lv)
        } else {
            execute(right, ctx)
        };
    }
    let rv = execute(right, ctx)?;
    if ctx.dialect == crate::Dialect::Jinja2 {
        if let Some(r) = crate::jinja2::binary(ctx, op, &lv, &rv)? {
            return Ok(r);
        }
    }
    if op == "==" {
        return Ok(Value::bool(equivalent(&lv, &rv)));
    }
    if op == "!=" {
        return Ok(Value::bool(!equivalent(&lv, &rv)));
    }
    let concat_null = |lv: &Value, rv: &Value| -> Result<Option<Value>> {
        let ln = lv.is_none() || lv.is_undefined();
        let rn = rv.is_none() || rv.is_undefined();
        let ls = lv.is(ValType::Str);
        let rs = rv.is(ValType::Str);
        if (ln && rs) || (rn && ls) {
            let l = if ln {
                JString::default()
            } else {
                lv.as_string()?
            };
            let r = if rn {
                JString::default()
            } else {
                rv.as_string()?
            };
            return Ok(Some(string_concat(ctx, l, &r)?));
        }
        Ok(None)
    };
    let test_is_in = |lv: &Value, rv: &Value| -> Result<bool> {
        let mut a = FuncArgs::new(ctx);
        a.push_back(lv.clone());
        a.push_back(rv.clone());
        let f = global_builtin("test_is_in").ok_or_else(|| rt("test_is_in"))?;
        f(&a)?.as_bool()
    };
    if lv.is_undefined() || rv.is_undefined() {
        if rv.is_undefined() && (op == "in" || op == "not in") {
            return Ok(Value::bool(op == "not in"));
        }
        if op == "+" || op == "~" {
            if let Some(r) = concat_null(&lv, &rv)? {
                return Ok(r);
            }
        }
        return Err(rt(format!(
            "Cannot perform operation {op} on undefined values"
        )));
    } else if lv.is_none() || rv.is_none() {
        // before: a none left operand of `in` is an error like any other
        if !rv.is_none()
            && (op == "in" || op == "not in")
            && ctx.rules.on(&changes::llamacpp::JINJA_NONE_IN)
        {
            let m = test_is_in(&lv, &rv)?;
            return Ok(Value::bool(if op == "in" { m } else { !m }));
        }
        if op == "+" || op == "~" {
            if let Some(r) = concat_null(&lv, &rv)? {
                return Ok(r);
            }
        }
        return Err(rt("Cannot perform operation on null values"));
    }
    if lv.is_int_or_float() && rv.is_int_or_float() {
        let a = lv.as_float()?;
        let b = rv.as_float()?;
        let is_float = lv.is(ValType::Float) || rv.is(ValType::Float);
        let num = |r: f64| {
            if is_float {
                Value::float(r)
            } else {
                Value::int(crate::utils::f64_to_i64(r))
            }
        };
        match op {
            "+" => return Ok(num(a + b)),
            "-" => return Ok(num(a - b)),
            "*" => return Ok(num(a * b)),
            "/" => return Ok(Value::float(a / b)),
            "%" => return Ok(num(a % b)),
            "<" => return Ok(Value::bool(a < b)),
            ">" => return Ok(Value::bool(a > b)),
            ">=" => return Ok(Value::bool(a >= b)),
            "<=" => return Ok(Value::bool(a <= b)),
            _ => {}
        }
    }
    if lv.is(ValType::Array) && rv.is(ValType::Array) {
        if op == "+" {
            let mut items = lv.as_array()?;
            let r = rv.as_array()?;
            ctx.charge(r.len() as u64 + items.len() as u64)?;
            items.extend(r);
            return Ok(Value::array(items));
        }
    } else if rv.is(ValType::Array) {
        let m = test_is_in(&lv, &rv)?;
        if op == "in" {
            return Ok(Value::bool(m));
        } else if op == "not in" {
            return Ok(Value::bool(!m));
        }
    }
    if (lv.is(ValType::Str) || rv.is(ValType::Str)) && (op == "~" || op == "+") {
        let l = lv.as_string()?;
        let r = rv.as_string()?;
        return string_concat(ctx, l, &r);
    }
    if op == "*"
        && ((lv.is(ValType::Str) && rv.is(ValType::Int))
            || (lv.is(ValType::Int) && rv.is(ValType::Str)))
    {
        let s = if lv.is(ValType::Str) {
            lv.as_string()?
        } else {
            rv.as_string()?
        };
        let repeat = if rv.is(ValType::Int) {
            rv.as_int()?
        } else {
            lv.as_int()?
        };
        let mut res = JString::default();
        if repeat <= 0 {
            return Ok(Value::string(res));
        }
        let total = (s.length().max(1) as u128) * (repeat as u128);
        if total > MAX_OUTPUT_BYTES as u128
            || (s.parts.len() as u128) * (repeat as u128) > MAX_STRING_PARTS as u128
        {
            return Err(output_too_large());
        }
        ctx.charge_bytes(total as usize)?;
        ctx.charge(repeat as u64 / 16)?;
        for _ in 0..repeat {
            res.append(&s);
        }
        return Ok(Value::string(res));
    }
    if lv.is(ValType::Str) && rv.is(ValType::Str) {
        let m = test_is_in(&lv, &rv)?;
        if op == "in" {
            return Ok(Value::bool(m));
        } else if op == "not in" {
            return Ok(Value::bool(!m));
        }
    }
    if rv.is(ValType::Object) {
        let m = test_is_in(&lv, &rv)?;
        if op == "in" {
            return Ok(Value::bool(m));
        } else if op == "not in" {
            return Ok(Value::bool(!m));
        }
    }
    Err(rt(format!(
        "Unknown operator \"{}\" between {} and {}",
        op,
        lv.type_name(),
        rv.type_name()
    )))
}

fn ensure_key_type_allowed(v: &Value) -> Result<()> {
    if !v.is_hashable() {
        return Err(rt(format!(
            "Type: {} is not allowed as object key",
            v.type_name()
        )));
    }
    Ok(())
}

#[inline(never)]
fn member(
    ctx: &Context,
    object_stmt: &StmtPtr,
    property_stmt: &StmtPtr,
    computed: bool,
) -> Result<Value> {
    let object = execute(object_stmt, ctx)?;
    if ctx.dialect == crate::Dialect::Jinja2 {
        return crate::jinja2::member(ctx, object, property_stmt, computed);
    }
    member_of(ctx, object, property_stmt, computed)
}

/// [`member`] once the object is known.
pub(crate) fn member_of(
    ctx: &Context,
    object: Value,
    property_stmt: &StmtPtr,
    computed: bool,
) -> Result<Value> {
    let property;
    if computed {
        let arr_size: i64 = match object.kind() {
            ValueKind::Array { .. } => object.array_len() as i64,
            ValueKind::Str(s) => s.length() as i64,
            _ => 0,
        };
        if let StmtKind::Slice { start, stop, step } = &property_stmt.kind {
            let eval = |e: &Option<StmtPtr>| e.as_ref().map(|e| execute(e, ctx)).transpose();
            let (start_val, stop_val, step_val);
            // before `jinja_slice_negative_step_bounds` start and stop are
            // computed first and default to 0 and the length, which a
            // negative step ignores (the slice is noted where it is taken;
            // the order is read, not noted)
            if ctx
                .rules
                .has(&changes::llamacpp::JINJA_SLICE_NEGATIVE_STEP_BOUNDS)
            {
                step_val = eval(step)?.unwrap_or_else(|| Value::int(1));
                let backwards = step_val.as_int()? < 0;
                start_val = eval(start)?
                    .unwrap_or_else(|| Value::int(if backwards { arr_size - 1 } else { 0 }));
                stop_val = eval(stop)?
                    .unwrap_or_else(|| Value::int(if backwards { -1 } else { arr_size }));
            } else {
                let (a, b) = (eval(start)?, eval(stop)?);
                step_val = eval(step)?.unwrap_or_else(|| Value::int(1));
                let backwards = matches!(step_val.kind(), ValueKind::Int(n, _) if *n < 0);
                start_val =
                    a.unwrap_or_else(|| Value::int(if backwards { arr_size - 1 } else { 0 }));
                stop_val = b.unwrap_or_else(|| Value::int(if backwards { -1 } else { arr_size }));
            }
            let f = try_builtin_func(ctx, "slice", &object, false)?;
            let mut a = FuncArgs::new(ctx);
            a.push_back(start_val);
            a.push_back(stop_val);
            a.push_back(step_val);
            return invoke(&f, &a);
        }
        property = execute(property_stmt, ctx)?;
    } else if let Some(i) = match &property_stmt.kind {
        // before: `obj.0` is not an identifier: the error below
        StmtKind::IntegerLiteral(i) if ctx.rules.on(&changes::llamacpp::JINJA_DOT_INTEGER) => {
            Some(i)
        }
        _ => None,
    } {
        property = Value::int(*i);
        if *i < 0 {
            return Err(rt("Static member property cannot be negative"));
        }
    } else {
        let Some(name) = property_stmt.as_identifier() else {
            return Err(rt("Static member property must be an identifier"));
        };
        property = Value::str(name);
        let v = try_builtin_func(ctx, name, &object, true)?;
        if !v.is_undefined() {
            return Ok(v);
        }
    }

    let mut val = Value::undefined("object_property");
    if property.is_undefined() {
        return Ok(val);
    }
    ensure_key_type_allowed(&property)?;
    match object.kind() {
        ValueKind::Undefined(_) => return Ok(val),
        ValueKind::Object(_) => {
            let key = property.as_string()?.str();
            val = object.at_or(&property, val)?;
            if val.is_undefined() {
                val = try_builtin_func(ctx, &key, &object, true)?;
            }
        }
        ValueKind::Array { .. } | ValueKind::Str(_) => {
            // before: only an integer or a string is a key here; any other
            // key is an error
            let odd = !property.is(ValType::Int) && !property.is(ValType::Str);
            if odd && !ctx.rules.on(&changes::llamacpp::JINJA_MEMBER_ODD_KEYS) {
                return Err(rt(format!(
                    "Cannot access property with non-string/non-number: got {}",
                    property.type_name()
                )));
            }
            if property.is(ValType::Int) || property.is(ValType::Bool) {
                let mut index = property.as_int()?;
                if let ValueKind::Str(s) = object.kind() {
                    let b = s.bytes();
                    if index >= 0 && (index as u64) < b.len() as u64 {
                        val = Value::str(vec![b[index as usize]]);
                    }
                } else {
                    let len = object.array_len() as i64;
                    if index < 0 {
                        index += len;
                    }
                    if index >= 0 && index < len {
                        val = object.at_index(index)?;
                    }
                }
            } else if property.is(ValType::Str) {
                let key = property.as_string()?.str();
                val = try_builtin_func(ctx, &key, &object, true)?;
            }
        }
        _ => {
            if !property.is(ValType::Str) {
                return Err(rt(format!(
                    "Cannot access property with non-string: got {}",
                    property.type_name()
                )));
            }
            let key = property.as_string()?.str();
            val = try_builtin_func(ctx, &key, &object, true)?;
        }
    }
    if ctx.is_get_stats {
        val.mark_used(false);
        object.mark_used(false);
        property.mark_used(false);
        let now = if object.is(ValType::Object)
            || property.is(ValType::Str)
            || property.is(ValType::Float)
            || property.is(ValType::Array)
            || property.is(ValType::None)
        {
            Some("object_access")
        } else if property.is(ValType::Int) || property.is(ValType::Bool) {
            Some("array_access")
        } else {
            None
        };
        // before: an integer key is array access and a string key object
        // access, whatever the object
        let before = if property.is(ValType::Int) {
            Some("array_access")
        } else if property.is(ValType::Str) {
            Some("object_access")
        } else {
            None
        };
        let op = if now == before || ctx.rules.on(&changes::llamacpp::JINJA_ACCESS_STATS) {
            now
        } else {
            before
        };
        if let Some(op) = op {
            object.add_op(op);
        }
    }
    Ok(val)
}

#[inline(never)]
fn for_loop(
    ctx: &Context,
    loopvar: &StmtPtr,
    iterable: &StmtPtr,
    body: &[StmtPtr],
    default_block: &[StmtPtr],
) -> Result<Value> {
    let scope = ctx.new_scope()?;
    let (iter_expr, test_expr) = match &iterable.kind {
        StmtKind::Select { lhs, test } => (lhs, Some(test)),
        _ => (iterable, None),
    };
    let mut iterable_val = execute(iter_expr, &scope)?;
    if ctx.is_get_stats {
        iterable_val.mark_used(false);
        iterable_val.add_op("array_access");
    }
    if iterable_val.is_undefined() {
        iterable_val = Value::array(Vec::new());
    }
    let is_object = iterable_val.is(ValType::Object);
    if ctx.dialect == crate::Dialect::Jinja2 {
        iterable_val = crate::jinja2::iterable(iterable_val)?;
        if iterable_val.py_iter().is_some() {
            // a loop consumes an iterator: its items, then nothing
            let once = Value::array(iterable_val.as_array()?);
            crate::jinja2::consume("for", &iterable_val);
            iterable_val = once;
        }
    }
    if !iterable_val.is(ValType::Array) && !is_object {
        return Err(rt(format!(
            "Expected iterable or object type in for loop: got {}",
            iterable_val.type_name()
        )));
    }
    let items: Vec<Value> = if is_object {
        let v = iterable_val
            .as_ordered_object()?
            .into_iter()
            .map(|(k, v)| Value::tuple(vec![k, v]))
            .collect();
        if ctx.is_get_stats {
            iterable_val.mark_used(false);
            iterable_val.add_op("object_access");
        }
        v
    } else {
        let v = iterable_val.as_array()?;
        if ctx.is_get_stats {
            iterable_val.mark_used(false);
            iterable_val.add_op("array_access");
        }
        v
    };

    // how each item binds the loop variable(s): (name, value) pairs or an error at bind time
    enum Bind {
        One(String, Value),
        Tuple(Vec<Value>),
    }
    let bind = |scope: &Context, b: &Bind| -> Result<()> {
        match b {
            Bind::One(id, v) => scope.set_val(id, v.clone()),
            Bind::Tuple(vals) => {
                let StmtKind::TupleLiteral(ids) = &loopvar.kind else {
                    return Ok(());
                };
                for (j, idst) in ids.iter().enumerate() {
                    let Some(id) = idst.as_identifier() else {
                        return Err(rt(format!(
                            "Cannot unpack non-identifier type: {}",
                            idst.type_name()
                        )));
                    };
                    scope.set_val(id, vals[j].clone())?;
                }
                Ok(())
            }
        }
    };

    let mut filtered: Vec<Value> = Vec::new();
    let mut binds: Vec<Bind> = Vec::new();
    for item in &items {
        ctx.charge(1)?;
        let mut current = item.clone();
        let b = if let Some(id) = loopvar.as_identifier() {
            if is_object {
                current = item.at_index(0)?;
                Bind::One(id.to_string(), current.clone())
            } else {
                Bind::One(id.to_string(), item.clone())
            }
        } else if let StmtKind::TupleLiteral(ids) = &loopvar.kind {
            if !current.is(ValType::Array) {
                return Err(rt(format!(
                    "Cannot unpack non-iterable type: {}",
                    current.type_name()
                )));
            }
            let arr = current.as_array()?;
            if ids.len() != arr.len() {
                return Err(rt(format!(
                    "Too {} items to unpack",
                    if ids.len() > arr.len() { "few" } else { "many" }
                )));
            }
            Bind::Tuple(arr)
        } else {
            return Err(rt(format!(
                "Invalid loop variable(s): {}",
                loopvar.type_name()
            )));
        };
        if let Some(test) = test_expr {
            let loop_scope = scope.new_scope()?;
            bind(&loop_scope, &b)?;
            if !execute(test, &loop_scope)?.as_bool()? {
                continue;
            }
        }
        filtered.push(current);
        binds.push(b);
    }

    let mut result = JString::default();
    let mut total = 0;
    let mut no_iteration = true;
    let n = filtered.len();
    'outer: for i in 0..n {
        ctx.charge(8)?;
        let lo = Value::object();
        set_has_builtins(&lo, false);
        lo.insert_str("index", Value::int(i as i64 + 1))?;
        lo.insert_str("index0", Value::int(i as i64))?;
        lo.insert_str("revindex", Value::int((n - i) as i64))?;
        lo.insert_str("revindex0", Value::int((n - i - 1) as i64))?;
        if ctx.dialect == crate::Dialect::Jinja2 {
            lo.insert_str(
                "cycle",
                Value::builtin(
                    "cycle",
                    crate::jinja2::loop_cycle,
                    Some(Value::int(i as i64)),
                ),
            )?;
        }
        lo.insert_str("first", Value::bool(i == 0))?;
        lo.insert_str("last", Value::bool(i == n - 1))?;
        lo.insert_str("length", Value::int(n as i64))?;
        lo.insert_str(
            "previtem",
            if i > 0 {
                filtered[i - 1].clone()
            } else {
                Value::undefined("previtem")
            },
        )?;
        lo.insert_str(
            "nextitem",
            if i + 1 < n {
                filtered[i + 1].clone()
            } else {
                Value::undefined("nextitem")
            },
        )?;
        scope.set_val("loop", lo)?;
        bind(&scope, &binds[i])?;
        for st in body {
            match execute(st, &scope) {
                Ok(v) => gather_string_parts_recursive(&v, &mut result, &mut total, 0)?,
                Err(e) if e.kind() == ErrorKind::Continue => continue 'outer,
                Err(e) if e.kind() == ErrorKind::Break => break 'outer,
                Err(e) => return Err(e),
            }
        }
        no_iteration = false;
    }
    if no_iteration {
        for st in default_block {
            let v = execute(st, ctx)?;
            gather_string_parts_recursive(&v, &mut result, &mut total, 0)?;
        }
    }
    ctx.charge_bytes(total)?;
    Ok(Value::string(result))
}

#[inline(never)]
fn set_statement(
    ctx: &Context,
    assignee: &StmtPtr,
    val: &Option<StmtPtr>,
    body: &[StmtPtr],
) -> Result<Value> {
    let rhs = match val {
        Some(v) => execute(v, ctx)?,
        None => exec_statements(body, ctx)?,
    };
    match &assignee.kind {
        StmtKind::Identifier(name) => ctx.set_val(name, rhs)?,
        StmtKind::TupleLiteral(ids) => {
            if !rhs.is(ValType::Array) {
                return Err(rt(format!(
                    "Cannot unpack non-iterable type in set: {}",
                    rhs.type_name()
                )));
            }
            let arr = rhs.as_array()?;
            if arr.len() != ids.len() {
                return Err(rt(format!(
                    "Too {} items to unpack in set",
                    if ids.len() > arr.len() { "few" } else { "many" }
                )));
            }
            for (i, e) in ids.iter().enumerate() {
                let Some(name) = e.as_identifier() else {
                    return Err(rt(format!(
                        "Cannot unpack to non-identifier in set: {}",
                        e.type_name()
                    )));
                };
                ctx.set_val(name, arr[i].clone())?;
            }
        }
        StmtKind::Member {
            object,
            property,
            computed,
        } => {
            if *computed {
                return Err(rt("Cannot assign to computed member"));
            }
            let Some(prop) = property.as_identifier() else {
                return Err(rt("Cannot assign to member with non-identifier property"));
            };
            let obj = execute(object, ctx)?;
            if !obj.is(ValType::Object) {
                return Err(rt("Cannot assign to member of non-object"));
            }
            if ctx.dialect == crate::Dialect::Jinja2 {
                crate::jinja2::check_namespace_name(prop)?;
            }
            obj.insert_str(prop, rhs)?;
        }
        _ => {
            return Err(rt(format!(
                "Invalid LHS inside assignment expression: {}",
                assignee.type_name()
            )))
        }
    }
    Ok(Value::undefined(""))
}

#[inline(never)]
fn test_expression(
    ctx: &Context,
    operand: &StmtPtr,
    negate: bool,
    test: &StmtPtr,
) -> Result<Value> {
    let input = execute(operand, ctx)?;
    let mut args = FuncArgs::new(ctx);
    args.push_back(input.clone());
    let test_id = match &test.kind {
        StmtKind::Identifier(id) => id.clone(),
        StmtKind::Call {
            callee,
            args: cargs,
        } => {
            let Some(id) = callee.as_identifier() else {
                return Err(rt("Test callee must be an identifier"));
            };
            for a in cargs {
                args.push_back(execute(a, ctx)?);
            }
            id.to_string()
        }
        _ => return Err(rt("Invalid test expression")),
    };
    let test_name = format!("test_is_{test_id}");
    let Some(f) = global_builtin(&test_name) else {
        return Err(rt(format!("Unknown test '{test_id}'")));
    };
    if ctx.is_get_stats {
        // Only the capability probes read these, and only where the build
        // probes typed content again (caps.rs says so when it matters);
        // before, a test marks nothing.
        if ctx
            .rules
            .build()
            .has(&changes::llamacpp::CAPS_TYPED_CONTENT_RECHECK)
        {
            input.mark_used(false);
        }
        input.add_op(&test_name);
    }
    let res = f(&args)?;
    if negate {
        Ok(Value::bool(!res.as_bool()?))
    } else {
        Ok(res)
    }
}

/// `execute_impl` of every node type.
pub fn execute_impl(stmt: &StmtPtr, ctx: &Context) -> Result<Value> {
    match &stmt.kind {
        StmtKind::For {
            loopvar,
            iterable,
            body,
            default_block,
        } => for_loop(ctx, loopvar, iterable, body, default_block),
        StmtKind::Member {
            object,
            property,
            computed,
        } => member(ctx, object, property, *computed),
        StmtKind::Binary { op, left, right } => binary(ctx, &op.text(), left, right),
        StmtKind::Test {
            operand,
            negate,
            test,
        } => test_expression(ctx, operand, *negate, test),
        StmtKind::Set {
            assignee,
            val,
            body,
        } => set_statement(ctx, assignee, val, body),
        StmtKind::Call { callee, args } => call_expression(ctx, callee, args),
        _ => execute_other(stmt, ctx),
    }
}

#[inline(never)]
fn call_expression(ctx: &Context, callee: &StmtPtr, args: &[StmtPtr]) -> Result<Value> {
    let mut fa = FuncArgs::new(ctx);
    for a in args {
        fa.push_back(execute(a, ctx)?);
    }
    let cv = execute(callee, ctx)?;
    if !cv.is(ValType::Func) {
        if ctx.dialect == crate::Dialect::Jinja2 {
            return Err(crate::jinja2::not_callable(&cv));
        }
        return Err(rt(format!(
            "Callee is not a function: got {}",
            cv.type_name()
        )));
    }
    invoke(&cv, &fa)
}

#[inline(never)]
fn execute_other(stmt: &StmtPtr, ctx: &Context) -> Result<Value> {
    match &stmt.kind {
        StmtKind::If {
            test,
            body,
            alternate,
        } => {
            let t = execute(test, ctx)?;
            let branch = if t.as_bool()? { body } else { alternate };
            let mut s = JString::default();
            let mut total = 0;
            for st in branch {
                let v = execute(st, ctx)?;
                gather_string_parts_recursive(&v, &mut s, &mut total, 0)?;
            }
            Ok(Value::string(s))
        }
        StmtKind::For {
            loopvar,
            iterable,
            body,
            default_block,
        } => for_loop(ctx, loopvar, iterable, body, default_block),
        StmtKind::Break => Err(Error::new(ErrorKind::Break, "Break statement executed")),
        StmtKind::Continue => Err(Error::new(
            ErrorKind::Continue,
            "Continue statement executed",
        )),
        StmtKind::Noop | StmtKind::Comment(_) | StmtKind::Blank => Ok(Value::undefined("")),
        StmtKind::Set {
            assignee,
            val,
            body,
        } => set_statement(ctx, assignee, val, body),
        StmtKind::Macro { name, .. } => {
            let Some(n) = name.as_identifier() else {
                return Err(rt("Macro name must be an identifier"));
            };
            let f = Value::func(FuncData {
                name: n.to_string(),
                kind: FuncKind::Macro(stmt.clone()),
                arg0: None,
            });
            ctx.set_val(n, f)?;
            Ok(Value::undefined(""))
        }
        StmtKind::Member {
            object,
            property,
            computed,
        } => member(ctx, object, property, *computed),
        StmtKind::Call { callee, args } => call_expression(ctx, callee, args),
        StmtKind::Identifier(name) => {
            let it = ctx.get_val(name);
            if !it.is_undefined()
                || (ctx.dialect == crate::Dialect::Jinja2
                    && crate::jinja2::is_stored_undefined(&it))
            {
                if ctx.is_get_stats {
                    it.mark_used(false);
                }
                Ok(it)
            } else if let Some(f) = global_builtin(name).filter(|_| {
                // before: no `dict` global
                name != "dict" || ctx.rules.on(&changes::llamacpp::JINJA_DICT_BUILTIN)
            }) {
                Ok(Value::builtin(name, f, None))
            } else if ctx.dialect == crate::Dialect::Jinja2 {
                Ok(crate::jinja2::undefined_name(name))
            } else {
                Ok(Value::undefined(name))
            }
        }
        StmtKind::IntegerLiteral(i) => Ok(Value::int(*i)),
        StmtKind::FloatLiteral(f) => Ok(Value::float(*f)),
        StmtKind::StringLiteral(s) => Ok(Value::str(s.clone())),
        StmtKind::ArrayLiteral(items) => {
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(execute(it, ctx)?);
            }
            Ok(Value::array(out))
        }
        StmtKind::TupleLiteral(items) => {
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(execute(it, ctx)?);
            }
            Ok(Value::tuple(out))
        }
        StmtKind::ObjectLiteral(pairs) => {
            let obj = Value::object();
            for (k, v) in pairs {
                let key = execute(k, ctx)?;
                let val = execute(v, ctx)?;
                obj.insert(key, val)?;
            }
            Ok(obj)
        }
        StmtKind::Binary { op, left, right } => binary(ctx, &op.text(), left, right),
        StmtKind::Filter { operand, filter } => {
            let v = execute(operand, ctx)?;
            apply_filter(ctx, filter, v)
        }
        StmtKind::FilterStatement { filter, body } => {
            let body_val = exec_statements(body, ctx)?;
            let mut parts = JString::default();
            gather_string_parts_recursive(&body_val, &mut parts, &mut 0, 0)?;
            apply_filter(ctx, filter, Value::string(parts))
        }
        StmtKind::Select { lhs, test } => {
            let p = execute_impl(test, ctx)?;
            if !p.as_bool()? {
                return Ok(Value::undefined(""));
            }
            execute_impl(lhs, ctx)
        }
        StmtKind::Test {
            operand,
            negate,
            test,
        } => test_expression(ctx, operand, *negate, test),
        StmtKind::Unary { op, argument } => {
            let v = execute(argument, ctx)?;
            match op.value.as_slice() {
                b"not" => Ok(Value::bool(!v.as_bool()?)),
                b"-" => match v.kind() {
                    ValueKind::Int(i, _) => Ok(Value::int(i.wrapping_neg())),
                    ValueKind::Float(f, _) => Ok(Value::float(-f)),
                    _ => Err(rt("Unary - operator requires numeric operand")),
                },
                b"+" => {
                    if v.is_int_or_float() {
                        Ok(v)
                    } else {
                        Err(rt("Unary + operator requires numeric operand"))
                    }
                }
                _ => Err(rt(format!("Unknown unary operator '{}'", op.text()))),
            }
        }
        StmtKind::Slice { .. } => Err(rt("must be handled by MemberExpression")),
        StmtKind::KeywordArgument { key, val } => {
            let Some(k) = key.as_identifier() else {
                return Err(rt("Keyword argument key must be identifiers"));
            };
            let v = execute(val, ctx)?;
            Ok(Value::kwarg(k, v))
        }
        StmtKind::Spread { .. } => Err(rt("cannot exec SpreadExpression")),
        StmtKind::CallStatement { call, .. } => {
            // before `jinja_call_block` the statement parses but has no
            // execute_impl of its own
            if !ctx.rules.on(&changes::llamacpp::JINJA_CALL_BLOCK) {
                return Err(rt("cannot exec CallStatement"));
            }
            let StmtKind::Call { callee, args } = &call.kind else {
                return Err(rt("Call statement requires a valid call expression"));
            };
            let cv = execute(callee, ctx)?;
            if !cv.is(ValType::Func) {
                return Err(rt(format!(
                    "Callee is not a function: got {}",
                    cv.type_name()
                )));
            }
            let caller_ctx = ctx.new_scope()?;
            let caller = Value::func(FuncData {
                name: "caller".into(),
                kind: FuncKind::Caller(stmt.clone(), Box::new(caller_ctx)),
                arg0: None,
            });
            let call_ctx = ctx.new_scope()?;
            call_ctx.set_val("caller", caller)?;
            let mut fa = FuncArgs::new(&call_ctx);
            for a in args {
                fa.push_back(execute(a, ctx)?);
            }
            invoke(&cv, &fa)
        }
        StmtKind::Ternary {
            condition,
            true_expr,
            false_expr,
        } => {
            if execute(condition, ctx)?.as_bool()? {
                execute(true_expr, ctx)
            } else {
                execute(false_expr, ctx)
            }
        }
        StmtKind::Output(expr) => {
            let v = execute(expr, ctx)?;
            match v.kind() {
                ValueKind::Str(_) => Ok(v),
                _ => {
                    let s = crate::jinja2::py_str(&v)?;
                    ctx.charge_bytes(s.len())?;
                    Ok(Value::string(JString::new(s, false)))
                }
            }
        }
    }
}
