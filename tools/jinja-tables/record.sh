#!/usr/bin/env bash
# Records llama.cpp's tests/test-jinja.cpp as a JSONL table (see README.md).
#
#   LLAMA=<llama.cpp tree, built with tools/apply-template-goldens/build-llama.sh>  BUILD=b11312|b10488  record.sh
#
# BUILD names the output: b11312 writes test-jinja.jsonl, any other build test-jinja-$BUILD.jsonl (each build's
# own test file, so the rows are that build's test cases).
set -euo pipefail
LLAMA=${LLAMA:?set LLAMA to a llama.cpp tree built with tools/apply-template-goldens/build-llama.sh}
BUILD=${BUILD:-b11312}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$HOME/.cache/promptscope/jinja-tables/$BUILD}
GOLD=$ROOT/crates/jinja/tests/golden
if [[ $BUILD == b11312 ]]; then OUT=${OUT:-$GOLD/test-jinja.jsonl}; else OUT=${OUT:-$GOLD/test-jinja-$BUILD.jsonl}; fi
mkdir -p "$WORK" "$(dirname "$OUT")"
python3 "$HERE/patch.py" "$LLAMA" "$WORK/test-jinja-table.cpp"
c++ -std=c++17 -O1 -DLLAMA_SHARED -DGGML_SHARED \
  -I"$LLAMA/tests" -I"$LLAMA/common" -I"$LLAMA/vendor" -I"$LLAMA/include" -I"$LLAMA/ggml/include" \
  "$WORK/test-jinja-table.cpp" -o "$WORK/test-jinja-table" \
  -L"$LLAMA/build/bin" -Wl,-rpath,"$LLAMA/build/bin" -lllama-common -lllama -lggml -lggml-base
# C++ mode (no -py); the program's own summary goes to test-jinja.log
PROMPTSCOPE_JINJA_TABLE="$OUT" "$WORK/test-jinja-table" > "$WORK/test-jinja.log" 2>&1 || echo "note: test-jinja exited with $? (see $WORK/test-jinja.log)"
tail -n 5 "$WORK/test-jinja.log"
echo "rows ($BUILD): $(wc -l < "$OUT") -> $OUT"
