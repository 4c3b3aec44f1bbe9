//! The routes (server/routes.go `GenerateRoutes`) and their handlers.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State as AxState};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use http_body_util::BodyExt;
use ollama::compat::{self, reply::Writer, Env, Route};
use ollama::godecode::{self, First};
use ollama::gojson::J;
use ollama::server::Endpoint;
use serde_json::{json, Value as Json};
use tokio::sync::mpsc;

use crate::http::{self, middleware};
use crate::State;

type S = Arc<State>;

pub(crate) fn router(state: S) -> Router {
    Router::new()
        .route("/", get(root))
        .route("/api/version", get(version))
        .route("/api/tags", get(tags))
        .route("/api/show", post(show))
        .route("/api/chat", post(chat))
        .route("/api/generate", post(generate))
        .route("/api/tokenize", post(tokenize))
        .route("/api/detokenize", post(detokenize))
        .route("/v1/chat/completions", post(v1_chat))
        .route("/v1/completions", post(v1_completions))
        .route("/v1/responses", post(v1_responses))
        .route("/v1/messages", post(v1_messages))
        .route("/v1/models", get(v1_models))
        .route("/v1/models/{model}", get(v1_model))
        .fallback(|| async { http::text(StatusCode::NOT_FOUND, "404 page not found") })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            middleware,
        ))
        .with_state(state)
}

// ---- answers ----

const GIN_JSON: &str = "application/json; charset=utf-8";

fn respond(status: u16, content_type: &'static str, body: impl Into<Body>) -> Response {
    let mut r = Response::new(body.into());
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// gin's `c.JSON(status, gin.H{"error": message})`.
fn error(status: u16, message: &str) -> Response {
    respond(status, GIN_JSON, error_json(message))
}

fn error_json(message: &str) -> String {
    J::Obj(vec![("error".into(), J::s(message))]).to_json()
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// The request body, within the limit and the time allowed.
async fn read_body(state: &State, body: Body) -> Result<Bytes, Response> {
    let limited = http_body_util::Limited::new(body, state.cfg.body_limit);
    match tokio::time::timeout(state.cfg.body_timeout, limited.collect()).await {
        Err(_) => Err(error(408, "the request body did not arrive in time")),
        Ok(Err(_)) => Err(error(
            413,
            &format!(
                "request body too large (the limit is {} bytes)",
                state.cfg.body_limit
            ),
        )),
        Ok(Ok(c)) => Ok(c.to_bytes()),
    }
}

// ---- simple routes ----

async fn root() -> Response {
    respond(200, "text/plain; charset=utf-8", "Ollama is running")
}

async fn version(AxState(state): AxState<S>) -> Response {
    respond(
        200,
        GIN_JSON,
        format!("{{\"version\":\"{}\"}}", state.cfg.release.tag),
    )
}

fn open(state: &State) -> Result<engine::case::Opened, Box<Response>> {
    engine::case::open(&state.cfg.models).map_err(|e| Box::new(error(500, &e)))
}

/// Whether the models directory is missing. Ollama makes it when it starts,
/// so it answers as from an empty store: the server does the same (without
/// making it) through an empty store in memory.
fn store_missing(state: &State) -> bool {
    !std::path::Path::new(&state.cfg.models).exists()
}

/// What an empty store answers for a model named `name`: Ollama's refusal
/// (`model 'NAME' not found`, 404; or the name's own error).
fn empty_store_refusal(name: &str) -> store::model::Refusal {
    match store::model::load(&store::dir::MemDir::new(), name) {
        Err(r) => r,
        Ok(_) => store::model::Refusal {
            status: 404,
            message: format!("model '{name}' not found"),
        },
    }
}

/// `ShowHandler`'s status and body for `req` over the store (an empty one
/// where the folder is missing).
fn show_in_store(
    state: &State,
    req: &store::show::ShowRequest,
) -> Result<(u16, String), Box<Response>> {
    if store_missing(state) {
        return Ok(store::show::show_http(
            &store::dir::MemDir::new(),
            &state.cfg.models,
            req,
        ));
    }
    let opened = open(state)?;
    Ok(store::show::show_http(&opened.dir, &opened.root, req))
}

async fn tags(AxState(state): AxState<S>) -> Response {
    let opened = match open(&state) {
        Ok(o) => o,
        Err(_) => return respond(200, GIN_JSON, r#"{"models":[]}"#),
    };
    match store::list::list(&opened.dir) {
        Ok((models, _)) => respond(200, GIN_JSON, store::list::tags_body(&models)),
        Err(e) => error(500, &e.to_string()),
    }
}

fn show_request(
    state: &State,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<store::show::ShowRequest, (u16, String)> {
    let mut req = store::show::ShowRequest::from_body(body).map_err(|r| (r.status, r.message))?;
    req.user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_string();
    req.no_cloud = state.cfg.no_cloud;
    req.release = state.cfg.release;
    Ok(req)
}

async fn show(AxState(state): AxState<S>, headers: HeaderMap, body: Body) -> Response {
    let body = match read_body(&state, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let req = match show_request(&state, &headers, &body) {
        Ok(r) => r,
        Err((s, m)) => return error(s, &m),
    };
    match show_in_store(&state, &req) {
        Ok((status, body)) => respond(status, GIN_JSON, body),
        Err(r) => *r,
    }
}

fn owned_by(id: &str) -> String {
    ollama::model::Name::parse(id).namespace
}

/// `ListMiddleware` over ListHandler: `ToListCompletion`.
async fn v1_models(AxState(state): AxState<S>) -> Response {
    let models = open(&state)
        .ok()
        .and_then(|o| store::list::list(&o.dir).ok())
        .map(|(m, _)| m)
        .unwrap_or_default();
    let data: Vec<J> = models
        .iter()
        .map(|m| {
            let id = &m.name;
            J::Obj(vec![
                ("id".into(), J::s(id)),
                ("object".into(), J::s("model")),
                (
                    "created".into(),
                    J::int(
                        m.modified_ns
                            .map(|n| n.div_euclid(1_000_000_000))
                            .unwrap_or(-62135596800) as i64,
                    ),
                ),
                ("owned_by".into(), J::s(owned_by(id))),
            ])
        })
        .collect();
    let mut s = J::Obj(vec![
        ("object".into(), J::s("list")),
        (
            "data".into(),
            if data.is_empty() {
                J::Null
            } else {
                J::Arr(data)
            },
        ),
    ])
    .to_json();
    s.push('\n');
    respond(200, "application/json", s)
}

/// `RetrieveMiddleware` over ShowHandler: `ToModel`.
async fn v1_model(
    AxState(state): AxState<S>,
    Path(model): Path<String>,
    headers: HeaderMap,
) -> Response {
    let body = json!({"model": model}).to_string();
    let req = match show_request(&state, &headers, body.as_bytes()) {
        Ok(r) => r,
        Err((s, m)) => {
            return respond(
                s,
                "application/json",
                Route::OpenAiChat.error_body(s, &m, true, ""),
            )
        }
    };
    let (status, shown) = match show_in_store(&state, &req) {
        Ok(s) => s,
        Err(r) => return *r,
    };
    if status != 200 {
        let message = serde_json::from_str::<Json>(&shown)
            .ok()
            .and_then(|v| v["error"].as_str().map(str::to_string))
            .unwrap_or(shown);
        return respond(
            status,
            "application/json",
            Route::OpenAiChat.error_body(status, &message, true, ""),
        );
    }
    let modified = serde_json::from_str::<Json>(&shown)
        .ok()
        .and_then(|v| {
            v["modified_at"]
                .as_str()
                .and_then(store::gofmt::parse_rfc3339)
        })
        .map(|ns| ns.div_euclid(1_000_000_000) as i64)
        .unwrap_or(-62135596800);
    let mut s = J::Obj(vec![
        ("id".into(), J::s(&model)),
        ("object".into(), J::s("model")),
        ("created".into(), J::int(modified)),
        ("owned_by".into(), J::s(owned_by(&model))),
    ])
    .to_json();
    s.push('\n');
    respond(200, "application/json", s)
}

// ---- tokenize / detokenize (ollama/ollama#16820's shapes) ----

fn model_gguf(state: &State, model: &str) -> Result<Arc<engine::gguf::Gguf>, (u16, String)> {
    if model.is_empty() {
        return Err((400, "model is required".into()));
    }
    if store_missing(state) {
        let r = empty_store_refusal(model);
        return Err((r.status, r.message));
    }
    let mut v = json!({"endpoint": "generate", "model": {"store": state.cfg.models, "name": model}, "request": {"model": model}});
    match engine::case::resolve_case(&mut v) {
        Ok(()) => {}
        Err(engine::case::Prep::Ollama(r)) => return Err((r.status, r.message)),
        Err(engine::case::Prep::Usage(m)) => return Err((500, m)),
    }
    let path = v["model"]["gguf"]
        .as_str()
        .ok_or_else(|| (400, format!("{model} has no GGUF model layer")))?
        .to_string();
    state.gguf(&path).map_err(|e| (500, e))
}

fn body_json(body: &[u8]) -> Result<Json, Box<Response>> {
    let text = String::from_utf8_lossy(body);
    match godecode::first_value(text.as_bytes()) {
        Ok(end) => godecode::parse(&text[..end]).map_err(|e| Box::new(error(400, &e.text()))),
        Err(First::Eof) => Err(Box::new(error(400, "missing request body"))),
        Err(e) => Err(Box::new(error(400, &e.text()))),
    }
}

async fn tokenize(AxState(state): AxState<S>, body: Body) -> Response {
    let body = match read_body(&state, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let model = v["model"].as_str().unwrap_or("").to_string();
    let input = match v.get("input") {
        None | Some(Json::Null) => String::new(),
        Some(Json::String(s)) => s.clone(),
        Some(_) => return error(400, "input must be a string"),
    };
    let state2 = state.clone();
    let out = tokio::task::spawn_blocking(move || -> Result<String, (u16, String)> {
        let g = model_gguf(&state2, &model)?;
        let tokens = g
            .vocab
            .tokenize(&input, false, true)
            .map_err(|e| (500, e.message().to_string()))?;
        Ok(J::Obj(vec![
            ("model".into(), J::s(&model)),
            (
                "tokens".into(),
                J::Arr(tokens.iter().map(|t| J::int(*t as i64)).collect()),
            ),
        ])
        .to_json())
    })
    .await;
    match out {
        Ok(Ok(s)) => respond(200, GIN_JSON, s),
        Ok(Err((s, m))) => error(s, &m),
        Err(e) => error(500, &e.to_string()),
    }
}

async fn detokenize(AxState(state): AxState<S>, body: Body) -> Response {
    let body = match read_body(&state, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let v = match body_json(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let model = v["model"].as_str().unwrap_or("").to_string();
    let mut tokens = Vec::new();
    for t in v["tokens"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
        match t.as_u64().filter(|n| *n <= i32::MAX as u64) {
            Some(n) => tokens.push(n as u32),
            None => return error(400, "token IDs must be non-negative and fit in int32"),
        }
    }
    let state2 = state.clone();
    let out = tokio::task::spawn_blocking(move || -> Result<String, (u16, String)> {
        let g = model_gguf(&state2, &model)?;
        if let Some(bad) = tokens.iter().find(|t| **t as usize >= g.vocab.n_tokens()) {
            return Err((400, format!("token {bad} is not in the model's vocabulary")));
        }
        let text = g.vocab.detokenize_lossy(&tokens, true);
        Ok(J::Obj(vec![
            ("model".into(), J::s(&model)),
            ("text".into(), J::s(text)),
        ])
        .to_json())
    })
    .await;
    match out {
        Ok(Ok(s)) => respond(200, GIN_JSON, s),
        Ok(Err((s, m))) => error(s, &m),
        Err(e) => error(500, &e.to_string()),
    }
}

// ---- generation routes ----

async fn chat(st: AxState<S>, body: Body) -> Response {
    run(st.0, None, Endpoint::Chat, body).await
}
async fn generate(st: AxState<S>, body: Body) -> Response {
    run(st.0, None, Endpoint::Generate, body).await
}
async fn v1_chat(st: AxState<S>, body: Body) -> Response {
    run(st.0, Some(Route::OpenAiChat), Endpoint::Chat, body).await
}
async fn v1_completions(st: AxState<S>, body: Body) -> Response {
    run(
        st.0,
        Some(Route::OpenAiCompletions),
        Endpoint::Generate,
        body,
    )
    .await
}
async fn v1_responses(st: AxState<S>, body: Body) -> Response {
    run(st.0, Some(Route::OpenAiResponses), Endpoint::Chat, body).await
}
async fn v1_messages(st: AxState<S>, body: Body) -> Response {
    run(st.0, Some(Route::AnthropicMessages), Endpoint::Chat, body).await
}

/// What the worker tells the handler.
enum Msg {
    /// The answer starts: its content type, and whether it streams.
    Head(&'static str, bool),
    /// Bytes of the answer.
    Bytes(Bytes),
    /// The request failed before any answer.
    Fail(u16, &'static str, String),
}

async fn run(state: S, route: Option<Route>, native: Endpoint, body: Body) -> Response {
    let body = match read_body(&state, body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let (tx, mut rx) = mpsc::channel::<Msg>(32);
    let worker_state = state.clone();
    tokio::task::spawn_blocking(move || {
        if let Err((status, ctype, body)) = work(&worker_state, route, native, &body, &tx) {
            let _ = tx.blocking_send(Msg::Fail(status, ctype, body));
        }
    });
    match rx.recv().await {
        Some(Msg::Fail(status, ctype, body)) => respond(status, ctype, body),
        Some(Msg::Head(ctype, true)) => respond(200, ctype, Body::from_stream(async_stream(rx))),
        Some(Msg::Head(ctype, false)) => {
            // one response: whole, with its length
            let mut all = Vec::new();
            while let Some(m) = rx.recv().await {
                if let Msg::Bytes(b) = m {
                    all.extend_from_slice(&b);
                }
            }
            respond(200, ctype, all)
        }
        Some(Msg::Bytes(b)) => respond(200, GIN_JSON, b),
        None => error(500, "the request ended without an answer"),
    }
}

fn async_stream(
    rx: mpsc::Receiver<Msg>,
) -> impl tokio_stream::Stream<Item = Result<Bytes, Infallible>> {
    tokio_stream::StreamExt::filter_map(
        tokio_stream::wrappers::ReceiverStream::new(rx),
        |m| match m {
            Msg::Bytes(b) => Some(Ok(b)),
            _ => None,
        },
    )
}

/// The error body a failure gets: the route's shape, or `{"error": ...}`.
fn fail_body(
    route: Option<Route>,
    status: u16,
    message: &str,
    downstream: bool,
) -> (u16, &'static str, String) {
    match route {
        Some(r) => {
            let id = compat::anthropic::id_for("req", &format!("{}{message}", nanos()));
            let ctype = if downstream {
                "application/json"
            } else {
                GIN_JSON
            };
            (
                status,
                ctype,
                r.error_body(status, message, downstream, &id),
            )
        }
        None => (status, GIN_JSON, error_json(message)),
    }
}

type Failed = (u16, &'static str, String);

/// Renders and answers one request on a blocking thread.
fn work(
    state: &State,
    route: Option<Route>,
    native: Endpoint,
    body: &[u8],
    tx: &mpsc::Sender<Msg>,
) -> Result<(), Failed> {
    let text = String::from_utf8_lossy(body).into_owned();
    let end = match godecode::first_value(text.as_bytes()) {
        Ok(e) => e,
        Err(First::Eof) if route.is_none() => {
            return Err(fail_body(None, 400, "missing request body", false))
        }
        Err(e) => return Err(fail_body(route, 400, &e.text(), false)),
    };
    let value_text = &text[..end];
    let value = godecode::parse(value_text).map_err(|e| fail_body(route, 400, &e.text(), false))?;
    let env = Env {
        no_cloud: state.cfg.no_cloud,
        release: state.cfg.release,
    };
    // the route's conversion, or the native decode: its errors come first
    let (model, converted) = match route {
        Some(r) => match compat::convert_text(r, value_text, env) {
            Some(Ok(c)) => (
                c.request["model"].as_str().unwrap_or("").to_string(),
                Some(c),
            ),
            Some(Err(e)) => return Err(fail_body(route, e.status, &e.message, false)),
            None => return Err(fail_body(route, 400, "the body is not JSON", false)),
        },
        None => {
            let decoded = godecode::with_literals(value_text, || match native {
                Endpoint::Chat => ollama::api::ChatRequest::decode(&value).map(|r| r.model),
                Endpoint::Generate => ollama::api::GenerateRequest::decode(&value).map(|r| r.model),
            });
            (
                decoded.map_err(|e| fail_body(None, 400, &e.0, false))?,
                None,
            )
        }
    };
    let endpoint_name = match (route, native) {
        (Some(r), _) => r.name(),
        (None, Endpoint::Chat) => "chat",
        (None, Endpoint::Generate) => "generate",
    };
    let mut case = json!({"endpoint": endpoint_name, "model": {"name": model}, "request": value,
        "env": {"OLLAMA_NO_CLOUD": if state.cfg.no_cloud { "1" } else { "" }}});
    if !model.is_empty() && store_missing(state) {
        let r = empty_store_refusal(&model);
        return Err(fail_body(route, r.status, &r.message, true));
    }
    if !model.is_empty() {
        case["model"]["store"] = json!(state.cfg.models);
        match engine::case::resolve_case(&mut case) {
            Ok(()) => {}
            Err(engine::case::Prep::Ollama(r)) => {
                return Err(fail_body(route, r.status, &r.message, true))
            }
            Err(engine::case::Prep::Usage(m)) => return Err(fail_body(route, 500, &m, true)),
        }
    }
    let gguf = match case["model"]["gguf"].as_str() {
        Some(p) => Some((
            p.to_string(),
            state.gguf(p).map_err(|e| fail_body(route, 500, &e, true))?,
        )),
        None => None,
    };
    let mut rc = ollama::case::RenderCase::from_json_converted(&case, converted.clone().map(Ok))
        .map_err(|e| fail_body(route, 500, &e, true))?;
    // the release `serve --ollama` answers as
    rc.release = state.cfg.release;
    if let Some((_, g)) = &gguf {
        g.apply(&mut rc);
    }
    let rendered = rc.render(
        gguf.as_ref()
            .map(|(_, g)| &**g as &dyn ollama::server::TokenCounter),
    );
    let rendered = match rendered {
        Ok(r) => r,
        Err(f) => {
            return Err(match (&f.body, route) {
                (Some(b), Some(_)) => (f.status, "application/json", b.clone()),
                _ => fail_body(None, f.status, &f.message, true),
            })
        }
    };
    if state.cfg.log {
        eprintln!(
            "time={} level=INFO source=images.go:391 msg=\"template selection\" model={} selected={} renderer={} parser={}",
            store::gofmt::rfc3339_nano(nanos() as i128),
            rendered.explain.model_name,
            rendered.explain.source,
            quote_slog(&rc.model.renderer),
            quote_slog(&rc.model.parser),
        );
    }
    let Some((path, gguf)) = gguf else {
        return Err(fail_body(
            route,
            500,
            "the model has no GGUF model layer to count or run with",
            true,
        ));
    };
    let request = rc.request.clone();
    let debug_render_only = ollama::godecode::field(&request, "_debug_render_only")
        .and_then(Json::as_bool)
        == Some(true);
    // the proposal's debug mode: the prompt and its count on the first chunk
    let debug_include = route.is_none()
        && value["debug"]["include"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x == "prompt"));
    let debug = if debug_include {
        let n = engine::generate::prompt_tokens(&rc, &rendered, &gguf)
            .map_err(|f| fail_body(route, f.status, &f.message, true))?;
        Some(
            json!({"include": value["debug"]["include"], "prompt": rendered.prompt, "prompt_eval_count": n}),
        )
    } else {
        None
    };
    let mut writer = match (&route, &converted) {
        (Some(r), Some(c)) => {
            let n = nanos();
            let ids = compat::reply::random_ids(*r, n);
            Some(
                Writer::for_route(
                    *r,
                    &value,
                    c.stream,
                    c.include_usage,
                    (&ids.0, &ids.1),
                    now_secs(),
                    n,
                )
                .with_body_text(&value, value_text)
                .with_release(rc.release),
            )
        }
        _ => None,
    };
    let stream = match &converted {
        Some(c) => c.stream && !debug_render_only,
        None => {
            ollama::godecode::field(&request, "stream").and_then(Json::as_bool) != Some(false)
                && !debug_render_only
        }
    };
    let ctype: &'static str = match (&writer, stream) {
        (Some(_), true) => "text/event-stream",
        (Some(_), false) => "application/json",
        (None, true) => "application/x-ndjson",
        (None, false) => GIN_JSON,
    };
    let start = Instant::now();
    let clock = move || start.elapsed().as_nanos() as u64;
    let mut started = false;
    let mut gone = false;
    let mut first = debug;
    let job = engine::generate::Job {
        case: &rc,
        rendered: &rendered,
        gguf: &gguf,
        one_response: !stream,
        debug: false,
    };
    let result = engine::generate::run(
        job,
        || std::fs::read(&path).map_err(|e| format!("cannot read {path}: {e}")),
        &clock,
        &mut |mut chunk| {
            if let Some(d) = first.take() {
                chunk["debug"] = d;
            }
            let bytes = match &mut writer {
                Some(w) => w.write(200, &chunk),
                None if stream => format!("{}\n", J::from_ordered(&chunk).to_json()),
                None => J::from_ordered(&chunk).to_json(),
            };
            if !started {
                started = true;
                if tx.blocking_send(Msg::Head(ctype, stream)).is_err() {
                    return false;
                }
            }
            let ok = bytes.is_empty() || tx.blocking_send(Msg::Bytes(Bytes::from(bytes))).is_ok();
            gone |= !ok;
            ok
        },
    );
    if gone && state.cfg.log {
        eprintln!(
            "time={} level=INFO msg=\"client disconnected, generation stopped\" model={}",
            store::gofmt::rfc3339_nano(nanos() as i128),
            rendered.explain.model_name
        );
    }
    if let Err(f) = result {
        if !started {
            return Err(fail_body(route, f.status, &f.message, true));
        }
        let tail = match &mut writer {
            Some(w) => w.write(f.status, &json!({"error": f.message})),
            None => format!("{}\n", error_json(&f.message)),
        };
        let _ = tx.blocking_send(Msg::Bytes(Bytes::from(tail)));
    }
    Ok(())
}

fn quote_slog(s: &str) -> String {
    if s.is_empty() || s.contains([' ', '"', '=']) {
        gotmpl::strconv::quote(s)
    } else {
        s.to_string()
    }
}
