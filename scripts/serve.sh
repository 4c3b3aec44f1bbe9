#!/usr/bin/env bash
# Sets up the tools serving needs (scripts/setup.sh --serve: no Chromium,
# which only the tests use), then serves the app with `trunk serve` at
# http://127.0.0.1:8080/ (no browser is opened).
#
#   bash scripts/serve.sh          optimized release build, as the tests use
#   bash scripts/serve.sh --dev    quicker, unoptimized debug build
#
# PORT=9000 picks another port; further arguments go to `trunk serve`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh --serve

mode=(--release)
if [[ "${1:-}" == "--dev" ]]; then
  mode=()
  shift
fi
echo "serve: building, then serving at http://127.0.0.1:${PORT:-8080}/ (Ctrl-C stops)"
exec trunk serve "${mode[@]}" --port "${PORT:-8080}" "$@"
