#!/usr/bin/env bash
# The official client libraries the compatibility tests drive, in a virtual
# environment outside the repository: $PROMPTSCOPE_VENV, else
# ~/.cache/promptscope/venv. Pinned versions from PyPI; what is already
# installed at those versions is kept. Safe to run again. Prints the
# environment's python.
set -euo pipefail

venv="${PROMPTSCOPE_VENV:-$HOME/.cache/promptscope/venv}"
pins=(openai==3.57.0 anthropic==2.15.0 ollama==0.6.3)

if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv" >&2 || {
    printf 'python-clients: error: cannot create a virtual environment at %s (python3 -m venv)\n' "$venv" >&2
    exit 1
  }
fi
missing=()
for pin in "${pins[@]}"; do
  name="${pin%%==*}" want="${pin##*==}"
  have="$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)"
  [[ "$have" == "$want" ]] || missing+=("$pin")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  printf 'python-clients: installing %s\n' "${missing[*]}" >&2
  "$venv/bin/python" -m pip install -q "${missing[@]}" >&2
fi
printf '%s\n' "$venv/bin/python"
