//! `/api/show` as the release answering does: `serve --ollama` sets the
//! request's release, and a parser the release does not have yet gives no
//! capability (`cohere_parser`, first in 0.30.10-rc0).

use serde_json::{json, Value};
use store::dir::MemDir;
use store::manifest::sha256_hex;
use store::show::{show, ShowRequest};

/// A store with one model `m:latest` made of its config alone: RENDERER
/// and PARSER cohere, no weights.
fn store() -> MemDir {
    let mut d = MemDir::new();
    let cfg = br#"{"model_format":"gguf","model_family":"cohere2","model_families":["cohere2"],"renderer":"cohere","parser":"cohere"}"#;
    let hex = sha256_hex(cfg);
    d.insert(&format!("blobs/sha256-{hex}"), cfg.to_vec(), None);
    let m = json!({"schemaVersion": 2,
        "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json",
                   "digest": format!("sha256:{hex}"), "size": cfg.len()},
        "layers": []});
    d.insert(
        "manifests/registry.ollama.ai/library/m/latest",
        serde_json::to_vec(&m).unwrap(),
        None,
    );
    d
}

fn capabilities(release: &str) -> Value {
    let req = ShowRequest {
        model: "m".into(),
        release: changes::Release::parse(release).unwrap(),
        ..ShowRequest::default()
    };
    let body: Value = serde_json::from_str(&show(&store(), "/models", &req).unwrap()).unwrap();
    body["capabilities"].clone()
}

#[test]
fn a_parser_the_release_lacks_gives_no_capability() {
    assert_eq!(capabilities("0.30.10-rc0"), json!(["tools", "thinking"]));
    assert_eq!(capabilities("0.33.0-rc2"), capabilities("0.30.10-rc0"));
    assert_eq!(capabilities("0.30.9"), Value::Null);
}
