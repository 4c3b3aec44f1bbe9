#!/usr/bin/env bash
# Builds the `promptscope` command (release) in this checkout's target folder
# (scripts/setup.sh's CARGO_TARGET_DIR, as every other build here) and
# installs it on PATH: `cargo install --path crates/cli` copies it to
# ~/.cargo/bin (or $CARGO_INSTALL_ROOT/bin). Safe to run again: an unchanged
# build is only copied. Arguments go to `cargo install` (scripts/test.sh
# passes --debug, reusing the test build, into a throwaway root).
#
#   bash scripts/install-cli.sh && promptscope --version
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh --env-only
cargo install --locked --path crates/cli --force "$@"
bin="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin/promptscope"
[[ -x "$bin" ]] || { echo "install-cli: $bin was not installed" >&2; exit 1; }
if [[ "$(command -v promptscope || true)" != "$bin" ]]; then
  echo "install-cli: installed $bin, but promptscope on PATH is '$(command -v promptscope || true)': put $(dirname "$bin") first on PATH" >&2
  exit 1
fi
echo "install-cli: $("$bin" --version) at $bin (built in $CARGO_TARGET_DIR)"
