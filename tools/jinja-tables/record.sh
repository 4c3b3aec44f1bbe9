#!/usr/bin/env bash
# Records llama.cpp's tests/test-jinja.cpp as a JSONL table (see README.md).
set -euo pipefail
LLAMA=${LLAMA:-/root/.cache/promptscope/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$HOME/.cache/promptscope/jinja-tables}
OUT=${OUT:-$ROOT/crates/jinja/tests/golden/test-jinja.jsonl}
mkdir -p "$WORK" "$(dirname "$OUT")"
python3 "$HERE/patch.py" "$LLAMA" "$WORK/test-jinja-table.cpp"
c++ -std=c++17 -O1 -DLLAMA_SHARED -DGGML_SHARED \
  -I"$LLAMA/tests" -I"$LLAMA/common" -I"$LLAMA/vendor" -I"$LLAMA/include" -I"$LLAMA/ggml/include" \
  "$WORK/test-jinja-table.cpp" -o "$WORK/test-jinja-table" \
  -L"$LLAMA/build/bin" -Wl,-rpath,"$LLAMA/build/bin" -lllama-common -lllama -lggml -lggml-base
# C++ mode (no -py); the program's own summary goes to test-jinja.log
PROMPTSCOPE_JINJA_TABLE="$OUT" "$WORK/test-jinja-table" > "$WORK/test-jinja.log" 2>&1 || echo "note: test-jinja exited with $? (see $WORK/test-jinja.log)"
tail -n 5 "$WORK/test-jinja.log"
echo "rows: $(wc -l < "$OUT") -> $OUT"
