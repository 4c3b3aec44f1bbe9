"""llama.cpp's speed on one thread, for the generation benchmarks.

python llama_cpp_speed.py MODEL.gguf N_PROMPT N_GEN RUNS < prompt.txt

Evaluates the prompt (BOS added as llama.cpp does) and then N_GEN single
tokens, RUNS times, and prints the best prompt-eval and generation speeds
in tokens per second and the prompt's token count. N_PROMPT, when not 0,
is checked against that count. Used by benches/generate.rs (native) and
tests/bench/generate-wasm.mjs (browser).
"""
import sys, time, llama_cpp

path, n_prompt, n_gen, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
llm = llama_cpp.Llama(path, n_ctx=1024, n_threads=1, n_threads_batch=1, n_batch=512, verbose=False)
ids = llm.tokenize(sys.stdin.read().encode(), add_bos=True, special=True)
assert n_prompt in (0, len(ids)), (len(ids), n_prompt)
best_p = best_g = 1e9
for _ in range(runs):
    llm.reset()
    t = time.perf_counter(); llm.eval(ids); best_p = min(best_p, time.perf_counter() - t)
    t = time.perf_counter()
    for _ in range(n_gen):
        llm.eval([0])
    best_g = min(best_g, time.perf_counter() - t)
print(len(ids) / best_p, n_gen / best_g, len(ids))
