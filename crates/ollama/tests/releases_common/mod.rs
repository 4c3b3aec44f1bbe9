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

/// The rows of Ollama's table in `area`.
pub fn area_rows(area: &str) -> Vec<&'static changes::Change> {
    changes::ollama::TABLE
        .iter()
        .copied()
        .filter(|c| c.area == area)
        .collect()
}

/// `release`'s own recording, else the first of `recorded` that has the
/// same of `rows` in effect (the rows a recording's cases can reach: it
/// behaves as `release` does there).
pub fn recording_for(
    release: changes::Release,
    recorded: &[&'static str],
    rows: &[&'static changes::Change],
) -> &'static str {
    if let Some(own) = recorded.iter().find(|t| **t == release.tag) {
        return own;
    }
    recorded
        .iter()
        .copied()
        .find(|tag| {
            let r = changes::Release::parse(tag).unwrap();
            rows.iter().all(|c| release.has(c) == r.has(c))
        })
        .unwrap_or_else(|| {
            let ids: Vec<&str> = rows.iter().map(|c| c.id).collect();
            panic!("{release}: no recording has its rows of {ids:?}")
        })
}

/// Prints what a test checked over every supported release, and fails
/// with every failure.
pub fn report(what: &str, checked: usize, failures: &[String]) {
    report_over(
        what,
        checked,
        &format!("{} releases", changes::Release::SUPPORTED.len()),
        failures,
    );
}

/// Prints what a test checked over `over`, and fails with every failure.
pub fn report_over(what: &str, checked: usize, over: &str, failures: &[String]) {
    println!("{checked} {what} over {over}, {} failed", failures.len());
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
