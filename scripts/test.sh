#!/usr/bin/env bash
# Runs every check of the project, in order:
#   setup, cargo fmt --check, clippy (native crates, and the app and the
#   inference crate for wasm32),
#   cargo test (native crates, the app's logic library, and the app's
#   components in headless Chromium via wasm-bindgen-test), trunk build
#   --release (into dist/), and the browser end-to-end tests (node --test +
#   playwright-core + Debian Chromium).
# Keeps going after a failure where later steps still make sense, prints a
# summary, and exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh --env-only

step_names=()
step_results=()
step_seconds=()
failed=0

# step NAME COMMAND...: runs COMMAND, records PASS or FAIL and its duration.
step() {
  local name=$1
  shift
  printf '\n==> %s: %s\n' "$name" "$*"
  local start=$SECONDS
  "$@"
  local rc=$?
  step_names+=("$name")
  step_seconds+=($((SECONDS - start)))
  if [[ $rc -eq 0 ]]; then
    step_results+=(PASS)
  else
    step_results+=("FAIL (exit $rc)")
    failed=1
  fi
  return 0
}

skip() {
  printf '\n==> %s: skipped (%s)\n' "$1" "$2"
  step_names+=("$1")
  step_results+=("SKIP ($2)")
  step_seconds+=(0)
  failed=1
}

last_passed() { [[ "${step_results[-1]}" == PASS ]]; }

summary() {
  printf '\n==> Summary\n'
  local i
  for i in "${!step_names[@]}"; do
    printf '  %-22s %-28s %5ss\n' "${step_names[$i]}" "${step_results[$i]}" "${step_seconds[$i]}"
  done
  if [[ $failed -eq 0 ]]; then
    printf 'test.sh: every step passed\n'
  else
    printf 'test.sh: FAILED\n'
  fi
}

wasm_size() {
  local wasm
  for wasm in dist/*.wasm; do
    [[ -f "$wasm" ]] || continue
    printf 'wasm: %s: %s bytes, %s bytes gzipped\n' "$wasm" "$(wc -c <"$wasm")" "$(gzip -9 -c "$wasm" | wc -c)"
  done
}

release_build() {
  trunk build --release && wasm_size
}

step setup bash scripts/setup.sh
if ! last_passed; then
  summary
  exit 1
fi

step fmt cargo fmt --all -- --check
step clippy-native cargo clippy --workspace --exclude promptscope-app --all-targets -- -D warnings
step clippy-wasm cargo clippy --target wasm32-unknown-unknown -p promptscope-app --all-targets -- -D warnings
# the inference crate must keep building for the browser (simd128 kernels)
step clippy-wasm-inference cargo clippy --target wasm32-unknown-unknown -p promptscope-inference --lib -- -D warnings
step test-native cargo test --workspace --exclude promptscope-app
# The app's pure logic (state, share links, curl, highlighting, messages,
# examples, the engine call) is a library without Leptos: its tests run natively.
step test-app-logic cargo test -p promptscope-app --lib
# The inference crate's wasm kernels (simd128, exact FMA through f64)
# against the scalar ones, bit for bit, in wasm under Node.
step test-wasm-kernels env \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown -p promptscope-inference --lib wasm_
# The components, mounted in headless Chromium (wasm-bindgen-test-runner
# from wasm-bindgen-cli, Debian's chromedriver; app/webdriver.json sets the
# browser's flags).
step test-components env CHROMEDRIVER=/usr/bin/chromedriver \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --target wasm32-unknown-unknown -p promptscope-app --bin promptscope-app
step trunk-build release_build
if last_passed; then
  step e2e env PROMPTSCOPE_DIST="$PWD/dist" timeout 900 \
    node --test --test-reporter=spec tests/e2e/*.spec.mjs
else
  skip e2e "no release build"
fi

summary
exit "$failed"
