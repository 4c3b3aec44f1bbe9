//! Decoding arbitrary JSON data the way encoding/json does, then printing it.
#![no_main]

use gotmpl::{Template, Value};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else { return };
    if let Ok(v) = Value::from_json(text) {
        let t = Template::parse("t", "{{.}} {{printf \"%#v %+v %T %q %x\" . . . . .}} {{range $k, $v := .}}{{$k}}={{$v}}{{end}}")
            .expect("fixed template parses");
        let _ = t.execute(&v);
    }
});
