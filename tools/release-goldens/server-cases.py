import json, itertools
GO = {
 "none": None,
 "plain": "{{ range .Messages }}[{{ .Role }}] {{ .Content }}\n{{ end }}",
 "tools": "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ .Content }}{{ end }}",
 "tools-round-trip": "{{ if .Tools }}{{ .Tools }}{{ end }}{{ range .Messages }}{{ if eq .Role \"tool\" }}<tool_response>{{ .Content }}</tool_response>{{ else }}{{ .Content }}{{ range .ToolCalls }}{{ .Function.Name }}{{ end }}{{ end }}{{ end }}",
 "think": "{{ range .Messages }}{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ .Content }}{{ end }}",
 "insert": "{{ if .Suffix }}<PRE>{{ .Prompt }}<SUF>{{ .Suffix }}<MID>{{ else }}{{ .Prompt }}{{ end }}",
 "harmony": "<|start|>system<|message|>{{ range .Messages }}{{ .Content }}{{ end }}<|end|>",
 "legacy": "{{ if .System }}{{ .System }} {{ end }}{{ .Prompt }}",
}
JJ = {
 "none": None,
 "plain": "{% for m in messages %}{{ m.content }}{% endfor %}",
 "tools": "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}{{ m.content }}{% endfor %}",
 "tools-think": "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}<think></think>{{ m.content }}{% endfor %}",
 "tools-round-trip": "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}{% if m.role == 'tool' %}<tool_response>{% endif %}{{ m.content }}{% for c in m.tool_calls %}{% endfor %}{% endfor %}",
 "tools-round-trip-think": "{% if tools %}{{ tools }}{% endif %}{% for message in messages %}{% if message.role == \"tool\" %}<tool_response>{{ message.content }}</tool_response>{% elif message.tool_calls %}{{ message.tool_calls }}{% else %}<think></think>{{ message.content }}{% endif %}{% endfor %}",
 "split-think": "{% for m in messages %}{{ m.content.split('</think>')[-1] }}{% endfor %}",
 "split-think-reasoning": "{% for m in messages %}{{ m.reasoning_content }}{{ m.content.split('</think>')[-1] }}{% endfor %}",
 "ipython": "{% if tools %}{{ tools }}{% endif %}{% for m in messages %}{% if m.role == 'ipython' %}{{ m.content }}{% endif %}{{ m.tool_calls }}{% endfor %}",
}
cases = []
def add(id, model, env=None, want=None, chat=None):
    c = {"id": id, "model": model}
    if env is not None: c["env"] = env
    if want is not None: c["want"] = want
    if chat is not None: c["chat"] = chat
    cases.append(c)
WANTS = [["completion"], ["completion", "tools"], ["completion", "thinking"], ["completion", "tools", "thinking"], ["completion", "vision"], ["embedding"], ["completion", "insert"]]
# 1. the template grid under each OLLAMA_GO_TEMPLATE value
k = 0
for (g, gt), (j, jt) in itertools.product(GO.items(), JJ.items()):
    for env in [None, "true", "false", "1", "yes"]:
        add(f"grid/{g}/{j}/{env or 'unset'}", {"template": gt, "chat_template": jt}, env, WANTS[k % len(WANTS)])
        k += 1
# 2. renderers and parsers over templates
RP = [("", "qwen3"), ("cogito", ""), ("qwen3-coder", "qwen3-coder"), ("", "cohere"), ("cohere", "cohere"), ("ornith", "ornith"), ("", "lfm2"), ("lfm2", "lfm2-thinking"), ("", "harmony"), ("gemma4", "gemma4"), ("", "nosuchparser"), ("nemotron-3-nano", "nemotron-3-nano")]
for (r, p) in RP:
    for g in ["none", "plain", "tools-round-trip"]:
        for j in ["none", "tools-round-trip-think"]:
            for env in [None, "false"]:
                add(f"rp/{r or '-'}/{p or '-'}/{g}/{j}/{env or 'unset'}", {"renderer": r, "parser": p, "template": GO[g], "chat_template": JJ[j]}, env, ["completion", "tools", "thinking"])
# 3. families, config capabilities, GGUF facts
for fam, fams, name in [("qwen3", [], "demo"), ("", [], "deepseek-r1"), ("gptoss", [], "demo"), ("gpt-oss", [], "demo"), ("mllama", ["mllama"], "demo"), ("llama", ["llama", "clip"], "demo")]:
    for g in ["plain", "harmony", "think"]:
        add(f"family/{fam or '-'}/{name}/{g}", {"family": fam, "families": fams, "name": name, "template": GO[g]}, None, ["completion", "thinking"])
for caps in [["tools"], ["thinking", "vision"], ["insert", "tools", "tools"], ["embedding"], ["completion"], ["audio"]]:
    for g in ["none", "plain", "tools"]:
        add(f"config-caps/{'+'.join(caps)}/{g}", {"capabilities": caps, "template": GO[g]}, None, ["completion", "tools", "vision", "audio", "insert"])
for facts in [{"pooling": True}, {"vision": True}, {"audio": True}, {"projector": True}, {"vision": True, "audio": True, "projector": True}, {"arch": "nemotron_h_omni", "audio": True}, {"pooling": True, "vision": True}]:
    for j in ["none", "tools"]:
        m = dict(facts); m["chat_template"] = JJ[j]
        add(f"gguf/{'+'.join(sorted(facts))}/{j}", m, None, ["completion", "vision", "audio", "embedding", "tools"])
add("want/unknown", {"template": GO["plain"]}, None, ["completion", "flying"])
add("want/image", {"template": GO["plain"]}, None, ["completion", "image"])
add("want/none", {"template": GO["plain"]}, None, [])

# 4. truncation: chatPrompt (rendered) and truncateNativeChatMessages (native)
NATIVE = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}\n{% endfor %}"
convs = {
 "sys-first": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "one two three four five six"}, {"role": "assistant", "content": "seven eight nine"}, {"role": "system", "content": "late system"}, {"role": "user", "content": "ten eleven"}],
 "no-system": [{"role": "user", "content": "a b c d"}, {"role": "assistant", "content": "e f g"}, {"role": "user", "content": "h i"}, {"role": "assistant", "content": "j"}, {"role": "user", "content": "k l m n o"}],
 "one": [{"role": "user", "content": "only one message here"}],
 "systems": [{"role": "system", "content": "s1 s1"}, {"role": "system", "content": "s2"}, {"role": "user", "content": "u1 u1 u1"}, {"role": "system", "content": "s3 s3 s3"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "u2 u2"}],
 "last-system": [{"role": "user", "content": "x y z"}, {"role": "assistant", "content": "w"}, {"role": "system", "content": "final system words"}],
 "tools": [{"role": "user", "content": "weather in Paris"}, {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}, {"role": "tool", "content": "sunny 21", "tool_name": "get_weather"}, {"role": "user", "content": "and tomorrow"}],
}
IMG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
convs["images"] = [{"role": "user", "content": "look [img] here", "images": [IMG]}, {"role": "assistant", "content": "a cat"}, {"role": "user", "content": "and these", "images": [IMG, IMG]}, {"role": "user", "content": "which is [img] best", "images": [IMG]}]
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
for cname, msgs in convs.items():
    for ctx in [1, 3, 5, 8, 12, 20, 1000]:
        for trunc in ([True, False] if ctx in (5, 12) else [True]):
            chat = {"messages": msgs, "num_ctx": ctx, "truncate": trunc}
            for kind, model in [("go", {"template": GO["plain"]}), ("go-projector", {"template": GO["plain"], "projector": True}), ("native", {"chat_template": NATIVE}), ("native-projector", {"chat_template": NATIVE, "projector": True})]:
                if cname != "images" and "projector" in kind and ctx not in (5, 12):
                    continue
                if cname == "images" and "projector" not in kind:
                    continue
                add(f"trunc/{kind}/{cname}/{ctx}/{'t' if trunc else 'f'}", model, None, None, chat)
    if cname in ("tools", "sys-first"):
        for ctx in [3, 8, 1000]:
            chat = {"messages": msgs, "num_ctx": ctx, "truncate": True, "tools": TOOLS}
            add(f"trunc/renderer-qwen3-coder/{cname}/{ctx}", {"renderer": "qwen3-coder", "template": GO["tools-round-trip"]}, None, None, chat)
            add(f"trunc/go-tools/{cname}/{ctx}", {"template": GO["tools-round-trip"]}, None, None, chat)
# errors inside chatPrompt
add("trunc/error/mllama-two-images", {"template": GO["plain"], "families": ["mllama"], "family": "mllama", "projector": True}, None, None, {"messages": convs["images"], "num_ctx": 1000, "truncate": True})
add("trunc/error/mllama-two-images-cut", {"template": GO["plain"], "families": ["mllama"], "family": "mllama", "projector": True}, None, None, {"messages": convs["images"], "num_ctx": 5, "truncate": True})
add("trunc/error/exec", {"template": "{{ range .Messages }}{{ .Content.Foo }}{{ end }}"}, None, None, {"messages": convs["no-system"], "num_ctx": 8, "truncate": True})
add("trunc/error/renderer-unknown", {"renderer": "no-such-renderer", "template": GO["plain"]}, None, None, {"messages": convs["no-system"], "num_ctx": 8, "truncate": True})
import sys
for c in cases:
    sys.stdout.write(json.dumps(c, ensure_ascii=False) + "\n")
print(len(cases), file=sys.stderr)
