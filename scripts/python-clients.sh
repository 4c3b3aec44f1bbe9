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
  rm -rf "$venv"
  if ! python3 -m venv "$venv" >&2 2>/dev/null; then
    # Debian without python3-venv: the packages in a folder of their own,
    # and a python that finds them there
    rm -rf "$venv"
    mkdir -p "$venv/bin" "$venv/site"
    printf '#!/bin/sh\nPYTHONPATH="%s/site${PYTHONPATH:+:$PYTHONPATH}" exec python3 "$@"\n' "$venv" >"$venv/bin/python"
    chmod +x "$venv/bin/python"
    touch "$venv/site/.plain"
  fi
fi
missing=()
for pin in "${pins[@]}"; do
  name="${pin%%==*}" want="${pin##*==}"
  have="$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)"
  [[ "$have" == "$want" ]] || missing+=("$pin")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  printf 'python-clients: installing %s\n' "${missing[*]}" >&2
  if [[ -e "$venv/site/.plain" ]]; then
    python3 -m pip install -q --target "$venv/site" "${missing[@]}" >&2
  else
    "$venv/bin/python" -m pip install -q "${missing[@]}" >&2
  fi
fi
printf '%s\n' "$venv/bin/python"
