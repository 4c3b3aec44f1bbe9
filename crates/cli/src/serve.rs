//! `promptscope serve [--listen HOST:PORT] [--models DIR] [--ollama V]`:
//! Ollama's HTTP API over a model store (`crates/server`), as release V.

use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};

use crate::store::Models;
use crate::Failure;

/// `promptscope serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Where to listen, as OLLAMA_HOST names it (default: $OLLAMA_HOST, else
    /// 127.0.0.1:11434); a port of 0 takes a free one
    #[arg(long, value_name = "HOST:PORT")]
    listen: Option<String>,
    #[command(flatten)]
    models: Models,
    /// No access or template-selection lines
    #[arg(long)]
    quiet: bool,
    /// The Ollama release to answer as (default: the newest supported)
    #[arg(long, value_name = "VERSION")]
    ollama: Option<String>,
}

/// `envconfig.Host()`: `[scheme://]host[:port][/path]`, 127.0.0.1 and 11434
/// by default (80 or 443 after an explicit scheme).
pub fn parse_host(s: &str) -> Result<SocketAddr, String> {
    let s = s.trim().trim_matches(|c| c == '"' || c == '\'');
    let (scheme, hostport) = match s.split_once("://") {
        Some((sc, rest)) => (sc, rest),
        None => ("http", s),
    };
    let default_port = match (s.contains("://"), scheme) {
        (true, "http") => "80",
        (true, "https") => "443",
        _ => "11434",
    };
    let hostport = hostport.split('/').next().unwrap_or("");
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || hostport.starts_with('[') => (
            h.trim_start_matches('[').trim_end_matches(']').to_string(),
            p.to_string(),
        ),
        _ => (
            if hostport.is_empty() {
                "127.0.0.1".to_string()
            } else {
                hostport
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .to_string()
            },
            default_port.to_string(),
        ),
    };
    let port: u16 = match port.parse::<i64>() {
        Ok(n) if (0..=65535).contains(&n) => n as u16,
        _ => default_port.parse().unwrap_or(11434),
    };
    let host = if host.is_empty() {
        "0.0.0.0".to_string()
    } else {
        host
    };
    (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("cannot resolve {host}"))
}

/// What to say at start when the store serves no model: the folder is
/// missing (Ollama would make it; this answers as from an empty store) or
/// holds no model. `None` when it has models.
pub fn store_warning(models: &str) -> Option<String> {
    let hint = "every request for a model answers 404 (model '...' not found), as Ollama's does \
                on an empty store; name another folder with --models DIR or OLLAMA_MODELS";
    if !std::path::Path::new(models).exists() {
        return Some(format!(
            "the models directory {models} does not exist: {hint}"
        ));
    }
    let opened = match engine::case::open(models) {
        Ok(o) => o,
        Err(e) => return Some(format!("{e}: the models cannot be read")),
    };
    match store::list::list(&opened.dir) {
        Ok((listed, _)) if listed.is_empty() => Some(format!(
            "the models directory {models} holds no models: {hint}"
        )),
        Ok(_) => None,
        Err(e) => Some(format!("{models}: {e}: the models cannot be listed")),
    }
}

/// Runs the server until the process is stopped.
pub fn run(args: Args) -> Result<(), Failure> {
    let listen = match args.listen.or_else(|| {
        std::env::var("OLLAMA_HOST")
            .ok()
            .filter(|s| !s.trim().is_empty())
    }) {
        Some(s) => parse_host(&s).map_err(Failure::Usage)?,
        None => SocketAddr::from(([127, 0, 0, 1], 11434)),
    };
    let models = args.models.dir()?;
    let mut cfg = server::Config::new(listen, models);
    cfg.origins = std::env::var("OLLAMA_ORIGINS").ok();
    cfg.no_cloud = ollama::compat::Env::truthy(std::env::var("OLLAMA_NO_CLOUD").ok().as_deref());
    cfg.log = !args.quiet;
    if let Some(v) = &args.ollama {
        cfg.release = changes::Release::parse(v).map_err(Failure::Usage)?;
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start the server: {e}")))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(cfg.listen)
            .await
            .map_err(|e| Failure::Usage(format!("cannot listen on {}: {e}", cfg.listen)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let mut err = std::io::stderr();
        if !addr.ip().is_loopback() {
            let _ = writeln!(
                err,
                "promptscope: warning: listening on {addr}, which other machines can reach; every model in {} can be read through it",
                cfg.models
            );
        }
        if let Some(why) = store_warning(&cfg.models) {
            let _ = writeln!(err, "promptscope: warning: {why}");
        }
        let _ = writeln!(err, "Listening on {addr} (version 0.33.0-rc2)");
        let state = server::State::new(cfg);
        server::serve(listener, state)
            .await
            .map_err(|e| Failure::Usage(format!("the server stopped: {e}")))
    })
}

#[cfg(test)]
mod tests {
    use super::{parse_host, store_warning};

    #[test]
    fn a_missing_or_empty_store_is_said_at_start() {
        let w = store_warning("/nonexistent/promptscope-models").unwrap();
        assert!(
            w.starts_with("the models directory /nonexistent/promptscope-models does not exist: every request for a model answers 404"),
            "{w}"
        );
        let empty = std::env::temp_dir().join(format!("promptscope-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        let w = store_warning(empty.to_str().unwrap()).unwrap();
        assert!(w.contains("holds no models"), "{w}");
        std::fs::remove_dir_all(&empty).unwrap();
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../store/tests/fixture/models");
        assert_eq!(store_warning(fixture), None);
    }

    #[test]
    fn hosts_as_ollama_reads_them() {
        assert_eq!(parse_host("127.0.0.1:11435").unwrap().port(), 11435);
        assert_eq!(parse_host("0.0.0.0").unwrap().to_string(), "0.0.0.0:11434");
        assert_eq!(parse_host("http://127.0.0.1").unwrap().port(), 80);
        assert_eq!(parse_host("https://127.0.0.1").unwrap().port(), 443);
        assert_eq!(parse_host(":8080").unwrap().to_string(), "0.0.0.0:8080");
        assert_eq!(parse_host("[::1]:9").unwrap().to_string(), "[::1]:9");
        assert_eq!(parse_host("127.0.0.1:99999").unwrap().port(), 11434);
    }
}
