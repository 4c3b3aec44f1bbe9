#!/usr/bin/env python3
"""Records the jinja crate's C++ goldens (crates/jinja/tests/golden/) with driver.cpp for one llama.cpp build.

usage: record.py DRIVER BUILD        (record.sh builds the driver and calls this)

Writes, with SUFFIX = "" for b11312 and "-<BUILD>" for any other build:
  model-templates{SUFFIX}.jsonl   {"file", "vars", got|error|skip}: every b11312 models/templates file x the five
                                  conversations of gen_models.py
  model-caps{SUFFIX}.jsonl        {"file", caps|error}
  generated{SUFFIX}.jsonl         {"template", got|error|skip} over generated-vars.json
  generated-caps{SUFFIX}.jsonl    {"template", caps|error}
  generated-dump{SUFFIX}.jsonl    {"template", got|error}: runtime::debug_dump_program
  build-diffs{SUFFIX}.jsonl       gen_builds.py's rows: {"name", ["mode"], "template", ["vars"], ["runs_vars"],
                                  got|error|skip|caps|runs}
The inputs of generated*.jsonl are the templates of the committed b11312 files (a sample of gen_exprs.py 9 8000
without divisibleby, the first 150 of gen_caps.py 1 800, and 40 of gen_exprs.py), so every build renders the
same lines. A line that kills the C++ process is written with {"crash": "<signal>"} and the driver restarted.
Strings are the C++ bytes as UTF-8, invalid UTF-8 replaced by U+FFFD (one row of generated*.jsonl: a parser
error excerpt cut inside a character), as the Rust side converts them. A message that holds a heap address
(b10488's failing {% filter %} block, see UNSTABLE) is written with "<address>" and the row marked "unstable".
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GOLD = os.path.join(HERE, "../../crates/jinja/tests/golden")
UPSTREAM = os.environ.get("PROMPTSCOPE_UPSTREAM", os.path.expanduser("~/.cache/promptscope/upstream"))


TIMEOUT = int(os.environ.get("PROMPTSCOPE_DRIVER_TIMEOUT", "60"))


def run_driver(driver, lines):
    """The driver's answer to each line; a crash answers its line and the driver starts again after it."""
    out = []
    while len(out) < len(lines):
        rest = lines[len(out):]
        # b9621 and older loop forever on `s.replace('', x)` (fixed in b9622-b9628, PR #24574): a run not done in
        # TIMEOUT seconds is killed, and the first line it left unanswered answers {"crash": "timeout"}
        timed_out = False
        try:
            p = subprocess.run([driver], input=("".join(l + "\n" for l in rest)).encode(), capture_output=True,
                               timeout=TIMEOUT)
            stdout = p.stdout
        except subprocess.TimeoutExpired as e:
            timed_out, stdout = True, e.stdout or b""
        got = [json.loads(l) for l in stdout.decode("utf-8", "replace").splitlines()]
        out += got
        if len(out) < len(lines):
            if timed_out:
                out.append({"crash": "timeout"})
                continue
            sig = -p.returncode if p.returncode < 0 else p.returncode
            out.append({"crash": f"signal {sig}" if p.returncode < 0 else f"exit {sig}"})
    return out


# b10488's {% filter %} block reads its moved-from filter node when the filter call fails: the message then
# holds a heap address (`basic_string::substr: __pos (which is 94403650211608) > this->size() ...`), different
# on every run. It is written as "<address>", and the row gets "unstable": true.
UNSTABLE = re.compile(r"(__pos \(which is )\d{8,}(\))")


def decode(answer):
    res = {}
    unstable = False
    for k, v in answer.items():
        if k in ("got", "error", "skip"):
            v = bytes.fromhex(v).decode("utf-8", "replace")
            v, n = UNSTABLE.subn(r"\1<address>\2", v)
            unstable |= n > 0
        elif k == "runs":
            v = [decode(x) for x in v]
            unstable |= any(x.pop("unstable", False) for x in v)
        res[k] = v
    if unstable:
        res["unstable"] = True
    return res


def write(name, rows):
    path = os.path.join(GOLD, name)
    with open(path + ".partial", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    os.replace(path + ".partial", path)
    print(f"{len(rows):6d} rows -> {os.path.relpath(path, os.path.join(HERE, '../..'))}")


def templates_of(name):
    return [json.loads(l)["template"] for l in open(os.path.join(GOLD, name), encoding="utf-8")]


def main():
    driver, build = sys.argv[1], sys.argv[2]
    suffix = "" if build == "b11312" else "-" + build
    py = sys.executable

    # models/templates renders and caps
    models = [json.loads(l) for l in subprocess.run([py, os.path.join(HERE, "gen_models.py"), "models"],
                                                    capture_output=True, text=True, check=True).stdout.splitlines()]
    ans = run_driver(driver, [json.dumps({"template": m["template"], "vars": m["vars"]}) for m in models])
    write(f"model-templates{suffix}.jsonl", [dict({"file": m["name"], "vars": m["vars"]}, **decode(a))
                                             for m, a in zip(models, ans)])
    mcaps = [json.loads(l) for l in subprocess.run([py, os.path.join(HERE, "gen_models.py"), "caps"],
                                                   capture_output=True, text=True, check=True).stdout.splitlines()]
    ans = run_driver(driver, [json.dumps({"template": m["template"], "mode": "caps"}) for m in mcaps])
    write(f"model-caps{suffix}.jsonl", [dict({"file": m["name"]}, **decode(a)) for m, a in zip(mcaps, ans)])

    # generated expressions, caps and dumps: the committed b11312 inputs
    gvars = json.load(open(os.path.join(GOLD, "generated-vars.json"), encoding="utf-8"))
    no_dump = run_driver(driver, [json.dumps({"template": "x", "mode": "dump"})])[0].get("skip") == \
        "PROMPTSCOPE_NO_DEBUG_DUMP".encode().hex()
    for name, mode in (("generated", "render"), ("generated-caps", "caps"), ("generated-dump", "dump")):
        if mode == "dump" and no_dump:
            print(f"{name}{suffix}.jsonl not written: this build has no runtime::debug_dump_program")
            continue
        ts = templates_of(f"{name}.jsonl")
        lines = [json.dumps({"template": t, "vars": gvars, "mode": mode}) for t in ts]
        ans = run_driver(driver, lines)
        write(f"{name}{suffix}.jsonl", [dict({"template": t}, **decode(a)) for t, a in zip(ts, ans)])

    # the build differences, plus each build's test-jinja cases
    tj = [os.path.join(GOLD, "test-jinja.jsonl")] + [
        os.path.join(GOLD, f) for f in sorted(os.listdir(GOLD)) if f.startswith("test-jinja-") and f.endswith(".jsonl")]
    rows = [json.loads(l) for l in subprocess.run([py, os.path.join(HERE, "gen_builds.py")] + tj,
                                                  capture_output=True, text=True, check=True).stdout.splitlines()]
    ans = run_driver(driver, [json.dumps(r, ensure_ascii=False) for r in rows])
    write(f"build-diffs{suffix}.jsonl", [dict(r, **decode(a)) for r, a in zip(rows, ans)])


if __name__ == "__main__":
    main()
