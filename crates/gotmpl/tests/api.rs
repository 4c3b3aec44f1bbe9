//! The embedding API: limits, options, functions and methods.

use std::sync::Arc;

use gotmpl::value::{FieldDef, FuncType, Method, StructType};
use gotmpl::{ErrorKind, Limits, Template, Type, Value};

fn data(json: &str) -> Value {
    Value::from_json(json).unwrap()
}

#[test]
fn runaway_range_stops_at_the_step_budget() {
    let t = Template::new("t")
        .limits(Limits {
            max_steps: 10_000,
            ..Limits::default()
        })
        .parse("{{range 100000000000}}x{{end}}")
        .unwrap();
    let err = t.execute(&Value::Invalid).unwrap_err();
    assert_eq!(err.error.kind, ErrorKind::Limit);
    assert!(
        err.to_string()
            .starts_with("template: t:1:22: executing \"t\" at <x>: "),
        "{err}"
    );
    assert!(err.to_string().contains("10000 steps"), "{err}");
    assert!(err.partial.len() < 10_000 && err.partial.bytes().all(|b| b == b'x'));
}

#[test]
fn default_limits_stop_an_endless_range_quickly() {
    let t = Template::parse("t", "{{range 100000000000}}{{end}}").unwrap();
    let start = std::time::Instant::now();
    let err = t.execute(&Value::Invalid).unwrap_err();
    assert_eq!(err.error.kind, ErrorKind::Limit);
    // Not a timing assertion on speed: only that it terminates at all.
    assert!(start.elapsed().as_secs() < 60);
}

#[test]
fn output_budget() {
    let t = Template::new("t")
        .limits(Limits {
            max_output: 1000,
            ..Limits::default()
        })
        .parse("{{range 2000}}ab{{end}}")
        .unwrap();
    let err = t.execute(&Value::Invalid).unwrap_err();
    assert_eq!(err.error.kind, ErrorKind::Limit);
    assert_eq!(err.partial.len(), 1000);
    assert!(
        err.to_string().contains("output exceeds 1000 bytes"),
        "{err}"
    );
}

#[test]
fn depth_limit_is_configurable() {
    let t = Template::new("t")
        .limits(Limits {
            max_depth: 50,
            ..Limits::default()
        })
        .parse(r#"{{define "r"}}.{{template "r"}}{{end}}{{template "r"}}"#)
        .unwrap();
    let err = t.execute(&Value::Invalid).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"template: t:1:26: executing "r" at <{{template "r"}}>: exceeded maximum template depth (50)"#
    );
    assert_eq!(err.partial, ".".repeat(50));
}

#[test]
fn options_and_delims() {
    let d = data(r#"{"a": 1}"#);
    let t = Template::new("t")
        .option("missingkey=error")
        .unwrap()
        .parse("{{.b}}")
        .unwrap();
    assert_eq!(
        t.execute(&d).unwrap_err().to_string(),
        r#"template: t:1:2: executing "t" at <.b>: map has no entry for key "b""#
    );
    assert_eq!(
        Template::new("t")
            .option("missingkey=bogus")
            .unwrap_err()
            .to_string(),
        "unrecognized option: missingkey=bogus"
    );
    let t = Template::new("t")
        .delims("<<", ">>")
        .parse("<<.a>> {{.a}}")
        .unwrap();
    assert_eq!(t.execute(&d).unwrap(), "1 {{.a}}");
}

#[test]
fn lookup_and_execute_template() {
    let t = Template::parse("t", r#"{{define "x"}}X{{.}}{{end}}T"#).unwrap();
    assert_eq!(t.template_names(), vec!["t", "x"]);
    assert_eq!(t.execute_template("x", &Value::string("!")).unwrap(), "X!");
    assert_eq!(
        t.execute_template("y", &Value::Invalid)
            .unwrap_err()
            .to_string(),
        r#"template: no template "y" associated with template "t""#
    );
    assert!(t.lookup("x").is_some() && t.lookup("nope").is_none());
}

#[test]
fn embedder_functions() {
    let upper = Arc::new(|args: &[Value]| -> Result<Value, String> {
        Ok(Value::string(args[0].as_str().unwrap_or("").to_uppercase()))
    });
    let fails = Arc::new(|_: &[Value]| -> Result<Value, String> { Err("boom".into()) });
    let t = Template::new("t")
        .func(
            "upper",
            FuncType {
                params: vec![Type::String],
                variadic: false,
                results: vec![Type::String],
            },
            upper,
        )
        .func(
            "fails",
            FuncType {
                params: vec![],
                variadic: false,
                results: vec![Type::String, Type::Error],
            },
            fails,
        )
        .parse("{{upper .s}} {{.s | upper}} {{upper .n}}")
        .unwrap();
    let err = t.execute(&data(r#"{"s": "go", "n": 1}"#)).unwrap_err();
    assert_eq!(err.partial, "GO GO ");
    assert_eq!(
        err.to_string(),
        r#"template: t:1:36: executing "t" at <.n>: wrong type for value; expected string; got float64"#
    );
    let t2 = Template::new("t")
        .func(
            "fails",
            FuncType {
                params: vec![],
                variadic: false,
                results: vec![Type::String, Type::Error],
            },
            Arc::new(|_: &[Value]| -> Result<Value, String> { Err("boom".into()) }),
        )
        .parse("a{{fails}}")
        .unwrap();
    assert_eq!(
        t2.execute(&Value::Invalid).unwrap_err().to_string(),
        r#"template: t:1:3: executing "t" at <fails>: error calling fails: boom"#
    );
    assert_eq!(
        Template::parse("t", "{{nope 1}}").unwrap_err().to_string(),
        r#"template: t:1: function "nope" not defined"#
    );
}

fn person_type() -> Arc<StructType> {
    let greet = Method {
        name: "Greet".into(),
        pointer_receiver: false,
        sig: Arc::new(FuncType {
            params: vec![Type::String],
            variadic: false,
            results: vec![Type::String],
        }),
        imp: Arc::new(|args: &[Value]| {
            let Value::Struct(s) = &args[0] else {
                return Err("bad receiver".into());
            };
            Ok(Value::string(format!(
                "{}, {}",
                args[1].as_str().unwrap_or(""),
                s.fields[0].as_str().unwrap_or("")
            )))
        }),
    };
    Arc::new(StructType {
        name: "main.Person".into(),
        fields: vec![
            FieldDef::new("Name", Type::String),
            FieldDef::new("age", Type::Int(gotmpl::value::IntType::Int)),
        ],
        methods: vec![greet],
    })
}

#[test]
fn structs_fields_and_methods() {
    let p = Value::new_struct(person_type(), vec![Value::string("Ann"), Value::int(31)]);
    let t = Template::parse("t", r#"{{.Name}} {{.Greet "hi"}} {{.age}}"#).unwrap();
    let err = t.execute(&p).unwrap_err();
    assert_eq!(err.partial, "Ann hi, Ann ");
    assert_eq!(
        err.to_string(),
        r#"template: t:1:28: executing "t" at <.age>: age is an unexported field of struct type main.Person"#
    );
    let ptr = Value::pointer_to(p);
    let t = Template::parse("t", "{{.Name}} {{.Nope}}").unwrap();
    assert_eq!(
        t.execute(&ptr).unwrap_err().to_string(),
        r#"template: t:1:12: executing "t" at <.Nope>: can't evaluate field Nope in type *main.Person"#
    );
}

/// Inputs that once crashed the fuzzer (`fuzz/`): each must parse or fail
/// cleanly, never panic.
#[test]
fn fuzz_regressions() {
    let dir = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/fuzz-regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        let template = text.split('\0').next().unwrap_or("");
        if let Ok(t) = Template::new("t")
            .limits(Limits {
                max_steps: 100_000,
                ..Limits::default()
            })
            .parse(template)
        {
            let _ = t.execute(&data(r#"{"s":"x","l":[1,2]}"#));
        }
        n += 1;
    }
    assert!(n > 0);
}
