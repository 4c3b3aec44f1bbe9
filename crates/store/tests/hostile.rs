//! Bad and hostile stores: names that try to leave the store, links that
//! point out, missing blobs, truncated or invalid manifests, layers that
//! claim gigabytes, huge folders. Each is a clear error naming the file,
//! never a panic or a read of a model blob.

use serde_json::json;
use store::dir::{Dir, DirErrorKind, MemDir};
use store::manifest::sha256_hex;
use store::model::{get_model, load};

const T: i128 = 1_790_000_000_000_000_000;

/// A store with one model `m:latest`: a GGUF-ish model blob that must never
/// be read whole, a template and a params layer.
fn store_with(extra: impl FnOnce(&mut MemDir, &mut Vec<serde_json::Value>)) -> MemDir {
    let mut d = MemDir::new();
    let mut layers = Vec::new();
    let blob = |d: &mut MemDir, media: &str, bytes: &[u8]| {
        let hex = sha256_hex(bytes);
        d.insert(&format!("blobs/sha256-{hex}"), bytes.to_vec(), Some(T));
        json!({"mediaType": media, "digest": format!("sha256:{hex}"), "size": bytes.len()})
    };
    let cfg = blob(
        &mut d,
        "application/vnd.docker.container.image.v1+json",
        br#"{"model_format":"gguf","model_family":"llama","model_families":["llama"],"model_type":"1M","file_type":"Q8_0"}"#,
    );
    // the model blob: only its size is known to the store, its bytes were
    // never read
    let hex = "ab".repeat(32);
    d.insert_unread(&format!("blobs/sha256-{hex}"), 5 << 30, Some(T));
    layers.push(json!({"mediaType": "application/vnd.ollama.image.model", "digest": format!("sha256:{hex}"), "size": 5u64 << 30}));
    layers.push(blob(
        &mut d,
        "application/vnd.ollama.image.template",
        b"{{ .Prompt }}!",
    ));
    layers.push(blob(
        &mut d,
        "application/vnd.ollama.image.params",
        br#"{"num_ctx":8192,"stop":["<|im_end|>"]}"#,
    ));
    extra(&mut d, &mut layers);
    let m = json!({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json", "config": cfg, "layers": layers});
    d.insert(
        "manifests/registry.ollama.ai/library/m/latest",
        serde_json::to_vec(&m).unwrap(),
        Some(T),
    );
    d
}

#[test]
fn a_model_loads_without_reading_its_weights() {
    let d = store_with(|_, _| {});
    let m = load(&d, "m").unwrap();
    assert_eq!(m.template.as_deref(), Some("{{ .Prompt }}!"));
    assert_eq!(m.options["num_ctx"], json!(8192));
    assert_eq!(m.config.model_family, "llama");
    assert!(m.model.is_some());
    // the M in M:latest resolves without case
    assert_eq!(
        load(&d, "M:LATEST").unwrap().full_name,
        "registry.ollama.ai/library/m:latest"
    );
    let mut case = json!({"model": {}, "request": {"model": "m", "options": {"stop": ["x"]}}});
    m.fill_case(&mut case);
    assert_eq!(case["model"]["template"], json!("{{ .Prompt }}!"));
    // request wins key by key; stop is replaced, not appended
    assert_eq!(
        case["request"]["options"],
        json!({"num_ctx": 8192, "stop": ["x"]})
    );
}

#[test]
fn names_cannot_leave_the_store() {
    let d = store_with(|d, _| {
        d.insert("secret", b"{}".to_vec(), None);
    });
    for name in [
        "../secret",
        "../../etc/passwd",
        "/etc/passwd",
        "a/../../x",
        "m\0:latest",
        "..",
        "./m",
        "m:../../x",
        "host/ns/../m",
        "C:\\x\\y",
    ] {
        let r = load(&d, name).unwrap_err();
        assert!(
            r.status == 400 || r.status == 404,
            "{name:?}: {} {}",
            r.status,
            r.message
        );
    }
}

#[test]
fn a_digest_that_is_not_a_sha256_cannot_name_a_path() {
    let d = store_with(|_, layers| {
        layers.push(json!({"mediaType": "application/vnd.ollama.image.system", "digest": "sha256:../../../secret", "size": 2}));
    });
    let e = get_model(&d, "m").unwrap_err();
    assert!(e.to_string().contains("invalid digest format"), "{e}");
    assert!(
        e.to_string()
            .contains("manifests/registry.ollama.ai/library/m/latest"),
        "{e}"
    );
}

#[test]
fn a_missing_blob_names_the_file() {
    let d = store_with(|_, layers| {
        layers.push(json!({"mediaType": "application/vnd.ollama.image.system", "digest": format!("sha256:{}", "cd".repeat(32)), "size": 10}));
    });
    let e = get_model(&d, "m").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "blobs/sha256-{}: no such file or directory",
            "cd".repeat(32)
        )
    );
}

#[test]
fn a_small_layer_that_is_huge_is_refused_before_it_is_read() {
    let d = store_with(|d, layers| {
        let hex = "ef".repeat(32);
        d.insert_unread(&format!("blobs/sha256-{hex}"), 3 << 30, None);
        layers.push(json!({"mediaType": "application/vnd.ollama.image.system", "digest": format!("sha256:{hex}"), "size": 12}));
    });
    let e = get_model(&d, "m").unwrap_err();
    assert!(
        matches!(e.kind, store::ErrorKind::Dir(DirErrorKind::TooLarge { size, .. }) if size == 3 << 30),
        "{e}"
    );
    assert!(e.to_string().contains("3221225472 bytes"), "{e}");
}

#[test]
fn broken_manifests_are_errors_with_their_path() {
    let path = "manifests/registry.ollama.ai/library/m/latest";
    for (bytes, want) in [
        (
            &b"{\"schemaVersion\": 2, \"layers\": ["[..],
            "EOF while parsing",
        ),
        (b"", "EOF while parsing"),
        (
            b"[]",
            "cannot unmarshal array into Go value of type manifest.Manifest",
        ),
        (
            b"{\"layers\": {}}",
            "cannot unmarshal object into Go struct field Manifest.layers",
        ),
        (
            b"{\"schemaVersion\": \"2\"}",
            "cannot unmarshal string into Go struct field Manifest.schemaVersion",
        ),
        (b"\xff\xfe", "invalid"),
    ] {
        let mut d = MemDir::new();
        d.insert(path, bytes.to_vec(), None);
        let e = get_model(&d, "m").unwrap_err();
        let s = e.to_string();
        assert!(s.starts_with(path), "{s}");
        assert!(s.contains(want), "{s} lacks {want}");
    }
}

#[test]
fn a_manifest_claiming_gigabytes_is_listed_without_reading_anything_big() {
    let d = store_with(|_, layers| {
        layers[0]["size"] = json!(i64::MAX);
    });
    let (models, skipped) = store::list::list(&d).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(models.len(), 1);
    // Ollama adds the claimed sizes (wrapping, as Go's int64 does)
    assert!(models[0].size < 0 || models[0].size > (5 << 30));
    // the model blob could not even be read: the list went on without its
    // GGUF facts
    assert!(models[0].gguf_bytes_read == 0);
}

#[test]
fn a_folder_with_too_many_entries_is_an_error_not_a_hang() {
    let mut d = MemDir::new();
    for i in 0..10_000 {
        d.insert(
            &format!("manifests/registry.ollama.ai/library/m{i}/latest"),
            b"{}".to_vec(),
            None,
        );
    }
    let e = d
        .entries("manifests/registry.ollama.ai/library", 1000)
        .unwrap_err();
    assert_eq!(e.kind, DirErrorKind::TooManyEntries { limit: 1000 });
    // the store's own limit is far above: 10,000 models list, each an
    // empty manifest
    let (models, skipped) = store::list::list(&d).unwrap();
    assert_eq!(models.len() + skipped.len(), 10_000);
}

#[test]
fn a_bad_config_or_params_blob_names_its_file() {
    for (media, bytes, want) in [
        (
            "application/vnd.ollama.image.params",
            &b"[1]"[..],
            "cannot unmarshal array into Go value of type map[string]interface {}",
        ),
        (
            "application/vnd.ollama.image.params",
            b"{",
            "EOF while parsing",
        ),
        (
            "application/vnd.ollama.image.messages",
            b"{}",
            "cannot unmarshal object into Go value of type []api.Message",
        ),
        (
            "application/vnd.ollama.image.messages",
            b"[{\"role\": 1}]",
            "cannot unmarshal number",
        ),
    ] {
        let d = store_with(|d, layers| {
            let hex = sha256_hex(bytes);
            d.insert(&format!("blobs/sha256-{hex}"), bytes.to_vec(), None);
            layers.push(
                json!({"mediaType": media, "digest": format!("sha256:{hex}"), "size": bytes.len()}),
            );
        });
        let e = get_model(&d, "m").unwrap_err().to_string();
        assert!(e.starts_with("blobs/sha256-"), "{e}");
        assert!(e.contains(want), "{e} lacks {want}");
    }
}

#[test]
fn verify_streams_and_catches_a_changed_blob() {
    let mut d = MemDir::new();
    let bytes = vec![7u8; 1 << 20];
    let hex = sha256_hex(&bytes);
    d.insert(&format!("blobs/sha256-{hex}"), bytes.clone(), None);
    let n = store::manifest::verify_blob(&d, &format!("sha256:{hex}"), 4096).unwrap();
    assert_eq!(n, 1 << 20);
    let mut changed = bytes;
    changed[12345] ^= 1;
    d.insert(&format!("blobs/sha256-{hex}"), changed, None);
    let e = store::manifest::verify_blob(&d, &format!("sha256:{hex}"), 4096).unwrap_err();
    assert!(e.to_string().contains("digest mismatch"), "{e}");
}

#[cfg(unix)]
#[test]
fn links_that_point_out_of_the_store_are_refused() {
    use store::dir::FsDir;
    let tmp = std::env::temp_dir().join(format!("promptscope-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let models = tmp.join("models");
    std::fs::create_dir_all(models.join("manifests/registry.ollama.ai/library/m")).unwrap();
    std::fs::create_dir_all(models.join("blobs")).unwrap();
    std::fs::write(tmp.join("outside"), b"{\"schemaVersion\":2}").unwrap();
    std::os::unix::fs::symlink(
        tmp.join("outside"),
        models.join("manifests/registry.ollama.ai/library/m/latest"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&tmp, models.join("manifests/registry.ollama.ai/up")).unwrap();
    let d = FsDir::open(&models).unwrap();
    let e = get_model(&d, "m").unwrap_err();
    assert_eq!(e.kind, store::ErrorKind::Dir(DirErrorKind::Escapes), "{e}");
    assert!(e
        .to_string()
        .contains("resolves outside the models directory"));
    // the path forms the reader never builds are refused all the same
    for p in ["../outside", "/etc/passwd", "blobs/../../outside", "a\0b"] {
        assert_eq!(
            d.read(p, 100).unwrap_err().kind,
            DirErrorKind::Escapes,
            "{p}"
        );
    }
    // listing goes on past the link that leaves
    let (models_listed, skipped) = store::list::list(&d).unwrap();
    assert!(models_listed.is_empty());
    assert!(
        skipped.iter().any(|s| s.why.contains("outside")),
        "{skipped:?}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
