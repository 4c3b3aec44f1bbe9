#!/usr/bin/env python3
"""Cross-checks harness.cpp against the real llama-server: for a few templates, starts
build/bin/llama-server (SmolLM2-135M, --chat-template-file, --jinja, the fixed clock LD_PRELOADed),
POSTs every case's body to /apply-template, runs the same cases through the harness with the
bos/eos the server reports in /props, and compares status + response body byte for byte.

usage: verify_server.py [TEMPLATE.jinja ...]
  (run record.sh first, with the same LLAMA and BUILD; env LLAMA, BUILD, WORK, TEMPLATES, MODEL, VERIFY_CASES)

Cases with a "server" object (a loaded mmproj) are left out: the model has none.
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

LLAMA = Path(os.environ["LLAMA"])
BUILD = os.environ.get("BUILD", "b11312")
WORK = Path(os.environ.get("WORK", Path.home() / ".cache/promptscope/apply-template-goldens" / BUILD))
UPSTREAM = Path(os.environ.get("PROMPTSCOPE_UPSTREAM", Path.home() / ".cache/promptscope/upstream"))
TEMPLATES = Path(os.environ.get("TEMPLATES", UPSTREAM / "llama.cpp-b11312/models/templates"))
MODEL = os.environ.get("MODEL", "/root/.cache/promptscope/models/SmolLM2-135M-Instruct.Q4_1.gguf")
HERE = Path(__file__).resolve().parent
GOLD = HERE.parent.parent / "crates/llamachat/tests/golden"
ROOT = HERE.parent.parent
DEFAULT = [
    "Qwen-Qwen3-0.6B.jinja", "meta-llama-Llama-3.3-70B-Instruct.jinja", "openai-gpt-oss-120b.jinja",
    "mistralai-Mistral-Nemo-Instruct-2407.jinja", "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja",
    "google-gemma-2-2b-it.jinja", "GLM-4.7-Flash.jinja", "Qwen3-Coder.jinja",
]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def http(port, method, path, body=None):
    data = None if body is None else body.encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, {"Content-Type": "application/json"},
                                 method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def main():
    templates = sys.argv[1:] or DEFAULT
    cases = [json.loads(line) for line in open(WORK / "cases.jsonl")]
    only = os.environ.get("VERIFY_CASES")  # e.g. VERIFY_CASES=plain,prefill
    if only:
        cases = [c for c in cases if c["case"] in only.split(",")]
    cases = [c for c in cases if "server" not in c]
    env = dict(os.environ, TZ="UTC", LD_PRELOAD=str(WORK / "fixed_clock.so"))
    total = same = 0
    for t in templates:
        port = free_port()
        args = [str(LLAMA / "build/bin/llama-server"), "--model", MODEL, "--port", str(port), "--host",
                "127.0.0.1", "--no-webui", "--offline", "-c", "4096", "-np", "1", "-t", "2",
                "--chat-template-file", str(TEMPLATES / t), "--jinja"]
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    if http(port, "GET", "/health")[0] == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.2)
            else:
                print(f"{t}: llama-server did not start")
                continue
            props = json.loads(http(port, "GET", "/props")[1])
            bos, eos = props.get("bos_token", ""), props.get("eos_token", "")
            mine = [dict(c, bos_token=bos, eos_token=eos) for c in cases if c["template"] == t]
            out = subprocess.run([str(WORK / "harness"), str(TEMPLATES)], env=dict(os.environ, TZ="UTC"),
                                 input="".join(json.dumps(c, ensure_ascii=False) + "\n" for c in mine),
                                 capture_output=True, text=True, check=True).stdout.splitlines()
            for c, line in zip(mine, out):
                row = json.loads(line)
                status, text = http(port, "POST", "/apply-template", json.dumps(c["body"], ensure_ascii=False))
                if "prompt" in row:
                    want_status, want = 200, json.loads(text).get("prompt") if status == 200 else None
                    ok = status == 200 and want == row["prompt"]
                else:
                    ok = status == row["error"]["status"] and text == row["error"]["body_text"]
                total += 1
                same += ok
                if not ok:
                    print(f"DIFF {t} {c['case']}: server {status} {text[:300]!r}\n     harness {line[:400]}")
            print(f"{t}: bos={bos!r} eos={eos!r} {len(mine)} cases checked")
        finally:
            proc.terminate()
            proc.wait()
    print(f"{BUILD}: {same}/{total} identical")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
