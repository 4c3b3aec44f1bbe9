//! Go's `encoding/json` decoding (v1, as in Go 1.26), driven by a
//! description of the Go type: which JSON key fills which field (exact name
//! first, then case-insensitively), what `null` does, and above all which
//! error comes out. Go decodes the whole value and returns the first type
//! error it met (`json: cannot unmarshal string into Go struct field
//! ChatCompletionRequest.messages.role of type string`, numbers with their
//! literal where the target is an integer or float), while an error from a
//! type's own `UnmarshalJSON` stops decoding at once.
//!
//! The decoded value is JSON again, in Go's terms: a struct is an object of
//! the fields that were set, a nil pointer, slice or map is absent, an
//! `interface{}` or `json.RawMessage` keeps the JSON it was given.

use serde_json::{Map, Value as Json};

/// A decoding error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoErr {
    /// `*json.UnmarshalTypeError`.
    Type {
        /// What the JSON was: `string`, `number`, `number 1.5`, `array`, ...
        value: String,
        /// The Go type it could not go into.
        ty: String,
        /// The struct holding the field, when there is one.
        strct: String,
        /// The dotted field path.
        field: String,
    },
    /// Any other error, with its text.
    Msg(String),
}

impl GoErr {
    /// The error's text, as `err.Error()` gives it.
    pub fn text(&self) -> String {
        match self {
            GoErr::Type {
                value,
                ty,
                strct,
                field,
            } => {
                if !strct.is_empty() || !field.is_empty() {
                    format!("json: cannot unmarshal {value} into Go struct field {strct}.{field} of type {ty}")
                } else {
                    format!("json: cannot unmarshal {value} into Go value of type {ty}")
                }
            }
            GoErr::Msg(s) => s.clone(),
        }
    }

    /// An error with this text.
    pub fn msg(s: impl Into<String>) -> GoErr {
        GoErr::Msg(s.into())
    }
}

impl std::fmt::Display for GoErr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// A type's own `UnmarshalJSON`: the JSON it is given, its value or error.
pub type Unmarshaler = fn(&Json) -> Result<Option<Json>, GoErr>;

/// A Go type.
#[derive(Clone, Copy)]
pub enum Ty {
    /// `string`
    Str,
    /// `bool`
    Bool,
    /// `int`
    Int,
    /// `int32`
    I32,
    /// `float64`
    F64,
    /// `float32`
    F32,
    /// `any`
    Any,
    /// `json.RawMessage`
    Raw,
    /// `[]byte` (base64 in JSON), named as given (`api.ImageData`).
    Bytes(&'static str),
    /// A pointer: `null` makes it nil.
    Ptr(&'static Ty),
    /// A slice, with its Go name (`[]openai.Message`).
    Slice(&'static Ty, &'static str),
    /// `map[string]T`, with its Go name.
    Map(&'static Ty, &'static str),
    /// A struct.
    Struct(&'static Struct),
    /// A type with its own `UnmarshalJSON`.
    Custom(Unmarshaler),
}

/// A struct type.
pub struct Struct {
    /// Its name (`ChatCompletionRequest`), as error texts give it.
    pub name: &'static str,
    /// Its qualified name (`openai.ChatCompletionRequest`).
    pub go: &'static str,
    /// Its fields: JSON name and type.
    pub fields: &'static [(&'static str, Ty)],
}

impl Ty {
    fn go_name(&self) -> &'static str {
        match self {
            Ty::Str => "string",
            Ty::Bool => "bool",
            Ty::Int => "int",
            Ty::I32 => "int32",
            Ty::F64 => "float64",
            Ty::F32 => "float32",
            Ty::Any => "interface {}",
            Ty::Raw => "json.RawMessage",
            Ty::Bytes(n) | Ty::Slice(_, n) | Ty::Map(_, n) => n,
            Ty::Ptr(t) => t.go_name(),
            Ty::Struct(s) => s.go,
            Ty::Custom(_) => "",
        }
    }
}

/// A number as its literal was most likely written: Go quotes the literal
/// in its errors, a parsed value no longer has it. Integers are exact;
/// a float with no fraction is written in digits (`1e39` as
/// `1000000000000000000000000000000000000000`), others in their shortest
/// form. An integer literal beyond float64's precision cannot be recovered.
pub fn literal(n: &serde_json::Number) -> String {
    if let Some(f) = n.as_f64().filter(|_| !n.is_i64() && !n.is_u64()) {
        let known = LITERALS.with(|l| {
            l.borrow()
                .iter()
                .find(|(bits, _)| *bits == f.to_bits())
                .map(|(_, s)| s.clone())
        });
        if let Some(s) = known {
            return s;
        }
    }
    match n.as_f64() {
        Some(f)
            if !n.is_i64()
                && !n.is_u64()
                && f.is_finite()
                && f.fract() == 0.0
                && f.abs() >= 1e15 =>
        {
            let e = format!("{f:e}");
            let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
            let exp: usize = exp.parse().unwrap_or(0);
            let (sign, mantissa) = match mantissa.strip_prefix('-') {
                Some(m) => ("-", m),
                None => ("", mantissa),
            };
            let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
            let frac = mantissa.split_once('.').map_or(0, |(_, f)| f.len());
            format!("{sign}{digits}{}", "0".repeat(exp.saturating_sub(frac)))
        }
        _ => n.to_string(),
    }
}

thread_local! {
    static LITERALS: std::cell::RefCell<Vec<(u64, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with the number literals of `text` (the body a value was
/// parsed from) known, so that errors quote them as Go does.
pub fn with_literals<T>(text: &str, f: impl FnOnce() -> T) -> T {
    let mut found = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < b.len() && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let lit = &text[start..i];
                if let Ok(f) = lit.parse::<f64>() {
                    found.push((f.to_bits(), lit.to_string()));
                }
            }
            _ => i += 1,
        }
    }
    LITERALS.with(|l| *l.borrow_mut() = found);
    let out = f();
    LITERALS.with(|l| l.borrow_mut().clear());
    out
}

/// How Go's decoder names a JSON value's kind.
pub fn kind(v: &Json) -> &'static str {
    crate::api::json_kind(v)
}

#[derive(Default, Clone)]
struct Ctx {
    strct: Option<&'static str>,
    stack: Vec<&'static str>,
}

struct Dec {
    saved: Option<GoErr>,
    ctx: Ctx,
}

fn add_context(err: GoErr, ctx: &Ctx) -> GoErr {
    match err {
        GoErr::Type {
            value,
            ty,
            strct,
            field,
        } if ctx.strct.is_some() || !ctx.stack.is_empty() => {
            let mut path = ctx.stack.join(".");
            if !field.is_empty() {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&field);
            }
            GoErr::Type {
                value,
                ty,
                strct: ctx.strct.map(str::to_string).unwrap_or(strct),
                field: path,
            }
        }
        e => e,
    }
}

/// Go's `foldName`: ASCII letters upper-cased, any other rune replaced by
/// the smallest rune of its simple case-folding orbit. Only `ſ` (with `s`)
/// and the Kelvin sign (with `k`) share an orbit with ASCII letters; `ı`
/// and `İ` do not (their case mappings are not foldings).
pub fn fold_name(s: &str) -> String {
    fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
        let c = it.next()?;
        it.next().is_none().then_some(c)
    }
    s.chars()
        .map(|c| {
            if c.is_ascii() {
                return c.to_ascii_uppercase();
            }
            match c {
                '\u{17f}' => return 'S',
                '\u{212a}' => return 'K',
                _ => {}
            }
            let lower = single(c.to_lowercase());
            let upper = single(c.to_uppercase());
            [
                Some(c),
                lower,
                upper,
                upper.and_then(|u| single(u.to_lowercase())),
                lower.and_then(|l| single(l.to_uppercase())),
            ]
            .into_iter()
            .flatten()
            .filter(|x| !x.is_ascii())
            .min()
            .unwrap_or(c)
        })
        .collect()
}

/// Go's case-insensitive field match: equal after [`fold_name`].
pub fn fold_eq(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    fold_name(a) == fold_name(b)
}

impl Dec {
    fn save(&mut self, err: GoErr) {
        if self.saved.is_none() {
            self.saved = Some(add_context(err, &self.ctx));
        }
    }

    fn mismatch(&mut self, v: &Json, ty: &Ty) {
        let value = match (v, ty) {
            (Json::Number(n), Ty::Int | Ty::I32 | Ty::F64 | Ty::F32) => {
                format!("number {}", literal(n))
            }
            _ => kind(v).to_string(),
        };
        self.save(GoErr::Type {
            value,
            ty: ty.go_name().to_string(),
            strct: String::new(),
            field: String::new(),
        });
    }

    fn value(&mut self, v: &Json, ty: &Ty) -> Result<Option<Json>, GoErr> {
        if let Ty::Custom(f) = ty {
            return f(v);
        }
        if v.is_null() {
            return Ok(match ty {
                Ty::Raw => Some(Json::Null),
                _ => None,
            });
        }
        Ok(match (ty, v) {
            (Ty::Str, Json::String(_)) | (Ty::Bool, Json::Bool(_)) | (Ty::Any | Ty::Raw, _) => {
                Some(v.clone())
            }
            (Ty::Int, Json::Number(n)) if n.is_i64() => Some(v.clone()),
            (Ty::Int, Json::Number(n)) if literal(n).parse::<i64>().is_ok() => {
                Some(Json::from(literal(n).parse::<i64>().unwrap_or(0)))
            }
            (Ty::I32, Json::Number(n)) if literal(n).parse::<i32>().is_ok() => {
                Some(Json::from(literal(n).parse::<i32>().unwrap_or(0)))
            }
            (Ty::F64, Json::Number(_)) => Some(v.clone()),
            (Ty::F32, Json::Number(n)) if n.as_f64().is_some_and(|f| (f as f32).is_finite()) => {
                Some(v.clone())
            }
            (Ty::Bytes(_), Json::Array(a)) => {
                // a []byte from a JSON array: each element a uint8
                let mut bytes = Vec::with_capacity(a.len());
                for x in a {
                    match x {
                        Json::Number(n) if n.as_u64().is_some_and(|b| b <= 255) => {
                            bytes.push(n.as_u64().unwrap_or(0) as u8)
                        }
                        Json::Null => bytes.push(0),
                        Json::Number(n) => self.save(GoErr::Type {
                            value: format!("number {}", literal(n)),
                            ty: "uint8".into(),
                            strct: String::new(),
                            field: String::new(),
                        }),
                        other => self.save(GoErr::Type {
                            value: kind(other).into(),
                            ty: "uint8".into(),
                            strct: String::new(),
                            field: String::new(),
                        }),
                    }
                }
                Some(Json::String(base64_encode(&bytes)))
            }
            (Ty::Bytes(_), Json::String(s)) => match crate::api::base64_decode(s) {
                Ok(b) => Some(Json::String(base64_encode(&b))),
                Err(e) => {
                    self.save(GoErr::Msg(e.0));
                    None
                }
            },
            (Ty::Ptr(t), _) => self.value(v, t)?,
            (Ty::Slice(t, _), Json::Array(a)) => {
                let mut out = Vec::with_capacity(a.len());
                for x in a {
                    out.push(self.value(x, t)?.unwrap_or(Json::Null));
                }
                Some(Json::Array(out))
            }
            (Ty::Map(t, _), Json::Object(o)) => {
                let mut out = Map::new();
                for (k, x) in o {
                    out.insert(k.clone(), self.value(x, t)?.unwrap_or(Json::Null));
                }
                Some(Json::Object(out))
            }
            (Ty::Struct(s), Json::Object(o)) => Some(Json::Object(self.object(s, o)?)),
            _ => {
                self.mismatch(v, ty);
                None
            }
        })
    }

    fn object(
        &mut self,
        s: &'static Struct,
        o: &Map<String, Json>,
    ) -> Result<Map<String, Json>, GoErr> {
        let mut out = Map::new();
        for (k, x) in o {
            let field = s
                .fields
                .iter()
                .find(|(n, _)| n == k)
                .or_else(|| s.fields.iter().find(|(n, _)| fold_eq(n, k)));
            let Some((name, ty)) = field else { continue };
            let saved = self.ctx.clone();
            self.ctx.strct = Some(s.name);
            self.ctx.stack.push(name);
            let got = self.value(x, ty)?;
            self.ctx = saved;
            match got {
                Some(val) => {
                    out.insert(name.to_string(), val);
                }
                None if x.is_null() => {
                    out.remove(*name);
                }
                None => {}
            }
        }
        Ok(out)
    }
}

/// `json.Unmarshal(data, &x)` for `x` of type `ty`, from its zero value.
pub fn unmarshal(v: &Json, ty: &Ty) -> Result<Option<Json>, GoErr> {
    let mut d = Dec {
        saved: None,
        ctx: Ctx::default(),
    };
    match d.value(v, ty) {
        Err(e) => Err(add_context(e, &d.ctx)),
        Ok(_) if d.saved.is_some() => Err(d.saved.take().unwrap_or(GoErr::msg(""))),
        Ok(x) => Ok(x),
    }
}

/// `json.Unmarshal` of a field that was absent from its object: a nil
/// `json.RawMessage` is empty input.
pub fn unexpected_end() -> GoErr {
    GoErr::msg("unexpected end of JSON input")
}

/// Go's `base64.StdEncoding.EncodeToString`.
pub fn base64_encode(b: &[u8]) -> String {
    gotmpl::encoding_json::base64(b)
}

/// Reads a decoded struct (an object of the fields set).
pub struct Got<'a>(pub &'a Map<String, Json>);

static EMPTY: std::sync::LazyLock<Map<String, Json>> = std::sync::LazyLock::new(Map::new);

impl<'a> Got<'a> {
    /// A decoded struct value; anything else reads as the zero struct.
    pub fn of(v: Option<&'a Json>) -> Got<'a> {
        match v {
            Some(Json::Object(o)) => Got(o),
            _ => Got(&EMPTY),
        }
    }

    /// A field, if set.
    pub fn get(&self, k: &str) -> Option<&'a Json> {
        self.0.get(k)
    }

    /// A string field (`""` when unset).
    pub fn str(&self, k: &str) -> &'a str {
        self.0.get(k).and_then(Json::as_str).unwrap_or("")
    }

    /// A bool field.
    pub fn bool(&self, k: &str) -> bool {
        self.0.get(k).and_then(Json::as_bool).unwrap_or(false)
    }

    /// An int field.
    pub fn int(&self, k: &str) -> i64 {
        self.0.get(k).and_then(Json::as_i64).unwrap_or(0)
    }

    /// A slice field (empty when nil).
    pub fn list(&self, k: &str) -> &'a [Json] {
        self.0
            .get(k)
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// A struct field.
    pub fn sub(&self, k: &str) -> Got<'a> {
        Got::of(self.0.get(k))
    }
}

// ---- Go's JSON scanner (encoding/json/scanner.go), for its error texts ----

fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".into(),
        b'"' => "'\"'".into(),
        _ => {
            let q = gotmpl::strconv::quote(&char::from(c).to_string());
            format!("'{}'", &q[1..q.len() - 1])
        }
    }
}

/// `checkValid`: `Ok` for one complete JSON value (and spaces), else the
/// error `json.Unmarshal` gives (`invalid character 'b' looking for
/// beginning of object key string`, `unexpected end of JSON input`).
pub fn check_valid(data: &[u8]) -> Result<(), String> {
    scan(data, false).map(|_| ()).map_err(|e| match e {
        First::Eof => "unexpected end of JSON input".into(),
        // `scanner.eof()` steps once more with a space: inside a literal,
        // a number's sign, fraction or exponent, or a string escape, that
        // space is the invalid character
        First::UnexpectedEof => {
            let mut padded = data.to_vec();
            padded.push(b' ');
            match scan(&padded, false) {
                Err(First::Syntax(s)) => s,
                _ => "unexpected end of JSON input".into(),
            }
        }
        First::Syntax(s) => s,
    })
}

/// How reading the first JSON value of a stream can fail (`json.Decoder`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum First {
    /// Nothing but spaces: `io.EOF` (`EOF`; Ollama's handlers answer
    /// `missing request body`).
    Eof,
    /// The value stops before its end: `io.ErrUnexpectedEOF`.
    UnexpectedEof,
    /// Go's syntax error text.
    Syntax(String),
}

impl First {
    /// The error's text, as `err.Error()` gives it.
    pub fn text(&self) -> String {
        match self {
            First::Eof => "EOF".into(),
            First::UnexpectedEof => "unexpected EOF".into(),
            First::Syntax(s) => s.clone(),
        }
    }
}

/// `json.NewDecoder(r).Decode(&v)`'s view of a body: the end of the first
/// JSON value (what follows it is never read), or its error.
pub fn first_value(data: &[u8]) -> Result<usize, First> {
    scan(data, true)
}

fn scan(data: &[u8], first: bool) -> Result<usize, First> {
    #[derive(Clone, Copy, PartialEq)]
    enum P {
        ObjKey,
        ObjValue,
        Array,
    }
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        BeginValue,
        BeginValueOrEmpty,
        BeginStringOrEmpty,
        BeginString,
        EndValue,
        EndTop,
        InString,
        InStringEsc,
        EscU(u8),
        Neg,
        One,
        Zero,
        Dot,
        Dot0,
        E,
        ESign,
        E0,
        Lit(&'static [u8], usize, &'static str),
    }
    let err = |c: u8, ctx: &str| {
        Err(First::Syntax(format!(
            "invalid character {} {ctx}",
            quote_char(c)
        )))
    };
    let space = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let mut started = false;
    let mut stack: Vec<P> = Vec::new();
    let mut s = S::BeginValue;
    let mut i = 0;
    while i < data.len() {
        let c = data[i];
        i += 1;
        started |= !space(c);
        // Each state either consumes c or hands it on (`again`).
        let mut again = true;
        while again {
            again = false;
            match s {
                S::BeginValueOrEmpty if space(c) => {}
                S::BeginValueOrEmpty if c == b']' => {
                    s = S::EndValue;
                    again = true;
                    // the ']' closes the array: handled by EndValue
                }
                S::BeginValueOrEmpty => {
                    s = S::BeginValue;
                    again = true;
                }
                S::BeginValue if space(c) => {}
                S::BeginValue => match c {
                    b'{' => {
                        if stack.len() >= 10000 {
                            return Err(First::Syntax(format!(
                                "invalid character {} exceeded max depth",
                                quote_char(c)
                            )));
                        }
                        stack.push(P::ObjKey);
                        s = S::BeginStringOrEmpty;
                    }
                    b'[' => {
                        if stack.len() >= 10000 {
                            return Err(First::Syntax(format!(
                                "invalid character {} exceeded max depth",
                                quote_char(c)
                            )));
                        }
                        stack.push(P::Array);
                        s = S::BeginValueOrEmpty;
                    }
                    b'"' => s = S::InString,
                    b'-' => s = S::Neg,
                    b'0' => s = S::Zero,
                    b'1'..=b'9' => s = S::One,
                    b't' => s = S::Lit(b"rue", 0, "in literal true"),
                    b'f' => s = S::Lit(b"alse", 0, "in literal false"),
                    b'n' => s = S::Lit(b"ull", 0, "in literal null"),
                    _ => return err(c, "looking for beginning of value"),
                },
                S::BeginStringOrEmpty if space(c) => {}
                S::BeginStringOrEmpty if c == b'}' => {
                    if let Some(top) = stack.last_mut() {
                        *top = P::ObjValue;
                    }
                    s = S::EndValue;
                    again = true;
                }
                S::BeginStringOrEmpty => {
                    s = S::BeginString;
                    again = true;
                }
                S::BeginString if space(c) => {}
                S::BeginString => {
                    if c == b'"' {
                        s = S::InString;
                    } else {
                        return err(c, "looking for beginning of object key string");
                    }
                }
                S::EndValue => {
                    let Some(&top) = stack.last() else {
                        if first {
                            return Ok(i - 1);
                        }
                        s = S::EndTop;
                        again = true;
                        continue;
                    };
                    if space(c) {
                        continue;
                    }
                    match top {
                        P::ObjKey => {
                            if c == b':' {
                                *stack.last_mut().expect("top") = P::ObjValue;
                                s = S::BeginValue;
                            } else {
                                return err(c, "after object key");
                            }
                        }
                        P::ObjValue => match c {
                            b',' => {
                                *stack.last_mut().expect("top") = P::ObjKey;
                                s = S::BeginString;
                            }
                            b'}' => {
                                stack.pop();
                                s = S::EndValue;
                            }
                            _ => return err(c, "after object key:value pair"),
                        },
                        P::Array => match c {
                            b',' => s = S::BeginValue,
                            b']' => {
                                stack.pop();
                                s = S::EndValue;
                            }
                            _ => return err(c, "after array element"),
                        },
                    }
                }
                S::EndTop => {
                    if !space(c) {
                        return err(c, "after top-level value");
                    }
                }
                S::InString => match c {
                    b'"' => s = S::EndValue,
                    b'\\' => s = S::InStringEsc,
                    c if c < 0x20 => return err(c, "in string literal"),
                    _ => {}
                },
                S::InStringEsc => match c {
                    b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => s = S::InString,
                    b'u' => s = S::EscU(0),
                    _ => return err(c, "in string escape code"),
                },
                S::EscU(n) => {
                    if c.is_ascii_hexdigit() {
                        s = if n == 3 { S::InString } else { S::EscU(n + 1) };
                    } else {
                        return err(c, "in \\u hexadecimal character escape");
                    }
                }
                S::Neg => match c {
                    b'0' => s = S::Zero,
                    b'1'..=b'9' => s = S::One,
                    _ => return err(c, "in numeric literal"),
                },
                S::One if c.is_ascii_digit() => {}
                S::One | S::Zero => match c {
                    b'.' => s = S::Dot,
                    b'e' | b'E' => s = S::E,
                    _ => {
                        s = S::EndValue;
                        again = true;
                    }
                },
                S::Dot => {
                    if c.is_ascii_digit() {
                        s = S::Dot0;
                    } else {
                        return err(c, "after decimal point in numeric literal");
                    }
                }
                S::Dot0 => match c {
                    b'0'..=b'9' => {}
                    b'e' | b'E' => s = S::E,
                    _ => {
                        s = S::EndValue;
                        again = true;
                    }
                },
                S::E => {
                    s = S::ESign;
                    if c != b'+' && c != b'-' {
                        again = true;
                    }
                }
                S::ESign => {
                    if c.is_ascii_digit() {
                        s = S::E0;
                    } else {
                        return err(c, "in exponent of numeric literal");
                    }
                }
                S::E0 => {
                    if !c.is_ascii_digit() {
                        s = S::EndValue;
                        again = true;
                    }
                }
                S::Lit(rest, k, what) => {
                    if c == rest[k] {
                        s = if k + 1 == rest.len() {
                            S::EndValue
                        } else {
                            S::Lit(rest, k + 1, what)
                        };
                    } else {
                        return err(c, &format!("{what} (expecting {})", quote_char(rest[k])));
                    }
                }
            }
        }
    }
    // eof: a number may end here; anything else unfinished is an error
    match s {
        S::EndTop => Ok(data.len()),
        S::EndValue | S::One | S::Zero | S::Dot0 | S::E0 if stack.is_empty() => Ok(data.len()),
        S::BeginValue if !started && stack.is_empty() => Err(First::Eof),
        _ => Err(First::UnexpectedEof),
    }
}

/// Go's unquoting of `\u` escapes: a surrogate that does not pair becomes
/// U+FFFD (serde_json refuses it).
fn replace_lone_surrogates(text: &str) -> String {
    let b = text.as_bytes();
    let hex = |i: usize| -> Option<u32> {
        let s = text.get(i..i + 4)?;
        u32::from_str_radix(s, 16).ok()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    let mut last = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => {
                if b.get(i + 1) == Some(&b'u') {
                    if let Some(u) = hex(i + 2) {
                        if (0xD800..0xDC00).contains(&u) {
                            let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                                .then(|| hex(i + 8))
                                .flatten()
                                .filter(|l| (0xDC00..0xE000).contains(l));
                            if low.is_some() {
                                i += 12;
                                continue;
                            }
                        }
                        if (0xD800..0xE000).contains(&u) {
                            out.push_str(&text[last..i]);
                            out.push_str("\\ufffd");
                            i += 6;
                            last = i;
                            continue;
                        }
                    }
                    i += 6;
                } else {
                    i += 2;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[last..]);
    out
}

/// The value Go's decoder puts in the struct field `name` from object `v`
/// (`{"Stream": false}` sets `Stream` as `{"stream": false}` does):
/// keys match the field name exactly or case-insensitively (Go's folding),
/// and the last matching key in the object wins, as each assignment
/// overwrites the one before. `None` when no key matches (or `v` is not
/// an object).
pub fn field<'a>(v: &'a Json, name: &str) -> Option<&'a Json> {
    v.as_object()?
        .iter()
        .rev()
        .find(|(k, _)| k.as_str() == name || fold_eq(k, name))
        .map(|(_, x)| x)
}

/// `json.Unmarshal` of text into `any`-shaped JSON: Go's syntax errors,
/// lone surrogates as U+FFFD.
pub fn parse(text: &str) -> Result<Json, GoErr> {
    check_valid(text.as_bytes()).map_err(GoErr::Msg)?;
    match serde_json::from_str(text) {
        Ok(v) => Ok(v),
        Err(_) => serde_json::from_str(&replace_lone_surrogates(text))
            .map_err(|e| GoErr::msg(e.to_string())),
    }
}

#[cfg(test)]
mod scanner_tests {
    use super::*;

    #[test]
    fn go_syntax_errors() {
        let e = |s: &str| check_valid(s.as_bytes()).unwrap_err();
        assert_eq!(
            e("{bad}"),
            "invalid character 'b' looking for beginning of object key string"
        );
        assert_eq!(e(""), "unexpected end of JSON input");
        assert_eq!(e("{\"a\":1"), "unexpected end of JSON input");
        assert_eq!(e("[1 2]"), "invalid character '2' after array element");
        assert_eq!(e("{\"a\" 1}"), "invalid character '1' after object key");
        assert_eq!(
            e("{\"a\":1 \"b\"}"),
            "invalid character '\"' after object key:value pair"
        );
        assert_eq!(
            e("tru"),
            "invalid character ' ' in literal true (expecting 'e')"
        );
        assert_eq!(e("\"a\\"), "invalid character ' ' in string escape code");
        assert_eq!(e("\"abc"), "unexpected end of JSON input");
        assert_eq!(
            e("[1."),
            "invalid character ' ' after decimal point in numeric literal"
        );
        assert_eq!(e("-"), "invalid character ' ' in numeric literal");
        assert_eq!(
            e("trUe"),
            "invalid character 'U' in literal true (expecting 'u')"
        );
        assert_eq!(
            e("1.x"),
            "invalid character 'x' after decimal point in numeric literal"
        );
        assert_eq!(e("{} x"), "invalid character 'x' after top-level value");
        assert_eq!(
            e("'a'"),
            "invalid character '\\'' looking for beginning of value"
        );
        assert_eq!(
            e("\u{feff}{}"),
            "invalid character 'ï' looking for beginning of value"
        );
        for ok in [
            "{}",
            "[]",
            " [1, 2.5e-3, -0, {\"a\": [true, false, null]}] ",
            "12",
            "\"x\\u00e9\"",
        ] {
            assert_eq!(check_valid(ok.as_bytes()), Ok(()), "{ok}");
        }
        assert_eq!(
            parse("\"\\ud800x\"").unwrap(),
            Json::String("\u{fffd}x".into())
        );
        assert_eq!(
            parse("\"\\ud83d\\ude00\"").unwrap(),
            Json::String("😀".into())
        );
    }
}

/// A step of a path into raw JSON text: an object key (matched as Go
/// matches field names, the last match winning) or an array index.
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// An object key.
    Key(&'a str),
    /// An array index.
    Index(usize),
}

/// The raw text of the value at `path` in `text` (which must be valid
/// JSON): what a `json.RawMessage` field holds, spaces and all.
pub fn raw_span<'a>(text: &'a str, path: &[Step]) -> Option<&'a str> {
    fn ws(b: &[u8], mut i: usize) -> usize {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
        }
        i
    }
    fn string_end(b: &[u8], mut i: usize) -> usize {
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        i + 1
    }
    /// The end of the value starting at `i`.
    fn value_end(b: &[u8], i: usize) -> usize {
        match b.get(i) {
            Some(b'"') => string_end(b, i),
            Some(b'{') | Some(b'[') => {
                let mut depth = 0;
                let mut j = i;
                while j < b.len() {
                    match b[j] {
                        b'"' => {
                            j = string_end(b, j);
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return j + 1;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                j
            }
            _ => {
                let mut j = i;
                while j < b.len()
                    && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n')
                {
                    j += 1;
                }
                j
            }
        }
    }
    let b = text.as_bytes();
    let mut start = ws(b, 0);
    for step in path {
        let end = value_end(b, start);
        let mut found = None;
        match (step, b.get(start)) {
            (Step::Key(name), Some(b'{')) => {
                let mut i = ws(b, start + 1);
                while i < end && b[i] == b'"' {
                    let kend = string_end(b, i);
                    let key: String = serde_json::from_str(&text[i..kend]).ok()?;
                    let v = ws(b, ws(b, kend) + 1);
                    if key == *name || fold_eq(&key, name) {
                        found = Some(v);
                    }
                    i = ws(b, value_end(b, v));
                    if b.get(i) == Some(&b',') {
                        i = ws(b, i + 1);
                    }
                }
            }
            (Step::Index(n), Some(b'[')) => {
                let mut i = ws(b, start + 1);
                let mut k = 0;
                while i < end && b[i] != b']' {
                    if k == *n {
                        found = Some(i);
                        break;
                    }
                    i = ws(b, value_end(b, i));
                    if b.get(i) == Some(&b',') {
                        i = ws(b, i + 1);
                    }
                    k += 1;
                }
            }
            _ => {}
        }
        start = found?;
    }
    Some(&text[start..value_end(b, start)])
}

#[cfg(test)]
mod span_tests {
    use super::*;

    #[test]
    fn raw_spans() {
        let t = r#"{"model": "m", "tools": [{"name": "a"}, {"name": "b", "input_schema": {"type": "object", "x": [1, 2]}}]}"#;
        assert_eq!(
            raw_span(
                t,
                &[
                    Step::Key("tools"),
                    Step::Index(1),
                    Step::Key("Input_Schema")
                ]
            ),
            Some(r#"{"type": "object", "x": [1, 2]}"#)
        );
        assert_eq!(raw_span(t, &[Step::Key("model")]), Some(r#""m""#));
        assert_eq!(raw_span(t, &[Step::Key("tools"), Step::Index(2)]), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static INNER: Struct = Struct {
        name: "Inner",
        go: "pkg.Inner",
        fields: &[("n", Ty::Int), ("s", Ty::Str)],
    };
    static INNERS: Ty = Ty::Struct(&INNER);
    static OUTER: Struct = Struct {
        name: "Outer",
        go: "pkg.Outer",
        fields: &[
            ("name", Ty::Str),
            ("items", Ty::Slice(&INNERS, "[]pkg.Inner")),
            ("max", Ty::Ptr(&Ty::Int)),
        ],
    };

    fn dec(s: &str) -> Result<Option<Json>, GoErr> {
        unmarshal(&serde_json::from_str(s).unwrap(), &Ty::Struct(&OUTER))
    }

    #[test]
    fn first_type_error_in_key_order_with_literals() {
        assert_eq!(
            dec(r#"{"items":[{"n":1.5}],"name":3}"#).unwrap_err().text(),
            "json: cannot unmarshal number 1.5 into Go struct field Inner.items.n of type int"
        );
        assert_eq!(
            dec(r#"{"NAME":true}"#).unwrap_err().text(),
            "json: cannot unmarshal bool into Go struct field Outer.name of type string"
        );
        assert_eq!(
            dec(r#"[1]"#).unwrap_err().text(),
            "json: cannot unmarshal array into Go value of type pkg.Outer"
        );
        assert_eq!(
            dec(r#"{"items":"x"}"#).unwrap_err().text(),
            "json: cannot unmarshal string into Go struct field Outer.items of type []pkg.Inner"
        );
    }

    #[test]
    fn values_and_nulls() {
        let v = dec(r#"{"Name":"a","max":null,"items":[{"s":"x"}],"other":1}"#)
            .unwrap()
            .unwrap();
        assert_eq!(v, serde_json::json!({"name":"a","items":[{"s":"x"}]}));
        assert_eq!(base64_encode(b"hi!?"), "aGkhPw==");
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;

    #[test]
    fn fields_match_as_gos_decoder_matches_them() {
        let v: Json =
            serde_json::from_str(r#"{"Stream": false, "model": "a", "MODEL": "b"}"#).unwrap();
        assert_eq!(field(&v, "stream"), Some(&Json::Bool(false)));
        // the last matching key wins
        assert_eq!(field(&v, "model"), Some(&Json::String("b".into())));
        assert_eq!(field(&v, "raw"), None);
        assert_eq!(field(&Json::Null, "raw"), None);
    }
}
