#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ (not committed) with the seeds of each target:
# the committed ones of fuzz/seeds*/ (ours), plus inputs that are other
# projects' files and so are never committed, taken where they are at
# fuzz time: Ollama's 20 built-in TEMPLATEs from ../shared (the reference
# material beside the clone; skipped, with a note, where it is absent), and
# llama.cpp's chat templates and the first 4 KiB of its vocabulary GGUFs
# from the upstream cache (scripts/fetch-upstream.sh, run first), and the
# distinct chat templates of the shared Jinja golden corpus
# (tests/corpus/golden/jinja.jsonl), and the render target's requests with
# their TEMPLATEs, from the shared render corpus (render.jsonl, whose
# built-in cases carry Ollama's templates). Safe to run again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
root="$(cd .. && pwd)"
bash "$root/scripts/fetch-upstream.sh" >/dev/null
up="${PROMPTSCOPE_UPSTREAM:-$HOME/.cache/promptscope/upstream}/llama.cpp-b11312/models"
shared="${PROMPTSCOPE_SHARED:-$root/../shared}/corpus/ollama/v0.33.0-rc2/template"

for t in template render jinja chat_template gguf model_load store compat serve answer; do
  mkdir -p "corpus/$t"
done
cp seeds/* corpus/template/
cp seeds-gguf/* corpus/gguf/
cp seeds-model/* corpus/model_load/
cp seeds-store/* corpus/store/
cp seeds-compat/* corpus/compat/
cp seeds-serve/* corpus/serve/
cp seeds-answer/* corpus/answer/
if [[ -d "$shared" ]]; then
  for f in "$shared"/*.gotmpl; do cp "$f" "corpus/template/ollama-$(basename "$f" .gotmpl)"; done
else
  echo "seed.sh: no $shared: the template corpus has no Ollama built-in templates" >&2
fi
for f in "$up"/templates/*.jinja; do
  cp "$f" corpus/chat_template/ && cp "$f" corpus/jinja/
done
for f in "$up"/ggml-vocab-*.gguf; do head -c 4096 "$f" >"corpus/gguf/head-$(basename "$f")"; done
python3 - "$root/tests/corpus/golden/jinja.jsonl" corpus/chat_template corpus/jinja <<'PY'
import hashlib, json, sys
golden, *dirs = sys.argv[1:]
seen = set()
for line in open(golden, encoding="utf-8"):
    case = json.loads(line)
    src = (case.get("model") or {}).get("chat_template")
    if src and src not in seen:
        seen.add(src)
        name = hashlib.sha256(src.encode()).hexdigest()[:16]
        for d in dirs:
            open(f"{d}/{name}", "w", encoding="utf-8").write(src)
print(f"seed.sh: {len(seen)} chat templates from {golden}")
PY
python3 - "$root/tests/corpus/golden/render.jsonl" corpus/render <<'PY'
import hashlib, json, sys
golden, out = sys.argv[1:]
n = 0
for line in open(golden, encoding="utf-8"):
    case = json.loads(line)
    seed = json.dumps(case["request"], ensure_ascii=False)
    if case["model"].get("template") is not None:
        seed += "\0" + case["model"]["template"]
    name = hashlib.sha256(seed.encode()).hexdigest()[:16]
    open(f"{out}/{name}", "w", encoding="utf-8").write(seed)
    n += 1
print(f"seed.sh: {n} requests from {golden}")
PY
for t in corpus/*; do printf '%-22s %5d seeds\n' "$t" "$(ls "$t" | wc -l)"; done
