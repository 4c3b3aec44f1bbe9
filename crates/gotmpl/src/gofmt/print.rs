//! The printer: a port of Go's `fmt/print.go` (`pp`), over [`Value`]s.
//!
//! Arguments are Go `any`s: [`Value::Nil`] is a nil interface and
//! [`Value::Invalid`] stands for a zero `reflect.Value` passed as an
//! argument. Nested values are reached the way `reflect` reaches them, so a
//! [`Value::Nil`] inside a container is a nil interface of the container's
//! element type, and values read through unexported struct fields cannot
//! have their methods called.

use super::format::{Fmt, LDIGITS, UDIGITS};
use super::quote::decode_rune;
use crate::value::{FloatType, Kind, Method, Type, UintType, Value};

const COMMA_SPACE: &[u8] = b", ";
const NIL_ANGLE: &str = "<nil>";
const NIL_PAREN: &[u8] = b"(nil)";
const PERCENT_BANG: &[u8] = b"%!";
const INVALID_REFLECT: &[u8] = b"<invalid reflect.Value>";

/// Where a value was found, as far as printing cares.
#[derive(Clone, Copy)]
struct Slot<'a> {
    /// Read through an unexported struct field: `reflect` refuses
    /// `Interface()`, so `String`/`Error` methods are not used.
    read_only: bool,
    /// The static type of the slot, which names a nil interface (`%#v`
    /// prints `interface {}(nil)` or `error(nil)`).
    static_ty: Option<&'a Type>,
}

impl<'a> Slot<'a> {
    const TOP: Slot<'static> = Slot {
        read_only: false,
        static_ty: None,
    };

    fn child(self, read_only: bool, static_ty: &'a Type) -> Slot<'a> {
        Slot {
            read_only: self.read_only || read_only,
            static_ty: Some(static_ty),
        }
    }
}

/// Go's `pp`: printer state for one `Sprint*` call.
#[derive(Default)]
pub(super) struct Printer {
    /// The output (Go strings are bytes; converted at the end).
    pub buf: Vec<u8>,
    fmt: Fmt,
    /// Whether the format string used argument indexes (`%[n]`).
    reordered: bool,
    /// Whether the most recent argument index was valid.
    good_arg_num: bool,
    /// Set while printing a bad-verb message, to stop method calls.
    erroring: bool,
}

fn type_string(v: &Value) -> String {
    v.type_of()
        .map(|t| t.to_string())
        .unwrap_or_else(|| NIL_ANGLE.to_string())
}

fn float_bits(t: FloatType) -> u32 {
    match t {
        FloatType::F32 => 32,
        FloatType::F64 => 64,
    }
}

/// Whether `t` is exactly `[]byte` (`[]uint8`), which `printArg` handles
/// without reflection.
fn is_byte_slice_type(t: &Type) -> bool {
    matches!(t, Type::Slice(e) if **e == Type::Uint(UintType::U8))
}

/// Go's `tooLarge`: widths and precisions are limited to ±1e6.
fn too_large(x: i64) -> bool {
    !(-1_000_000..=1_000_000).contains(&x)
}

/// Go's `parsenum`: a decimal number in `s[start..end]`; on overflow it
/// reports no number and consumes everything.
fn parse_num(s: &[u8], start: usize, end: usize) -> (i64, bool, usize) {
    if start >= end {
        return (0, false, end);
    }
    let (mut num, mut is_num, mut i) = (0i64, false, start);
    while i < end && s[i].is_ascii_digit() {
        if too_large(num) {
            return (0, false, end);
        }
        num = num * 10 + i64::from(s[i] - b'0');
        is_num = true;
        i += 1;
    }
    (num, is_num, i)
}

/// Go's `parseArgNumber`: the zero-based index of `[n]` at the start of
/// `format`, the bytes to consume, and whether it parsed.
fn parse_arg_number(format: &[u8]) -> (i64, usize, bool) {
    if format.len() < 3 {
        return (0, 1, false);
    }
    match format[1..].iter().position(|&c| c == b']') {
        Some(p) => {
            let i = p + 1;
            let (width, ok, newi) = parse_num(format, 1, i);
            if !ok || newi != i {
                (0, i + 1, false)
            } else {
                (width - 1, i + 1, true)
            }
        }
        None => (0, 1, false),
    }
}

/// Go's `intFromArg`: the integer argument for a `*` width or precision.
fn int_from_arg(a: &[Value], arg_num: usize) -> (i64, bool, usize) {
    if arg_num >= a.len() {
        return (0, false, arg_num);
    }
    let (mut num, mut is_int) = match a[arg_num].underlying() {
        Value::Int(n, _) => (*n, true),
        Value::Uint(u, _) => match i64::try_from(*u) {
            Ok(n) => (n, true),
            Err(_) => (0, false),
        },
        _ => (0, false),
    };
    if too_large(num) {
        num = 0;
        is_int = false;
    }
    (num, is_int, arg_num + 1)
}

/// The receiver-adjusted lookup of a `func() string` method in the
/// method set of `v`'s type: value receivers for values, both kinds for
/// pointers.
fn string_method<'v>(v: &'v Value, name: &str) -> Option<&'v Method> {
    let (methods, is_pointer): (&[Method], bool) = match v {
        Value::Struct(s) => (&s.ty.methods, false),
        Value::Named(t, _) => (&t.methods, false),
        Value::Pointer(p) => match &p.ty {
            Type::Pointer(inner) => match &**inner {
                Type::Struct(st) => (&st.methods, true),
                Type::Named(nt) => (&nt.methods, true),
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    methods.iter().find(|m| {
        m.name == name
            && (is_pointer || !m.pointer_receiver)
            && m.sig.params.is_empty()
            && m.sig.results.len() == 1
            && m.sig.results[0] == Type::String
    })
}

/// Calls a `String`/`Error`/`GoString` method. `Err` is a panic message.
/// Through a nil pointer a value-receiver method cannot be called (Go
/// panics); a pointer-receiver one gets the nil pointer itself.
fn call_string_method(v: &Value, m: &Method) -> Result<String, String> {
    let receiver = match v {
        Value::Pointer(p) => match &p.target {
            Some(t) => t.clone(),
            None if m.pointer_receiver => v.clone(),
            None => return Err("invalid memory address or nil pointer dereference".into()),
        },
        v => v.clone(),
    };
    match (m.imp)(&[receiver])? {
        Value::String(s) => Ok(s.to_string()),
        other => Ok(super::sprint(&[other])),
    }
}

impl Printer {
    /// The output so far, as a string (invalid UTF-8, possible only from
    /// byte slices printed with `%s`, becomes U+FFFD).
    pub fn into_string(self) -> String {
        String::from_utf8(self.buf)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    fn write_verb(&mut self, verb: char) {
        let mut tmp = [0u8; 4];
        self.buf
            .extend_from_slice(verb.encode_utf8(&mut tmp).as_bytes());
    }

    /// Go's `badVerb`: `%!verb(type=value)`, or `%!verb(<nil>)`.
    fn bad_verb(&mut self, value: Option<&Value>, verb: char, slot: Slot) {
        self.erroring = true;
        self.buf.extend_from_slice(PERCENT_BANG);
        self.write_verb(verb);
        self.buf.push(b'(');
        match value {
            None | Some(Value::Invalid) => self.buf.extend_from_slice(NIL_ANGLE.as_bytes()),
            Some(v) => {
                match v {
                    Value::Nil => {
                        let t = slot
                            .static_ty
                            .map_or("interface {}".into(), |t| t.to_string());
                        self.buf.extend_from_slice(t.as_bytes());
                    }
                    v => self.buf.extend_from_slice(type_string(v).as_bytes()),
                }
                self.buf.push(b'=');
                self.print_value(v, 'v', 0, slot);
            }
        }
        self.buf.push(b')');
        self.erroring = false;
    }

    fn fmt_bool(&mut self, v: &Value, b: bool, verb: char, slot: Slot) {
        match verb {
            't' | 'v' => self.fmt.fmt_boolean(&mut self.buf, b),
            _ => self.bad_verb(Some(v), verb, slot),
        }
    }

    /// Go's `fmt0x64`: hex, with or without `0x`.
    fn fmt_0x64(&mut self, u: u64, leading_0x: bool) {
        let sharp = self.fmt.f.sharp;
        self.fmt.f.sharp = leading_0x;
        self.fmt
            .fmt_integer(&mut self.buf, u, 16, false, 'v', LDIGITS);
        self.fmt.f.sharp = sharp;
    }

    fn fmt_integer(&mut self, v: &Value, u: u64, is_signed: bool, verb: char, slot: Slot) {
        let buf = &mut self.buf;
        match verb {
            'v' if self.fmt.f.sharp_v && !is_signed => self.fmt_0x64(u, true),
            'v' | 'd' => self.fmt.fmt_integer(buf, u, 10, is_signed, verb, LDIGITS),
            'b' => self.fmt.fmt_integer(buf, u, 2, is_signed, verb, LDIGITS),
            'o' | 'O' => self.fmt.fmt_integer(buf, u, 8, is_signed, verb, LDIGITS),
            'x' => self.fmt.fmt_integer(buf, u, 16, is_signed, verb, LDIGITS),
            'X' => self.fmt.fmt_integer(buf, u, 16, is_signed, verb, UDIGITS),
            'c' => self.fmt.fmt_c(buf, u),
            'q' => self.fmt.fmt_qc(buf, u),
            'U' => self.fmt.fmt_unicode(buf, u),
            _ => self.bad_verb(Some(v), verb, slot),
        }
    }

    fn fmt_float(&mut self, v: &Value, f: f64, size: u32, verb: char, slot: Slot) {
        let buf = &mut self.buf;
        match verb {
            'v' => self.fmt.fmt_float(buf, f, size, b'g', -1),
            'b' | 'g' | 'G' | 'x' | 'X' => self.fmt.fmt_float(buf, f, size, verb as u8, -1),
            'f' | 'e' | 'E' => self.fmt.fmt_float(buf, f, size, verb as u8, 6),
            'F' => self.fmt.fmt_float(buf, f, size, b'f', 6),
            _ => self.bad_verb(Some(v), verb, slot),
        }
    }

    fn fmt_complex(&mut self, v: &Value, re: f64, im: f64, size: u32, verb: char, slot: Slot) {
        match verb {
            'v' | 'b' | 'g' | 'G' | 'x' | 'X' | 'f' | 'F' | 'e' | 'E' => {
                let old_plus = self.fmt.f.plus;
                self.buf.push(b'(');
                self.fmt_float(v, re, size / 2, verb, slot);
                // The imaginary part always has a sign.
                self.fmt.f.plus = true;
                self.fmt_float(v, im, size / 2, verb, slot);
                self.buf.extend_from_slice(b"i)");
                self.fmt.f.plus = old_plus;
            }
            _ => self.bad_verb(Some(v), verb, slot),
        }
    }

    fn fmt_string(&mut self, v: &Value, s: &[u8], verb: char, slot: Slot) {
        let buf = &mut self.buf;
        match verb {
            'v' if self.fmt.f.sharp_v => self.fmt.fmt_q(buf, s),
            'v' | 's' => self.fmt.fmt_s(buf, s),
            'x' => self.fmt.fmt_sbx(buf, s, LDIGITS),
            'X' => self.fmt.fmt_sbx(buf, s, UDIGITS),
            'q' => self.fmt.fmt_q(buf, s),
            _ => self.bad_verb(Some(v), verb, slot),
        }
    }

    /// Go's `fmtBytes`; `v` is the byte slice or array itself.
    fn fmt_bytes(&mut self, v: &Value, bytes: &[u8], is_nil: bool, verb: char, type_str: &str) {
        match verb {
            'v' | 'd' => {
                if self.fmt.f.sharp_v {
                    self.buf.extend_from_slice(type_str.as_bytes());
                    if is_nil {
                        self.buf.extend_from_slice(NIL_PAREN);
                        return;
                    }
                    self.buf.push(b'{');
                    for (i, &c) in bytes.iter().enumerate() {
                        if i > 0 {
                            self.buf.extend_from_slice(COMMA_SPACE);
                        }
                        self.fmt_0x64(u64::from(c), true);
                    }
                    self.buf.push(b'}');
                } else {
                    self.buf.push(b'[');
                    for (i, &c) in bytes.iter().enumerate() {
                        if i > 0 {
                            self.buf.push(b' ');
                        }
                        self.fmt
                            .fmt_integer(&mut self.buf, u64::from(c), 10, false, verb, LDIGITS);
                    }
                    self.buf.push(b']');
                }
            }
            's' => self.fmt.fmt_s(&mut self.buf, bytes),
            'x' => self.fmt.fmt_sbx(&mut self.buf, bytes, LDIGITS),
            'X' => self.fmt.fmt_sbx(&mut self.buf, bytes, UDIGITS),
            'q' => self.fmt.fmt_q(&mut self.buf, bytes),
            _ => self.print_value(v, verb, 0, Slot::TOP),
        }
    }

    /// Go's `fmtPointer`: pointers, maps, slices and funcs by address.
    fn fmt_pointer(&mut self, v: &Value, verb: char, slot: Slot) {
        let u = match v.underlying() {
            Value::Pointer(p) if p.target.is_none() => 0,
            Value::Pointer(p) => p.addr,
            Value::Map(m) => {
                if m.is_nil {
                    0
                } else {
                    m.addr
                }
            }
            Value::Slice(s) if v.kind() == Kind::Slice => {
                if s.is_nil {
                    0
                } else {
                    s.addr
                }
            }
            Value::Func(f) => f.addr,
            _ => return self.bad_verb(Some(v), verb, slot),
        };
        match verb {
            'v' => {
                if self.fmt.f.sharp_v {
                    self.buf.push(b'(');
                    self.buf.extend_from_slice(type_string(v).as_bytes());
                    self.buf.extend_from_slice(b")(");
                    if u == 0 {
                        self.buf.extend_from_slice(b"nil");
                    } else {
                        self.fmt_0x64(u, true);
                    }
                    self.buf.push(b')');
                } else if u == 0 {
                    self.fmt.pad_str(&mut self.buf, NIL_ANGLE);
                } else {
                    self.fmt_0x64(u, !self.fmt.f.sharp);
                }
            }
            'p' => self.fmt_0x64(u, !self.fmt.f.sharp),
            'b' | 'o' | 'd' | 'x' | 'X' => self.fmt_integer(v, u, false, verb, slot),
            _ => self.bad_verb(Some(v), verb, slot),
        }
    }

    /// Go's `catchPanic`, for a method that returned an error message.
    fn method_panicked(&mut self, v: &Value, verb: char, method: &str, msg: &str) {
        // A method called through a nil pointer: just say "<nil>".
        if matches!(v, Value::Pointer(p) if p.target.is_none()) {
            self.buf.extend_from_slice(NIL_ANGLE.as_bytes());
            return;
        }
        let old_flags = self.fmt.f;
        self.fmt.clear_flags();
        self.buf.extend_from_slice(PERCENT_BANG);
        self.write_verb(verb);
        self.buf.extend_from_slice(b"(PANIC=");
        self.buf.extend_from_slice(method.as_bytes());
        self.buf.extend_from_slice(b" method: ");
        self.buf.extend_from_slice(msg.as_bytes());
        self.buf.push(b')');
        self.fmt.f = old_flags;
    }

    /// Go's `handleMethods`: `GoString` for `%#v`, else `Error` or `String`
    /// for the verbs that take strings. Reports whether it printed `v`.
    fn handle_methods(&mut self, v: &Value, verb: char, slot: Slot) -> bool {
        if self.erroring {
            return false;
        }
        if verb == 'w' {
            // %w is only valid in Errorf.
            self.bad_verb(Some(v), verb, slot);
            return true;
        }
        if self.fmt.f.sharp_v {
            if let Some(m) = string_method(v, "GoString") {
                match call_string_method(v, m) {
                    Ok(s) => self.fmt.fmt_s(&mut self.buf, s.as_bytes()),
                    Err(msg) => self.method_panicked(v, verb, "GoString", &msg),
                }
                return true;
            }
        } else if matches!(verb, 'v' | 's' | 'x' | 'X' | 'q') {
            for name in ["Error", "String"] {
                if let Some(m) = string_method(v, name) {
                    match call_string_method(v, m) {
                        Ok(s) => self.fmt_string(v, s.as_bytes(), verb, slot),
                        Err(msg) => self.method_panicked(v, verb, name, &msg),
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Go's `printArg`.
    pub fn print_arg(&mut self, arg: &Value, verb: char) {
        let top = Slot::TOP;
        match arg {
            Value::Nil => {
                match verb {
                    'T' | 'v' => self.fmt.pad_str(&mut self.buf, NIL_ANGLE),
                    _ => self.bad_verb(None, verb, top),
                }
                return;
            }
            // A zero reflect.Value passed as an argument.
            Value::Invalid => {
                match verb {
                    'T' => self.fmt.fmt_s(&mut self.buf, b"reflect.Value"),
                    'p' => {
                        self.buf.extend_from_slice(PERCENT_BANG);
                        self.write_verb(verb);
                        self.buf.extend_from_slice(b"(reflect.Value=");
                        self.buf.extend_from_slice(INVALID_REFLECT);
                        self.buf.push(b')');
                    }
                    _ => self.buf.extend_from_slice(INVALID_REFLECT),
                }
                return;
            }
            _ => {}
        }
        match verb {
            'T' => {
                let t = type_string(arg);
                self.fmt.fmt_s(&mut self.buf, t.as_bytes());
                return;
            }
            'p' => return self.fmt_pointer(arg, 'p', top),
            _ => {}
        }
        // Values of predeclared types are printed without method lookup.
        match arg {
            Value::Bool(b) => self.fmt_bool(arg, *b, verb, top),
            Value::Float(f, t) => self.fmt_float(arg, *f, float_bits(*t), verb, top),
            Value::Complex(re, im, t) => {
                let size = match t {
                    crate::value::ComplexType::C64 => 64,
                    crate::value::ComplexType::C128 => 128,
                };
                self.fmt_complex(arg, *re, *im, size, verb, top);
            }
            Value::Int(i, _) => self.fmt_integer(arg, *i as u64, true, verb, top),
            Value::Uint(u, _) => self.fmt_integer(arg, *u, false, verb, top),
            Value::String(s) => self.fmt_string(arg, s.as_bytes(), verb, top),
            Value::Slice(s) if is_byte_slice_type(&s.ty) => {
                let bytes = slice_bytes(s.items());
                self.fmt_bytes(arg, &bytes, s.is_nil, verb, "[]byte");
            }
            _ => {
                if !self.handle_methods(arg, verb, top) {
                    self.print_value(arg, verb, 0, top);
                }
            }
        }
    }

    /// Go's `printValue`: prints a value found by reflection.
    fn print_value(&mut self, v: &Value, verb: char, depth: usize, slot: Slot) {
        // Methods were handled by print_arg at depth 0.
        if depth > 0
            && !slot.read_only
            && !matches!(v, Value::Invalid)
            && self.handle_methods(v, verb, slot)
        {
            return;
        }
        match v.underlying() {
            Value::Invalid => {
                if depth == 0 {
                    self.buf.extend_from_slice(INVALID_REFLECT);
                } else if verb == 'v' {
                    self.buf.extend_from_slice(NIL_ANGLE.as_bytes());
                } else {
                    self.bad_verb(None, verb, slot);
                }
            }
            // A nil interface.
            Value::Nil => {
                if self.fmt.f.sharp_v {
                    let t = slot
                        .static_ty
                        .map_or("interface {}".into(), |t| t.to_string());
                    self.buf.extend_from_slice(t.as_bytes());
                    self.buf.extend_from_slice(NIL_PAREN);
                } else {
                    self.buf.extend_from_slice(NIL_ANGLE.as_bytes());
                }
            }
            Value::Bool(b) => self.fmt_bool(v, *b, verb, slot),
            Value::Int(i, _) => self.fmt_integer(v, *i as u64, true, verb, slot),
            Value::Uint(u, _) => self.fmt_integer(v, *u, false, verb, slot),
            Value::Float(f, t) => self.fmt_float(v, *f, float_bits(*t), verb, slot),
            Value::Complex(re, im, t) => {
                let size = match t {
                    crate::value::ComplexType::C64 => 64,
                    crate::value::ComplexType::C128 => 128,
                };
                self.fmt_complex(v, *re, *im, size, verb, slot);
            }
            Value::String(s) => self.fmt_string(v, s.as_bytes(), verb, slot),
            Value::Map(m) => {
                let sharp_v = self.fmt.f.sharp_v;
                if sharp_v {
                    self.buf.extend_from_slice(type_string(v).as_bytes());
                    if m.is_nil {
                        self.buf.extend_from_slice(NIL_PAREN);
                        return;
                    }
                    self.buf.push(b'{');
                } else {
                    self.buf.extend_from_slice(b"map[");
                }
                let (kt, et) = (m.key_type(), m.elem_type());
                for (i, (key, val)) in m.entries.iter().enumerate() {
                    if i > 0 {
                        if sharp_v {
                            self.buf.extend_from_slice(COMMA_SPACE);
                        } else {
                            self.buf.push(b' ');
                        }
                    }
                    self.print_value(key, verb, depth + 1, slot.child(false, &kt));
                    self.buf.push(b':');
                    self.print_value(val, verb, depth + 1, slot.child(false, &et));
                }
                self.buf.push(if sharp_v { b'}' } else { b']' });
            }
            Value::Struct(s) => {
                let sharp_v = self.fmt.f.sharp_v;
                if sharp_v {
                    self.buf.extend_from_slice(type_string(v).as_bytes());
                }
                self.buf.push(b'{');
                for (i, (fd, fv)) in s.ty.fields.iter().zip(s.fields.iter()).enumerate() {
                    if i > 0 {
                        if sharp_v {
                            self.buf.extend_from_slice(COMMA_SPACE);
                        } else {
                            self.buf.push(b' ');
                        }
                    }
                    if (self.fmt.f.plus_v || sharp_v) && !fd.name.is_empty() {
                        self.buf.extend_from_slice(fd.name.as_bytes());
                        self.buf.push(b':');
                    }
                    let child = slot.child(!fd.is_exported(), &fd.ty);
                    self.print_value(fv, verb, depth + 1, child);
                }
                self.buf.push(b'}');
            }
            Value::Slice(s) => {
                let elem = s.elem_type();
                if matches!(verb, 's' | 'q' | 'x' | 'X')
                    && *elem.underlying() == Type::Uint(UintType::U8)
                {
                    let bytes = slice_bytes(s.items());
                    return self.fmt_bytes(v, &bytes, s.is_nil, verb, &type_string(v));
                }
                let child = slot.child(false, &elem);
                if self.fmt.f.sharp_v {
                    self.buf.extend_from_slice(type_string(v).as_bytes());
                    if s.is_nil && v.kind() == Kind::Slice {
                        self.buf.extend_from_slice(NIL_PAREN);
                        return;
                    }
                    self.buf.push(b'{');
                    for (i, item) in s.items().iter().enumerate() {
                        if i > 0 {
                            self.buf.extend_from_slice(COMMA_SPACE);
                        }
                        self.print_value(item, verb, depth + 1, child);
                    }
                    self.buf.push(b'}');
                } else {
                    self.buf.push(b'[');
                    for (i, item) in s.items().iter().enumerate() {
                        if i > 0 {
                            self.buf.push(b' ');
                        }
                        self.print_value(item, verb, depth + 1, child);
                    }
                    self.buf.push(b']');
                }
            }
            Value::Pointer(p) => {
                // A pointer to an array, slice, struct or map prints as
                // &contents at the top level only (avoiding loops).
                if depth == 0 {
                    if let Some(target) = &p.target {
                        if matches!(
                            target.kind(),
                            Kind::Array | Kind::Slice | Kind::Struct | Kind::Map
                        ) {
                            self.buf.push(b'&');
                            let elem = match &p.ty {
                                Type::Pointer(e) => (**e).clone(),
                                _ => Type::Interface,
                            };
                            self.print_value(target, verb, depth + 1, slot.child(false, &elem));
                            return;
                        }
                    }
                }
                self.fmt_pointer(v, verb, slot);
            }
            Value::Func(_) => self.fmt_pointer(v, verb, slot),
            Value::Named(..) => {}
        }
    }

    /// Go's `argNumber`: an explicit argument index `[n]` at `format[i..]`.
    fn arg_number(
        &mut self,
        arg_num: usize,
        format: &[u8],
        i: usize,
        num_args: usize,
    ) -> (usize, usize, bool) {
        if format.len() <= i || format[i] != b'[' {
            return (arg_num, i, false);
        }
        self.reordered = true;
        let (index, wid, ok) = parse_arg_number(&format[i..]);
        if ok {
            if let Ok(index) = usize::try_from(index) {
                if index < num_args {
                    return (index, i + wid, true);
                }
            }
        }
        self.good_arg_num = false;
        (arg_num, i + wid, ok)
    }

    fn write_bad(&mut self, verb: char, what: &[u8]) {
        self.buf.extend_from_slice(PERCENT_BANG);
        self.write_verb(verb);
        self.buf.extend_from_slice(what);
    }

    /// Go's `doPrintf`.
    pub fn do_printf(&mut self, format: &str, a: &[Value]) {
        let fb = format.as_bytes();
        let end = fb.len();
        let mut arg_num = 0usize;
        let mut after_index;
        self.reordered = false;
        let mut i = 0;
        'format_loop: while i < end {
            self.good_arg_num = true;
            let lasti = i;
            while i < end && fb[i] != b'%' {
                i += 1;
            }
            if i > lasti {
                self.buf.extend_from_slice(&fb[lasti..i]);
            }
            if i >= end {
                break;
            }
            i += 1; // skip '%'

            self.fmt.clear_flags();
            while i < end {
                let c = fb[i];
                match c {
                    b'#' => self.fmt.f.sharp = true,
                    b'0' => self.fmt.f.zero = true,
                    b'+' => self.fmt.f.plus = true,
                    b'-' => self.fmt.f.minus = true,
                    b' ' => self.fmt.f.space = true,
                    _ => {
                        // Fast path: a lower-case verb with only flags.
                        if c.is_ascii_lowercase() && arg_num < a.len() {
                            if c == b'v' || c == b'w' {
                                self.move_v_flags();
                            }
                            self.print_arg(&a[arg_num], char::from(c));
                            arg_num += 1;
                            i += 1;
                            continue 'format_loop;
                        }
                        break;
                    }
                }
                i += 1;
            }

            // An explicit argument index?
            (arg_num, i, after_index) = self.arg_number(arg_num, fb, i, a.len());

            // Width.
            if i < end && fb[i] == b'*' {
                i += 1;
                let (wid, present, next) = int_from_arg(a, arg_num);
                (self.fmt.wid, self.fmt.f.wid_present, arg_num) = (wid, present, next);
                if !present {
                    self.buf.extend_from_slice(b"%!(BADWIDTH)");
                }
                // A negative width means left-justify.
                if self.fmt.wid < 0 {
                    self.fmt.wid = -self.fmt.wid;
                    self.fmt.f.minus = true;
                    self.fmt.f.zero = false;
                }
                after_index = false;
            } else {
                (self.fmt.wid, self.fmt.f.wid_present, i) = parse_num(fb, i, end);
                if after_index && self.fmt.f.wid_present {
                    // "%[3]2d"
                    self.good_arg_num = false;
                }
            }

            // Precision.
            if i + 1 < end && fb[i] == b'.' {
                i += 1;
                if after_index {
                    // "%[3].2d"
                    self.good_arg_num = false;
                }
                (arg_num, i, after_index) = self.arg_number(arg_num, fb, i, a.len());
                if i < end && fb[i] == b'*' {
                    i += 1;
                    let (prec, present, next) = int_from_arg(a, arg_num);
                    (self.fmt.prec, self.fmt.f.prec_present, arg_num) = (prec, present, next);
                    // A negative precision makes no sense.
                    if self.fmt.prec < 0 {
                        self.fmt.prec = 0;
                        self.fmt.f.prec_present = false;
                    }
                    if !self.fmt.f.prec_present {
                        self.buf.extend_from_slice(b"%!(BADPREC)");
                    }
                    after_index = false;
                } else {
                    (self.fmt.prec, self.fmt.f.prec_present, i) = parse_num(fb, i, end);
                    if !self.fmt.f.prec_present {
                        self.fmt.prec = 0;
                        self.fmt.f.prec_present = true;
                    }
                }
            }

            if !after_index {
                (arg_num, i, _) = self.arg_number(arg_num, fb, i, a.len());
            }

            if i >= end {
                self.buf.extend_from_slice(b"%!(NOVERB)");
                break;
            }

            let (r, size) = decode_rune(&fb[i..]);
            i += size;
            let verb = u32::try_from(r)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or(char::REPLACEMENT_CHARACTER);

            if verb == '%' {
                // Percent absorbs no operand and ignores width and precision.
                self.buf.push(b'%');
            } else if !self.good_arg_num {
                self.write_bad(verb, b"(BADINDEX)");
            } else if arg_num >= a.len() {
                self.write_bad(verb, b"(MISSING)");
            } else {
                if verb == 'v' || verb == 'w' {
                    self.move_v_flags();
                }
                self.print_arg(&a[arg_num], verb);
                arg_num += 1;
            }
        }

        // Extra arguments, unless the format reordered them.
        if !self.reordered && arg_num < a.len() {
            self.fmt.clear_flags();
            self.buf.extend_from_slice(b"%!(EXTRA ");
            for (k, arg) in a[arg_num..].iter().enumerate() {
                if k > 0 {
                    self.buf.extend_from_slice(COMMA_SPACE);
                }
                match arg {
                    Value::Nil => self.buf.extend_from_slice(NIL_ANGLE.as_bytes()),
                    Value::Invalid => self.buf.extend_from_slice(b"reflect.Value="),
                    _ => {
                        self.buf.extend_from_slice(type_string(arg).as_bytes());
                        self.buf.push(b'=');
                    }
                }
                if !matches!(arg, Value::Nil) {
                    self.print_arg(arg, 'v');
                }
            }
            self.buf.push(b')');
        }
    }

    /// `%#v` and `%+v` are formats of their own: move the flags aside.
    fn move_v_flags(&mut self) {
        let f = &mut self.fmt.f;
        f.sharp_v = f.sharp;
        f.sharp = false;
        f.plus_v = f.plus;
        f.plus = false;
    }

    /// Go's `doPrint`: spaces between operands when neither is a string.
    pub fn do_print(&mut self, a: &[Value]) {
        let mut prev_string = false;
        for (k, arg) in a.iter().enumerate() {
            let is_string = arg.kind() == Kind::String;
            if k > 0 && !is_string && !prev_string {
                self.buf.push(b' ');
            }
            self.print_arg(arg, 'v');
            prev_string = is_string;
        }
    }

    /// Go's `doPrintln`: spaces always, and a newline.
    pub fn do_println(&mut self, a: &[Value]) {
        for (k, arg) in a.iter().enumerate() {
            if k > 0 {
                self.buf.push(b' ');
            }
            self.print_arg(arg, 'v');
        }
        self.buf.push(b'\n');
    }
}

/// The bytes of a `[]uint8`-like slice's elements.
fn slice_bytes(items: &[Value]) -> Vec<u8> {
    items
        .iter()
        .map(|it| match it.underlying() {
            Value::Uint(u, _) => *u as u8,
            Value::Int(i, _) => *i as u8,
            _ => 0,
        })
        .collect()
}
