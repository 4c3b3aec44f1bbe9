#!/usr/bin/env python3
"""Records crates/ollama/tests/golden/v1-responses.jsonl: what the response
writers of Ollama v0.33.0-rc2's OpenAI and Anthropic compatibility
middlewares write back to the client for the native responses that
gen_cases.py lists. See README.md for the sources and the line format.

    OLLAMA_SRC=... GO_DEPS=... python3 tools/v1-response-goldens/record.py
    OLLAMA_SRC=... python3 tools/v1-response-goldens/record.py --check
    python3 tools/v1-response-goldens/record.py --compare A.jsonl B.jsonl

OLLAMA_SRC: Ollama's source at v0.33.0-rc2 (`git archive`, see README.md);
its go.mod is replaced by this folder's, and the .go files here are built
in OLLAMA_SRC/promptscope-v1-response-goldens, since Ollama's internal
packages can only be imported from inside its module.
GO_DEPS: a folder holding the sources of the modules go.mod requires, each
at its import path (GO_DEPS/golang.org/x/crypto, ...).

Before building, every block of the .go files here that says
"// From ollama FILE:A-B (v0.33.0-rc2), verbatim." is compared with lines A
to B of OLLAMA_SRC/FILE; --check does only that. --compare checks that two
recordings agree on everything but their "volatile" fields (the lines'
own lists, which must agree too).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDEN = ROOT / "crates/ollama/tests/golden/v1-responses.jsonl"
MARKER = re.compile(r"^\s*// From ollama (\S+):(\d+)-(\d+) \((v0\.33\.0-rc2)\), verbatim\.$")
GOENV = {"GOWORK": "off", "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOSUMDB": "off"}
WORKDIR = "promptscope-v1-response-goldens"


def check_copies(src):
    blocks = lines_copied = 0
    bad = []
    for go in sorted(HERE.glob("*.go")):
        lines = go.read_text().split("\n")
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                if re.match(r"^\s*// From ollama .*verbatim", line):
                    bad.append(f"{go.name}:{i + 1}: malformed marker")
                continue
            f, a, b = m.group(1), int(m.group(2)), int(m.group(3))
            want = (Path(src) / f).read_text().split("\n")[a - 1:b]
            got = lines[i + 1:i + 1 + len(want)]
            blocks += 1
            lines_copied += len(want)
            if len(want) != b - a + 1 or got != want:
                bad.append(f"{go.name}:{i + 1}: differs from {f}:{a}-{b}")
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"{blocks} verbatim blocks ({lines_copied} lines) match {src}", file=sys.stderr)


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
    work = src / WORKDIR
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    for go in HERE.glob("*.go"):
        shutil.copy(go, work / go.name)
    exe = Path(tempfile.gettempdir()) / "v1-response-goldens"
    subprocess.run(["go", "build", "-trimpath", "-o", str(exe), "./" + WORKDIR], cwd=src, env=env, check=True)
    return exe


def written_doc(line):
    """What was written, parsed as main.go's parse does: an SSE stream as
    the list of its events' data, anything else as one JSON document."""
    if line["content_type"] != "text/event-stream":
        return json.loads(line["written"])
    events = []
    for block in line["written"][:-2].split("\n\n"):
        data = [l[len("data: "):] for l in block.split("\n") if l.startswith("data: ")]
        events.append(data[0] if data[0] == "[DONE]" else json.loads(data[0]))
    return events


def blank(doc, path):
    keys = path.split(".")
    for k in keys[:-1]:
        doc = doc[int(k)] if isinstance(doc, list) else doc[k]
    last = keys[-1]
    if isinstance(doc, list):
        doc[int(last)] = None
    else:
        doc[last] = None


def compare(a, b):
    la = [json.loads(l) for l in open(a)]
    lb = [json.loads(l) for l in open(b)]
    if [l["id"] for l in la] != [l["id"] for l in lb]:
        sys.exit("the recordings have different cases")
    bad = 0
    for x, y in zip(la, lb):
        if x["volatile"] != y["volatile"]:
            print(f"{x['id']}: volatile lists differ", file=sys.stderr)
            bad += 1
            continue
        dx, dy = written_doc(x), written_doc(y)
        for p in x["volatile"]:
            blank(dx, p)
            blank(dy, p)
        rest = lambda l: {k: v for k, v in l.items() if k != "written"}
        if dx != dy or rest(x) != rest(y):
            print(f"{x['id']}: differs outside the volatile fields", file=sys.stderr)
            bad += 1
        elif not x["volatile"] and x["written"] != y["written"]:
            print(f"{x['id']}: bytes differ", file=sys.stderr)
            bad += 1
    same = sum(1 for x, y in zip(la, lb) if x["written"] == y["written"])
    print(f"{len(la)} lines: {len(la) - bad} agree outside the volatile fields "
          f"({same} byte for byte)", file=sys.stderr)
    if bad:
        sys.exit(1)


def main():
    if sys.argv[1:2] == ["--compare"]:
        compare(sys.argv[2], sys.argv[3])
        return
    src = os.environ["OLLAMA_SRC"]
    check_copies(src)
    if sys.argv[1:] == ["--check"]:
        return
    exe = build(src, os.environ["GO_DEPS"])

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cases, home = tmp / "cases.jsonl", tmp / "home"
        home.mkdir()
        subprocess.run([sys.executable, str(HERE / "gen_cases.py"), str(cases)], check=True)
        # A bare environment: no OLLAMA_* settings, a HOME without ~/.ollama, UTC.
        env = {k: v for k, v in os.environ.items() if not k.startswith("OLLAMA_")}
        env.update(HOME=str(home), TZ="UTC")
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(exe), str(cases), str(GOLDEN)], env=env, check=True)

    n = sum(1 for _ in GOLDEN.open())
    print(f"{GOLDEN.relative_to(ROOT)}: {n} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
