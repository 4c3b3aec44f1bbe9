//! Unit tests of the printer on hand-picked cases (the full differential
//! suite against Go is `tests/gofmt_go.rs`).

use super::{sprint, sprintf, sprintln};
use crate::value::Value;

#[test]
fn basics() {
    let args = [Value::int(5), Value::string("hi")];
    assert_eq!(sprintf("%d %s", &args), "5 hi");
    assert_eq!(sprintf("%d", &[Value::string("hi")]), "%!d(string=hi)");
    assert_eq!(sprintf("%d %d", &[Value::int(1)]), "1 %!d(MISSING)");
    assert_eq!(sprintf("%d", &args), "5%!(EXTRA string=hi)");
    assert_eq!(
        sprintf("%v %d", &[Value::Nil, Value::Nil]),
        "<nil> %!d(<nil>)"
    );
    assert_eq!(
        sprint(&[
            Value::int(1),
            Value::int(2),
            Value::string("a"),
            Value::int(3)
        ]),
        "1 2a3"
    );
    assert_eq!(sprintln(&[Value::int(1), Value::string("a")]), "1 a\n");
    assert_eq!(sprint(&[Value::Invalid]), "<invalid reflect.Value>");
}

#[test]
fn malformed_formats_do_not_panic() {
    let args = [Value::int(1), Value::string("x"), Value::float(2.5)];
    for f in [
        "%",
        "%[",
        "%[]",
        "%[99]d",
        "%-+# 0*.*[3]d",
        "%.",
        "%[1",
        "%[0]d",
        "%*[2]d",
        "%.*[",
        "%!",
        "%[-1]d",
        "%[3]*.[2]*[1]f",
        "%9999999999d",
        "%.9999999999f",
        "%*d",
        "%.*d",
        "%[2]*d",
        "%\u{1F600}",
        "%☠",
        "%-",
        "%#",
        "%x%",
        "%[1]",
        "%.[2]",
        "%1000000d",
        "%.1000001d",
    ] {
        let _ = sprintf(f, &args);
        let _ = sprintf(f, &[]);
    }
    assert_eq!(sprintf("%", &[]), "%!(NOVERB)");
    assert_eq!(sprintf("%[99]d", &args), "%!d(BADINDEX)");
    assert_eq!(sprintf("%!", &[]), "%!!(MISSING)");
}

#[test]
fn odd_values_do_not_panic() {
    use crate::value::{NamedType, Pointer, Type};
    use std::sync::Arc;
    let named = Arc::new(NamedType {
        name: "main.P".into(),
        underlying: Type::Pointer(Arc::new(Type::Interface)),
        methods: vec![],
    });
    let ptr_to_nil = Value::Pointer(Arc::new(Pointer {
        ty: Type::Pointer(Arc::new(Type::Interface)),
        target: Some(Value::Nil),
        addr: 0xc000012345,
    }));
    let values = [
        Value::slice(Type::Interface, vec![Value::Invalid, Value::Nil]),
        Value::map(
            Type::String,
            Type::Error,
            vec![(Value::string("k"), Value::Invalid)],
        ),
        ptr_to_nil.clone(),
        Value::Named(named.clone(), Box::new(ptr_to_nil)),
        Value::Named(named, Box::new(Value::Invalid)),
        Value::pointer_to(Value::Invalid),
        Value::pointer_to(Value::pointer_to(Value::int(1))),
        Type::Array(2, Arc::new(Type::Uint(crate::value::UintType::U8))).zero(),
        Type::Func(Arc::new(crate::value::FuncType {
            params: vec![],
            variadic: true,
            results: vec![],
        }))
        .zero(),
    ];
    for v in &values {
        for verb in "vdsqxXeEfFgGtboOcUpTw%z☠".chars() {
            for flags in ["", "#", "+", "-", " ", "0", "#+- 0"] {
                for size in ["", "5", ".2", "8.3"] {
                    let f = format!("%{flags}{size}{verb}");
                    let _ = sprintf(&f, std::slice::from_ref(v));
                }
            }
        }
        let _ = sprint(std::slice::from_ref(v));
    }
    assert_eq!(sprintf("%v", &values[..1]), "[<nil> <nil>]");
    assert_eq!(sprintf("%d", &values[..1]), "[%!d(<nil>) <nil>]");
    assert_eq!(
        sprintf("%#v", &values[1..2]),
        r#"map[string]error{"k":<nil>}"#
    );
}
