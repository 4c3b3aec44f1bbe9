//! The C++-API tests of llama.cpp's `tests/test-jinja.cpp` that are not plain
//! render checks (`test_hasher`, `test_stats`, `test_caps`,
//! `test_string_parts`, the no-crash loops of `test_fuzzing`), and tests of
//! our bounds (fuel, output cap, depth limits on a 1 MiB stack).

use jinja::{
    caps_get, gather_string_parts, global_from_json, parse_from_tokens, Context, ErrorKind, Hasher,
    JString, Lexer, Runtime, Value,
};
use serde_json::json;

// ---- test_hasher ----

/// A small deterministic generator (the C++ uses `rand()`).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

const CHUNK_SIZES: &[(usize, usize)] = &[
    (1, 2),
    (1, 16),
    (8, 1),
    (1, 1024),
    (5, 512),
    (16, 256),
    (45, 122),
    (70, 634),
];

fn hash(data: &[&[u8]]) -> u64 {
    let mut h = Hasher::new();
    for d in data {
        h.update(d);
    }
    h.digest()
}

#[test]
fn hasher_state_unchanged_with_empty_input() {
    let mut h = Hasher::new();
    h.update(b"some data");
    let a = h.digest();
    h.update(b"");
    assert_eq!(a, h.digest());
}

#[test]
fn hasher_different_and_same_inputs() {
    assert_ne!(hash(&[b"data one"]), hash(&[b"data two"]));
    assert_eq!(hash(&[b"consistent data"]), hash(&[b"consistent data"]));
}

#[test]
fn hasher_streaming_property() {
    let mut rng = Rng(1);
    for &(a, b) in CHUNK_SIZES {
        let d1 = rng.bytes(a);
        let d2 = rng.bytes(b);
        let joined = [d1.clone(), d2.clone()].concat();
        assert_eq!(hash(&[&d1, &d2]), hash(&[&joined]), "({a}, {b})");
    }
    let sizes = [3, 732, 131, 13, 17, 256, 436, 99, 4];
    let chunks: Vec<Vec<u8>> = sizes.iter().map(|&n| rng.bytes(n)).collect();
    let refs: Vec<&[u8]> = chunks.iter().map(|c| c.as_slice()).collect();
    assert_eq!(hash(&refs), hash(&[&chunks.concat()]));
}

#[test]
fn hasher_non_associative_and_length_sensitive() {
    let mut rng = Rng(2);
    for &(a, b) in CHUNK_SIZES {
        let d1 = rng.bytes(a);
        let d2 = rng.bytes(b);
        assert_ne!(hash(&[&d1, &d2]), hash(&[&d2, &d1]), "({a}, {b})");
    }
    let mut data = rng.bytes(64);
    let mut h1 = hash(&[&data]);
    for _ in 0..16 {
        data.push(b'A');
        let h2 = hash(&[&data]);
        assert_ne!(h1, h2, "length {}", data.len());
        h1 = h2;
    }
}

// ---- test_stats ----

fn get_stats(tmpl: &str, vars: serde_json::Value) -> Value {
    let lr = Lexer::new().tokenize(tmpl).unwrap();
    let prog = parse_from_tokens(&lr).unwrap();
    let mut ctx = Context::new(tmpl);
    global_from_json(&mut ctx, &json!({ "val": vars }), true).unwrap();
    ctx.is_get_stats = true;
    Runtime::new(&ctx).execute(&prog).unwrap();
    ctx.get_val("val")
}

#[test]
fn stats() {
    let val = get_stats(
        "{{val.num}} {{val.str}} {{val.arr[0]}} {{val.obj.key1}} {{val.nested | tojson}}",
        json!({
            "num": 1,
            "str": "abc",
            "arr": [1, 2, 3],
            "obj": {"key1": 1, "key2": 2, "key3": 3},
            "nested": {"inner_key1": [1, 2], "inner_key2": {"a": "x", "b": "y"}},
            "mixed": {"used": 1, "unused": 2},
        }),
    );
    let at = |v: &Value, k: &str| v.at_str(k).unwrap();
    assert!(at(&val, "num").stats().used, "num is used");
    assert!(at(&val, "str").stats().used, "str is used");
    assert!(at(&val, "arr").stats().used, "arr is used");
    assert!(
        at(&val, "arr").at_index(0).unwrap().stats().used,
        "arr[0] is used"
    );
    assert!(
        !at(&val, "arr").at_index(1).unwrap().stats().used,
        "arr[1] is not used"
    );
    assert!(at(&val, "obj").stats().used, "obj is used");
    assert!(
        at(&at(&val, "obj"), "key1").stats().used,
        "obj.key1 is used"
    );
    assert!(
        !at(&at(&val, "obj"), "key2").stats().used,
        "obj.key2 is not used"
    );
    assert!(
        at(&at(&val, "nested"), "inner_key1")
            .at_index(0)
            .unwrap()
            .stats()
            .used,
        "inner_key1[0] is used"
    );
    assert!(
        at(&at(&at(&val, "nested"), "inner_key2"), "a").stats().used,
        "inner_key2.a is used"
    );
}

// ---- test_caps ----

fn get_caps(tmpl: &str) -> jinja::Caps {
    caps_get(&parse_from_tokens(&Lexer::new().tokenize(tmpl).unwrap()).unwrap()).unwrap()
}

#[test]
fn caps_string_content() {
    let caps = get_caps("{% for message in messages %}{{ message['role'] + ': ' + message['content'] }}{% endfor %}");
    assert!(caps.supports_string_content);
    assert!(!caps.supports_typed_content);
}

#[test]
fn caps_typed_content_raises_on_string() {
    let caps = get_caps(
        "{% for message in messages %}\
         {% for content in message['content'] | selectattr('type', 'equalto', 'text') %}\
         {{ content['text'] }}{% endfor %}{% endfor %}",
    );
    assert!(!caps.supports_string_content);
    assert!(caps.supports_typed_content);
}

#[test]
fn caps_typed_content_silently_drops_string() {
    let caps =
        get_caps("{% for message in messages %}{{ message['content'][0]['text'] }}{% endfor %}");
    assert!(!caps.supports_string_content);
    assert!(caps.supports_typed_content);
}

#[test]
fn caps_other_fields() {
    let caps = get_caps(
        "{% for m in messages %}{{ m.role }}{{ m.content }}{% if m.reasoning_content %}{{ m.reasoning_content }}{% endif %}\
         {% for tc in m.tool_calls or [] %}{{ tc.function.name }}{{ tc.function.arguments | tojson }}{% endfor %}{% endfor %}\
         {% for t in tools %}{{ t.function.name }}{% endfor %}{{ reasoning_effort }}",
    );
    assert!(caps.supports_tools && caps.supports_tool_calls && caps.supports_parallel_tool_calls);
    assert!(caps.supports_system_role);
    assert!(caps.supports_object_arguments);
    assert!(caps.supports_preserve_reasoning);
    assert!(caps.supports_reasoning_effort);
    let none = get_caps(
        "{% for m in messages %}{% if m.role == 'user' %}{{ m.content }}{% endif %}{% endfor %}",
    );
    assert!(!none.supports_system_role && !none.supports_tools && !none.supports_tool_calls);
    assert!(!none.supports_preserve_reasoning && !none.supports_reasoning_effort);
    assert_eq!(
        none.to_string().lines().next(),
        Some("Caps("),
        "to_string starts like the C++ one"
    );
}

// ---- test_string_parts ----

fn render_parts(tmpl: &str, vars: serde_json::Value) -> JString {
    let prog = parse_from_tokens(&Lexer::new().tokenize(tmpl).unwrap()).unwrap();
    let mut ctx = Context::new(tmpl);
    global_from_json(&mut ctx, &vars, true).unwrap();
    gather_string_parts(&Runtime::new(&ctx).execute(&prog).unwrap()).unwrap()
}

#[test]
fn string_parts_merge_only_neighbours_with_same_type() {
    let res = render_parts(
        "{{ val.a }}{{ val.b }}-{{ val.c }}",
        json!({"val": {"a": "A", "b": "B", "c": "C"}}),
    );
    assert_eq!(res.parts.len(), 3, "parts: {:?}", res.parts);
    assert!(res.parts[0].val == b"AB" && res.parts[0].is_input);
    assert!(res.parts[1].val == b"-" && !res.parts[1].is_input);
    assert!(res.parts[2].val == b"C" && res.parts[2].is_input);
}

#[test]
fn string_parts_transformations_keep_marks() {
    // one-to-one keeps the mark; split marks the last piece only when the input is all input
    let res = render_parts(
        "<{{ s | upper }}>{{ (s ~ '!') }}{{ s.split(',')[1] }}",
        json!({"s": "a,b"}),
    );
    let text: Vec<(String, bool)> = res.parts.iter().map(|p| (p.text(), p.is_input)).collect();
    assert_eq!(
        text,
        vec![
            ("<".into(), false),
            ("A,B".into(), true),
            (">".into(), false),
            ("a,b".into(), true),
            ("!".into(), false),
            ("b".into(), true)
        ]
    );
}

// ---- test_fuzzing: no panics ----

fn fuzz(tmpl: &str, vars: &serde_json::Value) {
    // any result is fine, a panic is not
    let _ = jinja::render(tmpl, vars);
}

fn random_string(rng: &mut Rng, max_len: u64) -> String {
    const CHARSET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    let len = rng.below(max_len + 1);
    (0..len)
        .map(|_| CHARSET[rng.below(CHARSET.len() as u64) as usize] as char)
        .collect()
}

const VAR_NAMES: &[&str] = &[
    "x",
    "y",
    "z",
    "arr",
    "obj",
    "items",
    "foo",
    "bar",
    "undefined_var",
    "none",
    "true",
    "false",
    "None",
    "True",
    "False",
];
const FILTERS: &[&str] = &[
    "length", "first", "last", "reverse", "sort", "unique", "join", "upper", "lower", "trim",
    "default", "tojson", "string", "int", "float", "abs", "list", "dictsort",
];
const BUILTINS: &[&str] = &[
    "range",
    "len",
    "dict",
    "list",
    "join",
    "str",
    "int",
    "float",
    "namespace",
];

#[test]
fn fuzzing_no_crash() {
    let mut rng = Rng(42);
    let n = 100;
    let int = |rng: &mut Rng| rng.below(2001) as i64 - 1000;
    for _ in 0..n {
        fuzz(
            &format!("{{{{ arr[{}] }}}}", int(&mut rng)),
            &json!({"arr": [1, 2, 3]}),
        );
        fuzz(
            &format!("{{{{ {} }}}}", random_string(&mut rng, 20)),
            &json!({}),
        );
        let v1 = VAR_NAMES[rng.below(VAR_NAMES.len() as u64) as usize];
        let t = format!(
            "{{{{ {v1}.{}.{} }}}}",
            random_string(&mut rng, 10),
            random_string(&mut rng, 10)
        );
        fuzz(&t, &json!({ v1: {"other": 123} }));
        let f = FILTERS[rng.below(FILTERS.len() as u64) as usize];
        fuzz(&format!("{{{{ {} | {f} }}}}", int(&mut rng)), &json!({}));
        let f2 = FILTERS[rng.below(FILTERS.len() as u64) as usize];
        let v = VAR_NAMES[rng.below(VAR_NAMES.len() as u64) as usize];
        fuzz(
            &format!("{{{{ {v} | {f} | {f2} }}}}"),
            &json!({"x": 42, "y": "hello", "arr": [1, 2, 3], "obj": {"a": 1, "b": 2}, "items": ["a", "b", "c"]}),
        );
        let b = BUILTINS[rng.below(BUILTINS.len() as u64) as usize];
        let arg = match rng.below(4) {
            0 => "\"not a number\"".to_string(),
            1 => "none".to_string(),
            2 => int(&mut rng).to_string(),
            _ => "[]".to_string(),
        };
        fuzz(&format!("{{{{ {b}({arg}) }}}}"), &json!({}));
    }
    for t in [
        "{% macro foo() %}hello{% endmacro %}{{ foo(1, 2, 3) }}",
        "{% macro foo(a, b, c) %}{{ a }}{{ b }}{{ c }}{% endmacro %}{{ foo() }}",
        "{% macro foo(n) %}{% if n > 0 %}{{ foo(n - 1) }}{% endif %}{% endmacro %}{{ foo(5) }}",
        "{% macro outer() %}{% macro inner() %}x{% endmacro %}{{ inner() }}{% endmacro %}{{ outer() }}",
        "{{ \"\" | first }}", "{{ \"\" | last }}", "{{ [] | first }}", "{{ [] | last }}", "{{ none.attr }}",
        "{{ none | length }}", "{{ none | default('fallback') }}", "{{ {} | first }}", "{{ {} | dictsort }}",
        "{{ 1 / 0 }}", "{{ 1 // 0 }}", "{{ 1 % 0 }}", "{{ 999999999999999999 * 999999999999999999 }}",
        "{{ -999999999999999999 - 999999999999999999 }}", "{{ 1.0 / 0.0 }}", "{{ 0.0 / 0.0 }}",
        "{{ \"}{%\" }}", "{{ \"}}{{\" }}", "{{ \"{%%}\" }}", "{{ \"\\n\\t\\r\" }}", "{{ \"'\\\"'\" }}",
        "{{ \"hello\\x00world\" }}", "", "{{ x", "{% if %}", "{% for %}", "{% for x in %}", "{% endfor %}",
        "{% endif %}", "{{ | filter }}", "{% if x %}", "{% for i in x %}", "{{ x | }}", "{% macro %}{% endmacro %}",
        "{{{{", "}}}}", "{%%}", "{% set %}", "{% set x %}", "{{ 2 is divisibleby 0 }}",
        "{% set a = [] %}{{ a.append(a) }}{{ a }}{{ a|tojson }}",
    ] {
        fuzz(t, &json!({}));
    }
    let mut t = "{% for message in messages %}{{ message.role | string }} : {{ message.content if ('content' in message and message.content is not none) }}{% endfor %".to_string();
    while !t.is_empty() {
        fuzz(&t, &json!({}));
        t.pop();
    }
    for depth in 1..=10 {
        let t = format!(
            "{}x{}",
            "{% for i in arr %}".repeat(depth),
            "{% endfor %}".repeat(depth)
        );
        fuzz(&t, &json!({"arr": [1, 2]}));
        let t = format!(
            "{}x{}",
            "{% if true %}".repeat(depth),
            "{% endif %}".repeat(depth)
        );
        fuzz(&t, &json!({}));
    }
    fuzz(
        "{{ data|tojson(ensure_ascii=true) }}",
        &json!({"data": "hello\u{fffd}world"}),
    );
}

#[test]
fn fuzz_builtin_functions() {
    let mut rng = Rng(7);
    let names = jinja::builtins::builtin_names();
    let kwargs = [
        "base",
        "attribute",
        "default",
        "reverse",
        "case_sensitive",
        "by",
        "safe",
        "chars",
        "separators",
        "sort_keys",
        "indent",
        "ensure_ascii",
    ];
    let vars = json!({"x": 42, "y": "hello", "arr": [1, 2, 3], "obj": {"a": 1, "b": 2}});
    for _ in 0..400 {
        let (ty, fns) = &names[rng.below(names.len() as u64) as usize];
        let f = fns[rng.below(fns.len() as u64) as usize];
        let nargs = rng.below(6);
        let mut args = Vec::new();
        for _ in 0..nargs {
            let a = match rng.below(8) {
                0 => (rng.below(2001) as i64 - 1000).to_string(),
                1 => format!("{}.5", rng.below(2001) as i64 - 1000),
                2 => format!("\"{}\"", random_string(&mut rng, 10)),
                3 => "true".into(),
                4 => "false".into(),
                5 => "none".into(),
                6 => "[1, 2, 3]".into(),
                _ => "{\"a\": 1}".into(),
            };
            if rng.below(3) == 0 {
                args.push(format!(
                    "{}={a}",
                    kwargs[rng.below(kwargs.len() as u64) as usize]
                ));
            } else {
                args.push(a);
            }
        }
        let base = match *ty {
            "global" => String::new(),
            "int" => format!("{}.", rng.below(100)),
            "float" => "(1.5).".into(),
            "string" => "\"test_string\".".into(),
            "array" => "[1, 2, 3, \"a\", \"b\"].".into(),
            _ => "{\"x\": 1, \"y\": 2}.".into(),
        };
        fuzz(&format!("{{{{ {base}{f}({}) }}}}", args.join(", ")), &vars);
    }
}

// ---- our bounds ----

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn fuel_stops_doubling_loop() {
    let err = jinja::render(
        "{% set s = 'ab' %}{% for i in range(100) %}{% set s = s ~ s %}{% endfor %}{{ s|length }}",
        &json!({}),
    )
    .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::FuelExhausted | ErrorKind::OutputTooLarge
        ),
        "{err:?}"
    );
    let err = jinja::render("{% for i in range(100000000) %}{% endfor %}", &json!({})).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::FuelExhausted);
    assert!(err.message().contains("budget"), "{}", err.message());
}

#[test]
fn output_cap() {
    let err = jinja::render("{{ 'x' * 100000000 }}", &json!({})).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::OutputTooLarge);
    assert!(err.message().contains("limit"), "{}", err.message());
}

#[test]
fn depth_limits_on_a_1mib_stack() {
    on_small_stack(|| {
        // nested expressions
        for open in ["(", "[", "{'a': ", "not ", "- "] {
            let t = format!("{{{{ {}1 }}}}", open.repeat(5000));
            let err = jinja::render(&t, &json!({})).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::TooDeep, "{open}: {err}");
        }
        // nested blocks
        let t = format!(
            "{}x{}",
            "{% if true %}".repeat(5000),
            "{% endif %}".repeat(5000)
        );
        assert_eq!(
            jinja::render(&t, &json!({})).unwrap_err().kind(),
            ErrorKind::TooDeep
        );
        // chained ternaries
        let t = format!("{{{{ {} 1 }}}}", "1 if false else ".repeat(5000));
        assert_eq!(
            jinja::render(&t, &json!({})).unwrap_err().kind(),
            ErrorKind::TooDeep
        );
        // unbounded recursion
        let t = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
        let err = jinja::render(t, &json!({})).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep, "{err}");
        // a self-containing array printed
        let err = jinja::render(
            "{% set a = [1] %}{% set _ = a.append(a) %}{{ a|string }}",
            &json!({}),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep, "{err}");
        let err = jinja::render(
            "{% set a = [1] %}{% set _ = a.append(a) %}{{ a|tojson }}",
            &json!({}),
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep, "{err}");
        // the deepest the limits allow still runs
        let t = format!("{{{{ {}1{} }}}}", "(".repeat(40), ")".repeat(40));
        assert_eq!(jinja::render(&t, &json!({})).unwrap(), "1");
        let t = "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{% else %}done{% endif %}{% endmacro %}{{ f(30) }}";
        assert_eq!(jinja::render(t, &json!({})).unwrap(), "done");
        // deep JSON input
        let mut v = json!(1);
        for _ in 0..300 {
            v = json!([v]);
        }
        assert_eq!(
            jinja::render("{{ x }}", &json!({ "x": v }))
                .unwrap_err()
                .kind(),
            ErrorKind::TooDeep
        );
        // values nested deeply by the template itself: compared, printed, dropped
        let build = "{% set ns = namespace(t=(1, 2), a=[]) %}{% for i in range(20000) %}\
                     {% set ns.t = (ns.t, 1) %}{% set ns.a = [ns.a] %}{% endfor %}";
        let err = jinja::render(&format!("{build}{{{{ {{ns.t: 1}} }}}}"), &json!({})).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Runtime, "{err}");
        assert_eq!(
            jinja::render(
                &format!("{build}{{{{ ns.t == ns.t }}}}{{{{ ns.a == ns.a }}}}"),
                &json!({})
            )
            .unwrap(),
            "FalseFalse"
        );
        let err = jinja::render(&format!("{build}{{{{ ns.a }}}}"), &json!({})).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep, "{err}");
    });
}

#[test]
fn model_templates_on_a_1mib_stack() {
    on_small_stack(|| {
        let dir = testkit::llama_cpp("models/templates");
        for e in std::fs::read_dir(dir).unwrap() {
            let src = std::fs::read_to_string(e.unwrap().path()).unwrap();
            let prog = jinja::parse(&src).unwrap();
            let _ = caps_get(&prog).unwrap();
        }
    });
}

#[test]
fn strftime_utc() {
    use jinja::time::strftime;
    // 2021-01-01 00:00:00 UTC, a Friday in ISO week 2020-W53
    assert_eq!(
        strftime(b"%Y-%m-%d %a %j %G-W%V %u", 1609459200),
        b"2021-01-01 Fri 001 2020-W53 5"
    );
    // 2024-12-30, a Monday in ISO week 2025-W01
    assert_eq!(
        strftime(b"%d %b %Y %G-W%V %A", 1735516800),
        b"30 Dec 2024 2025-W01 Monday"
    );
    assert_eq!(
        strftime(b"%H:%M:%S %p %I %s %Z", 1735516800 + 13 * 3600 + 5),
        b"13:00:05 PM 01 1735563605 UTC"
    );
}
