#!/usr/bin/env bash
# Builds the threaded generation worker, `generate-worker-threads`
# (app/src/bin/generate_worker_threads.rs), into the app's build output.
#
# Trunk 0.21 builds every other binary from index.html's <link> tags, but it
# cannot give one binary another toolchain or other RUSTFLAGS, and wasm
# threads need both: nightly Rust to rebuild the standard library with
# atomics (`-Z build-std`), `+atomics` (shared memory) and wasm-bindgen's
# `--target web` output (the pool's workers load the module again by URL).
# So Trunk runs this script as a post_build hook (Trunk.toml), which puts the
# files into Trunk's staging folder before it becomes dist/:
#
#   generate-worker-threads_loader.js    the module worker the pane starts
#                                        (assets/generate-worker-threads_loader.js)
#   generate-worker-threads.js, generate-worker-threads_bg.wasm
#   snippets/promptscope-app-*/          the helper threads' worker script
#                                        (app/src/bin/generate/pool.js)
#
#   bash scripts/build-threaded-worker.sh [OUT_DIR]
#
# Standalone it builds the release worker into OUT_DIR (default dist/, which
# must hold a Trunk build). From Trunk, OUT_DIR is $TRUNK_STAGING_DIR and
# $TRUNK_PROFILE picks the profile: release (release-wasm, then wasm-opt -Oz
# as Trunk does for the other workers) or debug (dev, no wasm-opt).
# PROMPTSCOPE_SKIP_THREADS=1 skips it (quicker `trunk serve` rebuilds; the
# Generate pane then has no threaded engine to start). The toolchain is
# $PROMPTSCOPE_NIGHTLY (default `nightly`); scripts/setup.sh installs its
# rust-src component, its wasm32 target and the standard library's crates,
# so cargo runs offline here. Its own target folder,
# $CARGO_TARGET_DIR/threads, keeps it from rebuilding the stable builds' files.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# shellcheck source=scripts/setup.sh
source scripts/setup.sh --env-only

log() { printf 'build-threaded-worker: %s\n' "$*"; }
die() {
  printf 'build-threaded-worker: error: %s\n' "$*" >&2
  exit 1
}

if [[ "${PROMPTSCOPE_SKIP_THREADS:-}" == 1 ]]; then
  log "skipped (PROMPTSCOPE_SKIP_THREADS=1)"
  exit 0
fi

toolchain="${PROMPTSCOPE_NIGHTLY:-nightly}"
out="${1:-${TRUNK_STAGING_DIR:-$root/dist}}"
[[ -d "$out" ]] || die "no output folder $out (run \`trunk build --release\` first)"
if [[ "${TRUNK_PROFILE:-release}" == debug ]]; then
  profile=dev
  profile_dir=debug
else
  profile=release-wasm
  profile_dir=release-wasm
fi

rustup run "$toolchain" rustc --version >/dev/null 2>&1 ||
  die "no $toolchain Rust toolchain: run \`bash scripts/setup.sh\`"
rustup which --toolchain "$toolchain" clippy-driver >/dev/null 2>&1 ||
  die "$toolchain has no clippy component: run \`bash scripts/setup.sh\`"
sysroot="$(rustup run "$toolchain" rustc --print sysroot)"
[[ -f "$sysroot/lib/rustlib/src/rust/library/Cargo.lock" ]] ||
  die "$toolchain has no rust-src component: run \`bash scripts/setup.sh\`"
[[ -d "$sysroot/lib/rustlib/wasm32-unknown-unknown" ]] ||
  die "$toolchain has no wasm32-unknown-unknown target: run \`bash scripts/setup.sh\`"

target_dir="$CARGO_TARGET_DIR/threads"
wasm="$target_dir/wasm32-unknown-unknown/$profile_dir/generate-worker-threads.wasm"
start=$SECONDS
log "cargo +$toolchain rustc ($profile, -Z build-std, +atomics) into $target_dir"
# RUSTFLAGS replaces .cargo/config.toml's wasm32 flags, so getrandom's
# backend is repeated here. The link arguments go to the worker's own link
# alone (`cargo rustc -- ...`): .cargo/config.toml's 8 MiB stack, and what
# wasm-bindgen's thread support needs from wasm-ld (a shared memory the
# module imports, and the thread-local storage symbols it initializes on
# each thread). Shared memory declares its maximum up front: 4 GiB, what
# the single-threaded workers can grow to (the Generate pane's memory check
# assumes it).
link_args=(-C link-arg=-zstack-size=8388608 -C link-arg=--shared-memory -C link-arg=--import-memory
  -C link-arg=--max-memory=4294967296)
for symbol in __wasm_init_tls __tls_size __tls_align __tls_base; do
  link_args+=(-C "link-arg=--export=$symbol")
done
# Built through clippy-driver, as `cargo clippy` runs it but producing the
# binary: the app's crate (the worker's threaded code is cfg'd out of the
# stable builds that scripts/test.sh lints) is linted with `-D warnings` as
# it compiles, with no second pass over every dependency. CLIPPY_ARGS is
# how cargo-clippy hands clippy-driver its arguments (`--no-deps`: the
# other workspace crates, linted on stable by scripts/test.sh, compile
# unlinted).
CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__--no-deps" \
  RUSTC_WORKSPACE_WRAPPER="$(rustup which --toolchain "$toolchain" clippy-driver)" \
  RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128,+relaxed-simd --cfg getrandom_backend=\"wasm_js\"" \
  cargo "+$toolchain" rustc --offline --quiet \
  -Z build-std=std,panic_abort \
  --target wasm32-unknown-unknown \
  --target-dir "$target_dir" \
  --profile "$profile" \
  -p promptscope-app --bin generate-worker-threads --features threads \
  -- "${link_args[@]}"

staging="$(mktemp -d "${TMPDIR:-/tmp}/promptscope-threads.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$staging" --out-name generate-worker-threads "$wasm"
if [[ "$profile" == release-wasm ]]; then
  # the flags Trunk gives the other workers (index.html), with threads
  wasm-opt -Oz \
    --enable-threads --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-multivalue --enable-reference-types --enable-simd \
    --enable-relaxed-simd \
    -o "$staging/opt.wasm" "$staging/generate-worker-threads_bg.wasm"
  mv "$staging/opt.wasm" "$staging/generate-worker-threads_bg.wasm"
fi

cp "$staging/generate-worker-threads.js" "$staging/generate-worker-threads_bg.wasm" "$out/"
mkdir -p "$out/snippets"
cp -R "$staging/snippets/." "$out/snippets/"
cp assets/generate-worker-threads_loader.js "$out/"
bytes=$(wc -c <"$out/generate-worker-threads_bg.wasm")
gz=$(gzip -9 -c "$out/generate-worker-threads_bg.wasm" | wc -c)
log "generate-worker-threads_bg.wasm: $bytes bytes, $gz gzipped ($((SECONDS - start)) s)"
