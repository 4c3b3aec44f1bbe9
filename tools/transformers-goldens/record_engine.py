"""Records the Jinja2 dialect's engine tables (crates/jinja/tests/golden/):
what jinja2 3.1.6, in the environment transformers 5.25.0 compiles chat
templates in, renders for the inputs of two llama.cpp-engine tables:

- jinja2-test-jinja.jsonl: the 306 cases of test-jinja.jsonl (llama.cpp's
  tests/test-jinja.cpp), each with its own vars;
- jinja2-generated.jsonl: the 800 generated templates of generated.jsonl,
  all with generated-vars.json;
- jinja2-behaviours.jsonl: the templates of behaviours.py, where Jinja2
  parts from llama.cpp's engine (Markup, the sandbox, undefined values,
  loop variables, tojson's arguments, printing, operators, generators,
  whitespace control, transformers' globals), with behaviours.V.

Each line: {"template", "vars"?, "got"} or {"template", "vars"?, "error":
"TypeName: message"}. The clock strftime_now reads is 2026-12-01 00:00:00.

    v/bin/python record_engine.py
"""
import datetime as _dt
import json
import os

import jinja2
import transformers
from transformers.utils import chat_template_utils

from behaviours import BEHAVIOURS, V


class _FixedClock(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2026, 12, 1, 0, 0, 0)


chat_template_utils.datetime = _FixedClock
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../crates/jinja/tests/golden")


def run(template, vars):
    try:
        t = chat_template_utils._cached_compile_jinja_template(template)
        return {"got": t.render(**vars)}
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def main():
    assert transformers.__version__ == "5.25.0" and jinja2.__version__ == "3.1.6"
    with open(os.path.join(GOLDEN, "test-jinja.jsonl"), encoding="utf-8") as f, \
            open(os.path.join(GOLDEN, "jinja2-test-jinja.jsonl"), "w", encoding="utf-8") as out:
        for line in f:
            case = json.loads(line)
            row = {"group": case["group"], "name": case["name"], "template": case["template"], "vars": case["vars"]}
            row.update(run(case["template"], case["vars"]))
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(os.path.join(GOLDEN, "generated-vars.json"), encoding="utf-8") as f:
        vars = json.load(f)
    with open(os.path.join(GOLDEN, "generated.jsonl"), encoding="utf-8") as f, \
            open(os.path.join(GOLDEN, "jinja2-generated.jsonl"), "w", encoding="utf-8") as out:
        for line in f:
            case = json.loads(line)
            row = {"template": case["template"]}
            row.update(run(case["template"], vars))
            if " at 0x" in row.get("got", ""):
                # a generator or function printed with its memory address
                row = {"template": case["template"], "skip": "prints an object's address"}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


    with open(os.path.join(GOLDEN, "jinja2-behaviours.jsonl"), "w", encoding="utf-8") as out:
        for group, template in BEHAVIOURS:
            row = {"group": group, "template": template, "vars": V}
            row.update(run(template, V))
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
