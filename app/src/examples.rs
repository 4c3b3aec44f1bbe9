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
            request,
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
];

/// Every example, in menu order.
pub fn all() -> &'static [Example] {
    EXAMPLES
}

/// The example with this id.
pub fn by_id(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
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
