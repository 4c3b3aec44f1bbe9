#!/usr/bin/env python3
"""Records crates/ollama/tests/golden/parsers-tests.jsonl (Ollama's own
tests of model/parsers, harmony and tools, run on an instrumented copy of
the sources) and crates/ollama/tests/golden/parsers-handler.jsonl (the
/api/chat and /api/generate answer side, handler/main.go, on the cases
gen_cases.py writes). See README.md for the sources and FORMAT.md for the
lines.

    OLLAMA_SRC=... GO_DEPS=... python3 tools/parser-goldens/record.py
    OLLAMA_SRC=... python3 tools/parser-goldens/record.py --check
    OLLAMA_SRC=... GO_DEPS=... python3 tools/parser-goldens/record.py --tests | --handler

OLLAMA_SRC: Ollama's source at v0.33.0-rc2 (`git archive`, see README.md).
Its go.mod is replaced by this folder's, with `replace` directives to
GO_DEPS, a folder holding each required module's source at its import path
(GO_DEPS/github.com/google/go-cmp, ...). A module there without a go.mod
(go-spew, go-difflib: they predate modules) is copied and given the go.mod
Go would synthesize (`module PATH`); modules that are only in the module
graph (requirements of requirements whose packages are never built) are
replaced by empty stub modules. Nothing is fetched.

Before building, every block of handler/ that says
"// From ollama FILE:A-B (v0.33.0-rc2), verbatim." is compared with lines A
to B of OLLAMA_SRC/FILE; --check does only that.

--runs N (default 5): how many times the tests are run; --handler-runs is
in the cases (3, 16 for the no-parser template cases).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TESTS_GOLDEN = ROOT / "crates/ollama/tests/golden/parsers-tests.jsonl"
HANDLER_GOLDEN = ROOT / "crates/ollama/tests/golden/parsers-handler.jsonl"
MARKER = re.compile(r"^\s*// From ollama (\S+):(\d+)-(\d+) \(v0\.33\.0-rc2\), verbatim\.$")
GOENV = {"GOWORK": "off", "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOSUMDB": "off"}
WORKDIR = "promptscope-parser-goldens"
REC_PATH = "github.com/ollama/ollama/" + WORKDIR + "/rec"
TEST_PKGS = ["model/parsers", "harmony", "tools"]
# modules in the module graph whose packages are never built: agnivade/
# levenshtein v1.1.1's go.mod requires two test-only modules, and testify
# v1.10.0's requires objx (for its mock package, not used)
GRAPH_ONLY = ["github.com/arbovm/levenshtein", "github.com/dgryski/trifles", "github.com/stretchr/objx"]


def go_files(d):
    return sorted(p for p in d.rglob("*.go"))


def check_copies(src):
    blocks = lines_copied = 0
    bad = []
    for go in go_files(HERE / "handler"):
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
            lines_copied += len(want)
            if len(want) != b - a + 1 or got != want:
                bad.append(f"{go.relative_to(HERE)}:{i + 1}: differs from {f}:{a}-{b}")
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"{blocks} verbatim blocks ({lines_copied} lines) match {src}", file=sys.stderr)


def goenv():
    env = {k: v for k, v in os.environ.items() if not k.startswith("OLLAMA_")}
    env.update(GOENV)
    env["TZ"] = "UTC"
    return env


def write_gomod(src, deps, work):
    """OLLAMA_SRC/go.mod: this folder's, with replace directives."""
    env = goenv()
    gomod = (HERE / "go.mod").read_text()
    (src / "go.mod").write_text(gomod)
    (src / "go.sum").unlink(missing_ok=True)
    mods = work / "mods"
    for mod in re.findall(r"^\t(\S+) v\S+$", gomod, re.M):
        path = Path(deps) / mod
        if not path.is_dir():
            sys.exit(f"GO_DEPS lacks {mod} ({path})")
        if not (path / "go.mod").exists():
            copy = mods / mod
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(path, copy)
            (copy / "go.mod").write_text(f"module {mod}\n")
            path = copy
        subprocess.run(["go", "mod", "edit", "-replace", f"{mod}={path}"], cwd=src, env=env, check=True)
    for mod in GRAPH_ONLY:
        stub = mods / "stubs" / mod
        stub.mkdir(parents=True, exist_ok=True)
        (stub / "go.mod").write_text(f"module {mod}\n")
        subprocess.run(["go", "mod", "edit", "-replace", f"{mod}={stub}"], cwd=src, env=env, check=True)


def go_test(dirpath, pkg, record=None):
    """go test -json of one package: (top-level test results, output)."""
    env = goenv()
    if record:
        env["PROMPTSCOPE_RECORD"] = str(record)
    p = subprocess.run(["go", "test", "-count=1", "-json", "./" + pkg + "/"], cwd=dirpath, env=env,
                       capture_output=True, text=True)
    results = {}
    for line in p.stdout.splitlines():
        try:
            e = json.loads(line)
        except json.JSONDecodeError:
            continue
        t = e.get("Test")
        if t and "/" not in t and e.get("Action") in ("pass", "fail", "skip"):
            results[t] = e["Action"]
    if p.returncode != 0:
        print(p.stdout[-4000:], p.stderr[-4000:], file=sys.stderr)
        sys.exit(f"go test ./{pkg}/ failed in {dirpath}")
    return results


# ---- comparing the runs of the tests


def line_key(d, counters):
    if d["kind"] == "func":
        k = (d["file"], d["test"])
        counters[k] += 1
        return ("func", d["file"], d["test"], counters[k])
    return ("recv", d["file"], d["test"], d["n"])


def inputs_of(d):
    """The part of a line a test chose (its inputs), to tell a test's own
    map-ordered inputs from a parser's nondeterminism."""
    if d["kind"] == "func":
        return json.dumps(d["args"], sort_keys=False)
    if d["kind"] == "parser":
        ins = [[c["m"], c.get("tools"), c.get("last"), c.get("think"), c.get("s"), c.get("done")] for c in d["calls"]]
        return json.dumps([d.get("config"), d.get("new"), ins])
    ins = [[c["m"], c["args"]] for c in d["calls"]]
    return json.dumps([d.get("new"), d.get("state"), ins])


def strip_ids(d):
    d = dict(d)
    d.pop("id", None)
    return re.sub(r'"\$id":\d+', '"$id":0', json.dumps(d, ensure_ascii=False))


def merge_runs(runs):
    """runs: lists of parsed lines, one list per run. The first run's
    lines, each marked nondeterministic / input_varies as the runs show."""
    keyed = []
    for lines in runs:
        counters = Counter()
        keyed.append({line_key(d, counters): d for d in lines})
    first = runs[0]
    counters = Counter()
    out = []
    stats = Counter()
    for d in first:
        key = line_key(d, counters)
        versions = [k.get(key) for k in keyed]
        if any(v is None for v in versions):
            d["nondeterministic"] = True
            d["nondeterministic_reason"] = "the line is not in every run"
            stats["missing"] += 1
            out.append(d)
            continue
        texts = [strip_ids(v) for v in versions]
        if len(set(texts)) > 1:
            groups = defaultdict(set)
            for v, t in zip(versions, texts):
                groups[inputs_of(v)].add(t)
            if len(groups) > 1:
                d["input_varies"] = True
                stats["input_varies"] += 1
            if any(len(ts) > 1 for ts in groups.values()):
                d["nondeterministic"] = True
                d["nondeterministic_reason"] = "runs with the same inputs differ"
                stats["nondeterministic"] += 1
            elif all(len(ts) == 1 for ts in groups.values()) and len(groups) == len(versions):
                d["nondeterministic"] = None
                d["nondeterministic_reason"] = "inputs differ in every run; cannot tell"
                stats["unknown"] += 1
        out.append(d)
    return out, stats


MARKS = ["input_varies", "nondeterministic", "nondeterministic_reason"]


def tools_parser_map_order(d):
    """tools.Parser copies a call's arguments from a Go map (parseToolCall:
    for k, v := range argsMap): with two or more arguments their order is
    Go's map iteration order, whatever the runs showed."""
    if d["kind"] != "tools_parser":
        return False
    for c in d["calls"]:
        if c["m"] in ("Add", "parseToolCall"):
            ret = c["ret"][0]
            calls = ret if isinstance(ret, list) else [ret] if isinstance(ret, dict) else []
            for tc in calls:
                if len((tc.get("function") or {}).get("arguments") or {}) >= 2:
                    return True
    return False


def record_tests(src, work, nruns):
    inst = work / "inst"
    shutil.rmtree(inst, ignore_errors=True)
    shutil.copytree(src, inst, ignore=shutil.ignore_patterns(WORKDIR))
    (inst / WORKDIR).mkdir()
    for d in ("rec", "instrument"):
        shutil.copytree(HERE / d, inst / WORKDIR / d)
    env = goenv()
    exe = work / "instrument"
    subprocess.run(["go", "build", "-o", str(exe), "./" + WORKDIR + "/instrument"], cwd=inst, env=env, check=True)
    subprocess.run([str(exe), "-root", str(inst), "-rec", REC_PATH, *TEST_PKGS], cwd=inst, env=env, check=True)

    all_lines = []
    summary = []
    for pkg in TEST_PKGS:
        clean = go_test(src, pkg)
        runs = []
        for i in range(nruns):
            rec = work / f"rec-{pkg.replace('/', '_')}-{i}.jsonl"
            res = go_test(inst, pkg, rec)
            if res != clean:
                sys.exit(f"{pkg}: instrumented results differ from the clean run: "
                         f"{sorted(set(res.items()) ^ set(clean.items()))}")
            runs.append([json.loads(l) for l in rec.read_text().splitlines()])
            if i == 0:
                raw = rec.read_text().splitlines()
        bad = {t: r for t, r in clean.items() if r != "pass"}
        if bad:
            sys.exit(f"{pkg}: tests not passing: {bad}")
        lines, stats = merge_runs(runs)
        for d, text in zip(lines, raw):
            d["$raw"] = text
        for d in lines:
            if tools_parser_map_order(d):
                if d.get("nondeterministic") is not True:
                    stats["nondeterministic"] += 1
                d["nondeterministic"] = True
                d["nondeterministic_reason"] = "tools.Parser argument order is Go map order"
        all_lines += lines
        kinds = Counter(d["kind"] + (" (skip)" if "skip" in d else "") for d in lines)
        summary.append((pkg, len(clean), sum(1 for r in clean.values() if r == "pass"), kinds, stats))
    TESTS_GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    # the lines as Go wrote them (number literals as Go formats them: 1e+21,
    # -0, 1e-7), with the marks of merge_runs appended
    with TESTS_GOLDEN.open("w") as f:
        for d in all_lines:
            text = d["$raw"]
            assert text.endswith("}")
            extra = "".join("," + json.dumps(k) + ":" + json.dumps(d[k]) for k in MARKS if k in d)
            f.write(text[:-1] + extra + "}\n")
    for pkg, n, passed, kinds, stats in summary:
        print(f"{pkg}: {n} test functions run, {passed} passed (instrumented, {nruns} runs, same results as uninstrumented); "
              f"records: {dict(sorted(kinds.items()))}; across runs: {dict(stats)}", file=sys.stderr)
    print(f"{TESTS_GOLDEN.relative_to(ROOT)}: {len(all_lines)} lines", file=sys.stderr)


def record_handler(src, work):
    dest = src / WORKDIR / "handler"
    shutil.rmtree(src / WORKDIR, ignore_errors=True)
    shutil.copytree(HERE / "handler", dest)
    env = goenv()
    exe = work / "handler"
    subprocess.run(["go", "build", "-trimpath", "-o", str(exe), "./" + WORKDIR + "/handler"], cwd=src, env=env, check=True)
    cases = work / "cases.jsonl"
    subprocess.run([sys.executable, str(HERE / "gen_cases.py"), str(cases)], check=True)
    home = work / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("OLLAMA_")}
    env.update(HOME=str(home), TZ="UTC")
    HANDLER_GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(exe), str(cases), str(HANDLER_GOLDEN)], env=env, check=True)
    per = Counter()
    nd = Counter()
    for line in HANDLER_GOLDEN.open():
        d = json.loads(line)
        name = d["parser"] or ("template:" + d["id"].split("/")[0].removeprefix("tmpl:"))
        if "+tmpl:" in d["id"]:
            name = d["id"].split("/")[0]
        per[name] += 1
        if d["nondeterministic"]:
            nd[d.get("nondeterministic_reason", "")] += 1
    print(f"{HANDLER_GOLDEN.relative_to(ROOT)}: {sum(per.values())} cases; per parser: {dict(per)}; "
          f"nondeterministic: {dict(nd)}", file=sys.stderr)


def main():
    args = sys.argv[1:]
    nruns = 5
    if "--runs" in args:
        i = args.index("--runs")
        nruns = int(args[i + 1])
        del args[i:i + 2]
    if args not in ([], ["--check"], ["--tests"], ["--handler"]):
        sys.exit("usage: record.py [--check | --tests | --handler] [--runs N]")
    src = Path(os.environ["OLLAMA_SRC"]).resolve()
    check_copies(src)
    if args == ["--check"]:
        return
    deps = os.environ["GO_DEPS"]
    with tempfile.TemporaryDirectory(prefix="parser-goldens-") as work:
        work = Path(work)
        write_gomod(src, deps, work)
        if args in ([], ["--tests"]):
            record_tests(src, work, nruns)
        if args in ([], ["--handler"]):
            record_handler(src, work)


if __name__ == "__main__":
    main()
