#!/usr/bin/env python3
"""Writes crates/store/tests/fixture/models (an Ollama models directory)
with Ollama v0.33.0-rc2's own create path, and records in
crates/store/tests/golden/show.jsonl what Ollama's show and list code
answer for it. See README.md for the sources and the line format.

    OLLAMA_SRC=... GO_DEPS=... python3 tools/store-goldens/record.py
    OLLAMA_SRC=... python3 tools/store-goldens/record.py --check

OLLAMA_SRC: Ollama's source at v0.33.0-rc2 (`git archive`, see README.md);
its go.mod is replaced by this folder's, and main.go and the files copied
from Ollama are built in OLLAMA_SRC/promptscope-store-goldens, since
Ollama's internal packages can only be imported from inside its module.
GO_DEPS: a folder holding the sources of the modules go.mod requires, each
at its import path (GO_DEPS/golang.org/x/sync, ...).

Before building, every block of the .go files here that says
"// From ollama FILE:A-B (v0.33.0-rc2), verbatim." is compared with lines A
to B of OLLAMA_SRC/FILE; --check does only that.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURE = ROOT / "crates/store/tests/fixture/models"
GOLDEN = ROOT / "crates/store/tests/golden/show.jsonl"
CORPUS = ROOT / "tests/corpus/tokenizer"
GGUFS = ["llama-spm.gguf", "qwen3.gguf", "llama3.gguf", "deepseek3.gguf"]
# OLLAMA_MODELS while recording. Fixed, because it is part of the answers:
# the FROM lines of the Modelfiles that show returns are paths under it.
STORE = Path("/tmp/ollama-store-goldens/models")
MARKER = re.compile(r"^// From ollama (\S+):(\d+)-(\d+) \(v0\.33\.0-rc2\), verbatim\.")
GOENV = {"GOWORK": "off", "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOSUMDB": "off"}


def check_copies(src):
    blocks = 0
    bad = []
    for go in sorted(HERE.glob("*.go")):
        lines = go.read_text().split("\n")
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                continue
            f, a, b = m.group(1), int(m.group(2)), int(m.group(3))
            want = (Path(src) / f).read_text().split("\n")[a - 1:b]
            got = lines[i + 1:i + 1 + len(want)]
            blocks += 1
            if got != want:
                bad.append(f"{go.name}:{i + 1}: differs from {f}:{a}-{b}")
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"{blocks} verbatim blocks match {src}", file=sys.stderr)


def build(src, deps):
    src = Path(src)
    env = dict(os.environ, **GOENV)
    gomod = (HERE / "go.mod").read_text()
    (src / "go.mod").write_text(gomod)
    (src / "go.sum").unlink(missing_ok=True)
    for mod in re.findall(r"^\t(\S+) v\S+$", gomod, re.M):
        path = Path(deps) / mod
        if not (path / "go.mod").exists():
            sys.exit(f"GO_DEPS lacks {mod} ({path}/go.mod)")
        subprocess.run(["go", "mod", "edit", "-replace", f"{mod}={path}"], cwd=src, env=env, check=True)
    work = src / "promptscope-store-goldens"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    for go in HERE.glob("*.go"):
        shutil.copy(go, work / go.name)
    exe = Path(tempfile.gettempdir()) / "store-goldens"
    subprocess.run(["go", "build", "-o", str(exe), "./promptscope-store-goldens"], cwd=src, env=env, check=True)
    return exe


def main():
    src = os.environ["OLLAMA_SRC"]
    check_copies(src)
    if sys.argv[1:] == ["--check"]:
        return
    exe = build(src, os.environ["GO_DEPS"])

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        inputs, home = tmp / "inputs", tmp / "home"
        inputs.mkdir()
        home.mkdir()
        for g in GGUFS:
            shutil.copy(CORPUS / g, inputs / g)
        subprocess.run([sys.executable, str(HERE / "mkgguf.py"), str(inputs)], check=True)

        shutil.rmtree(STORE, ignore_errors=True)
        STORE.mkdir(parents=True)
        # A bare environment for the server: no OLLAMA_* settings, a HOME
        # without ~/.ollama (server.json, keys), UTC.
        env = {k: v for k, v in os.environ.items() if not k.startswith("OLLAMA_")}
        env.update(HOME=str(home), TZ="UTC")
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(exe), str(inputs), str(STORE), str(GOLDEN)], env=env, check=True)

    shutil.rmtree(FIXTURE, ignore_errors=True)
    shutil.copytree(STORE, FIXTURE)
    shutil.rmtree(STORE.parent)
    n = sum(1 for _ in GOLDEN.open())
    size = sum(p.stat().st_size for p in FIXTURE.rglob("*") if p.is_file())
    print(f"{GOLDEN.relative_to(ROOT)}: {n} lines; {FIXTURE.relative_to(ROOT)}: {size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
