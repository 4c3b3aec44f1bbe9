#!/usr/bin/env python3
"""Generate the input cases for crates/gotmpl/tests/golden/extra.jsonl.

Writes JSON lines (id, template, data, [options], [delims]) sorted by id to
stdout; the Go harness in this directory then records what real Go does:

    python3 tools/gotmpl-harness/gen_cases.py \
        | go -C tools/gotmpl-harness run . > crates/gotmpl/tests/golden/extra.jsonl

The cases mirror the tables in Go's own tests (text/template/exec_test.go,
parse/lex_test.go, parse/parse_test.go, fmt/fmt_test.go), restricted to what
can be expressed with JSON data and Go's builtin functions, plus matrices
(verb x value, operator x operand pair, escaper x string, ...).

Every case is generated here; nothing in the expectations is written by hand.
The script is deterministic: the same script gives the same bytes.
Ids are unique and start with "x-" so they never collide with the shared
corpus (corpus/golden/gotemplate.jsonl). A case identical to one generated
earlier (same template, data, options and delims) is skipped, so matrices
may overlap the hand-written lists without producing duplicates; --stats
lists the skipped ids.

Only the Python standard library is used. The "x-ollama" group reads Ollama's
built-in templates from --ollama-dir (default: ../shared/corpus/ollama/
v0.33.0-rc2/template relative to the repository root).
"""

import argparse
import json
import os
import re
import sys

CASES = {}
SEEN = {}
DUPLICATES = []


def slug(*parts):
    """A readable id fragment: runs of other characters become '-'."""
    out = "-".join(re.sub(r"[^A-Za-z0-9._]+", "-", p).strip("-") for p in parts if p)
    return re.sub(r"-+", "-", out).strip("-")[:48] or "empty"


def dumps(v):
    return json.dumps(v, ensure_ascii=False)


def add(cid, template, data=None, options=None, delims=None, *, nodata=False):
    """Register one case. data=None means the standard payload STD unless
    nodata=True (then "data": null)."""
    if data is None and not nodata:
        data = STD
    if cid in CASES:
        raise SystemExit(f"duplicate id {cid}")
    if not cid.startswith("x-") or "/" not in cid:
        raise SystemExit(f"bad id {cid}")
    key = (template, dumps(data), tuple(options or ()), tuple(delims or ()))
    if key in SEEN:
        DUPLICATES.append(f"{cid} (same as {SEEN[key]})")
        return
    SEEN[key] = cid
    case = {"id": cid, "template": template, "data": data}
    if options:
        case["options"] = list(options)
    if delims:
        case["delims"] = list(delims)
    CASES[cid] = case


# ---------------------------------------------------------------------------
# Data payloads

# The main payload of the shared corpus (corpus/golden/gotemplate.jsonl).
STD = {
    "s": "hello", "e": "", "n": 3, "z": 0, "f": 2.5, "neg": -4, "big": 1e21,
    "t": True, "F": False, "nul": None,
    "l": [1, "two", 3.5, None, True], "el": [],
    "m": {"b": 2, "a": 1, "c": {"d": "deep"}}, "em": {},
    "nested": {"x": {"y": {"z": "bottom"}}, "list": [[1, 2], [3, [4, 5]]]},
    "users": [
        {"name": "Ann", "age": 31, "tags": ["a", "b"]},
        {"name": "Bob", "age": 27, "tags": []},
        {"name": "Cy", "age": 45},
    ],
}

# Keys that are template keywords or look like other tokens.
KW = {k: i for i, k in enumerate(
    ["if", "else", "end", "range", "with", "define", "block", "template",
     "break", "continue", "nil", "true", "false", "and", "len", "print"], 1)}

# A small conversation shaped like the data Ollama gives its templates.
CONV = {
    "System": "You are helpful.",
    "Prompt": "",
    "Response": "",
    "Messages": [
        {"Role": "system", "Content": "You are helpful."},
        {"Role": "user", "Content": "Hi <there> & \"friends\""},
        {"Role": "assistant", "Content": "Hello! How can I help?"},
        {"Role": "user", "Content": "What's the weather in Paris?"},
        {"Role": "assistant", "Content": "", "ToolCalls": [
            {"Function": {"Name": "get_weather",
                          "Arguments": {"city": "Paris", "unit": "celsius"}}}]},
        {"Role": "tool", "Content": "{\"temp\": 21}"},
        {"Role": "user", "Content": "Thanks.\nBye."},
    ],
    "Tools": [
        {"Type": "function", "Function": {
            "Name": "get_weather", "Description": "Get the weather",
            "Parameters": {"Type": "object", "Required": ["city"],
                           "Properties": {
                               "city": {"Type": "string", "Description": "City name"},
                               "unit": {"Type": "string", "Description": "Unit",
                                        "Enum": ["celsius", "fahrenheit"]}}}}},
    ],
    "Think": False, "ThinkLevel": "", "IsThinkSet": False, "Suffix": "",
}

CONV_EMPTY = {"System": "", "Prompt": "", "Response": "", "Messages": [],
              "Tools": None, "Think": False, "ThinkLevel": "",
              "IsThinkSet": False, "Suffix": ""}

CONV_PROMPT = {"System": "Be terse.", "Prompt": "Why is the sky blue?",
               "Response": "", "Messages": None, "Tools": None,
               "Think": True, "ThinkLevel": "high", "IsThinkSet": True,
               "Suffix": ""}

CONV_SIMPLE = {
    "System": "", "Prompt": "", "Response": "",
    "Messages": [{"Role": "user", "Content": "Hello"}],
    "Tools": [], "Think": False, "ThinkLevel": "", "IsThinkSet": False,
    "Suffix": "",
}

CONV_RESP = {
    "System": "sys", "Prompt": "", "Response": "partial answer",
    "Messages": [{"Role": "system", "Content": "sys"},
                 {"Role": "user", "Content": "q1"},
                 {"Role": "assistant", "Content": "a1"},
                 {"Role": "user", "Content": "q2"},
                 {"Role": "assistant", "Content": "partial answer"}],
    "Tools": None, "Think": False, "ThinkLevel": "", "IsThinkSet": False,
    "Suffix": "",
}

# exec_test.go's TestTree, as JSON.
def tree(v, left=None, right=None):
    return {"Val": v, "Left": left, "Right": right}


TREE = tree(1, tree(2, tree(3, tree(4)), tree(5, tree(6))),
            tree(7, tree(8, tree(9)), tree(10, tree(11))))

# Strings for escaping matrices: name -> value.
TRICKY = [
    ("plain", "plain text"),
    ("lt-gt", "<b>bold</b>"),
    ("amp", "fish & chips &amp; more"),
    ("dq", 'say "hi"'),
    ("sq", "it's"),
    ("eq", "a=b"),
    ("backslash", "C:\\path\\to"),
    ("backtick", "`code`"),
    ("plus-space", "a+b c"),
    ("query", "q=1&r=2#frag?x"),
    ("slash-colon", "http://example.com/a b"),
    ("pct", "100% sure %41"),
    ("nl-tab-cr", "line1\nline2\tx\ry"),
    ("nul-ctrl", "\u0000\u0001\u001f"),
    ("del", "\u007f"),
    ("latin1", "caf\u00e9 na\u00efve"),
    ("cjk", "\u65e5\u672c\u8a9e"),
    ("emoji", "\U0001f680\U0001f600"),
    ("zwsp-bom", "a\u200bb\ufeffc"),
    ("ls-ps", "x\u2028y\u2029z"),
    ("nbsp", "a\u00a0b"),
    ("fffe", "\ufffe\uffff"),
    ("script", "</script><script>alert('x')</script>"),
    ("entity", "&#x27;&lt;"),
    ("tilde-etc", "~!*()-_.'"),
    ("empty", ""),
    ("spaces", "   "),
    ("combining", "e\u0301"),
    ("rtl", "\u05e9\u05dc\u05d5\u05dd"),
    ("c1-ctrl", "\u0085\u009f"),
]


# ---------------------------------------------------------------------------
# x-lex: lexer behaviour (parse/lex_test.go and friends)

def gen_lex():
    g = "x-lex/"
    # The lexTests table, adapted to run through Parse+Execute.
    add(g + "spaces-only", " \t\n")
    add(g + "text-with-comment", "hello-{{/* this is a comment */}}-world")
    add(g + "punctuation", "{{,@% }}")
    add(g + "parens", "{{((3))}}")
    add(g + "for-identifier", "{{for}}")
    add(g + "block-keyword", '{{block "foo" .}}{{.s}}{{end}}')
    add(g + "quote-escapes", '{{"abc \\n\\t\\" "}}')
    add(g + "raw-quote", '{{`abc\\n\\t\\" `}}')
    add(g + "raw-quote-newline", "{{`now is{{\n}}the time`}}")
    add(g + "numbers-all", "{{print 1 02 0x14 0X14 -7.2i 1e3 1E3 +1.2e-4 4.2i 1+2i 1_2 0x1.e_fp4 0X1.E_FP4}}")
    add(g + "characters-all", "{{print 'a' '\\n' '\\'' '\\\\' '\\u00FF' '\\xFF' '\u672c'}}")
    add(g + "bools", "{{print true false}}")
    add(g + "dot", "{{.}}", {"k": "v"})
    add(g + "nil-alone", "{{nil}}")
    add(g + "dots", "{{.x . .2 .x.y.z}}")
    add(g + "keywords-in-action", "{{range if else end with}}")
    add(g + "variables-undefined", "{{$c := printf $ $hello $23 $ $var.Field .Method}}")
    add(g + "variable-invocation", "{{$x := 1}}{{$x 23}}")
    add(g + "pipeline-undefined-func", 'intro {{echo hi 1.2 |noargs|args 1 "hi"}} outro')
    add(g + "declaration", "{{$v := 3}}")
    add(g + "two-declarations", "{{$v , $w := 3}}")
    add(g + "field-of-paren", "{{(.X).Y}}", {"X": {"Y": "why"}})
    add(g + "trim-before-after", "hello- {{- 3 -}} -world")
    add(g + "trim-comment-before-after", "hello- {{- /* hello */ -}} -world")
    add(g + "badchar-ctrl", "#{{\u0001}}")
    add(g + "unclosed-action-bare", "{{")
    add(g + "eof-in-action", "{{range")
    add(g + "unclosed-quote-newline", '{{"\n"}}')
    add(g + "unclosed-raw-quote", "{{`xx}}")
    add(g + "unclosed-char-newline", "{{'\n}}")
    add(g + "bad-number-3k", "{{3k}}")
    add(g + "unclosed-paren", "{{(3}}")
    add(g + "extra-right-paren", "{{3)}}")
    add(g + "long-pipeline", "{{|||||}}")
    add(g + "bad-comment", "hello-{{/*/}}-world")
    add(g + "comment-close-separated", "hello-{{/* */ }}-world")
    add(g + "unmatched-right-delim", "hello-{.}}-world")
    add(g + "longcomment-line", '{{/*\n*/}}\n{{undefinedFunction "test"}}')
    add(g + "trimafter-lines", "{{.s -}}\n{{.n}}")
    add(g + "trimbefore-lines", "{{.s}}\n{{- .n}}")
    add(g + "sample-identifier", "0123{{hello}}xyz")

    # Trim markers need exactly one ASCII space/tab/CR/LF next to the dash.
    for name, t in [
        ("minus-number", "{{-3}}"),
        ("minus-space-number", "{{- 3}}"),
        ("minus-tab-number", "{{-\t3}}"),
        ("minus-nl-number", "{{-\n3}}"),
        ("minus-cr-number", "{{-\r3}}"),
        ("minus-nbsp", "{{-\u00a03}}"),
        ("minus-minus-number", "{{- -3 -}}"),
        ("number-minus", "{{3-}}"),
        ("number-space-minus", "{{3 -}}"),
        ("number-tab-minus", "{{3\t-}}"),
        ("number-space-minus-space", "{{3 - }}"),
        ("minus-dot-field", "{{-.s}}"),
        ("minus-space-field", "{{- .s}}"),
        ("field-minus", "{{.s-}}"),
        ("double-dash", "{{-- 3}}"),
        ("minus-comment-nospace", "{{-/* c */}}"),
        ("comment-minus-nospace", "{{/* c */-}}"),
        ("only-trim-markers", "a {{- -}} b"),
        ("only-left-trim", "a {{- }} b"),
        ("minus-alone", "{{-}}"),
        ("minus-space-alone", "{{ - }}"),
        ("plus-number", "{{+3}}"),
        ("plus-space", "{{+ 3}}"),
    ]:
        add(g + "trim-" + name, "a " + t + " b")

    # Comments.
    for name, t in [
        ("empty", "{{/**/}}"),
        ("spaces-inside", "{{/*   */}}"),
        ("leading-space", "x{{  /* c */  }}y"),
        ("trailing-space", "{{/* c */ }}"),
        ("two-comments", "{{/* a */ /* b */}}"),
        ("comment-then-action", "{{/* a */ .s}}"),
        ("delims-inside", "{{/* {{ .s }} */}}"),
        ("close-inside", "{{/* }} */}}"),
        ("nested-open", "{{/* /* */}}"),
        ("nested-close", "{{/* */ */}}"),
        ("multiline", "{{/*\nline\n*/}}x"),
        ("multiline-crlf", "{{/*\r\nline\r\n*/}}x"),
        ("unclosed-multiline", "{{/*\n\n"),
        ("star-slash-only", "{{*/}}"),
        ("slash-only", "{{/}}"),
        ("comment-in-if", "{{if .t}}{{/* c */}}y{{end}}"),
        ("comment-between-else", "{{if .F}}a{{/* c */}}{{else}}{{/* d */}}b{{end}}"),
        ("comment-trim-both", "x  {{- /* c */ -}}  y"),
        ("comment-trim-left-only", "x  {{- /* c */}}  y"),
        ("comment-trim-right-only", "x  {{/* c */ -}}  y"),
        ("comment-trim-newlines", "x\n\n{{- /* c */ -}}\n\ny"),
        ("comment-right-trim-no-space", "x {{- /* c */-}} y"),
        ("comment-unicode", "{{/* \u65e5\u672c \U0001f680 */}}ok"),
    ]:
        add(g + "comment-" + name, t)

    # Character constants.
    for name, lit in [
        ("a", "'a'"), ("nl", "'\\n'"), ("tab", "'\\t'"), ("quote", "'\\''"),
        ("dquote-plain", "'\"'"), ("dquote-esc", "'\\\"'"),
        ("backslash", "'\\\\'"), ("hex", "'\\x41'"), ("hex-ff", "'\\xff'"),
        ("octal", "'\\101'"), ("u4", "'\\u00e9'"), ("u8", "'\\U0001F600'"),
        ("cjk", "'\u672c'"), ("emoji", "'\U0001f680'"), ("space", "' '"),
        ("bell", "'\\a'"), ("zero", "'\\000'"),
        ("empty", "''"), ("two-chars", "'ab'"), ("bad-escape", "'\\q'"),
        ("short-hex", "'\\x4'"), ("surrogate", "'\\ud800'"),
        ("too-big-u8", "'\\U00110000'"), ("huge", "'433937734937734969526500969526500'"),
        ("unterminated", "'a"), ("unterminated-esc", "'\\'"),
    ]:
        add(g + "char-" + name, "{{" + lit + "}}|{{printf \"%T %q\" " + lit + " " + lit + "}}")

    # Interpreted string literals.
    for name, lit in [
        ("hex", '"\\x41\\x42"'), ("octal", '"\\101\\102"'),
        ("u4", '"\\u00e9\\u65e5"'), ("u8", '"\\U0001F600"'),
        ("all-simple", '"\\a\\b\\f\\n\\r\\t\\v\\\\\\""'),
        ("single-quote-esc", '"\\\'"'), ("bad-escape", '"\\q"'),
        ("short-hex", '"\\x4"'), ("short-u", '"\\u12"'), ("surrogate", '"\\ud800"'),
        ("octal-too-big", '"\\400"'), ("raw-newline", '"a\nb"'),
        ("delims-inside", '"{{.s}}"'), ("close-delim-inside", '"}}"'),
        ("empty", '""'), ("unicode-raw", '"caf\u00e9 \U0001f680"'),
        ("tab-raw", '"a\tb"'), ("nul-escape", '"a\\x00b"'),
    ]:
        add(g + "string-" + name, "[{{" + lit + "}}]")
    add(g + "string-invalid-utf8-len", '{{len "\\xff\\xfe"}}')
    add(g + "string-invalid-utf8-printf-x", '{{printf "%x" "\\xff"}}')
    add(g + "string-invalid-utf8-q", '{{printf "%q" "\\xffa"}}')
    # html and js pass invalid UTF-8 bytes through unchanged; shown via %q
    # because a JSON string cannot hold the raw bytes.
    add(g + "string-invalid-utf8-html", '{{printf "%q" (html "<\\xff>")}}')
    add(g + "string-invalid-utf8-js", '{{printf "%q" (js "a\\xffb\'")}}')
    add(g + "string-invalid-utf8-urlquery", '{{urlquery "\\xff"}}')

    # Raw strings.
    for name, lit in [
        ("simple", "`abc`"), ("backslashes", "`a\\nb\\t`"), ("quotes", "`\"'`"),
        ("multiline", "`a\nb\nc`"), ("crlf", "`a\r\nb`"), ("delims", "`{{ }}`"),
        ("empty", "``"), ("unicode", "`\u00e9\u65e5`"),
    ]:
        add(g + "raw-" + name, "[{{" + lit + "}}]")

    # Identifiers and fields.
    idents = {"\u00e9t\u00e9": "summer", "a1": "A1", "A_b": "Ab", "_x": "under",
              "x-y": "dash", "\u65e5": "sun", "CamelCase": "camel", "x": {"1": "one", "y": {"z": "zz"}}}
    for name, t in [
        ("unicode-field", "{{.\u00e9t\u00e9}}"), ("digit-field", "{{.a1}}"),
        ("underscore-mid", "{{.A_b}}"), ("underscore-first", "{{._x}}"),
        ("dash-field", "{{.x-y}}"), ("cjk-field", "{{.\u65e5}}"),
        ("camel", "{{.CamelCase}}"), ("camel-wrong-case", "{{.camelcase}}"),
        ("numeric-key", "{{.x.1}}"), ("double-dot", "{{.x..y}}"),
        ("dot-space-field", "{{. x}}"), ("trailing-dot", "{{.x.}}"),
        ("chain", "{{.x.y.z}}"), ("chain-missing", "{{.x.q.z}}"),
        ("field-hash", "{{.x#}}"), ("field-bang", "{{.x!}}"),
        ("field-at", "{{.x@y}}"), ("field-comma", "{{.x,.y}}"),
        ("field-colon", "{{.x:}}"), ("field-paren", "{{.x(.y)}}"),
        ("field-pipe-nospace", "{{.CamelCase|len}}"),
        ("dollar-field-unicode", "{{$.\u00e9t\u00e9}}"),
    ]:
        add(g + "ident-" + name, t, idents)
    for name, t in [
        ("var-unicode", "{{$\u00e9 := 1}}{{$\u00e9}}"),
        ("var-underscore", "{{$_ := 2}}{{$_}}"),
        ("var-digit", "{{$1 := 3}}{{$1}}"),
        ("var-digit-first-long", "{{$1a := 4}}{{$1a}}"),
        ("var-hash", "{{$x# := 1}}"),
        ("var-no-space-declare", "{{$x:=5}}{{$x}}"),
        ("var-space-before-declare", "{{$x :=6}}{{$x}}"),
        ("var-space-after-declare", "{{$x:= 7}}{{$x}}"),
        ("var-assign-no-space", "{{$x:=1}}{{$x=2}}{{$x}}"),
        ("var-colon-space-eq", "{{$x : = 1}}"),
        ("var-double-declare", "{{$x ::= 1}}"),
        ("var-field-no-space", "{{$x := .m}}{{$x.a}}"),
        ("dollar-dollar", "{{$$}}"),
        ("dollar-dot", "{{$.}}"),
        ("dollar-space-dot", "{{$ .}}"),
        ("func-unicode-name", "{{pr\u00efnt 1}}"),
        ("func-with-dot", "{{print.s}}"),
        ("keyword-prefix", "{{iffy}}"),
        ("true-prefix", "{{truex}}"),
        ("nil-capital", "{{Nil}}"),
        ("true-capital", "{{True}}"),
    ]:
        add(g + "ident-" + name, t)

    # Keywords as map keys.
    for k in KW:
        add(g + "keyword-key-" + k, "{{." + k + "}}", KW)
    add(g + "keyword-key-dollar-range", "{{$.range}}-{{$.end}}", KW)
    add(g + "keyword-key-chain", "{{.if.else}}", {"if": {"else": "nested"}})

    # Characters that the lexer rejects or emits as itemChar.
    for ch in "!#%&*+,;<=>?@[\\]^~{}":
        add(g + "char-in-action-%02x" % ord(ch), "{{.s " + ch + "}}")
    for name, ch in [("nbsp", "\u00a0"), ("zwsp", "\u200b"), ("tab-vertical", "\u000b"),
                     ("formfeed", "\u000c"), ("emoji", "\U0001f680"), ("del", "\u007f"),
                     ("ideographic-space", "\u3000")]:
        add(g + "char-in-action-" + name, "{{.s" + ch + "}}")

    # Delimiter look-alikes in text.
    for name, t in [
        ("lone-close", "a }} b }}"), ("lone-open-brace", "a { b"),
        ("triple-open", "{{{.s}}"), ("triple-close", "{{.s}}}"),
        ("quad", "{{{{.s}}}}"), ("close-then-open", "}}{{.s}}{{"),
        ("brace-space-brace", "{ {.s} }"), ("crlf-around", "\r\n{{.s}}\r\n"),
        ("action-crlf-inside", "{{\r\n.s\r\n}}"), ("action-tabs-inside", "{{\t.s\t}}"),
    ]:
        add(g + "text-" + name, t)


# ---------------------------------------------------------------------------
# x-number: number literal syntax and types (parse_test.go numberTests)

NUMBER_LITERALS = [
    ("zero", "0"), ("neg-zero", "-0"), ("d73", "73"), ("d7_3", "7_3"),
    ("bin", "0b10_010_01"), ("BIN", "0B10_010_01"), ("oct-legacy", "073"),
    ("oct", "0o73"), ("OCT", "0O73"), ("hex", "0x73"), ("HEX", "0X73"),
    ("hex-underscore", "0x7_3"), ("neg", "-73"), ("plus", "+73"), ("d100", "100"),
    ("e9", "1e9"), ("neg-e9", "-1e9"), ("neg-float", "-1.2"), ("e19", "1e19"),
    ("e1_9", "1e1_9"), ("E19", "1E19"), ("neg-e19", "-1e19"), ("hexfloat-p4", "0x_1p4"),
    ("HEXFLOAT-P4", "0X_1P4"), ("hexfloat-neg-exp", "0x_1p-4"), ("imag", "4i"),
    ("complex", "-1.2+4.2i"), ("imag-leading-zero", "073i"), ("imag-zero", "0i"),
    ("complex-zero-imag-float", "-1.2+0i"), ("complex-zero-imag-int", "-12+0i"),
    ("complex-13", "13+0i"), ("oct-0123", "0123"), ("neg-hex-zero", "-0x0"),
    ("deadbeef", "0xdeadbeef"), ("hex-ef", "0xef"), ("hex-EE", "0xEE"),
    ("float-1.0", "1.0"), ("float-e1", "1e1"), ("float-dot5", ".5"), ("float-5dot", "5."),
    ("float-neg-dot5", "-.5"), ("float-exp-neg", "2.5e-3"), ("float-E-plus", "1E+2"),
    ("max-int64", "9223372036854775807"), ("min-int64", "-9223372036854775808"),
    ("int64-plus1", "9223372036854775808"), ("max-uint64", "18446744073709551615"),
    ("uint64-plus1", "18446744073709551616"), ("hex-max-uint64", "0xFFFFFFFFFFFFFFFF"),
    ("hex-8000", "0x8000000000000000"), ("big-float-e308", "1e308"),
    ("float-overflow", "1e309"), ("float-underflow", "1e-400"), ("tiny", "5e-324"),
    ("d2p53", "9007199254740993"), ("float-2p53", "9007199254740993.0"),
    ("leading-zero-8", "08"), ("leading-zero-09.5", "09.5"), ("leading-zeros-float", "0_0_1_2_3.4"),
    ("hexfloat-frac", "+0x1.ep+2"), ("hexfloat-underscores", "+0x_1.e_0p+0_2"),
    ("HEXFLOAT-frac", "+0X1.EP+2"), ("float-underscores", "7.5_00_00_00"),
    ("rune-a", "'a'"), ("rune-max", "'\\U0010FFFF'"),
]

BAD_NUMBERS = [
    ("plus-minus", "+-2"), ("hex-dot", "0x123."), ("e-dot", "1e."), ("hex-i-dot", "0xi."),
    ("complex-dot", "1+2."), ("double-underscore", "1__0"), ("trailing-underscore", "10_"),
    ("hex-empty", "0x"), ("bin-2", "0b2"), ("oct-8", "0o8"), ("e-only", "1e"),
    ("hex-p-no-exp", "0x1p"), ("letters", "12abc"), ("two-dots", "1.2.3"),
    ("underscore-after-0x", "0x_"), ("dot-dot", "..5"), ("minus-minus", "--5"),
    ("complex-no-i", "1+2"), ("i-twice", "1ii"), ("hex-e-float", "0x1e+2"),
    ("float-hex-exp", "1p4"), ("imag-hex", "0x10i"), ("dollar-number", "$1.5"),
]


def gen_numbers():
    g = "x-number/"
    for name, lit in NUMBER_LITERALS:
        add(g + name, "{{" + lit + "}}|{{printf \"%T\" " + lit + "}}|{{print " + lit + "}}")
    for name, lit in BAD_NUMBERS:
        add(g + "bad-" + name, "{{print " + lit + "}}")
    # Where typed literals meet functions.
    for name, t in [
        ("int-as-index", "{{index .l 1}}"),
        ("hex-as-index", "{{index .l 0x2}}"),
        ("float-as-index", "{{index .l 1.0}}"),
        ("float-exp-as-index", "{{index .l 1e0}}"),
        ("rune-as-index", "{{index \"abc\" 'a'}}"),
        ("complex-as-index", "{{index .l 1i}}"),
        ("complex-zero-imag-as-index", "{{index .l 2+0i}}"),
        ("neg-as-index", "{{index .l -1}}"),
        ("big-as-index", "{{index .l 9223372036854775807}}"),
        ("uint-as-index", "{{index .l 18446744073709551615}}"),
        ("int-as-slice-index", "{{slice .s 1 0x3}}"),
        ("float-as-slice-index", "{{slice .s 1.5}}"),
        ("len-literal", "{{len 12}}"),
        ("print-typed", "{{print 1 2.0 'c' 3i \"s\" true nil}}"),
        ("printf-T-all", "{{printf \"%T %T %T %T %T %T\" 1 2.0 'c' 3i \"s\" true}}"),
        ("overflow-in-pipeline", "{{18446744073709551615 | print}}"),
        ("overflow-as-arg", "{{print 18446744073709551615}}"),
        ("int64-min-minus1", "{{print -9223372036854775809}}"),
        ("range-over-literal-float", "{{range 2.0}}x{{end}}"),
        ("range-over-literal-rune", "{{range 'c'}}.{{end}}"),
        ("range-over-literal-hex", "{{range 0x3}}{{.}}{{end}}"),
        ("if-complex-zero", "{{if 0i}}y{{else}}n{{end}}"),
        ("if-float-zero", "{{if 0.0}}y{{else}}n{{end}}"),
        ("if-neg-zero-float", "{{if -0.0}}y{{else}}n{{end}}"),
        ("print-neg-zero-float", "{{print -0.0}}|{{-0.0}}|{{printf \"%v\" -0.0}}"),
        ("print-neg-zero-int", "{{print -0}}|{{printf \"%T\" -0}}"),
        ("eq-int-rune", "{{eq 97 'a'}}"),
        ("eq-hex-int", "{{eq 0x10 16}}"),
        ("eq-float-exp", "{{eq 1e3 1000.0}}"),
        ("eq-int-exp", "{{eq 1e3 1000}}"),
        ("eq-imag", "{{eq 1i 1i}}"),
    ]:
        add(g + "use-" + name, t)


# ---------------------------------------------------------------------------
# x-parse: parse errors and parse-time behaviour (parse_test.go, parse.go)

def gen_parse():
    g = "x-parse/"
    # parseTests (noError entries, adapted to the JSON payload).
    ok = [
        ("comment-only", "{{/*\n\n\n*/}}"),
        ("simple-command", "{{printf}}"),
        ("dollar-invocation", "{{$}}"),
        ("variable-invocation-with", "{{with $x := 3}}{{$x 23}}{{end}}"),
        ("variable-with-fields", "{{$.n}}"),
        ("multi-word-command", "{{printf `%d` 23}}"),
        ("pipeline-field-into-field", "{{.s|.m}}"),
        ("pipeline-with-decl", "{{$x := .s|len}}{{$x}}"),
        ("nested-pipeline", "{{print (.s) (.n | print) (.l | len) (.e)}}"),
        ("field-applied-to-parens", "{{(index .users 1).name}}"),
        ("if-else-if", "{{if .F}}true{{else if .t}}else-if{{end}}"),
        ("if-else-chain", "+{{if .F}}X{{else if .z}}Y{{else if .n}}Z{{end}}+"),
        ("chained-field-range", "{{range .nested.list}}[{{.}}]{{end}}"),
        ("nested-range", "{{range .users}}{{.name}}:{{range .tags}}{{.}}{{end}};{{end}}"),
        ("range-over-pipeline", "{{range .m|len}}{{.}}{{else}}false{{end}}"),
        ("range-2-vars", "{{range $x, $y := .l}}{{$x}}{{end}}"),
        ("constants", "{{range .el 1 -3.2i true false 'a' nil}}{{end}}"),
        ("template-raw-name", "{{define `x`}}X{{end}}{{template `x`}}"),
        ("template-with-arg", "{{define \"x\"}}{{.}}{{end}}{{template `x` .n}}"),
        ("with-else-with", "{{with .e}}hello{{else with .s}}goodbye {{.}}{{end}}"),
        ("with-else-chain", "{{with .z}}X{{else with .F}}Y{{else with .n}}Z{{.}}{{end}}"),
        ("trim-left-crlf", "x \r\n\t{{- 3}}"),
        ("trim-right-lines", "{{3 -}}\n\n\ty"),
        ("trim-both", "x \r\n\t{{- 3 -}}\n\n\ty"),
        ("trim-extra-spaces", "x\n{{-  3   -}}\ny"),
        ("comment-trim-left", "x \r\n\t{{- /* hi */}}"),
        ("comment-trim-right", "{{/* hi */ -}}\n\n\ty"),
        ("block-definition", '{{block "foo" .}}hello {{.s}}{{end}}'),
        ("newline-in-assignment", "{{ $x \n := \n 1 \n }}{{$x}}"),
        ("newline-in-pipeline", "{{\n\"x\"\n|\nprintf\n}}"),
        ("newline-in-comment-trim", "a {{-\n/*\nhello\n*/\n-}} b"),
        ("spaces-around-continue", "{{range .l}}{{.}}{{ continue }}{{end}}"),
        ("spaces-around-break", "{{range .l}}{{.}}{{ break }}{{end}}"),
        ("bug0a", "{{$x := 0}}{{$x}}"),
        ("bug1c", "{{$x:=.n}}{{$x +2}}"),
        ("bug2a", "{{range $x := 0}}{{$x}}{{end}}"),
        ("bug2b", "{{$x := 9}}{{range $x = 0}}{{$x}}{{end}}"),
        ("bug2b-undeclared", "{{range $x = 0}}{{$x}}{{end}}"),
        ("paren-nesting-2", "{{ (( 1 )) }}"),
        ("paren-nesting-3-pipeline", "{{ ((( 1 ))) | printf }}"),
        ("paren-nesting-if", "{{ if ((( true ))) }}YES{{ end }}"),
        ("is-empty-definitions", "{{define `x`}}something{{end}}\n\n{{define `y`}}something{{end}}\n\n"),
        ("is-empty-definitions-text", "{{define `x`}}something{{end}}\nx\n{{define `y`}}something{{end}}\ny\n"),
        ("definition-and-action", "{{define `x`}}something{{end}}{{if 3}}foo{{end}}"),
        ("line-numbers-printf", "{{printf 1234}}\n{{printf 1234}}\n{{printf 1234}}\n"),
    ]
    for name, t in ok:
        add(g + name, t)

    errs = [
        # parseTests error entries
        ("empty-action-newline", "{{\n}}"),
        ("unclosed-action-range", "hello{{range"),
        ("unmatched-end", "{{end}}"),
        ("unmatched-else", "{{else}}"),
        ("unmatched-else-after-if", "{{if .t}}hello{{end}}{{else}}"),
        ("multiple-else", "{{if .t}}1{{else}}2{{else}}3{{end}}"),
        ("missing-end", "hello{{range .l}}"),
        ("missing-end-after-else", "hello{{range .l}}{{else}}"),
        ("undefined-function", "hello{{undefined}}"),
        ("undefined-variable-x", "{{$x}}"),
        ("variable-undefined-after-end", "{{with $x := 4}}{{end}}{{$x}}"),
        ("variable-undefined-in-template", "{{template $v}}"),
        ("declare-with-field", "{{with $x.Y := 4}}{{end}}"),
        ("template-with-field-ref", "{{template .X}}"),
        ("invalid-punctuation", "{{printf 3, 4}}"),
        ("multidecl-outside-range", "{{with $v, $u := 3}}{{end}}"),
        ("too-many-decls-in-range", "{{range $u, $v, $w := 3}}{{end}}"),
        ("dot-applied-to-parentheses", "{{printf (printf .).}}"),
        ("adjacent-args", "{{printf 3`x`}}"),
        ("adjacent-args-with-dot", "{{printf `x`.}}"),
        ("extra-end-after-if", "{{if .t}}a{{else if .F}}b{{end}}{{end}}"),
        ("break-outside-range", "{{range .l}}{{end}} {{break}}"),
        ("continue-outside-range", "{{range .l}}{{end}} {{continue}}"),
        ("break-in-range-else", "{{range .l}}{{else}}{{break}}{{end}}"),
        ("continue-in-range-else", "{{range .l}}{{else}}{{continue}}{{end}}"),
        ("break-in-define-in-range", "{{range .l}}{{end}}{{define \"x\"}}{{break}}{{end}}"),
        ("break-in-with", "{{with .s}}{{break}}{{end}}"),
        ("bug0b-plus-assign", "{{$x := 0}}{{$x += 1}}{{$x}}"),
        ("bug0c-bang", "{{$x := 0}}{{$x ! 2}}{{$x}}"),
        ("bug0d-percent", "{{$x := 0}}{{$x % 3}}{{$x}}"),
        ("bug0e-range-chain", "{{range $x := $y := 3}}{{end}}"),
        ("bug1a", "{{$x:=.}}{{$x!2}}"),
        ("bug1b", "{{$x:=.}}{{$x+2}}"),
        ("dot-after-integer", "{{1.E}}"),
        ("dot-after-float", "{{0.1.E}}"),
        ("dot-after-boolean", "{{true.E}}"),
        ("dot-after-char", "{{'a'.any}}"),
        ("dot-after-string", '{{"hello".guys}}'),
        ("dot-after-dot", "{{..E}}"),
        ("dot-after-nil", "{{nil.E}}"),
        ("dot-after-raw-string", "{{`x`.y}}"),
        ("dot-after-paren-ok", "{{(.m).a}}"),
        ("wrong-pipeline-dot", "{{12|.}}"),
        ("wrong-pipeline-number", "{{.|12|printf}}"),
        ("wrong-pipeline-string", '{{.|printf|"error"}}'),
        ("wrong-pipeline-char", "{{12|printf|'e'}}"),
        ("wrong-pipeline-boolean", "{{.|true}}"),
        ("wrong-pipeline-nil", "{{'c'|nil}}"),
        ("wrong-pipeline-paren", "{{1|(print)}}"),
        ("wrong-pipeline-var", "{{$x := 1}}{{2|$x}}"),
        ("empty-pipeline-in-printf", '{{printf "%d" ( ) }}'),
        ("empty-paren", "{{ ( ) }}"),
        ("block-missing-pipeline", '{{block "foo"}}hello{{end}}'),
        ("paren-nesting-in-if-ok", "{{ if (((( true )))) }}YES{{ end }}"),
        # errorTests
        ("unclosed1", "line1\n{{"),
        ("unclosed2", "line1\n{{define `x`}}line2\n{{"),
        ("unclosed3", 'line1\n{{"x"\n"y"\n'),
        ("unclosed4", "{{\n\n\n\n\n"),
        ("var1", "line1\n{{\nx\n}}"),
        ("comment1", "{{/*}}"),
        ("comment2", "{{/*\nhello\n}}"),
        ("lparen", "{{.X (1 2 3}}"),
        ("rparen", "{{.X 1 2 3 ) }}"),
        ("rparen2", "{{(.X 1 2 3"),
        ("space", "{{`x`3}}"),
        ("idchar", "{{a#}}"),
        ("charconst", "{{'a}}"),
        ("stringconst", '{{"a}}'),
        ("rawstringconst", "{{`a}}"),
        ("number-0xi", "{{0xi}}"),
        ("multidefine", "{{define `a`}}a{{end}}{{define `a`}}b{{end}}"),
        ("eof-range", "{{range .X}}"),
        ("variable-decl-on-field", "{{$x := 23}}{{with $x.y := 3}}{{$x 23}}{{end}}"),
        ("multidecl-3", "{{$a,$b,$c := 23}}"),
        ("undefvar", "{{$a}}"),
        ("wrongdot", "{{true.any}}"),
        ("wrongpipeline", "{{12|false}}"),
        ("emptypipeline", "{{ ( ) }}x"),
        ("multilinerawstring", "{{ $v := `\n` }} {{"),
        ("rangeundefvar", "{{range $k}}{{end}}"),
        ("rangeundefvars", "{{range $k, $v}}{{end}}"),
        ("rangemissingvalue1", "{{range $k,}}{{end}}"),
        ("rangemissingvalue2", "{{range $k, $v := }}{{end}}"),
        ("rangenotvariable1", "{{range $k, .}}{{end}}"),
        ("rangenotvariable2", "{{range $k, 123 := .}}{{end}}"),
        # Every message in parse.go / lex.go, in several contexts.
        ("unexpected-eof-with", "{{with .s}}x"),
        ("unexpected-eof-else", "{{if .t}}x{{else}}y"),
        ("unexpected-eof-else-if", "{{if .t}}x{{else if .F}}y"),
        ("unexpected-eof-else-with", "{{with .s}}x{{else with .F}}y"),
        ("unexpected-eof-nested", "{{range .l}}{{if .}}{{with .}}x{{end}}{{end}}"),
        ("unexpected-eof-define-nested", '{{define "a"}}{{if .}}x{{end}}'),
        ("unexpected-end-in-define-top", '{{define "a"}}x{{end}}{{end}}'),
        ("unexpected-else-top", "x{{else}}y"),
        ("unexpected-else-if-top", "x{{else if .t}}y{{end}}"),
        ("unexpected-else-in-define", '{{define "a"}}x{{else}}y{{end}}'),
        ("expected-end-found-else-with", "{{with .s}}a{{else}}b{{else}}c{{end}}"),
        ("expected-end-found-else-if", "{{if .t}}a{{else}}b{{else if .F}}c{{end}}"),
        ("else-with-in-if", "{{if .t}}a{{else with .s}}b{{end}}"),
        ("else-if-in-with", "{{with .s}}a{{else if .t}}b{{end}}"),
        ("else-range", "{{if .t}}a{{else range .l}}b{{end}}"),
        ("else-garbage", "{{if .t}}a{{else .s}}b{{end}}"),
        ("end-with-args", "{{if .t}}a{{end .s}}"),
        ("else-with-args", "{{if .t}}a{{else 1}}b{{end}}"),
        ("missing-value-range", "{{range}}{{end}}"),
        ("missing-value-range-decl", "{{range $x :=}}{{end}}"),
        ("missing-value-if-decl", "{{if $x :=}}{{end}}"),
        ("missing-value-with-decl", "{{with $x := }}{{end}}"),
        ("missing-value-command-decl", "{{$x :=}}"),
        ("missing-value-paren", "{{print ()}}"),
        ("missing-value-pipe-end", "{{.s |}}"),
        ("missing-value-pipe-double", "{{.s || len}}"),
        ("missing-value-else-if", "{{if .F}}a{{else if}}b{{end}}"),
        ("missing-value-else-with", "{{with .F}}a{{else with}}b{{end}}"),
        ("template-no-end", '{{template "x" .s'),
        ("template-two-args", '{{define "x"}}{{end}}{{template "x" .s .n}}'),
        ("template-number-name", "{{template 1}}"),
        ("template-bad-quoted-name", '{{template "\\q"}}'),
        ("define-bad-quoted-name", '{{define "\\q"}}x{{end}}'),
        ("define-number-name", "{{define 1}}x{{end}}"),
        ("define-var-name", "{{define $x}}x{{end}}"),
        ("define-in-range", '{{range .l}}{{define "x"}}{{end}}{{end}}'),
        ("define-in-define", '{{define "a"}}{{define "b"}}{{end}}{{end}}'),
        ("define-trim-ok", '{{- define "a" -}}  A  {{- end -}}  {{template "a"}}'),
        ("block-in-block-ok", '{{block "a" .}}A{{block "b" .}}B{{end}}{{end}}'),
        ("block-bad-name", "{{block .s .}}x{{end}}"),
        ("block-unterminated-name", '{{block "b}}x{{end}}'),
        ("block-extra-arg", '{{block "b" . 1}}x{{end}}'),
        ("block-pipeline", '{{block "b" .s | len}}{{.}}{{end}}'),
        ("too-many-declarations-if", "{{if $a, $b := 1}}{{end}}"),
        ("too-many-declarations-command", "{{$a, $b := 1}}"),
        ("too-many-declarations-range-assign", "{{$a := 1}}{{$b := 2}}{{$c := 3}}{{range $a, $b, $c = .l}}{{end}}"),
        ("range-assign-two-ok", "{{$a := 0}}{{$b := 0}}{{range $a, $b = .l}}{{end}}{{$a}}:{{$b}}"),
        ("range-decl-comma-no-space", "{{range $i,$v := .l}}{{$i}}{{end}}"),
        ("range-decl-trailing-comma-var", "{{range $i, $v, := .l}}{{end}}"),
        ("range-decl-extra-assign", "{{range $i := := .l}}{{end}}"),
        ("decl-not-variable", "{{.s := 1}}"),
        ("decl-number", "{{1 := 1}}"),
        ("assign-undeclared", "{{$x = 1}}"),
        ("assign-in-paren", "{{($x := 1)}}"),
        ("decl-in-paren-arg", "{{print ($x := 1) $x}}"),
        ("decl-then-pipe-undefined", "{{$x := $x}}"),
        ("expected-colon-eq", "{{$x :+ 1}}"),
        ("expected-colon-eq-eof", "{{$x :"),
        ("lone-equals", "{{= 1}}"),
        ("double-equals", "{{$x := 1}}{{$x == 1}}"),
        ("unclosed-left-paren-nested", "{{print (print (1)}}"),
        ("unclosed-left-paren-in-if", "{{if (eq 1 1}}y{{end}}"),
        ("unexpected-right-paren-nested", "{{print (1))}}"),
        ("unexpected-right-paren-first", "{{)}}"),
        ("unexpected-paren-after-term", "{{print 1(2)}}"),
        ("unclosed-action-in-text", "a {{ .s b"),
        ("unclosed-action-in-define", '{{define "x"}}{{'),
        ("unclosed-action-multiline-string", '{{ print "a\nb" }}'),
        ("unterminated-string-multiline-action", '{{ print\n"abc }}'),
        ("unterminated-raw-multiline", "{{ print\n`abc }}"),
        ("unterminated-char-multiline", "{{ print\n'a }}"),
        ("bad-number-multiline-action", "{{ print\n\n3k }}"),
        ("unclosed-comment-line3", "a\nb\n{{/* c"),
        ("comment-ends-before-delim-text", "{{/* c */ .s}}"),
        ("comment-ends-before-delim-trim", "{{/* c */ - }}"),
        ("comment-ends-multiline", "{{/* c\n*/ x}}"),
        ("unrecognized-char-multiline", "{{ print\n\u2603 }}"),
        ("bad-character-identifier", "{{print$}}"),
        ("bad-character-field", "{{.s$}}"),
        ("bad-character-variable", "{{$x := 1}}{{$x$}}"),
        ("bad-character-unicode-field", "{{.s\u2603}}"),
        ("unexpected-in-command-colon", "{{print :}}"),
        ("unexpected-in-command-char", "{{print ,}}"),
        ("unexpected-in-operand-equals", "{{print =}}"),
        ("unexpected-declare-in-operand", "{{print := 1}}"),
        ("unexpected-else-in-operand", "{{print else}}"),
        ("unexpected-range-in-operand", "{{print range}}"),
        ("unexpected-template-in-command", '{{print template "x"}}'),
        ("unexpected-block-in-operand", '{{print block}}'),
        ("unexpected-with-after-pipe", "{{.s | with}}"),
        ("unexpected-define-after-text", 'x{{define "a"}}A{{end}}{{template "a"}}'),
        ("unexpected-define-in-if", '{{if .t}}{{define "a"}}{{end}}{{end}}'),
        ("non-executable-stage-3", "{{.s | len | 5}}"),
        ("non-executable-string-first-ok", '{{"abc" | len}}'),
        ("non-executable-dollar", "{{.s | $}}"),
        ("non-executable-paren-field", "{{.s | (.m)}}"),
        ("function-not-defined-in-paren", "{{print (foo)}}"),
        ("function-not-defined-after-pipe", "{{.s | foo}}"),
        ("function-not-defined-in-define", '{{define "x"}}\n\n{{bar}}{{end}}'),
        ("function-not-defined-unused-branch", "{{if false}}{{nosuch}}{{end}}"),
        ("function-named-like-builtin-case", "{{Print 1}}"),
        ("undefined-variable-in-range-after-loop", "{{range $i, $v := .l}}{{end}}{{$i}}"),
        ("undefined-variable-in-define", '{{$x := 1}}{{define "d"}}{{$x}}{{end}}'),
        ("undefined-variable-after-with-else", "{{with $x := .s}}{{else}}{{$x}}{{end}}"),
        ("variable-visible-in-else", "{{if $x := .z}}{{else}}[{{$x}}]{{end}}"),
        ("variable-visible-in-else-with", "{{with $x := .z}}a{{else}}[{{$x}}]{{end}}"),
        ("variable-visible-in-range-else", "{{range $x := .el}}{{else}}[{{$x}}]{{end}}"),
        ("variable-declared-in-if-not-after", "{{if true}}{{$y := 1}}{{end}}{{$y}}"),
        ("variable-in-paren-defined", "{{$x := 1}}{{print ($x)}}"),
        ("variable-dollar-chain", "{{$.m.c.d}}"),
        ("keyword-end-as-function", "{{end 1}}"),
        ("keyword-if-in-pipeline", "{{.s | if}}"),
        ("nil-as-command-in-pipe", "{{.s | nil}}"),
        ("nil-in-paren-command", "{{(nil)}}"),
        ("nil-as-arg", "{{print nil}}"),
        ("dot-as-command-args", "{{. 1}}"),
        ("string-as-command-args", '{{"x" 1}}'),
        ("bool-as-command-args", "{{true 1}}"),
        ("number-as-command-args", "{{1 2}}"),
        ("paren-as-command-args", "{{(1) 2}}"),
        ("paren-no-args", "{{(1)}}"),
        ("variable-as-command-args", "{{$ 1}}"),
        ("field-chain-on-paren-var", "{{($).m.c.d}}"),
        ("field-chain-on-paren-dollar-pipe", "{{($ | print).s}}"),
        ("field-on-paren-string-exec", '{{("x").y}}'),
        ("field-on-paren-number-exec", "{{(1).y}}"),
        ("field-on-paren-nil", "{{(nil).y}}"),
        ("field-on-var-nil", "{{$x := nil}}{{$x.y}}"),
        ("field-on-var-float-literal", "{{$x := (1.0)}}{{$x.anything}}"),
        ("field-on-var-string-literal", '{{$y := ("hello")}}{{$y.true}}'),
        ("action-only-spaces-newlines", "{{ \n \t }}"),
        ("action-only-comment-and-value", "{{/* c */}}{{.s}}"),
    ]
    for name, t in errs:
        add(g + name, t)

    # Line numbers in parse errors.
    for n in (1, 2, 5, 10):
        pre = "line\n" * (n - 1)
        add(g + "line-%d-undefined-function" % n, pre + "{{ nope }}")
        add(g + "line-%d-unclosed" % n, pre + "{{ .s | len ")
        add(g + "line-%d-unexpected-eof" % n, pre + "{{ if .t }}")
    add(g + "line-after-multiline-action", "{{ print\n.s\n}}\n{{ nope }}")
    add(g + "line-after-multiline-string-in-define", '{{define "x"}}{{`a\nb`}}{{end}}\n{{ nope }}')
    add(g + "line-after-crlf", "a\r\nb\r\n{{ nope }}")
    add(g + "line-after-trimmed-newlines", "a\n\n{{- nope -}}\n\n")
    add(g + "line-unclosed-action-started-multi", "a\n{{ print\n.s\n")
    add(g + "line-unterminated-quote-started", 'a\n{{ print\n"abc\n}}')
    add(g + "line-in-action-started-bad-number", "{{ print\n0x\n}}")

    # Expression depth limit (parse.maxStackDepth = 10000).
    add(g + "paren-depth-10000", "{{" + "(" * 10000 + "1" + ")" * 10000 + "}}")
    add(g + "paren-depth-10001", "{{" + "(" * 10001 + "1" + ")" * 10001 + "}}")
    add(g + "paren-depth-10001-in-if", "{{if " + "(" * 10001 + "1" + ")" * 10001 + "}}y{{end}}")


# ---------------------------------------------------------------------------
# x-exec: execution semantics (exec_test.go execTests)

def gen_exec():
    g = "x-exec/"
    T = [
        # fields and maps
        ("field-s", "-{{.s}}-"),
        ("field-nested-3", "{{.nested.x.y.z}}"),
        ("field-missing-top", "{{.nope}}"),
        ("field-missing-nested", "{{.m.nope}}"),
        ("field-missing-deep", "{{.m.nope.deeper}}"),
        ("field-on-null", "{{.nul.x}}"),
        ("field-on-missing-then-field", "{{.nope.x}}"),
        ("field-on-string", "{{.s.len}}"),
        ("field-on-number", "{{.n.x}}"),
        ("field-on-list", "{{.l.x}}"),
        ("field-on-empty-map", "{{.em.x}}"),
        ("field-with-args", "{{.m.a 1}}"),
        ("field-with-pipe-arg", "{{1 | .m.a}}"),
        ("field-missing-with-args", "{{.m.nope 1}}"),
        ("field-map-print", "{{.m}}"),
        ("field-map-nested-print", "{{.nested}}"),
        ("field-users-print", "{{.users}}"),
        ("field-list-print", "{{.l}}"),
        ("field-null-print", "{{.nul}}"),
        ("field-empty-list-print", "{{.el}}"),
        ("field-empty-map-print", "{{.em}}"),
        ("field-big", "{{.big}}"),
        ("field-neg", "{{.neg}}"),
        ("field-bools", "{{.t}} {{.F}}"),
        # dot and $
        ("dot-std", "{{with .m.c}}{{.}}{{end}}"),
        ("dollar-in-with", "{{with .m}}{{$.s}}{{.a}}{{end}}"),
        ("dollar-in-range", "{{range .l}}{{$.s}}{{end}}"),
        ("dollar-in-nested-range", "{{range .users}}{{range .tags}}{{$.n}}{{.}}{{end}}{{end}}"),
        ("dollar-redeclare", "{{$ := 5}}{{$}}"),
        ("dollar-assign", "{{$ = 6}}{{$}}{{.s}}"),
        ("dollar-field-after-assign", "{{$ = .m}}{{$.a}}"),
        ("dollar-in-template", '{{define "d"}}{{$}}{{end}}{{template "d" .n}}'),
        ("paren-dot", "{{(.).s}}"),
        ("paren-dollar", "{{($).s}}"),
        ("paren-dollar-pipe", "{{($ | print)}}"),
        ("paren-field-chain", "{{(.m).c.d}}"),
        ("paren-index-chain", "{{(index .users 0).tags}}"),
        ("paren-index-chain-2", "{{(index .nested.list 1 1).x}}"),
        ("paren-var-chain", "{{$u := index .users 2}}{{($u).name}}"),
        ("paren-result-missing-field", "{{(index .users 2).tags}}"),
        ("paren-print-result-field", '{{(print "x").y}}'),
        ("paren-len-result-field", "{{(len .s).y}}"),
        ("paren-nested-three", "{{((.m).c).d}}"),
        ("field-on-nil-data-dot", "{{.x}}"),
        # variables
        ("var-declare-print", "{{$x := .s}}{{$x}}"),
        ("var-declare-no-output", "a{{$x := 1}}b"),
        ("var-simple-assign", "{{$x := 2}}{{$x = 3}}{{$x}}"),
        ("var-assign-no-output", "{{$x := 1}}a{{$x = 5}}b{{$x}}"),
        ("var-nested-assign", "{{$x := 2}}{{if true}}{{$x = 3}}{{end}}{{$x}}"),
        ("var-nested-assign-changes-last", "{{$x := 1}}{{if true}}{{$x := 3}}{{end}}{{$x}}"),
        ("var-shadow-inner", "{{$x := 1}}{{if true}}{{$x := 3}}{{$x}}{{end}}{{$x}}"),
        ("var-shadow-assign-inner", "{{$x := 1}}{{if true}}{{$x := 3}}{{$x = 4}}{{$x}}{{end}}{{$x}}"),
        ("var-assign-in-range", "{{$sum := 0}}{{range .l}}{{$sum = .}}{{end}}{{$sum}}"),
        ("var-assign-in-range-count", "{{$c := \"\"}}{{range .users}}{{$c = print $c .name}}{{end}}{{$c}}"),
        ("var-assign-in-with", "{{$x := 1}}{{with .s}}{{$x = .}}{{end}}{{$x}}"),
        ("var-if-x-with-y", "{{if $x := true}}{{with $y := .n}}{{$x}},{{$y}}{{end}}{{end}}"),
        ("var-if-x-with-x", "{{if $x := true}}{{with $x := .n}}{{$x}},{{end}}{{$x}}{{end}}"),
        ("var-with-dollar-struct", "{{with $x := $}}{{$x.m.a}}{{end}}"),
        ("var-with-variable-and-action", "{{with $x := $}}{{$y := $.s}}{{$y}}{{end}}"),
        ("var-holds-map", "{{$m := .m}}{{$m.a}}-{{$m.c.d}}"),
        ("var-holds-list", "{{$l := .l}}{{index $l 1}}-{{len $l}}"),
        ("var-missing-field", "{{$m := .m}}{{$m.zz}}"),
        ("var-field-on-string", "{{$s := .s}}{{$s.x}}"),
        ("var-call-as-function", "{{$x := .s}}{{$x 1}}"),
        ("var-pipe-into-var", "{{$x := 1}}{{3 | $x}}"),
        ("var-two-in-one-scope", "{{$a := 1}}{{$b := 2}}{{$a}}{{$b}}{{$a = $b}}{{$a}}"),
        ("var-redeclare-same-scope", "{{$a := 1}}{{$a := 2}}{{$a}}"),
        ("var-reassign-type-change", "{{$a := 1}}{{$a = \"s\"}}{{$a}}{{$a = .l}}{{$a}}"),
        ("var-range-persist-issue56490", "{{$i := 0}}{{$x := 0}}{{range $i = .l}}{{end}}{{$i}}"),
        ("var-range-assign-two-issue60801", "{{$k := 0}}{{$v := 0}}{{range $k, $v = .l}}{{$k}}={{$v}} {{end}}"),
        ("var-range-assign-one-elem", "{{$v := 0}}{{range $v = .users}}{{end}}{{$v.name}}"),
        ("var-range-decl-scoped", "{{$v := \"outer\"}}{{range $v := .l}}{{end}}{{$v}}"),
        ("var-range-decl-in-body", "{{range $x := .l}}<{{$foo := $x}}{{$foo}}>{{end}}"),
        ("var-declared-in-range-body-reset", "{{range .l}}{{$y := .}}{{$y}},{{end}}"),
        ("var-in-if-cond-scope", "{{if $x := .s}}{{$x}}{{end}}"),
        ("var-in-if-cond-false", "{{if $x := .e}}{{$x}}{{else}}else[{{$x}}]{{end}}"),
        ("var-in-with-else-if-chain", "{{with $x := .z}}a{{else with $y := .s}}{{$x}}/{{$y}}{{end}}"),
        ("var-decl-pipeline-value", "{{$x := .s | len}}{{$x}}"),
        ("var-decl-result-of-eq", "{{$x := eq .s \"hello\"}}{{if $x}}yes{{end}}"),
        ("var-decl-nil", "{{$x := nil}}[{{$x}}]"),
        ("var-decl-missing", "{{$x := .nope}}[{{$x}}]"),
        ("var-decl-null", "{{$x := .nul}}[{{$x}}]{{print $x}}"),
        # if / else if
        ("if-true-lit", "{{if true}}TRUE{{end}}"),
        ("if-false-else", "{{if false}}TRUE{{else}}FALSE{{end}}"),
        ("if-nil-lit", "{{if nil}}TRUE{{end}}"),
        ("if-1", "{{if 1}}NON-ZERO{{else}}ZERO{{end}}"),
        ("if-0", "{{if 0}}NON-ZERO{{else}}ZERO{{end}}"),
        ("if-1.5", "{{if 1.5}}NON-ZERO{{else}}ZERO{{end}}"),
        ("if-1.5i", "{{if 1.5i}}NON-ZERO{{else}}ZERO{{end}}"),
        ("if-empty-string-lit", "{{if ``}}NON-EMPTY{{else}}EMPTY{{end}}"),
        ("if-string-lit", "{{if `notempty`}}NON-EMPTY{{else}}EMPTY{{end}}"),
        ("if-map-unset", "{{if .m.none}}NON-ZERO{{else}}ZERO{{end}}"),
        ("if-not-map-unset", "{{if not .m.none}}ZERO{{else}}NON-ZERO{{end}}"),
        ("if-else-if-chain-eq", "{{if eq 1 3}}1{{else if eq 2 3}}2{{else if eq 3 3}}3{{end}}"),
        ("if-else-if-else", "{{if .F}}a{{else if .z}}b{{else}}c{{end}}"),
        ("if-else-if-first-true", "{{if .t}}a{{else if .nope.x}}b{{end}}"),
        ("if-else-if-error-in-second", "{{if .F}}a{{else if index .l 10}}b{{end}}"),
        ("if-else-if-long", "{{if eq .n 1.0}}one{{else if eq .n 2.0}}two{{else if eq .n 3.0}}three{{else}}many{{end}}"),
        ("if-nested", "{{if .t}}{{if .F}}x{{else}}{{if .n}}deep{{end}}{{end}}{{end}}"),
        ("if-pipeline-cond", "{{if .s | len}}len>0{{end}}"),
        ("if-and-or", "{{if and .t (or .F .n)}}yes{{end}}"),
        ("if-with-decl-and-pipe", "{{if $n := len .l | eq 5}}{{$n}}{{end}}"),
        ("if-error-partial", "start{{if .t}} in {{index .s 99}}{{end}}"),
        ("if-cond-not-bool-ok", "{{if .users}}users{{end}}"),
        # with
        ("with-true", "{{with true}}{{.}}{{end}}"),
        ("with-false-else", "{{with false}}{{.}}{{else}}FALSE{{end}}"),
        ("with-1", "{{with 1}}{{.}}{{else}}ZERO{{end}}"),
        ("with-0", "{{with 0}}{{.}}{{else}}ZERO{{end}}"),
        ("with-1.5", "{{with 1.5}}{{.}}{{else}}ZERO{{end}}"),
        ("with-1.5i", "{{with 1.5i}}{{.}}{{else}}ZERO{{end}}"),
        ("with-emptystring", "{{with ``}}{{.}}{{else}}EMPTY{{end}}"),
        ("with-string", "{{with `notempty`}}{{.}}{{else}}EMPTY{{end}}"),
        ("with-slice", "{{with .l}}{{.}}{{else}}EMPTY{{end}}"),
        ("with-map-one", "{{with .m.c}}{{.}}{{else}}EMPTY{{end}}"),
        ("with-x-int", "{{with $x := .n}}{{$x}}{{end}}"),
        ("with-else-with", "{{with 0}}{{.}}{{else with true}}{{.}}{{end}}"),
        ("with-else-with-chain", "{{with 0}}{{.}}{{else with false}}{{.}}{{else with `notempty`}}{{.}}{{end}}"),
        ("with-else-with-chain-else", "{{with 0}}a{{else with false}}b{{else with ``}}c{{else}}d{{.}}{{end}}"),
        ("with-else-dot-unchanged", "{{with .nope}}x{{else}}{{.s}}{{end}}"),
        ("with-nested-dot", "{{with .nested}}{{with .x}}{{with .y}}{{.z}}{{end}}{{end}}{{end}}"),
        ("with-null", "{{with .nul}}x{{else}}null is false{{end}}"),
        ("with-missing", "{{with .nope}}x{{else}}missing is false{{end}}"),
        ("with-pipeline", "{{with .users | len}}{{.}} users{{end}}"),
        ("with-error-partial", "a{{with .m}}b{{.a.b}}{{end}}"),
        # range
        ("range-list", "{{range .l}}-{{.}}-{{end}}"),
        ("range-empty-no-else", "{{range .el}}-{{.}}-{{end}}"),
        ("range-list-else", "{{range .l}}-{{.}}-{{else}}EMPTY{{end}}"),
        ("range-empty-else", "{{range .el}}-{{.}}-{{else}}EMPTY{{end}}"),
        ("range-break-else", "{{range .l}}-{{.}}-{{break}}NOTREACHED{{else}}EMPTY{{end}}"),
        ("range-continue-else", "{{range .l}}-{{.}}-{{continue}}NOTREACHED{{else}}EMPTY{{end}}"),
        ("range-map", "{{range .m}}-{{.}}-{{end}}"),
        ("range-map-keys", "{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}"),
        ("range-map-one-var", "{{range $v := .m}}{{$v}};{{end}}"),
        ("range-empty-map-else", "{{range .em}}x{{else}}EMPTY{{end}}"),
        ("range-null", "{{range .nul}}x{{else}}null-else{{end}}"),
        ("range-missing", "{{range .nope}}x{{else}}missing-else{{end}}"),
        ("range-nil-literal", "{{range nil}}x{{end}}"),
        ("range-string-error", "{{range .s}}x{{end}}"),
        ("range-float-data-error", "{{range .n}}x{{end}}"),
        ("range-bool-error", "{{range .t}}x{{end}}"),
        ("range-float-literal-error", "{{range 1.5}}x{{end}}"),
        ("range-string-literal-error", "{{range \"abc\"}}x{{end}}"),
        ("range-x-list", "{{range $x := .l}}<{{$x}}>{{end}}"),
        ("range-x-y-list", "{{range $x, $y := .l}}<{{$x}}={{$y}}>{{end}}"),
        ("range-index-type", "{{range $i, $e := .l}}{{printf \"%T\" $i}}{{end}}"),
        ("range-key-type", "{{range $k, $e := .m}}{{printf \"%T\" $k}}{{end}}"),
        ("range-dot-is-elem", "{{range .users}}{{.name}}{{end}}"),
        ("range-dot-missing-field", "{{range .users}}[{{.tags}}]{{end}}"),
        ("range-nested-lists", "{{range .nested.list}}({{range .}}{{.}},{{end}}){{end}}"),
        ("range-nested-break-inner", "{{range .nested.list}}({{range .}}{{.}}{{break}}{{end}}){{end}}"),
        ("range-nested-continue-inner", "{{range $i, $e := .l}}{{if eq $i 1 3}}{{continue}}{{end}}{{$i}}{{end}}"),
        ("range-break-in-if", "{{range $i, $e := .l}}{{if eq $i 2}}{{break}}{{end}}{{$e}},{{end}}"),
        ("range-break-in-with", "{{range .users}}{{with .tags}}{{break}}{{end}}{{.name}}{{end}}"),
        ("range-continue-in-with", "{{range .users}}{{with .tags}}{{continue}}{{end}}{{.name}}{{end}}"),
        ("range-break-in-nested-if-else", "{{range .l}}{{if not .}}{{break}}{{else}}{{.}};{{end}}{{end}}"),
        ("range-continue-all", "{{range .l}}{{continue}}{{.}}{{end}}done"),
        ("range-break-first-map", "{{range $k, $v := .m}}{{$k}}{{break}}{{end}}"),
        ("range-else-not-after-break", "{{range .l}}{{break}}{{else}}EMPTY{{end}}|"),
        ("range-pipeline", "{{range .users | len}}{{.}}{{end}}"),
        ("range-paren", "{{range (index .nested.list 1)}}[{{.}}]{{end}}"),
        ("range-error-partial", "{{range .l}}{{.}};{{len .}}{{end}}"),
        ("range-var-dollar-inside", "{{range $i, $u := .users}}{{$i}}:{{$.s}}:{{$u.name}} {{end}}"),
        ("range-over-map-of-maps", "{{range $k, $v := .nested}}{{$k}}={{$v}};{{end}}"),
        ("range-over-sorted-keys", "{{range $k, $v := .}}{{$k}},{{end}}"),
        # range over integers (Go 1.22+)
        ("range-int-5", "{{range 5}}{{.}}{{end}}"),
        ("range-int-0-else", "{{range 0}}{{.}}{{else}}empty{{end}}"),
        ("range-int-neg-else", "{{range -3}}{{.}}{{else}}negative{{end}}"),
        ("range-int-var", "{{range $v := 3}}{{printf \"%T%d\" $v $v}}{{end}}"),
        ("range-int-two-vars", "{{range $i, $v := 3}}{{$i}}{{end}}"),
        ("range-int-assign", "{{$v := 0}}{{range $v = 4}}{{end}}{{$v}}"),
        ("range-int-break", "{{range 10}}{{if eq . 3}}{{break}}{{end}}{{.}}{{end}}"),
        ("range-int-continue", "{{range 6}}{{if eq . 1 3}}{{continue}}{{end}}{{.}}{{end}}"),
        ("range-int-nested", "{{range 3}}{{$i := .}}{{range 2}}{{$i}}{{.}} {{end}}{{end}}"),
        ("range-int-from-len", "{{range len .users}}{{.}}{{end}}"),
        ("range-int-from-data-float", "{{range .n}}{{.}}{{end}}"),
        ("range-int-hex", "{{range 0x4}}{{.}}{{end}}"),
        ("range-int-rune", "{{range '\\x03'}}{{.}}{{end}}"),
        ("range-int-large", "{{$c := 0}}{{range 1000}}{{$c = .}}{{end}}{{$c}}"),
        ("range-int-dollar", "{{range 2}}{{$.s}}{{end}}"),
        ("range-int-type", "{{range 1}}{{printf \"%T\" .}}{{end}}"),
        # pipelines
        ("pipe-final-arg-printf", "{{.s | printf \"%s-%s\" \"a\"}}"),
        ("pipe-chain-3", "{{.s | printf \"%q\" | len | print}}"),
        ("pipe-into-eq", "{{1 | eq 1}}"),
        ("pipe-into-index", "{{1 | index .l}}"),
        ("pipe-into-index-wrong", "{{.l | index 1}}"),
        ("pipe-into-slice", "{{2 | slice .s 1}}"),
        ("pipe-into-not", "{{.e | not}}"),
        ("pipe-into-len", "{{.users | len}}"),
        ("pipe-into-html", "{{\"<a>\" | html}}"),
        ("pipe-into-print-multi", "{{3 | print 1 2}}"),
        ("pipe-into-println", "{{3 | println 1 2}}"),
        ("pipe-into-field", "{{1 | .s}}"),
        ("pipe-into-dollar-field", "{{1 | $.s}}"),
        ("pipe-into-var-field", "{{$m := .m}}{{1 | $m.a}}"),
        ("pipe-into-len-too-many", "{{1 | len .s}}"),
        ("pipe-into-not-too-many", "{{1 | not 2}}"),
        ("pipe-decl-result", "{{$x := .l | len}}{{$x}}"),
        ("pipe-paren-middle", "{{(.s | len) | print \"n=\"}}"),
        ("pipe-print-print", "{{print | print}}"),
        ("pipe-and-final", "{{1 | and 1}}"),
        ("pipe-and-final-false", "{{0 | and 1}}"),
        ("pipe-or-final", "{{1 | or 0}}"),
        ("pipe-or-final-false", "{{0 | or 0}}"),
        ("pipe-string-printf-noargs", "{{\"aaa\" | printf}}"),
        ("pipe-true-printf", "{{true | printf}}"),
        ("pipe-number-printf", "{{1 | printf}}"),
        ("pipe-float-printf", "{{1.1 | printf}}"),
        ("pipe-char-printf", "{{'x' | printf}}"),
        ("pipe-complex-printf", "{{0i | printf}}"),
        ("pipe-complex-printf-v", "{{1+2i | printf \"%v\"}}"),
        ("pipe-nil-print", "{{nil | print}}"),
        ("pipe-missing-print", "{{.nope | print}}"),
        ("pipe-null-print", "{{.nul | print}}"),
        ("pipe-missing-printf-v", "{{.nope | printf \"%v\"}}"),
        ("pipe-missing-len", "{{.nope | len}}"),
        ("pipe-missing-html", "{{.nope | html}}"),
        ("pipe-missing-index-arg", "{{.nope | index .m}}"),
        ("pipe-to-call", "{{.s | call}}"),
        # misc from exec_test
        ("field-on-interface-nil", "{{.foo}}"),
        ("field-on-paren-interface-nil", "{{(.).foo}}"),
        ("nil-action", "{{nil}}"),
        ("print-nil", "{{print nil}}"),
        ("or-as-if-true", "{{or .l \"slice is empty\"}}"),
        ("or-as-if-false", "{{or .el \"slice is empty\"}}"),
        ("bug-range-dollar-method", "{{range .m.c}}{{if $.s}}X{{end}}{{end}}"),
        ("bug-with-dollar", "{{with $}}{{.s}}{{end}}"),
        ("bug-if-nil-interface", "{{if .nul}}non-nil{{else}}nil{{end}}"),
        ("bug-cause", "{{.cause}}"),
        ("bug-paren-map", "{{(.m).a}}-{{.m.a}}"),
        ("bug-eq-index-char", "{{eq (index `x` 0) 'x'}}"),
        ("bug-eq-index-char-false", "{{eq (index `x` 0) 'y'}}"),
        # errors at execution, with partial output
        ("error-col-after-multiline", "a\nbb\n  {{index .l 10}}"),
        ("error-in-nested-define-location", '{{define "one"}}{{template "two" .}}{{end}}{{define "two"}}{{template "three" .}}{{end}}{{define "three"}}{{index "hi" $}}{{end}}\n{{template "one" 5}}'),
        ("error-in-pipeline-stage-2", "{{.s | index .l}}"),
        ("error-undefined-template-in-range", '{{range .l}}{{template "nope"}}{{end}}'),
        ("error-partial-multiple-writes", "1{{.s}}2{{.n}}3{{index .l 7}}4"),
        ("error-context-long-action", "{{printf \"%s %s %s\" .s .s (index .m 1)}}"),
        ("error-context-pipe", "{{.s | printf \"%d\" | index .l}}"),
        ("error-context-with-percent", "{{printf \"%d%%\" (index .l 9)}}"),
        ("error-in-else-branch", "{{if .F}}a{{else}}b{{index .s 10}}{{end}}"),
        ("error-in-range-else", "{{range .el}}a{{else}}b{{len 3}}{{end}}"),
    ]
    for name, t in T:
        add(g + name, t)
    add(g + "nil-data-field", "{{.x}}", nodata=True)
    add(g + "nil-data-dot", "[{{.}}]", nodata=True)
    add(g + "nil-data-chain", "{{.x.y}}", nodata=True)
    add(g + "nil-data-dollar", "{{$}}", nodata=True)
    add(g + "nil-data-print", "{{print .}}", nodata=True)
    add(g + "nil-data-len", "{{len .}}", nodata=True)
    add(g + "nil-data-index", "{{index . 1}}", nodata=True)
    add(g + "nil-data-range", "{{range .}}x{{else}}empty{{end}}", nodata=True)
    add(g + "nil-data-if", "{{if .}}x{{else}}nil is false{{end}}", nodata=True)
    add(g + "nil-data-eq-nil", "{{eq . nil}}", nodata=True)
    add(g + "scalar-data-string-field", "{{.x}}", "str")
    add(g + "scalar-data-number-dot", "<{{.}}>", 13)
    add(g + "scalar-data-float-dot", "<{{.}}>", 15.1)
    add(g + "scalar-data-bool-dot", "<{{.}}>", True)
    add(g + "scalar-data-list-dot", "<{{.}}>", [-1, -2, -3])
    add(g + "scalar-data-map-dot", "<{{.}}>", {"two": 22})
    add(g + "scalar-data-dollar", "{{$}}", 123)
    add(g + "scalar-data-list-range", "{{range $i, $e := .}}{{$i}}{{$e}}{{end}}", ["a", "b"])
    add(g + "scalar-data-list-index", "{{index . 1}}", ["a", "b"])
    add(g + "scalar-data-list-field", "{{.x}}", ["a", "b"])
    add(g + "scalar-data-list-of-maps", "{{range .}}{{.k}}{{end}}", [{"k": 1}, {"k": 2}, {}])
    add(g + "bug-cause-map", "{{.cause}}", {"cause": "neglect"})
    add(g + "map-key-with-space", "{{index . \"a b\"}}|{{.a}}", {"a b": 1, "a": 2})
    add(g + "map-key-empty", "{{index . \"\"}}", {"": "empty-key"})
    add(g + "map-key-unicode-index", "{{index . \"\u00e9\"}}", {"\u00e9": "accent"})
    add(g + "map-keys-sorted-bytewise", "{{range $k, $v := .}}{{$k}}{{end}}",
        {"b": 1, "B": 2, "a": 3, "_": 4, "\u00e9": 5, "1": 6, "10": 7, "9": 8, "": 9})
    add(g + "map-print-sorted-bytewise", "{{.}}",
        {"b": 1, "B": 2, "a": 3, "_": 4, "\u00e9": 5, "1": 6, "10": 7, "9": 8})
    add(g + "map-nested-print", "{{.}}", {"z": {"y": [1, {"x": None}], "a": {}}, "a": []})
    add(g + "list-nested-print", "{{.}}", [[], [[]], {}, None, "", 0, False])
    add(g + "deep-chain-10", "{{.a.b.c.d.e.f.g.h.i.j}}",
        {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": {"j": "ten"}}}}}}}}}})
    add(g + "tree-recursive-delims-paren", '\n\t(- define "tree" -)\n\t[\n\t\t(- .Val -)\n\t\t(- with .Left -)\n\t\t\t(template "tree" . -)\n\t\t(- end -)\n\t\t(- with .Right -)\n\t\t\t(- template "tree" . -)\n\t\t(- end -)\n\t]\n\t(- end -)\n(- template "tree" . -)', TREE, delims=["(", ")"])


# ---------------------------------------------------------------------------
# x-define: define / template / block / recursion

def gen_define():
    g = "x-define/"
    T = [
        ("block-outer", 'a({{block "inner" .s}}bar({{.}})baz{{end}})b'),
        ("block-uses-dot", '{{block "b" .m}}{{.a}}{{end}}'),
        ("block-no-dot-change", '{{with .m}}{{block "b" .}}{{.c.d}}{{end}}{{end}}'),
        ("block-called-again", '{{block "b" .s}}[{{.}}]{{end}}{{template "b" .n}}'),
        ("block-empty-override", '{{define "b"}}{{end}}{{block "b" .}}default{{end}}'),
        ("define-empty-then-nonempty", '{{define "x"}}{{end}}{{define "x"}}second{{end}}{{template "x"}}'),
        ("define-nonempty-then-empty", '{{define "x"}}first{{end}}{{define "x"}}{{end}}{{template "x"}}'),
        ("define-nonempty-then-whitespace", '{{define "x"}}first{{end}}{{define "x"}} \n\t {{end}}{{template "x"}}'),
        ("define-nonempty-then-comment", '{{define "x"}}first{{end}}{{define "x"}}{{/* c */}}{{end}}{{template "x"}}'),
        ("define-whitespace-then-nonempty", '{{define "x"}}  {{end}}{{define "x"}}second{{end}}{{template "x"}}'),
        ("define-main-empty-redefine", '{{define "t"}}{{end}}main'),
        ("define-main-name-used", '{{define "t"}}inner{{end}}'),
        ("define-main-name-whitespace-body", ' \n {{define "t"}}inner{{end}} \n'),
        ("define-self-call-main", '{{define "x"}}X{{end}}{{template "t"}}'),
        ("template-of-main-recursion", '{{if .}}{{len .}}{{template "t" (slice . 1)}}{{end}}'),
        ("template-dot-default-nil", '{{define "x"}}[{{.}}]{{end}}{{template "x"}}'),
        ("template-dot-field", '{{define "x"}}[{{.}}]{{end}}{{template "x" .m.c.d}}'),
        ("template-pipeline-arg", '{{define "x"}}[{{.}}]{{end}}{{template "x" .s | len}}'),
        ("template-paren-arg", '{{define "x"}}[{{.}}]{{end}}{{template "x" (print .s .n)}}'),
        ("template-var-arg", '{{define "x"}}[{{.}}]{{end}}{{$v := 7}}{{template "x" $v}}'),
        ("template-decl-arg", '{{define "x"}}[{{.}}]{{end}}{{template "x" $v := 8}}{{$v}}'),
        ("template-literal-args", '{{define "x"}}[{{.}}|{{printf "%T" .}}]{{end}}{{template "x" 1}}{{template "x" 1.5}}{{template "x" "s"}}{{template "x" true}}{{template "x" nil}}'),
        ("template-in-range", '{{define "item"}}<{{.}}>{{end}}{{range .l}}{{template "item" .}}{{end}}'),
        ("template-dollar-is-arg", '{{define "x"}}{{$.name}}{{end}}{{range .users}}{{template "x" .}}{{end}}'),
        ("template-dollar-inside-range", '{{define "x"}}{{range .tags}}{{$.name}}:{{.}} {{end}}{{end}}{{range .users}}{{template "x" .}}{{end}}'),
        ("template-vars-not-visible", '{{define "x"}}{{$y}}{{end}}'),
        ("template-name-unicode", '{{define "n\u00e4me \U0001f680"}}U{{end}}{{template "n\u00e4me \U0001f680"}}'),
        ("template-name-with-space", '{{define "a b"}}AB{{end}}{{template "a b"}}'),
        ("template-name-escape", '{{define "a\\tb"}}TAB{{end}}{{template "a\\tb"}}'),
        ("template-name-raw-vs-quoted", '{{define `a\\tb`}}RAW{{end}}{{template "a\\\\tb"}}'),
        ("template-name-case", '{{define "X"}}X{{end}}{{template "x"}}'),
        ("template-undefined-not-executed", '{{if false}}{{template "nope"}}{{end}}ok'),
        ("template-defined-later", '{{template "later" .s}}{{define "later"}}[{{.}}]{{end}}'),
        ("template-mutual-recursion", '{{define "even"}}{{if .}}E{{template "odd" (slice . 1)}}{{end}}{{end}}{{define "odd"}}{{if .}}O{{template "even" (slice . 1)}}{{end}}{{end}}{{template "even" .l}}'),
        ("template-error-inside-partial", '{{define "x"}}in-x {{.nope.deeper}} {{len .}}{{end}}before {{template "x" .n}}'),
        ("template-error-location-line", '{{define "x"}}\n\n  {{index . 5}}{{end}}{{template "x" .l}}'),
        ("template-trim-around", '{{define "x" -}}\n  body\n{{- end}}[{{template "x"}}]'),
        ("template-text-around-define", 'A{{define "x"}}X{{end}}B{{template "x"}}C'),
        ("template-nested-define-order", '{{template "a" 1}}{{define "a"}}a{{.}}{{template "b" 2}}{{end}}{{define "b"}}b{{.}}{{end}}'),
        ("block-inside-define", '{{define "outer"}}[{{block "inner" .}}default{{end}}]{{end}}{{template "outer"}}{{template "inner"}}'),
        ("block-redefine-after", '{{block "b" .}}default{{end}}{{define "b"}}x{{end}}'),
        ("block-with-trim", 'x {{- block "b" . -}} y {{- end -}} z'),
        ("break-inside-template-in-range", '{{define "x"}}{{.}}{{end}}{{range .l}}{{template "x" .}}{{break}}{{end}}'),
        ("recursive-tree-walk", '{{define "node"}}({{.Val}}{{with .Left}} {{template "node" .}}{{end}}{{with .Right}} {{template "node" .}}{{end}}){{end}}{{template "node" .}}'),
        ("recursive-list-countdown", '{{define "r"}}{{if .}}{{index . 0}}{{template "r" (slice . 1)}}{{end}}{{end}}{{template "r" .l}}'),
        ("recursive-depth-error-with-text", '{{define "loop"}}{{template "loop" .}}{{end}}start:{{template "loop" .}}'),
        ("recursive-depth-error-nil", '{{define "loop"}}{{template "loop"}}{{end}}{{template "loop"}}'),
        ("recursive-main-template", '{{template "t" .}}never'),
        ("recursive-depth-via-block", '{{block "b" .}}{{template "b" .}}{{end}}'),
        ("recursive-depth-error-in-range", '{{define "r"}}{{range .}}{{template "r" $}}{{end}}{{end}}{{template "r" .l}}'),
    ]
    for name, t in T:
        data = TREE if name.startswith("recursive-tree") else None
        if name == "template-of-main-recursion":
            data = [1, 2, 3]
        add(g + name, t, data)
    # A recursion that is deep but under Go's limit of 100000 template calls.
    add(g + "recursive-countdown-range-int",
        '{{define "c"}}{{if .}}{{template "c" (slice . 1)}}{{else}}done{{end}}{{end}}{{template "c" .}}',
        list(range(40)))


# ---------------------------------------------------------------------------
# x-compare: eq ne lt le gt ge

OPERANDS = [
    ("int1", "1"), ("int2", "2"), ("intneg", "-1"), ("float1", "1.0"), ("float25", "2.5"),
    ("datan", ".n"), ("dataf", ".f"), ("strA", '"a"'), ("strB", '"b"'), ("datas", ".s"),
    ("true", "true"), ("datat", ".t"), ("nil", "nil"), ("datanul", ".nul"),
    ("missing", ".nope"), ("rune", "'a'"), ("cplx", "1i"), ("list", ".l"), ("map", ".m"),
    ("emptystr", ".e"),
]


def gen_compare():
    g = "x-compare/"
    ops = ["eq", "ne", "lt", "le", "gt", "ge"]
    ordered = {"int1", "int2", "intneg", "float1", "float25", "datan", "dataf",
               "strA", "strB", "datas", "rune", "emptystr"}
    names = dict(OPERANDS)
    pairs = []
    # Every ordered pair for eq (the error/coercion rules are richest there).
    for a, _ in OPERANDS:
        for b, _ in OPERANDS:
            pairs.append(("eq", a, b))
    # ne: same types and a sample of cross types.
    for a, b in [("int1", "int1"), ("int1", "int2"), ("float1", "datan"), ("datan", "datan"),
                 ("strA", "strB"), ("datas", "datas"), ("true", "datat"), ("nil", "nil"),
                 ("nil", "datanul"), ("datanul", "missing"), ("int1", "float1"),
                 ("strA", "int1"), ("list", "list"), ("map", "nil"), ("cplx", "cplx"),
                 ("rune", "int1"), ("datan", "int1"), ("emptystr", "strA")]:
        pairs.append(("ne", a, b))
    # Orderings: all ordered operand pairs among the ordered kinds, plus errors.
    for op in ["lt", "le", "gt", "ge"]:
        for a, b in [("int1", "int2"), ("int2", "int1"), ("int1", "int1"), ("intneg", "int1"),
                     ("float1", "float25"), ("float25", "float1"), ("datan", "dataf"),
                     ("dataf", "datan"), ("datan", "datan"), ("strA", "strB"), ("strB", "strA"),
                     ("datas", "strA"), ("emptystr", "strA"), ("rune", "int1"),
                     ("int1", "float1"), ("datan", "int2"), ("strA", "int1"), ("true", "true"),
                     ("cplx", "cplx"), ("nil", "int1"), ("datanul", "datanul"), ("list", "list"),
                     ("missing", "int1")]:
            pairs.append((op, a, b))
    for op, a, b in pairs:
        add(g + "%s/%s-%s" % (op, a, b), "{{%s %s %s}}" % (op, names[a], names[b]))
    # Arity and multi-argument eq.
    for name, t in [
        ("eq-no-args", "{{eq}}"), ("eq-one-arg", "{{eq 1}}"), ("eq-multi-hit", "{{eq 3 4 5 6 3}}"),
        ("eq-multi-miss", "{{eq 3 4 5 6 7}}"), ("eq-multi-float", "{{eq .n 1.0 2.0 3.0}}"),
        ("eq-multi-error-after-hit", "{{eq 1 1 \"x\"}}"), ("eq-multi-error-before-hit", "{{eq 1 \"x\" 1}}"),
        ("eq-multi-nil-mixed", "{{eq .nul 1 nil}}"), ("ne-three-args", "{{ne 1 2 3}}"),
        ("ne-one-arg", "{{ne 1}}"), ("lt-one-arg", "{{lt 1}}"), ("lt-three-args", "{{lt 1 2 3}}"),
        ("le-no-args", "{{le}}"), ("eq-pipe-final", "{{3 | eq 1 2}}"), ("lt-pipe-final", "{{2 | lt 1}}"),
        ("eq-users-name", "{{range .users}}{{if eq .name \"Bob\"}}{{.age}}{{end}}{{end}}"),
        ("eq-len-int", "{{eq (len .l) 5}}"), ("eq-len-float", "{{eq (len .l) 5.0}}"),
        ("eq-index-string-byte", "{{eq (index .s 0) 104}}"), ("eq-index-string-rune", "{{eq (index .s 0) 'h'}}"),
        ("lt-index-string", "{{lt (index .s 0) (index .s 1)}}"),
        ("eq-map-elem-float", "{{eq .m.a 1.0}}"), ("eq-map-elem-int", "{{eq .m.a 1}}"),
        ("eq-nested-maps", "{{eq .m .m}}"), ("eq-lists", "{{eq .l .el}}"),
        ("eq-map-missing-nil", "{{eq .m.zz nil}}"), ("eq-big-floats", "{{eq .big 1e21}}"),
        ("lt-neg-float-int", "{{lt .neg 0}}"), ("lt-neg-float-float", "{{lt .neg 0.0}}"),
        ("eq-strings-unicode", "{{eq \"\u00e9\" \"e\u0301\"}}"),
        ("lt-strings-bytewise", "{{lt \"Z\" \"a\"}} {{lt \"\u00e9\" \"z\"}} {{lt \"\" \"a\"}}"),
        ("ge-strings-prefix", "{{ge \"abc\" \"ab\"}}"),
        ("eq-bool-data", "{{eq .t true}} {{eq .F false}} {{eq .t .F}}"),
        ("eq-in-if-error", "pre{{if eq .s 1}}x{{end}}"),
        ("compare-result-type", "{{printf \"%T\" (eq 1 1)}}"),
        ("eq-float-neg-zero", "{{eq 0.0 -0.0}}"),
        ("lt-large-ints", "{{lt 9223372036854775806 9223372036854775807}}"),
        ("eq-uint-literal-int", "{{eq 18446744073709551615 -1}}"),
        ("lt-uint-literal-int", "{{lt -1 18446744073709551615}}"),
        ("gt-uint-literal-int", "{{gt 18446744073709551615 1}}"),
        ("eq-complex-float-lit", "{{eq 1+0i 1.0}}"),
        ("eq-rune-and-byte", "{{eq (index \"a\" 0) 'a'}}"),
    ]:
        add(g + "misc/" + name, t)


# ---------------------------------------------------------------------------
# x-logic: and / or / not

def gen_logic():
    g = "x-logic/"
    T = [
        ("not-true-false", "{{not true}} {{not false}}"),
        ("and-table", "{{and false 0}} {{and 1 0}} {{and 0 true}} {{and 1 1}}"),
        ("or-table", "{{or 0 0}} {{or 1 0}} {{or 0 true}} {{or 1 1}}"),
        ("or-short-circuit", "{{or 0 1 (index .l 99)}}"),
        ("and-short-circuit", "{{and 1 0 (index .l 99)}}"),
        ("or-no-short-circuit-error", "{{or 0 0 (index .l 99)}}"),
        ("and-no-short-circuit-error", "{{and 1 1 (index .l 99)}}"),
        ("or-short-circuit-undefined-template-fn", "{{or 1 (len 3)}}"),
        ("and-short-circuit-len", "{{and .e (len 3)}}"),
        ("and-undef", "{{and 1 .Unknown}}"),
        ("or-undef", "{{or 0 .Unknown}}"),
        ("boolean-if", "{{if and true 1 `hi`}}TRUE{{else}}FALSE{{end}}"),
        ("boolean-if-not", "{{if and true 1 `hi` | not}}TRUE{{else}}FALSE{{end}}"),
        ("boolean-if-pipe", "{{if true | not | and 1}}TRUE{{else}}FALSE{{end}}"),
        ("and-returns-last", "{{and .s .n .l}}"),
        ("and-returns-first-falsy", "{{and .s .z .l}}"),
        ("or-returns-first-truthy", "{{or .e .z .s .n}}"),
        ("or-returns-last-falsy", "{{or .e .z .el}}"),
        ("or-all-missing", "[{{or .nope .nul}}]"),
        ("and-all-missing", "[{{and .nope .nul}}]"),
        ("and-null-print", "{{print (and .nul 1)}}"),
        ("or-types", "{{printf \"%T\" (or 0 1.5)}}"),
        ("and-no-args", "{{and}}"),
        ("or-no-args", "{{or}}"),
        ("and-one-arg", "{{and 5}}"),
        ("or-one-arg", "{{or 0}}"),
        ("not-no-args", "{{not}}"),
        ("not-two-args", "{{not 1 2}}"),
        ("not-nil", "{{not nil}}"),
        ("not-null", "{{not .nul}}"),
        ("not-missing", "{{not .nope}}"),
        ("not-values", "{{not .e}} {{not .s}} {{not .z}} {{not .n}} {{not .el}} {{not .l}} {{not .em}} {{not .m}}"),
        ("not-not", "{{not (not .s)}}"),
        ("not-complex", "{{not 0i}} {{not 1i}}"),
        ("or-pipe-chain", "{{.e | or .z | or \"fallback\"}}"),
        ("and-pipe-missing", "{{.nope | and 1}}"),
        ("or-with-error-second-arg-paren", "{{or .s (slice .s 10)}}"),
        ("and-with-error-first", "{{and (slice .s 10) .s}}"),
        ("and-or-nested", "{{or (and .t .F) (and .n .s)}}"),
        ("and-in-range-cond", "{{range .users}}{{if and .tags (gt (len .tags) 0)}}{{.name}}{{end}}{{end}}"),
        ("or-default-for-missing-key", "{{range .users}}{{or .tags \"none\"}};{{end}}"),
        ("and-nil-literal", "{{and nil 1}}"),
        ("or-nil-literal", "{{or nil 0}}"),
        ("and-or-with-variables", "{{$a := 0}}{{$b := \"x\"}}{{or $a $b}}{{and $a $b}}"),
        ("not-pipe", "{{.s | not}}"),
        ("if-not-and", "{{if not (and .t .F)}}ok{{end}}"),
    ]
    for name, t in T:
        add(g + name, t)


# ---------------------------------------------------------------------------
# x-builtin: len, index, slice, print*, call, html/js/urlquery basics

def gen_builtin():
    g = "x-builtin/"
    T = [
        # len
        ("len-string-ascii", "{{len .s}}"),
        ("len-string-unicode-bytes", "{{len \"h\u00e9llo \U0001f680\"}}"),
        ("len-list", "{{len .l}}"), ("len-empty-list", "{{len .el}}"),
        ("len-map", "{{len .m}}"), ("len-empty-map", "{{len .em}}"),
        ("len-nested", "{{len .nested.list}} {{len (index .nested.list 1 1)}}"),
        ("len-number", "{{len .n}}"), ("len-bool", "{{len .t}}"),
        ("len-null", "{{len .nul}}"), ("len-missing", "{{len .nope}}"),
        ("len-nil", "{{len nil}}"), ("len-int-lit", "{{len 3}}"),
        ("len-no-args", "{{len}}"), ("len-two-args", "{{len .s .s}}"),
        ("len-result-type", "{{printf \"%T\" (len .s)}}"),
        ("len-of-printf", "{{len (printf \"%05d\" 3)}}"),
        # index
        ("index-list-0", "{{index .l 0}}"), ("index-list-3-null", "{{index .l 3}}"),
        ("index-list-4", "{{index .l 4}}"), ("index-list-len", "{{index .l 5}}"),
        ("index-list-len-plus1", "{{index .l 6}}"), ("index-list-neg", "{{index .l -1}}"),
        ("index-list-float-data", "{{index .l .n}}"), ("index-list-string", "{{index .l \"1\"}}"),
        ("index-list-nil", "{{index .l nil}}"), ("index-list-bool", "{{index .l true}}"),
        ("index-empty-list-0", "{{index .el 0}}"), ("index-empty-list-1", "{{index .el 1}}"),
        ("index-no-index", "{{index .l}}"), ("index-no-args", "{{index}}"),
        ("index-map-key", "{{index .m \"a\"}}"), ("index-map-missing", "{{index .m \"zz\"}}"),
        ("index-map-missing-type", "{{printf \"%T\" (index .m \"zz\")}}"),
        ("index-map-int-key", "{{index .m 1}}"), ("index-map-nil-key", "{{index .m nil}}"),
        ("index-map-float-key", "{{index .m 1.5}}"), ("index-map-data-key", "{{index .m .s}}"),
        ("index-map-var-key", "{{$k := \"b\"}}{{index .m $k}}"),
        ("index-map-nested", "{{index .m \"c\" \"d\"}}"), ("index-map-nested-missing", "{{index .m \"zz\" \"d\"}}"),
        ("index-map-empty-key", "{{index .m \"\"}}"),
        ("index-nested-list", "{{index .nested.list 1 1 0}}"), ("index-nested-3-deep-oob", "{{index .nested.list 1 1 2}}"),
        ("index-list-then-map", "{{index .users 1 \"name\"}}"), ("index-list-then-map-missing", "{{index .users 2 \"tags\"}}"),
        ("index-through-scalar", "{{index .users 0 \"age\" 1}}"),
        ("index-string-0", "{{index .s 0}}"), ("index-string-4", "{{index .s 4}}"),
        ("index-string-len", "{{index .s 5}}"), ("index-string-len-plus1", "{{index .s 6}}"),
        ("index-string-type", "{{printf \"%T\" (index .s 0)}}"), ("index-string-char", "{{printf \"%c\" (index .s 1)}}"),
        ("index-string-multibyte", "{{index \"\u00e9\" 0}} {{index \"\u00e9\" 1}}"),
        ("index-empty-string", "{{index .e 0}}"),
        ("index-number", "{{index .n 0}}"), ("index-bool", "{{index .t 0}}"),
        ("index-null", "{{index .nul 0}}"), ("index-missing", "{{index .nope 0}}"),
        ("index-nil", "{{index nil 1}}"), ("index-literal-string", "{{index \"abc\" 2}}"),
        ("index-pipe-item", "{{.l | index}}"), ("index-rune-index", "{{index .l 'a'}}"),
        ("index-uint-literal", "{{index .l 18446744073709551615}}"),
        ("index-hex-literal", "{{index .l 0x1}}"),
        ("index-in-range", "{{range $i, $e := .users}}{{index $.l $i}},{{end}}"),
        ("index-map-of-list", "{{index .nested \"list\" 0 1}}"),
        # slice
        ("slice-list-all", "{{slice .l}}"), ("slice-list-1", "{{slice .l 1}}"),
        ("slice-list-1-3", "{{slice .l 1 3}}"), ("slice-list-1-3-4", "{{slice .l 1 3 4}}"),
        ("slice-list-cap-3index", "{{slice .l 1 3 8}}"), ("slice-list-cap-3index-over", "{{slice .l 1 3 9}}"),
        ("slice-list-beyond-len", "{{slice .l 5 8}}"), ("slice-list-len-len", "{{slice .l 5 5}}"),
        ("slice-list-neg", "{{slice .l -1}}"), ("slice-list-reversed", "{{slice .l 3 1}}"),
        ("slice-list-3-reversed", "{{slice .l 1 3 2}}"), ("slice-list-too-many", "{{slice .l 1 2 3 4}}"),
        ("slice-list-float-idx", "{{slice .l .n}}"), ("slice-list-string-idx", "{{slice .l \"1\"}}"),
        ("slice-list-nil-idx", "{{slice .l nil}}"),
        ("slice-empty-list", "{{slice .el}}"), ("slice-empty-list-0-0", "{{slice .el 0 0}}"),
        ("slice-empty-list-1", "{{slice .el 1}}"),
        ("slice-string-all", "{{slice .s}}"), ("slice-string-1", "{{slice .s 1}}"),
        ("slice-string-1-3", "{{slice .s 1 3}}"), ("slice-string-3-index", "{{slice .s 1 2 3}}"),
        ("slice-string-len", "{{slice .s 5}}"), ("slice-string-over", "{{slice .s 6}}"),
        ("slice-string-reversed", "{{slice .s 3 2}}"), ("slice-string-unicode-ok", "{{slice \"\u00e9t\u00e9\" 0 2}}"),
        ("slice-map", "{{slice .m 0}}"), ("slice-number", "{{slice .n}}"),
        ("slice-null", "{{slice .nul}}"), ("slice-nil", "{{slice nil}}"),
        ("slice-missing", "{{slice .nope 0}}"), ("slice-no-args", "{{slice}}"),
        ("slice-then-index", "{{index (slice .l 2) 0}}"), ("slice-then-len", "{{len (slice .l 1 4)}}"),
        ("slice-then-range", "{{range slice .l 3}}[{{.}}]{{end}}"),
        ("slice-type", "{{printf \"%T\" (slice .l 1)}} {{printf \"%T\" (slice .s 1)}}"),
        ("slice-nested-list", "{{slice (index .nested.list 1) 1}}"),
        ("slice-list-of-2-cap", "{{slice . 0 2}}|{{slice . 1 2 2}}"),
        # print family
        ("print-strings-no-space", "{{print \"a\" \"b\"}}"), ("print-numbers-spaces", "{{print 1 2 3}}"),
        ("print-mixed-spaces", "{{print 1 \"a\" 2 \"b\" \"c\" 3 4}}"),
        ("print-float-data-spaces", "{{print .n .f}}"), ("print-string-data-number", "{{print .s .n .s}}"),
        ("print-nil-nil", "{{print nil nil}}"), ("print-nil-string", "{{print nil \"x\" nil}}"),
        ("print-bool-bool", "{{print true false}}"), ("print-list-map", "{{print .l .m}}"),
        ("print-empty", "[{{print}}]"), ("print-missing", "{{print .nope}}"),
        ("print-null", "{{print .nul}}"), ("print-null-in-list", "{{print .l}}"),
        ("println-basic", "{{println 1 2 3}}"), ("println-strings", "{{println \"a\" \"b\"}}"),
        ("println-empty", "[{{println}}]"), ("println-nil", "{{println nil .nul}}"),
        ("print-complex", "{{print 1+2i -1.5i}}"), ("print-runes", "{{print 'a' 'b'}}"),
        ("print-big-and-small", "{{print .big 1e21 1e20 123456789.0 0.000001 0.0000001}}"),
        ("printf-no-args", "{{printf}}"), ("printf-only-format", "{{printf \"plain\"}}"),
        ("printf-non-string-format", "{{printf 1}}"), ("printf-format-from-data", "{{printf .s}}"),
        ("printf-format-from-pipe", "{{\"%s!\" | printf}}"),
        ("printf-nil-format", "{{printf nil}}"),
        # call
        ("call-string", "{{call .s}}"), ("call-nil", "{{call nil}}"), ("call-no-args", "{{call}}"),
        ("call-null", "{{call .nul}}"), ("call-missing", "{{call .nope}}"),
        ("call-map", "{{call .m}}"), ("call-list", "{{call .l 1}}"), ("call-number", "{{call 1}}"),
        ("call-pipe-number", "{{1 | call}}"), ("call-pipe-string", "{{.s | call}}"),
        ("call-builtin-name", "{{call len .s}}"), ("call-print", "{{call print}}"),
        ("call-paren-builtin", "{{call (len) 1}}"), ("call-field-chain", "{{call .m.a}}"),
        ("call-in-and-short-circuit", "{{and 0 (call .s)}}"),
        # html/js/urlquery with non-string and multi args
        ("html-multi-args", "{{html \"<a>\" \"<b>\"}}"), ("html-number", "{{html 1 2}}"),
        ("html-nil", "{{html nil}}"), ("html-null", "{{html .nul}}"), ("html-missing", "{{html .nope}}"),
        ("html-list", "{{html .l}}"), ("html-map", "{{html .m}}"), ("html-no-args", "[{{html}}]"),
        ("html-bool", "{{html true}}"), ("html-float", "{{html .f}}"),
        ("js-multi-args", "{{js \"a'\" \"b\\\"\"}}"), ("js-number", "{{js 1 2}}"), ("js-nil", "{{js nil}}"),
        ("js-missing", "{{js .nope}}"), ("js-list", "{{js .l}}"), ("js-map", "{{js .m}}"),
        ("js-no-args", "[{{js}}]"),
        ("urlquery-multi-args", "{{urlquery \"a b\" \"c&d\"}}"), ("urlquery-number", "{{urlquery 1 2}}"),
        ("urlquery-nil", "{{urlquery nil}}"), ("urlquery-missing", "{{urlquery .nope}}"),
        ("urlquery-list", "{{urlquery .l}}"), ("urlquery-map", "{{urlquery .m}}"),
        ("urlquery-no-args", "[{{urlquery}}]"),
        ("html-then-js", "{{\"<a href='x'>\" | html | js}}"), ("js-then-html", "{{\"<a href='x'>\" | js | html}}"),
        ("urlquery-then-html", "{{\"a&b=<c>\" | urlquery | html}}"),
        ("html-printf-xss", "{{printf \"<script>alert(\\\"XSS\\\");</script>\" | html}}"),
        ("js-exec-test", "{{js .}}"),
        ("urlquery-exec-test", "{{\"http://www.example.org/\"|urlquery}}"),
    ]
    for name, t in T:
        if name == "slice-list-of-2-cap":
            add(g + name, t, [1, 2])
        elif name == "js-exec-test":
            add(g + name, t, "It'd be nice.")
        else:
            add(g + name, t)
    # slice capacity depends on how encoding/json grew the slice.
    for n in (1, 2, 3, 4, 5, 8, 9, 16, 17, 33):
        lst = list(range(n))
        add(g + "slice-cap-len%d" % n, "{{len .}}|{{slice . 0 0}}|{{slice . %d}}|{{slice . 0 %d}}" % (n, n + 1), lst)


# ---------------------------------------------------------------------------
# x-escape: html / js / urlquery over tricky strings

def gen_escape():
    g = "x-escape/"
    data = {name: val for name, val in TRICKY}
    for fn in ("html", "js", "urlquery"):
        for name, _ in TRICKY:
            add(g + "%s/%s" % (fn, name), '{{%s (index . "%s")}}' % (fn, name), data)
    # Escapers as pipeline stages and printf %q for comparison.
    for name in ("lt-gt", "dq", "sq", "nl-tab-cr", "emoji", "ls-ps", "nul-ctrl", "fffe", "zwsp-bom", "c1-ctrl"):
        add(g + "printf-q/" + name, '{{printf "%%q" (index . "%s")}}' % name, data)
        add(g + "printf-plus-q/" + name, '{{printf "%%+q" (index . "%s")}}' % name, data)
    for name in ("plain", "lt-gt", "dq", "backtick", "nl-tab-cr"):
        add(g + "printf-sharp-q/" + name, '{{printf "%%#q" (index . "%s")}}' % name, data)
    add(g + "text-not-escaped", "<b>&amp;'\"</b>{{.s}}")
    add(g + "output-not-escaped", "{{.x}}", {"x": "<script>&'\"</script>"})


# ---------------------------------------------------------------------------
# x-fmt: print / printf verbs, flags, widths (fmt_test.go)

FMT_VALUES = [
    ("int", "42"), ("negint", "-7"), ("zero", "0"), ("bigint", "9223372036854775807"),
    ("floatlit", "3.14159"), ("datan", ".n"), ("dataf", ".f"), ("databig", ".big"),
    ("dataneg", ".neg"), ("str", '"hi"'), ("datas", ".s"), ("unicode", '"h\u00e9\u2603"'),
    ("emptystr", ".e"), ("bool", "true"), ("nil", "nil"), ("datanul", ".nul"), ("rune", "'x'"),
    ("complex", "1+2i"), ("list", ".l"), ("emptylist", ".el"), ("map", ".m"),
    ("users", "(index .users 0)"),
]
FMT_VERBS = ["%v", "%+v", "%#v", "%T", "%d", "%s", "%q", "%x", "%X", "%o", "%O", "%b",
             "%e", "%E", "%f", "%F", "%g", "%G", "%t", "%c", "%U", "%p"]


def verb_name(v):
    return {"%v": "v", "%+v": "plus-v", "%#v": "sharp-v", "%T": "T"}.get(v, v[1:])


def gen_fmt():
    g = "x-fmt/"
    for vname, val in FMT_VALUES:
        for verb in FMT_VERBS:
            if verb == "%p" and vname in ("list", "emptylist", "map", "users"):
                continue  # pointers: addresses are not reproducible
            add(g + "verb/%s/%s" % (verb_name(verb), vname), '{{printf "%s" %s}}' % (verb, val))

    # Flags, width and precision.
    FLAGS = [
        ("%5d", "42"), ("%-5d|", "42"), ("%05d", "42"), ("%+d", "42"), ("% d", "42"),
        ("%+05d", "-42"), ("%x", "255"), ("%#x", "255"), ("%#X", "255"), ("%#o", "8"),
        ("%#b", "5"), ("%08b", "5"), ("%o", "-8"), ("%x", "-255"), ("%U", "0x1F680"),
        ("%#U", "0x1F680"), ("%#U", "'\u00e9'"), ("%c", "0x1F680"), ("%c", "-1"),
        ("%q", "0x1F680"), ("%+q", "0x1F680"), ("%q", "-1"), ("%d", "'x'"),
        ("%8.3f", "3.14159"), ("%-8.3f|", "3.14159"), ("%08.3f", "-3.14159"), ("%+.2f", "2.5"),
        ("% .2f", "2.5"), ("%.0f", "2.5"), ("%.0f", "3.5"), ("%.0f", "-0.5"), ("%.1f", "0.05"),
        ("%.1f", "0.25"), ("%.2e", "123456.789"), ("%.3g", "123456.789"), ("%.10g", "0.1"),
        ("%g", "1e6"), ("%g", "1e21"), ("%g", "1e-5"), ("%g", "100000.0"), ("%G", "1e-7"),
        ("%#g", "1.0"), ("%#.3g", "1.0"), ("%#e", "1.0"), ("%#f", "1.0"), ("%#x", "1.0"),
        ("%x", "1.0"), ("%X", "-1.5"), ("%.3x", "3.14159"), ("%b", "1.0"), ("%e", "0.0"),
        ("%f", "-0.0"), ("%g", "-0.0"), ("%v", "-0.0"), ("%+v", "0.0"),
        ("%f", "1e308"), ("%.3f", "5e-324"), ("%e", "5e-324"), ("%g", "5e-324"),
        ("%v", "9007199254740993.0"), ("%.0f", "9007199254740993.0"),
        ("%5s|", '"ab"'), ("%-5s|", '"ab"'), ("%.1s", '"abc"'), ("%.2s", '"\u65e5\u672c\u8a9e"'),
        ("%5.1s|", '"abc"'), ("%05s", '"ab"'), ("%x", '"hi"'), ("% x", '"hi"'), ("%#x", '"hi"'),
        ("%# x", '"hi"'), ("%X", '"\u00e9"'), ("% X", '"abc"'), ("%.1x", '"abc"'), ("%10q", '"a"'),
        ("%-10q|", '"a"'), ("%#q", '"a`b"'), ("%#q", '"a\\nb"'), ("%+q", '"\u00e9"'),
        ("%q", '"\\x00"'), ("%8t|", "true"), ("%-8t|", "false"), ("%5v|", "true"),
        ("%6.2v", "3.14159"), ("%10v|", "nil"), ("%-10v|", "nil"), ("%5v", ".l"), ("%05v", ".l"),
        ("%x", ".l"), ("%x", ".m"), ("%.1f", ".l"), ("%.2f", ".m"), ("%5.1f|", ".n"),
        ("%+.3e", ".big"), ("%08.2f", ".neg"), ("%x", ".n"), ("%d", ".n"), ("%v", "'x'"),
        ("%s", "'x'"), ("%10.3v|", "1+2i"), ("%.2f", "1+2i"), ("%+.1e", "-1-2i"),
        ("%%", ""), ("%5%", ""), ("%-5%|", ""), ("%c%c%c", "72 105 33"),
        ("%3c|", "'x'"), ("%-3c|", "'x'"), ("%.2d", "5"), ("%.0d", "0"), ("%5.0d|", "0"),
        ("%+.0d", "0"), ("%010.4d", "42"), ("%-010d|", "42"), ("%+x", "255"), ("% x", "255"),
        ("%U", "-1"), ("%#08x", "255"), ("%#-8x|", "255"), ("%#v", "1.0"), ("%#v", "1e6"),
        ("%#v", "1e21"), ("%#v", "'x'"), ("%#v", "\"s\""), ("%#v", "1.5i"),
        ("%T", "18446744073709551615"), ("%d", "18446744073709551615"),
        ("%v", "0x1p-2"), ("%g", "0x1p-1074"),
    ]
    for i, (f, args) in enumerate(FLAGS):
        add(g + "flags/%03d-%s" % (i, slug(f, args)), '{{printf "%s"%s}}' % (f, (" " + args) if args else ""))

    # Star width/precision and argument indexes.
    STAR = [
        ("%*d", "5 42"), ("%-*d|", "5 42"), ("%*d", "-5 42"), ("%.*f", "2 3.14159"),
        ("%*.*f", "8 2 3.14159"), ("%*d", "\"x\" 42"), ("%.*f", "\"x\" 1.5"),
        ("%*d", "1.5 42"), ("%*d", ".n 42"), ("%.*d", "-1 42"), ("%*d", "10000000 42"),
        ("%.*d", "10000000 42"), ("%*s|", "3 \"a\""), ("%*d", "5"), ("%.*d", ""),
        ("%[2]d %[1]d", "1 2"), ("%[1]d %[1]d", "7"), ("%[3]d", "1 2"), ("%[0]d", "1"),
        ("%[x]d", "1"), ("%[2]*[1]d", "12 5"), ("%[3]*.[2]*[1]f", "12.0 2 6"),
        ("%d %d %#[1]x %#x", "16 17"), ("%[2]d", "1"), ("%[-1]d", "1"), ("%[1]", "1"),
        ("%[1]d %d", "1 2"), ("%[2]d %d", "1 2 3"), ("%.[2]d", "1 2"), ("%[1]*d", "3"),
        ("%[5]d", "1 2 3"), ("%[1", "1"), ("%[]d", "1"), ("%[", ""),
    ]
    for i, (f, args) in enumerate(STAR):
        add(g + "star-index/%03d-%s" % (i, slug(f, args)), '{{printf "%s"%s}}' % (f, (" " + args) if args else ""))

    # Bad verbs, missing and extra arguments.
    BAD = [
        ("%d", '"hello"'), ("%s", "42"), ("%d", ".s"), ("%t", "1"), ("%z", "1"), ("%!", "1"),
        ("%", ""), ("abc%", ""), ("%d", ""), ("%d %d", "1"), ("%s %v", ""), ("%d", "1 2"),
        ("x", "1"), ("", "1 \"a\" nil"), ("%v", "1 2 3"), ("%-", "1"), ("%.", "1"),
        ("%5", "1"), ("%.5", "1"), ("%#", "1"), ("%d", "nil"), ("%s", "nil"), ("%x", "nil"),
        ("%d", ".nul"), ("%s", ".nope"), ("%v", ".nope"), ("%d", "true"), ("%s", "true"),
        ("%d", "1.5"), ("%e", "1"), ("%f", '"x"'), ("%c", '"x"'), ("%c", "1.5"), ("%U", '"x"'),
        ("%q", "1.5"), ("%q", "true"), ("%x", "true"), ("%s", ".l"), ("%d", ".l"), ("%d", ".m"),
        ("%s", ".m"), ("%q", ".l"), ("%t", ".l"), ("%c", ".l"), ("%e", ".m"), ("%s", "1+2i"),
        ("%d", "1+2i"), ("%x", "1+2i"), ("%!d", "1"), ("%ä", "1"), ("%\U0001f680", "1"),
        ("%d %!", "1 2"), ("%[2]d", ""), ("%s", "(index .users 2)"), ("%d", "(index .users 2)"),
        ("%v %v", ".nul .nope"), ("%s %s", ".nul .nope"),
    ]
    for i, (f, args) in enumerate(BAD):
        add(g + "bad/%03d-%s" % (i, slug(f, args)), '{{printf "%s"%s}}' % (f, (" " + args) if args else ""))

    # Printing composite JSON values.
    for name, val in [
        ("nested-map", {"b": {"y": 1, "x": [1, 2]}, "a": None}),
        ("list-of-maps", [{"b": 1, "a": 2}, {}]),
        ("map-of-empties", {"l": [], "m": {}, "s": "", "n": None}),
        ("floats", [0.1, 1e6, 1e21, 1e-7, -0.0, 100, 2.5, 123456789]),
        ("strings", ["a b", "", "\"q\"", "\n"]),
        ("bools-nulls", [True, False, None]),
        ("unicode-keys", {"\u00e9": 1, "z": 2, "A": 3, "\u65e5": 4}),
    ]:
        for verb in ("%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%T"):
            add(g + "composite/%s/%s" % (name, verb_name(verb)), '{{printf "%s" .}}' % verb, val)
        add(g + "composite/%s/action" % name, "{{.}}", val)
        add(g + "composite/%s/print" % name, "{{print .}}", val)


# ---------------------------------------------------------------------------
# x-float: float64 printing of JSON numbers and float literals

FLOATS = [
    0, 1, -1, 0.1, 0.2, 0.30000000000000004, 0.5, 1.5, 2.675, 3.0000000000000004,
    100, 1000000, 1e6 + 0.5, 10000000, 123456789, 1e15, 1e20, 1e21, 1.5e21, 1e22,
    123456789012345678, 9007199254740992, 9007199254740993, 1.7976931348623157e308,
    2.2250738585072014e-308, 5e-324, 1e-4, 1e-5, 0.000123, 1.23e-7, -0.0, -1e21,
    -123.456, 3.141592653589793, 2.718281828459045, 1 / 3, 2 / 3, 299792458, 6.02214076e23,
    1.6e-19, 4.35, 100.5, 0.1 + 0.7, 1e100, -5e-324, 255, 65535, 4294967296, 1e9,
]


def gen_float():
    g = "x-float/"
    for i, v in enumerate(FLOATS):
        d = {"v": v}
        add(g + "data/%02d/action" % i, "{{.v}}", d)
        add(g + "data/%02d/print-printf" % i, '{{print .v}}|{{printf "%v %g %e %.2f" .v .v .v .v}}', d)
    for name, t in [
        ("lit-1.0", "{{1.0}}"), ("lit-1e6", "{{1e6}}"), ("lit-1e21", "{{1e21}}"), ("lit-1e20", "{{1e20}}"),
        ("lit-0.1", "{{0.1}}"), ("lit-1e-5", "{{1e-5}}"), ("lit-1e-4", "{{1e-4}}"), ("lit-neg-zero", "{{-0.0}}"),
        ("lit-100.0", "{{100.0}}"), ("lit-2.5e3", "{{2.5e3}}"), ("lit-1.5e300", "{{1.5e300}}"),
        ("lit-hex-float", "{{0x1.8p1}}"), ("lit-int-looking-float", "{{3.0}}|{{printf \"%T\" 3.0}}"),
        ("lit-float-1e0", "{{1e0}}|{{printf \"%T\" 1e0}}"),
        ("lit-big-int-as-float", "{{99999999999999999999}}"),
        ("lit-big-int-printf-T", "{{printf \"%T\" 99999999999999999999}}"),
        ("lit-big-int-dot-zero", "{{99999999999999999999.0}}|{{printf \"%T\" 99999999999999999999.0}}"),
        ("lit-big-int-exp", "{{1e20}}|{{printf \"%T %v\" 1e20 1e20}}"),
        ("lit-float-with-int-value-index", "{{index .l 2.0}}"),
        ("data-int-valued-printf-d", "{{printf \"%d\" .n}}"),
        ("data-int-valued-printf-v", "{{printf \"%v\" .n}}"),
        ("data-in-list-print", "{{.l}}"),
        ("data-big-in-map", "{{.}}"),
    ]:
        if name == "data-big-in-map":
            add(g + name, t, {"a": 1e21, "b": 1e20, "c": 0.000001, "d": 1e-7})
        else:
            add(g + name, t)


# ---------------------------------------------------------------------------
# x-trim: {{- and -}} in every position

def gen_trim():
    g = "x-trim/"
    lefts = [("none", ""), ("space", " "), ("spaces", "   "), ("tab", "\t"), ("nl", "\n"),
             ("crlf", "\r\n"), ("mixed", " \t\r\n \n"), ("nbsp", "\u00a0"), ("text-space", "x ")]
    for ln, lws in lefts:
        add(g + "left/%s" % ln, "A" + lws + "{{- .s}}" + lws + "B")
        add(g + "right/%s" % ln, "A" + lws + "{{.s -}}" + lws + "B")
        add(g + "both/%s" % ln, "A" + lws + "{{- .s -}}" + lws + "B")
    for name, t in [
        ("if-all-trim", "x\n{{- if .t -}}\n  yes\n{{- else -}}\n  no\n{{- end -}}\ny"),
        ("if-else-trim-inner", "{{if .F}} a {{- else -}} b {{end}}"),
        ("range-trim-lines", "[\n{{- range .l }}\n  {{.}},\n{{- end }}\n]"),
        ("range-trim-both", "[ {{- range .l -}} {{.}} , {{- end -}} ]"),
        ("with-trim", "a  {{- with .s -}}  {{.}}  {{- end -}}  b"),
        ("define-trim", '{{- define "x" -}}\n  X\n{{- end -}}\n{{template "x"}}\n'),
        ("template-trim", '{{define "x"}}X{{end}}a  {{- template "x" -}}  b'),
        ("comment-only-trim", "a \n {{- /* c */ -}} \n b"),
        ("trim-eats-all-text", "   \n\t  {{- .s -}}   \n\t  "),
        ("trim-leaves-nonspace", "a.  {{- .s -}}  .b"),
        ("trim-between-actions", "{{.s}}   {{- .s}}   {{.s -}}   {{.s}}"),
        ("trim-text-only-space-between", "{{.s -}}   {{- .s}}"),
        ("trim-with-var", "a {{- $x := 1 -}} b{{$x}}"),
        ("trim-unicode-space-not-trimmed", "a\u2003{{- .s -}}\u2003b"),
        ("trim-vertical-tab-not-trimmed", "a\u000b{{- .s -}}\u000bb"),
        ("trim-formfeed-not-trimmed", "a\u000c{{- .s -}}\u000cb"),
        ("trim-empty-action", "a {{- -}} b"),
        ("trim-left-only-after-newline", "line1\n  {{- .s}}\nline2"),
        ("trim-right-keeps-following-action", "{{.s -}}\n\n{{.n}}"),
        ("trim-else-if", "{{if .F}}a{{- else if .t -}} b {{- end}}"),
        ("trim-end-only", "{{if .t}} a {{- end}} b"),
        ("trim-break-continue", "{{range .l}} {{- if not . -}} {{- continue -}} {{- end -}} {{.}} {{- end}}"),
        ("trim-markers-with-delims", "A [[- .s -]] B"),
        ("trim-raw-string-content-kept", "{{- ` a ` -}}"),
        ("trim-ollama-style", "{{- range .users }}<|{{ .name }}|>\n{{ end }}<|end|>"),
    ]:
        if name == "trim-markers-with-delims":
            add(g + name, t, delims=["[[", "]]"])
        else:
            add(g + name, t)


# ---------------------------------------------------------------------------
# x-missingkey: the missingkey option

def gen_missingkey():
    g = "x-missingkey/"
    exprs = [
        ("top", "{{.nope}}"), ("nested", "{{.m.nope}}"), ("deep", "{{.m.c.nope}}"),
        ("chain-through-missing", "{{.nope.x}}"), ("present", "{{.m.a}}"),
        ("null-present", "[{{.nul}}]"), ("null-then-field", "{{.nul.x}}"),
        ("index-missing", "{{index .m \"nope\"}}"), ("print-missing", "{{print .nope}}"),
        ("printf-missing", "{{printf \"%v|%T\" .nope .nope}}"),
        ("if-missing", "{{if .nope}}y{{else}}n{{end}}"), ("with-missing", "{{with .nope}}y{{else}}n{{end}}"),
        ("range-missing", "{{range .nope}}y{{else}}n{{end}}"), ("len-missing", "{{len .nope}}"),
        ("eq-missing-nil", "{{eq .nope nil}}"), ("and-missing", "{{and 1 .nope}}"),
        ("var-missing", "{{$x := .nope}}[{{$x}}]"), ("dollar-missing", "{{$.nope}}"),
        ("in-range-item", "{{range .users}}{{.tags}};{{end}}"),
        ("in-template", '{{define "x"}}{{.q}}{{end}}{{template "x" .m}}'),
        ("partial-before-error", "ok {{.m.a}} {{.m.zz}} not reached"),
        ("missing-key-in-pipe", "{{.nope | print}}"),
        ("missing-then-method-args", "{{.nope 1}}"),
    ]
    # "invalid" is a synonym of "default"; a few cases show that.
    invalid_subset = {"top", "nested", "chain-through-missing", "len-missing", "partial-before-error"}
    for opt in ("missingkey=default", "missingkey=invalid", "missingkey=zero", "missingkey=error"):
        o = opt.split("=")[1]
        for name, t in exprs:
            if o == "invalid" and name not in invalid_subset:
                continue
            add(g + "%s/%s" % (o, name), t, options=[opt])
        add(g + "%s/nil-data" % o, "{{.x}}", options=[opt], nodata=True)
        add(g + "%s/nil-data-dot" % o, "[{{.}}]", options=[opt], nodata=True)
        add(g + "%s/typed-elements" % o, "{{.x}}|{{.y}}", {"x": 99}, options=[opt])
    add(g + "two-options-last-wins", "{{.nope}}", options=["missingkey=error", "missingkey=zero"])
    add(g + "two-options-error-last", "{{.nope}}", options=["missingkey=zero", "missingkey=error"])
    add(g + "error-with-delims", "[[.nope]]", options=["missingkey=error"], delims=["[[", "]]"])


# ---------------------------------------------------------------------------
# x-delims: custom delimiters

def gen_delims():
    g = "x-delims/"
    pairs = [("angle", "<<", ">>"), ("pipe-same", "|", "|"), ("peculiar", "(\u65e5)", "(\u672c)"),
             ("square", "[[", "]]"), ("percent", "{%", "%}"), ("dollar-at", "$$", "@@"),
             ("markers", "{{- ", " -}}"), ("paren", "(", ")"),
             ("guillemets", "\u00ab", "\u00bb"), ("long", "<!--tmpl", "-->"),
             ("default-explicit", "{{", "}}"), ("empty", "", "")]
    for name, l, r in pairs:
        L = l or "{{"
        R = r or "}}"
        action = L + ".s" + R
        comment = L + "/*comment*/" + R
        strAction = L + '"' + L + '"' + R
        add(g + name + "/exec-test", action + comment + strAction, delims=[l, r])
        add(g + name + "/default-is-text", "{{.s}}" + action, delims=[l, r])
        add(g + name + "/if-range", L + "if .t" + R + "T" + L + "end" + R + L + "range .l" + R + L + "." + R + "," + L + "end" + R, delims=[l, r])
        add(g + name + "/trim", "a " + L + "- .s -" + R + " b", delims=[l, r])
        add(g + name + "/unclosed", "x " + L + " .s", delims=[l, r])
        add(g + name + "/define", L + 'define "d"' + R + "D" + L + "." + R + L + "end" + R + L + 'template "d" .n' + R, delims=[l, r])
    for name, t, l, r in [
        ("punctuation-lex", "$$,@%{{}}@@", "$$", "@@"),
        ("empty-action", "$$@@", "$$", "@@"),
        ("for", "$$for@@", "$$", "@@"),
        ("quote", '$$"abc \\n\\t\\" "@@', "$$", "@@"),
        ("raw-quote", "$$`abc\\n\\t\\\" `@@", "$$", "@@"),
        ("alphanumeric-right", "{{hub .s hub}}", "{{hub", "hub}}"),
        ("markers-look-alike", "{{- .s -}} {{- - .s - -}}", "{{- ", " -}}"),
        ("right-delim-in-string", '[["]]"]]', "[[", "]]"),
        ("right-delim-in-raw", "[[`]]`]]", "[[", "]]"),
        ("left-in-text-twice", "[[ [[.s]]", "[[", "]]"),
        ("close-without-open", "a ]] b [[.s]]", "[[", "]]"),
        ("field-touching-right", "[[.s]]]", "[[", "]]"),
        ("same-char-repeated", "||.s|||", "|", "|"),
        ("left-only-set", "[[.s}}", "[[", ""),
        ("right-only-set", "{{.s]]", "", "]]"),
        ("space-in-delim", "{ .s }", "{ ", " }"),
        ("comment-style", "<!--tmpl /* c */ -->ok<!--tmpl .s -->", "<!--tmpl", "-->"),
        ("comment-trim-custom", "a [[- /* c */ -]] b", "[[", "]]"),
        ("comment-unclosed-custom", "[[/* c ]]", "[[", "]]"),
        ("comment-end-before-delim-custom", "[[/* c */ x]]", "[[", "]]"),
        ("paren-delim-with-parens-inside", "(print (1) 2)", "(", ")"),
        ("newline-delims", "\n.s\n", "\n", "\n"),
        ("unicode-delim-multibyte-error", "\u00ab.s \u2603\u00bb", "\u00ab", "\u00bb"),
        ("numeric-delims", "1 .s 2", "1", "2"),
        ("dot-delims", ". .s .", ".", "."),
        ("letter-delims", "a .s b", "a", "b"),
    ]:
        add(g + "lex/" + name, t, delims=[l, r])


# ---------------------------------------------------------------------------
# x-truth: truthiness of each JSON kind in if/with/range/not/and/or

TRUTH_VALUES = [
    ("str", "s", "hello"), ("emptystr", "e", ""), ("zerostr", "zs", "0"), ("falsestr", "fs", "false"),
    ("spacestr", "sp", " "), ("int", "n", 3), ("zero", "z", 0), ("negzero", "nz", -0.0),
    ("tiny", "tn", 5e-324), ("true", "t", True), ("false", "F", False), ("null", "nul", None),
    ("list", "l", [0]), ("emptylist", "el", []), ("map", "m", {"k": 0}), ("emptymap", "em", {}),
    ("missing", "nope", "<absent>"),
]


def gen_truth():
    g = "x-truth/"
    data = {k: v for _, k, v in TRUTH_VALUES if v != "<absent>"}
    for name, key, _ in TRUTH_VALUES:
        add(g + "if/" + name, "{{if .%s}}T{{else}}F{{end}}" % key, data)
        add(g + "with/" + name, "{{with .%s}}T[{{.}}]{{else}}F{{end}}" % key, data)
        add(g + "range/" + name, "{{range .%s}}[{{.}}]{{else}}E{{end}}" % key, data)
        add(g + "not-and-or/" + name, "{{not .%s}} {{and .%s 1}} {{or .%s 1}}" % (key, key, key), data)


# ---------------------------------------------------------------------------
# x-conv: Ollama-style templates over conversation data

def gen_conv():
    g = "x-conv/"
    T = [
        ("last-message-detect", "{{- range $i, $m := .Messages }}{{- $last := eq (len (slice $.Messages $i)) 1 }}{{ $i }}:{{ $m.Role }}{{ if $last }}(last){{ end }} {{ end }}"),
        ("system-first", "{{ if .System }}SYS: {{ .System }}\n{{ end }}{{ range .Messages }}{{ if ne .Role \"system\" }}{{ .Role }}: {{ .Content }}\n{{ end }}{{ end }}"),
        ("tool-calls", "{{ range .Messages }}{{ range .ToolCalls }}CALL {{ .Function.Name }} {{ .Function.Arguments }} {{ .Function.Arguments.city }}\n{{ end }}{{ end }}"),
        ("tool-calls-json-ish", "{{ range .Messages }}{{ if .ToolCalls }}[{{ range $i, $c := .ToolCalls }}{{ if $i }}, {{ end }}{\"name\": \"{{ $c.Function.Name }}\", \"arguments\": {{ $c.Function.Arguments }}}{{ end }}]{{ end }}{{ end }}"),
        ("tools-list", "{{- range .Tools }}{{ .Function.Name }}: {{ .Function.Description }}\n{{- range $name, $p := .Function.Parameters.Properties }}\n  {{ $name }} ({{ $p.Type }}){{ with $p.Enum }} one of {{ . }}{{ end }}: {{ $p.Description }}{{ end }}\n{{ end }}"),
        ("tools-required", "{{ range .Tools }}{{ range .Function.Parameters.Required }}required={{ . }}{{ end }}{{ end }}"),
        ("prompt-or-messages", "{{ if .Messages }}{{ len .Messages }} messages{{ else }}{{ .Prompt }}{{ end }}"),
        ("think-flags", "{{ if .IsThinkSet }}think={{ .Think }} level={{ .ThinkLevel }}{{ else }}unset{{ end }}"),
        ("response-suffix", "{{ .Prompt }}{{ .Response }}{{ .Suffix }}|"),
        ("content-escaping-none", "{{ range .Messages }}{{ .Content }}|{{ end }}"),
        ("content-html-escaped", "{{ range .Messages }}{{ html .Content }}|{{ end }}"),
        ("role-switch", "{{ range .Messages }}{{ if eq .Role \"user\" }}U{{ else if eq .Role \"assistant\" }}A{{ else if eq .Role \"tool\" }}T{{ else }}S{{ end }}{{ end }}"),
        ("continue-system", "{{- range .Messages }}{{- if eq .Role \"system\" }}{{- continue }}{{- end }}{{ .Role }};{{- end }}"),
        ("break-after-first-user", "{{- range .Messages }}{{ .Role }};{{- if eq .Role \"user\" }}{{- break }}{{- end }}{{- end }}"),
        ("missing-toolcalls-field", "{{ range .Messages }}{{ len .ToolCalls }}{{ end }}"),
        ("index-messages-last", "{{ with .Messages }}{{ (index . (len (slice . 1))).Role }}{{ end }}"),
    ]
    for name, t in T:
        for dname, d in [("full", CONV), ("empty", CONV_EMPTY), ("prompt", CONV_PROMPT)]:
            add(g + "%s/%s" % (name, dname), t, d)


def gen_ollama(ollama_dir):
    g = "x-ollama/"
    if not os.path.isdir(ollama_dir):
        raise SystemExit(f"gen_cases.py: {ollama_dir} is not a directory; pass --ollama-dir")
    names = sorted(f for f in os.listdir(ollama_dir) if f.endswith(".gotmpl"))
    if not names:
        raise SystemExit(f"no .gotmpl files in {ollama_dir}")
    for f in names:
        with open(os.path.join(ollama_dir, f), encoding="utf-8") as fh:
            t = fh.read()
        base = f[: -len(".gotmpl")]
        for dname, d in [("full", CONV), ("empty", CONV_EMPTY), ("prompt", CONV_PROMPT),
                         ("simple", CONV_SIMPLE), ("response", CONV_RESP)]:
            add(g + "%s/%s" % (base, dname), t, d)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--ollama-dir", default=os.path.join(
        os.path.dirname(repo), "shared", "corpus", "ollama", "v0.33.0-rc2", "template"))
    ap.add_argument("--stats", action="store_true", help="print counts per prefix to stderr")
    args = ap.parse_args()

    gen_lex()
    gen_numbers()
    gen_parse()
    gen_exec()
    gen_define()
    gen_compare()
    gen_logic()
    gen_builtin()
    gen_escape()
    gen_fmt()
    gen_float()
    gen_trim()
    gen_missingkey()
    gen_delims()
    gen_truth()
    gen_conv()
    gen_ollama(args.ollama_dir)

    out = sys.stdout
    for cid in sorted(CASES):
        out.write(json.dumps(CASES[cid], ensure_ascii=False) + "\n")
    if args.stats:
        counts = {}
        for cid in CASES:
            p = cid.split("/")[0]
            counts[p] = counts.get(p, 0) + 1
        for p in sorted(counts):
            print(f"{p}\t{counts[p]}", file=sys.stderr)
        print(f"total\t{len(CASES)}", file=sys.stderr)
        for d in DUPLICATES:
            print("skipped: " + d, file=sys.stderr)


if __name__ == "__main__":
    main()
