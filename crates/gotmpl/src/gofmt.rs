//! INTERIM: minimal printing until the full port lands.
use crate::value::Value;

fn v(x: &Value) -> String {
    match x.underlying() {
        Value::Invalid => "<invalid reflect.Value>".into(),
        Value::Nil => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i, _) => i.to_string(),
        Value::Uint(i, _) => i.to_string(),
        Value::Float(f, _) => {
            let s = format!("{f:e}");
            let (m, e) = s.split_once('e').unwrap();
            let e: i32 = e.parse().unwrap();
            if !(-4..21).contains(&e) {
                format!("{}e{}{:02}", m, if e < 0 { '-' } else { '+' }, e.abs())
            } else {
                format!("{f}")
            }
        }
        Value::String(s) => s.to_string(),
        Value::Slice(s) => format!(
            "[{}]",
            s.items().iter().map(v).collect::<Vec<_>>().join(" ")
        ),
        Value::Map(m) => format!(
            "map[{}]",
            m.entries
                .iter()
                .map(|(a, b)| format!("{}:{}", v(a), v(b)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        other => format!("{other:?}"),
    }
}
/// Sprint.
pub fn sprint(args: &[Value]) -> String {
    let mut out = String::new();
    let mut prev_string = false;
    for (i, a) in args.iter().enumerate() {
        let is_string = matches!(a, Value::String(_));
        if i > 0 && !is_string && !prev_string {
            out.push(' ');
        }
        out.push_str(&v(a));
        prev_string = is_string;
    }
    out
}
/// Sprintln.
pub fn sprintln(args: &[Value]) -> String {
    let mut s = args.iter().map(v).collect::<Vec<_>>().join(" ");
    s.push('\n');
    s
}
/// Sprintf.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    let mut out = String::new();
    let mut it = args.iter();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            match chars.next() {
                Some('%') => out.push('%'),
                Some(_) => out.push_str(&it.next().map(v).unwrap_or_default()),
                None => {}
            }
        } else {
            out.push(c)
        }
    }
    out
}
