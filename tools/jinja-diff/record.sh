#!/usr/bin/env bash
# Records the jinja crate's C++ goldens with driver.cpp for one llama.cpp build (see README.md, record.py).
#
#   LLAMA=<llama.cpp tree, built with tools/apply-template-goldens/build-llama.sh>  BUILD=b11312|b10488  record.sh
#
# Run tools/jinja-tables/record.sh for every build first: build-diffs*.jsonl takes the test-jinja cases of
# all of them.
set -euo pipefail
LLAMA=${LLAMA:?set LLAMA to a llama.cpp tree built with tools/apply-template-goldens/build-llama.sh}
BUILD=${BUILD:-b11312}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-$HOME/.cache/promptscope/jinja-diff/$BUILD}
mkdir -p "$WORK"
JSONDEF=()
[[ -f $LLAMA/common/json.h ]] && JSONDEF=(-DPROMPTSCOPE_COMMON_JSON)
# b9781 and older: no runtime::debug_dump_program (generated-dump is then not written)
grep -q debug_dump_program "$LLAMA/common/jinja/runtime.h" || JSONDEF+=(-DPROMPTSCOPE_NO_DEBUG_DUMP)
c++ -std=c++17 -O1 "${JSONDEF[@]}" -I"$LLAMA/common" -I"$LLAMA/vendor" -I"$LLAMA/include" -I"$LLAMA/ggml/include" \
  "$HERE/driver.cpp" -o "$WORK/driver" -L"$LLAMA/build/bin" -lllama-common -Wl,-rpath,"$LLAMA/build/bin"
start=$(date +%s)
TZ=UTC LC_ALL=C python3 "$HERE/record.py" "$WORK/driver" "$BUILD"
echo "jinja-diff ($BUILD) recorded in $(( $(date +%s) - start )) s"
