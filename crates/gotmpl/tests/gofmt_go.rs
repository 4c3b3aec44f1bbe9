//! Differential test of `gotmpl::gofmt` against real Go: every case in
//! `tests/data/gofmt.jsonl` was printed by Go 1.27's `fmt` (see
//! `tools/gofmt-cases`), and must come out byte for byte the same.
//!
//! The first line of the table defines the named types; each other line is
//! `{"fn", "format", "args", "expect"}` with typed arguments (the encoding
//! is documented in `tools/gofmt-cases/main.go`).

use std::collections::HashMap;
use std::sync::Arc;

use gotmpl::gofmt::{sprint, sprintf, sprintln};
use gotmpl::value::{
    compare_keys, ComplexType, FieldDef, FloatType, FuncType, Function, IntType, Map, Method,
    NamedType, NativeFn, Pointer, Slice, Struct, StructType, Type, UintType, Value,
};
use serde_json::Value as Json;

const TABLE: &str = include_str!("data/gofmt.jsonl");

/// The Go methods the table's types have, mirrored.
fn method_impl(type_name: &str, method: &str) -> Arc<NativeFn> {
    fn int_of(v: &Value) -> i64 {
        match v.underlying() {
            Value::Int(i, _) => *i,
            _ => panic!("not an int receiver: {v:?}"),
        }
    }
    fn text(s: String) -> Result<Value, String> {
        Ok(Value::string(s))
    }
    match (type_name, method) {
        ("main.Str", "String") => Arc::new(|_| text("S!".into())),
        ("main.ErrT", "Error") => Arc::new(|a| match &a[0] {
            Value::Struct(s) => text(format!("E:{}", s.fields[0].as_str().unwrap_or("?"))),
            v => panic!("bad receiver {v:?}"),
        }),
        ("main.ErrT", "String") => Arc::new(|_| text("never".into())),
        ("main.PS", "String") => Arc::new(|_| text("PS!".into())),
        ("main.Panicky", "String") => Arc::new(|_| Err("boom".into())),
        ("main.NilOK", "String") => Arc::new(|a| match &a[0] {
            Value::Pointer(p) if p.target.is_none() => text("nil NilOK".into()),
            _ => text("NilOK".into()),
        }),
        ("main.NamedStringer", "String") => {
            Arc::new(|a| text(format!("NS({})", a[0].as_str().unwrap_or("?"))))
        }
        ("main.I", "String") => Arc::new(|a| text(sprintf("<%d>", &[Value::int(int_of(&a[0]))]))),
        ("main.G", "GoString") => {
            Arc::new(|a| text(sprintf("GoString(%d)", &[Value::int(int_of(&a[0]))])))
        }
        ("main.P", "String") => Arc::new(|_| text("String(p)".into())),
        ("main.Fn", "String") => Arc::new(|_| text("String(fn)".into())),
        ("main.byteStringer", "String") => Arc::new(|_| text("X".into())),
        _ => panic!("no Rust mirror for method {type_name}.{method}"),
    }
}

/// Decodes the table's types and values.
struct Decoder {
    defs: HashMap<String, Json>,
    named: HashMap<String, Type>,
}

impl Decoder {
    fn new(defs: &Json) -> Decoder {
        let defs = defs
            .as_object()
            .expect("types object")
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Decoder {
            defs,
            named: HashMap::new(),
        }
    }

    fn methods(&self, name: &str, ms: &Json) -> Vec<Method> {
        ms.as_array()
            .map(|ms| {
                ms.iter()
                    .map(|m| {
                        let mname = m["name"].as_str().expect("method name");
                        Method {
                            name: mname.to_string(),
                            pointer_receiver: m["ptr"].as_bool().unwrap_or(false),
                            sig: Arc::new(FuncType {
                                params: vec![],
                                variadic: false,
                                results: vec![Type::String],
                            }),
                            imp: method_impl(name, mname),
                        }
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn struct_type(&mut self, j: &Json) -> Type {
        let name = j["name"].as_str().unwrap_or("").to_string();
        let fields = j["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .map(|f| FieldDef::new(f["name"].as_str().expect("field name"), self.ty(&f["type"])))
            .collect();
        let methods = self.methods(&name, &j["methods"]);
        Type::Struct(Arc::new(StructType {
            name,
            fields,
            methods,
        }))
    }

    fn ty(&mut self, j: &Json) -> Type {
        if let Some(s) = j.as_str() {
            return match s {
                "bool" => Type::Bool,
                "int" => Type::Int(IntType::Int),
                "int8" => Type::Int(IntType::I8),
                "int16" => Type::Int(IntType::I16),
                "int32" => Type::Int(IntType::I32),
                "int64" => Type::Int(IntType::I64),
                "uint" => Type::Uint(UintType::Uint),
                "uint8" => Type::Uint(UintType::U8),
                "uint16" => Type::Uint(UintType::U16),
                "uint32" => Type::Uint(UintType::U32),
                "uint64" => Type::Uint(UintType::U64),
                "uintptr" => Type::Uint(UintType::Uintptr),
                "float32" => Type::Float(FloatType::F32),
                "float64" => Type::Float(FloatType::F64),
                "complex64" => Type::Complex(ComplexType::C64),
                "complex128" => Type::Complex(ComplexType::C128),
                "string" => Type::String,
                "interface" => Type::Interface,
                "error" => Type::Error,
                other => panic!("unknown type {other}"),
            };
        }
        if let Some(name) = j.get("ref").and_then(Json::as_str) {
            if let Some(t) = self.named.get(name) {
                return t.clone();
            }
            let def = self.defs.get(name).cloned().expect("type definition");
            let t = self.ty(&def);
            self.named.insert(name.to_string(), t.clone());
            return t;
        }
        let elem = |d: &mut Decoder, key: &str| Arc::new(d.ty(&j[key]));
        match j["k"].as_str().expect("type kind") {
            "slice" => Type::Slice(elem(self, "elem")),
            "array" => Type::Array(j["len"].as_u64().expect("len") as usize, elem(self, "elem")),
            "map" => Type::Map(elem(self, "key"), elem(self, "elem")),
            "ptr" => Type::Pointer(elem(self, "elem")),
            "func" => {
                let list = |d: &mut Decoder, key: &str| -> Vec<Type> {
                    j[key]
                        .as_array()
                        .expect("list")
                        .iter()
                        .map(|t| d.ty(t))
                        .collect()
                };
                Type::Func(Arc::new(FuncType {
                    params: list(self, "params"),
                    variadic: j["variadic"].as_bool().unwrap_or(false),
                    results: list(self, "results"),
                }))
            }
            "struct" => self.struct_type(j),
            "named" => {
                let name = j["name"].as_str().expect("name").to_string();
                let underlying = self.ty(&j["under"]);
                let methods = self.methods(&name, &j["methods"]);
                Type::Named(Arc::new(NamedType {
                    name,
                    underlying,
                    methods,
                }))
            }
            k => panic!("unknown type kind {k}"),
        }
    }

    fn value(&mut self, j: &Json) -> Value {
        match j["t"].as_str() {
            Some("nil") => return Value::Nil,
            Some("invalid") => return Value::Invalid,
            _ => {}
        }
        let ty = self.ty(&j["t"]);
        self.value_of(&ty, j)
    }

    fn value_of(&mut self, ty: &Type, j: &Json) -> Value {
        let addr = j["addr"]
            .as_str()
            .map(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("addr"))
            .unwrap_or(0);
        let is_nil = j["nil"].as_bool().unwrap_or(false);
        let items = |d: &mut Decoder| -> Vec<Value> {
            j["v"]
                .as_array()
                .expect("items")
                .iter()
                .map(|v| d.value(v))
                .collect()
        };
        match ty {
            Type::Named(nt) => Value::Named(nt.clone(), Box::new(self.value_of(&nt.underlying, j))),
            Type::Bool => Value::Bool(j["v"].as_bool().expect("bool")),
            Type::Int(t) => Value::Int(j["v"].as_i64().expect("int"), *t),
            Type::Uint(t) => Value::Uint(j["v"].as_u64().expect("uint"), *t),
            Type::Float(t) => Value::Float(float(&j["v"]), *t),
            Type::Complex(t) => Value::Complex(float(&j["re"]), float(&j["im"]), *t),
            Type::String => Value::string(j["v"].as_str().expect("string")),
            Type::Slice(_) | Type::Array(..) => {
                let items = items(self);
                let len = items.len();
                Value::Slice(Arc::new(Slice {
                    ty: ty.clone(),
                    backing: Arc::new(items),
                    start: 0,
                    len,
                    cap: len,
                    is_nil,
                    addr,
                }))
            }
            Type::Map(..) => {
                let mut entries: Vec<(Value, Value)> = j["v"]
                    .as_array()
                    .expect("entries")
                    .iter()
                    .map(|e| (self.value(&e[0]), self.value(&e[1])))
                    .collect();
                entries.sort_by(|a, b| compare_keys(&a.0, &b.0));
                Value::Map(Arc::new(Map {
                    ty: ty.clone(),
                    entries,
                    is_nil,
                    addr,
                }))
            }
            Type::Struct(st) => Value::Struct(Arc::new(Struct {
                ty: st.clone(),
                fields: items(self),
            })),
            Type::Pointer(_) => {
                let target = if j["v"].is_null() {
                    None
                } else {
                    Some(self.value(&j["v"]))
                };
                Value::Pointer(Arc::new(Pointer {
                    ty: ty.clone(),
                    target,
                    addr,
                }))
            }
            Type::Func(sig) => Value::Func(Arc::new(Function {
                name: String::new(),
                sig: sig.clone(),
                imp: Arc::new(|_| Err("not callable".into())),
                addr,
            })),
            t => panic!("no values of type {t}"),
        }
    }
}

fn float(j: &Json) -> f64 {
    match j.as_str().expect("float string") {
        "NaN" => f64::NAN,
        "+Inf" => f64::INFINITY,
        "-Inf" => f64::NEG_INFINITY,
        s => s.parse().expect("float"),
    }
}

/// Runs the table; `GOFMT_JSONL=path` runs another one instead (such as the
/// output of `go run ./tools/gofmt-cases -fuzz 100000`).
#[test]
fn matches_go() {
    let table = match std::env::var("GOFMT_JSONL") {
        Ok(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
        Err(_) => TABLE.to_string(),
    };
    let mut lines = table.lines();
    let header: Json = serde_json::from_str(lines.next().expect("header")).expect("header JSON");
    let mut dec = Decoder::new(&header["types"]);
    let mut total = 0;
    let mut failures = Vec::new();
    for line in lines {
        let case: Json = serde_json::from_str(line).expect("case JSON");
        let args: Vec<Value> = case["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(|a| dec.value(a))
            .collect();
        let format = case["format"].as_str().unwrap_or("");
        let fn_name = case["fn"].as_str().unwrap_or("sprintf");
        let got = match fn_name {
            "sprint" => sprint(&args),
            "sprintln" => sprintln(&args),
            _ => sprintf(format, &args),
        };
        let expect = case["expect"].as_str().expect("expect");
        total += 1;
        if got != expect {
            failures.push(format!(
                "{fn_name}({format:?}, {}):\n   got {got:?}\n  want {expect:?}",
                case["args"]
            ));
        }
    }
    for f in failures.iter().take(60) {
        eprintln!("{f}");
    }
    eprintln!(
        "{} of {total} cases match Go ({} failures)",
        total - failures.len(),
        failures.len()
    );
    assert!(total >= 1000, "too few cases: {total}");
    assert!(
        failures.is_empty(),
        "{} cases differ from Go",
        failures.len()
    );
}
