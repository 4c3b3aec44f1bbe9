#!/usr/bin/env bash
# Builds the reference llama.cpp outside the repository: llama.cpp commit
# 0c1e570 as vendored in llama-cpp-python 0.3.36, the AVX2 build whose
# arithmetic Promptscope's kernels follow (no -march=native, no AVX-512, no
# AMX: the default native build crashed on eval on an AVX-512/AMX machine).
#
#   $CACHE/sdist/llama_cpp_python-0.3.36/vendor/llama.cpp/build/bin
#       libllama.so, libggml*.so, llama-quantize (and what else TARGETS names)
#   $CACHE/venv-llama   Python with llama_cpp (on those libraries), numpy, gguf
#
# CACHE is ~/.cache/promptscope. Safe to run again: what is there is kept.
# About 10-15 minutes on two cores the first time. CI never runs this.
set -euo pipefail
CACHE=${PROMPTSCOPE_HOME:-$HOME/.cache/promptscope}
VERSION=0.3.36
SDIST=$CACHE/sdist/llama_cpp_python-$VERSION
LLAMA=$SDIST/vendor/llama.cpp
TARGETS=${TARGETS:-"llama llama-quantize"}
log() { printf 'llama-cpp: %s\n' "$*"; }

if [[ ! -d $LLAMA ]]; then
  mkdir -p "$CACHE/sdist"
  python3 -m pip install -q cmake ninja scikit-build-core
  log "downloading the llama-cpp-python $VERSION sdist"
  python3 -m pip download -q "llama-cpp-python==$VERSION" --no-deps \
    --no-binary llama-cpp-python --no-build-isolation -d "$CACHE/sdist"
  tar xzf "$CACHE/sdist/llama_cpp_python-$VERSION.tar.gz" -C "$CACHE/sdist"
fi

FLAGS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DLLAMA_CURL=OFF
  -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
  -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF
  -DGGML_AVX512_BF16=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF
  -DGGML_AMX_BF16=OFF -DGGML_OPENMP=OFF -DLLAMA_BUILD_TESTS=OFF)
cmake -S "$LLAMA" -B "$LLAMA/build" -G Ninja "${FLAGS[@]}" >/dev/null
log "building $TARGETS"
# shellcheck disable=SC2086
cmake --build "$LLAMA/build" -j "${JOBS:-2}" --target $TARGETS

venv=$CACHE/venv-llama
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c "import llama_cpp, numpy, gguf" 2>/dev/null; then
  python3 -m venv "$venv"
  log "installing llama-cpp-python $VERSION (bindings only: it loads the libraries built above)"
  "$venv/bin/pip" install -q cmake ninja scikit-build-core numpy gguf
  CMAKE_ARGS="-DLLAMA_BUILD=OFF -DLLAVA_BUILD=OFF" "$venv/bin/pip" install -q \
    --no-build-isolation "$CACHE/sdist/llama_cpp_python-$VERSION.tar.gz"
fi
lib=$("$venv/bin/python" -c "import importlib.util,os; print(os.path.join(os.path.dirname(importlib.util.find_spec('llama_cpp').origin), 'lib'))")
mkdir -p "$lib"
for so in "$LLAMA"/build/bin/lib*.so; do ln -sf "$so" "$lib/"; done
"$venv/bin/python" -c "import llama_cpp; print('llama-cpp:', 'llama_cpp', llama_cpp.__version__, 'on', '$LLAMA/build/bin')"
