//! llama.cpp's Jinja engine (crate `jinja`): template source, optionally `\0`
//! and JSON variables; lex, parse, render (llama.cpp's dialect and Jinja2's)
//! and run the capability probes.
//! Any error is fine; a panic, a hang or a stack overflow is not (the fuel,
//! output and depth bounds must stop every runaway template).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (src, vars) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    let Ok(src) = std::str::from_utf8(src) else { return };
    let vars: serde_json::Value = serde_json::from_slice(vars).unwrap_or_else(|_| {
        serde_json::json!({
            "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
            "add_generation_prompt": true, "bos_token": "<s>", "eos_token": "</s>",
        })
    });
    let _ = jinja::render(src, &vars);
    // the Jinja2 dialect (transformers' apply_chat_template) on the same input
    if let Ok(t) = jinja::jinja2::compile(src) {
        let _ = jinja::jinja2::render(&t, &vars, 0);
    }
    if let Ok(program) = jinja::parse(src) {
        let _ = jinja::caps_get(&program);
        let _ = jinja::Runtime::debug_dump_program(&program, src);
    }
});
