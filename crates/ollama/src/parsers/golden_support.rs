//! What the golden replays of the parser, harmony and tools modules share:
//! the recorded Go tests (`tests/golden/parsers-tests.jsonl`, whose line
//! format `tests/golden/README.md` describes), read once, and
//! the readers and writers of the recorder's dump format: `func` lines
//! for the unexported helpers the tests call, `parser_methods` lines for
//! parsers driven through unexported methods (the parser's state before
//! and after each call), `$error` results, `{"$type", "value"}` for an
//! `any`; and the driver for the tables of Go traces some modules carry
//! ([`go_traces`]).

use std::sync::LazyLock;

use serde_json::{json, Value as Json};

use crate::api::{Message, Think, Tool, ToolCall};
use crate::godecode::{raw_span, Step};
use crate::parsers::Parser;

/// parsers-tests.jsonl.
pub(crate) const TRACES: &str = include_str!("../../tests/golden/parsers-tests.jsonl");

/// Every line of [`TRACES`] with its value, parsed once.
static LINES: LazyLock<Vec<(&'static str, Json)>> = LazyLock::new(|| {
    TRACES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| (l, serde_json::from_str(l).expect("a golden line is JSON")))
        .collect()
});

/// Every recorded line: (its text, its value).
pub(crate) fn all() -> impl Iterator<Item = (&'static str, &'static Json)> {
    LINES.iter().map(|(l, v)| (*l, v))
}

/// The lines of `kind` recorded from one of `files`: (line, value).
pub(crate) fn lines(kind: &str, files: &[&str]) -> Vec<(&'static str, &'static Json)> {
    all()
        .filter(|(_, v)| v["kind"] == kind && files.iter().any(|f| v["file"].as_str() == Some(f)))
        .collect()
}

/// The raw text of `ret[i]` (of call `call`, if given) in a line: Go's own
/// bytes for a returned value.
pub(crate) fn ret_span(line: &str, call: Option<usize>, i: usize) -> String {
    let mut path = Vec::new();
    if let Some(c) = call {
        path.extend([Step::Key("calls"), Step::Index(c)]);
    }
    path.extend([Step::Key("ret"), Step::Index(i)]);
    raw_span(line, &path).unwrap_or("null").to_string()
}

/// Two JSON texts equal as JSON values.
pub(crate) fn same(a: &str, b: &str) -> bool {
    let p = |s: &str| serde_json::from_str::<Json>(s).ok();
    p(a).is_some() && p(a) == p(b)
}

/// A text that is JSON, as its value (`null` if it is not).
pub(crate) fn parse(s: &str) -> Json {
    serde_json::from_str(s).unwrap_or(Json::Null)
}

/// `[]api.Tool` (Go's JSON) decoded as a request's tools.
pub(crate) fn tools(v: &Json) -> Vec<Tool> {
    init_args(&[v.clone(), Json::Null, Json::Null]).0
}

/// An `Init` call's arguments (tools, last message, think), decoded as a
/// chat request's.
pub(crate) fn init_args(args: &[Json]) -> (Vec<Tool>, Option<Message>, Option<Think>) {
    let arg = |i: usize| args.get(i).cloned().unwrap_or(Json::Null);
    let last = arg(1);
    let body = json!({
        "model": "m",
        "messages": if last.is_null() { json!([]) } else { json!([last]) },
        "tools": arg(0),
        "think": arg(2),
    });
    let req = crate::api::ChatRequest::decode(&body).expect("recorded arguments decode");
    let last = (!last.is_null())
        .then(|| req.messages.into_iter().next())
        .flatten();
    (req.tools.unwrap_or_default(), last, req.think)
}

/// An error result's text (`{"$error": text}`; `None` for nil).
pub(crate) fn err_of(v: &Json) -> Option<String> {
    v.get("$error").and_then(Json::as_str).map(str::to_string)
}

/// A `(api.ToolCall, error)` result as dumped: the call as Go marshals
/// it (the zero call beside an error), and the error.
pub(crate) fn call_result(r: &Result<ToolCall, String>) -> (String, Json) {
    match r {
        Ok(c) => (super::tool_call_json(c).to_json(), Json::Null),
        Err(e) => (
            super::tool_call_json(&ToolCall::default()).to_json(),
            json!({ "$error": e }),
        ),
    }
}

/// A value the recorder dumps at the top of a result (an `any`
/// unwrapped): the value, its array elements and map values as
/// [`dump_iface`] writes them.
pub(crate) fn dump_value(v: &Json) -> Json {
    match v {
        Json::Array(a) => Json::Array(a.iter().map(dump_iface).collect()),
        Json::Object(m) => {
            Json::Object(m.iter().map(|(k, x)| (k.clone(), dump_iface(x))).collect())
        }
        Json::Number(_) => parse(&super::go_any(v).to_json()),
        x => x.clone(),
    }
}

/// An `any` inside a dumped value: `{"$type": its Go type, "value": …}`
/// (`null` for nil). An integer number is an `int64` (what the parsers
/// make of an integer), a float one a `float64` (every number
/// `json.Unmarshal` gives).
pub(crate) fn dump_iface(v: &Json) -> Json {
    let ty = match v {
        Json::Null => return Json::Null,
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_i64() || n.is_u64() => "int64",
        Json::Number(_) => "float64",
        Json::String(_) => "string",
        Json::Array(_) => "[]interface {}",
        Json::Object(_) => "map[string]interface {}",
    };
    json!({"$type": ty, "value": dump_value(v)})
}

/// Whether a recorded Go state is its type's zero value (what `Default`
/// builds here).
pub(crate) fn zero_state(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::Bool(b) => !b,
        Json::Number(n) => n.as_f64() == Some(0.0),
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(m) => m.values().all(zero_state),
    }
}

/// The recorded `ParserForName` calls of `file`, made again: each name
/// builds a parser (`by_name`), of the Go type recorded (`go_type` of the
/// name), in its zero state. The number of calls checked.
pub(crate) fn check_parser_for_name(
    file: &str,
    by_name: fn(&str) -> Option<Box<dyn Parser>>,
    go_type: fn(&str) -> Option<&'static str>,
) -> usize {
    let mut n = 0;
    for (line, t) in lines("func", &[file]) {
        if t["func"] != "ParserForName" {
            continue;
        }
        let name = t["args"][0].as_str().unwrap_or("");
        assert!(by_name(name).is_some(), "{line}");
        assert_eq!(go_type(name), t["ret"][0]["$type"].as_str(), "{line}");
        assert!(zero_state(&t["ret"][0]["state"]), "{line}");
        n += 1;
    }
    eprintln!("{file}: {n} recorded ParserForName calls equal");
    n
}

/// Replaying tables of recorded Go traces, `(case, Go's answer)` (the
/// GLM, LFM2 and Nemotron modules' tests).
pub(crate) mod go_traces {
    use serde_json::Value as Json;

    use crate::api::{Message, Think, Tool};
    use crate::gojson::J;

    /// A case's `tools`, `last` and `think`, decoded as a chat request's.
    pub(crate) fn request(c: &Json) -> (Vec<Tool>, Option<Message>, Option<Think>) {
        super::init_args(&[c["tools"].clone(), c["last"].clone(), c["think"].clone()])
    }

    /// A `[]string` as Go marshals it (`null` when nil, i.e. empty here).
    pub(crate) fn strs(v: &[String]) -> J {
        if v.is_empty() {
            J::Null
        } else {
            J::Arr(v.iter().map(J::s).collect())
        }
    }

    /// `{"err": e, "id": id}`.
    pub(crate) fn err(c: &Json, e: String) -> J {
        J::Obj(vec![("err".into(), J::s(e)), ("id".into(), id(c))])
    }

    /// The case's id.
    pub(crate) fn id(c: &Json) -> J {
        J::s(c["id"].as_str().unwrap_or(""))
    }

    /// A parser case (`type`, `config`, `chunks`): `Init`, then `Add` for
    /// each chunk, written as the Go driver writes it.
    fn replay(c: &Json) -> J {
        let config = c["config"].as_object().cloned().unwrap_or_default();
        let ty = c["type"].as_str().unwrap_or("");
        let mut p = crate::parsers::for_go_type(ty, &config).expect("a parser for the type");
        let (tools, last, think) = request(c);
        p.init(&tools, last.as_ref(), think.as_ref());
        let mut steps = Vec::new();
        for ch in c["chunks"].as_array().into_iter().flatten() {
            let got = p.add(
                ch["s"].as_str().unwrap_or(""),
                ch["done"].as_bool().unwrap_or(false),
            );
            // On an error Go's handlers drop the other results; the driver
            // wrote them anyway, and only the thinking can be non-empty.
            let (calls, content, err, thinking) = match got {
                Ok(a) => (
                    crate::parsers::tool_calls_json(&a.calls),
                    a.content,
                    J::Null,
                    a.thinking,
                ),
                Err(e) => ("null".into(), String::new(), J::s(e), String::new()),
            };
            steps.push(J::Obj(vec![
                ("calls".into(), J::Raw(calls)),
                ("content".into(), J::s(content)),
                ("err".into(), err),
                ("thinking".into(), J::s(thinking)),
            ]));
        }
        J::Obj(vec![("id".into(), id(c)), ("steps".into(), J::Arr(steps))])
    }

    /// Replays every `(case, Go's answer)` pair: parser cases here, the
    /// rest (`fn`: a helper function) through `helper`.
    pub(crate) fn check(traces: &[(&str, &str)], helper: impl Fn(&Json) -> J) {
        let mut bad = Vec::new();
        for (case, want) in traces {
            let c: Json = serde_json::from_str(case).expect("a case is JSON");
            let got = if c.get("fn").is_some() {
                helper(&c)
            } else {
                replay(&c)
            }
            .to_json();
            // Go's driver writes the thinking beside an error; the Rust
            // parser's error carries only its text.
            let want = want.to_string();
            if got != want && !(want.contains(r#""err":"#) && thinking_only_differs(&want, &got)) {
                bad.push(format!("{}\n  want {want}\n  got  {got}", c["id"]));
            }
        }
        assert!(
            bad.is_empty(),
            "{} of {} differ:\n{}",
            bad.len(),
            traces.len(),
            bad.join("\n")
        );
    }

    /// Whether two driver lines differ only in the thinking of steps that
    /// returned an error.
    fn thinking_only_differs(want: &str, got: &str) -> bool {
        let (Ok(mut w), Ok(g)) = (
            serde_json::from_str::<Json>(want),
            serde_json::from_str::<Json>(got),
        ) else {
            return false;
        };
        for step in w["steps"].as_array_mut().into_iter().flatten() {
            if !step["err"].is_null() {
                step["thinking"] = Json::String(String::new());
            }
        }
        w == g
    }
}
