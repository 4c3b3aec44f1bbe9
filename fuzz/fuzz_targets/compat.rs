//! A compatibility route's body from arbitrary bytes (`ollama::compat`):
//! the first byte picks the route, the rest (up to a `0xff`) is the body
//! text, and what follows are native response chunks, `0xfe`-separated,
//! fed to the route's writer. Go's scanner (`godecode::check_valid`), the
//! conversion, the render case built from it and the writer must never
//! panic or hang, and a body the scanner accepts must be JSON serde reads
//! (or hold a lone surrogate, which Go reads as U+FFFD).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ollama::compat::exercise(data));
