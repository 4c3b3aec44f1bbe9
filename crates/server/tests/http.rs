//! The server over loopback with a raw client (`std::net::TcpStream`), for
//! what the SDKs never send: gin's 404 and 405, Ollama's CORS answers and
//! host check, bodies over the limit, malformed bodies, a client that sends
//! its headers too slowly, and a short load of concurrent dry-run chats
//! over the fixture store (every answer whole and for its own request).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

fn start(cfg: impl FnOnce(&mut server::Config)) -> SocketAddr {
    let store = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("../store/tests/fixture/models");
    let mut c = server::Config::new("127.0.0.1:0".parse().unwrap(), store.to_string_lossy());
    c.log = false;
    cfg(&mut c);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let l = tokio::net::TcpListener::bind(c.listen).await.unwrap();
            tx.send(l.local_addr().unwrap()).unwrap();
            server::serve(l, server::State::new(c)).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

/// One request; the whole answer (the connection is closed after it).
fn send(addr: SocketAddr, raw: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(raw.as_bytes()).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

fn request(method: &str, path: &str, headers: &[&str], body: &str) -> String {
    let mut r = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for h in headers {
        r.push_str(h);
        r.push_str("\r\n");
    }
    if !body.is_empty() || method == "POST" {
        r.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    r.push_str("\r\n");
    r.push_str(body);
    r
}

fn status(resp: &str) -> u16 {
    resp.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn body(resp: &str) -> &str {
    resp.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("")
}

fn has_header(resp: &str, h: &str) -> bool {
    resp.split("\r\n\r\n")
        .next()
        .unwrap_or("")
        .lines()
        .any(|l| l.eq_ignore_ascii_case(h))
}

#[test]
fn gins_answers_cors_and_the_host_check() {
    let a = start(|_| {});
    let r = send(a, &request("GET", "/nope", &[], ""));
    assert_eq!((status(&r), body(&r)), (404, "404 page not found"));
    assert!(has_header(&r, "content-type: text/plain"), "{r}");
    let r = send(a, &request("GET", "/api/chat", &[], ""));
    assert_eq!((status(&r), body(&r)), (405, "405 method not allowed"));
    assert!(has_header(&r, "allow: POST"), "{r}");
    let r = send(a, &request("POST", "/", &[], ""));
    assert!(has_header(&r, "allow: HEAD, GET"), "{r}");
    let r = send(a, &request("HEAD", "/", &[], ""));
    assert_eq!(status(&r), 200);
    assert_eq!(body(&r), "");
    // CORS: a page on localhost may call it, others may not
    let pre = [
        "Origin: http://localhost:5173",
        "Access-Control-Request-Method: POST",
    ];
    let r = send(a, &request("OPTIONS", "/api/chat", &pre, ""));
    assert_eq!(status(&r), 204, "{r}");
    assert!(
        has_header(&r, "access-control-allow-origin: http://localhost:5173"),
        "{r}"
    );
    assert!(has_header(&r, "access-control-max-age: 43200"), "{r}");
    let r = send(
        a,
        &request(
            "GET",
            "/api/version",
            &["Origin: http://localhost:5173"],
            "",
        ),
    );
    assert_eq!((status(&r), body(&r)), (200, r#"{"version":"0.33.0-rc2"}"#));
    assert!(
        has_header(&r, "access-control-allow-origin: http://localhost:5173"),
        "{r}"
    );
    let r = send(
        a,
        &request("GET", "/api/version", &["Origin: https://evil.example"], ""),
    );
    assert_eq!((status(&r), body(&r)), (403, ""));
    // DNS rebinding: a loopback server answers local Host names only
    let evil = "GET /api/version HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n";
    assert_eq!(status(&send(a, evil)), 403);
}

#[test]
fn version_says_the_release_served() {
    let a = start(|c| c.release = changes::Release::V0_32_15);
    let r = send(a, &request("GET", "/api/version", &[], ""));
    assert_eq!((status(&r), body(&r)), (200, r#"{"version":"0.32.15"}"#));
}

#[test]
fn bad_bodies_get_errors_not_a_dead_server() {
    let a = start(|c| c.body_limit = 1 << 16);
    let r = send(
        a,
        &request(
            "POST",
            "/api/chat",
            &[],
            "{\"model\": \"smol-go\", \"messages\": [}",
        ),
    );
    assert_eq!(status(&r), 400);
    assert_eq!(
        body(&r),
        r#"{"error":"invalid character '}' looking for beginning of value"}"#
    );
    let r = send(a, &request("POST", "/api/chat", &[], "  "));
    assert_eq!(body(&r), r#"{"error":"missing request body"}"#);
    let r = send(
        a,
        &request("POST", "/v1/chat/completions", &[], "{\"model\":"),
    );
    assert_eq!(
        body(&r),
        r#"{"error":{"message":"unexpected EOF","type":"invalid_request_error","param":null,"code":null}}"#
    );
    let big = format!(
        "{{\"model\":\"smol-go\",\"prompt\":\"{}\"}}",
        "x".repeat(1 << 17)
    );
    let r = send(a, &request("POST", "/api/generate", &[], &big));
    assert_eq!(status(&r), 413, "{}", &r[..r.len().min(300)]);
    // and it still answers
    let r = send(a, &request("GET", "/", &[], ""));
    assert_eq!((status(&r), body(&r)), (200, "Ollama is running"));
}

#[test]
fn a_slow_client_is_cut_off() {
    let a = start(|c| c.header_timeout = Duration::from_millis(300));
    let mut s = TcpStream::connect(a).unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let t = std::time::Instant::now();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "the connection stayed open"
    );
    // the server goes on
    assert_eq!(status(&send(a, &request("GET", "/", &[], ""))), 200);
}

#[test]
fn concurrent_dry_runs_each_get_their_own_answer() {
    let a = start(|_| {});
    let threads: Vec<_> = (0..16)
        .map(|i| {
            std::thread::spawn(move || {
                for j in 0..5 {
                    let text = format!("question {i}-{j}");
                    let b = serde_json::json!({"model": "smol-go", "messages": [{"role": "user", "content": text}],
                        "_debug_render_only": true});
                    let r = send(a, &request("POST", "/api/chat", &[], &b.to_string()));
                    assert_eq!(status(&r), 200, "{r}");
                    let v: serde_json::Value = serde_json::from_str(body(&r)).unwrap();
                    let prompt = v["_debug_info"]["rendered_template"].as_str().unwrap();
                    assert!(prompt.contains(&text), "{prompt}");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

/// A models directory that does not exist answers as an empty one (Ollama
/// makes the folder when it starts): a named model is 404 `model 'NAME'
/// not found` on every route, the lists are empty, and each answer is the
/// one an existing empty folder gives, byte for byte.
#[test]
fn a_missing_store_answers_as_an_empty_one() {
    let missing = start(|c| c.models = "/nonexistent/promptscope-models".into());
    let dir = std::env::temp_dir().join(format!("promptscope-empty-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = start(|c| c.models = dir.to_string_lossy().into_owned());
    let chat = r#"{"model":"smollm2","messages":[{"role":"user","content":"hi"}]}"#;
    let cases = [
        ("POST", "/api/chat", chat),
        (
            "POST",
            "/api/generate",
            r#"{"model":"smollm2","prompt":"hi"}"#,
        ),
        ("POST", "/api/show", r#"{"model":"smollm2"}"#),
        (
            "POST",
            "/api/tokenize",
            r#"{"model":"smollm2","input":"hi"}"#,
        ),
        ("POST", "/v1/chat/completions", chat),
        ("GET", "/v1/models/smollm2", ""),
        ("GET", "/api/tags", ""),
        ("GET", "/v1/models", ""),
        (
            "POST",
            "/api/chat",
            r#"{"model":"bad name!","messages":[]}"#,
        ),
    ];
    for (method, path, b) in cases {
        let got = send(
            missing,
            &request(method, path, &["Content-Type: application/json"], b),
        );
        let want = send(
            empty,
            &request(method, path, &["Content-Type: application/json"], b),
        );
        assert_eq!(
            (status(&got), body(&got)),
            (status(&want), body(&want)),
            "{method} {path}"
        );
        assert_ne!(status(&got), 500, "{method} {path}: {got}");
    }
    let r = send(missing, &request("POST", "/api/chat", &[], chat));
    assert_eq!(
        (status(&r), body(&r)),
        (404, r#"{"error":"model 'smollm2' not found"}"#)
    );
    let r = send(missing, &request("GET", "/api/tags", &[], ""));
    assert_eq!((status(&r), body(&r)), (200, r#"{"models":[]}"#));
    std::fs::remove_dir_all(&dir).unwrap();
}
