#!/usr/bin/env bash
# Records llama-server's /apply-template answers for every template x the conversations of cases.py into
# crates/llamachat/tests/golden/apply-template[-BUILD].jsonl (see README.md).
#
#   LLAMA=<llama.cpp tree, built with build-llama.sh>  BUILD=b11312|b10488  record.sh
#
# BUILD names the output: b11312 writes apply-template.jsonl, any other build apply-template-$BUILD.jsonl.
# TEMPLATES (default: llama.cpp b11312's models/templates in the upstream cache, the files the tests read) is
# the same for every build, so the rows of two builds line up one to one. WORK (default
# ~/.cache/promptscope/apply-template-goldens/$BUILD) holds the harness and its log; OUT overrides the output.
set -euo pipefail
LLAMA=${LLAMA:?set LLAMA to a llama.cpp tree built with tools/apply-template-goldens/build-llama.sh}
BUILD=${BUILD:-b11312}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$HOME/.cache/promptscope/apply-template-goldens/$BUILD}
GOLD=$ROOT/crates/llamachat/tests/golden
if [[ $BUILD == b11312 ]]; then OUT=${OUT:-$GOLD/apply-template.jsonl}; else OUT=${OUT:-$GOLD/apply-template-$BUILD.jsonl}; fi
TEMPLATES=${TEMPLATES:-${PROMPTSCOPE_UPSTREAM:-$HOME/.cache/promptscope/upstream}/llama.cpp-b11312/models/templates}
mkdir -p "$WORK"
# b11312 wraps nlohmann in common_json (common/json.h); b10488 uses nlohmann::ordered_json directly
JSONDEF=()
[[ -f $LLAMA/common/json.h ]] && JSONDEF=(-DPROMPTSCOPE_COMMON_JSON)
# b9509 and older: server_chat_params has no allow_video
grep -q "bool allow_video" "$LLAMA/tools/server/server-common.h" || JSONDEF+=(-DPROMPTSCOPE_NO_ALLOW_VIDEO)
cc -O1 -c "$HERE/fixed_clock.c" -o "$WORK/fixed_clock.o"
cc -O1 -shared -fPIC "$HERE/fixed_clock.c" -o "$WORK/fixed_clock.so"
c++ -std=c++17 -O1 -DLLAMA_SHARED -DGGML_SHARED "${JSONDEF[@]}" \
  -I"$LLAMA/tools/server" -I"$LLAMA/build/tools/server" -I"$LLAMA/tools/mtmd" -I"$LLAMA" \
  -I"$LLAMA/common" -I"$LLAMA/vendor" -I"$LLAMA/include" -I"$LLAMA/ggml/include" \
  "$HERE/harness.cpp" "$WORK/fixed_clock.o" -o "$WORK/harness" -rdynamic \
  -L"$LLAMA/build/bin" -Wl,-rpath,"$LLAMA/build/bin" \
  -lllama-server-impl -lllama-common -lmtmd -lllama -lggml -lggml-base
# HARNESS_ONLY=1: build the harness and stop (tools/slot-goldens/record-delimiters.sh runs it on its own cases)
[[ -n ${HARNESS_ONLY:-} ]] && { echo "$WORK/harness"; exit 0; }
python3 "$HERE/cases.py" "$TEMPLATES" > "$WORK/cases.jsonl"
start=$(date +%s)
# LLAMA_MEDIA_MARKER pins the media marker llama-server otherwise draws at random per process
TZ=UTC LC_ALL=C LLAMA_MEDIA_MARKER='<__media__>' "$WORK/harness" "$TEMPLATES" < "$WORK/cases.jsonl" > "$OUT.partial" 2> "$WORK/harness.err"
mv "$OUT.partial" "$OUT"
grep '^harness:' "$WORK/harness.err" || true
echo "recorded $(wc -l < "$OUT") cases ($BUILD) in $(( $(date +%s) - start )) s -> $OUT"
