#!/usr/bin/env python3
"""Writes the request bodies that record.py sends to the body decoding of
Ollama v0.33.0-rc2's native handlers (server/routes.go ChatHandler for
/api/chat, GenerateHandler for /api/generate), one JSON object a line:

    {"id": "<endpoint>-<n>", "endpoint": "chat"|"generate", "source": ..., "body": "...", "raw": true?}

    python3 tools/v1-goldens/gen_native_cases.py CASES.jsonl

Deterministic (nothing random). The cases:

- ported from api/types_test.go (source "api/types_test.go:Test/subtest"):
  the JSON inputs that unmarshal a ChatRequest or GenerateRequest, or a
  piece of one (a Message, a ToolFunction, a ToolProperty, a PropertyType,
  tool-call arguments, tool properties), the pieces wrapped in a minimal
  request;
- "generated:type matrix: PATH = WHAT": every field of api.ChatRequest
  and api.GenerateRequest, and every field at every nesting level below
  them (messages[], images[], tool_calls[], function, arguments, tools[],
  function, parameters, properties, a property, anyOf[], nested
  properties, ...), given each JSON type in turn, in an otherwise valid
  request;
- "generated:<what>": the values that matter for each field (think,
  keep_alive, format, options, images, context, top_logprobs, roles),
  number literals where they meet ints and floats, several errors in one
  body in different key orders (Go keeps the first type error in key
  order, but an error returned by an UnmarshalJSON method ends the
  decoding at once), case-variant and Unicode-folded keys, unknown
  fields, nulls, duplicate keys, SDK-like bodies;
- raw (flagged "raw": true): bodies that are not one JSON object that
  serde_json reads (empty, whitespace, truncated, trailing data, a
  top-level array/string/number/null, a byte-order mark, NaN, lone
  surrogate escapes, ...).

Bodies are written compact, keys in the order given, unless a case says
otherwise; numbers are written as given (the literal text is what the
case is about).
"""

import copy
import json
import sys

CHAT, GEN = "chat", "generate"
CASES = []
SEEN = {}
DUPLICATES = []


class Raw(str):
    """JSON text written as is."""


class Obj:
    """A JSON object as (key, value) pairs: duplicate keys, exact order."""

    def __init__(self, *pairs):
        self.pairs = list(pairs)


def dump(v):
    if isinstance(v, Raw):
        return str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        raise TypeError("write non-integer numbers as Raw text")
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ",".join(dump(k) + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, Obj):
        return "{" + ",".join((k if isinstance(k, Raw) else dump(k)) + ":" + dump(x) for k, x in v.pairs) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(dump(x) for x in v) + "]"
    raise TypeError(type(v))


def _reject(c):
    raise ValueError(c)


def _has_surrogate(v):
    if isinstance(v, str):
        return any(0xD800 <= ord(ch) <= 0xDFFF for ch in v)
    if isinstance(v, dict):
        return any(_has_surrogate(k) or _has_surrogate(x) for k, x in v.items())
    if isinstance(v, list):
        return any(_has_surrogate(x) for x in v)
    return False


def is_plain_object(text):
    """Whether text is one JSON object, nothing after it, that serde_json
    reads (no NaN, no lone surrogate escape, no BOM)."""
    try:
        v = json.loads(text, parse_constant=_reject)
    except (ValueError, RecursionError):
        return False
    return isinstance(v, dict) and not _has_surrogate(v) and _depth(v) <= 128


def _depth(v):
    """Nesting depth (serde_json's recursion limit is 128)."""
    if isinstance(v, dict):
        return 1 + max((_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    return 0


def add(endpoint, source, body, raw=False):
    assert endpoint in (CHAT, GEN), endpoint
    text = body if isinstance(body, str) else dump(body)
    plain = is_plain_object(text)
    if raw:
        assert not plain, f"{source}: flagged raw but a plain object"
    elif not plain:
        # Lone surrogates: serde_json rejects them; Go reads U+FFFD.
        v = json.loads(text, parse_constant=_reject)
        assert isinstance(v, dict) and _has_surrogate(v), f"{source}: not a plain JSON object: {text!r}"
        raw = True
    key = (endpoint, text)
    if key in SEEN:
        # The same body under another name (the type matrix and the value
        # lists overlap): kept once, under its first source.
        DUPLICATES.append(source)
        return
    SEEN[key] = source
    case = {"endpoint": endpoint, "source": source, "body": text}
    if raw:
        case["raw"] = True
    CASES.append(case)


def both(source, chat_body, gen_body, **kw):
    add(CHAT, source, chat_body, **kw)
    add(GEN, source, gen_body, **kw)


def with_field(base, key, value):
    """base (a dict) with key set to value: in place if base has it, else
    appended."""
    b = copy.deepcopy(base)
    b[key] = value
    return b


def set_path(base, path, value):
    b = copy.deepcopy(base)
    cur = b
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return b


def path_name(path):
    s = ""
    for p in path:
        s += f"[{p}]" if isinstance(p, int) else ("." if s else "") + p
    return s


MODEL = "llama3.2"
USER = {"role": "user", "content": "Hello"}
CHAT_BASE = {"model": MODEL, "messages": [USER]}
GEN_BASE = {"model": MODEL, "prompt": "Hello"}

# 1x1 PNG (as in Ollama's openai tests).
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII="

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather",
        "parameters": {
            "type": "object",
            "required": ["city"],
            "properties": {
                "city": {"type": "string", "description": "The city"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            },
        },
    },
}

TOOL_CALL = {"id": "call_1", "function": {"index": 0, "name": "get_weather", "arguments": {"city": "Paris"}}}
ASSISTANT_CALL = {"role": "assistant", "content": "", "tool_calls": [TOOL_CALL]}
TOOL_RESULT = {"role": "tool", "content": "20 degrees", "tool_name": "get_weather", "tool_call_id": "call_1"}

CHAT_TOOLS = {"model": MODEL, "messages": [USER, ASSISTANT_CALL, TOOL_RESULT], "tools": [TOOL]}

# Each JSON type, as text. The full set for top-level fields, the short
# one below them.
TYPES = [
    ("string", '"x"'),
    ("empty string", '""'),
    ("integer", "7"),
    ("negative integer", "-3"),
    ("float", "1.5"),
    ("true", "true"),
    ("false", "false"),
    ("null", "null"),
    ("empty array", "[]"),
    ("array of string", '["x"]'),
    ("array of integer", "[1]"),
    ("empty object", "{}"),
    ("object", '{"k":"v"}'),
]
SHORT_TYPES = [t for t in TYPES if t[0] in (
    "string", "integer", "float", "true", "null", "empty array", "array of string", "empty object", "object")]

CHAT_FIELDS = ["model", "messages", "stream", "format", "keep_alive", "tools", "options", "think", "truncate",
               "shift", "_debug_render_only", "logprobs", "top_logprobs"]
GEN_FIELDS = ["model", "prompt", "suffix", "system", "template", "context", "stream", "raw", "format",
              "keep_alive", "images", "options", "think", "truncate", "shift", "_debug_render_only", "logprobs",
              "top_logprobs"]


# ------------------------------------------------------------ ported


def ported():
    S = "api/types_test.go:"
    for name, req in [("Unset", "{ }"), ("Positive Integer", '{ "keep_alive": 42 }'),
                      ("Positive Float", '{ "keep_alive": 42.5 }'),
                      ("Positive Integer String", '{ "keep_alive": "42m" }'),
                      ("Negative Integer", '{ "keep_alive": -1 }'), ("Negative Float", '{ "keep_alive": -3.14 }'),
                      ("Negative Integer String", '{ "keep_alive": "-1m" }')]:
        add(CHAT, S + "TestKeepAliveParsingFromJSON/" + name, req)
    # TestDurationMarshalUnmarshal: what Duration.MarshalJSON writes, read back.
    for name, text in [("negative duration", "-1"), ("positive duration", '"42s"'),
                       ("another positive duration", '"42m0s"'), ("zero duration", '"0s"'),
                       ("max duration", '"2562047h47m16.854775807s"')]:
        add(GEN, S + "TestDurationMarshalUnmarshal/" + name, Raw('{"keep_alive":' + text + "}"))
    for inp in ['{"role": "USER", "content": "Hello!"}', '{"role": "System", "content": "Initialization complete."}',
                '{"role": "assistant", "content": "How can I help you?"}',
                '{"role": "TOOl", "content": "Access granted."}']:
        add(CHAT, S + "TestMessage_UnmarshalJSON/" + json.loads(inp)["role"],
            '{"model": "m", "messages": [' + inp + "]}")
    for name, enum in [("valid enum with same types", '["a", "b", "c"]'), ("empty enum array", "[]")]:
        fn = ('{\n\t\t\t\t"name": "test",\n\t\t\t\t"description": "test function",\n\t\t\t\t"parameters": {\n'
              '\t\t\t\t\t"type": "object",\n\t\t\t\t\t"required": ["test"],\n\t\t\t\t\t"properties": {\n'
              '\t\t\t\t\t\t"test": {\n\t\t\t\t\t\t\t"type": "string",\n\t\t\t\t\t\t\t"description": "test prop",\n'
              '\t\t\t\t\t\t\t"enum": ' + enum + '\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}')
        add(CHAT, S + "TestToolFunction_UnmarshalJSON/" + name,
            '{"model": "m", "tools": [{"type": "function", "function": ' + fn + "}]}")
    for name, inp in [("string type", '"string"'), ("array of types", '["string", "number"]'),
                      ("array with single type", '["string"]')]:
        add(CHAT, S + "TestPropertyType_UnmarshalJSON/" + name,
            '{"model":"m","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object",'
            '"properties":{"p":{"type":' + inp + "}}}}}]}")
    for name, inp in [("true", "{ \"think\": true }"), ("false", "{ \"think\": false }"), ("unset", "{ }"),
                      ("string_high", '{ "think": "high" }'), ("string_medium", '{ "think": "medium" }'),
                      ("string_low", '{ "think": "low" }'), ("string_max", '{ "think": "max" }'),
                      ("invalid_string", '{ "think": "invalid" }')]:
        add(GEN, S + "TestThinking_UnmarshalJSON/" + name, inp)
    nested = ('{\n\t\t\t\t"type": "object",\n\t\t\t\t"description": "Location details",\n\t\t\t\t"properties": {\n'
              '\t\t\t\t\t"address": {\n\t\t\t\t\t\t"type": "string",\n\t\t\t\t\t\t"description": "Street address"\n'
              '\t\t\t\t\t},\n\t\t\t\t\t"city": {\n\t\t\t\t\t\t"type": "string",\n\t\t\t\t\t\t"description": "City name"\n'
              '\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}')
    deep = ('{\n\t\t\t\t"type": "object",\n\t\t\t\t"description": "Event",\n\t\t\t\t"properties": {\n'
            '\t\t\t\t\t"location": {\n\t\t\t\t\t\t"type": "object",\n\t\t\t\t\t\t"description": "Location",\n'
            '\t\t\t\t\t\t"properties": {\n\t\t\t\t\t\t\t"coordinates": {\n\t\t\t\t\t\t\t\t"type": "object",\n'
            '\t\t\t\t\t\t\t\t"description": "GPS coordinates",\n\t\t\t\t\t\t\t\t"properties": {\n'
            '\t\t\t\t\t\t\t\t\t"lat": {"type": "number", "description": "Latitude"},\n'
            '\t\t\t\t\t\t\t\t\t"lng": {"type": "number", "description": "Longitude"}\n'
            '\t\t\t\t\t\t\t\t}\n\t\t\t\t\t\t\t}\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}')
    for name, prop in [("nested object properties", nested), ("deeply nested properties", deep)]:
        add(CHAT, S + "TestToolPropertyNestedProperties/" + name,
            '{"model":"m","tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object",'
            '"properties":{"p":' + prop + "}}}}]}")
    call = lambda args: ('{"model":"m","messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f",'
                         '"arguments":' + args + "}}]}]}")
    add(CHAT, S + "TestToolCallFunctionArguments_OrderPreservation/unmarshal preserves order",
        call('{"zebra":"z","apple":"a","mango":"m"}'))
    add(CHAT, S + "TestToolCallFunctionArguments_OrderPreservation/round trip preserves order",
        call('{"z":1,"a":2,"m":3,"b":4}'))
    add(CHAT, S + "TestToolCallFunctionArguments_ComplexValues",
        call('{"outer":{"z":1,"a":2},"simple":"value"}'))
    add(CHAT, S + "TestToolCallFunctionArguments_ComplexValues/arrays",
        call('{"items":["a","b","c"],"numbers":[1,2,3]}'))
    props = lambda p: ('{"model":"m","tools":[{"type":"function","function":{"name":"f","parameters":{'
                       '"type":"object","properties":' + p + "}}}]}")
    add(CHAT, S + "TestToolPropertiesMap_OrderPreservation/unmarshal preserves order",
        props('{"zebra":{"type":"string"},"apple":{"type":"number"},"mango":{"type":"boolean"}}'))
    add(CHAT, S + "TestToolPropertiesMap_OrderPreservation/round trip preserves order",
        props('{"z":{"type":"string"},"a":{"type":"number"},"m":{"type":"boolean"}}'))
    add(CHAT, S + "TestToolPropertiesMap_NestedProperties",
        props('{"outer":{"type":"object","properties":{"z_field":{"type":"string"},"a_field":{"type":"number"}}}}'))


# ------------------------------------------------------------ the type matrix


def matrix():
    G = "generated:type matrix: "
    for field in CHAT_FIELDS:
        base = CHAT_TOOLS if field == "tools" else CHAT_BASE
        for what, text in TYPES:
            add(CHAT, G + f"{field} = {what}", with_field(base, field, Raw(text)))
    for field in GEN_FIELDS:
        for what, text in TYPES:
            add(GEN, G + f"{field} = {what}", with_field(GEN_BASE, field, Raw(text)))

    # Below the top level of /api/chat: the path is set to each type in
    # CHAT_TOOLS (where the path exists) or in a request built for it.
    user_img = {"model": MODEL, "messages": [{"role": "user", "content": "What is this?", "images": [PNG]}]}
    paths = [
        (CHAT_TOOLS, ["messages", 0]),
        (CHAT_TOOLS, ["messages", 0, "role"]),
        (CHAT_TOOLS, ["messages", 0, "content"]),
        (CHAT_TOOLS, ["messages", 0, "thinking"]),
        (CHAT_TOOLS, ["messages", 0, "images"]),
        (user_img, ["messages", 0, "images", 0]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls"]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "id"]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function"]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "index"]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "name"]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "arguments"]),
        (CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "arguments", "city"]),
        (CHAT_TOOLS, ["messages", 2, "tool_name"]),
        (CHAT_TOOLS, ["messages", 2, "tool_call_id"]),
        (CHAT_TOOLS, ["tools", 0]),
        (CHAT_TOOLS, ["tools", 0, "type"]),
        (CHAT_TOOLS, ["tools", 0, "items"]),
        (CHAT_TOOLS, ["tools", 0, "function"]),
        (CHAT_TOOLS, ["tools", 0, "function", "name"]),
        (CHAT_TOOLS, ["tools", 0, "function", "description"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "type"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "$defs"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "items"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "required"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "required", 0]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties", "city"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties", "city", "type"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties", "city", "description"]),
        (CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties", "unit", "enum"]),
    ]
    prop_base = set_path(CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties", "where"], {
        "type": "object",
        "description": "A place",
        "anyOf": [{"type": "string"}, {"type": "object", "properties": {"lat": {"type": "number"}}}],
        "items": {"type": "string"},
        "enum": ["a", "b"],
        "required": ["lat"],
        "properties": {"lat": {"type": "number", "description": "Latitude"}},
    })
    P = ["tools", 0, "function", "parameters", "properties", "where"]
    for sub in (["anyOf"], ["anyOf", 0], ["anyOf", 0, "type"], ["anyOf", 1, "properties"], ["items"], ["enum"],
                ["enum", 0], ["required"], ["required", 0], ["properties"], ["properties", "lat"],
                ["properties", "lat", "type"], ["properties", "lat", "description"]):
        paths.append((prop_base, P + sub))
    for base, path in paths:
        for what, text in SHORT_TYPES:
            add(CHAT, G + f"{path_name(path)} = {what}", set_path(base, path, Raw(text)))

    gen_paths = [
        (with_field(GEN_BASE, "images", [PNG]), ["images", 0]),
        (with_field(GEN_BASE, "context", [1, 2, 3]), ["context", 0]),
        (with_field(GEN_BASE, "options", {"temperature": Raw("0.7")}), ["options", "temperature"]),
    ]
    for base, path in gen_paths:
        for what, text in SHORT_TYPES:
            add(GEN, G + f"{path_name(path)} = {what}", set_path(base, path, Raw(text)))


# ------------------------------------------------------------ values that matter


THINK = ["true", "false", '"high"', '"medium"', '"low"', '"max"', '"HIGH"', '"High"', '"x"', '""', '"none"',
         '"true"', '"high "', '"\\u0068igh"', "1", "0", "null", "[]", '["high"]', "{}", '{"level":"high"}']

KEEP_ALIVE = ['"5m"', '"-1"', '"0"', '"-5m"', '"1h30m"', '"1.5h"', '"300ms"', '"10us"', '"10µs"', '"10μs"', '"1ns"',
              '"0s"', '"-0"', '"+5m"', '".5s"', '"5.s"', '"1e2"', '""', '"xyz"', '"5"', '"5 m"', '" 5m"', '"5M"',
              '"9999999999h"', '"2562047h47m16.854775807s"', '"2562047h47m16.854775808s"', '"5分"', '"\\u00e9"',
              '"-"', '"1h-5m"',
              "300", "1.5", "0", "-0", "-1", "-3.14", "1e2", "1E2", "1e-10", "0.0000000001", "1e10", "9223372036",
              "9223372037", "1e400", "1.5e300", "true", "false", "null", "[]", '["5m"]', "{}", '{"d":1}',
              # seconds * 1e9 in float64, then truncated to int64 nanoseconds
              "0.1", "0.3", "1.1", "4.35", "123.456", "1.9999999999", "1e-9", "1.5e-9", "0.0000000015", "2.5e-10",
              "-1e-300", "9.223372036854775e9",
              '"1.0000000005s"', '"0.0000000001s"', '"1.5e3s"', '"1h1h"', '"1m1h"', '"1.5µs"', '"0.5ns"']

FORMAT = ['"json"', '""', '"JSON"', '"<b>&"', '"\\u2028"', '{"type":"object","properties":{"a":{"type":"string"}}}',
          '{ "type" : "object" ,\n "required" : [ "a" ] }', '{"b":1,"a":2}', '{"html":"<&>"}', "null", "5", "-0",
          "1e2", "true", "[]", '["json"]', '[ 1 , 2 ]']

OPTIONS = ['{"temperature":0.7,"num_ctx":4096,"stop":["\\n","user:"],"seed":42}', '{"num_predict":1e2}',
           '{"top_p":-0}', '{"x":1.5e300}', '{"x":1e400}', '{"x":-1e400}', '{"x":1e-400}', '{"x":5e-324}',
           '{"x":1.7976931348623157e308}', '{"x":1.7976931348623159e308}', '{"x":123456789012345678901234567890}',
           '{"x":12345678901234567890}', '{"x":0.1}', '{"x":1e20}', '{"x":1e21}', '{"x":0.000001}',
           '{"x":0.0000001}', '{"x":100000000000000000000.5}', '{"x":-0.0}', '{"x":1E+2}', '{"x":1e-2}',
           '{"nested":{"a":[1,{"b":null}],"c":"<&>"}}', '{"s":"\\u2028\\u2029"}', '{"":1}', '{"b":1,"a":2,"B":3}',
           '{"use_mmap":"yes","num_gpu":"x"}', "[]", '["temperature"]', '"temperature=0.7"', "null", "7", "true"]

IMAGES = [PNG, "", "aGVsbG8=", "aGVsbG8", "aGVsbG8==", "aGVs\nbG8=", "aGVs\r\nbG8=", "aGVs bG8=", "aGVsbG8=!",
          "!!!!", "data:image/png;base64," + PNG, "-_-_", "aGVsbG8=aGVs", "a", "ab", "abc", "YQ==", "YQ=", "YR==",
          "YWJj", "\u00e9AAA"]

CONTEXT = ["[1,2,3]", "[]", "[1.5]", '["a"]', "[1e2]", "[1E2]", "[1e0]", "[1.0]", "[0.0]", "[-0]", "[-0.0]", "[0e0]",
           "[1.5e300]", "[9223372036854775807]", "[9223372036854775808]", "[-9223372036854775808]",
           "[-9223372036854775809]", "[100000000000000000000000]", "[null]", "[true]", "[[1]]", "[{}]",
           '[1,"a",2.5]', "[1,2.5,\"a\"]", "[-1,0,1]"]

TOP_LOGPROBS = ["0", "5", "20", "21", "-1", "1.5", '"5"', "1e2", "1E0", "-0", "-0.0", "1.0", "1.5e300",
                "9223372036854775807", "9223372036854775808", "-9223372036854775809", "null", "true", "[5]"]

ROLES = ["user", "USER", "Assistant", "SYSTEM", "TOOl", "tool", "", "developer", "ΣΑΣ", "İNFO", "\u212a", "ẞ", "Ǆ",
         "ǅ", "ſ", "ＵＳＥＲ", "<b>&", "ÄÖÜ", "\u2028", "user\u0000"]


def values():
    G = "generated:"
    for t in THINK:
        both(G + f"think = {t}", with_field(CHAT_BASE, "think", Raw(t)), with_field(GEN_BASE, "think", Raw(t)))
    for t in KEEP_ALIVE:
        both(G + f"keep_alive = {t}", with_field(CHAT_BASE, "keep_alive", Raw(t)),
             with_field(GEN_BASE, "keep_alive", Raw(t)))
    for t in FORMAT:
        both(G + f"format = {t}", with_field(CHAT_BASE, "format", Raw(t)), with_field(GEN_BASE, "format", Raw(t)))
    for t in OPTIONS:
        both(G + f"options = {t}", with_field(CHAT_BASE, "options", Raw(t)),
             with_field(GEN_BASE, "options", Raw(t)))
    for img in IMAGES:
        short = img if len(img) < 24 else img[:24] + "..."
        add(GEN, G + f"images = [{short!r}]", with_field(GEN_BASE, "images", [img]))
        add(CHAT, G + f"messages[0].images = [{short!r}]",
            {"model": MODEL, "messages": [{"role": "user", "content": "What is this?", "images": [img]}]})
    add(GEN, G + "images: a valid one, then a bad one", with_field(GEN_BASE, "images", [PNG, "aGVsbG8=!"]))
    add(GEN, G + "images: two bad ones", with_field(GEN_BASE, "images", ["a", "!!!!"]))
    add(GEN, G + "images: a number among strings", with_field(GEN_BASE, "images", [PNG, Raw("5"), "aGVsbG8="]))
    add(GEN, G + "images: null element", with_field(GEN_BASE, "images", [None, PNG]))
    for t in CONTEXT:
        add(GEN, G + f"context = {t}", with_field(GEN_BASE, "context", Raw(t)))
    for t in TOP_LOGPROBS:
        both(G + f"top_logprobs = {t}", with_field(with_field(CHAT_BASE, "logprobs", True), "top_logprobs", Raw(t)),
             with_field(with_field(GEN_BASE, "logprobs", True), "top_logprobs", Raw(t)))
    for t in ["-0", "1e2", "1.0", "1.5e300", "9223372036854775808", '"0"']:
        add(CHAT, G + f"tool_calls[0].function.index = {t}",
            set_path(CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "index"], Raw(t)))
    for r in ROLES:
        add(CHAT, G + f"role {r!r} (lowercased)", {"model": MODEL, "messages": [{"role": r, "content": "x"}]})
    for t in ['"true"', '"false"', "1", "0", "null"]:
        for f in ("stream", "truncate", "shift", "raw", "logprobs", "_debug_render_only"):
            if f != "raw":
                add(CHAT, G + f"{f} = {t}", with_field(CHAT_BASE, f, Raw(t)))
            add(GEN, G + f"{f} = {t}", with_field(GEN_BASE, f, Raw(t)))
    for f in ("suffix", "system", "template", "prompt"):
        for t in ['"<|fim|>"', '"\\u0000"', '"\\ud83d\\ude00"', "1", "null"]:
            add(GEN, G + f"{f} = {t}", with_field(GEN_BASE, f, Raw(t)))


def strings():
    """Strings: escapes, HTML, U+2028, lone surrogates (Go reads U+FFFD)."""
    G = "generated:string: "
    for what, t in [("escapes", '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t"'), ("html", '"<script>&amp;</script>"'),
                    ("separators", '"\\u2028\\u2029"'), ("raw separators", '"\u2028\u2029"'),
                    ("control escape", '"\\u0001\\u001f"'), ("del", '"\\u007f\u007f"'),
                    ("surrogate pair", '"\\ud83d\\ude00"'), ("lone high surrogate", '"\\ud800"'),
                    ("lone low surrogate", '"\\udc00"'), ("high high", '"\\ud800\\ud800"'),
                    ("high then non-surrogate", '"\\ud800\\u0041"'), ("high then private use", '"\\ud800\\ue000"'),
                    ("reversed pair", '"\\ude00\\ud83d"'), ("U+FFFD", '"\ufffd"'), ("U+FEFF", '"\ufeff"'),
                    ("non-BMP raw", '"😀𝄞"'), ("uppercase hex escape", '"\\u00E9\\u00e9"')]:
        add(CHAT, G + "content " + what,
            {"model": MODEL, "messages": [{"role": "user", "content": Raw(t)}]})
        add(GEN, G + "prompt " + what, with_field(GEN_BASE, "prompt", Raw(t)))
    # Map keys that jsonparser (go-ordered-map) unescapes itself: tool-call
    # arguments and tool properties.
    for what, k in [("escaped", '"\\u0041b"'), ("quote", '"a\\"b"'), ("backslash", '"a\\\\b"'),
                    ("slash", '"a\\/b"'), ("control", '"a\\nb\\tc"'), ("surrogate pair", '"\\ud83d\\ude00"'),
                    ("lone high surrogate", '"\\ud800"'), ("lone low surrogate", '"\\udc00"'),
                    ("high high", '"\\ud800\\ud800"'), ("high then ascii", '"\\ud800\\u0041"'),
                    ("high then private use", '"\\ud800\\ue000"'), ("high then U+FFFF", '"\\ud800\\uffff"'),
                    ("high then text", '"\\ud800x"'), ("empty", '""'), ("html", '"<&>"'), ("unicode", '"é日本"'),
                    ("separators", '"\\u2028"'), ("uppercase hex", '"\\u00C9"')]:
        args = Obj((Raw(k), "v"))
        add(CHAT, G + "arguments key " + what,
            set_path(CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "arguments"], args))
        props = Obj((Raw(k), {"type": "string"}))
        add(CHAT, G + "properties key " + what,
            set_path(CHAT_TOOLS, ["tools", 0, "function", "parameters", "properties"], props))
    for what, v in [("lone surrogate", '"\\udc00"'), ("html", '"<&>"'), ("separators", '"\\u2028"'),
                    ("escapes", '"\\"\\\\\\n"')]:
        add(CHAT, G + "arguments value " + what,
            set_path(CHAT_TOOLS, ["messages", 1, "tool_calls", 0, "function", "arguments"], Obj(("q", Raw(v)))))


def arguments():
    G = "generated:arguments: "
    A = ["messages", 1, "tool_calls", 0, "function", "arguments"]
    for what, t in [("empty", "{}"), ("order", '{"z":1,"a":2,"m":3}'), ("nested", '{"o":{"z":[1,{"y":null}],"a":true}}'),
                    ("numbers", '{"i":1,"f":1.5,"e":1e2,"n":-0,"big":12345678901234567890,"tiny":1e-7,"huge":1.5e300}'),
                    ("number overflow", '{"a":1,"x":1e400}'), ("overflow then type", '{"x":1e400}'),
                    ("duplicate key", '{"a":1,"b":2,"a":3}'), ("case keys", '{"City":"a","city":"b","CITY":"c"}'),
                    ("null value", '{"a":null}'), ("spaces", '{ "a" : 1 , "b" : [ 1 , 2 ] }'),
                    ("newlines", '{\n"a":\n1\n}'), ("json string", '"{\\"city\\":\\"Paris\\"}"'),
                    ("empty string", '""'), ("array", '[1,2]'), ("array of objects", '[{"a":1}]'),
                    ("number", "5"), ("null", "null"), ("true", "true")]:
        add(CHAT, G + what, set_path(CHAT_TOOLS, A, Raw(t)))


def properties():
    G = "generated:properties: "
    P = ["tools", 0, "function", "parameters", "properties"]
    for what, t in [
        ("type string", '{"a":{"type":"string"}}'),
        ("type array", '{"a":{"type":["string","null"]}}'),
        ("type array of one", '{"a":{"type":["integer"]}}'),
        ("type empty array", '{"a":{"type":[]}}'),
        ("type null", '{"a":{"type":null}}'),
        ("type number", '{"a":{"type":5}}'),
        ("type array of numbers", '{"a":{"type":[1,2]}}'),
        ("type array with null", '{"a":{"type":["string",null]}}'),
        ("type object", '{"a":{"type":{"t":"string"}}}'),
        ("type true", '{"a":{"type":true}}'),
        ("type empty string", '{"a":{"type":""}}'),
        ("anyOf", '{"a":{"anyOf":[{"type":"string"},{"type":"null"}]}}'),
        ("anyOf nested", '{"a":{"anyOf":[{"anyOf":[{"type":"integer"}]},{"type":["number","string"]}]}}'),
        ("anyOf bad type", '{"a":{"anyOf":[{"type":"string"},{"type":3}]}}'),
        ("anyOf null element", '{"a":{"anyOf":[null]}}'),
        ("anyof lowercase key", '{"a":{"anyof":[{"type":"string"}]}}'),
        ("enum mixed", '{"a":{"type":"string","enum":[1,"a",null,true,{"x":1},[2],1e2,-0,1.5]}}'),
        ("enum empty", '{"a":{"enum":[]}}'),
        ("enum string", '{"a":{"enum":"a"}}'),
        ("description", '{"a":{"type":"string","description":"The <b>city</b> & \\u2028"}}'),
        ("description number", '{"a":{"type":"string","description":5}}'),
        ("items", '{"a":{"type":"array","items":{"type":"string","enum":["x"]}}}'),
        ("items array", '{"a":{"type":"array","items":[{"type":"string"}]}}'),
        ("required", '{"a":{"type":"object","required":["b"],"properties":{"b":{"type":"string"}}}}'),
        ("required number", '{"a":{"type":"object","required":[1]}}'),
        ("nested", '{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"string"}}}}}}'),
        ("nested bad type", '{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":7}}}}}}'),
        ("nested bad description", '{"a":{"properties":{"b":{"description":7}}}}'),
        ("nested not object", '{"a":{"properties":{"b":"x"}}}'),
        ("nested properties array", '{"a":{"properties":[]}}'),
        ("nested properties null", '{"a":{"properties":null}}'),
        ("order", '{"z":{"type":"string"},"a":{"type":"number"},"m":{"type":"boolean"}}'),
        ("duplicate key", '{"a":{"type":"string"},"b":{"type":"number"},"a":{"type":"integer"}}'),
        ("case keys", '{"A":{"type":"string"},"a":{"type":"number"}}'),
        ("unknown keys", '{"a":{"type":"string","format":"date","minimum":1,"$ref":"#/x","default":null}}'),
        ("case-variant keys", '{"a":{"TYPE":"string","Description":"d","ENUM":["x"],"ANYOF":[{"TYPE":"null"}],"Items":1,"REQUIRED":["z"],"PROPERTIES":{"z":{}}}}'),
        ("empty property", '{"a":{}}'),
        ("null property", '{"a":null}'),
        ("description then bad type", '{"a":{"description":5,"type":5}}'),
        ("bad type then description", '{"a":{"type":5,"description":5}}'),
        ("bad enum then bad type", '{"a":{"enum":"x","type":[1]}}'),
        ("first property bad, second fine", '{"a":{"description":5},"b":{"type":"string"}}'),
        ("first fine, second bad", '{"a":{"type":"string"},"b":{"type":5}}'),
        ("two bad properties", '{"a":{"description":5},"b":{"description":true}}'),
    ]:
        add(CHAT, G + what, set_path(CHAT_TOOLS, P, Raw(t)))
    T = ["tools", 0, "function", "parameters"]
    for what, t in [
        ("parameters $defs", '{"type":"object","$defs":{"x":{"type":"string"}},"properties":{}}'),
        ("parameters $defs array", '{"type":"object","$defs":[1],"properties":{}}'),
        ("parameters items", '{"type":"array","items":{"type":"string"}}'),
        ("parameters without properties", '{"type":"object"}'),
        ("parameters properties null", '{"type":"object","properties":null}'),
        ("parameters unknown keys", '{"type":"object","additionalProperties":false,"properties":{}}'),
        ("parameters case keys", '{"TYPE":"object","$DEFS":{},"ITEMS":1,"REQUIRED":["a"],"PROPERTIES":{"a":{"type":"string"}}}'),
        ("parameters required then bad type", '{"required":"a","type":5}'),
        ("parameters bad type then properties abort", '{"type":5,"properties":[]}'),
        ("parameters properties abort then bad type", '{"properties":[],"type":5}'),
    ]:
        add(CHAT, G + what, set_path(CHAT_TOOLS, T, Raw(t)))


def multi_errors():
    """Several errors in one body, in different key orders."""
    G = "generated:errors in order: "
    c = lambda *pairs: Obj(*[(k, Raw(v)) for k, v in pairs])
    m = dump(USER)
    for what, body in [
        ("stream then model", c(("stream", '"x"'), ("model", "1"), ("messages", "[" + m + "]"))),
        ("model then stream", c(("model", "1"), ("stream", '"x"'), ("messages", "[" + m + "]"))),
        ("options then top_logprobs", c(("options", "[]"), ("top_logprobs", "1.5"), ("model", '"m"'))),
        ("top_logprobs then options", c(("top_logprobs", "1.5"), ("options", "[]"), ("model", '"m"'))),
        ("type error, then think abort", c(("model", "1"), ("think", '"x"'))),
        ("think abort, then type error", c(("think", '"x"'), ("model", "1"))),
        ("type error, then think fine", c(("model", "1"), ("think", '"high"'))),
        ("type error, then keep_alive abort", c(("stream", "1"), ("keep_alive", '"xyz"'))),
        ("keep_alive abort, then type error", c(("keep_alive", "true"), ("stream", "1"))),
        ("type error, then keep_alive 1e400", c(("stream", "1"), ("keep_alive", "1e400"))),
        ("type error, then messages abort", c(("model", "1"), ("messages", '[{"content":1}]'))),
        ("messages abort, then type error", c(("messages", '[{"content":1}]'), ("model", "1"))),
        ("type error, then messages fine", c(("model", "1"), ("messages", "[" + m + "]"))),
        ("message type error, then message abort", c(("messages", '[{"content":1,"tool_calls":[{"function":{"arguments":"x"}}]}]'))),
        ("message abort, then message type error", c(("messages", '[{"tool_calls":[{"function":{"arguments":"x"}}],"content":1}]'))),
        ("two type errors in a message", c(("messages", '[{"role":1,"content":true}]'))),
        ("two type errors in a message, reversed", c(("messages", '[{"content":true,"role":1}]'))),
        ("errors in two messages", c(("messages", '[{"content":1},{"role":2}]'))),
        ("message with bad tool call index then name", c(("messages", '[{"tool_calls":[{"function":{"index":"0","name":1}}]}]'))),
        ("message with bad tool call name then arguments abort", c(("messages", '[{"tool_calls":[{"function":{"name":1,"arguments":[]}}]}]'))),
        ("message string, then model", c(("messages", '["hi"]'), ("model", "1"))),
        ("tools type error, then properties abort", c(("tools", '[{"type":1,"function":{"parameters":{"properties":[]}}}]'))),
        ("properties abort, then tools type error", c(("tools", '[{"function":{"parameters":{"properties":[]}},"type":1}]'))),
        ("tools type error, then messages abort", c(("tools", '[{"type":1}]'), ("messages", '[{"content":1}]'))),
        ("messages abort, then tools type error", c(("messages", '[{"content":1}]'), ("tools", '[{"type":1}]'))),
        ("tool name type error, then property type abort", c(("tools", '[{"function":{"name":1,"parameters":{"properties":{"a":{"type":1}}}}}]'))),
        ("property description (saved inside), then model", c(("tools", '[{"function":{"parameters":{"properties":{"a":{"description":1}}}}}]'), ("model", "1"))),
        ("model, then property description", c(("model", "1"), ("tools", '[{"function":{"parameters":{"properties":{"a":{"description":1}}}}}]'))),
        ("think abort, then messages abort", c(("think", "1"), ("messages", '[{"content":1}]'))),
        ("messages abort, then think abort", c(("messages", '[{"content":1}]'), ("think", "1"))),
        ("format type, then options", c(("format", "5"), ("options", '"x"'))),
        ("type error then syntax error", Raw('{"model":1,"stream":tru}')),
        ("think abort then syntax error", Raw('{"think":"x","model":}')),
        ("syntax error late", Raw('{"model":1,"messages":[{"content":2}],"x":[1,2}')),
    ]:
        add(CHAT, G + what, body, raw="syntax error" in what)
    for what, body in [
        ("images (saved), then think abort", c(("images", '["!!!!"]'), ("think", '"x"'))),
        ("think abort, then images", c(("think", '"x"'), ("images", '["!!!!"]'))),
        ("images, then type error", c(("images", '["!!!!"]'), ("model", "1"))),
        ("type error, then images", c(("model", "1"), ("images", '["!!!!"]'))),
        ("context element, then prompt", c(("context", '[1,"a"]'), ("prompt", "1"))),
        ("prompt, then context element", c(("prompt", "1"), ("context", '[1,"a"]'))),
        ("context 1e2, then raw", c(("context", "[1e2]"), ("raw", '"yes"'))),
        ("type error, then keep_alive abort", c(("suffix", "1"), ("keep_alive", '"5"'))),
        ("keep_alive abort, then type error", c(("keep_alive", '"5"'), ("suffix", "1"))),
        ("images number, then images base64", c(("images", '[5,"!!!!"]'))),
        ("images base64, then images number", c(("images", '["!!!!",5]'))),
        ("system, template, suffix", c(("system", "1"), ("template", "2"), ("suffix", "3"))),
        ("type error then syntax error", Raw('{"model":1,"prompt":"x",}')),
    ]:
        add(GEN, G + what, body, raw="syntax error" in what)


def keys():
    """Key matching: case-insensitive with Unicode simple folding; unknown
    keys ignored."""
    G = "generated:keys: "
    for what, body in [
        ("MODEL", {"MODEL": "a", "messages": [USER]}),
        ("Model", {"Model": "a", "messages": [USER]}),
        ("mOdEl", {"mOdEl": "a"}),
        ("MESSAGES", {"model": "a", "MESSAGES": [USER]}),
        ("Messages, ROLE, CONTENT", {"model": "a", "Messages": [{"ROLE": "User", "CONTENT": "x"}]}),
        ("message keys folded", {"model": "a", "messages": [{"Role": "assistant", "Content": "x", "THINKING": "t",
                                                             "Images": [PNG], "TOOL_CALLS": [{"ID": "i", "FUNCTION": {
                                                                 "INDEX": 2, "NAME": "f",
                                                                 "ARGUMENTS": {"City": "P"}}}],
                                                             "Tool_Name": "f", "TOOL_CALL_ID": "i"}]}),
        ("ſtream (U+017F)", {"model": "a", "ſtream": False}),
        ("escaped \\u017ftream", Obj(("model", "a"), (Raw('"\\u017ftream"'), False))),
        ("\\u212aeep_alive (Kelvin sign)", Obj(("model", "a"), (Raw('"\\u212aeep_alive"'), "1m"))),
        ("KEEP_ALIVE", {"model": "a", "KEEP_ALIVE": "1m"}),
        ("THINK, TOOLS, OPTIONS, FORMAT", {"model": "a", "THINK": True, "TOOLS": [TOOL], "OPTIONS": {"Seed": 1},
                                           "FORMAT": "json"}),
        ("tool keys folded", {"model": "a", "tools": [{"TYPE": "function", "ITEMS": [1], "FUNCTION": {
            "NAME": "f", "DESCRIPTION": "d", "PARAMETERS": {"TYPE": "object", "$DEFS": {"a": 1}, "ITEMS": 2,
                                                             "REQUIRED": ["x"], "PROPERTIES": {"X": {"TYPE": "string"}}}}}]}),
        ("_DEBUG_RENDER_ONLY, Top_Logprobs, LOGPROBS", {"model": "a", "_DEBUG_RENDER_ONLY": True,
                                                          "Top_Logprobs": 3, "LOGPROBS": True}),
        ("TRUNCATE, SHIFT", {"model": "a", "TRUNCATE": False, "SHIFT": True}),
        ("escaped key \\u006dodel", Obj((Raw('"\\u006dodel"'), "a"))),
        ("escaped key m\\u006f\\u0064el", Obj((Raw('"m\\u006f\\u0064el"'), "a"))),
        ("meſſages", {"model": "a", "meſſages": [USER]}),
        ("dotless ı in 'thınk' (no fold)", {"model": "a", "thınk": "x"}),
        ("İ in 'thİnk' (no fold)", {"model": "a", "thİnk": "x"}),
        ("fullwidth ＭＯＤＥＬ (no fold)", {"ＭＯＤＥＬ": "a"}),
        ("trailing space 'model '", {"model ": "a"}),
        ("'models', 'mode'", {"models": "a", "mode": "b"}),
        ("keep-alive with a dash (no match)", {"model": "a", "keep-alive": "xyz"}),
        ("keepalive (no match)", {"model": "a", "keepalive": "xyz"}),
        ("debug_render_only without underscore (no match)", {"model": "a", "debug_render_only": "x"}),
        ("unknown top-level fields", {"model": "a", "foo": 1, "bar": {"x": [1, 2]}, "prompt": 5, "temperature": "x",
                                      "messages": [USER]}),
        ("unknown fields with bad types everywhere", {"model": "a", "messages": [{"role": "user", "content": "x",
                                                                                  "name": 5, "extra": [1]}],
                                                      "tools": [{"type": "function", "foo": 1, "function": {
                                                          "name": "f", "strict": "yes",
                                                          "parameters": {"type": "object", "additionalProperties": 1,
                                                                         "properties": {}}}}]}),
        ("tool_calls[].type is not a field", {"model": "a", "messages": [{"role": "assistant", "tool_calls": [
            {"type": 5, "function": {"name": "f", "arguments": {}}}]}]}),
        ("generate keys on chat", {"model": "a", "prompt": "x", "suffix": 1, "images": 5, "context": "x", "raw": "x",
                                   "system": 1, "template": 2}),
        ("model then MODEL (last wins)", Obj(("model", "a"), ("MODEL", "b"))),
        ("MODEL then model (last wins)", Obj(("MODEL", "b"), ("model", "a"))),
    ]:
        add(CHAT, G + what, body)
    for what, body in [
        ("PROMPT, ſuffix, ſyſtem, TEMPLATE", {"model": "a", "PROMPT": "p", "ſuffix": "s", "ſyſtem": "y",
                                              "TEMPLATE": "t"}),
        ("CONTEXT, IMAGES, RAW", {"model": "a", "CONTEXT": [1], "IMAGES": [PNG], "RAW": True}),
        ("ſtream, \\u212aeep_alive", Obj(("model", "a"), ("ſtream", True), (Raw('"\\u212aeep_alive"'), 5))),
        ("chat keys on generate", {"model": "a", "prompt": "x", "messages": 5, "tools": "x"}),
        ("unknown fields", {"model": "a", "prompt": "x", "n": 2, "best_of": [1]}),
    ]:
        add(GEN, G + what, body)


def nulls():
    G = "generated:nulls: "
    for what, body in [
        ("all fields null", {f: None for f in CHAT_FIELDS}),
        ("messages [null]", {"model": "a", "messages": [None]}),
        ("messages [null, user]", {"model": "a", "messages": [None, USER]}),
        ("message fields null", {"model": "a", "messages": [{k: None for k in (
            "role", "content", "thinking", "images", "tool_calls", "tool_name", "tool_call_id")}]}),
        ("images [null]", {"model": "a", "messages": [{"role": "user", "images": [None]}]}),
        ("tool_calls [null]", {"model": "a", "messages": [{"role": "assistant", "tool_calls": [None]}]}),
        ("tool call fields null", {"model": "a", "messages": [{"role": "assistant", "tool_calls": [
            {"id": None, "function": {"index": None, "name": None, "arguments": None}}]}]}),
        ("tool call function null", {"model": "a", "messages": [{"role": "assistant", "tool_calls": [
            {"function": None}]}]}),
        ("tools [null]", {"model": "a", "tools": [None]}),
        ("tool fields null", {"model": "a", "tools": [{"type": None, "items": None, "function": None}]}),
        ("function fields null", {"model": "a", "tools": [{"type": "function", "function": {
            "name": None, "description": None, "parameters": None}}]}),
        ("parameters fields null", {"model": "a", "tools": [{"type": "function", "function": {"name": "f", "parameters": {
            "type": None, "$defs": None, "items": None, "required": None, "properties": None}}}]}),
        ("property null fields", {"model": "a", "tools": [{"type": "function", "function": {"name": "f", "parameters": {
            "type": "object", "properties": {"a": {"anyOf": None, "type": None, "items": None, "description": None,
                                                   "enum": None, "properties": None, "required": None}}}}}]}),
        ("required [null]", {"model": "a", "tools": [{"type": "function", "function": {"name": "f", "parameters": {
            "type": "object", "required": [None], "properties": {}}}}]}),
        ("no tool call arguments", {"model": "a", "messages": [{"role": "assistant", "tool_calls": [
            {"function": {"name": "f"}}]}]}),
        ("no parameters", {"model": "a", "tools": [{"type": "function", "function": {"name": "f"}}]}),
    ]:
        add(CHAT, G + what, body)
    add(GEN, G + "all fields null", {f: None for f in GEN_FIELDS})
    add(GEN, G + "context [null, 1]", with_field(GEN_BASE, "context", [None, 1]))


def duplicates():
    G = "generated:duplicate keys: "
    c = lambda *pairs: Obj(*[(k, Raw(v)) for k, v in pairs])
    u = dump(USER)
    t2 = '[{"type":"a","function":{"name":"x","description":"dx"}},{"type":"b","function":{"name":"y","description":"dy"}}]'
    for what, body in [
        ("model twice", c(("model", '"a"'), ("model", '"b"'))),
        ("messages 2 then 1", c(("model", '"m"'), ("messages", "[" + u + ',{"role":"assistant","content":"a"}]'),
                                ("messages", '[{"role":"system","content":"s"}]'))),
        ("messages 2, 1, then 2 with partial fields", c(("messages", '[{"role":"a","content":"1"},{"role":"b","content":"2","thinking":"t"}]'),
                                                       ("messages", '[{"role":"c"}]'), ("messages", '[{},{"content":"x"}]'))),
        ("messages then null", c(("messages", "[" + u + "]"), ("messages", "null"))),
        ("tools 2, 1, then 2 partial (stale elements)", c(("model", '"m"'), ("tools", t2), ("tools", '[{"type":"c"}]'),
                                                          ("tools", '[{},{"function":{"description":"new"}}]'))),
        ("tools merge into existing element", c(("tools", '[{"type":"function","function":{"name":"a"}}]'),
                                                ("tools", '[{"function":{"description":"d"}}]'))),
        ("tool properties twice in one parameters", c(("tools", '[{"function":{"parameters":{"properties":{"a":{"type":"string"}},"properties":{"b":{"type":"number"}}}}}]'))),
        ("tool required twice (shorter second)", c(("tools", '[{"function":{"parameters":{"required":["a","b"],"required":["c"]}}}]'))),
        ("options merge", c(("options", '{"a":1,"b":2}'), ("options", '{"b":3,"c":4}'))),
        ("options then null", c(("options", '{"a":1}'), ("options", "null"))),
        ("options null then object", c(("options", "null"), ("options", '{"a":1}'))),
        ("think valid then invalid", c(("think", "true"), ("think", '"x"'))),
        ("think invalid then valid", c(("think", '"x"'), ("think", "true"))),
        ("think then null", c(("think", '"high"'), ("think", "null"))),
        ("keep_alive twice", c(("keep_alive", '"5m"'), ("keep_alive", "10"))),
        ("keep_alive then null", c(("keep_alive", '"5m"'), ("keep_alive", "null"))),
        ("stream true then null", c(("stream", "true"), ("stream", "null"))),
        ("stream twice", c(("stream", "false"), ("stream", "true"))),
        ("format twice", c(("format", '{"type":"object"}'), ("format", '"json"'))),
        ("format then null", c(("format", '"json"'), ("format", "null"))),
        ("role twice in a message", c(("messages", '[{"role":"USER","role":"System","content":"x"}]'))),
        ("content then CONTENT in a message", c(("messages", '[{"content":"a","CONTENT":"b"}]'))),
        ("tool_calls twice in a message (stale elements)", c(("messages", '[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"x","arguments":{"p":1}}},{"id":"b","function":{"name":"y","arguments":{"q":2}}}],"tool_calls":[{"id":"c"}],"tool_calls":[{},{}]}]'))),
        ("arguments twice in a function", c(("messages", '[{"tool_calls":[{"function":{"arguments":{"a":1},"arguments":{"b":2}}}]}]'))),
        ("duplicate keys in arguments", c(("messages", '[{"tool_calls":[{"function":{"arguments":{"a":1,"b":2,"a":3}}}]}]'))),
        ("duplicate keys in properties", c(("tools", '[{"function":{"parameters":{"properties":{"a":{"type":"string"},"b":{},"a":{"description":"d"}}}}}]'))),
        ("top_logprobs twice, bad then good", c(("top_logprobs", '"x"'), ("top_logprobs", "3"))),
    ]:
        add(CHAT, G + what, body)
    for what, body in [
        ("context 3 then 1", c(("context", "[1,2,3]"), ("context", "[9]"))),
        ("images twice", c(("images", '["' + PNG + '"]'), ("images", '["aGVsbG8="]'))),
        ("prompt twice", c(("prompt", '"a"'), ("prompt", '"b"'))),
        ("raw true then false", c(("raw", "true"), ("raw", "false"))),
        ("images bad then good", c(("images", '["!!!!"]'), ("images", '["aGVsbG8="]'))),
    ]:
        add(GEN, G + what, body)


def sdk_like():
    G = "generated:sdk-like: "
    full_chat = {
        "model": "qwen3:8b",
        "messages": [
            {"role": "system", "content": "You are helpful."},
            {"role": "user", "content": "What is the weather in Paris?", "images": [PNG]},
            {"role": "assistant", "content": "", "thinking": "Need the weather tool.", "tool_calls": [
                {"id": "call_abc", "function": {"index": 0, "name": "get_weather",
                                                "arguments": {"city": "Paris", "unit": "celsius", "days": 3}}}]},
            {"role": "tool", "content": "{\"temp\": 20}", "tool_name": "get_weather", "tool_call_id": "call_abc"},
        ],
        "tools": [TOOL, {"type": "function", "function": {"name": "noargs", "parameters": {"type": "object",
                                                                                           "properties": {}}}}],
        "stream": False,
        "format": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]},
        "keep_alive": "10m",
        "options": {"temperature": Raw("0.2"), "num_ctx": 8192, "top_k": 40, "top_p": Raw("0.9"),
                    "stop": ["</s>"], "seed": 7, "use_mmap": False, "main_gpu": 0},
        "think": "high",
        "truncate": True,
        "shift": False,
        "_debug_render_only": True,
        "logprobs": True,
        "top_logprobs": 3,
    }
    add(CHAT, G + "every field", full_chat)
    add(CHAT, G + "every field, model last", dict(list(full_chat.items())[1:] + [("model", "qwen3:8b")]))
    add(CHAT, G + "every field, pretty", json.dumps(json.loads(dump(full_chat)), indent=2, ensure_ascii=False))
    add(CHAT, G + "every field, ascii escapes", json.dumps(json.loads(dump(full_chat)), ensure_ascii=True))
    add(CHAT, G + "crlf and tabs", "{\r\n\t\"model\" :\t\"m\" ,\r\n\t\"messages\" : [ ]\r\n}")
    add(CHAT, G + "minimal", {"model": "m"})
    add(CHAT, G + "empty object", {})
    add(CHAT, G + "messages empty", {"model": "m", "messages": []})
    add(CHAT, G + "stream true", with_field(CHAT_BASE, "stream", True))
    add(CHAT, G + "think false", with_field(CHAT_BASE, "think", False))
    add(CHAT, G + "tools empty", with_field(CHAT_BASE, "tools", []))
    add(CHAT, G + "tool with items and $defs", {"model": "m", "tools": [{"type": "function", "items": {"type": "string"},
                                                                         "function": {"name": "f", "parameters": {
                                                                             "type": "object", "$defs": {"d": {"type": "string"}},
                                                                             "items": {"type": "number"},
                                                                             "properties": {"a": {"$ref": "#/$defs/d"}}}}}]})
    add(CHAT, G + "model with tag and namespace", {"model": "hf.co/user/repo:Q4_K_M", "messages": [USER]})
    add(CHAT, G + "model cloud", {"model": "gpt-oss:120b-cloud", "messages": [USER]})
    add(CHAT, G + "long conversation", {"model": "m", "messages": [
        {"role": ["user", "assistant"][i % 2], "content": f"turn {i}"} for i in range(12)]})
    full_gen = {
        "model": "codellama:7b-code",
        "prompt": "def fib(n):",
        "suffix": "    return result",
        "system": "You write Python.",
        "template": "{{ .Prompt }}",
        "context": [1, 2, 3, 42],
        "stream": False,
        "raw": True,
        "format": "json",
        "keep_alive": 0,
        "images": [PNG],
        "options": {"temperature": 0, "num_predict": 128, "stop": ["\n\n"]},
        "think": False,
        "truncate": False,
        "shift": True,
        "_debug_render_only": False,
        "logprobs": True,
        "top_logprobs": 20,
    }
    add(GEN, G + "every field", full_gen)
    add(GEN, G + "every field, pretty", json.dumps(full_gen, indent=2))
    add(GEN, G + "minimal", {"model": "m"})
    add(GEN, G + "empty object", {})
    add(GEN, G + "load model (no prompt)", {"model": "m", "keep_alive": -1})
    add(GEN, G + "unload model", {"model": "m", "keep_alive": 0})
    add(GEN, G + "format schema", with_field(GEN_BASE, "format", {"type": "object", "properties": {
        "age": {"type": "integer"}}, "required": ["age"]}))


def raw_bodies():
    G = "generated:raw: "
    for what, body in [
        ("empty", ""),
        ("space", " "),
        ("newlines", "\n\r\n\t"),
        ("top-level array", "[]"),
        ("top-level array of object", '[{"model":"m"}]'),
        ("top-level string", '"model"'),
        ("top-level empty string", '""'),
        ("top-level number", "5"),
        ("top-level negative zero", "-0"),
        ("top-level 1e2", "1e2"),
        ("top-level number then junk", "5x"),
        ("top-level true", "true"),
        ("top-level false", "false"),
        ("top-level null", "null"),
        ("top-level null then object", 'null {"model":"m"}'),
        ("nul", "nul"),
        ("nulx", "nulx"),
        ("open brace", "{"),
        ("open brace and key", '{"model"'),
        ("open brace, key, colon", '{"model":'),
        ("unterminated string", '{"model":"m'),
        ("unterminated array", '{"model":"m","messages":['),
        ("missing value", '{"model":}'),
        ("trailing comma", '{"model":"m",}'),
        ("missing comma", '{"model":"m" "prompt":"x"}'),
        ("single quotes", "{'model':'m'}"),
        ("unquoted key", "{model:\"m\"}"),
        ("trailing data", '{"model":"m"}garbage'),
        ("two objects", '{"model":"a"}{"model":"b"}'),
        ("object then whitespace and junk", '{"model":"m"} ]'),
        ("close brace", "}"),
        ("byte-order mark", "\ufeff{\"model\":\"m\"}"),
        ("NaN", '{"model":"m","options":{"t":NaN}}'),
        ("Infinity", '{"model":"m","options":{"t":Infinity}}'),
        ("leading plus", '{"model":"m","top_logprobs":+1}'),
        ("leading zero", '{"model":"m","top_logprobs":01}'),
        ("bare dot", '{"model":"m","top_logprobs":.5}'),
        ("trailing dot", '{"model":"m","top_logprobs":1.}'),
        ("exponent without digits", '{"model":"m","top_logprobs":1e}'),
        ("hex", '{"model":"m","top_logprobs":0x10}'),
        ("raw newline in string", '{"model":"a\nb"}'),
        ("raw tab in string", '{"model":"a\tb"}'),
        ("bad escape", '{"model":"a\\xb"}'),
        ("short unicode escape", '{"model":"\\u12"}'),
        ("bad unicode escape", '{"model":"\\u12g4"}'),
        ("comment", '{"model":"m" /* c */}'),
        ("true misspelt", '{"stream":tru}'),
        ("TRUE", '{"stream":TRUE}'),
        ("nested unclosed", '{"messages":[{"role":"user"]}'),
        ("nesting depth 200", "{\"options\":" + "[" * 199 + "]" * 199 + "}"),
        ("nesting depth 10000", "{\"options\":" + "[" * 9999 + "]" * 9999 + "}"),
        ("nesting depth 10001", "{\"options\":" + "[" * 10000 + "]" * 10000 + "}"),
        ("nesting depth 10001 in an unknown field", "{\"x\":" + "[" * 10000 + "]" * 10000 + "}"),
        ("NUL byte", '{"model":"m"}\u0000'),
        ("NUL before", '\u0000{"model":"m"}'),
    ]:
        add(CHAT, G + what, body, raw=True)
        add(GEN, G + what, body, raw=True)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_native_cases.py CASES.jsonl")
    ported()
    matrix()
    values()
    strings()
    arguments()
    properties()
    multi_errors()
    keys()
    nulls()
    duplicates()
    sdk_like()
    raw_bodies()
    counts = {CHAT: 0, GEN: 0}
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        for endpoint in (CHAT, GEN):
            for case in CASES:
                if case["endpoint"] != endpoint:
                    continue
                counts[endpoint] += 1
                out = {"id": f"{endpoint}-{counts[endpoint]}", **case}
                f.write(json.dumps(out, ensure_ascii=False) + "\n")
    print(f"{sum(counts.values())} native cases: chat {counts[CHAT]}, generate {counts[GEN]} "
          f"({len(DUPLICATES)} repeated bodies left out)", file=sys.stderr)


if __name__ == "__main__":
    main()
