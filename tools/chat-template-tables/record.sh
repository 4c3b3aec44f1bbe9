#!/usr/bin/env bash
# Records llama.cpp's tests/test-chat-template.cpp jinja paths as JSONL (see README.md).
#
#   LLAMA=<llama.cpp tree, built with tools/apply-template-goldens/build-llama.sh>  BUILD=b11312|b10488  record.sh
#
# BUILD names the output: b11312 writes test-chat-template.jsonl, any other build
# test-chat-template-$BUILD.jsonl. The automated rows are that build's own test cases; run_single reads
# TEMPLATES (default: b11312's models/templates in the upstream cache, the files the tests read) for every build.
set -euo pipefail
LLAMA=${LLAMA:?set LLAMA to a llama.cpp tree built with tools/apply-template-goldens/build-llama.sh}
BUILD=${BUILD:-b11312}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=${WORK:-$HOME/.cache/promptscope/chat-template-tables/$BUILD}
GOLD=$ROOT/crates/llamachat/tests/golden
if [[ $BUILD == b11312 ]]; then OUT=${OUT:-$GOLD/test-chat-template.jsonl}; else OUT=${OUT:-$GOLD/test-chat-template-$BUILD.jsonl}; fi
mkdir -p "$WORK"
python3 "$HERE/patch.py" "$LLAMA" "$WORK/test-chat-template-table.cpp"
cc -O1 -c "$ROOT/tools/apply-template-goldens/fixed_clock.c" -o "$WORK/fixed_clock.o"
c++ -std=c++17 -O1 -DLLAMA_SHARED -DGGML_SHARED \
  -I"$LLAMA/tests" -I"$LLAMA/common" -I"$LLAMA/vendor" -I"$LLAMA/include" -I"$LLAMA/ggml/include" \
  "$WORK/test-chat-template-table.cpp" "$WORK/fixed_clock.o" -o "$WORK/test-chat-template-table" -rdynamic \
  -L"$LLAMA/build/bin" -Wl,-rpath,"$LLAMA/build/bin" -lllama-common -lllama -lggml -lggml-base
rm -f "$WORK/rows.jsonl"
export TZ=UTC LC_ALL=C PROMPTSCOPE_CHAT_TABLE="$WORK/rows.jsonl"
"$WORK/test-chat-template-table" > "$WORK/automated.log" 2>&1 || echo "note: automated tests exited with $?"
tail -n 1 "$WORK/automated.log"
# run_single over the template directory, both built-in inputs (the directory of part B, same files)
TEMPLATES=${TEMPLATES:-${PROMPTSCOPE_UPSTREAM:-$HOME/.cache/promptscope/upstream}/llama.cpp-b11312/models/templates}
PROMPTSCOPE_CHAT_INPUT=default    "$WORK/test-chat-template-table" "$TEMPLATES"              > "$WORK/default.log" 2>&1 || true
PROMPTSCOPE_CHAT_INPUT=with_tools "$WORK/test-chat-template-table" "$TEMPLATES" --with-tools > "$WORK/with_tools.log" 2>&1 || true
grep -h "Total" "$WORK/default.log" "$WORK/with_tools.log" || true
# stable order: automated as run, run_single by (case, template)
python3 - "$WORK/rows.jsonl" "$OUT" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
auto = [r for r in rows if r["source"] == "automated"]
single = sorted((r for r in rows if r["source"] == "run_single"), key=lambda r: (r["case"], r["template"]))
with open(sys.argv[2], "w", encoding="utf-8") as f:
    for r in auto + single:
        f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
print(f"{len(auto)} automated + {len(single)} run_single rows -> {sys.argv[2]}")
PY
