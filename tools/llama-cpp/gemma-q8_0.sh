#!/usr/bin/env bash
# Makes gemma-3-270m-q8_0.gguf from the Gemma 3 270M Q4_K_M file with
# llama.cpp's own llama-quantize (the reference build of build.sh): every
# matrix becomes Q8_0, norms stay F32. The decoder's Gemma graph is tested
# on it (crates/inference/tests/gemma_graph.rs) with the kernels Q4_0, Q4_1
# and Q8_0 alone.
#
#   $CACHE/models/gemma-3-270m-q4_k_m.gguf   (tools/fetch-models.sh)
#   -> $CACHE/models/gemma-3-270m-q8_0.gguf
#
# CACHE is ~/.cache/promptscope. A few seconds. CI never runs this.
set -euo pipefail
CACHE=${PROMPTSCOPE_HOME:-$HOME/.cache/promptscope}
LLAMA=$CACHE/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp
SRC=$CACHE/models/gemma-3-270m-q4_k_m.gguf
DST=$CACHE/models/gemma-3-270m-q8_0.gguf
log=$(mktemp)
if ! "$LLAMA/build/bin/llama-quantize" --allow-requantize "$SRC" "$DST" Q8_0 >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
rm -f "$log"
# every matrix Q8_0, every vector F32
"$CACHE/venv-llama/bin/python" - "$DST" <<'PY'
import collections, sys
import gguf
r = gguf.GGUFReader(sys.argv[1])
kinds = collections.Counter(t.tensor_type.name for t in r.tensors)
bad = [t.name for t in r.tensors if t.tensor_type.name not in ("Q8_0", "F32")]
if bad:
    sys.exit(f"not Q8_0: {bad}")
print("gemma-q8_0:", sys.argv[1], dict(kinds))
PY
