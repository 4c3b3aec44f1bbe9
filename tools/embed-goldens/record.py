#!/usr/bin/env python3
"""Records crates/ollama/tests/golden/embed.jsonl: what Ollama v0.33.0-rc2's
/api/embed and /api/embeddings handlers (server/routes.go EmbedHandler and
EmbeddingsHandler, copied verbatim into main.go) answer for the bodies
gen_cases.py writes, over a fake store and a fake runner whose tokenizer is
libllama's (oracle.py), and what each input became on its way to the
runner. See README.md.

    OLLAMA_SRC=... GO_DEPS=... LLAMA_CPP=... python3 tools/embed-goldens/record.py
    OLLAMA_SRC=... python3 tools/embed-goldens/record.py --check

OLLAMA_SRC: Ollama's source at v0.33.0-rc2 (`git archive`); its go.mod is
replaced by this folder's and the recorder is built in
OLLAMA_SRC/promptscope-embed-goldens (with ../v1-goldens/gin as ./gin).
GO_DEPS: the module sources go.mod requires, each at its import path
(tools/v1-goldens' set); golang.org/x/sync comes from the Go
distribution's own vendored copy (src/cmd/vendor) when GO_DEPS lacks it.
LLAMA_CPP: the llama.cpp of the llama-cpp-python 0.3.36 sdist, built
(build/bin/libllama.so).

Every block of the .go files here that says "// From ollama FILE:A-B
(v0.33.0-rc2), verbatim." is compared with lines A to B of
OLLAMA_SRC/FILE before building; --check does only that.
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
GOLDEN = ROOT / "crates/ollama/tests/golden/embed.jsonl"
MARKER = re.compile(r"^\s*// From ollama (\S+):(\d+)-(\d+) \(v0\.33\.0-rc2\), verbatim\.$")
GOENV = {"GOWORK": "off", "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOSUMDB": "off"}
WORKDIR = "promptscope-embed-goldens"


def go_files():
    return sorted(HERE.rglob("*.go"))


def check_copies(src):
    bad, blocks, copied = [], 0, 0
    for go in go_files():
        lines = go.read_text().split("\n")
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                if re.match(r"^\s*// From ollama .*verbatim", line):
                    bad.append(f"{go.relative_to(HERE)}:{i + 1}: malformed marker")
                continue
            f, a, b = m.group(1), int(m.group(2)), int(m.group(3))
            want = (Path(src) / f).read_text().split("\n")[a - 1:b]
            got = lines[i + 1:i + 1 + len(want)]
            blocks += 1
            copied += len(want)
            if len(want) != b - a + 1 or got != want:
                bad.append(f"{go.relative_to(HERE)}:{i + 1}: differs from {f}:{a}-{b}")
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"{blocks} verbatim blocks ({copied} lines) match {src}", file=sys.stderr)


def go_exe():
    return shutil.which("go") or "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/go/bin/go"


def build(src, deps):
    src = Path(src)
    go = go_exe()
    env = dict(os.environ, **GOENV)
    gomod = (HERE / "go.mod").read_text()
    (src / "go.mod").write_text(gomod)
    (src / "go.sum").unlink(missing_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="embed-deps-"))
    for mod in re.findall(r"^\t(\S+) v\S+$", gomod, re.M):
        path = Path(deps) / mod
        if not (path / "go.mod").exists() and mod == "golang.org/x/sync":
            goroot = subprocess.run([go, "env", "GOROOT"], env=env, capture_output=True, text=True, check=True).stdout.strip()
            path = tmp / mod
            shutil.copytree(Path(goroot) / "src/cmd/vendor" / mod, path)
            (path / "go.mod").write_text("module golang.org/x/sync\n\ngo 1.24\n")
        if not (path / "go.mod").exists():
            sys.exit(f"GO_DEPS lacks {mod} ({path}/go.mod)")
        subprocess.run([go, "mod", "edit", "-replace", f"{mod}={path}"], cwd=src, env=env, check=True)
    work = src / WORKDIR
    shutil.rmtree(work, ignore_errors=True)
    for f in go_files():
        dest = work / f.relative_to(HERE)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dest)
    # gin's pieces, as tools/v1-goldens has them (checked there against
    # gin's source), under this recorder's import path
    for f in (HERE.parent / "v1-goldens/gin").rglob("*.go"):
        dest = work / "gin" / f.relative_to(HERE.parent / "v1-goldens/gin")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(f.read_text().replace("promptscope-v1-goldens/gin", WORKDIR + "/gin"))
    exe = Path(tempfile.gettempdir()) / "embed-goldens"
    subprocess.run([go, "build", "-trimpath", "-o", str(exe), "./" + WORKDIR], cwd=src, env=env, check=True)
    return exe


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"]):
        sys.exit("usage: record.py [--check]")
    src = os.environ["OLLAMA_SRC"]
    check_copies(src)
    if args == ["--check"]:
        return
    exe = build(src, os.environ["GO_DEPS"])
    with tempfile.TemporaryDirectory() as tmp:
        cases = Path(tmp) / "cases.jsonl"
        subprocess.run([sys.executable, str(HERE / "gen_cases.py"), str(cases)], check=True, cwd=ROOT)
        env = {k: v for k, v in os.environ.items() if not k.startswith("OLLAMA_")}
        env["ORACLE"] = f"{sys.executable} {HERE / 'oracle.py'} --llama-cpp {os.environ['LLAMA_CPP']}"
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(exe), str(cases), str(GOLDEN)], env=env, check=True, cwd=ROOT)
    n = sum(1 for _ in GOLDEN.open())
    print(f"{GOLDEN.relative_to(ROOT)}: {n} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
