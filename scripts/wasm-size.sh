#!/usr/bin/env bash
# The gzipped size of each wasm file of the app's release build, for the
# working tree or for given revisions (each built in a temporary worktree),
# so that a dependency change can be measured as "before" and "after":
#
#   bash scripts/wasm-size.sh                 the working tree
#   bash scripts/wasm-size.sh REV [REV...]    each revision, in order
#
# Prints one line per wasm file: REV FILE BYTES GZIPPED (gzip -9). The main
# app is promptscope-app-*.wasm; the workers are engine-worker-* and
# generate-worker-*. Uses the tools scripts/setup.sh installs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/setup.sh
source "$root/scripts/setup.sh" --env-only

measure() { # LABEL DIR
  local label=$1 dir=$2 wasm name
  (cd "$dir" && trunk build --release >/dev/null 2>"$dir/.trunk-err") || {
    cat "$dir/.trunk-err" >&2
    return 1
  }
  for wasm in "$dir"/dist/*.wasm; do
    name="$(basename "$wasm" | sed -E 's/-[0-9a-f]{16}(_bg)?\.wasm$/.wasm/')"
    printf '%s %s %s %s\n' "$label" "$name" "$(wc -c <"$wasm")" "$(gzip -9 -c "$wasm" | wc -c)"
  done
}

if [[ $# -eq 0 ]]; then
  measure working-tree "$root"
  exit
fi
for rev in "$@"; do
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/promptscope-size.XXXXXX")"
  git -C "$root" worktree add --detach --quiet "$tmp/tree" "$rev"
  ln -s "$root/node_modules" "$tmp/tree/node_modules"
  measure "$(git -C "$root" rev-parse --short "$rev")" "$tmp/tree" || true
  git -C "$root" worktree remove --force "$tmp/tree"
  rm -rf "$tmp"
done
