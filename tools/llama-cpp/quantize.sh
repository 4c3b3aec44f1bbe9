#!/usr/bin/env bash
# Requantizes SmolLM2-135M-Instruct Q4_1 (scripts/fetch-models.sh) with the
# reference llama.cpp's own llama-quantize (tools/llama-cpp/build.sh) into the
# model cache, beside it:
#
#   SmolLM2-135M-Instruct.Q4_K_M.gguf  105,454,144 bytes (98.87 MiB, 6.17 BPW)
#     F32  x61  attn_norm, ffn_norm, output_norm
#     Q5_0 x166 attn_q, attn_k, attn_output, ffn_gate, ffn_up (all 30 layers)
#               and attn_v of the 16 other layers: their rows have 576
#               columns, not a multiple of 256, so Q4_K falls back to Q5_0
#     Q8_0 x15  token_embd (the tied output; Q6_K falls back to Q8_0) and
#               attn_v of layers 0 1 2 5 8 11 14 17 20 23 26 27 28 29 (the
#               "more bits" layers: Q6_K falls back to Q8_0)
#     Q6_K x14  ffn_down (1536 columns) of those same 14 layers
#     Q4_K x16  ffn_down of the other 16 layers
#   SmolLM2-135M-Instruct.Q8_0.gguf    144,811,072 bytes
#     F32  x61  attn_norm, ffn_norm, output_norm
#     Q8_0 x211 every matrix, token_embd included
#
# (the types as llama.cpp's gguf-py, $LLAMA/gguf-py, lists them:
# `quantize.sh --types` prints them.)
#
# The outputs do not depend on the thread count. Each output's sha256 is
# recorded below; a file already there with that checksum is kept, and
# `quantize.sh --check` quantizes again (into a temporary file, compared with
# the recorded checksum before it replaces the file), which proves the recipe
# reproduces. CI never runs this (it needs the
# llama.cpp build); the tests that read these files skip them when absent.
#
#   bash tools/llama-cpp/quantize.sh [--check] [--types]
set -euo pipefail
CACHE=${PROMPTSCOPE_HOME:-$HOME/.cache/promptscope}
MODELS=${PROMPTSCOPE_CACHE:-$CACHE/models}
LLAMA=$CACHE/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp
QUANTIZE=$LLAMA/build/bin/llama-quantize
PYTHON=$CACHE/venv-llama/bin/python
SRC=$MODELS/SmolLM2-135M-Instruct.Q4_1.gguf
SRC_SHA=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53

# TYPE SHA256
OUTPUTS=(
  "Q4_K_M dc0f3a02e821146247a0af6895adf9872124f368682cb110cb9ed09ff2a9f9f1"
  "Q8_0 7b46609d11703c058397e5cfe4cc6e4b2508cb1eb4c80ddc472a5d421fbdb508"
)

log() { printf 'quantize: %s\n' "$*"; }
die() {
  printf 'quantize: error: %s\n' "$*" >&2
  exit 1
}

check=0 types=0
for arg in "$@"; do
  case $arg in
  --check) check=1 ;;
  --types) types=1 ;;
  *) die "unknown argument $arg (use --check, --types)" ;;
  esac
done

[[ -x $QUANTIZE ]] || die "no $QUANTIZE: run bash tools/llama-cpp/build.sh first"
[[ -f $SRC ]] || die "no $SRC: run bash scripts/fetch-models.sh first"
[[ "$(sha256sum "$SRC" | cut -d' ' -f1)" == "$SRC_SHA" ]] || die "$SRC has the wrong sha256"

for out in "${OUTPUTS[@]}"; do
  read -r type sha <<<"$out"
  dest=$MODELS/SmolLM2-135M-Instruct.$type.gguf
  if [[ $check == 0 && -f $dest ]] && [[ "$(sha256sum "$dest" | cut -d' ' -f1)" == "$sha" ]]; then
    log "$(basename "$dest"): present, sha256 $sha"
    continue
  fi
  partial=$dest.partial.$$
  log "llama-quantize --allow-requantize $(basename "$SRC") -> $type"
  "$QUANTIZE" --allow-requantize "$SRC" "$partial" "$type" 1 >"$partial.log" 2>&1 ||
    {
      tail -n 20 "$partial.log" >&2
      rm -f "$partial" "$partial.log"
      die "llama-quantize $type failed"
    }
  rm -f "$partial.log"
  got=$(sha256sum "$partial" | cut -d' ' -f1)
  if [[ $got != "$sha" ]]; then
    rm -f "$partial"
    die "$type: sha256 $got, expected $sha: the recipe did not reproduce"
  fi
  mv "$partial" "$dest"
  log "$(basename "$dest"): sha256 $sha (reproduced)"
done

if [[ $types == 1 ]]; then
  for out in "${OUTPUTS[@]}"; do
    read -r type _ <<<"$out"
    PYTHONPATH=$LLAMA/gguf-py "$PYTHON" - "$MODELS/SmolLM2-135M-Instruct.$type.gguf" <<'PY'
import collections, re, sys
from gguf import GGUFReader
r = GGUFReader(sys.argv[1])
count, names = collections.Counter(), collections.defaultdict(set)
for t in r.tensors:
    count[t.tensor_type.name] += 1
    names[t.tensor_type.name].add(re.sub(r"^blk\.\d+\.|\.weight$", "", t.name))
print(sys.argv[1])
for k, n in count.most_common():
    print(f"  {k:5} x{n:<3} {' '.join(sorted(names[k]))}")
PY
  done
fi
