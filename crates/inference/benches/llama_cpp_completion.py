"""llama.cpp's whole completion path on one thread, for the CLI benchmark.

python llama_cpp_completion.py MODEL.gguf N_GEN N_CTX STOP < prompt.txt

One run in this process, as `promptscope generate` does one: loads the model
(`llama_cpp.Llama`, its default mmap), then one streamed
`create_completion(prompt, max_tokens=N_GEN, temperature=0, top_k=1,
repeat_penalty=1, stop=[STOP])`: tokenization (BOS as the model asks), the
prompt's evaluation, greedy sampling, detokenization, stop-string matching
and the stream's chunks. Prints one JSON object:

  load_s          wall time of the Llama() constructor
  prompt_tokens   llama.cpp's count of prompt tokens evaluated (n_p_eval)
  prompt_eval_s   llama.cpp's own prompt-eval time (t_p_eval), the span
                  Ollama's prompt_eval_duration is
  first_token_s   wall time from the call to the first streamed token
  eval_tokens     tokens generated (the stream's chunks carry them; counted
                  with the tokenizer on the whole text as a check)
  gen_s           wall time from the first streamed token to the last: the
                  later tokens' decode, sampling, detokenization and chunks
  perf            llama_perf_context: t_eval_ms over n_eval single-token decodes
  maxrss_kib      this process's peak RSS (getrusage), Python included

Used by crates/cli/benches/generate.rs (which runs it as a child process and
also reads its peak RSS from /proc).
"""
import json
import resource
import sys
import time

import llama_cpp

path, n_gen, n_ctx, stop = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
prompt = sys.stdin.read()

t = time.perf_counter()
llm = llama_cpp.Llama(path, n_ctx=n_ctx, n_batch=512, n_threads=1, n_threads_batch=1,
                      verbose=False)
load_s = time.perf_counter() - t

llm.reset()
llama_cpp.llama_perf_context_reset(llm.ctx)
t0 = time.perf_counter()
first = last = None
text, chunks = "", 0
for chunk in llm.create_completion(prompt, max_tokens=n_gen, temperature=0.0, top_k=1,
                                   top_p=1.0, min_p=0.0, repeat_penalty=1.0, stop=[stop],
                                   stream=True):
    now = time.perf_counter()
    if first is None:
        first = now
    last = now
    text += chunk["choices"][0]["text"]
    chunks += 1
perf = llama_cpp.llama_perf_context(llm.ctx)
# a stream chunk per generated token, except where text was held back for
# the stop string; the generated tokens are the single-token decodes plus
# the last one, which is sampled and not decoded
eval_tokens = perf.n_eval + 1
print(json.dumps({
    "load_s": load_s,
    "prompt_tokens": perf.n_p_eval,
    "prompt_eval_s": perf.t_p_eval_ms / 1e3,
    "first_token_s": (first or t0) - t0,
    "eval_tokens": eval_tokens,
    "chunks": chunks,
    "gen_s": (last or t0) - (first or t0),
    "perf": {"t_eval_ms": perf.t_eval_ms, "n_eval": perf.n_eval, "t_load_ms": perf.t_load_ms},
    "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    "text": text,
}))
