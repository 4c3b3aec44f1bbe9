//! Ollama: the releases Promptscope reproduces, and the llama.cpp build
//! each compiles for native mode (its `LLAMA_CPP_VERSION` file).

use crate::llamacpp::Build;
use std::fmt;

/// An Ollama release tag (`0.33.0-rc2`), as `ollama -v` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Release {
    /// `0.33.0-rc2`.
    pub tag: &'static str,
    /// The commit the tag names.
    pub commit: &'static str,
    /// The llama.cpp build its `LLAMA_CPP_VERSION` names.
    pub llama_cpp: Build,
}

impl Release {
    /// v0.33.0-rc2 (commit fb30760, 2026-08-21): llama.cpp b10488.
    pub const V0_33_0_RC2: Release = Release {
        tag: "0.33.0-rc2",
        commit: "fb30760996871fa9460115c753afd2c60d4ab0f7",
        llama_cpp: Build::B10488,
    };
    /// The newest supported release: the default.
    pub const NEWEST: Release = Release::V0_33_0_RC2;
    /// Every release whose behaviour is reproduced, oldest first.
    pub const SUPPORTED: &'static [Release] = &[Release::V0_33_0_RC2];

    /// A supported release from its tag (`0.33.0-rc2`, or `v0.33.0-rc2`);
    /// anything else is an error that names the supported releases.
    pub fn parse(text: &str) -> Result<Release, String> {
        let tag = text.strip_prefix('v').unwrap_or(text);
        Release::SUPPORTED
            .iter()
            .copied()
            .find(|r| r.tag == tag)
            .ok_or_else(|| {
                format!(
                    "Ollama {text:?} is not a supported release (supported: {})",
                    Release::SUPPORTED
                        .iter()
                        .map(|r| r.tag)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag)
    }
}
