"""Records what a real llama-server reuses from its slot across the turns of a conversation, for a model whose
memory needs context checkpoints, into crates/slot/tests/golden/slot-$BUILD.jsonl (see README.md): Gemma 3 270M
(sliding-window attention, n_swa 512; KIND gemma3) or the tiny Mamba of tiny_recurrent.py (a recurrent memory,
with SmolLM2's vocabulary and template; KIND mamba).

    python3 record.py LLAMA_SERVER MODEL.gguf BUILD KIND > out.jsonl

llama-server runs as Ollama starts it (llm/llama_server.go: -c num_ctx -np 1, -b/-ub 512, --context-shift; the
checkpoint defaults of that build's common/arg.cpp). Each conversation is a run of /completion requests on
token prompts (the model's own chat template through /apply-template, tokenized by /tokenize), each asking for 12
greedy tokens with ignore_eos (so the reply's last token is the 12th: sampled, never decoded), with the message
delimiters Ollama's native chat gets from the template's handler (the autoparser's for Gemma templates: see
delimiters-b10488.jsonl) or none (Ollama's rendered mode sends a plain prompt). The next turn appends the reply's
text as the assistant message. Each line holds the delimiters' tokens, every request's prompt and generated tokens,
and the server's timings.cache_n and prompt_n."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

SERVER, MODEL, BUILD, KIND = sys.argv[1:5]
# the model's memory as the line names it (architecture, sliding window), and the delimiters the autoparser finds
# in its template (delimiters-b10488.jsonl: google-gemma-2-2b-it, HuggingFaceTB-SmolLM3-3B)
ARCH, WINDOW, DELIMS = {
    "gemma3": ("gemma3", 512, [{"role": "assistant", "delimiter": "<start_of_turn>model"},
                               {"role": "user", "delimiter": "<start_of_turn>user"}]),
    "mamba": ("mamba", None, [{"role": "assistant", "delimiter": "<|im_start|>assistant"},
                              {"role": "user", "delimiter": "<|im_start|>user"}]),
}[KIND]
# Gemma 3 270M's GGUF has no chat template (llama-server would fall back to ChatML, whose markers the Gemma
# delimiters never match): it runs with this Gemma-style one (system turns kept as they are), written here
GEMMA_TEMPLATE = ("{{ bos_token }}{% for m in messages %}{% if m.role == 'assistant' %}{% set r = 'model' %}"
                  "{% else %}{% set r = m.role %}{% endif %}<start_of_turn>{{ r }}\n{{ m.content | trim }}"
                  "<end_of_turn>\n{% endfor %}{% if add_generation_prompt %}<start_of_turn>model\n{% endif %}")
LONG = ("The river bends twice before it reaches the old mill, where the water slows and the reeds grow thick. "
        "Farmers upstream count the days by the height of the banks, and the children know every stone. ")


def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def start(num_ctx):
    port = free_port()
    template = []
    if KIND == "gemma3":
        path = f"/tmp/slot-goldens-gemma-{os.getpid()}.jinja"
        with open(path, "w") as f:
            f.write(GEMMA_TEMPLATE)
        template = ["--jinja", "--chat-template-file", path]
    p = subprocess.Popen([SERVER, "--model", MODEL, "--port", str(port), "--host", "127.0.0.1", "--no-webui",
                          "--offline", "-c", str(num_ctx), "-np", "1", "-b", "512", "-ub", "512",
                          "--context-shift", "-t", "2"] + template,
                         stdout=subprocess.DEVNULL, stderr=open(f"/tmp/slot-goldens-{port}.log", "w"))
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
                if r.status == 200:
                    return p, port
        except Exception:
            time.sleep(0.2)
    raise SystemExit("llama-server did not start")


def conversations():
    """(id, num_ctx, delimiters?, turns): each turn is a function of the messages so far giving the next ones."""
    out = []
    users = ["What is the capital of France?", "And of Italy?", "Name a river there.", "Thanks. One more: Spain?"]
    for num_ctx in (4096, 768):
        for native in (True, False):
            tag = f"ctx{num_ctx}-{'native' if native else 'rendered'}"
            out.append((f"{tag}/short", num_ctx, native, [("user", u) for u in users]))
            out.append((f"{tag}/system-short", num_ctx, native,
                        [("system", "You answer in one word."), ("user", users[0])] + [("user", u) for u in users[1:]]))
            n = 4 if num_ctx == 768 else 30
            out.append((f"{tag}/long-first", num_ctx, native,
                        [("user", LONG * n + "Summarize."), ("user", "Shorter."), ("user", "One word."),
                         ("user", "Again.")]))
            g = 2 if num_ctx == 768 else 8
            out.append((f"{tag}/growing", num_ctx, native,
                        [("user", LONG * g + "First?"), ("user", LONG * g + "Second?"),
                         ("user", LONG * g + "Third?"), ("user", "Done?")]))
            out.append((f"{tag}/edit-system", num_ctx, native,
                        [("system", "Be brief."), ("user", users[0]), ("user", users[1]),
                         ("edit-system", "Be very brief."), ("user", users[2])]))
            out.append((f"{tag}/rewind", num_ctx, native,
                        [("user", users[0]), ("user", users[1]), ("user", users[2]), ("user", users[3]),
                         ("rewind", 2), ("user", "Let us talk about Germany instead.")]))
            out.append((f"{tag}/regenerate", num_ctx, native,
                        [("user", LONG + users[0]), ("user", users[1]), ("regenerate", 0), ("user", users[2])]))
            out.append((f"{tag}/drop-oldest", num_ctx, native,
                        [("user", LONG + users[0]), ("user", users[1]), ("user", users[2]),
                         ("drop-oldest", ""), ("user", users[3])]))
    return out


def main():
    lines = []
    for cid, num_ctx, native, turns in conversations():
        # a fresh server for each conversation: an empty slot and an empty prompt cache (--cache-ram)
        proc, port = start(num_ctx)
        try:
            delim_tokens = [{"role": d["role"],
                             "tokens": post(port, "/tokenize", {"content": d["delimiter"], "add_special": False,
                                                                "parse_special": True})["tokens"]}
                            for d in DELIMS]
            msgs, requests = [], []
            pending = list(turns)
            while pending:
                role, text = pending.pop(0)
                if role == "edit-system":
                    msgs[0]["content"] = text
                    continue
                if role == "rewind":
                    # back to before the text-th latest exchange (a user edits an earlier message)
                    del msgs[len(msgs) - 2 * text:]
                    continue
                if role == "regenerate":
                    # the last user message sent again (its reply dropped)
                    pending.insert(0, ("user", msgs[-2]["content"]))
                    del msgs[-2:]
                    continue
                if role == "drop-oldest":
                    first = next(i for i, m in enumerate(msgs) if m["role"] == "user")
                    del msgs[first:first + 2]
                    continue
                msgs.append({"role": role, "content": text})
                if role != "user":
                    continue
                prompt = post(port, "/apply-template", {"messages": msgs})["prompt"]
                ids = post(port, "/tokenize", {"content": prompt, "add_special": False,
                                               "parse_special": True})["tokens"]
                body = {"prompt": ids, "n_predict": 12, "ignore_eos": True, "temperature": 0, "top_k": 1,
                        "return_tokens": True, "cache_prompt": True}
                if native:
                    body["message_delimiters"] = DELIMS
                r = post(port, "/completion", body)
                requests.append({"prompt": ids, "generated": r["tokens"],
                                 "cache_n": r["timings"]["cache_n"], "prompt_n": r["timings"]["prompt_n"]})
                msgs.append({"role": "assistant", "content": r["content"]})
            lines.append({"id": f"{KIND}/{cid}", "arch": ARCH, "sliding_window": WINDOW, "num_ctx": num_ctx,
                      "delimiters": delim_tokens if native else [], "requests": requests})
            print(cid, [(q["cache_n"], q["prompt_n"], len(q["prompt"])) for q in requests], file=sys.stderr)
        finally:
            proc.terminate()
            proc.wait()
    for line in lines:
        print(json.dumps(line, separators=(",", ":")))


if __name__ == "__main__":
    main()
