#!/usr/bin/env python3
"""Records crates/ollama/tests/golden/v1.jsonl: what Ollama v0.33.0-rc2's
OpenAI and Anthropic compatibility middlewares make of the request bodies
that gen_cases.py writes; and crates/ollama/tests/golden/native-decode.jsonl:
what the body decoding of its native /api/chat and /api/generate handlers
makes of those that gen_native_cases.py writes. See README.md for the
sources and the line formats.

    OLLAMA_SRC=... GIN_SRC=... GO_DEPS=... python3 tools/v1-goldens/record.py
    OLLAMA_SRC=... GIN_SRC=... python3 tools/v1-goldens/record.py --check
    OLLAMA_SRC=... GIN_SRC=... GO_DEPS=... python3 tools/v1-goldens/record.py --cover

OLLAMA_SRC: Ollama's source at v0.33.0-rc2 (`git archive`, see README.md);
its go.mod is replaced by this folder's, and the .go files here (with
./gin and ./native) are built in OLLAMA_SRC/promptscope-v1-goldens, since
Ollama's internal packages can only be imported from inside its module:
the package here (main.go, middleware_*.go) is the v1 recorder, ./native
the native-decode recorder.
GIN_SRC: gin's source at v1.10.0 (only read, to check the copied blocks).
GO_DEPS: a folder holding the sources of the modules go.mod requires, each
at its import path (GO_DEPS/golang.org/x/crypto, ...).

Before building, every block of the .go files here that says
"// From ollama FILE:A-B (v0.33.0-rc2), verbatim." is compared with lines A
to B of OLLAMA_SRC/FILE, and every "// From gin FILE:A-B (v1.10.0),
verbatim." with lines A to B of GIN_SRC/FILE; --check does only that.
--cover records the same goldens with binaries built with -cover, and then
prints how much of each conversion function (v1) and of each of api's
UnmarshalJSON methods (native) the cases reached.
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
GOLDEN = ROOT / "crates/ollama/tests/golden/v1.jsonl"
NATIVE_GOLDEN = ROOT / "crates/ollama/tests/golden/native-decode.jsonl"
MARKER = re.compile(
    r"^\s*// From (ollama|gin) (\S+):(\d+)-(\d+) \((v0\.33\.0-rc2|v1\.10\.0)\), verbatim\.$"
)
VERSION = {"ollama": "v0.33.0-rc2", "gin": "v1.10.0"}
GOENV = {"GOWORK": "off", "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOSUMDB": "off"}
WORKDIR = "promptscope-v1-goldens"
COVERPKG = ["github.com/ollama/ollama/openai", "github.com/ollama/ollama/anthropic", "github.com/ollama/ollama/" + WORKDIR]
NATIVE_COVERPKG = ["github.com/ollama/ollama/api", "github.com/ollama/ollama/internal/orderedmap",
                   "github.com/ollama/ollama/" + WORKDIR + "/native"]


def go_files():
    return sorted(p for p in HERE.rglob("*.go"))


def check_copies(srcs):
    blocks = {"ollama": 0, "gin": 0}
    lines_copied = {"ollama": 0, "gin": 0}
    bad = []
    for go in go_files():
        lines = go.read_text().split("\n")
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                if re.match(r"^\s*// From (ollama|gin) .*verbatim", line):
                    bad.append(f"{go.relative_to(HERE)}:{i + 1}: malformed marker")
                continue
            who, f, a, b, ver = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), m.group(5)
            if ver != VERSION[who]:
                bad.append(f"{go.relative_to(HERE)}:{i + 1}: {who} is {VERSION[who]}, not {ver}")
                continue
            want = (Path(srcs[who]) / f).read_text().split("\n")[a - 1:b]
            got = lines[i + 1:i + 1 + len(want)]
            blocks[who] += 1
            lines_copied[who] += len(want)
            if len(want) != b - a + 1 or got != want:
                bad.append(f"{go.relative_to(HERE)}:{i + 1}: differs from {who} {f}:{a}-{b}")
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        sys.exit(1)
    for who in ("ollama", "gin"):
        print(f"{blocks[who]} verbatim blocks ({lines_copied[who]} lines) match {srcs[who]}", file=sys.stderr)


def build(src, deps, cover=False):
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
    for go in go_files():
        dest = work / go.relative_to(HERE)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(go, dest)
    exe = Path(tempfile.gettempdir()) / "v1-goldens"
    flags = ["-cover", "-coverpkg=" + ",".join(COVERPKG)] if cover else []
    subprocess.run(["go", "build", "-trimpath", *flags, "-o", str(exe), "./" + WORKDIR], cwd=src, env=env, check=True)
    native = Path(tempfile.gettempdir()) / "v1-goldens-native"
    flags = ["-cover", "-coverpkg=" + ",".join(NATIVE_COVERPKG)] if cover else []
    subprocess.run(["go", "build", "-trimpath", *flags, "-o", str(native), "./" + WORKDIR + "/native"], cwd=src, env=env,
                   check=True)
    return exe, native


def cover_funcs(src, covdir):
    """go tool cover -func's lines for the profile in covdir."""
    env = dict(os.environ, **GOENV)
    prof = Path(covdir) / "cover.txt"
    subprocess.run(["go", "tool", "covdata", "textfmt", "-i", str(covdir), "-o", str(prof)], cwd=src, env=env, check=True)
    return subprocess.run(["go", "tool", "cover", "-func", str(prof)], cwd=src, env=env, check=True,
                          capture_output=True, text=True).stdout


def report_native_coverage(src, covdir):
    """Prints the statement coverage of what decodes the native requests:
    api's UnmarshalJSON methods, internal/orderedmap's, the handlers."""
    for line in cover_funcs(src, covdir).splitlines():
        if ("/api/types.go" in line or "/internal/orderedmap/" in line) and re.search(r"\sUnmarshalJSON\s", line) \
                or "/native/" in line and re.search(r"\s(chatHandler|generateHandler)\s", line):
            print(line.replace("github.com/ollama/ollama/", ""), file=sys.stderr)


def report_coverage(src, covdir):
    """Prints the statement coverage of the conversion code per function
    (go tool cover -func)."""
    funcs = cover_funcs(src, covdir)
    wanted = re.compile(r"(From(Chat|Complete|Responses|Messages)Request|FromCompletionToolCall|nameFromToolCallID|thinkFromReasoningEffort|decodeImageURL|"
                        r"convert\w*|unmarshalResponses\w*|UnmarshalJSON|resolveImageSource|formatWebSearchToolResultContent|"
                        r"\w*Middleware|hasWebSearchTool|HasWebSearchTool|WebSearchFunctionTool)\s")
    for line in funcs.splitlines():
        if "/openai/" in line or "/anthropic/anthropic.go" in line or WORKDIR in line:
            if wanted.search(line):
                print(line.replace("github.com/ollama/ollama/", ""), file=sys.stderr)


def main():
    args = sys.argv[1:]
    if args not in ([], ["--check"], ["--cover"]):
        sys.exit("usage: record.py [--check | --cover]")
    srcs = {"ollama": os.environ["OLLAMA_SRC"], "gin": os.environ["GIN_SRC"]}
    check_copies(srcs)
    if args == ["--check"]:
        return
    cover = args == ["--cover"]
    exe, native = build(srcs["ollama"], os.environ["GO_DEPS"], cover)

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        cases, home = tmp / "cases.jsonl", tmp / "home"
        home.mkdir()
        subprocess.run([sys.executable, str(HERE / "gen_cases.py"), str(cases)], check=True)
        # A bare environment: no OLLAMA_* settings (cases that need one say
        # so in "env"), a HOME without ~/.ollama/server.json, UTC.
        env = {k: v for k, v in os.environ.items() if not k.startswith("OLLAMA_")}
        env.update(HOME=str(home), TZ="UTC")
        if cover:
            (tmp / "cover").mkdir()
            env["GOCOVERDIR"] = str(tmp / "cover")
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(exe), str(cases), str(GOLDEN)], env=env, check=True)
        if cover:
            report_coverage(srcs["ollama"], tmp / "cover")

        native_cases = tmp / "native-cases.jsonl"
        subprocess.run([sys.executable, str(HERE / "gen_native_cases.py"), str(native_cases)], check=True)
        if cover:
            (tmp / "cover-native").mkdir()
            env["GOCOVERDIR"] = str(tmp / "cover-native")
        subprocess.run([str(native), str(native_cases), str(NATIVE_GOLDEN)], env=env, check=True)
        if cover:
            report_native_coverage(srcs["ollama"], tmp / "cover-native")

    for golden in (GOLDEN, NATIVE_GOLDEN):
        n = sum(1 for _ in golden.open())
        print(f"{golden.relative_to(ROOT)}: {n} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
