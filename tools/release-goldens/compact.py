#!/usr/bin/env python3
"""Compacts per-release recordings into the two golden files the tests read
(crates/ollama/tests/golden/releases/): renderers by default, or another set
(--set responses, --set converter) whose outcome is a group of keys
(--outcome status,api_request,error,web_search) rather than `expect`.

Input: a folder of `renderers-<tag>.jsonl` files, one per Ollama release
tag, each line one case as the recorder wrote it (see
crates/ollama/tests/golden/releases/README.md for how they were recorded;
the recorder itself runs Ollama's Go code and so is not in this
repository). Every file must hold the same ids in the same order.

Output:
- renderers.jsonl: each case (id, renderer, messages, tools, think, date)
  with the newest tag's `expect`, and `"unstable": true` for the ids whose
  output varied between reruns of the same tag (--unstable).
- renderers-releases.jsonl: a line {"release"} per recorded tag, then one
  line per (tag, id) whose `expect` differs from the newest tag's:
  {"release", "id", "expect"}.

With --outcome, a line of SET-releases.jsonl holds those keys of the
recording under `expect`.

Usage: compact.py IN_DIR OUT_DIR NEWEST_TAG [--set SET] [--outcome K,K...] [--unstable ID ...]
"""
import json
import sys
from pathlib import Path


def main() -> None:
    args = sys.argv[1:]
    name, keys = "renderers", None
    for flag in ("--set", "--outcome"):
        if flag in args:
            i = args.index(flag)
            if flag == "--set":
                name = args[i + 1]
            else:
                keys = args[i + 1].split(",")
            args = args[:i] + args[i + 2:]
    unstable = set()
    if "--unstable" in args:
        i = args.index("--unstable")
        unstable = set(args[i + 1:])
        args = args[:i]
    src, dst, newest = Path(args[0]), Path(args[1]), args[2]
    tags = {}
    for f in sorted(src.glob(f"{name}-*.jsonl")):
        tag = f.name[len(name) + 1:-len(".jsonl")]
        tags[tag] = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines()]
    base = tags[newest]
    ids = [c["id"] for c in base]
    for tag, cases in tags.items():
        if [c["id"] for c in cases] != ids:
            sys.exit(f"{tag}: not the same cases as {newest}")
    dst.mkdir(parents=True, exist_ok=True)
    def outcome(c):
        return c["expect"] if keys is None else {k: c[k] for k in keys if k in c}

    with open(dst / f"{name}.jsonl", "w", encoding="utf-8") as out:
        for c in base:
            if c["id"] in unstable:
                c["unstable"] = True
            out.write(json.dumps(c, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(dst / f"{name}-releases.jsonl", "w", encoding="utf-8") as out:
        for tag in sorted(tags):
            out.write(json.dumps({"release": tag}) + "\n")
        for tag in sorted(tags):
            for c, b in zip(tags[tag], base):
                if outcome(c) != outcome(b) and c["id"] not in unstable:
                    line = {"release": tag, "id": c["id"], "expect": outcome(c)}
                    out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
