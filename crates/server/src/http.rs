//! The transport: the accept loop (hyper with a header read timeout), and
//! the middleware Ollama's server puts before every route (gin's logger,
//! gin-contrib/cors v1.7.2 as Ollama configures it, Ollama's
//! `allowedHostsMiddleware`), and gin's 404 and 405 answers.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use tower::ServiceExt;

use crate::State;

/// The client's address, put on each request by the accept loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Peer(pub SocketAddr);

pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<State>,
) -> std::io::Result<()> {
    let app = crate::handlers::router(state.clone());
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            // out of descriptors and the like: wait and go on
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let app = app.clone();
        let timeout = state.cfg.header_timeout;
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(Peer(peer));
                    let app = app.clone();
                    async move { app.oneshot(req.map(Body::new)).await }
                },
            );
            let mut b = hyper::server::conn::http1::Builder::new();
            b.timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(timeout)
                .keep_alive(true);
            let _ = b
                .serve_connection(hyper_util::rt::TokioIo::new(stream), svc)
                .await;
        });
    }
}

// ---- CORS ----

/// `envconfig.AllowedOrigins()`: `OLLAMA_ORIGINS` (split at commas) first,
/// then localhost, 127.0.0.1 and 0.0.0.0 on http and https with any port,
/// and the app schemes.
pub fn allowed_origins(env: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(s) = env {
        let s = s.trim().trim_matches(|c| c == '"' || c == '\'');
        if !s.is_empty() {
            out.extend(s.split(',').map(str::to_string));
        }
    }
    for host in ["localhost", "127.0.0.1", "0.0.0.0"] {
        out.push(format!("http://{host}"));
        out.push(format!("https://{host}"));
        out.push(format!("http://{host}:*"));
        out.push(format!("https://{host}:*"));
    }
    for scheme in ["app", "file", "tauri", "vscode-webview", "vscode-file"] {
        out.push(format!("{scheme}://*"));
    }
    out
}

/// gin-contrib/cors `isOriginValid`: an exact match (the list trimmed and
/// lower-cased), or a wildcard one (`*` first: a suffix; last: a prefix;
/// inside: both).
pub fn origin_allowed(origins: &[String], origin: &str) -> bool {
    if origins.iter().any(|o| o == "*") {
        return true;
    }
    for o in origins {
        let norm = o.trim().to_lowercase();
        if !norm.contains('*') && norm == origin {
            return true;
        }
        if let Some(i) = o.find('*') {
            let (pre, post) = (&o[..i], &o[i + 1..]);
            let ok = match (i == 0, i == o.len() - 1) {
                (true, _) => origin.ends_with(post),
                (_, true) => origin.starts_with(pre),
                _ => origin.starts_with(pre) && origin.ends_with(post),
            };
            if ok {
                return true;
            }
        }
    }
    false
}

const ALLOW_HEADERS: &str = "Authorization,Content-Type,User-Agent,Accept,X-Requested-With,Openai-Beta,X-Stainless-Arch,X-Stainless-Async,X-Stainless-Custom-Poll-Interval,X-Stainless-Helper-Method,X-Stainless-Lang,X-Stainless-Os,X-Stainless-Package-Version,X-Stainless-Poll-Helper,X-Stainless-Retry-Count,X-Stainless-Runtime,X-Stainless-Runtime-Version,X-Stainless-Timeout";

/// The methods gin answers a path with, in its trees' order (HEAD, GET,
/// POST): its 405's `Allow` header.
pub(crate) fn methods_of(path: &str) -> Option<&'static str> {
    Some(match path {
        "/" | "/api/version" | "/api/tags" => "HEAD, GET",
        "/api/show"
        | "/api/chat"
        | "/api/generate"
        | "/api/tokenize"
        | "/api/detokenize"
        | "/v1/chat/completions"
        | "/v1/completions"
        | "/v1/responses"
        | "/v1/messages" => "POST",
        "/v1/models" => "GET",
        p if p.starts_with("/v1/models/")
            && !p["/v1/models/".len()..].contains('/')
            && p.len() > 11 =>
        {
            "GET"
        }
        _ => return None,
    })
}

fn empty(status: StatusCode) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = status;
    r
}

// ---- the host check ----

/// `os.Hostname()`, lower-cased, read once.
fn hostname() -> &'static str {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .or_else(|_| std::fs::read_to_string("/etc/hostname"))
            .map(|s| s.trim().to_lowercase())
            .unwrap_or_default()
    })
}

fn local_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v) => {
            v.is_loopback() || v.is_private() || v.is_unspecified() || v.is_link_local()
        }
        IpAddr::V6(v) => {
            v.is_loopback() || v.is_unspecified() || (v.segments()[0] & 0xfe00) == 0xfc00
        }
    }
}

/// `allowedHostsMiddleware`: bound to loopback, the server answers only
/// requests whose Host is a local name or address (DNS rebinding).
fn host_allowed(listen: &SocketAddr, host: &str) -> bool {
    if !listen.ip().is_loopback() {
        return true;
    }
    let h = match host.rsplit_once(':') {
        Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) && !h.is_empty() => h,
        _ => host,
    };
    let h = h.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = h.parse::<IpAddr>() {
        return local_ip(ip);
    }
    let h = h.to_lowercase();
    h.is_empty()
        || h == "localhost"
        || h == hostname()
        || h.ends_with(".localhost")
        || h.ends_with(".local")
        || h.ends_with(".internal")
}

/// The middleware chain before every route, in Ollama's order: the access
/// log around everything, then CORS, then the host check.
pub(crate) async fn middleware(
    axum::extract::State(state): axum::extract::State<Arc<State>>,
    req: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    let peer = req.extensions().get::<Peer>().map(|p| p.0.ip().to_string());
    let resp = chain(&state, req, next).await;
    if state.cfg.log {
        println!(
            "{}",
            log_line(
                SystemTime::now(),
                resp.status().as_u16(),
                start.elapsed(),
                peer.as_deref().unwrap_or(""),
                method.as_str(),
                &path
            )
        );
    }
    resp
}

async fn chain(state: &State, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_string();
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|h| h.to_str().ok())
        .map(str::to_string);
    let path = req.uri().path().to_string();
    let mut cors: Option<String> = None;
    if let Some(origin) = origin.filter(|o| !o.is_empty()) {
        let same = origin == format!("http://{host}") || origin == format!("https://{host}");
        if !same {
            if !origin_allowed(&state.origins, &origin) {
                return empty(StatusCode::FORBIDDEN);
            }
            let all = state.origins.iter().any(|o| o == "*");
            if req.method() == Method::OPTIONS {
                let mut r = empty(StatusCode::NO_CONTENT);
                let h = r.headers_mut();
                h.insert(
                    "access-control-allow-methods",
                    HeaderValue::from_static("GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS"),
                );
                h.insert(
                    "access-control-allow-headers",
                    HeaderValue::from_static(ALLOW_HEADERS),
                );
                h.insert("access-control-max-age", HeaderValue::from_static("43200"));
                if !all {
                    for v in [
                        "Origin",
                        "Access-Control-Request-Method",
                        "Access-Control-Request-Headers",
                    ] {
                        h.append(header::VARY, HeaderValue::from_static(v));
                    }
                }
                let value = if all { "*".to_string() } else { origin.clone() };
                if let Ok(v) = HeaderValue::from_str(&value) {
                    h.insert("access-control-allow-origin", v);
                }
                if let Some(m) = methods_of(&path) {
                    h.insert(header::ALLOW, HeaderValue::from_static(m));
                }
                return r;
            }
            cors = Some(if all { "*".into() } else { origin });
        }
    }
    if !host_allowed(&state.cfg.listen, &host) {
        return empty(StatusCode::FORBIDDEN);
    }
    if req.method() == Method::OPTIONS {
        return empty(StatusCode::NO_CONTENT);
    }
    let mut resp = next.run(req).await;
    if let Some(o) = cors {
        let h = resp.headers_mut();
        if o != "*" {
            h.append(header::VARY, HeaderValue::from_static("Origin"));
        }
        if let Ok(v) = HeaderValue::from_str(&o) {
            h.insert("access-control-allow-origin", v);
        }
    }
    // gin's answers for an unknown path and a known path's other methods
    if resp.status() == StatusCode::METHOD_NOT_ALLOWED {
        let mut r = text(StatusCode::METHOD_NOT_ALLOWED, "405 method not allowed");
        if let Some(m) = methods_of(&path) {
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static(m));
        }
        for (k, v) in resp.headers() {
            if k.as_str().starts_with("access-control") || k == header::VARY {
                r.headers_mut().append(k.clone(), v.clone());
            }
        }
        return r;
    }
    resp
}

/// A `text/plain` answer as gin's 404 and 405 write it.
pub(crate) fn text(status: StatusCode, body: &'static str) -> Response {
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
    r
}

// ---- logging ----

/// Go's `time.Duration.String()`.
pub(crate) fn go_duration(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns == 0 {
        return "0s".into();
    }
    let frac = |v: u128, unit: u128, digits: usize| -> String {
        let whole = v / unit;
        let rest = v % unit;
        if rest == 0 {
            whole.to_string()
        } else {
            let f = format!("{rest:0digits$}");
            format!("{whole}.{}", f.trim_end_matches('0'))
        }
    };
    if ns < 1_000 {
        return format!("{ns}ns");
    }
    if ns < 1_000_000 {
        return format!("{}µs", frac(ns, 1_000, 3));
    }
    if ns < 1_000_000_000 {
        return format!("{}ms", frac(ns, 1_000_000, 6));
    }
    let secs = ns / 1_000_000_000;
    let (h, m) = (secs / 3600, secs / 60 % 60);
    let s = frac(ns % 60_000_000_000, 1_000_000_000, 9);
    match (h, m) {
        (0, 0) => format!("{s}s"),
        (0, m) => format!("{m}m{s}s"),
        (h, m) => format!("{h}h{m}m{s}s"),
    }
}

/// gin's access line (`LoggerWithFormatter`'s default, without colours):
/// `[GIN] 2006/01/02 - 15:04:05 | 200 |    1.234567ms |       127.0.0.1 | POST     "/api/chat"`.
/// The time is UTC (Ollama writes the server's local time).
pub fn log_line(
    at: SystemTime,
    status: u16,
    latency: Duration,
    ip: &str,
    method: &str,
    path: &str,
) -> String {
    let secs = at
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let day = ollama::date::Date::from_days(secs.div_euclid(86_400)).to_string();
    let t = secs.rem_euclid(86_400);
    let latency = if latency > Duration::from_secs(60) {
        Duration::from_secs(latency.as_secs())
    } else {
        latency
    };
    format!(
        "[GIN] {} - {:02}:{:02}:{:02} | {status:3} | {:>13} | {ip:>15} | {method:<7}  {}",
        day.replace('-', "/"),
        t / 3600,
        t / 60 % 60,
        t % 60,
        go_duration(latency),
        gotmpl::strconv::quote(path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_as_ollama() {
        let o = allowed_origins(None);
        assert!(origin_allowed(&o, "http://localhost:3000"));
        assert!(origin_allowed(&o, "http://127.0.0.1"));
        assert!(origin_allowed(&o, "vscode-webview://abc"));
        assert!(!origin_allowed(&o, "https://evil.example"));
        assert!(!origin_allowed(&o, "chrome-extension://abc"));
        let o = allowed_origins(Some("https://app.example,chrome-extension://*"));
        assert!(origin_allowed(&o, "https://app.example"));
        assert!(origin_allowed(&o, "chrome-extension://abc"));
        assert!(origin_allowed(
            &allowed_origins(Some("*")),
            "https://anything"
        ));
    }

    #[test]
    fn hosts_as_ollama() {
        let lo: SocketAddr = "127.0.0.1:11434".parse().unwrap();
        assert!(host_allowed(&lo, "localhost:11434"));
        assert!(host_allowed(&lo, "127.0.0.1:11434"));
        assert!(host_allowed(&lo, "[::1]:11434"));
        assert!(host_allowed(&lo, "box.local"));
        assert!(host_allowed(&lo, "192.168.1.5:11434"));
        assert!(!host_allowed(&lo, "evil.example"));
        assert!(!host_allowed(&lo, "evil.example:11434"));
        assert!(host_allowed(
            &"0.0.0.0:11434".parse().unwrap(),
            "evil.example"
        ));
    }

    #[test]
    fn durations_and_log_lines() {
        assert_eq!(go_duration(Duration::from_nanos(1_234_567)), "1.234567ms");
        assert_eq!(go_duration(Duration::from_nanos(12_300)), "12.3µs");
        assert_eq!(go_duration(Duration::from_nanos(800)), "800ns");
        assert_eq!(go_duration(Duration::from_millis(2_500)), "2.5s");
        assert_eq!(go_duration(Duration::from_secs(125)), "2m5s");
        let at = UNIX_EPOCH + Duration::from_secs(1_735_830_245);
        assert_eq!(
            log_line(at, 200, Duration::from_nanos(1_234_567), "127.0.0.1", "POST", "/api/chat"),
            "[GIN] 2025/01/02 - 15:04:05 | 200 |    1.234567ms |       127.0.0.1 | POST     \"/api/chat\""
        );
    }
}
