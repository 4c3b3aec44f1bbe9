//! The example loaded on first visit: a ChatML-style chat template.

/// A ChatML-like template over a `Messages` list, in the style of Ollama's templates.
pub const CHATML_TEMPLATE: &str = r#"{{- if .System }}<|im_start|>system
{{ .System }}<|im_end|>
{{ end }}
{{- range .Messages }}<|im_start|>{{ .Role }}
{{ .Content }}<|im_end|>
{{ end }}<|im_start|>assistant
"#;

/// Data for [`CHATML_TEMPLATE`].
pub const CHATML_DATA: &str = r#"{
  "System": "You are a concise, helpful assistant.",
  "Messages": [
    { "Role": "user", "Content": "Why is the sky blue?" },
    { "Role": "assistant", "Content": "Rayleigh scattering: air scatters blue light more than red." },
    { "Role": "user", "Content": "And why are sunsets red?" }
  ]
}
"#;
