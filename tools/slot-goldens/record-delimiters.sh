#!/usr/bin/env bash
# Records the message delimiters llama-server's chat handlers declare for every template into
# crates/llamachat/tests/golden/delimiters-$BUILD.jsonl (see README.md).
#
#   LLAMA=<llama.cpp tree, built with tools/apply-template-goldens/build-llama.sh>  BUILD=b10488  record-delimiters.sh
set -euo pipefail
LLAMA=${LLAMA:?set LLAMA to a llama.cpp tree built with tools/apply-template-goldens/build-llama.sh}
BUILD=${BUILD:?set BUILD, e.g. b10488}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TEMPLATES=${TEMPLATES:-${PROMPTSCOPE_UPSTREAM:-$HOME/.cache/promptscope/upstream}/llama.cpp-b11312/models/templates}
OUT=${OUT:-$ROOT/crates/llamachat/tests/golden/delimiters-$BUILD.jsonl}
HARNESS=$(HARNESS_ONLY=1 LLAMA=$LLAMA BUILD=$BUILD bash "$ROOT/tools/apply-template-goldens/record.sh" | tail -1)
python3 "$HERE/delimiters.py" "$TEMPLATES" > "$OUT.cases"
TZ=UTC LC_ALL=C LLAMA_MEDIA_MARKER='<__media__>' PROMPTSCOPE_DELIMITERS=1 "$HARNESS" "$TEMPLATES" < "$OUT.cases" 2>/dev/null |
  python3 -c '
import json, sys
cases = [json.loads(l) for l in open(sys.argv[1])]
for c, line in zip(cases, sys.stdin):
    r = json.loads(line)
    assert (r["template"], r["case"]) == (c["template"], c["case"])
    out = {"template": r["template"], "case": r["case"], "bos_token": c["bos_token"], "eos_token": c["eos_token"],
           "body": c["body"]}
    if "message_delimiters" in r:
        out["message_delimiters"] = r["message_delimiters"]
    else:
        out["error"] = True
    print(json.dumps(out, ensure_ascii=False))' "$OUT.cases" > "$OUT"
rm -f "$OUT.cases"
echo "recorded $(wc -l < "$OUT") rows ($BUILD) -> $OUT"
