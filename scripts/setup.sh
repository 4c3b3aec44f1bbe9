#!/usr/bin/env bash
# Installs what building, serving and testing Promptscope needs, skipping
# whatever is already there at the pinned version. Safe to run again.
#
#   bash scripts/setup.sh     install and verify the tools
#   source scripts/setup.sh   the same, and keep PATH and CARGO_TARGET_DIR set in
#                             this shell
#   source scripts/setup.sh --serve      only what serving the app needs: no
#                             Chromium (the tests' browser; scripts/serve.sh)
#   source scripts/setup.sh --env-only   only set the environment
#
# Expects a Debian machine with rustup/cargo, node 20/npm and apt-get. Pinned:
#   wasm32-unknown-unknown target, wasm-bindgen-cli 0.2.129, trunk 0.21.14,
#   the nightly toolchain ($PROMPTSCOPE_NIGHTLY, default `nightly`) with its
#   rust-src, clippy and wasm32 target and the standard library's crates,
#   for the threaded generation worker (scripts/build-threaded-worker.sh),
#   npm packages from package-lock.json (binaryen 132 for wasm-opt, playwright-core),
#   Debian chromium + chromium-driver (for the tests; not with --serve).
# No tool is allowed to download a browser or a prebuilt binary: Trunk runs
# offline and finds wasm-bindgen in ~/.cargo/bin and wasm-opt in node_modules/.bin.

PROMPTSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PROMPTSCOPE_ROOT
# Build outputs live outside the clone, one folder per checkout (its name
# and a hash of its path): cargo would take a test binary built in another
# checkout of the same sources as current (its fingerprints are relative to
# the workspace and go by mtimes), and that binary reads its fixtures through
# the other checkout's CARGO_MANIFEST_DIR, gone or older.
if [[ -z "${CARGO_TARGET_DIR:-}" ]]; then
  CARGO_TARGET_DIR="$(cd "$PROMPTSCOPE_ROOT" && pwd -P)"
  CARGO_TARGET_DIR="$HOME/.cache/promptscope/target/$(basename "$CARGO_TARGET_DIR")-$(printf '%s' "$CARGO_TARGET_DIR" | sha256sum | cut -c1-10)"
fi
export CARGO_TARGET_DIR
# npm binaryen's wasm-opt first (Debian's wasm-opt 108 breaks the app), then cargo-installed tools.
export PATH="$PROMPTSCOPE_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# playwright-core never downloads browsers by itself; make sure nothing else tries either.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

promptscope_setup() (
  set -euo pipefail
  cd "$PROMPTSCOPE_ROOT"

  local wasm_bindgen_version=0.2.129
  local trunk_version=0.21.14
  local wasm_opt_version=132

  log() { printf 'setup: %s\n' "$*"; }
  die() {
    printf 'setup: error: %s\n' "$*" >&2
    exit 1
  }

  for tool in rustup cargo node npm; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (need rustup/cargo, node 20 and npm)"
  done

  # Rust: wasm target and the components that scripts/test.sh uses.
  local targets components
  targets="$(rustup target list --installed)"
  components="$(rustup component list --installed)"
  if grep -qx wasm32-unknown-unknown <<<"$targets"; then
    log "rust target wasm32-unknown-unknown: present"
  else
    log "installing rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  for component in rustfmt clippy; do
    if grep -q "^$component" <<<"$components"; then
      log "rust component $component: present"
    else
      log "installing rust component $component"
      rustup component add "$component"
    fi
  done

  # Nightly Rust for the threaded generation worker: `-Z build-std` rebuilds
  # the standard library with atomics (rust-src), for wasm32, linted by
  # clippy-driver as it builds (scripts/build-threaded-worker.sh).
  local nightly="${PROMPTSCOPE_NIGHTLY:-nightly}"
  if rustup run "$nightly" rustc --version >/dev/null 2>&1; then
    log "rust toolchain $nightly: present ($(rustup run "$nightly" rustc --version))"
  else
    log "installing rust toolchain $nightly"
    rustup toolchain install "$nightly" --profile minimal
  fi
  if grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed --toolchain "$nightly")"; then
    log "rust target wasm32-unknown-unknown ($nightly): present"
  else
    log "installing rust target wasm32-unknown-unknown ($nightly)"
    rustup target add wasm32-unknown-unknown --toolchain "$nightly"
  fi
  local nightly_components
  nightly_components="$(rustup component list --installed --toolchain "$nightly")"
  for component in rust-src clippy; do
    if grep -q "^$component" <<<"$nightly_components"; then
      log "rust component $component ($nightly): present"
    else
      log "installing rust component $component ($nightly)"
      rustup component add "$component" --toolchain "$nightly"
    fi
  done

  # The two tools crates.io ships only as source are built here, in one
  # target folder, with a quick release profile: no LTO and opt-level 1
  # instead of trunk's fat LTO with one codegen unit (8m50s on two cores).
  # trunk only orchestrates (cargo, wasm-bindgen and wasm-opt do the work):
  # it is built unoptimized, 127 s instead of 286 s, and a release build of
  # the app took 51.5 s with it against 51.0 s. wasm-bindgen rewrites every
  # wasm file itself and stays at opt-level 1 (unoptimized it builds in
  # 50 s instead of 122 s but runs three times slower, 1.5 s instead of
  # 0.5 s a file, on every test run).
  local tools=(env CARGO_TARGET_DIR="${PROMPTSCOPE_TOOLS_TARGET:-$HOME/.cache/promptscope/tools-target}"
    CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_DEBUG=false)

  # wasm-bindgen-cli, exactly the version the app pins.
  if [[ "$(wasm-bindgen --version 2>/dev/null || true)" == "wasm-bindgen $wasm_bindgen_version"* ]]; then
    log "wasm-bindgen $wasm_bindgen_version: present"
  else
    log "installing wasm-bindgen-cli $wasm_bindgen_version (a few minutes)"
    "${tools[@]}" cargo install --locked wasm-bindgen-cli --version "$wasm_bindgen_version"
  fi

  # trunk 0.21.14 (0.22 needs a newer rustc).
  if [[ "$(trunk --version 2>/dev/null || true)" == "trunk $trunk_version"* ]]; then
    log "trunk $trunk_version: present"
  else
    log "installing trunk $trunk_version (a few minutes)"
    # without its default features (rustls and the check for a newer
    # release): it runs offline here and serves loopback over plain HTTP
    "${tools[@]}" CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
      cargo install --locked trunk --version "$trunk_version" --no-default-features
  fi

  # npm packages, exactly as in package-lock.json: serving needs only the
  # dependencies (binaryen); the tests also the devDependencies
  # (playwright-core, axe-core, @wllama/wllama).
  local npm_scope=all npm_omit=()
  if [[ "${1:-}" == "--serve" ]]; then
    npm_scope=serve
    npm_omit=(--omit=dev)
  fi
  if NPM_SCOPE=$npm_scope node -e '
      const lock = require("./package-lock.json");
      for (const [key, entry] of Object.entries(lock.packages)) {
        if (!key.startsWith("node_modules/")) continue;
        if (process.env.NPM_SCOPE === "serve" && entry.dev) continue;
        let have;
        try { have = require("./" + key + "/package.json").version; } catch { process.exit(1); }
        if (have !== entry.version) process.exit(1);
      }' 2>/dev/null; then
    log "npm packages ($npm_scope): present"
  else
    log "installing npm packages ($npm_scope: npm ci ${npm_omit[*]})"
    npm ci --no-audit --no-fund "${npm_omit[@]}"
  fi

  # Trunk must pick npm binaryen's wasm-opt from node_modules/.bin.
  local wasm_opt
  wasm_opt="$(command -v wasm-opt || true)"
  [[ "$wasm_opt" == "$PROMPTSCOPE_ROOT/node_modules/.bin/wasm-opt" ]] ||
    die "wasm-opt resolves to '$wasm_opt', expected node_modules/.bin/wasm-opt"
  [[ "$(wasm-opt --version)" == *"version $wasm_opt_version"* ]] ||
    die "wasm-opt is '$(wasm-opt --version)', expected version $wasm_opt_version"
  log "wasm-opt $wasm_opt_version: $wasm_opt"

  # Debian Chromium for the browser tests (playwright-core drives it; it
  # downloads nothing). Serving needs no browser: --serve leaves it out.
  if [[ "${1:-}" == "--serve" ]]; then
    log "chromium: not needed to serve (the test command installs it)"
  elif [[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]]; then
    log "chromium: present ($(/usr/bin/chromium --version 2>/dev/null || true))"
  else
    command -v apt-get >/dev/null || die "install Debian's chromium and chromium-driver packages"
    local sudo=()
    [[ "$(id -u)" == 0 ]] || sudo=(sudo)
    local install=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver)
    if ! apt-cache show chromium >/dev/null 2>&1; then
      log "apt-get update (no package lists yet)"
      "${sudo[@]}" apt-get update
    fi
    log "installing chromium and chromium-driver"
    if ! "${install[@]}"; then
      log "retrying after apt-get update"
      "${sudo[@]}" apt-get update
      "${install[@]}"
    fi
  fi

  # Download every crate now: Trunk builds with `cargo --offline`.
  log "cargo fetch"
  cargo fetch --quiet
  # and the crates of nightly's standard library, which -Z build-std builds
  log "cargo +$nightly fetch -Z build-std (the standard library's crates)"
  cargo "+$nightly" fetch --quiet -Z build-std=std,panic_abort --target wasm32-unknown-unknown

  log "done (CARGO_TARGET_DIR=$CARGO_TARGET_DIR)"
)

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  promptscope_setup "$@"
elif [[ "${1:-}" != "--env-only" ]]; then
  # Sourced: install in a child process, where `set -e` always holds (it would
  # not inside a tested context such as `source ... || ...`), and keep the
  # environment above in the calling shell. `--env-only` skips the install.
  bash "${BASH_SOURCE[0]}" "$@"
fi
