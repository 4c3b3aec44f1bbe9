#!/usr/bin/env python3
"""Record llama.cpp's greedy generations of Gemma 3 270M (Q8_0).

Oracle: llama-cpp-python 0.3.36 on the reference llama.cpp build
(tools/llama-cpp/build.sh), CPU, one thread, flash attention off, the f16
KV cache: the run tools/generate-goldens/record.py makes for SmolLM2, in
the same JSONL format (prompt ids, 32 greedy ids, their text, the five
largest logits of the first step), on prompts in Gemma's own format.

The model file is made by tools/llama-cpp/gemma-q8_0.sh (every matrix
requantized to Q8_0 by llama.cpp's llama-quantize). n_ctx is 1024 so that
the last prompt, longer than Gemma 3's 512-token sliding window, reaches
the window's mask in the local layers.

Usage:
    record.py --model gemma-3-270m-q8_0.gguf --out FILE [--dump-logits DIR]
"""
import argparse
import json
import os
import sys

import numpy as np
import llama_cpp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "generate-goldens"))
from record import generate  # noqa: E402

TURN = "<start_of_turn>user\n{}<end_of_turn>\n<start_of_turn>model\n"

# A passage of about 600 tokens for the sliding-window case.
LONG = " ".join(
    f"Day {i}: the lighthouse keeper wrote that the sea was {w} and the gulls were {g}."
    for i, (w, g) in enumerate(
        [("calm", "quiet"), ("grey", "loud"), ("rough", "gone"), ("green", "circling"),
         ("flat", "fighting"), ("dark", "asleep"), ("bright", "hungry"), ("cold", "few")] * 5,
        start=1,
    )
) + " Summarize the keeper's notes in one sentence:"

PROMPTS = [
    ("The three primary colors are", 32),
    (TURN.format("What is the capital of Japan?"), 32),
    ("import json\n\ndef load(path):\n", 32),
    ("Q: How many legs does a spider have?\nA:", 32),
    (TURN.format("Write a haiku about the sea."), 32),
    ("1. Preheat the oven to 180 degrees.\n2.", 32),
    ("La tour Eiffel se trouve à", 32),
    ("The quick brown fox", 32),
    (TURN.format("List three fruits."), 32),
    (LONG, 32),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--dump-logits", help="also save each prompt's first-step logits (.npy) here")
    a = ap.parse_args()
    llm = llama_cpp.Llama(a.model, n_ctx=1024, n_threads=1, logits_all=False, verbose=False)
    with open(a.out, "w") as f:
        for k, (prompt, n) in enumerate(PROMPTS):
            case = generate(llm, prompt, n)
            if a.dump_logits:
                ids = llm.tokenize(prompt.encode(), add_bos=True, special=True)
                llm.reset()
                llm.eval(ids)
                ptr = llama_cpp.llama_get_logits_ith(llm.ctx, -1)
                logits = np.ctypeslib.as_array(ptr, shape=(llm.n_vocab(),)).astype(np.float32)
                os.makedirs(a.dump_logits, exist_ok=True)
                np.save(os.path.join(a.dump_logits, f"{k}.npy"), logits)
            print(f"{len(case['prompt_ids']):>4} prompt ids  {prompt[:40]!r}", file=sys.stderr)
            f.write(json.dumps(case, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
