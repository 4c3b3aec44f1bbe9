//! Ollama's built-in Go renderers (`model/renderers`), which turn a chat into
//! a prompt without a template when a model sets `RENDERER <name>`.
//!
//! Each renderer family lives in its own file, beside its Go twin:
//!
//! | Rust | Go | renderer names |
//! | --- | --- | --- |
//! | `qwen3coder.rs` | `qwen3coder.go` | `qwen3-coder` |
//! | `qwen3vl.rs` | `qwen3vl.go` | `qwen3-vl-instruct`, `qwen3-vl-thinking` |
//! | `qwen35.rs` | `qwen35.go`, `ornith.go` | `qwen3.5`, `qwen3.8`, `ornith` |
//! | `cogito.rs` | `cogito.go` | `cogito` |
//! | `deepseek3.rs` | `deepseek3.go` | `deepseek3.1` |
//! | `olmo3.rs` | `olmo3.go`, `olmo3_think.go` | `olmo3`, `olmo3.1`, `olmo3-think`, `olmo3-32b-think` |
//! | `nemotron3nano.rs` | `nemotron3nano.go` | `nemotron-3-nano`, `nemotron-3.5-nano` |
//! | `gemma4.rs` | `gemma4.go` | `gemma4`, `gemma4-small`, `gemma4-large` |
//! | `functiongemma.rs` | `functiongemma.go` | `functiongemma` |
//! | `glm.rs` | `glm47.go`, `glmocr.go` | `glm-4.7`, `glm-ocr` |
//! | `lfm2.rs` | `lfm2.go` | `lfm2`, `lfm2-thinking` |
//! | `laguna.rs` | `laguna.go` | `laguna`, `poolside-v1` |
//! | `cohere.rs` | `cohere.go` | `cohere` |
//! | `glimmer.rs` | `glimmer.go` | `glimmer` |
//! | `json.rs` | `encoding/json`, `json.go` | Go's JSON encoding of the request types |
//! | `text.rs` | `strings`, `fmt`, `image_tags.go` | Go string helpers and `[img-N]` tags |
//!
//! The server sets `renderers.RenderImgTags = true`, so every renderer that
//! can tag images inserts its own `[img-N]` tags; that is the only mode
//! ported here.

use crate::api::{Message, Think, Tool};

mod cogito;
mod cohere;
mod deepseek3;
mod functiongemma;
mod gemma4;
mod glimmer;
mod glm;
pub(crate) mod json;
mod laguna;
mod lfm2;
mod nemotron3nano;
mod olmo3;
mod qwen35;
mod qwen3coder;
mod qwen3vl;
pub(crate) mod text;

/// The names `RenderWithRenderer` knows, in the order of Go's switch.
pub const RENDERER_NAMES: [&str; 26] = [
    "qwen3-coder",
    "qwen3-vl-instruct",
    "qwen3-vl-thinking",
    "qwen3.5",
    "qwen3.8",
    "ornith",
    "cogito",
    "deepseek3.1",
    "olmo3",
    "olmo3.1",
    "olmo3-think",
    "olmo3-32b-think",
    "nemotron-3-nano",
    "nemotron-3.5-nano",
    "gemma4",
    "gemma4-small",
    "gemma4-large",
    "functiongemma",
    "glm-4.7",
    "glm-ocr",
    "lfm2",
    "lfm2-thinking",
    "laguna",
    "poolside-v1",
    "cohere",
    "glimmer",
];

/// One configured renderer (Go's `rendererForName`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Renderer {
    Qwen3Coder,
    Qwen3Vl { thinking: bool },
    Qwen35(qwen35::Variant),
    Cogito,
    DeepSeek31,
    Olmo3 { extended_system: bool },
    Olmo3Think(olmo3::ThinkVariant),
    Nemotron { v35: bool },
    Gemma4 { empty_block_on_nothink: bool },
    FunctionGemma,
    Glm47,
    GlmOcr,
    Lfm2 { thinking: bool },
    Laguna,
    LagunaV8,
    Cohere,
    Glimmer,
}

impl Renderer {
    fn for_name(name: &str) -> Option<Renderer> {
        Some(match name {
            "qwen3-coder" => Renderer::Qwen3Coder,
            "qwen3-vl-instruct" => Renderer::Qwen3Vl { thinking: false },
            "qwen3-vl-thinking" => Renderer::Qwen3Vl { thinking: true },
            "qwen3.5" => Renderer::Qwen35(qwen35::Variant::Qwen35),
            "qwen3.8" => Renderer::Qwen35(qwen35::Variant::Qwen38),
            "ornith" => Renderer::Qwen35(qwen35::Variant::Ornith),
            "cogito" => Renderer::Cogito,
            "deepseek3.1" => Renderer::DeepSeek31,
            "olmo3" => Renderer::Olmo3 {
                extended_system: false,
            },
            "olmo3.1" => Renderer::Olmo3 {
                extended_system: true,
            },
            "olmo3-think" => Renderer::Olmo3Think(olmo3::ThinkVariant::Olmo31Think),
            "olmo3-32b-think" => Renderer::Olmo3Think(olmo3::ThinkVariant::Olmo3Think32B),
            "nemotron-3-nano" => Renderer::Nemotron { v35: false },
            "nemotron-3.5-nano" => Renderer::Nemotron { v35: true },
            "gemma4" | "gemma4-small" => Renderer::Gemma4 {
                empty_block_on_nothink: false,
            },
            "gemma4-large" => Renderer::Gemma4 {
                empty_block_on_nothink: true,
            },
            "functiongemma" => Renderer::FunctionGemma,
            "glm-4.7" => Renderer::Glm47,
            "glm-ocr" => Renderer::GlmOcr,
            "lfm2" => Renderer::Lfm2 { thinking: false },
            "lfm2-thinking" => Renderer::Lfm2 { thinking: true },
            "laguna" => Renderer::Laguna,
            // `laguna-v8` from 0.32.2-rc3 to 0.32.2, `poolside-v1` after
            "poolside-v1" | "laguna-v8" => Renderer::LagunaV8,
            "cohere" => Renderer::Cohere,
            "glimmer" => Renderer::Glimmer,
            _ => return None,
        })
    }

    fn leading_bos(self) -> &'static str {
        match self {
            Renderer::Cogito | Renderer::DeepSeek31 => cogito::BOS,
            Renderer::Gemma4 { .. } | Renderer::FunctionGemma => gemma4::BOS,
            Renderer::Lfm2 { .. } => lfm2::BOS,
            Renderer::Laguna | Renderer::LagunaV8 => laguna::BOS,
            Renderer::Cohere => cohere::BOS,
            Renderer::Glimmer => glimmer::BOS,
            _ => "",
        }
    }

    fn render(
        self,
        msgs: &[Message],
        tools: &[Tool],
        think: Option<&Think>,
        today: &str,
        rules: &changes::Rules,
    ) -> Result<String, String> {
        Ok(match self {
            Renderer::Qwen3Coder => qwen3coder::render(msgs, tools),
            Renderer::Qwen3Vl { thinking } => qwen3vl::render(thinking, msgs, tools, think),
            Renderer::Qwen35(variant) => return qwen35::render(variant, msgs, tools, think, rules),
            Renderer::Cogito => cogito::render(msgs, tools, think),
            Renderer::DeepSeek31 => deepseek3::render(msgs, tools, think),
            Renderer::Olmo3 { extended_system } => olmo3::render(extended_system, msgs, tools),
            Renderer::Olmo3Think(variant) => olmo3::render_think(variant, msgs),
            Renderer::Nemotron { v35 } => nemotron3nano::render(
                v35,
                !rules.on(&changes::ollama::NEMOTRON3NANO_TEMPLATE_SYNC),
                msgs,
                tools,
                think,
            ),
            Renderer::Gemma4 {
                empty_block_on_nothink,
            } => gemma4::render(empty_block_on_nothink, msgs, tools, think, rules),
            Renderer::FunctionGemma => functiongemma::render(msgs, tools),
            Renderer::Glm47 => glm::render_glm47(msgs, tools, think),
            Renderer::GlmOcr => glm::render_glm_ocr(msgs, tools, think),
            Renderer::Lfm2 { thinking } => lfm2::render(thinking, msgs, tools, think, rules),
            Renderer::Laguna => laguna::render(
                msgs,
                tools,
                think,
                laguna::V2 {
                    embedded_thinking: rules.on(&changes::ollama::LAGUNA_V2_EMBEDDED_THINKING),
                    spaced_arguments: rules.on(&changes::ollama::LAGUNA_SPACED_TOOL_ARGUMENTS),
                },
            ),
            Renderer::LagunaV8 => laguna::render_v8(msgs, tools, think),
            Renderer::Cohere => cohere::render(msgs, tools, think),
            Renderer::Glimmer => glimmer::render(msgs, tools, think, today, rules),
        })
    }
}

/// `renderers.RenderWithRenderer(name, msgs, tools, think)` as the Ollama
/// server calls it (`RenderImgTags = true`): the prompt, or Go's error text
/// (`unknown renderer "x"` for a name it does not know).
///
/// `tools` is `None` for a nil slice; renderers only look at its length.
/// The `glimmer` renderer prints today's date when the conversation has no
/// system message; this takes it from the system clock in UTC (see
/// [`render_with_renderer_at`] to pin it).
pub fn render_with_renderer(
    name: &str,
    msgs: &[Message],
    tools: Option<&[Tool]>,
    think: Option<&Think>,
) -> Result<String, String> {
    render_with_renderer_at(name, msgs, tools, think, &text::today_utc())
}

/// [`render_with_renderer`] with the server's current date given as
/// `YYYY-MM-DD` (Go's `time.Now().Format(time.DateOnly)`), as the newest
/// supported release renders.
pub fn render_with_renderer_at(
    name: &str,
    msgs: &[Message],
    tools: Option<&[Tool]>,
    think: Option<&Think>,
    today: &str,
) -> Result<String, String> {
    let rules = changes::Rules::of_release(changes::Release::NEWEST);
    render_with_renderer_in(name, msgs, tools, think, today, &rules)
}

/// [`render_with_renderer_at`] as the release of `rules` renders (the
/// rows of `changes::ollama::TABLE` a renderer consults are noted in
/// `rules`).
pub fn render_with_renderer_in(
    name: &str,
    msgs: &[Message],
    tools: Option<&[Tool]>,
    think: Option<&Think>,
    today: &str,
    rules: &changes::Rules,
) -> Result<String, String> {
    let renderer = Renderer::for_name(name)
        // renderers a release does not have yet
        .filter(|_| match name {
            "qwen3.8" => rules.on(&changes::ollama::QWEN38_RENDERER),
            "ornith" => rules.on(&changes::ollama::ORNITH_RENDERER),
            "cohere" => rules.on(&changes::ollama::COHERE_RENDERER),
            "nemotron-3.5-nano" => rules.on(&changes::ollama::NEMOTRON35_RENDERER),
            "glimmer" => rules.on(&changes::ollama::GLIMMER_RENDERER),
            "laguna-v8" => {
                rules.on(&changes::ollama::LAGUNA_V8_RENDERER)
                    && !rules.on(&changes::ollama::POOLSIDE_V1_RENDERER)
            }
            "poolside-v1" => rules.on(&changes::ollama::POOLSIDE_V1_RENDERER),
            _ => true,
        })
        .ok_or_else(|| format!("unknown renderer {}", gotmpl::strconv::quote(name)))?;
    renderer.render(msgs, tools.unwrap_or(&[]), think, today, rules)
}

/// `renderers.LeadingBOSForRenderer(name)`: the textual BOS a renderer
/// emits at the start of its prompt, which the runner de-duplicates.
/// `None` when the name is unknown or the renderer emits none (Go's `""`).
pub fn leading_bos(name: &str) -> Option<&'static str> {
    Renderer::for_name(name)
        .map(Renderer::leading_bos)
        .filter(|bos| !bos.is_empty())
}

/// Whether `name` is a built-in renderer.
pub fn is_known_renderer(name: &str) -> bool {
    Renderer::for_name(name).is_some()
}

/// Models from 12 billion parameters up use the large Gemma 4 prompt.
const GEMMA4_LARGE_MIN_PARAMETER_COUNT: u64 = 12_000_000_000;

/// `resolveRendererName` (server/renderer_resolution.go): the renderer a
/// model's `config.renderer` names, with the legacy `gemma4` resolved to
/// `gemma4-small` or `gemma4-large`.
///
/// `model_name` is the model's name; Go checks its short form and then its
/// fully qualified form, and the parts only the latter adds (the default
/// host, namespace and `latest` tag) never contain the size markers, so
/// either form gives the same answer. `parameter_count` is
/// `config.model_type` read by [`parse_human_parameter_count`]. An empty
/// `config_renderer` gives `""` (no renderer).
pub fn resolve_renderer_name(
    config_renderer: &str,
    model_name: &str,
    parameter_count: Option<u64>,
) -> String {
    let rules = changes::Rules::of_release(changes::Release::NEWEST);
    resolve_renderer_name_in(config_renderer, model_name, parameter_count, &rules)
}

/// [`resolve_renderer_name`] as the release of `rules` resolves it: before
/// `gemma4_large_from_12b`, a `12b` name was no size marker and the large
/// prompt began at 16 billion parameters. The row is noted only where it
/// decides.
pub fn resolve_renderer_name_in(
    config_renderer: &str,
    model_name: &str,
    parameter_count: Option<u64>,
    rules: &changes::Rules,
) -> String {
    if config_renderer != "gemma4" {
        return config_renderer.to_string();
    }
    let lower = text::to_lower(model_name);
    let large = |big: bool| if big { "gemma4-large" } else { "gemma4-small" };
    if lower.contains("e2b") || lower.contains("e4b") {
        return "gemma4-small".to_string();
    }
    if lower.contains("26b") || lower.contains("31b") {
        return "gemma4-large".to_string();
    }
    let row = &changes::ollama::GEMMA4_LARGE_FROM_12B;
    if lower.contains("12b") && rules.on(row) {
        return "gemma4-large".to_string();
    }
    match parameter_count {
        Some(n) if n >= GEMMA4_LARGE_MIN_PARAMETER_COUNT_OLD => large(true).to_string(),
        Some(n) if n >= GEMMA4_LARGE_MIN_PARAMETER_COUNT => large(rules.on(row)).to_string(),
        _ => "gemma4-small".to_string(),
    }
}

/// The large Gemma 4 prompt's threshold before `gemma4_large_from_12b`.
const GEMMA4_LARGE_MIN_PARAMETER_COUNT_OLD: u64 = 16_000_000_000;

/// `parseHumanParameterCount`: a `config.model_type` such as `"31.3B"`,
/// `"600M"` or `"8K"` as a number of parameters; `None` when it has no such
/// unit or its number does not parse. Out-of-range products convert as Go
/// does on amd64.
pub fn parse_human_parameter_count(s: &str) -> Option<u64> {
    let (&unit, _) = s.as_bytes().split_last()?;
    let multiplier = match unit.to_ascii_uppercase() {
        b'B' => 1e9,
        b'M' => 1e6,
        b'K' => 1e3,
        _ => return None,
    };
    let value = gotmpl::strconv::parse_float(&s[..s.len() - 1]).ok()?;
    Some(text::go_f64_to_u64(value * multiplier))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ChatRequest;
    use serde_json::{json, Value as Json};

    /// Conversations recorded from Ollama's own renderers (with
    /// `RenderImgTags = true`), for the paths the shared goldens leave out:
    /// schema walks, Python-style JSON, odd roles, images in every role,
    /// `think` levels, tool-call ids, numbers and escapes.
    #[test]
    fn go_recorded_cases() {
        let mut n = 0;
        for line in include_str!("testdata/go_recorded.jsonl").lines() {
            let case: Json = serde_json::from_str(line).unwrap();
            let req = ChatRequest::decode(&json!({
                "messages": case["messages"],
                "tools": case["tools"],
                "think": case["think"],
            }))
            .unwrap();
            let got = render_with_renderer_at(
                case["renderer"].as_str().unwrap(),
                &req.messages,
                req.tools.as_deref(),
                req.think.as_ref(),
                case["date"].as_str().unwrap_or("1970-01-01"),
            );
            let got = match got {
                Ok(prompt) => json!({ "prompt": prompt }),
                Err(error) => json!({ "error": error }),
            };
            assert_eq!(got, case["expect"], "{}", case["id"]);
            n += 1;
        }
        assert!(n >= 20);
    }

    #[test]
    fn unknown_renderer_error() {
        let err = render_with_renderer("nope", &[], None, None).unwrap_err();
        assert_eq!(err, r#"unknown renderer "nope""#);
        assert!(RENDERER_NAMES.iter().all(|n| is_known_renderer(n)));
    }

    #[test]
    fn leading_bos_table() {
        assert_eq!(leading_bos("cogito"), Some("<｜begin▁of▁sentence｜>"));
        assert_eq!(leading_bos("deepseek3.1"), Some("<｜begin▁of▁sentence｜>"));
        assert_eq!(leading_bos("cohere"), Some("<BOS_TOKEN>"));
        assert_eq!(leading_bos("gemma4-large"), Some("<bos>"));
        assert_eq!(leading_bos("functiongemma"), Some("<bos>"));
        assert_eq!(leading_bos("lfm2-thinking"), Some("<|startoftext|>"));
        assert_eq!(leading_bos("poolside-v1"), Some("〈|EOS|〉"));
        assert_eq!(leading_bos("glimmer"), Some("<|begin_of_text|>"));
        assert_eq!(leading_bos("qwen3.5"), None);
        assert_eq!(leading_bos("nope"), None);
    }

    #[test]
    fn gemma4_resolution() {
        assert_eq!(
            resolve_renderer_name("gemma4", "gemma4:e4b", Some(30_000_000_000)),
            "gemma4-small"
        );
        assert_eq!(
            resolve_renderer_name("gemma4", "Gemma4:31B", None),
            "gemma4-large"
        );
        assert_eq!(
            resolve_renderer_name("gemma4", "demo", None),
            "gemma4-small"
        );
        assert_eq!(
            resolve_renderer_name("gemma4", "demo", parse_human_parameter_count("12.0B")),
            "gemma4-large"
        );
        assert_eq!(
            resolve_renderer_name("qwen3.5", "gemma4:31b", None),
            "qwen3.5"
        );
        assert_eq!(resolve_renderer_name("", "x", None), "");
        assert_eq!(parse_human_parameter_count("600M"), Some(600_000_000));
        assert_eq!(parse_human_parameter_count("8k"), Some(8000));
        assert_eq!(parse_human_parameter_count("B"), None);
        assert_eq!(parse_human_parameter_count("7"), None);
        assert_eq!(parse_human_parameter_count("x7B"), None);
        assert_eq!(parse_human_parameter_count(""), None);
        assert_eq!(parse_human_parameter_count("é"), None);
    }

    /// server/gemma4_test.go TestResolveGemma4Renderer at v0.30.3 and at
    /// v0.30.2 (which lacks the two 12b rows' answers: small), on either
    /// side of `gemma4_large_from_12b`.
    #[test]
    fn gemma4_resolution_by_release() {
        // (name, config renderer, model name, model type, v0.30.3, v0.30.2)
        type Case<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, &'a str, &'a str);
        let cases: &[Case] = &[
            // (name, config renderer, model name, model type, v0.30.3, v0.30.2)
            (
                "explicit small passes through",
                "gemma4-small",
                "",
                None,
                "gemma4-small",
                "gemma4-small",
            ),
            (
                "explicit large passes through",
                "gemma4-large",
                "",
                None,
                "gemma4-large",
                "gemma4-large",
            ),
            (
                "legacy e4b tag resolves small",
                "gemma4",
                "gemma4:e4b",
                None,
                "gemma4-small",
                "gemma4-small",
            ),
            (
                "legacy 31b tag resolves large",
                "gemma4",
                "gemma4:31b-cloud",
                None,
                "gemma4-large",
                "gemma4-large",
            ),
            (
                "legacy 12b tag resolves large",
                "gemma4",
                "gemma-4-12b-it",
                None,
                "gemma4-large",
                "gemma4-small",
            ),
            (
                "legacy model type resolves small",
                "gemma4",
                "",
                Some("4.3B"),
                "gemma4-small",
                "gemma4-small",
            ),
            (
                "legacy model type resolves large",
                "gemma4",
                "",
                Some("25.2B"),
                "gemma4-large",
                "gemma4-large",
            ),
            (
                "legacy 12b model type resolves large",
                "gemma4",
                "",
                Some("12B"),
                "gemma4-large",
                "gemma4-small",
            ),
            (
                "legacy unknown defaults small",
                "gemma4",
                "",
                None,
                "gemma4-small",
                "gemma4-small",
            ),
            // the inventory's own: a 13.5B model named without a size
            (
                "13.5B model type",
                "gemma4",
                "mymodel",
                Some("13.5B"),
                "gemma4-large",
                "gemma4-small",
            ),
            (
                "16B model type",
                "gemma4",
                "mymodel",
                Some("16B"),
                "gemma4-large",
                "gemma4-large",
            ),
        ];
        for (tag, column) in [("0.30.3", 4), ("0.30.2", 5)] {
            let release = changes::Release::parse(tag).unwrap();
            for c in cases {
                let rules = changes::Rules::of_release(release);
                let count = c.3.and_then(parse_human_parameter_count);
                let want = if column == 4 { c.4 } else { c.5 };
                assert_eq!(
                    resolve_renderer_name_in(c.1, c.2, count, &rules),
                    want,
                    "{tag}: {}",
                    c.0
                );
                // the row is consulted exactly where the two releases part
                assert_eq!(!rules.applied().is_empty(), c.4 != c.5, "{tag}: {}", c.0);
            }
        }
    }
}
