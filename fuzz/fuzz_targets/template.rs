//! Parse and execute arbitrary templates on fixed or fuzzed JSON data.
//! Input: template source, optionally followed by a NUL byte and JSON data.
#![no_main]

use gotmpl::{Limits, Template, Value};
use libfuzzer_sys::fuzz_target;

const DATA: &str = r#"{"s":"hello","n":3,"f":2.5,"t":true,"nul":null,"l":[1,"two",3.5,null,true],
"m":{"a":1,"b":{"c":[1,2]}},"Messages":[{"Role":"user","Content":"hi"}]}"#;

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else { return };
    let (template, data) = match text.split_once('\0') {
        Some((t, d)) => (t, d),
        None => (text, DATA),
    };
    let data = Value::from_json(data).unwrap_or(Value::Invalid);
    let limits = Limits { max_depth: 200, max_steps: 200_000, max_output: 1 << 20 };
    for opt in ["missingkey=default", "missingkey=zero", "missingkey=error"] {
        let Ok(builder) = Template::new("t").limits(limits).option(opt) else { return };
        if let Ok(t) = builder.parse(template) {
            let _ = t.execute(&data);
            for name in t.template_names() {
                let _ = t.execute_template(&name, &data);
            }
        }
    }
});
