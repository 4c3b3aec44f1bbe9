//! One front door for the runtimes whose prompts Promptscope reproduces:
//! which runtime and version a render case names ([`Spec`], contract v3 of
//! `shared/spec/cli.md`), llama-server's own rendering of its own request
//! ([`llama_server`]), Hugging Face transformers' `apply_chat_template`
//! ([`transformers`]), and where two renders part ([`diff`]).
//!
//! Each runtime owns its engine: Ollama is the `ollama` crate (a release
//! implies the llama.cpp build of its native mode), llama-server is the
//! `llamachat` crate on the `jinja` crate, both at a build of
//! `changes::llamacpp`; transformers is the `jinja` crate's Jinja2
//! dialect under [`transformers`]'s argument handling. This crate chooses,
//! compares, and holds transformers' argument handling.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;

use serde_json::Value as Json;

pub use changes::{Build, Release};

pub mod diff;
pub mod llama_server;
pub mod transformers;
pub mod upgrade;

/// A runtime and its version: what renders a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// Ollama at a release (native mode runs that release's llama.cpp).
    Ollama(Release),
    /// llama-server at a llama.cpp build.
    LlamaServer(Build),
    /// Hugging Face transformers' `apply_chat_template` (the pinned
    /// release, [`transformers::VERSION`]).
    Transformers,
}

impl Spec {
    /// The runtime's name as a case writes it (`ollama`, `llama-server`).
    pub fn runtime(&self) -> &'static str {
        match self {
            Spec::Ollama(_) => "ollama",
            Spec::LlamaServer(_) => "llama-server",
            Spec::Transformers => "transformers",
        }
    }

    /// The version as the case's version key writes it (`0.33.0-rc2`,
    /// `b10488`).
    pub fn version(&self) -> String {
        match self {
            Spec::Ollama(r) => r.tag.to_string(),
            Spec::LlamaServer(b) => b.to_string(),
            Spec::Transformers => transformers::VERSION.to_string(),
        }
    }

    /// The llama.cpp build that renders native mode or llama-server's
    /// own requests (none for transformers).
    pub fn llama_cpp(&self) -> Option<Build> {
        match self {
            Spec::Ollama(r) => Some(r.llama_cpp),
            Spec::LlamaServer(b) => Some(*b),
            Spec::Transformers => None,
        }
    }

    /// A spec as `promptscope diff --as` writes it: `ollama@0.30.11`,
    /// `llama-server@b10488`, or a runtime alone (its newest version).
    pub fn parse(text: &str) -> Result<Spec, String> {
        let (runtime, version) = match text.split_once('@') {
            Some((r, v)) => (r, Some(v)),
            None => (text, None),
        };
        Spec::of(runtime, version)
    }

    /// A runtime's name and optional version.
    pub fn of(runtime: &str, version: Option<&str>) -> Result<Spec, String> {
        match runtime {
            "ollama" => Ok(Spec::Ollama(match version {
                Some(v) => Release::parse(v)?,
                None => Release::NEWEST,
            })),
            "llama-server" => Ok(Spec::LlamaServer(match version {
                Some(v) => Build::parse(v)?,
                None => Build::NEWEST,
            })),
            "transformers" => match version {
                None => Ok(Spec::Transformers),
                Some(v) if v == transformers::VERSION => Ok(Spec::Transformers),
                Some(v) => Err(format!(
                    "transformers {v:?} is not a supported version (supported: {})",
                    transformers::VERSION
                )),
            },
            other => Err(format!(
                "unknown runtime {other:?} (supported: ollama, llama-server, transformers)"
            )),
        }
    }

    /// The spec a render case names: its `runtime` (absent = `ollama`)
    /// and that runtime's version key (`ollama`, `llamacpp`), each
    /// defaulting to `defaults` (the command line's flags) and then to the
    /// newest. A version key of another runtime is an error, and so is
    /// `llamacpp` for Ollama (its release implies the build).
    pub fn of_case(case: &Json, defaults: &Defaults) -> Result<Spec, String> {
        let key = |k: &str| -> Result<Option<String>, String> {
            match case.get(k) {
                None | Some(Json::Null) => Ok(None),
                Some(Json::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(format!("{k} must be a string")),
            }
        };
        let runtime = key("runtime")?
            .or_else(|| defaults.runtime.clone())
            .unwrap_or_else(|| "ollama".into());
        let ollama = key("ollama")?;
        let llamacpp = key("llamacpp")?;
        let transformers = key("transformers")?;
        match runtime.as_str() {
            "ollama" => {
                if llamacpp.is_some() {
                    return Err(
                        "llamacpp is implied by the Ollama release and may not be given \
                                with runtime \"ollama\""
                            .into(),
                    );
                }
                if transformers.is_some() {
                    return Err(
                        "transformers is a version of runtime \"transformers\", not \
                                of runtime \"ollama\""
                            .into(),
                    );
                }
                Spec::of(
                    "ollama",
                    ollama.or_else(|| defaults.ollama.clone()).as_deref(),
                )
            }
            "llama-server" => {
                if ollama.is_some() || transformers.is_some() {
                    return Err(format!(
                        "{} is not a version of runtime \"llama-server\" (its key is llamacpp)",
                        if ollama.is_some() {
                            "ollama"
                        } else {
                            "transformers"
                        }
                    ));
                }
                Spec::of(
                    "llama-server",
                    llamacpp.or_else(|| defaults.llamacpp.clone()).as_deref(),
                )
            }
            "transformers" => {
                if ollama.is_some() || llamacpp.is_some() {
                    return Err(format!(
                        "{} is not a version of runtime \"transformers\" (its key is transformers)",
                        if ollama.is_some() {
                            "ollama"
                        } else {
                            "llamacpp"
                        }
                    ));
                }
                Spec::of(
                    "transformers",
                    transformers
                        .or_else(|| defaults.transformers.clone())
                        .as_deref(),
                )
            }
            other => Spec::of(other, None),
        }
    }
}

impl fmt::Display for Spec {
    /// `runtime@version`, as `promptscope diff --as` takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.runtime(), self.version())
    }
}

/// The command line's `--runtime`, `--ollama`, `--llamacpp`: what a case
/// that names none of them gets.
#[derive(Clone, Debug, Default)]
pub struct Defaults {
    /// `--runtime`.
    pub runtime: Option<String>,
    /// `--ollama`.
    pub ollama: Option<String>,
    /// `--llamacpp`.
    pub llamacpp: Option<String>,
    /// `--transformers`.
    pub transformers: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn specs_parse_and_print() {
        assert_eq!(
            Spec::parse("ollama@0.33.0-rc2"),
            Ok(Spec::Ollama(Release::V0_33_0_RC2))
        );
        assert_eq!(
            Spec::parse("llama-server@b10488"),
            Ok(Spec::LlamaServer(Build::B10488))
        );
        assert_eq!(
            Spec::parse("llama-server"),
            Ok(Spec::LlamaServer(Build::NEWEST))
        );
        assert_eq!(
            Spec::parse("llama-server@b10488").unwrap().to_string(),
            "llama-server@b10488"
        );
        assert!(Spec::parse("vllm@1")
            .unwrap_err()
            .starts_with("unknown runtime \"vllm\""));
        assert_eq!(
            Spec::Ollama(Release::NEWEST).llama_cpp(),
            Some(Build::B10488)
        );
        assert_eq!(Spec::parse("transformers"), Ok(Spec::Transformers));
        assert_eq!(
            Spec::parse("transformers@5.25.0").unwrap().to_string(),
            "transformers@5.25.0"
        );
        assert!(Spec::parse("transformers@4.57.0")
            .unwrap_err()
            .contains("supported: 5.25.0"));
    }

    #[test]
    fn a_case_names_its_runtime_and_version() {
        let d = Defaults::default();
        assert_eq!(
            Spec::of_case(&json!({}), &d),
            Ok(Spec::Ollama(Release::NEWEST))
        );
        assert_eq!(
            Spec::of_case(
                &json!({"runtime": "llama-server", "llamacpp": "b10488"}),
                &d
            ),
            Ok(Spec::LlamaServer(Build::B10488))
        );
        assert!(Spec::of_case(&json!({"llamacpp": "b10488"}), &d)
            .unwrap_err()
            .contains("implied by the Ollama release"));
        assert_eq!(
            Spec::of_case(&json!({"runtime": "transformers"}), &d),
            Ok(Spec::Transformers)
        );
        assert!(Spec::of_case(
            &json!({"runtime": "transformers", "llamacpp": "b10488"}),
            &d
        )
        .unwrap_err()
        .contains("its key is transformers"));
        assert!(Spec::of_case(
            &json!({"runtime": "llama-server", "ollama": "0.33.0-rc2"}),
            &d
        )
        .unwrap_err()
        .contains("its key is llamacpp"));
        let flags = Defaults {
            runtime: Some("llama-server".into()),
            llamacpp: Some("b10488".into()),
            ..Defaults::default()
        };
        assert_eq!(
            Spec::of_case(&json!({}), &flags),
            Ok(Spec::LlamaServer(Build::B10488))
        );
        // the case's own keys win over the flags
        assert_eq!(
            Spec::of_case(&json!({"llamacpp": "b11312"}), &flags),
            Ok(Spec::LlamaServer(Build::B11312))
        );
    }
}
