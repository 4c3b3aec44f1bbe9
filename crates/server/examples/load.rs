//! A load test on loopback: N concurrent clients send dry-run chats
//! (`_debug_render_only`, each with its own question) for D seconds to a
//! server over the fixture store, and every answer is checked to be whole,
//! a 200, and the render of its own request. Prints requests per second,
//! p50/p99 latency and the errors; exits non-zero on any error. Stops by
//! itself.
//!
//!     cargo run --release -p promptscope-server --example load -- [CLIENTS] [SECONDS]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let clients: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(30);
    let store =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/tests/fixture/models");
    let mut cfg = server::Config::new("127.0.0.1:0".parse().unwrap(), store.to_string_lossy());
    cfg.log = false;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let l = tokio::net::TcpListener::bind(cfg.listen).await.unwrap();
            tx.send(l.local_addr().unwrap()).unwrap();
            server::serve(l, server::State::new(cfg)).await.unwrap();
        });
    });
    let addr: SocketAddr = rx.recv().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|i| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut lat = Vec::new();
                let mut errors = Vec::new();
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    let text = format!("client {i} question {n}");
                    n += 1;
                    let body = format!(
                        r#"{{"model":"smol-go","messages":[{{"role":"user","content":"{text}"}}],"_debug_render_only":true}}"#
                    );
                    let req = format!(
                        "POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    let t = Instant::now();
                    let got = TcpStream::connect(addr).and_then(|mut s| {
                        s.set_read_timeout(Some(Duration::from_secs(30)))?;
                        s.write_all(req.as_bytes())?;
                        let mut out = Vec::new();
                        s.read_to_end(&mut out)?;
                        Ok(out)
                    });
                    lat.push(t.elapsed());
                    match got {
                        Err(e) => errors.push(format!("{text}: {e}")),
                        Ok(out) => {
                            let out = String::from_utf8_lossy(&out);
                            let ok = out.starts_with("HTTP/1.1 200")
                                && out
                                    .split_once("\r\n\r\n")
                                    .and_then(|(_, b)| serde_json::from_str::<serde_json::Value>(b).ok())
                                    .and_then(|v| v["_debug_info"]["rendered_template"].as_str().map(|p| p.contains(&text)))
                                    .unwrap_or(false);
                            if !ok {
                                errors.push(format!("{text}: {}", &out[..out.len().min(200)]));
                            }
                        }
                    }
                }
                (lat, errors)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let mut lat = Vec::new();
    let mut errors = Vec::new();
    for t in threads {
        let (l, e) = t.join().unwrap();
        lat.extend(l);
        errors.extend(e);
    }
    let elapsed = start.elapsed().as_secs_f64();
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "load: {clients} clients, {:.1} s: {} requests, {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, {} errors",
        elapsed,
        lat.len(),
        lat.len() as f64 / elapsed,
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        errors.len()
    );
    for e in errors.iter().take(10) {
        println!("error: {e}");
    }
    std::process::exit(if errors.is_empty() && !lat.is_empty() {
        0
    } else {
        1
    });
}
