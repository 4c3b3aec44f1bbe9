#!/usr/bin/env python3
"""Writes the cases for v1-response-goldens (JSON lines, to argv[1]).

Each case: {"id", "route", "note"?, "request", "ids", "status", "chunks"}.

- route: openai-chat (/v1/chat/completions), openai-completions
  (/v1/completions), openai-responses (/v1/responses), anthropic-messages
  (/v1/messages);
- request: the client's request body (the middleware parses it, checks it
  and converts it as Ollama does; the writer keeps what it needs: stream,
  stream_options, and for Responses/Messages the fields echoed back);
- ids: the ids the middleware would draw at random, fixed per case;
- status: what the native handler answers with when it fails before
  writing anything (its first and only chunk is then {"error": ...});
  200 otherwise;
- chunks: the native responses in order, api.ChatResponse objects
  (api.GenerateResponse for completions), as /api/chat and /api/generate
  stream them; an unstreamed request gets one, the accumulated answer
  (built here as server/routes.go writeChatResponse / GenerateHandler
  build it). An {"error": ...} chunk after others is an error in the
  middle of a stream (streamResponse then encodes {"error": msg} at 200).

Everything is deterministic: fixed timestamps, ids derived from the case
number.
"""

import copy
import hashlib
import json
import sys

MODEL = "qwen3:8b"
CASES = []


def ts(ms):
    """A fixed timestamp ms milliseconds after 2025-06-01T12:00:00.5Z
    (the native handler stamps time.Now().UTC(), RFC 3339 with nanoseconds)."""
    total = 500 + ms
    s, frac = divmod(total, 1000)
    m, s = divmod(s, 60)
    return f"2025-06-01T12:{m:02d}:{s:02d}.{frac:03d}123456Z"


METRICS = {
    "total_duration": 1234567890,
    "load_duration": 23456789,
    "prompt_eval_count": 26,
    "prompt_eval_duration": 345678901,
    "eval_count": 42,
    "eval_duration": 856789012,
}


def chat_chunk(k, content="", thinking=None, tool_calls=None, done=False, reason=None, metrics=None,
               logprobs=None, model=MODEL, extra=None):
    msg = {"role": "assistant", "content": content}
    if thinking:
        msg["thinking"] = thinking
    if tool_calls:
        msg["tool_calls"] = tool_calls
    c = {"model": model, "created_at": ts(k * 230), "message": msg, "done": done}
    if reason is not None:
        c["done_reason"] = reason
    if logprobs:
        c["logprobs"] = logprobs
    if metrics:
        c.update(metrics)
    if extra:
        c.update(extra)
    return c


def tc(cid, name, args, index=0):
    return {"id": cid, "function": {"index": index, "name": name, "arguments": args}}


def lp(token, logprob, top=None):
    d = {"token": token, "logprob": logprob, "bytes": list(token.encode())}
    if top:
        d["top_logprobs"] = [{"token": t, "logprob": p, "bytes": list(t.encode())} for t, p in top]
    return d


def trailer(k, reason="stop", metrics=METRICS, **kw):
    return chat_chunk(k, done=True, reason=reason, metrics=metrics, **kw)


NESTED = {
    "location": {"city": "Paris", "country": "FR", "coords": {"lon": 2.3522, "lat": 48.8566}},
    "days": [1, 2, 3],
    "units": "celsius",
    "options": {"zeta": True, "alpha": None, "mid": [{"b": 1, "a": 2}, "x", 1.5e-7]},
    "big": 12345678901234567890,
    "huge": 1e21,
    "neg": -0.0001,
    "text": "<b>\"quoted\" & 'single'</b>\u2028é中😀\n\t\\",
    "empty_obj": {},
    "empty_arr": [],
}

# Chat-family scenarios (/api/chat chunks): (name, note, chunks, tools?).
CHAT = []


def scenario(name, note, chunks, tools=False):
    CHAT.append((name, note, chunks, tools))


scenario("content", "content in three chunks, then the metrics-only trailer",
         [chat_chunk(0, "Hello"), chat_chunk(1, ", world"), chat_chunk(2, "!"), trailer(3)])
scenario("content-final", "the last chunk carries content and done",
         [chat_chunk(0, "The answer"), chat_chunk(1, " is"), chat_chunk(2, " 42.", done=True, reason="stop", metrics=METRICS)])
scenario("single", "one chunk: content, done and metrics together",
         [chat_chunk(0, "Hi there!", done=True, reason="stop", metrics=METRICS)])
scenario("empty", "an empty completion: only the done trailer",
         [trailer(0)])
scenario("empty-no-metrics", "an empty completion without metrics",
         [chat_chunk(0, done=True, reason="stop")])
scenario("no-metrics", "content, then a trailer without metrics",
         [chat_chunk(0, "ok"), chat_chunk(1, done=True, reason="stop")])
scenario("length", "stopped at num_predict: done_reason length",
         [chat_chunk(0, "This sentence is cut"), chat_chunk(1, " off because"), trailer(2, reason="length")])
scenario("length-final", "done_reason length on a chunk with content",
         [chat_chunk(0, "Cut", done=True, reason="length", metrics=METRICS)])
scenario("load", "a load-only request (no messages): done_reason load",
         [chat_chunk(0, done=True, reason="load")])
scenario("unload", "keep_alive 0 with no messages: done_reason unload",
         [chat_chunk(0, done=True, reason="unload")])
scenario("no-reason", "done without a done_reason",
         [chat_chunk(0, "text"), chat_chunk(1, done=True, metrics=METRICS)])
scenario("prompt-count-only", "metrics with prompt_eval_count but no eval_count",
         [chat_chunk(0, "x"), trailer(1, metrics={"total_duration": 5000, "prompt_eval_count": 7, "prompt_eval_duration": 3000})])
scenario("eval-count-only", "a cached prompt: eval_count without prompt_eval_count",
         [chat_chunk(0, "x"), trailer(1, metrics={"total_duration": 5000, "eval_count": 3, "eval_duration": 3000})])
scenario("empty-chunks", "empty content chunks in the middle of a stream",
         [chat_chunk(0, "a"), chat_chunk(1, ""), chat_chunk(2, ""), chat_chunk(3, "b"), trailer(4)])
scenario("seconds", "chunks stamped in different seconds (created_at 0.5s, 5.1s, 9.7s)",
         [chat_chunk(0, "one"), chat_chunk(20, " two"), chat_chunk(40, " three"), trailer(41)])
scenario("unicode", "content that JSON escapes: HTML characters, U+2028/2029, quotes, control characters, non-ASCII",
         [chat_chunk(0, "<script>alert(\"x\")</script> & 'y'"), chat_chunk(1, "\u2028\u2029 é 中文 😀 \x01\x7f"),
          chat_chunk(2, "\n\t\\ /"), trailer(3)])
scenario("long", "one long chunk",
         [chat_chunk(0, "lorem ipsum dolor sit amet " * 40), trailer(1)])
scenario("thinking", "thinking in two chunks, then content in two, then the trailer",
         [chat_chunk(0, thinking="Let me think"), chat_chunk(1, thinking=" about it."),
          chat_chunk(2, "The answer"), chat_chunk(3, " is 4."), trailer(4)])
scenario("thinking-only", "thinking and no content",
         [chat_chunk(0, thinking="Hmm."), chat_chunk(1, thinking=" Still thinking."), trailer(2)])
scenario("thinking-mixed", "thinking and content in the same chunk (a parser flushing both)",
         [chat_chunk(0, "Answer: 4", thinking="2+2=4"), trailer(1)])
scenario("thinking-mixed-done", "thinking and content in the done chunk",
         [chat_chunk(0, thinking="first"), chat_chunk(1, "final", thinking=" second", done=True, reason="stop", metrics=METRICS)])
scenario("content-then-thinking", "content first, thinking after it",
         [chat_chunk(0, "Intro."), chat_chunk(1, thinking="now thinking"), chat_chunk(2, " Outro."), trailer(3)])
scenario("thinking-twice", "thinking, content, thinking again, content again",
         [chat_chunk(0, thinking="t1"), chat_chunk(1, "c1"), chat_chunk(2, thinking="t2"), chat_chunk(3, "c2"), trailer(4)])
scenario("tool", "one tool call, then the trailer",
         [chat_chunk(0, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), trailer(1)], tools=True)
scenario("tools-one-chunk", "two tool calls in one chunk",
         [chat_chunk(0, tool_calls=[tc("call_aaaa1111", "get_weather", {"city": "Paris"}, 0),
                                    tc("call_bbbb2222", "get_time", {"tz": "Europe/Paris"}, 1)]), trailer(1)], tools=True)
scenario("tools-chunks", "two tool calls in two chunks",
         [chat_chunk(0, tool_calls=[tc("call_aaaa1111", "get_weather", {"city": "Paris"}, 0)]),
          chat_chunk(1, tool_calls=[tc("call_bbbb2222", "get_weather", {"city": "Rome"}, 1)]), trailer(2)], tools=True)
scenario("tool-nested", "a tool call with nested arguments (objects, arrays, numbers, null, escapes)",
         [chat_chunk(0, tool_calls=[tc("call_nest0001", "plan_trip", NESTED)]), trailer(1)], tools=True)
scenario("tool-no-args", "a tool call with empty arguments",
         [chat_chunk(0, tool_calls=[tc("call_noargs01", "list_files", {})]), trailer(1)], tools=True)
scenario("content-tool", "content, then a tool call",
         [chat_chunk(0, "Let me check."), chat_chunk(1, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), trailer(2)], tools=True)
scenario("thinking-tool", "thinking, then a tool call",
         [chat_chunk(0, thinking="I need the weather."), chat_chunk(1, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), trailer(2)], tools=True)
scenario("thinking-content-tool", "thinking, content and a tool call in one chunk",
         [chat_chunk(0, "Checking.", thinking="weather needed",
                     tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), trailer(1)], tools=True)
scenario("tool-then-content", "a tool call, then more content",
         [chat_chunk(0, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), chat_chunk(1, "After the call."), trailer(2)], tools=True)
scenario("tool-empty-ids", "two tool calls without ids",
         [chat_chunk(0, tool_calls=[tc("", "a", {"x": 1}, 0), tc("", "b", {"y": 2}, 1)]), trailer(1)], tools=True)
scenario("tool-same-id", "the same tool call id in two chunks",
         [chat_chunk(0, tool_calls=[tc("call_dup00001", "a", {"n": 1})]),
          chat_chunk(1, tool_calls=[tc("call_dup00001", "a", {"n": 2})]), trailer(2)], tools=True)
scenario("tool-in-done", "a tool call in the done chunk",
         [chat_chunk(0, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})], done=True, reason="stop", metrics=METRICS)], tools=True)
scenario("tool-length", "a tool call, then done_reason length",
         [chat_chunk(0, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), trailer(1, reason="length")], tools=True)
scenario("tool-index", "tool call indexes 3 and 7 from the parser",
         [chat_chunk(0, tool_calls=[tc("call_idx00003", "f", {}, 3), tc("call_idx00007", "g", {"k": "v"}, 7)]), trailer(1)], tools=True)
scenario("logprobs", "content with logprobs (and top_logprobs)",
         [chat_chunk(0, "Hi", logprobs=[lp("Hi", -0.25, [("Hi", -0.25), ("Hello", -1.5)])]),
          chat_chunk(1, "!", logprobs=[lp("!", -0.0001)]), trailer(2)])
scenario("logprobs-only", "a chunk with logprobs and no content (the tool parser buffering)",
         [chat_chunk(0, "", logprobs=[lp("{\"", -0.5)]), chat_chunk(1, tool_calls=[tc("call_k3j2h1g0", "f", {"a": 1})]), trailer(2)], tools=True)
scenario("logprobs-mixed", "logprobs on a chunk with thinking and content",
         [chat_chunk(0, "x", thinking="y", logprobs=[lp("y", -1.0), lp("x", -2.0)]), trailer(1)])
scenario("logprobs-done", "logprobs on the done chunk",
         [chat_chunk(0, "a"), chat_chunk(1, "b", done=True, reason="stop", metrics=METRICS, logprobs=[lp("b", -0.125)])])
scenario("remote", "a cloud model's chunks (remote_model, remote_host)",
         [chat_chunk(0, "cloud", extra={"remote_model": "gpt-oss:120b", "remote_host": "https://ollama.com:443"}),
          trailer(1, extra={"remote_model": "gpt-oss:120b", "remote_host": "https://ollama.com:443"})])
scenario("debug", "a _debug_render_only answer (_debug_info, done with no content)",
         [chat_chunk(0, done=True, extra={"_debug_info": {"rendered_template": "<|user|>Hi<|assistant|>", "image_count": 1}})])
scenario("other-model", "chunks whose model differs from the request's",
         [chat_chunk(0, "x", model="llama3.2:latest"), trailer(1, model="llama3.2:latest")])
scenario("midstream-error", "content, then an error in the middle of the stream",
         [chat_chunk(0, "Partial"), {"error": "model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details"}])
scenario("midstream-error-thinking", "thinking, then an error in the middle of the stream",
         [chat_chunk(0, thinking="hmm"), {"error": "failed to parse tool call"}])
scenario("midstream-error-tool", "a tool call, then an error in the middle of the stream",
         [chat_chunk(0, tool_calls=[tc("call_k3j2h1g0", "get_weather", {"city": "Paris"})]), {"error": "context canceled"}], tools=True)

# Synthetic: no native handler writes a zero created_at; it shows the
# writers' time.Now() fallbacks.
ZERO = "0001-01-01T00:00:00Z"
scenario("zero-created", "synthetic: the first chunk has a zero created_at (the writers' time.Now fallback)",
         [dict(chat_chunk(0, "a"), created_at=ZERO), chat_chunk(1, "b"), trailer(2)])

ERRORS = [
    # (name, status, body, note)
    ("500", 500, {"error": "model runner has unexpectedly stopped, this may be due to resource limitations or an internal error, check ollama server logs for details"}, "runner crash"),
    ("404", 404, {"error": "model 'nope:latest' not found"}, "unknown model"),
    ("400", 400, {"error": "registry.ollama.ai/library/gemma:2b does not support tools"}, "bad request"),
    ("400-html", 400, {"error": "invalid <format> & \"stuff\""}, "a message JSON escapes"),
    ("401", 401, {"error": "unauthorized", "signin_url": "https://ollama.com/connect?name=host&key=abc"}, "cloud model, not signed in"),
    ("403", 403, {"error": "remote model is unavailable"}, "forbidden"),
    ("429", 429, {"error": "too many requests"}, "rate limited"),
    ("503", 503, {"error": "server busy, please try again.  maximum pending requests exceeded"}, "queue full"),
    ("502-statuserror", 502, {"StatusCode": 502, "Status": "502 Bad Gateway", "error": "upstream failed"},
     "a remote model's api.StatusError, written whole (server/routes.go c.JSON(apiError.StatusCode, apiError))"),
    ("500-empty", 500, {"error": ""}, "an empty message"),
    ("500-raw", 500, "Internal Server Error", "synthetic: a body that is not JSON (the writers' fallback)"),
]
STREAMED_ERRORS = {"500", "404", "401", "502-statuserror", "500-raw"}

GEN = []


def gen_chunk(k, response="", done=False, reason=None, metrics=None, thinking=None, context=None,
              logprobs=None, tool_calls=None, model=MODEL, extra=None):
    c = {"model": model, "created_at": ts(k * 230), "response": response}
    if thinking:
        c["thinking"] = thinking
    c["done"] = done
    if reason is not None:
        c["done_reason"] = reason
    if context:
        c["context"] = context
    if metrics:
        c.update(metrics)
    if tool_calls:
        c["tool_calls"] = tool_calls
    if logprobs:
        c["logprobs"] = logprobs
    if extra:
        c.update(extra)
    return c


def gscenario(name, note, chunks):
    GEN.append((name, note, chunks))


gscenario("content", "text in three chunks, then the trailer with context and metrics",
          [gen_chunk(0, "Once"), gen_chunk(1, " upon"), gen_chunk(2, " a time"),
           gen_chunk(3, done=True, reason="stop", metrics=METRICS, context=[1, 2, 3])])
gscenario("content-final", "the last chunk carries text and done",
          [gen_chunk(0, "a"), gen_chunk(1, "b", done=True, reason="stop", metrics=METRICS)])
gscenario("single", "one chunk", [gen_chunk(0, "whole", done=True, reason="stop", metrics=METRICS)])
gscenario("empty", "an empty completion", [gen_chunk(0, done=True, reason="stop", metrics=METRICS)])
gscenario("empty-no-metrics", "an empty completion without metrics", [gen_chunk(0, done=True, reason="stop")])
gscenario("length", "done_reason length", [gen_chunk(0, "cut"), gen_chunk(1, done=True, reason="length", metrics=METRICS)])
gscenario("load", "a load-only request: done_reason load", [gen_chunk(0, done=True, reason="load")])
gscenario("no-reason", "done without a done_reason", [gen_chunk(0, "x"), gen_chunk(1, done=True, metrics=METRICS)])
gscenario("thinking", "thinking, then text",
          [gen_chunk(0, thinking="hmm"), gen_chunk(1, "answer"), gen_chunk(2, done=True, reason="stop", metrics=METRICS)])
gscenario("logprobs", "text with logprobs",
          [gen_chunk(0, "Hi", logprobs=[lp("Hi", -0.25, [("Hi", -0.25), ("Yo", -2.0)])]),
           gen_chunk(1, done=True, reason="stop", metrics=METRICS)])
gscenario("tool-calls", "a generate response with tool_calls",
          [gen_chunk(0, tool_calls=[tc("call_gen00001", "f", {"a": 1})]), gen_chunk(1, done=True, reason="stop", metrics=METRICS)])
gscenario("unicode", "text that JSON escapes",
          [gen_chunk(0, "<a href=\"x\">&amp;</a> \u2028 é 😀 \x00"), gen_chunk(1, done=True, reason="stop", metrics=METRICS)])
gscenario("seconds", "chunks in different seconds",
          [gen_chunk(0, "one"), gen_chunk(20, " two"), gen_chunk(21, done=True, reason="stop", metrics=METRICS)])
gscenario("remote", "a cloud model's chunks",
          [gen_chunk(0, "c", extra={"remote_model": "gpt-oss:120b", "remote_host": "https://ollama.com:443"}),
           gen_chunk(1, done=True, reason="stop", metrics=METRICS, extra={"remote_model": "gpt-oss:120b", "remote_host": "https://ollama.com:443"})])
gscenario("debug", "a _debug_render_only answer",
          [gen_chunk(0, done=True, extra={"_debug_info": {"rendered_template": "<s>[INST] Hi [/INST]"}})])
gscenario("other-model", "chunks whose model differs from the request's",
          [gen_chunk(0, "x", model="llama3.2:latest"), gen_chunk(1, done=True, reason="stop", metrics=METRICS, model="llama3.2:latest")])
gscenario("midstream-error", "text, then an error in the middle of the stream",
          [gen_chunk(0, "Partial"), {"error": "model runner has unexpectedly stopped"}])
gscenario("zero-created", "synthetic: a zero created_at (ToCompletion's Created)",
          [dict(gen_chunk(0, "a"), created_at=ZERO), gen_chunk(1, done=True, reason="stop", metrics=METRICS, extra={"created_at": ZERO})])


def accumulate_chat(chunks, tools):
    """server/routes.go writeChatResponse (unstreamed): the last chunk, with
    the content and thinking of all, their logprobs, and (when the request
    has tools) their tool calls."""
    if any("error" in c for c in chunks):
        return [next(c for c in chunks if "error" in c)]
    resp = copy.deepcopy(chunks[-1])
    resp["message"]["content"] = "".join(c["message"].get("content", "") for c in chunks)
    thinking = "".join(c["message"].get("thinking", "") for c in chunks)
    resp["message"].pop("thinking", None)
    if thinking:
        resp["message"]["thinking"] = thinking
    resp.pop("logprobs", None)
    lps = [x for c in chunks for x in c.get("logprobs", [])]
    if lps:
        resp["logprobs"] = lps
    calls = [x for c in chunks for x in c["message"].get("tool_calls", [])]
    if tools and calls:
        resp["message"]["tool_calls"] = calls
    return [resp]


def accumulate_gen(chunks):
    """server/routes.go GenerateHandler (unstreamed)."""
    if any("error" in c for c in chunks):
        return [next(c for c in chunks if "error" in c)]
    resp = copy.deepcopy(chunks[-1])
    resp["response"] = "".join(c.get("response", "") for c in chunks)
    thinking = "".join(c.get("thinking", "") for c in chunks)
    resp.pop("thinking", None)
    if thinking:
        resp["thinking"] = thinking
    resp.pop("logprobs", None)
    lps = [x for c in chunks for x in c.get("logprobs", [])]
    if lps:
        resp["logprobs"] = lps
    return [resp]


def ids_for(route, n):
    h = hashlib.sha256(f"{route}/{n}".encode()).hexdigest()
    if route == "openai-chat":
        return {"id": f"chatcmpl-{int(h[:8], 16) % 999}"}
    if route == "openai-completions":
        return {"id": f"cmpl-{int(h[:8], 16) % 999}"}
    if route == "openai-responses":
        return {"response_id": f"resp_{int(h[:8], 16) % 999999}", "item_id": f"msg_{int(h[8:16], 16) % 999999}"}
    return {"message_id": "msg_" + h[:24]}


def add(route, name, note, request, chunks, status=200):
    n = len(CASES)
    if isinstance(chunks[0], dict) and "error" in chunks[0] and status == 200:
        # writeChatResponse / GenerateHandler answer an unstreamed request's
        # error with c.JSON(status, ...), 500 where the error has no status.
        status = 500
    CASES.append({
        "id": f"{route}/{name}",
        "route": route,
        "note": note,
        "request": request,
        "ids": ids_for(route, n),
        "status": status,
        "chunks": chunks,
    })


CHAT_TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather",
                                                 "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                                "required": ["city"]}}}]


def chat_req(stream, usage=None, with_tools=False):
    r = {"model": MODEL, "messages": [{"role": "user", "content": "Hi"}], "stream": stream}
    if usage is not None:
        r["stream_options"] = {"include_usage": usage}
    if with_tools:
        r["tools"] = CHAT_TOOLS
    return r


RESP_TOOLS = [{"type": "function", "name": "get_weather", "description": "Get the weather", "strict": True,
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]


def resp_req(stream, with_tools=False, **extra):
    r = {"model": MODEL, "input": "Hi"}
    if stream is not None:
        r["stream"] = stream
    if with_tools:
        r["tools"] = RESP_TOOLS
    r.update(extra)
    return r


MSG_TOOLS = [{"name": "get_weather", "description": "Get the weather",
              "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]


def msg_req(stream, with_tools=False, **extra):
    r = {"model": MODEL, "max_tokens": 1024, "messages": [{"role": "user", "content": "What's the weather in Paris?"}]}
    if stream:
        r["stream"] = True
    if with_tools:
        r["tools"] = MSG_TOOLS
    r.update(extra)
    return r


def gen_req(stream, usage=None):
    r = {"model": MODEL, "prompt": "Once upon", "stream": stream}
    if usage is not None:
        r["stream_options"] = {"include_usage": usage}
    return r


USAGE_CHAT = {"content", "single", "empty", "empty-no-metrics", "length", "tool", "thinking", "thinking-mixed",
              "midstream-error", "prompt-count-only", "tool-in-done"}


def main():
    # /v1/chat/completions
    for name, note, chunks, tools in CHAT:
        add("openai-chat", f"stream/{name}", note, chat_req(True, with_tools=tools), chunks)
        if name in USAGE_CHAT:
            add("openai-chat", f"stream-usage/{name}", note + "; stream_options.include_usage",
                chat_req(True, usage=True, with_tools=tools), chunks)
        add("openai-chat", f"unstreamed/{name}", note + " (unstreamed: the accumulated answer)",
            chat_req(False, with_tools=tools), accumulate_chat(chunks, tools))
    add("openai-chat", "stream-usage-false/content", "stream_options.include_usage false",
        chat_req(True, usage=False), CHAT[0][2])
    add("openai-chat", "unstreamed-usage/content", "stream_options on an unstreamed request",
        chat_req(False, usage=True), accumulate_chat(CHAT[0][2], False))

    # /v1/completions
    for name, note, chunks in GEN:
        add("openai-completions", f"stream/{name}", note, gen_req(True), chunks)
        if name in {"content", "single", "empty", "length", "midstream-error", "empty-no-metrics"}:
            add("openai-completions", f"stream-usage/{name}", note + "; stream_options.include_usage",
                gen_req(True, usage=True), chunks)
        add("openai-completions", f"unstreamed/{name}", note + " (unstreamed)", gen_req(False), accumulate_gen(chunks))
    add("openai-completions", "stream-usage-false/content", "stream_options.include_usage false",
        gen_req(True, usage=False), GEN[0][2])

    # /v1/responses
    for name, note, chunks, tools in CHAT:
        add("openai-responses", f"stream/{name}", note, resp_req(True, with_tools=tools), chunks)
        add("openai-responses", f"unstreamed/{name}", note + " (unstreamed)", resp_req(False, with_tools=tools),
            accumulate_chat(chunks, tools))
    add("openai-responses", "unstreamed-default/content", "stream not given (Responses defaults to unstreamed)",
        resp_req(None), accumulate_chat(CHAT[0][2], False))
    schema = json.loads('{"type": "object", "properties": {"html": {"type": "string", "description": "<b>&</b>"}}, "required": ["html"]}')
    variants = [
        ("sampling", "instructions, temperature, top_p, max_output_tokens, truncation echoed back",
         dict(instructions="Be terse.", temperature=0.2, top_p=0.9, max_output_tokens=256, truncation="auto"), False),
        ("zero-sampling", "temperature 0 and top_p 1e-05",
         dict(temperature=0, top_p=0.00001), False),
        ("tools", "tools echoed back (a function with description/strict/parameters, one with nulls, a namespace)",
         dict(tools=[RESP_TOOLS[0],
                     {"type": "function", "name": "ping", "description": None, "strict": None, "parameters": None},
                     {"type": "namespace", "name": "files", "description": "File tools",
                      "tools": [{"type": "function", "name": "read", "description": "Read a file",
                                 "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}]},
                     {"type": "function", "name": "numbers", "parameters": {"type": "object", "minimum": 1.0, "maximum": 1e21, "properties": {}}}]), True),
        ("json-schema", "text.format json_schema (name, schema, strict) echoed back",
         dict(text={"format": {"type": "json_schema", "name": "page", "schema": schema, "strict": True}}), False),
        ("json-schema-bare", "text.format json_schema without name or strict",
         dict(text={"format": {"type": "json_schema", "schema": {"type": "object"}}}), False),
        ("text-format", "text.format text", dict(text={"format": {"type": "text"}}), False),
        ("text-empty", "text without format", dict(text={}), False),
        ("reasoning-effort", "reasoning.effort only", dict(reasoning={"effort": "high"}), False),
        ("reasoning-summary", "reasoning.summary only", dict(reasoning={"summary": "auto"}), False),
        ("reasoning-both", "reasoning.effort and summary", dict(reasoning={"effort": "low", "summary": "detailed"}), False),
        ("reasoning-generate-summary", "reasoning.generate_summary only (not echoed)", dict(reasoning={"generate_summary": "concise"}), False),
        ("background", "background true echoed back", dict(background=True), False),
        ("include", "include and an input item list (not echoed)",
         dict(include=["reasoning.encrypted_content"], input=[{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]}]), False),
    ]
    by_name = {n: (c, t) for n, _, c, t in CHAT}
    for vname, vnote, fields, tools in variants:
        for sname in (["tool"] if tools else ["thinking"]):
            chunks, _ = by_name[sname]
            add("openai-responses", f"stream-{vname}/{sname}", vnote, resp_req(True, **fields), chunks)
            add("openai-responses", f"unstreamed-{vname}/{sname}", vnote + " (unstreamed)", resp_req(False, **fields),
                accumulate_chat(chunks, True))

    # /v1/messages
    for name, note, chunks, tools in CHAT:
        add("anthropic-messages", f"stream/{name}", note, msg_req(True, with_tools=tools), chunks)
        add("anthropic-messages", f"unstreamed/{name}", note + " (unstreamed)", msg_req(False, with_tools=tools),
            accumulate_chat(chunks, tools))
    long_text = "The quick brown fox jumps over the lazy dog. " * 20
    mvariants = [
        ("system-string", "a system string (counted in the input token estimate)", dict(system=long_text)),
        ("system-blocks", "system as text blocks", dict(system=[{"type": "text", "text": long_text}, {"type": "text", "text": "Be terse."}])),
        ("tools", "tools (name, description and input_schema counted)", dict(tools=MSG_TOOLS * 3)),
        ("thinking", "thinking enabled", dict(thinking={"type": "enabled", "budget_tokens": 2048})),
        ("history", "a conversation with tool_use and tool_result blocks",
         dict(messages=[{"role": "user", "content": "Weather?"},
                        {"role": "assistant", "content": [{"type": "thinking", "thinking": "need tool", "signature": "sig"},
                                                          {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}}]},
                        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "sunny, 21C"}]}])),
        ("tiny", "an empty user message (the estimate, len(\"user\")/4, is 1)", dict(messages=[{"role": "user", "content": ""}])),
        ("other-model", "a request model that differs from the chunks'", dict(model="claude-sonnet-4-5")),
    ]
    for vname, vnote, fields in mvariants:
        for sname in ["content", "single", "no-metrics"]:
            chunks, _ = by_name[sname]
            add("anthropic-messages", f"stream-{vname}/{sname}", vnote, msg_req(True, **fields), chunks)
        add("anthropic-messages", f"unstreamed-{vname}/content", vnote + " (unstreamed)", msg_req(False, **fields),
            accumulate_chat(by_name["content"][0], False))

    # errors the native handler answers with before writing anything
    for route, mk in [("openai-chat", lambda s: chat_req(s)), ("openai-completions", lambda s: gen_req(s)),
                      ("openai-responses", lambda s: resp_req(s)), ("anthropic-messages", lambda s: msg_req(s))]:
        for name, status, body, note in ERRORS:
            add(route, f"error-unstreamed/{name}", note, mk(False), [body], status)
            if name in STREAMED_ERRORS:
                add(route, f"error-stream/{name}", note + " (streamed request)", mk(True), [body], status)

    with open(sys.argv[1], "w") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"{len(CASES)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
