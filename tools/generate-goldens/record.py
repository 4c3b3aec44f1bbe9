#!/usr/bin/env python3
"""Record llama.cpp's greedy generations of a GGUF model.

Oracle: llama-cpp-python 0.3.36 (llama.cpp 0c1e57098), CPU:

    CMAKE_ARGS="-DLLAMA_CURL=OFF" pip install llama-cpp-python==0.3.36

For each prompt: the prompt ids (add_special=true, parse_special=true), then
the argmax of the last position's logits at every step (ties to the lowest
id, no penalties, EOS does not stop), the text they detokenize to, and the
five largest logits of the first step: the format of
tests/corpus/generate/smollm2-greedy.jsonl, which this script reproduces
for the prompts it shares with it (--check).

The ten prompts suit the model's family, taken from its general.architecture
(or --prompts): SmolLM2 (llama) gets plain text and its ChatML turns, Gemma 3
gets plain text and Gemma's turns (`<start_of_turn>user ... <end_of_turn>`,
the format of Ollama's gemma3 template: the GGUF carries no chat template).
The BOS is added as llama.cpp adds it (SmolLM2 adds none, Gemma 3 adds
<bos>), so no prompt spells it.

Usage:
    record.py --model MODEL.gguf --out FILE [--prompts smollm2|gemma3] [--check CORPUS.jsonl]
"""
import argparse
import json
import sys

import numpy as np
import llama_cpp

# Ten fixed prompts of our own: plain text, code, chat-formatted with the
# model's ChatML tokens, a list, a question, non-English text.
SMOLLM2 = [
    ("The three primary colors are", 32),
    ("<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat is the capital of Japan?<|im_end|>\n<|im_start|>assistant\n", 32),
    ("import json\n\ndef load(path):\n", 32),
    ("Q: How many legs does a spider have?\nA:", 32),
    ("<|im_start|>user\nWrite a haiku about the sea.<|im_end|>\n<|im_start|>assistant\n", 32),
    ("1. Preheat the oven to 180 degrees.\n2.", 32),
    ("La tour Eiffel se trouve à", 32),
    ("The quick brown fox", 32),
    ("<|im_start|>user\nList three fruits.<|im_end|>\n<|im_start|>assistant\n", 32),
    ("In 1969, Neil Armstrong", 32),
]


def gemma_turn(user):
    return f"<start_of_turn>user\n{user}<end_of_turn>\n<start_of_turn>model\n"


# The same kinds for Gemma 3: plain text, code, a list, non-English text, and
# chat turns in Gemma's format (a system prompt goes into the first user
# turn, as Ollama's gemma3 template puts it).
GEMMA3 = [
    ("The three primary colors are", 32),
    (gemma_turn("What is the capital of Japan?"), 32),
    ("import json\n\ndef load(path):\n", 32),
    ("Q: How many legs does a spider have?\nA:", 32),
    (gemma_turn("Write a haiku about the sea."), 32),
    ("1. Preheat the oven to 180 degrees.\n2.", 32),
    ("La tour Eiffel se trouve à", 32),
    (gemma_turn("You are a helpful assistant.\n\nList three fruits."), 32),
    (gemma_turn("Translate to German: Good morning, how are you?"), 32),
    ("In 1969, Neil Armstrong", 32),
]

PROMPTS = {"smollm2": SMOLLM2, "gemma3": GEMMA3}
# general.architecture -> prompt set
FAMILY = {"llama": "smollm2", "gemma3": "gemma3"}


def generate(llm, prompt, n):
    ids = llm.tokenize(prompt.encode(), add_bos=True, special=True)
    llm.reset()
    llm.eval(ids)
    out, top5 = [], None
    for step in range(n):
        ptr = llama_cpp.llama_get_logits_ith(llm.ctx, -1)
        logits = np.ctypeslib.as_array(ptr, shape=(llm.n_vocab(),)).astype(np.float32)
        if step == 0:
            order = np.argsort(-logits, kind="stable")[:5]
            top5 = [[int(i), float(logits[i])] for i in order]
        tok = int(np.argmax(logits))  # first maximum: ties to the lowest id
        out.append(tok)
        llm.eval([tok])
    text = llm.detokenize(out, special=True).decode("utf-8", errors="replace")
    return {"prompt": prompt, "n": n, "prompt_ids": ids, "generated_ids": out,
            "text": text, "top5_first_step": top5}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--prompts", choices=sorted(PROMPTS))
    ap.add_argument("--check")
    a = ap.parse_args()
    # every prompt is evaluated in one batch (n_batch >= its length)
    llm = llama_cpp.Llama(a.model, n_ctx=512, n_batch=512, n_threads=1, n_threads_batch=1,
                          logits_all=False, verbose=False)
    arch = llm.metadata.get("general.architecture")
    family = a.prompts or FAMILY.get(arch)
    if family is None:
        sys.exit(f"no prompts for architecture {arch!r}: pass --prompts")
    if a.check:
        bad = 0
        for line in open(a.check):
            case = json.loads(line)
            got = generate(llm, case["prompt"], case["n"])
            same = got["generated_ids"] == case["generated_ids"]
            bad += not same
            print(f"check {case['prompt'][:30]!r}: {'same' if same else 'DIFFERENT'}", file=sys.stderr)
        if bad:
            sys.exit(f"{bad} corpus cases not reproduced")
    with open(a.out, "w") as f:
        for prompt, n in PROMPTS[family]:
            f.write(json.dumps(generate(llm, prompt, n), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
