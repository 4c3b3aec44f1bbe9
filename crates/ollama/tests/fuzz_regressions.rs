//! Inputs the fuzz targets once crashed on (`tests/fuzz-regressions/`),
//! run through the same code (`ollama::compat::exercise`).

#[test]
fn fuzz_regressions_do_not_panic() {
    let dir = std::path::PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR at run time"),
    )
    .join("tests/fuzz-regressions");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("compat-") {
            ollama::compat::exercise(&std::fs::read(&path).unwrap());
            n += 1;
        }
    }
    assert!(n >= 1);
}
