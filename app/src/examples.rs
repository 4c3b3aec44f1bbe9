//! Examples loaded in one click: a model (template and settings) and a
//! request. The templates and conversations are written for Promptscope in
//! the style of each family's chat format; they are not Ollama's files.

use crate::state::{pretty, Endpoint, ModelState, State};

/// One example.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// Stable id (used by the examples menu and tests).
    pub id: &'static str,
    /// The name shown (a model family or format).
    pub title: &'static str,
    /// Message-catalogue key of the one-line description.
    pub summary_key: &'static str,
    /// Chat or generate.
    pub endpoint: Endpoint,
    /// Modelfile TEMPLATE; `None` = none.
    pub template: Option<&'static str>,
    /// Modelfile SYSTEM.
    pub system: &'static str,
    /// Modelfile MESSAGE lines (JSON text).
    pub messages: &'static str,
    /// RENDERER.
    pub renderer: &'static str,
    /// PARSER.
    pub parser: &'static str,
    /// Model family.
    pub family: &'static str,
    /// GGUF chat template.
    pub chat_template: &'static str,
    /// The request body (JSON text).
    pub request: &'static str,
    /// The request's `tools` (JSON text of a list), added to the body; empty = none.
    pub tools: &'static str,
}

impl Example {
    /// The state this example loads.
    pub fn state(&self) -> State {
        let request = match serde_json::from_str::<serde_json::Value>(self.request) {
            Ok(mut body) => {
                if let (Some(obj), Ok(tools)) = (
                    body.as_object_mut(),
                    serde_json::from_str::<serde_json::Value>(self.tools),
                ) {
                    obj.insert("tools".into(), tools);
                }
                pretty(&body)
            }
            Err(_) => self.request.to_string(),
        };
        State {
            endpoint: self.endpoint,
            model: ModelState {
                has_template: self.template.is_some(),
                template: self.template.unwrap_or("").to_string(),
                system: self.system.to_string(),
                messages: self.messages.to_string(),
                renderer: self.renderer.to_string(),
                parser: self.parser.to_string(),
                family: self.family.to_string(),
                capabilities: Vec::new(),
                options: String::new(),
                chat_template: self.chat_template.to_string(),
                bos_token: String::new(),
                eos_token: String::new(),
                go_template_env: None,
                date: String::new(),
            },
            ollama: String::new(),
            request,
            answer: Default::default(),
        }
    }
}

const BASE: Example = Example {
    id: "",
    title: "",
    summary_key: "",
    endpoint: Endpoint::Chat,
    template: None,
    system: "",
    messages: "",
    renderer: "",
    parser: "",
    family: "",
    chat_template: "",
    request: "{}",
    tools: "",
};

/// ChatML: `<|im_start|>role ... <|im_end|>`.
pub const CHATML_TEMPLATE: &str = r#"{{- if .System }}<|im_start|>system
{{ .System }}<|im_end|>
{{ end }}
{{- range .Messages }}
{{- if ne .Role "system" }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}
{{- end }}<|im_start|>assistant
"#;

const LLAMA3_TEMPLATE: &str = r#"{{- if .System }}<|start_header_id|>system<|end_header_id|>

{{ .System }}<|eot_id|>
{{- end }}
{{- range .Messages }}
{{- if ne .Role "system" }}<|start_header_id|>{{ .Role }}<|end_header_id|>

{{ .Content }}<|eot_id|>
{{- end }}
{{- end }}<|start_header_id|>assistant<|end_header_id|>

"#;

const MISTRAL_TEMPLATE: &str = r#"{{- $system := .System }}
{{- range .Messages }}
{{- if eq .Role "user" }}[INST] {{ if $system }}{{ $system }}

{{ $system = "" }}{{ end }}{{ .Content }}[/INST]
{{- else if eq .Role "assistant" }} {{ .Content }}</s>
{{- end }}
{{- end }}"#;

const GEMMA_TEMPLATE: &str = r#"{{- $system := .System }}
{{- range .Messages }}
{{- if eq .Role "user" }}<start_of_turn>user
{{ if $system }}{{ $system }}

{{ $system = "" }}{{ end }}{{ .Content }}<end_of_turn>
{{ else if eq .Role "assistant" }}<start_of_turn>model
{{ .Content }}<end_of_turn>
{{ end }}
{{- end }}<start_of_turn>model
"#;

const PHI_TEMPLATE: &str = r#"{{- range .Messages }}<|{{ .Role }}|>
{{ .Content }}<|end|>
{{ end }}<|assistant|>
"#;

/// Qwen-style ChatML with tools and thinking (also the benchmark's template).
pub const QWEN_TOOLS_TEMPLATE: &str = r#"{{- if or .System .Tools }}<|im_start|>system
{{- if .System }}
{{ .System }}
{{- end }}
{{- if .Tools }}

# Tools

You may call the functions below. Their signatures, as JSON, are inside <tools></tools>:
<tools>
{{- range .Tools }}
{{ . }}
{{- end }}
</tools>

To call one, reply with a JSON object inside <tool_call></tool_call>:
<tool_call>
{"name": <function name>, "arguments": <arguments as a JSON object>}
</tool_call>
{{- end }}<|im_end|>
{{ end }}
{{- range .Messages }}
{{- if eq .Role "user" }}<|im_start|>user
{{ .Content }}<|im_end|>
{{ else if eq .Role "assistant" }}<|im_start|>assistant
{{ if .Thinking }}<think>
{{ .Thinking }}
</think>

{{ end }}
{{- .Content }}
{{- range .ToolCalls }}
<tool_call>
{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}
</tool_call>
{{- end }}<|im_end|>
{{ else if eq .Role "tool" }}<|im_start|>user
<tool_response>
{{ .Content }}
</tool_response><|im_end|>
{{ end }}
{{- end }}<|im_start|>assistant
{{ if and .IsThinkSet (not .Think) }}<think>

</think>

{{ end }}"#;

const LEGACY_TEMPLATE: &str = r#"{{ if .System }}### System:
{{ .System }}

{{ end }}{{ if .Prompt }}### User:
{{ .Prompt }}

{{ end }}### Assistant:
{{ .Response }}
"#;

const FIM_TEMPLATE: &str = r#"{{- if .Suffix }}<|fim_prefix|>{{ .Prompt }}<|fim_suffix|>{{ .Suffix }}<|fim_middle|>
{{- else }}{{ .Prompt }}
{{- end }}"#;

/// A GGUF chat template (Jinja) that declares tools, paired below with a Go
/// TEMPLATE that does not: Ollama then prefers the GGUF template.
const GGUF_CHAT_TEMPLATE: &str = r#"{%- if tools %}<|im_start|>system
Tools: {{ tools | tojson }}<|im_end|>
{% endif %}
{%- for message in messages %}<|im_start|>{{ message.role }}
{{ message.content }}<|im_end|>
{% endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}"#;

const WEATHER_TOOLS: &str = r#"[{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}}}}]"#;

/// The OpenAI SDK's chat-completions request with tools: a system prompt,
/// the user's question, the assistant's tool call (`arguments` a JSON
/// string, as OpenAI sends it) and the tool's answer by `tool_call_id`.
const OPENAI_TOOLS_REQUEST: &str = r#"{"model": "qwen-demo",
  "messages": [
    {"role": "system", "content": "You are a weather assistant. Call get_weather for every city you are asked about."},
    {"role": "user", "content": "What's the weather in Paris right now?"},
    {"role": "assistant", "content": null, "tool_calls": [
      {"id": "call_9pZ3kQ", "type": "function",
       "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"unit\":\"celsius\"}"}}]},
    {"role": "tool", "tool_call_id": "call_9pZ3kQ", "content": "{\"temperature\": 18, \"conditions\": \"light rain\"}"}],
  "tool_choice": "auto",
  "max_tokens": 512,
  "temperature": 0.2,
  "stream": true,
  "stream_options": {"include_usage": true}}"#;

/// A coding agent's Anthropic Messages request, in the shape Claude Code
/// sends when pointed at Ollama: large system text blocks marked for
/// caching, many tools with `input_schema`, the user's task, the
/// assistant's `tool_use` block and the user's `tool_result` block. The
/// texts are Promptscope's, written in that style.
const CLAUDE_CODE_REQUEST: &str = r##"{"model": "qwen-demo",
  "max_tokens": 32000,
  "system": [
    {"type": "text", "text": "You are a coding agent running in the user's terminal.", "cache_control": {"type": "ephemeral"}},
    {"type": "text", "text": "You help the user with software engineering tasks: fixing bugs, adding features, refactoring and explaining code. Use the tools below to read, search and change the repository; never guess at file contents you have not read.\n\n# Tone and style\nBe concise and direct. Answer in fewer than four lines unless the user asks for detail. Do not add preambles or summaries of what you just did. Use GitHub-flavoured Markdown; it is shown in a monospace terminal.\n\n# Doing tasks\n1. Search the code to understand the request before you change anything (Grep, Glob, Read).\n2. Make the change with Edit or Write, following the code's existing conventions, libraries and style.\n3. Verify it: run the project's tests and linters with Bash. Never assume a test framework; read the README or the build files first.\n4. Keep a short plan with TodoWrite for any task of more than three steps and mark items done as you go.\n\n# Tool use\nCall several independent tools in one turn when you can. Quote paths that contain spaces. Prefer Grep and Glob over find and grep in Bash. Never commit unless the user asks.", "cache_control": {"type": "ephemeral"}},
    {"type": "text", "text": "<env>\nWorking directory: /home/ada/src/parser\nIs directory a git repo: Yes\nPlatform: linux\nToday's date: 2025-06-15\n</env>\nThe repository is a Go module; its tests run with `go test ./...`.", "cache_control": {"type": "ephemeral"}}],
  "tools": [
    {"name": "Bash", "description": "Runs a shell command in a persistent session and returns its output.",
     "input_schema": {"type": "object", "properties": {"command": {"type": "string", "description": "The command to run"}, "description": {"type": "string", "description": "What the command does, in 5-10 words"}, "timeout": {"type": "number", "description": "Timeout in milliseconds (at most 600000)"}}, "required": ["command"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Glob", "description": "Finds files by glob pattern, newest first.",
     "input_schema": {"type": "object", "properties": {"pattern": {"type": "string", "description": "The glob, e.g. **/*.go"}, "path": {"type": "string", "description": "The directory to search in"}}, "required": ["pattern"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Grep", "description": "Searches file contents with a regular expression (ripgrep).",
     "input_schema": {"type": "object", "properties": {"pattern": {"type": "string", "description": "The regular expression"}, "path": {"type": "string", "description": "File or directory to search"}, "glob": {"type": "string", "description": "Only files matching this glob"}, "output_mode": {"type": "string", "enum": ["content", "files_with_matches", "count"]}}, "required": ["pattern"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Read", "description": "Reads a file, with line numbers.",
     "input_schema": {"type": "object", "properties": {"file_path": {"type": "string", "description": "The absolute path"}, "offset": {"type": "number", "description": "The first line to read"}, "limit": {"type": "number", "description": "How many lines"}}, "required": ["file_path"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Edit", "description": "Replaces an exact string in a file.",
     "input_schema": {"type": "object", "properties": {"file_path": {"type": "string", "description": "The absolute path"}, "old_string": {"type": "string", "description": "The text to replace"}, "new_string": {"type": "string", "description": "The replacement"}, "replace_all": {"type": "boolean", "default": false}}, "required": ["file_path", "old_string", "new_string"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "Write", "description": "Writes a whole file.",
     "input_schema": {"type": "object", "properties": {"file_path": {"type": "string", "description": "The absolute path"}, "content": {"type": "string", "description": "The file's new content"}}, "required": ["file_path", "content"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}},
    {"name": "TodoWrite", "description": "Updates the task list of this session.",
     "input_schema": {"type": "object", "properties": {"todos": {"type": "array", "items": {"type": "object", "properties": {"content": {"type": "string"}, "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]}}, "required": ["content", "status"]}}}, "required": ["todos"], "additionalProperties": false, "$schema": "http://json-schema.org/draft-07/schema#"}}],
  "messages": [
    {"role": "user", "content": [
      {"type": "text", "text": "Why does TestParseDuration fail?", "cache_control": {"type": "ephemeral"}}]},
    {"role": "assistant", "content": [
      {"type": "text", "text": "I'll run the failing test first."},
      {"type": "tool_use", "id": "toolu_01A7xQ", "name": "Bash",
       "input": {"command": "go test ./duration -run TestParseDuration", "description": "Run the failing test"}}]},
    {"role": "user", "content": [
      {"type": "tool_result", "tool_use_id": "toolu_01A7xQ",
       "content": "--- FAIL: TestParseDuration (0.00s)\n    duration_test.go:18: Parse(\"1h30m\") = 1h0m0s, want 1h30m0s\nFAIL"}]}],
  "metadata": {"user_id": "user_7f3a_session_01"},
  "temperature": 1,
  "stream": true}"##;

/// An OpenAI Responses request as an agent sends it: `instructions`,
/// message items, the model's `function_call` item (arguments a JSON
/// string) and the `function_call_output` item answering it by `call_id`.
const RESPONSES_REQUEST: &str = r#"{"model": "qwen-demo",
  "instructions": "You are a travel assistant. Check the weather before you suggest what to pack.",
  "input": [
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "I'm flying to Tokyo tomorrow. What should I pack?"}]},
    {"type": "function_call", "call_id": "call_tokyo1", "name": "get_weather", "arguments": "{\"city\":\"Tokyo\"}"},
    {"type": "function_call_output", "call_id": "call_tokyo1", "output": "{\"temperature\": 24, \"conditions\": \"humid, showers in the afternoon\"}"}],
  "tools": [
    {"type": "function", "name": "get_weather", "description": "Current weather for a city",
     "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string", "description": "City name"}}}}],
  "max_output_tokens": 400,
  "stream": true}"#;

const EXAMPLES: &[Example] = &[
    Example {
        id: "chatml",
        title: "ChatML",
        summary_key: "ex.chatml",
        template: Some(CHATML_TEMPLATE),
        system: "You are a concise, helpful assistant.",
        request: r#"{"model": "chatml-demo", "messages": [
            {"role": "user", "content": "Why is the sky blue?"},
            {"role": "assistant", "content": "Rayleigh scattering: air scatters blue light more than red."},
            {"role": "user", "content": "And why are sunsets red?"}]}"#,
        ..BASE
    },
    Example {
        id: "llama3",
        title: "Llama 3",
        summary_key: "ex.llama3",
        template: Some(LLAMA3_TEMPLATE),
        request: r#"{"model": "llama3-demo", "messages": [
            {"role": "system", "content": "Answer in one sentence."},
            {"role": "user", "content": "What is a context window?"}]}"#,
        ..BASE
    },
    Example {
        id: "mistral",
        title: "Mistral",
        summary_key: "ex.mistral",
        template: Some(MISTRAL_TEMPLATE),
        system: "Reply in French.",
        request: r#"{"model": "mistral-demo", "messages": [
            {"role": "user", "content": "Name a cheese."},
            {"role": "assistant", "content": "Comté."},
            {"role": "user", "content": "Another one?"}]}"#,
        ..BASE
    },
    Example {
        id: "gemma",
        title: "Gemma",
        summary_key: "ex.gemma",
        template: Some(GEMMA_TEMPLATE),
        system: "You are a patient tutor.",
        request: r#"{"model": "gemma-demo", "messages": [
            {"role": "user", "content": "What is 7 × 8?"},
            {"role": "assistant", "content": "56."},
            {"role": "user", "content": "And 7 × 9?"}]}"#,
        ..BASE
    },
    Example {
        id: "phi",
        title: "Phi",
        summary_key: "ex.phi",
        template: Some(PHI_TEMPLATE),
        request: r#"{"model": "phi-demo", "messages": [
            {"role": "system", "content": "You write haiku."},
            {"role": "user", "content": "One about compilers."}]}"#,
        ..BASE
    },
    Example {
        id: "qwen-tools",
        title: "Qwen: tools and thinking",
        summary_key: "ex.qwen",
        template: Some(QWEN_TOOLS_TEMPLATE),
        family: "qwen3",
        request: r#"{"model": "qwen-demo", "think": true,
          "messages": [
            {"role": "system", "content": "You are a weather assistant."},
            {"role": "user", "content": "Is it warmer in Paris or in Tokyo?"},
            {"role": "assistant", "content": "", "thinking": "I need both temperatures.",
             "tool_calls": [
               {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
               {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]},
            {"role": "tool", "tool_name": "get_weather", "content": "{\"temperature\": 18}"},
            {"role": "tool", "tool_name": "get_weather", "content": "{\"temperature\": 24}"}]}"#,
        tools: WEATHER_TOOLS,
        ..BASE
    },
    Example {
        id: "legacy",
        title: "Legacy .Prompt template",
        summary_key: "ex.legacy",
        template: Some(LEGACY_TEMPLATE),
        system: "You are a pirate.",
        request: r#"{"model": "legacy-demo", "messages": [
            {"role": "user", "content": "Hello!"},
            {"role": "assistant", "content": "Ahoy!"},
            {"role": "user", "content": "Where is the treasure?"}]}"#,
        ..BASE
    },
    Example {
        id: "fim",
        title: "FIM (fill in the middle)",
        summary_key: "ex.fim",
        endpoint: Endpoint::Generate,
        template: Some(FIM_TEMPLATE),
        request: r#"{"model": "coder-demo", "prompt": "def add(a, b):\n    ", "suffix": "\n\nprint(add(2, 3))\n"}"#,
        ..BASE
    },
    Example {
        id: "renderer",
        title: "Built-in renderer (qwen3-coder)",
        summary_key: "ex.renderer",
        template: Some("{{ .Prompt }}"),
        renderer: "qwen3-coder",
        parser: "qwen3-coder",
        request: r#"{"model": "coder-demo", "messages": [
            {"role": "user", "content": "What's the weather in Oslo?"}]}"#,
        tools: WEATHER_TOOLS,
        ..BASE
    },
    Example {
        id: "gguf-wins",
        title: "GGUF chat template wins",
        summary_key: "ex.gguf",
        template: Some(CHATML_TEMPLATE),
        chat_template: GGUF_CHAT_TEMPLATE,
        request: r#"{"model": "gguf-demo", "think": false, "messages": [
            {"role": "user", "content": "Hi!"}]}"#,
        ..BASE
    },
    Example {
        id: "openai-tools",
        title: "OpenAI SDK: chat with tools",
        summary_key: "ex.openai_tools",
        endpoint: Endpoint::OpenAiChat,
        template: Some(QWEN_TOOLS_TEMPLATE),
        family: "qwen3",
        request: OPENAI_TOOLS_REQUEST,
        tools: WEATHER_TOOLS,
        ..BASE
    },
    Example {
        id: "claude-code",
        title: "Claude Code (Anthropic Messages)",
        summary_key: "ex.claude_code",
        endpoint: Endpoint::AnthropicMessages,
        template: Some(QWEN_TOOLS_TEMPLATE),
        family: "qwen3",
        request: CLAUDE_CODE_REQUEST,
        ..BASE
    },
    Example {
        id: "responses",
        title: "OpenAI Responses: function calls",
        summary_key: "ex.responses",
        endpoint: Endpoint::OpenAiResponses,
        template: Some(QWEN_TOOLS_TEMPLATE),
        family: "qwen3",
        request: RESPONSES_REQUEST,
        ..BASE
    },
];

/// Every example, in menu order.
pub fn all() -> &'static [Example] {
    EXAMPLES
}

/// The example with this id.
pub fn by_id(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

/// Whether replacing the TEMPLATE `old` by `new` takes an example's SYSTEM
/// with it: `old` is an example's own template, `system` is still that
/// example's SYSTEM, and `new` replaces the template rather than edits it
/// (what `new` keeps of `old`, as common prefix and suffix, is under half of
/// `old`). A user who pastes their own template does not want the demo's
/// system prompt injected into it and written into their Modelfile.
pub fn template_drops_example_system(old: &str, new: &str, system: &str) -> bool {
    if system.is_empty() || old == new {
        return false;
    }
    let from_example = EXAMPLES
        .iter()
        .any(|e| e.template == Some(old) && e.system == system);
    if !from_example {
        return false;
    }
    let prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let max_suffix = old.len().min(new.len()) - prefix;
    let suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix + suffix) * 2 < old.len()
}

/// The example shown on a first visit.
pub const DEFAULT_ID: &str = "chatml";

/// The state of the first visit.
pub fn default_state() -> State {
    by_id(DEFAULT_ID).expect("default example").state()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine;

    const TODAY: &str = "2025-06-15";

    #[test]
    fn a_pasted_template_drops_the_examples_system_an_edit_keeps_it() {
        let demo = default_state();
        let (old, system) = (&demo.model.template, &demo.model.system);
        assert!(!system.is_empty());
        // pasted over the whole field
        assert!(template_drops_example_system(old, "{{ .Prompt }}", system));
        assert!(template_drops_example_system(old, "", system));
        // typed into it, or a line appended
        let mut typed = old.clone();
        typed.insert(10, 'x');
        assert!(!template_drops_example_system(old, &typed, system));
        assert!(!template_drops_example_system(
            old,
            &format!("{old}\n{{{{ .Prompt }}}}"),
            system
        ));
        // a SYSTEM the user changed stays, and so does any SYSTEM of a template not from an example
        assert!(!template_drops_example_system(
            old,
            "{{ .Prompt }}",
            "Be brief."
        ));
        assert!(!template_drops_example_system(
            "{{ .System }}",
            "{{ .Prompt }}",
            system
        ));
    }

    #[test]
    fn ids_are_unique_and_requests_parse() {
        let mut ids: Vec<&str> = all().iter().map(|e| e.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all().len());
        for e in all() {
            let body: serde_json::Value = serde_json::from_str(&e.state().request)
                .unwrap_or_else(|err| panic!("{}: {err}", e.id));
            assert!(body.get("model").is_some(), "{}", e.id);
        }
    }

    #[test]
    fn every_example_renders() {
        for e in all() {
            let out = engine::run(&e.state(), TODAY);
            assert!(out.input_error.is_none(), "{}: {:?}", e.id, out.input_error);
            assert!(out.error.is_none(), "{}: {:?}", e.id, out.error);
            let prompt = out.prompt.unwrap_or_default();
            assert!(!prompt.is_empty(), "{}", e.id);
        }
    }

    #[test]
    fn chatml_prompt() {
        let out = engine::run(&default_state(), TODAY);
        assert_eq!(
            out.prompt.unwrap(),
            "<|im_start|>system\nYou are a concise, helpful assistant.<|im_end|>\n\
             <|im_start|>user\nWhy is the sky blue?<|im_end|>\n\
             <|im_start|>assistant\nRayleigh scattering: air scatters blue light more than red.<|im_end|>\n\
             <|im_start|>user\nAnd why are sunsets red?<|im_end|>\n<|im_start|>assistant\n"
        );
    }

    #[test]
    fn paths_and_branches() {
        let check = |id: &str, source: &str, branch: &str| {
            let out = engine::run(&by_id(id).unwrap().state(), TODAY);
            let ex = out.explain.unwrap();
            assert_eq!(
                (ex.source.as_str(), ex.branch.as_str()),
                (source, branch),
                "{id}"
            );
            ex
        };
        let qwen = check("qwen-tools", "go_template", "messages");
        let caps: Vec<&str> = qwen.capabilities.iter().map(|c| c.name.as_str()).collect();
        assert!(
            caps.contains(&"tools") && caps.contains(&"thinking"),
            "{caps:?}"
        );
        check("legacy", "go_template", "legacy");
        check("fim", "go_template", "insert");
        check("renderer", "renderer_parser", "renderer");
        let out = engine::run(&by_id("gguf-wins").unwrap().state(), TODAY);
        assert_eq!(out.source(), "gguf_chat_template");
        assert_eq!(out.explain.unwrap().branch, "native");
    }

    #[test]
    fn compatibility_route_examples_convert_and_render_their_tool_turns() {
        let run = |id: &str| {
            let e = by_id(id).unwrap();
            assert!(e.endpoint.route().is_some(), "{id}");
            let out = engine::run(&e.state(), TODAY);
            let route = out.route.clone().unwrap();
            assert!(route.api_request.is_some(), "{id}");
            (out.prompt.unwrap(), route, out.explain.unwrap())
        };
        // OpenAI: string arguments parsed, the tool message named by its tool_call_id
        let (prompt, route, _) = run("openai-tools");
        assert!(prompt.contains("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\":\"Paris\",\"unit\":\"celsius\"}}\n</tool_call>"), "{prompt}");
        assert!(prompt.contains("<tool_response>\n{\"temperature\": 18, \"conditions\": \"light rain\"}\n</tool_response>"));
        let api: serde_json::Value =
            serde_json::from_str(route.api_request.as_deref().unwrap()).unwrap();
        assert_eq!(api["messages"][3]["tool_name"], "get_weather");
        assert_eq!(api["options"]["num_predict"], 512);
        // Anthropic: system blocks joined, tool_use a tool call, tool_result a tool message
        let (prompt, route, ex) = run("claude-code");
        assert!(prompt.starts_with("<|im_start|>system\nYou are a coding agent running in the user's terminal.You help"), "{prompt}");
        assert!(prompt.contains("{\"name\": \"Bash\", \"arguments\": {\"command\":\"go test ./duration -run TestParseDuration\""));
        assert!(prompt.contains("<tool_response>\n--- FAIL: TestParseDuration"));
        let roles: Vec<&str> = ex.messages.iter().map(|m| m.role.as_str()).collect();
        assert_eq!(roles, ["system", "user", "assistant", "tool"]);
        assert!(route
            .fields
            .iter()
            .any(|f| f.detail.starts_with("relax_thinking")));
        assert_eq!(prompt.matches("{\"type\":\"function\"").count(), 7);
        // Responses: instructions first, the function_call and its output
        let (prompt, _, _) = run("responses");
        assert!(
            prompt.starts_with("<|im_start|>system\nYou are a travel assistant."),
            "{prompt}"
        );
        assert!(prompt.contains("{\"name\": \"get_weather\", \"arguments\": {\"city\":\"Tokyo\"}}"));
        assert!(prompt.contains("<tool_response>\n{\"temperature\": 24"));
    }

    #[test]
    fn qwen_tool_turns() {
        let prompt = engine::run(&by_id("qwen-tools").unwrap().state(), TODAY)
            .prompt
            .unwrap();
        assert!(prompt.contains("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\":\"Paris\"}}\n</tool_call>"), "{prompt}");
        assert!(
            prompt.contains("<think>\nI need both temperatures.\n</think>"),
            "{prompt}"
        );
        assert!(prompt.contains("<tool_response>\n{\"temperature\": 24}\n</tool_response>"));
        assert!(prompt.ends_with("<|im_start|>assistant\n"), "{prompt}");
    }
}
