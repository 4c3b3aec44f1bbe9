//! A model store built from arbitrary bytes (`crates/store`): the input is
//! split into a manifest, a config, a template, params, messages and a
//! model blob's first bytes, with the manifest naming the blobs by their
//! real digests half of the time. Listing, loading and `show` must never
//! panic or hang, whatever the manifest claims (sizes, digests, media
//! types) and whatever the blobs hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use store::dir::MemDir;
use store::manifest::sha256_hex;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|&b| b == 0xff);
    let mut next = || parts.next().unwrap_or(&[]).to_vec();
    let (manifest, config, template, params, messages, gguf) =
        (next(), next(), next(), next(), next(), next());
    let mut d = MemDir::new();
    let mut blob = |d: &mut MemDir, bytes: &[u8]| {
        let hex = sha256_hex(bytes);
        d.insert(&format!("blobs/sha256-{hex}"), bytes.to_vec(), Some(0));
        format!("sha256:{hex}")
    };
    let c = blob(&mut d, &config);
    let t = blob(&mut d, &template);
    let p = blob(&mut d, &params);
    let m = blob(&mut d, &messages);
    let hex = sha256_hex(&gguf);
    d.insert_prefix(&format!("blobs/sha256-{hex}"), gguf.clone(), 1 << 40, Some(0));
    let g = format!("sha256:{hex}");
    let real = if manifest.first().is_some_and(|b| b & 1 == 1) {
        // a well-formed manifest over the fuzzed blobs
        format!(
            r#"{{"schemaVersion":2,"config":{{"mediaType":"application/vnd.docker.container.image.v1+json","digest":"{c}","size":1}},"layers":[{{"mediaType":"application/vnd.ollama.image.model","digest":"{g}","size":9223372036854775807}},{{"mediaType":"application/vnd.ollama.image.template","digest":"{t}","size":1}},{{"mediaType":"application/vnd.ollama.image.params","digest":"{p}","size":1}},{{"mediaType":"application/vnd.ollama.image.messages","digest":"{m}","size":1}},{{"mediaType":"application/vnd.ollama.image.projector","digest":"{g}","size":1}}]}}"#
        )
        .into_bytes()
    } else {
        manifest
    };
    d.insert("manifests/registry.ollama.ai/library/m/latest", real, Some(0));
    let _ = store::list::list(&d);
    if let Ok(m) = store::model::load(&d, "m") {
        let mut case = serde_json::json!({"model": {}, "request": {"model": "m", "options": {"num_ctx": 4}}});
        m.fill_case(&mut case);
    }
    let _ = store::show::show_http(&d, "/models", &store::show::ShowRequest {
        model: "m".into(),
        verbose: true,
        ..Default::default()
    });
    let _ = store::plan::for_models(&d);
});
