//! A model's output through Ollama's parsers and the handler loop
//! (`ollama::answer`): arbitrary bytes pick the parser, the endpoint, the
//! tools, think and the prefill, and give the output and its pieces. The
//! parsers read untrusted text: no input may panic or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ollama::answer::exercise(data));
