//! Requests through `promptscope serve`'s router (`crates/server`), over the
//! fixture store: the first byte picks the route and the method, the rest
//! is the body. Every request must get an answer (never a panic or a hang),
//! whatever the body holds.
#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

const ROUTES: [&str; 14] = [
    "/api/chat",
    "/api/generate",
    "/api/show",
    "/api/tokenize",
    "/api/detokenize",
    "/v1/chat/completions",
    "/v1/completions",
    "/v1/responses",
    "/v1/messages",
    "/api/tags",
    "/v1/models",
    "/v1/models/smol-go",
    "/",
    "/nope",
];

fn state() -> &'static (tokio::runtime::Runtime, Arc<server::State>) {
    static S: OnceLock<(tokio::runtime::Runtime, Arc<server::State>)> = OnceLock::new();
    S.get_or_init(|| {
        let store = concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/store/tests/fixture/models");
        let mut cfg = server::Config::new("127.0.0.1:11434".parse().unwrap(), store);
        cfg.log = false;
        cfg.body_limit = 1 << 20;
        let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        (rt, server::State::new(cfg))
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let (rt, st) = state();
    let path = ROUTES[first as usize % ROUTES.len()];
    let method = if first & 0x80 != 0 { "GET" } else { "POST" };
    let req = axum::http::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1:11434")
        .body(axum::body::Body::from(body.to_vec()))
        .unwrap();
    let app = server::router(st.clone());
    let resp = rt.block_on(async move {
        tokio::time::timeout(std::time::Duration::from_secs(20), app.oneshot(req)).await
    });
    let resp = resp.expect("an answer in time").expect("infallible");
    let _ = rt.block_on(http_body_util::BodyExt::collect(resp.into_body()));
});
