#!/usr/bin/env bash
# Records llama-server's /apply-template answers for every models/templates/*.jinja x the conversations of
# cases.py into crates/llamachat/tests/golden/apply-template.jsonl (see README.md).
set -euo pipefail
LLAMA=${LLAMA:-/root/.cache/promptscope/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$HOME/.cache/promptscope/apply-template-goldens}
GOLD=$ROOT/crates/llamachat/tests/golden
TPL=$ROOT/tests/corpus/llama-templates
mkdir -p "$WORK" "$TPL"
cp "$LLAMA"/models/templates/*.jinja "$TPL/"
cc -O1 -c "$HERE/fixed_clock.c" -o "$WORK/fixed_clock.o"
cc -O1 -shared -fPIC "$HERE/fixed_clock.c" -o "$WORK/fixed_clock.so"
c++ -std=c++17 -O1 -DLLAMA_SHARED -DGGML_SHARED \
  -I"$LLAMA/tools/server" -I"$LLAMA/build/tools/server" -I"$LLAMA/tools/mtmd" -I"$LLAMA" \
  -I"$LLAMA/common" -I"$LLAMA/vendor" -I"$LLAMA/include" -I"$LLAMA/ggml/include" \
  "$HERE/harness.cpp" "$WORK/fixed_clock.o" -o "$WORK/harness" -rdynamic \
  -L"$LLAMA/build/bin" -Wl,-rpath,"$LLAMA/build/bin" \
  -lllama-server-impl -lllama-common -lmtmd -lllama -lggml -lggml-base
python3 "$HERE/cases.py" "$TPL" > "$WORK/cases.jsonl"
start=$(date +%s)
TZ=UTC LC_ALL=C "$WORK/harness" "$TPL" < "$WORK/cases.jsonl" > "$GOLD/apply-template.jsonl" 2> "$WORK/harness.err"
echo "recorded $(wc -l < "$GOLD/apply-template.jsonl") cases in $(( $(date +%s) - start )) s -> $GOLD/apply-template.jsonl"
