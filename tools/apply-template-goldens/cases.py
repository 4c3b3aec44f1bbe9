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


# ---- cases aimed at the differences between llama.cpp builds (b10488 vs b11312) ----
# Added after the 20 conversations above, so those keep their places. Each entry of extra_cases() is
# (case name, body, which templates, server): "which" picks templates by their source (see WHICH), and
# server, when set, stands for a loaded mmproj (server_chat_params.allow_image/audio/video).

PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
MEDIA = {"allow_image": True, "allow_audio": True, "allow_video": True}
R1 = "The user asks for the capital of France. It is Paris."
R2 = "Now Germany: its capital is Berlin."
R3 = "I should call get_weather for Paris."
THINK_VARS = ("preserve_thinking", "clear_thinking", "truncate_history_thinking", "drop_thinking", "preserve_reasoning")


def reads(src, *words):
    return any(w in src for w in words)


WHICH = {
    "all": lambda name, src: True,
    # templates that print earlier turns' reasoning in some way
    "reasoning": lambda name, src: reads(src, "reasoning_content", "</think>", "thinking"),
    # templates whose history depends on the preserve_reasoning switches (caps_apply_preserve_reasoning)
    "think_vars": lambda name, src: reads(src, *THINK_VARS),
    # templates that print the response format (DeepSeek V4 and a few others), plus two that do not
    "response_format": lambda name, src: reads(src, "response_format") or name in (
        "Qwen-Qwen3-0.6B.jinja", "meta-llama-Llama-3.3-70B-Instruct.jinja"),
    # templates that know media parts, plus a few that do not
    "media": lambda name, src: reads(src, "image", "video", "audio", "vision") or name in (
        "Qwen-Qwen3-0.6B.jinja", "meta-llama-Llama-3.3-70B-Instruct.jinja", "google-gemma-3-4b-it.jinja",
        "openai-gpt-oss-120b.jinja", "mistralai-Mistral-Nemo-Instruct-2407.jinja"),
    # request errors that come before any rendering: a few templates are enough
    "few": lambda name, src: name in (
        "Qwen-Qwen3-0.6B.jinja", "meta-llama-Llama-3.3-70B-Instruct.jinja", "google-gemma-4-31B-it.jinja",
        "deepseek-ai-DeepSeek-V4.jinja"),
}


def oai(messages, **extra):
    body = {"messages": messages}
    body.update(extra)
    return body


def extra_cases():
    m = ollama_msg
    call = [ollama_call("call_1", 0, "get_weather", ARGS)]
    oai_call = [{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ARGS}}]
    oai_call2 = [{"id": "call_2", "type": "function", "function": {"name": "search_web",
                                                                 "arguments": {"query": "Paris events"}}}]
    out = []

    def add(name, body, which="all", server=None):
        out.append((name, body, which, server))

    # continue_tool_calls_error: a trailing assistant message with tool calls (prefill_assistant is on)
    add("trailing_tool_calls", ollama_body([m("user", WQ), m("assistant", "", tool_calls=call)], tools=TOOLS))
    add("trailing_tool_calls_content", ollama_body(
        [m("system", SYS), m("user", WQ), m("assistant", "Let me check.", tool_calls=call)], tools=TOOLS))
    add("trailing_tool_calls_openai", oai([
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": None, "tool_calls": oai_call}]))
    add("trailing_tool_calls_think", ollama_body(
        [m("user", WQ), m("assistant", "", tool_calls=call)], tools=TOOLS, think=True))
    add("trailing_tool_calls_reasoning", oai([
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": "", "reasoning_content": R3, "tool_calls": oai_call}], tools=TOOLS),
        "reasoning")
    add("trailing_tool_calls_after_round", oai([
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": None, "tool_calls": oai_call},
        {"role": "tool", "tool_call_id": "call_1", "content": RESULT},
        {"role": "assistant", "content": None, "tool_calls": oai_call2}], tools=TOOLS), "reasoning")
    add("trailing_tool_calls_explicit_continue", oai([
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": "", "tool_calls": oai_call}],
        continue_final_message=True, add_generation_prompt=False), "few")

    # empty_json_schema_is_object: Ollama's format "json" and format {} (DeepSeek V4 prints the schema)
    def with_format(body, fmt):
        body = dict(body)
        body["response_format"] = fmt
        return dict(sorted(body.items()))

    add("format_json", with_format(ollama_body([m("system", SYS), m("user", U1)]), {"type": "json_object"}))
    add("format_empty_schema", with_format(ollama_body([m("user", U1)]),
                                           {"type": "json_schema", "json_schema": {"name": "schema", "schema": {}}}))
    add("format_schema", with_format(ollama_body([m("system", SYS), m("user", U1)]), {
        "type": "json_schema", "json_schema": {"name": "schema", "schema": {
            "type": "object", "properties": {"capital": {"type": "string"}}, "required": ["capital"]}}}),
        "response_format")
    add("format_json_think", with_format(ollama_body([m("user", U1)], think=True), {"type": "json_object"}),
        "response_format")
    add("format_json_object_schema", oai([{"role": "user", "content": U1}],
                                         response_format={"type": "json_object", "schema": {}}), "response_format")
    add("top_level_json_schema_empty", oai([{"role": "user", "content": U1}], json_schema={}), "response_format")
    add("format_text", oai([{"role": "user", "content": U1}], response_format={"type": "text"}), "few")

    # preserve_reasoning_default: reasoning of earlier assistant turns
    add("reasoning_history_two", oai([
        {"role": "system", "content": SYS},
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": R1},
        {"role": "user", "content": U2},
        {"role": "assistant", "content": "Berlin.", "reasoning_content": R2},
        {"role": "user", "content": "And of Italy?"}]))
    add("reasoning_history_tool_round", oai([
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": "", "reasoning_content": R3, "tool_calls": oai_call},
        {"role": "tool", "tool_call_id": "call_1", "content": RESULT},
        {"role": "assistant", "content": "It is sunny and 18 degrees.", "reasoning_content": "The tool says sunny."},
        {"role": "user", "content": "Thanks! And tomorrow?"}], tools=TOOLS))
    add("reasoning_history_tool_pending", oai([
        {"role": "user", "content": WQ},
        {"role": "assistant", "content": "", "reasoning_content": R3, "tool_calls": oai_call},
        {"role": "tool", "tool_call_id": "call_1", "content": RESULT}], tools=TOOLS), "reasoning")
    add("reasoning_history_thinking_off", oai([
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": R1},
        {"role": "user", "content": U2}], chat_template_kwargs={"enable_thinking": False}), "reasoning")
    add("reasoning_history_thinking_on", oai([
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": R1},
        {"role": "user", "content": U2}], chat_template_kwargs={"enable_thinking": True}), "reasoning")
    add("reasoning_history_preserve_false", oai([
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": R1},
        {"role": "user", "content": U2}], chat_template_kwargs={"preserve_reasoning": False}), "reasoning")
    add("reasoning_history_preserve_true", oai([
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": R1},
        {"role": "user", "content": U2}], chat_template_kwargs={"preserve_reasoning": True}), "reasoning")
    add("reasoning_history_prefill", oai([
        {"role": "user", "content": U1},
        {"role": "assistant", "content": A1, "reasoning_content": R1},
        {"role": "user", "content": U2},
        {"role": "assistant", "content": "The capital", "reasoning_content": R2}]), "reasoning")
    # Ollama drops `thinking` from its body (llamaServerChatMessage writes no reasoning_content): what reaches
    # the server is either nothing or thinking the client left inline in the content
    add("ollama_history_think_on", ollama_body(
        [m("user", U1), m("assistant", A1), m("user", U2)], think=True), "reasoning")
    add("ollama_history_inline_think", ollama_body(
        [m("user", U1), m("assistant", "<think>" + R1 + "</think>" + A1), m("user", U2)], think=True))
    add("ollama_history_inline_think_default", ollama_body(
        [m("user", U1), m("assistant", "<think>\n" + R1 + "\n</think>\n\n" + A1), m("user", U2)]), "reasoning")
    add("ollama_history_inline_think_tools", ollama_body([
        m("user", WQ),
        m("assistant", "<think>" + R3 + "</think>", tool_calls=call),
        m("tool", RESULT, tool_name="get_weather", tool_call_id="call_1"),
        m("assistant", "<think>The tool says sunny.</think>It is sunny."),
        m("user", "Thanks! And tomorrow?")], tools=TOOLS, think=True), "reasoning")

    # the switches a template reads, set by the request (the server default is overridden, or is absent)
    for var in THINK_VARS:
        for val in (True, False):
            add(f"kwarg_{var}_{str(val).lower()}", oai([
                {"role": "user", "content": U1},
                {"role": "assistant", "content": A1, "reasoning_content": R1},
                {"role": "user", "content": U2},
                {"role": "assistant", "content": "Berlin.", "reasoning_content": R2},
                {"role": "user", "content": "And of Italy?"}], chat_template_kwargs={var: val}), "think_vars")
    add("reasoning_history_three_think_off", ollama_body([
        m("user", U1), m("assistant", "<think>" + R1 + "</think>" + A1), m("user", U2)], think=False), "think_vars")

    # caps_typed_content_recheck: text parts reach a template that tests `content is string`
    add("content_parts_many", oai([
        {"role": "system", "content": [{"type": "text", "text": SYS}, {"type": "text", "text": "Be brief."}]},
        {"role": "user", "content": [{"type": "text", "text": "Hello."}, {"type": "text", "text": U1},
                                     {"type": "text", "text": "Thanks."}]},
        {"role": "assistant", "content": [{"type": "text", "text": A1}, {"type": "text", "text": "Anything else?"}]},
        {"role": "user", "content": [{"type": "text", "text": U2}]}]))

    # media parts (a server with an mmproj that takes images, audio and video)
    add("image_part", ollama_body([{"content": [{"text": "What is in this picture?", "type": "text"},
                                                {"image_url": {"url": "data:image/png;base64," + PNG},
                                                 "type": "image_url"}], "role": "user"}]), "media", MEDIA)
    add("image_parts_two_turns", ollama_body([
        {"content": [{"image_url": {"url": "data:image/png;base64," + PNG}, "type": "image_url"}], "role": "user"},
        m("assistant", "A single pixel."),
        {"content": [{"text": "And this one?", "type": "text"},
                     {"image_url": {"url": "data:image/png;base64," + PNG}, "type": "image_url"},
                     {"image_url": {"url": "data:image/png;base64," + PNG}, "type": "image_url"}], "role": "user"},
    ]), "media", MEDIA)
    add("video_url_part", oai([{"role": "user", "content": [
        {"type": "text", "text": "Describe the video."},
        {"type": "video_url", "video_url": {"url": "data:video/mp4;base64,AAAAIGZ0eXBpc29t"}}]}]), "media", MEDIA)
    add("input_video_data_uri", oai([{"role": "user", "content": [
        {"type": "text", "text": "Describe the video."},
        {"type": "input_video", "input_video": {"data": "data:video/mp4;base64,AAAAIGZ0eXBpc29t"}}]}]),
        "media", MEDIA)
    add("input_audio_data_uri", oai([{"role": "user", "content": [
        {"type": "input_audio", "input_audio": {"data": "data:audio/wav;base64,UklGRiQAAABXQVZF", "format": "wav"}},
        {"type": "text", "text": "Transcribe this."}]}]), "media", MEDIA)
    add("input_audio_raw_base64", ollama_body([{"content": [
        {"text": "Transcribe this.", "type": "text"},
        {"input_audio": {"data": "UklGRiQAAABXQVZF", "format": "wav"}, "type": "input_audio"}], "role": "user"}]),
        "media", MEDIA)
    # media errors (data_uri_media, video_url_alias): before any rendering
    add("video_url_no_mmproj", oai([{"role": "user", "content": [
        {"type": "text", "text": "Describe the video."},
        {"type": "video_url", "video_url": {"url": "data:video/mp4;base64,AAAAIGZ0eXBpc29t"}}]}]), "few")
    add("image_no_mmproj", ollama_body([{"content": [{"text": "What is in this picture?", "type": "text"},
                                                     {"image_url": {"url": "data:image/png;base64," + PNG},
                                                      "type": "image_url"}], "role": "user"}]), "few")
    add("image_data_uri_not_base64", oai([{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "data:image/png," + PNG}}]}]), "few", MEDIA)
    add("image_data_uri_bad_mime", oai([{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "data:text/html;base64," + PNG}}]}]), "few", MEDIA)
    add("image_data_uri_no_comma", oai([{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64"}}]}]), "few", MEDIA)
    add("unknown_part_type", oai([{"role": "user", "content": [
        {"type": "input_file", "input_file": {"data": "AAAA"}}]}]), "few", MEDIA)
    return out


def main():
    tdir = sys.argv[1]
    names = sorted(f for f in os.listdir(tdir) if f.endswith(".jinja"))
    extra = extra_cases()
    seen = set()
    for name, body, which, server in extra:
        assert which in WHICH and name not in seen, name
        seen.add(name)
    for name in names:
        bos, eos = family(name)
        src = open(os.path.join(tdir, name), encoding="utf-8").read()
        for case, body in cases():
            print(json.dumps({"template": name, "case": case, "bos_token": bos, "eos_token": eos, "body": body},
                             ensure_ascii=False))
        for case, body, which, server in extra:
            if not WHICH[which](name, src):
                continue
            row = {"template": name, "case": case, "bos_token": bos, "eos_token": eos, "body": body}
            if server:
                row["server"] = server
            print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
