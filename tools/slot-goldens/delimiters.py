"""The cases tools/slot-goldens/record-delimiters.sh sends through the apply-template harness: for every
template of llama.cpp's models/templates, one Ollama-shaped chat (system, user, assistant, user) and the same
chat with a tool offered, so the harness (PROMPTSCOPE_DELIMITERS=1) reports the message delimiters the
template's handler declares (common/chat.cpp: a dedicated handler's list, or the autoparser's
assistant_start and user_start)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "apply-template-goldens"))
from cases import family, ollama_body, ollama_msg  # noqa: E402

TOOL = {"type": "function", "function": {"name": "get_weather", "description": "Get the weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}


def main():
    tdir = sys.argv[1]
    msgs = [ollama_msg("system", "You are terse."), ollama_msg("user", "Hello"),
            ollama_msg("assistant", "Hi there."), ollama_msg("user", "How are you?")]
    for name in sorted(f for f in os.listdir(tdir) if f.endswith(".jinja")):
        bos, eos = family(name)
        for case, body in (("chat", ollama_body(msgs)), ("tools", ollama_body(msgs, tools=[TOOL]))):
            print(json.dumps({"template": name, "case": case, "bos_token": bos, "eos_token": eos, "body": body},
                             ensure_ascii=False))


if __name__ == "__main__":
    main()
