//! The config blob (types/model/config.go `ConfigV2`), decoded as Go's
//! `encoding/json` decodes it: keys matched without case, unknown keys
//! ignored, `null` leaves a field empty, a wrong type is an error.

use serde_json::{Map, Value as Json};

use crate::manifest::{field as get, go_kind};

/// `ConfigV2`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// `model_format`: `gguf` (or empty, also GGUF) or `safetensors`.
    pub model_format: String,
    /// `model_family`.
    pub model_family: String,
    /// `model_families`.
    pub model_families: Vec<String>,
    /// Whether `model_families` was a list (even empty), not absent or
    /// `null`: Go then writes `[]`, else `null`.
    pub has_model_families: bool,
    /// `model_type`: the parameter size shown (`135M`).
    pub model_type: String,
    /// `file_type`: the quantization shown (`Q4_K_M`).
    pub file_type: String,
    /// `renderer`.
    pub renderer: String,
    /// `parser`.
    pub parser: String,
    /// `requires`: the Ollama version the model needs.
    pub requires: String,
    /// `remote_host`: a cloud model's host.
    pub remote_host: String,
    /// `remote_model`.
    pub remote_model: String,
    /// `capabilities`.
    pub capabilities: Vec<String>,
    /// `context_length`.
    pub context_length: i64,
    /// `embedding_length`.
    pub embedding_length: i64,
    /// `base_name`.
    pub base_name: String,
    /// `architecture` (the OCI field, e.g. `amd64`).
    pub architecture: String,
    /// `os`.
    pub os: String,
}

impl Config {
    /// Whether the model is GGUF (`isGGUF`).
    pub fn is_gguf(&self) -> bool {
        self.model_format.is_empty() || self.model_format == "gguf"
    }
}

fn type_error(v: &Json, field: &str, ty: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go struct field ConfigV2.{field} of type {ty}",
        go_kind(v)
    )
}

fn string(m: &Map<String, Json>, k: &str) -> Result<String, String> {
    match get(m, k) {
        None | Some(Json::Null) => Ok(String::new()),
        Some(Json::String(s)) => Ok(s.clone()),
        Some(v) => Err(type_error(v, k, "string")),
    }
}

fn strings(m: &Map<String, Json>, k: &str) -> Result<Vec<String>, String> {
    match get(m, k) {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Array(a)) => a
            .iter()
            .map(|v| match v {
                Json::String(s) => Ok(s.clone()),
                Json::Null => Ok(String::new()),
                v => Err(type_error(v, k, "string")),
            })
            .collect(),
        Some(v) => Err(type_error(v, k, "[]string")),
    }
}

fn int(m: &Map<String, Json>, k: &str) -> Result<i64, String> {
    match get(m, k) {
        None | Some(Json::Null) => Ok(0),
        Some(Json::Number(n)) => n.as_i64().ok_or_else(|| {
            format!(
                "json: cannot unmarshal number {n} into Go struct field ConfigV2.{k} of type int"
            )
        }),
        Some(v) => Err(type_error(v, k, "int")),
    }
}

/// Decodes a config blob.
pub fn parse(bytes: &[u8]) -> Result<Config, String> {
    let v: Json = serde_json::from_slice(bytes).map_err(|e| crate::manifest::json_error(&e))?;
    let m = match &v {
        Json::Object(m) => m,
        Json::Null => return Ok(Config::default()),
        v => {
            return Err(format!(
                "json: cannot unmarshal {} into Go value of type model.ConfigV2",
                go_kind(v)
            ))
        }
    };
    Ok(Config {
        model_format: string(m, "model_format")?,
        model_family: string(m, "model_family")?,
        model_families: strings(m, "model_families")?,
        has_model_families: matches!(get(m, "model_families"), Some(Json::Array(_))),
        model_type: string(m, "model_type")?,
        file_type: string(m, "file_type")?,
        renderer: string(m, "renderer")?,
        parser: string(m, "parser")?,
        requires: string(m, "requires")?,
        remote_host: string(m, "remote_host")?,
        remote_model: string(m, "remote_model")?,
        capabilities: strings(m, "capabilities")?,
        context_length: int(m, "context_length")?,
        embedding_length: int(m, "embedding_length")?,
        base_name: string(m, "base_name")?,
        architecture: string(m, "architecture")?,
        os: string(m, "os")?,
    })
}
