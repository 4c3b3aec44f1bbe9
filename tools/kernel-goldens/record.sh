#!/usr/bin/env bash
# Regenerates crates/inference/tests/golden/kernels/{matmul,dequantize}.bin.gz
# from the reference llama.cpp build (tools/llama-cpp/build.sh).
# `record.sh bench` instead only prints ggml's timings (k = 2048, 512 rows).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
L="${L:-/root/.cache/promptscope/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp}"
PY="${PY:-/root/.cache/promptscope/venv-llama/bin/python}"
out="$root/crates/inference/tests/golden/kernels"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -Wall -I"$L/ggml/include" "$here/matmul.c" -o "$tmp/matmul" \
    -L"$L/build/bin" -lggml -lggml-base -lggml-cpu -lm -Wl,-rpath,"$L/build/bin"
if [ "${1:-}" = bench ]; then "$tmp/matmul" - bench; exit; fi
"$tmp/matmul" "$tmp/matmul.bin"
gzip -9 -n -c "$tmp/matmul.bin" > "$out/matmul.bin.gz"
"$PY" "$here/record.py" "$out/dequantize.bin.gz"
ls -l "$out"
