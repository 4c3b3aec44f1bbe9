#!/usr/bin/env python3
"""Writes the cases of crates/ollama/tests/golden/parsers-handler.jsonl (one
JSON object per line) for handler/main.go: the model (parser, TEMPLATE,
family), the request (endpoint, tools, think, messages or prompt) and the
model's output, cut into the pieces llama-server would send.

    python3 gen_cases.py OUT.jsonl

Deterministic: the same file every time (the only randomness, a seeded
generator, picks which secondary chunkings a case gets). The model outputs
are written per parser in that model's own format (tags and tool-call
syntax read from each parser's Go source in model/parsers); see README.md.
"""

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# the repository's copy of the corpus (tests/corpus, as /work/shared/corpus)
CORPUS = ROOT / "tests/corpus/ollama/v0.33.0-rc2"

# ---------------------------------------------------------------------------
# JSON with number literals kept as written.


class Num:
    def __init__(self, text):
        self.text = text


def jtext(v, sep=", ", kv=": "):
    if isinstance(v, Num):
        return v.text
    if isinstance(v, dict):
        return "{" + sep.join(json.dumps(k, ensure_ascii=False) + kv + jtext(x, sep, kv) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + sep.join(jtext(x, sep, kv) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def compact(v):
    return jtext(v, ",", ":")


# ---------------------------------------------------------------------------
# Tools: realistic schemas with string/number/integer/boolean/array/object
# parameters.

def prop(t, desc=None, **kw):
    p = {"type": t}
    if desc:
        p["description"] = desc
    p.update(kw)
    return p


TOOL_WEATHER = {"type": "function", "function": {
    "name": "get_weather",
    "description": "Current weather",
    "parameters": {"type": "object", "required": ["location"], "properties": {
        "location": prop("string", "City, country"),
        "unit": prop("string", "Temperature unit", enum=["celsius", "fahrenheit"]),
        "days": prop("integer", "Number of forecast days"),
    }}}}
TOOL_FLIGHTS = {"type": "function", "function": {
    "name": "search_flights",
    "description": "Search flights",
    "parameters": {"type": "object", "required": ["origin", "destination", "date"], "properties": {
        "origin": prop("string", "From (IATA)"),
        "destination": prop("string", "To (IATA)"),
        "date": prop("string", "YYYY-MM-DD"),
        "passengers": prop("integer", "Number of passengers"),
        "max_price": prop("number", "USD"),
        "nonstop": prop("boolean", "Nonstop only"),
        "airlines": prop("array", "Airline codes", items={"type": "string"}),
    }}}}
TOOL_EVENT = {"type": "function", "function": {
    "name": "create_event",
    "description": "Create an event",
    "parameters": {"type": "object", "required": ["title", "start"], "properties": {
        "title": prop("string", "Event title"),
        "start": prop("object", "Start", properties={
            "date": {"type": "string"}, "time": {"type": "string"}}),
        "attendees": prop("array", "Invitees", items={"type": "object", "properties": {
            "name": {"type": "string"}, "email": {"type": "string"}}}),
        "reminder_minutes": prop("integer", "Minutes before"),
        "all_day": prop("boolean", "All-day event"),
        "metadata": prop("object", "Anything"),
    }}}}
TOOL_CALC = {"type": "function", "function": {
    "name": "calculate",
    "description": "Evaluate numbers",
    "parameters": {"type": "object", "properties": {
        "values": prop("array", "Numbers", items={"type": "number"}),
        "precision": prop("integer", "Digits"),
        "scale": prop("number", "Scale factor"),
    }}}}
TOOL_TIME = {"type": "function", "function": {
    "name": "get_time",
    "description": "Get the current time",
    "parameters": {"type": "object", "properties": {}}}}

TOOLS_ONE = [TOOL_WEATHER]
TOOLS_ALL = [TOOL_WEATHER, TOOL_FLIGHTS, TOOL_EVENT, TOOL_CALC, TOOL_TIME]

# the tools a scenario's request declares (the calls it makes, and one more)
SCENARIO_TOOLS = {
    "tool-several": [TOOL_WEATHER, TOOL_FLIGHTS],
    "tool-nested-unicode": [TOOL_WEATHER, TOOL_EVENT],
    "tool-numbers": [TOOL_CALC, TOOL_WEATHER],
    "tool-empty-args": [TOOL_WEATHER, TOOL_TIME],
    "tool-first": TOOLS_ALL,
}


def tools_for(name):
    return SCENARIO_TOOLS.get(name, [TOOL_WEATHER, TOOL_TIME])

# Tool calls: (name, ordered arguments); Num keeps a literal as written.
CALL_WEATHER = ("get_weather", {"location": "Paris, France", "unit": "celsius"})
CALL_WEATHER2 = ("get_weather", {"location": "São Paulo, Brazil", "days": Num("3")})
CALL_FLIGHTS = ("search_flights", {"origin": "SFO", "destination": "JFK", "date": "2025-03-14",
                                   "passengers": Num("2"), "max_price": Num("450.5"), "nonstop": True,
                                   "airlines": ["UA", "DL"]})
CALL_EVENT = ("create_event", {"title": "Café ☕ sync — 東京 \"Q2\"",
                               "start": {"date": "2025-04-01", "time": "09:30"},
                               "attendees": [{"name": "Zoë", "email": "zoe@example.com"},
                                             {"name": "李雷", "email": "li@example.cn"}],
                               "reminder_minutes": Num("15"), "all_day": False,
                               "metadata": {"priority": "high", "tags": ["a", "b"], "note": None}})
CALL_NUMBERS = ("calculate", {"values": [Num("1e21"), Num("0.1"), Num("-0"), Num("12345678901234567890"),
                                         Num("9007199254740993"), Num("1.5e-7"), Num("100"), Num("-2.50")],
                              "precision": Num("2"), "scale": Num("1E3")})
CALL_EMPTY = ("get_time", {})

# ---------------------------------------------------------------------------
# Output formats per parser.


def py_value(v, true="true", false="false", none="null"):
    if isinstance(v, Num):
        return v.text
    if v is True:
        return true
    if v is False:
        return false
    if v is None:
        return none
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(py_value(x, true, false, none) for x in v) + "]"
    return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + py_value(x, true, false, none) for k, x in v.items()) + "}"


def bare_value(v, quote):
    """functiongemma / gemma4 style: strings between quote markers, keys bare."""
    if isinstance(v, Num):
        return v.text
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return quote + v + quote
    if isinstance(v, list):
        return "[" + ",".join(bare_value(x, quote) for x in v) + "]"
    return "{" + ",".join(k + ":" + bare_value(x, quote) for k, x in v.items()) + "}"


def xml_value(v):
    return v if isinstance(v, str) else jtext(v)


def qwen_xml_call(call, nl=True):
    name, args = call
    s = "<function=" + name + ">\n"
    for k, v in args.items():
        s += "<parameter=" + k + ">\n" + xml_value(v) + "\n</parameter>\n"
    return s + "</function>"


def glm_call_body(call):
    name, args = call
    s = name + "\n"
    for k, v in args.items():
        s += "<arg_key>" + k + "</arg_key>\n<arg_value>" + xml_value(v) + "</arg_value>\n"
    return s


def json_call(call, key="arguments"):
    name, args = call
    return jtext({"name": name, key: args})


DS_BEGIN, DS_END = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
DS_CALL, DS_CALL_END, DS_SEP = "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"


class Dialect:
    """How one model writes thinking, content and tool calls."""

    think_open = ""        # written by the model before thinking ("" = the prompt opened it)
    think_close = "</think>"
    content_open = ""
    content_close = ""
    tags = []              # the strings to split at

    def think(self, t):
        return self.think_open + t + self.think_close

    def content(self, c):
        return self.content_open + c + self.content_close

    def calls(self, calls):
        raise NotImplementedError

    def malformed(self):
        return []


class QwenJSON(Dialect):
    tags = ["<think>", "</think>", "<tool_call>", "</tool_call>"]

    def calls(self, calls):
        return "".join("<tool_call>\n" + json_call(c) + "\n</tool_call>" + ("\n" if i < len(calls) - 1 else "")
                       for i, c in enumerate(calls))

    def malformed(self):
        return [
            ("bad-json", '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris",}}\n</tool_call>'),
            ("no-name", '<tool_call>\n{"arguments": {"location": "Paris"}}\n</tool_call>'),
            ("truncated", '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Par'),
            ("unclosed", '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris"}}'),
            ("stray-close", 'Done.</tool_call> Anything else?'),
        ]


class QwenXML(Dialect):
    tags = ["<think>", "</think>", "<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>"]

    def calls(self, calls):
        return "".join("<tool_call>\n" + qwen_xml_call(c) + "\n</tool_call>" + ("\n" if i < len(calls) - 1 else "")
                       for i, c in enumerate(calls))

    def malformed(self):
        return [
            ("no-function", "<tool_call>\nget_weather Paris\n</tool_call>"),
            ("unknown-tool", "<tool_call>\n<function=launch_rocket>\n<parameter=target>\nMars\n</parameter>\n</function>\n</tool_call>"),
            ("bad-param", "<tool_call>\n<function=get_weather>\n<parameter=days>\nthree\n</parameter>\n<parameter=location>Oslo</parameter>\n</function>\n</tool_call>"),
            ("truncated", "<tool_call>\n<function=get_weather>\n<parameter=location>\nPar"),
            ("unclosed", "<tool_call>\n<function=get_weather>\n<parameter=location>\nParis\n</parameter>\n</function>"),
            ("stray-close", "Done.</tool_call> Anything else?"),
        ]


class Nemotron(QwenXML):
    pass


class Ministral(Dialect):
    think_open, think_close = "[THINK]", "[/THINK]"
    tags = ["[THINK]", "[/THINK]", "[TOOL_CALLS]", "[ARGS]"]

    def calls(self, calls):
        return "".join("[TOOL_CALLS]" + n + "[ARGS]" + jtext(a) for n, a in calls)

    def malformed(self):
        return [
            ("bad-json", '[TOOL_CALLS]get_weather[ARGS]{"location": "Paris",'),
            ("no-args", "[TOOL_CALLS]get_weather"),
            ("truncated", '[TOOL_CALLS]get_weather[ARGS]{"location": "Pa'),
            ("stray-close", "Sure[/THINK] thing."),
        ]


class Harmony(Dialect):
    think_open, think_close = "<|channel|>analysis<|message|>", "<|end|>"
    # <|return|> and <|call|> end generation (EOG): llama-server stops on them
    # and they are not in the output (HarmonyMessageHandler.PreservedTokens)
    tags = ["<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>"]

    def content(self, c):
        return "<|start|>assistant<|channel|>final<|message|>" + c

    def content_first(self, c):
        return "<|channel|>final<|message|>" + c

    def calls(self, calls):
        # Harmony parses one call per message, at the end
        n, a = calls[-1]
        return "<|start|>assistant<|channel|>commentary to=functions." + n + " <|constrain|>json<|message|>" + compact(a)

    def calls_first(self, calls):
        n, a = calls[-1]
        return "<|channel|>commentary to=functions." + n + " <|constrain|>json<|message|>" + compact(a)

    def malformed(self):
        return [
            ("bad-json", '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Paris"'),
            ("call-token", '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"location": "Paris"}<|call|>'),
            ("unknown-recipient", '<|channel|>commentary to=browser.search<|message|>{"query": "weather"}'),
            ("truncated", "<|channel|>analysis<|message|>Let me th"),
            ("no-header", "Hello there<|end|>"),
        ]


class DeepSeek(Dialect):
    tags = ["</think>", DS_BEGIN, DS_END, DS_CALL, DS_CALL_END, DS_SEP]

    def calls(self, calls):
        return DS_BEGIN + "".join(DS_CALL + n + DS_SEP + compact(a) + DS_CALL_END for n, a in calls) + DS_END

    def malformed(self):
        return [
            ("bad-json", DS_BEGIN + DS_CALL + "get_weather" + DS_SEP + '{"location":' + DS_CALL_END + DS_END),
            ("no-sep", DS_BEGIN + DS_CALL + "get_weather" + DS_CALL_END + DS_END),
            ("truncated", DS_BEGIN + DS_CALL + "get_weather" + DS_SEP + '{"locat'),
            ("stray-close", "Answer</think> more"),
        ]


class Cogito(DeepSeek):
    def calls(self, calls):
        return DS_BEGIN + "\n".join(DS_CALL + "function" + DS_SEP + n + "\n```json\n" + compact(a) + "\n```" + DS_CALL_END
                                    for n, a in calls) + DS_END

    def malformed(self):
        return [
            ("bad-json", DS_BEGIN + DS_CALL + "function" + DS_SEP + "get_weather\n```json\n{\"location\": }\n```" + DS_CALL_END + DS_END),
            ("no-fence", DS_BEGIN + DS_CALL + "function" + DS_SEP + "get_weather\n{\"location\":\"Paris\"}" + DS_CALL_END + DS_END),
            ("truncated", DS_BEGIN + DS_CALL + "function" + DS_SEP + "get_weather\n```json\n{\"loc"),
            ("stray-close", "Answer</think> more"),
        ]


class Olmo3(Dialect):
    tags = ["<function_calls>", "</function_calls>"]

    def calls(self, calls):
        return "<function_calls>" + "\n".join(
            n + "(" + ", ".join(k + "=" + py_value(v) for k, v in a.items()) + ")" for n, a in calls) + "</function_calls>"

    def malformed(self):
        return [
            ("bad-syntax", "<function_calls>get_weather(location=</function_calls>"),
            ("not-a-call", "<function_calls>just some text</function_calls>"),
            ("truncated", '<function_calls>get_weather(location="Pa'),
            ("stray-close", "Done.</function_calls> ok"),
        ]


class Olmo3Think(Dialect):
    tags = ["<think>", "</think>"]

    def calls(self, calls):
        return Olmo3().calls(calls)


class FunctionGemma(Dialect):
    tags = ["<start_function_call>", "<end_function_call>", "<escape>"]

    def calls(self, calls):
        return "".join("<start_function_call>call:" + n + "{" + ",".join(k + ":" + bare_value(v, "<escape>") for k, v in a.items()) + "}<end_function_call>"
                       for n, a in calls)

    def malformed(self):
        return [
            ("no-call", "<start_function_call>get_weather{location:<escape>Paris<escape>}<end_function_call>"),
            ("unbalanced", "<start_function_call>call:get_weather{location:<escape>Paris}<end_function_call>"),
            ("truncated", "<start_function_call>call:get_weather{location:<escape>Pa"),
            ("stray-close", "Done.<end_function_call> ok"),
        ]


class GLM(Dialect):
    tags = ["<think>", "</think>", "<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"]

    def calls(self, calls):
        return "".join("<tool_call>" + glm_call_body(c) + "</tool_call>" for c in calls)

    def malformed(self):
        return [
            ("missing-value", "<tool_call>get_weather\n<arg_key>location</arg_key>\n</tool_call>"),
            ("bad-xml", "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Paris & <London></arg_value>\n</tool_call>"),
            ("truncated", "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Par"),
            ("stray-close", "Done.</tool_call> ok"),
        ]


class Gemma4(Dialect):
    think_open, think_close = "<|channel>thought\n", "<channel|>"
    tags = ["<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>", '<|"|>']

    def calls(self, calls):
        return "".join("<|tool_call>call:" + n + "{" + ",".join(k + ":" + bare_value(v, '<|"|>') for k, v in a.items()) + "}<tool_call|>"
                       for n, a in calls)

    def malformed(self):
        return [
            ("unquoted", "<|tool_call>call:get_weather{location:Paris}<tool_call|>"),
            ("missing-close-brace", '<|tool_call>call:get_weather{location:<|"|>Paris<|"|><tool_call|>'),
            ("truncated", '<|tool_call>call:get_weather{location:<|"|>Pa'),
            ("stray-close", "Done.<channel|> ok"),
        ]


class LFM2(Dialect):
    think_open = "<think>"
    tags = ["<think>", "</think>", "<|tool_call_start|>", "<|tool_call_end|>"]

    def calls(self, calls):
        return "<|tool_call_start|>[" + ", ".join(
            n + "(" + ", ".join(k + "=" + py_value(v, "True", "False", "None") for k, v in a.items()) + ")" for n, a in calls) + "]<|tool_call_end|>"

    def malformed(self):
        return [
            ("bad-syntax", "<|tool_call_start|>[get_weather(location=]<|tool_call_end|>"),
            ("unknown-tool", '<|tool_call_start|>[launch_rocket(target="Mars")]<|tool_call_end|>'),
            ("truncated", '<|tool_call_start|>[get_weather(location="Pa'),
            ("stray-close", "Done.</think> ok"),
        ]


class Laguna(Dialect):
    tags = ["<think>", "</think>", "<tool_call>", "</tool_call>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>"]

    def calls(self, calls):
        out = []
        for i, c in enumerate(calls):
            if i % 2 == 0:
                out.append("<tool_call>" + glm_call_body(c) + "</tool_call>")
            else:
                out.append("<tool_call>\n" + compact({"name": c[0], "arguments": c[1]}) + "\n</tool_call>")
        return "\n".join(out)

    def malformed(self):
        return [
            ("bare-json", '{"name":"get_weather","arguments":{"location":"Paris"}}'),
            ("bad-json", '<tool_call>\n{"name":"get_weather","arguments":{"location":}}\n</tool_call>'),
            ("truncated", "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Pa"),
            ("stray-close", "Done.</tool_call> ok"),
        ]


class Cohere(Dialect):
    think_close = "<|END_THINKING|>"
    content_open, content_close = "<|START_TEXT|>", "<|END_TEXT|>"
    tags = ["<|START_THINKING|>", "<|END_THINKING|>", "<|START_TEXT|>", "<|END_TEXT|>", "<|START_ACTION|>", "<|END_ACTION|>",
            "<|START_RESPONSE|>", "<|END_RESPONSE|>", "<|END_OF_TURN_TOKEN|>"]

    def calls(self, calls):
        return "<|START_ACTION|>[\n" + ",\n".join(
            "    " + jtext({"tool_call_id": str(i), "tool_name": n, "parameters": a}) for i, (n, a) in enumerate(calls)) + "\n]<|END_ACTION|>"

    def malformed(self):
        return [
            ("bad-json", '<|START_ACTION|>[{"tool_name": "get_weather", "parameters": {"location": }]<|END_ACTION|>'),
            ("legacy-response", "<|START_RESPONSE|>Legacy answer<|END_RESPONSE|>"),
            ("truncated", '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "get_wea'),
            ("end-of-turn", "<|START_TEXT|>Answer<|END_OF_TURN_TOKEN|>"),
        ]


class Glimmer(Dialect):
    tags = ["<|start|>", "<|message|>", "<|eom|>", "<|eot|>", "<atem:function_calls>", "</atem:function_calls>",
            '<atem:invoke name="', "</atem:invoke>", '<atem:parameter name="', "</atem:parameter>"]

    def think(self, t):
        return " to=self<|message|>" + t + "<|eom|><|start|>assistant"

    def content(self, c):
        return " to=user<|message|>" + c + "<|eot|>"

    def calls(self, calls):
        out = ""
        for i, (n, a) in enumerate(calls):
            params = "".join('<atem:parameter name="' + k + '">' + xml_value(v) + "</atem:parameter>\n" for k, v in a.items())
            out += (" to=" + n + "<|message|><atem:function_calls>\n<atem:invoke name=\"" + n + "\">\n" + params +
                    "</atem:invoke>\n</atem:function_calls>" + ("<|eom|><|start|>assistant" if i < len(calls) - 1 else "<|eot|>"))
        return out

    def malformed(self):
        return [
            ("unknown-recipient", " to=launch_rocket<|message|><atem:function_calls>\n<atem:invoke name=\"launch_rocket\">\n</atem:invoke>\n</atem:function_calls><|eot|>"),
            ("no-header", "Plain text without a header"),
            ("truncated", ' to=get_weather<|message|><atem:function_calls>\n<atem:invoke name="get_weather">\n<atem:parameter name="loc'),
            ("literal-tags", " to=user<|message|>literal <|start|> and <|message|> text<|eot|>"),
        ]


class Passthrough(QwenJSON):
    pass


class Generic(Dialect):
    """No parser: the tools parser (tag from the template) and thinking tags
    from the template."""

    def __init__(self, open_tag="", close_tag="", tool_style="qwen"):
        self.think_open_tag, self.think_close = open_tag, close_tag
        self.tool_style = tool_style
        self.tags = [t for t in [open_tag, close_tag, "<tool_call>", "</tool_call>", "[TOOL_CALLS]", "Action:"] if t]

    def calls(self, calls):
        if self.tool_style == "qwen":
            return "\n".join("<tool_call>\n" + json_call(c) + "\n</tool_call>" for c in calls)
        if self.tool_style == "llama":
            return "\n".join(json_call(c, "parameters") for c in calls)
        if self.tool_style == "mistral":
            return "[TOOL_CALLS][" + ", ".join(json_call(c) for c in calls) + "]"
        if self.tool_style == "command-r":
            return "Action: ```json\n[\n" + ",\n".join("    " + jtext({"tool_name": n, "parameters": a}) for n, a in calls) + "\n]```"
        raise ValueError(self.tool_style)

    def malformed(self):
        return [
            ("bad-json", '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Paris",}}\n</tool_call>'),
            ("bare-json", '{"name": "get_weather", "arguments": {"location": "Paris"}}'),
            ("two-objects", '{"name": "get_weather", "arguments": {"location": "Paris"}} {"name": "get_time", "arguments": {}}'),
            ("truncated", '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Par'),
            ("code-braces", "Use `{ fmt.Println(\"hi\") }` in Go."),
        ]


# parser name -> (dialect, thinking mode)
#   "implicit": the prompt opened the thinking block; output is thinking up
#               to the closing tag
#   "explicit": the model writes the opening tag itself
#   "none":     no thinking
PARSERS = {
    "qwen3": (QwenJSON(), "none"),
    "qwen3-thinking": (QwenJSON(), "implicit"),
    "qwen3.5": (QwenXML(), "implicit"),
    "ornith": (QwenXML(), "implicit"),
    "qwen3-coder": (QwenXML(), "none"),
    "qwen3-vl-instruct": (QwenJSON(), "none"),
    "qwen3-vl-thinking": (QwenJSON(), "implicit"),
    "ministral": (Ministral(), "none"),
    "passthrough": (Passthrough(), "none"),
    "harmony": (Harmony(), "explicit"),
    "cogito": (Cogito(), "implicit"),
    "deepseek3": (DeepSeek(), "implicit"),
    "olmo3": (Olmo3(), "none"),
    "olmo3-think": (Olmo3Think(), "implicit"),
    "nemotron-3-nano": (Nemotron(), "implicit"),
    "nemotron-3.5-nano": (Nemotron(), "implicit"),
    "functiongemma": (FunctionGemma(), "none"),
    "glm-4.7": (GLM(), "implicit"),
    "gemma4": (Gemma4(), "explicit"),
    "gemma4-no-thinking": (Gemma4(), "none"),
    "glm-ocr": (GLM(), "none"),
    "lfm2": (LFM2(), "none"),
    "lfm2-thinking": (LFM2(), "explicit"),
    "laguna": (Laguna(), "implicit"),
    "poolside-v1": (Laguna(), "implicit"),
    "cohere": (Cohere(), "implicit"),
    "glimmer": (Glimmer(), "explicit"),
}

# parsers that are the same code as another name in ParserForName's switch
# (ornith = qwen3.5, nemotron-3.5-nano = nemotron-3-nano): fewer cases
ALIASES = {"ornith", "nemotron-3.5-nano"}

# ---------------------------------------------------------------------------
# Chunkings.


def by_bytes(s, n):
    out, cur = [], ""
    for ch in s:
        if cur and len((cur + ch).encode()) > n:
            out.append(cur)
            cur = ""
        cur += ch
    if cur:
        out.append(cur)
    return out


def at_tags(s, tags):
    cuts = {0, len(s)}
    for t in tags:
        if not t:
            continue
        i = s.find(t)
        while i != -1:
            cuts.add(i)
            cuts.add(i + len(t))
            i = s.find(t, i + 1)
    cuts = sorted(cuts)
    return [s[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]


def chunkings(s, tags, which):
    out = []
    for w in which:
        if w == "whole":
            c = [s] if s else []
        elif w == "runes":
            c = list(s)
        elif w.startswith("b"):
            c = by_bytes(s, int(w[1:]))
        elif w == "tags":
            c = at_tags(s, tags)
        else:
            raise ValueError(w)
        out.append((w, c))
    return out


# ---------------------------------------------------------------------------
# Requests.

USER = {"role": "user", "content": "What's the weather like in Paris? Also book me something nice."}
SYSTEM = {"role": "system", "content": "You are a helpful assistant."}
PREFILL = {"role": "assistant", "content": "Sure, "}
PREFILL_THINKING = {"role": "assistant", "content": "", "thinking": "The user wants the weather."}
TOOL_TURN = [
    USER,
    {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {"location": "Paris, France"}}}]},
    {"role": "tool", "content": "{\"temperature\": 18, \"conditions\": \"cloudy\"}", "tool_name": "get_weather"},
]

THINK_VALUES = [None, True, False, "high"]


def chat(tools=None, think=None, last="user"):
    msgs = [SYSTEM, USER]
    if last == "prefill":
        msgs = [SYSTEM, USER, PREFILL]
    elif last == "prefill-thinking":
        msgs = [SYSTEM, USER, PREFILL_THINKING]
    elif last == "tool":
        msgs = [SYSTEM] + TOOL_TURN
    return {"endpoint": "chat", "tools": tools, "think": think, "messages": msgs}


def generate(think=None, raw=False):
    return {"endpoint": "generate", "think": think, "prompt": "Why is the sky blue?", "system": "", "raw": raw}


def req_name(r):
    if r["endpoint"] == "generate":
        n = "gen"
        if r.get("raw"):
            n += "-raw"
    else:
        n = "chat"
        t = r.get("tools")
        if t:
            n += "-tools" + str(len(t))
        m = r["messages"][-1]
        if m["role"] == "assistant":
            n += "-prefill" if m["content"] else "-prefillthinking"
        elif m["role"] == "tool":
            n += "-afterTool"
    th = r.get("think")
    n += "-think" + ("nil" if th is None else str(th).lower())
    return n


# ---------------------------------------------------------------------------
# Output scenarios.

THINK_TEXT = "The user asks about Paris.\nI should answer briefly — and politely."
ANSWER = "Hello! It's 18°C and cloudy in Paris 🌥️ today."


def scenarios(d, mode):
    """(name, output text, kind) for a dialect; kind picks the requests."""
    think = d.think(THINK_TEXT) if mode != "none" else ""
    if isinstance(d, Harmony):
        content = d.content(ANSWER)
        out = [
            ("plain", d.content_first(ANSWER), "plain"),
            ("think-content", think + content, "think"),
            ("think-only", think, "think"),
            ("unclosed-think", "<|channel|>analysis<|message|>" + THINK_TEXT, "think"),
            ("tool-one", think + d.calls([CALL_WEATHER]), "tools"),
            ("tool-first", d.calls_first([CALL_WEATHER]), "tools"),
            ("tool-nested-unicode", d.calls_first([CALL_EVENT]), "tools"),
            ("tool-numbers", d.calls_first([CALL_NUMBERS]), "tools"),
            ("tool-empty-args", d.calls_first([CALL_EMPTY]), "tools"),
            ("tool-then-text", d.calls_first([CALL_WEATHER]) + "trailing", "tools"),
            ("two-finals", d.content_first("First.") + "<|end|>" + d.content("Second."), "plain"),
            ("think-tool", think + d.calls([CALL_WEATHER]), "tools-think"),
        ]
    else:
        out = [
            ("plain", d.content(ANSWER), "plain"),
            ("multiline", d.content("Line one.\n\n- item ★\n- item 2\n\n```go\nfmt.Println(\"{}\")\n```"), "plain"),
        ]
        if mode != "none":
            out += [
                ("think-content", think + d.content(ANSWER), "think"),
                ("think-only", think, "think"),
                ("think-ws", d.think("  \n" + THINK_TEXT + "\n\n") + "\n\n" + d.content(ANSWER), "think"),
                ("unclosed-think", d.think_open + THINK_TEXT, "think"),
                ("think-tool", think + d.calls([CALL_WEATHER]), "tools-think"),
            ]
        if mode == "implicit":
            out.append(("explicit-open", "<think>" + THINK_TEXT + d.think_close + d.content(ANSWER), "think"))
        out += [
            ("tool-one", d.calls([CALL_WEATHER]), "tools"),
            ("tool-several", d.calls([CALL_WEATHER, CALL_FLIGHTS, CALL_WEATHER2]), "tools"),
            ("tool-nested-unicode", d.calls([CALL_EVENT]), "tools"),
            ("tool-numbers", d.calls([CALL_NUMBERS]), "tools"),
            ("tool-empty-args", d.calls([CALL_EMPTY]), "tools"),
            ("content-then-tool", d.content("Let me check that for you. ") + d.calls([CALL_WEATHER]), "tools"),
            ("tool-then-text", d.calls([CALL_WEATHER]) + "\nI called the tool.", "tools"),
        ]
    for name, text in d.malformed():
        out.append(("malformed-" + name, text, "tools"))
    out += [
        ("whitespace", "  \n\t \n", "plain"),
        ("empty", "", "plain"),
    ]
    return out


def requests_for(kind, mode, parser, tools=TOOLS_ALL):
    """The primary request and the secondary ones for a scenario kind."""
    # a parser whose prompt opens the thinking block reads the output as
    # thinking up to the closing tag when thinking is on (think nil becomes
    # true for a thinking model): outputs without thinking go with think=false
    off = False if mode == "implicit" else None
    if kind == "plain":
        prim = chat(think=off)
        sec = [generate(think=off), chat(think=None if off is False else False), chat(last="prefill")]
    elif kind == "think":
        prim = chat(think=True) if mode != "none" else chat()
        sec = [generate(think=True), chat(think=False), chat(think="high"), chat(think=None), chat(last="prefill", think=True),
               chat(last="prefill-thinking", think=True)]
    elif kind == "tools-think":
        prim = chat(tools=tools, think=True)
        sec = [chat(tools=TOOLS_ONE, think=None), generate(think=True), chat(tools=tools, think=False)]
    else:  # tools
        prim = chat(tools=tools, think=off)
        sec = [chat(tools=TOOLS_ONE, think=False), chat(think=off), generate(think=off), chat(tools=tools, last="tool", think=off),
               chat(tools=tools, last="prefill"), chat(tools=tools, think=True), chat(tools=tools, think=None)]
    if parser == "harmony":
        sec.append(chat(think="max"))
    return prim, sec


# ---------------------------------------------------------------------------
# Templates (no parser): real Go TEMPLATEs.

def corpus_templates():
    """Templates by case-id prefix from the corpus's render.jsonl, plus the
    built-in ones from template/*.gotmpl."""
    out = {}
    with open(CORPUS.parent.parent / "golden" / "render.jsonl") as f:
        for line in f:
            d = json.loads(line)
            t = d["model"].get("template")
            if t is None:
                continue
            key = d["id"].split("/")[0]
            out.setdefault(key, (t, d["model"].get("family")))
    return out


R1_TEMPLATE = """{{- if .System }}{{ .System }}{{ end }}
{{- range $i, $_ := .Messages }}
{{- $last := eq (len (slice $.Messages $i)) 1}}
{{- if eq .Role "user" }}<｜User｜>{{ .Content }}
{{- else if eq .Role "assistant" }}<｜Assistant｜>
  {{- if and $.IsThinkSet (and $last .Thinking) -}}
<think>
{{ .Thinking }}
</think>
{{- end }}{{ .Content }}{{- if not $last }}<｜end▁of▁sentence｜>{{- end }}
{{- end }}
{{- if and $last (ne .Role "assistant") }}<｜Assistant｜>
{{- if and $.IsThinkSet (not $.Think) -}}
<think>

</think>

{{ else }}<think>
{{ end }}
{{- end -}}
{{- end }}"""


def template_models():
    ct = corpus_templates()
    builtin = lambda n: (CORPUS / "template" / (n + ".gotmpl")).read_text()
    return [
        # name, template text, family, dialect, source
        ("llama31-tools", ct["tmpl-llama31-tools"][0], "", Generic(tool_style="llama"), "corpus golden/render.jsonl tmpl-llama31-tools"),
        ("qwen25-tools", ct["tmpl-qwen25-tools"][0], "", Generic(tool_style="qwen"), "corpus golden/render.jsonl tmpl-qwen25-tools"),
        ("qwen3-think", ct["tmpl-qwen3-think"][0], "qwen3", Generic("<think>", "</think>", "qwen"), "corpus golden/render.jsonl tmpl-qwen3-think"),
        ("mistral-tools", ct["tmpl-mistral-tools"][0], "", Generic(tool_style="mistral"), "corpus golden/render.jsonl tmpl-mistral-tools"),
        ("command-r", builtin("command-r"), "", Generic(tool_style="command-r"), "corpus template/command-r.gotmpl"),
        ("llama3-instruct", builtin("llama3-instruct"), "", Generic(tool_style="llama"), "corpus template/llama3-instruct.gotmpl"),
        ("granite-instruct", builtin("granite-instruct"), "", Generic(tool_style="llama"), "corpus template/granite-instruct.gotmpl"),
        ("think-custom", ct["tmpl-think-custom"][0], "", Generic("<reasoning>", "</reasoning>", "qwen"), "corpus golden/render.jsonl tmpl-think-custom"),
        ("deepseek-r1", R1_TEMPLATE, "", Generic("<think>", "</think>", "qwen"), "hand-written, deepseek-r1 style (prompt ends with <think>)"),
        ("gptoss-harmony", ct["harmony-rename"][0], "gptoss", None, "corpus golden/render.jsonl harmony-rename (family gptoss: harmony)"),
    ]


def template_scenarios(d):
    o, c = d.think_open_tag, d.think_close
    out = [
        ("plain", ANSWER, "plain"),
        ("multiline", "Line one.\n\n- item ★\n\n```go\nfmt.Println(\"{}\")\n```", "plain"),
        ("tool-one", d.calls([CALL_WEATHER]), "tools"),
        ("tool-several", d.calls([CALL_WEATHER, CALL_FLIGHTS]), "tools"),
        ("tool-nested-unicode", d.calls([CALL_EVENT]), "tools"),
        ("tool-numbers", d.calls([CALL_NUMBERS]), "tools"),
        ("tool-empty-args", d.calls([CALL_EMPTY]), "tools"),
        ("content-then-tool", "Let me check. " + d.calls([CALL_WEATHER]), "tools"),
        ("tool-then-text", d.calls([CALL_WEATHER]) + "\nDone.", "tools"),
        ("whitespace", "  \n\t \n", "plain"),
        ("empty", "", "plain"),
    ]
    if o:
        out += [
            ("think-content", o + THINK_TEXT + c + ANSWER, "think"),
            ("think-implicit", THINK_TEXT + c + "\n\n" + ANSWER, "think"),
            ("think-only", o + THINK_TEXT + c, "think"),
            ("unclosed-think", o + THINK_TEXT, "think"),
            ("stray-close", "Answer" + c + " more", "think"),
            ("think-tool", o + THINK_TEXT + c + d.calls([CALL_WEATHER]), "tools-think"),
        ]
    for name, text in d.malformed():
        out.append(("malformed-" + name, text, "tools"))
    return out


# ---------------------------------------------------------------------------


def main():
    rng = random.Random(20260821)
    cases = []
    seen = set()

    def add(cid, model, req, text, chunks, runs=3, source=""):
        key = json.dumps([model, req, chunks], sort_keys=True)
        if key in seen:
            return
        seen.add(key)
        c = {"id": cid, "endpoint": req["endpoint"], "parser": model.get("parser", ""), "family": model.get("family", ""),
             "template": model.get("template"), "tools": req.get("tools"), "think": req.get("think"),
             "messages": req.get("messages"), "prompt": req.get("prompt", ""), "system": req.get("system", ""),
             "raw": req.get("raw", False), "chunks": chunks, "runs": runs, "source": source}
        cases.append(c)

    def primary(text):
        return ["whole", "runes" if len(text) <= 160 else "b3", "tags"]

    def secondary(sec, k=2):
        return [(r, rng.choice(["whole", "b2", "b3", "b7", "tags"])) for r in rng.sample(sec, min(k, len(sec)))]

    for parser, (d, mode) in PARSERS.items():
        model = {"parser": parser}
        alias = parser in ALIASES
        for name, text, kind in scenarios(d, mode):
            prim, sec = requests_for(kind, mode, parser, tools_for(name))
            if alias:
                for w, ch in chunkings(text, d.tags, ["whole"]):
                    add(f"{parser}/{name}/{req_name(prim)}/{w}", model, prim, text, ch, source="generated:" + name)
                continue
            for w, ch in chunkings(text, d.tags, primary(text)):
                add(f"{parser}/{name}/{req_name(prim)}/{w}", model, prim, text, ch, source="generated:" + name)
            for r, w0 in secondary(sec):
                for w, ch in chunkings(text, d.tags, [w0]):
                    add(f"{parser}/{name}/{req_name(r)}/{w}", model, r, text, ch, source="generated:" + name)
        # the generate endpoint skips the parser in raw mode
        add(f"{parser}/raw/gen-raw/whole", model, generate(raw=True), "", [d.think(THINK_TEXT) + d.content(ANSWER)], source="generated:raw")

    for tname, ttext, family, d, source in template_models():
        model = {"template": ttext, "family": family}
        if d is None:  # gpt-oss with a harmony template: the handler picks the harmony parser
            d = Harmony()
            for name, text, kind in scenarios(d, "explicit"):
                prim, sec = requests_for(kind, "explicit", "harmony", tools_for(name))
                for w, ch in chunkings(text, d.tags, primary(text)):
                    add(f"tmpl:{tname}/{name}/{req_name(prim)}/{w}", model, prim, text, ch, source=source)
                for r, w0 in secondary(sec):
                    for w, ch in chunkings(text, d.tags, [w0]):
                        add(f"tmpl:{tname}/{name}/{req_name(r)}/{w}", model, r, text, ch, source=source)
            continue
        no_tools = tname in ("llama3-instruct", "granite-instruct", "think-custom", "deepseek-r1")
        for name, text, kind in template_scenarios(d):
            if no_tools and kind.startswith("tools") and name not in ("tool-one", "malformed-bare-json"):
                continue
            if kind == "plain":
                reqs = [chat(), generate(), chat(think=True), chat(tools=TOOLS_ONE)]
            elif kind == "think":
                reqs = [chat(think=True), chat(), generate(), generate(think=True), chat(think=False), chat(think="high"),
                        chat(last="prefill-thinking", think=True), generate(think=True, raw=True)]
            elif kind == "tools-think":
                reqs = [chat(tools=tools_for(name), think=True), chat(tools=tools_for(name))]
            else:
                ts = tools_for(name)
                reqs = [chat(tools=ts), chat(tools=TOOLS_ONE), chat(), chat(tools=ts, last="tool"),
                        chat(tools=ts, think=True), chat(tools=TOOLS_ALL)]
            tags = d.tags + ["{", "}", "\n"]
            for w, ch in chunkings(text, tags, primary(text)):
                add(f"tmpl:{tname}/{name}/{req_name(reqs[0])}/{w}", model, reqs[0], text, ch, runs=16, source=source)
            for r, w0 in secondary(reqs[1:], 2):
                for w, ch in chunkings(text, tags, [w0]):
                    add(f"tmpl:{tname}/{name}/{req_name(r)}/{w}", model, r, text, ch, runs=16, source=source)

    # the token-repeat rule (llm/llama_server.go: more than 30 identical
    # pieces, by strings.TrimSpace, and the stream stops without a final)
    rep = [
        ("x30", ["ha"] * 30),
        ("x31", ["ha"] * 31),
        ("x32", ["ha"] * 32),
        ("x40", ["ha"] * 40),
        ("ws31-start", [" "] * 31),
        ("ws30-start", ["\n"] * 30),
        ("trim-equal", ["Hi", " Hi", "Hi ", "\tHi"] * 8),
        ("after-content", ["Hello", "!"] + ["\n"] * 31),
        ("newline-tail30", ["Hello"] + ["\n"] * 30),
        ("alternating", ["a", "b"] * 40),
    ]
    for parser, model, req in [
        ("qwen3-thinking", {"parser": "qwen3-thinking"}, chat(think=True)),
        ("qwen3-coder", {"parser": "qwen3-coder"}, chat(tools=TOOLS_ALL)),
        ("harmony", {"parser": "harmony"}, chat()),
        ("gemma4", {"parser": "gemma4"}, generate(think=True)),
        ("passthrough", {"parser": "passthrough"}, generate()),
        ("tmpl:qwen3-think", {"template": corpus_templates()["tmpl-qwen3-think"][0], "family": "qwen3"}, chat(think=True)),
        ("tmpl:qwen25-tools", {"template": corpus_templates()["tmpl-qwen25-tools"][0], "family": ""}, chat(tools=TOOLS_ALL)),
    ]:
        for name, ch in rep:
            add(f"{parser}/repeat-{name}/{req_name(req)}", model, req, "".join(ch), ch, source="generated:repeat")
    # a tool call, then the repeat abort before its end
    d = QwenJSON()
    call = d.calls([CALL_WEATHER])
    add("qwen3/repeat-in-tool/chat-tools5", {"parser": "qwen3"}, chat(tools=TOOLS_ALL), "",
        at_tags(call, d.tags)[:2] + ["}"] * 32, source="generated:repeat")
    add("tmpl:qwen25-tools/repeat-in-tool/chat-tools5", {"template": corpus_templates()["tmpl-qwen25-tools"][0], "family": ""},
        chat(tools=TOOLS_ALL), "", at_tags(call, d.tags)[:2] + ["}"] * 32, runs=16, source="generated:repeat")

    # parser + a real template (the template decides the thinking capability)
    qt = corpus_templates()["tmpl-qwen3-think"][0]
    for parser in ["qwen3", "qwen3-thinking", "qwen3-coder"]:
        d, _ = PARSERS[parser]
        for name, text in [("think-content", THINK_TEXT + "</think>" + ANSWER), ("tool-one", d.calls([CALL_WEATHER]))]:
            for r in [chat(think=True), chat(), chat(tools=TOOLS_ALL, think=False), generate(), generate(think=False)]:
                for w, ch in chunkings(text, d.tags, ["whole", "tags"]):
                    add(f"{parser}+tmpl:qwen3-think/{name}/{req_name(r)}/{w}", {"parser": parser, "template": qt, "family": "qwen3"},
                        r, text, ch, source="generated:" + name)

    ids = set()
    with open(sys.argv[1], "w") as f:
        for c in cases:
            base, n = c["id"], 2
            while c["id"] in ids:
                c["id"] = f"{base}#{n}"
                n += 1
            ids.add(c["id"])
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"gen_cases: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
