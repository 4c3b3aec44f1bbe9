#!/usr/bin/env python3
"""Writes the apply-template cases (JSONL on stdout) for harness.cpp: every template file x every conversation.

usage: cases.py TEMPLATES_DIR > cases.jsonl

Bodies marked "ollama" are what Ollama's llm/llama_server.go llamaServerChatRequest() sends in native mode
(json.Marshal of map[string]any: keys sorted; messages as maps with keys sorted; always a string "content";
"name" only for tool results; tool_calls as llamaServerChatToolCall {id, index, type, function{name,
arguments: <JSON string>}}; tools as api.Tool {type, function{name, description, parameters{type, required,
properties}}}; chat_template_kwargs from think: {"enable_thinking": bool[, "reasoning_effort": level]};
the default options of api.DefaultOptions()). Bodies marked "openai" are minimal OpenAI-client bodies for
what Ollama never sends (reasoning_content, developer role, content parts, object arguments, top-level
reasoning_effort, names on user messages).
"""
import json
import os
import sys

# bos/eos as llama.cpp reads them from the GGUF vocab of the model family (common_token_to_piece of
# llama_vocab_bos/eos); "<s>"/"</s>" where the family is not obvious.
FAMILY = [
    ("meta-llama-", ("<|begin_of_text|>", "<|eot_id|>")),
    ("fireworks-ai-llama-3", ("<|begin_of_text|>", "<|eot_id|>")),
    ("meetkai-functionary", ("<|begin_of_text|>", "<|eot_id|>")),
    ("NousResearch-Hermes", ("<|begin_of_text|>", "<|im_end|>")),
    ("deepseek-ai-", ("<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>")),
    ("llama-cpp-deepseek-r1", ("<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>")),
    ("Qwen", ("<|endoftext|>", "<|im_end|>")),
    ("MiMo-VL", ("<|endoftext|>", "<|im_end|>")),
    ("google-gemma", ("<bos>", "<eos>")),
    ("CohereForAI-", ("<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>")),
    ("Cohere2MoE", ("<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>")),
    ("ibm-granite-", ("<|end_of_text|>", "<|end_of_text|>")),
    ("microsoft-Phi-3.5", ("<s>", "<|endoftext|>")),
    ("openai-gpt-oss", ("<|startoftext|>", "<|return|>")),
    ("LFM2", ("<|startoftext|>", "<|im_end|>")),
    ("HuggingFaceTB-SmolLM3", ("<|im_start|>", "<|im_end|>")),
    ("GLM-", ("[gMASK]", "<|endoftext|>")),
    ("ByteDance-Seed-OSS", ("<seed:bos>", "<seed:eos>")),
    ("moonshotai-Kimi", ("[BOS]", "[EOS]")),
    ("Kimi-", ("[BOS]", "[EOS]")),
]


def family(name):
    for prefix, toks in FAMILY:
        if name.startswith(prefix):
            return toks
    return ("<s>", "</s>")


# ---- Ollama's body (llamaServerChatRequest) ----
def ollama_msg(role, content="", tool_name="", tool_call_id="", tool_calls=None):
    m = {"role": role}
    if tool_call_id:
        m["tool_call_id"] = tool_call_id
    if tool_name:
        m["name"] = tool_name
    if tool_calls:
        m["tool_calls"] = tool_calls
    m["content"] = content
    return dict(sorted(m.items()))  # Go map: keys sorted


def ollama_call(id_, index, name, args):
    c = {}
    if id_:
        c["id"] = id_
    c["index"] = index
    c["type"] = "function"
    c["function"] = {"name": name, "arguments": json.dumps(args, separators=(",", ":"), ensure_ascii=False)}
    return c


def ollama_body(messages, tools=None, think=None):
    body = {
        "messages": messages,
        "stream": False,
        "cache_prompt": True,
        "n_predict": -1,
        "n_keep": 4,
        "temperature": 0.8,
        "top_k": 40,
        "top_p": 0.9,
        "min_p": 0,
        "stop": None,
        "repeat_penalty": 1,
        "repeat_last_n": 64,
        "frequency_penalty": 0,
        "presence_penalty": 0,
        "typical_p": 1,
        "seed": -1,
    }
    if tools:
        body["tools"] = tools
    if think is not None:
        kw = {"enable_thinking": think is not False}
        if isinstance(think, str):
            kw["reasoning_effort"] = think
        body["chat_template_kwargs"] = kw
    return dict(sorted(body.items()))


TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "parameters": {"type": "object", "required": ["city"], "properties": {
            "city": {"type": "string", "description": "The city name"},
            "unit": {"type": "string", "description": "Temperature unit", "enum": ["celsius", "fahrenheit"]},
        }},
    }},
    {"type": "function", "function": {
        "name": "search_web",
        "description": "Search the web",
        "parameters": {"type": "object", "required": ["query"], "properties": {
            "query": {"type": "string", "description": "What to search for"},
            "limit": {"type": "integer", "description": "Maximum number of results"},
        }},
    }},
]

U1 = "What is the capital of France?"
A1 = "The capital of France is Paris."
U2 = "And of Germany?"
SYS = "You are a helpful assistant."
WQ = "What's the weather in Paris?"
ARGS = {"city": "Paris", "unit": "celsius"}
RESULT = '{"temperature": 18, "condition": "sunny"}'


def cases():
    m = ollama_msg
    out = []
    out.append(("plain", ollama_body([m("user", U1)])))
    out.append(("system_user", ollama_body([m("system", SYS), m("user", U1)])))
    out.append(("multi_turn", ollama_body([m("user", U1), m("assistant", A1), m("user", U2)])))
    out.append(("tools_offered", ollama_body([m("user", WQ)], tools=TOOLS)))
    call = [ollama_call("call_1", 0, "get_weather", ARGS)]
    round_trip = [
        m("user", WQ),
        m("assistant", "", tool_calls=call),
        m("tool", RESULT, tool_name="get_weather", tool_call_id="call_1"),
        m("user", "Thanks! And tomorrow?"),
    ]
    out.append(("tool_round_trip_args_string", ollama_body(round_trip, tools=TOOLS)))
    # Mistral's templates want 9-character alphanumeric ids (llama.cpp's own probes use "call00001")
    call9 = [ollama_call("call00001", 0, "get_weather", ARGS)]
    out.append(("tool_round_trip_id9", ollama_body([
        m("user", WQ),
        m("assistant", "", tool_calls=call9),
        m("tool", RESULT, tool_name="get_weather", tool_call_id="call00001"),
    ], tools=TOOLS)))
    out.append(("tool_round_trip_args_object", {"messages": [
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ARGS}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": RESULT},
        {"role": "user", "content": "Thanks! And tomorrow?"},
    ], "tools": TOOLS}))
    out.append(("tool_result_last", ollama_body(round_trip[:3], tools=TOOLS)))
    out.append(("thinking_on", ollama_body([m("user", U1)], think=True)))
    out.append(("thinking_off", ollama_body([m("user", U1)], think=False)))
    out.append(("think_high", ollama_body([m("user", U1)], think="high")))
    out.append(("reasoning_effort_high", {"messages": [{"role": "user", "content": U1}], "reasoning_effort": "high"}))
    out.append(("reasoning_effort_none", {"messages": [{"role": "user", "content": U1}], "reasoning_effort": "none"}))
    out.append(("prefill", ollama_body([m("user", U1), m("assistant", "The capital of France is")])))
    out.append(("prefill_reasoning", {"messages": [
        {"role": "user", "content": U1},
        {"role": "assistant", "content": "The capital", "reasoning_content": "The user asks about France."},
    ]}))
    out.append(("reasoning_in_history", {"messages": [
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": "France's capital is Paris."},
        {"role": "user", "content": U2},
    ]}))
    out.append(("developer_role", {"messages": [
        {"role": "developer", "content": "Answer in one word."},
        {"role": "user", "content": U1},
    ]}))
    out.append(("content_parts", {"messages": [
        {"role": "system", "content": [{"type": "text", "text": SYS}]},
        {"role": "user", "content": [{"type": "text", "text": "Hello."}, {"type": "text", "text": U1}]},
    ]}))
    out.append(("two_assistants_end", ollama_body([m("user", U1), m("assistant", A1), m("assistant", "More.")])))
    out.append(("named_message", {"messages": [{"role": "user", "content": U1, "name": "alice"}]}))
    return out


def main():
    tdir = sys.argv[1]
    names = sorted(f for f in os.listdir(tdir) if f.endswith(".jinja"))
    for name in names:
        bos, eos = family(name)
        for case, body in cases():
            print(json.dumps({"template": name, "case": case, "bos_token": bos, "eos_token": eos, "body": body},
                             ensure_ascii=False))


if __name__ == "__main__":
    main()
