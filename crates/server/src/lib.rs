//! `promptscope serve`: Ollama's HTTP API (v0.33.0-rc2) over a model store,
//! for the clients that already speak it (the `ollama`, OpenAI and Anthropic
//! SDKs, editors, agents). Every request is rendered exactly as Ollama
//! renders it; `"_debug_render_only": true` answers as Ollama does,
//! `"options": {"num_predict": 0}` renders and counts without loading the
//! weights, and `"debug": {"include": ["prompt"]}` (the dry-run proposal,
//! ollama/ollama#8165) puts the prompt and its token count in the first
//! chunk. Other requests generate on the CPU where the `inference` crate
//! runs the model's architecture.
//!
//! `axum` routes on `hyper` (a header read timeout against slow clients),
//! Ollama's CORS rules and host check, a body limit and a body read
//! timeout, a gin-style access line per request and Ollama's `template
//! selection` line.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod handlers;
mod http;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use engine::gguf::Gguf;

pub use http::{allowed_origins, log_line, origin_allowed};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address it listens on (`OLLAMA_HOST` syntax is read by the CLI).
    pub listen: SocketAddr,
    /// The Ollama models directory.
    pub models: String,
    /// `OLLAMA_ORIGINS`, as given (comma-separated), if set.
    pub origins: Option<String>,
    /// `OLLAMA_NO_CLOUD`.
    pub no_cloud: bool,
    /// The largest request body read (Ollama has no limit).
    pub body_limit: usize,
    /// How long a client may take to send its request headers.
    pub header_timeout: Duration,
    /// How long a client may take to send its request body.
    pub body_timeout: Duration,
    /// Write the access and template-selection lines.
    pub log: bool,
    /// The Ollama release it answers as (`/api/version`).
    pub release: changes::Release,
}

impl Config {
    /// Ollama's defaults for a models directory and an address.
    pub fn new(listen: SocketAddr, models: impl Into<String>) -> Config {
        Config {
            listen,
            models: models.into(),
            origins: None,
            no_cloud: false,
            body_limit: 64 << 20,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(60),
            log: true,
            release: changes::Release::NEWEST,
        }
    }
}

/// The server's state: its configuration and the GGUFs it has read (a
/// model's metadata and vocabulary are read once).
pub struct State {
    cfg: Config,
    origins: Vec<String>,
    ggufs: Mutex<HashMap<String, Arc<Gguf>>>,
}

impl State {
    /// The state for a configuration.
    pub fn new(cfg: Config) -> Arc<State> {
        Arc::new(State {
            origins: allowed_origins(cfg.origins.as_deref()),
            cfg,
            ggufs: Mutex::new(HashMap::new()),
        })
    }

    fn gguf(&self, path: &str) -> Result<Arc<Gguf>, String> {
        if let Some(g) = self.ggufs.lock().map_err(|e| e.to_string())?.get(path) {
            return Ok(g.clone());
        }
        let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let g = Arc::new(Gguf::read(std::io::BufReader::new(f), path)?);
        self.ggufs
            .lock()
            .map_err(|e| e.to_string())?
            .insert(path.to_string(), g.clone());
        Ok(g)
    }
}

/// The router with every route and middleware.
pub fn router(state: Arc<State>) -> axum::Router {
    handlers::router(state)
}

/// Serves on a bound listener until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, state: Arc<State>) -> std::io::Result<()> {
    http::serve(listener, state).await
}
