//! The Modelfile parser on arbitrary bytes (`crates/store`): no panic, no
//! hang; a parsed file has a FROM, and its `String()` form parses again to
//! a file with as many commands wherever Ollama can write it back: no
//! quotes, line ends, comments or edge spaces in an argument, and every
//! `message` (a PARAMETER may be named `message`) in `role: text` form.
//! What `ollama create` would write for it (`store::layout::plan`, FROM a
//! cloud model: no files) is a manifest that parses, or Ollama's error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use store::modelfile::parse;

fuzz_target!(|data: &[u8]| {
    match parse(data) {
        Ok(f) => {
            assert!(f.commands.iter().any(|c| c.name == "model"));
            if let Ok(req) = f.create_request() {
                let name = ollama::model::Name::parse("fuzz");
                let source = store::layout::Source::Remote {
                    host: "https://ollama.com:443".into(),
                    model: "m:1b".into(),
                };
                if let Ok(plan) = store::layout::plan(&name, &req, source, Vec::new(), None) {
                    store::manifest::parse(&plan.manifest).expect("the manifest parses");
                    assert!(plan.blobs.iter().all(|(_, b)| b.is_some()));
                }
            }
            let text = f.to_string();
            let writable = f.commands.iter().all(|c| {
                !c.args.contains('"') && !c.args.contains('\r') && !c.args.contains('\n')
                    && !c.args.contains('#') && c.args.trim() == c.args && !c.args.is_empty()
                    && !c.name.is_empty()
                    && (c.name != "message"
                        || c.args.split_once(": ").is_some_and(|(r, m)| {
                            ["system", "user", "assistant"].contains(&r) && !m.is_empty()
                        }))
            });
            if writable {
                let again = parse(text.as_bytes()).expect("String() parses");
                assert_eq!(again.commands.len(), f.commands.len(), "{text:?}");
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
