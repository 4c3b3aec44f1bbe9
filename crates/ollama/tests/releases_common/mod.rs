#![allow(dead_code)] // each test binary uses a part of it
//! What the per-release golden tests share: reading a recording of
//! `tests/golden/releases/`, and choosing, for a supported release, the
//! recorded release no row of an area separates from it.

use serde_json::Value as Json;

/// The lines of `tests/golden/releases/<file>`.
pub fn lines(file: &str) -> Vec<Json> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/releases")
        .join(file);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The first of `recorded` whose rows of `area` in Ollama's table are
/// those of `release` (it behaves as `release` does there).
pub fn recording_for(
    release: changes::Release,
    recorded: &[&'static str],
    area: &str,
) -> &'static str {
    recorded
        .iter()
        .copied()
        .find(|tag| {
            let r = changes::Release::parse(tag).unwrap();
            changes::ollama::TABLE
                .iter()
                .filter(|c| c.area == area)
                .all(|c| release.has(c) == r.has(c))
        })
        .unwrap_or_else(|| panic!("{release}: no recording has its {area} rows"))
}
