#!/usr/bin/env python3
"""The recorder's tokenizer: libllama (the llama.cpp build the
llama-cpp-python 0.3.36 sdist vendors) with a vocabulary-only GGUF, over
JSON lines on stdin/stdout:

    {"op": "tokenize", "hex": TEXT, "add_special": B, "parse_special": B} -> {"ids": [...]}
    {"op": "pieces", "ids": [...]} -> {"hex": ...}

`pieces` is llama-server's tokens_to_str: llama_token_to_piece(vocab, id,
lstrip=0, special=true) of each token, joined.

    oracle.py --llama-cpp DIR VOCAB.gguf
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tokenizer-goldens"))
from record_libllama import Lib, Oracle  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--llama-cpp", required=True)
    ap.add_argument("vocab")
    args = ap.parse_args()
    o = Oracle(Lib(args.llama_cpp), args.vocab)
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "tokenize":
            ids = o.tokenize(bytes.fromhex(req["hex"]), req["add_special"], req["parse_special"])
            out = {"ids": ids}
        elif req["op"] == "pieces":
            out = {"hex": b"".join(o.piece(i, True) for i in req["ids"]).hex()}
        else:
            raise SystemExit(f"unknown op {req['op']}")
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
