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
    /// v0.33.0-rc1 (commit 124e9af, 2026-08-21): llama.cpp b10488.
    pub const V0_33_0_RC1: Release = Release {
        tag: "0.33.0-rc1",
        commit: "124e9af9d281483ebeeba3e9a950f19764c2c3e9",
        llama_cpp: Build::B10488,
    };
    /// v0.33.0-rc0 (commit 2d9622a, 2026-08-21): llama.cpp b10488.
    pub const V0_33_0_RC0: Release = Release {
        tag: "0.33.0-rc0",
        commit: "2d9622a4d4976ff18367c6eb021b8638912d8493",
        llama_cpp: Build::B10488,
    };
    /// v0.32.15 (commit b7871fc, 2026-08-19): llama.cpp b10488.
    pub const V0_32_15: Release = Release {
        tag: "0.32.15",
        commit: "b7871fc0d1d82fe109536efa3e0e8e411c766c75",
        llama_cpp: Build::B10488,
    };
    /// v0.32.15-rc2: the same commit as v0.32.15.
    pub const V0_32_15_RC2: Release = Release {
        tag: "0.32.15-rc2",
        commit: "b7871fc0d1d82fe109536efa3e0e8e411c766c75",
        llama_cpp: Build::B10488,
    };
    /// The newest supported release: the default.
    pub const NEWEST: Release = Release::V0_33_0_RC2;
    /// Every release whose behaviour is reproduced, oldest first. From
    /// v0.32.15-rc2 to v0.33.0-rc2 nothing that reaches the model or the API
    /// changed (COMPATIBILITY.md, "Ollama releases"): no row of a release
    /// table tells them apart yet.
    pub const SUPPORTED: &'static [Release] = &[
        Release::V0_32_15_RC2,
        Release::V0_32_15,
        Release::V0_33_0_RC0,
        Release::V0_33_0_RC1,
        Release::V0_33_0_RC2,
    ];

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_parse_by_tag_and_name_their_build() {
        for tag in [
            "0.32.15-rc2",
            "v0.32.15",
            "0.33.0-rc0",
            "0.33.0-rc1",
            "0.33.0-rc2",
        ] {
            let r = Release::parse(tag).unwrap();
            assert_eq!(r.tag, tag.trim_start_matches('v'));
            assert_eq!(r.llama_cpp, Build::B10488);
        }
        assert_eq!(Release::NEWEST, *Release::SUPPORTED.last().unwrap());
        let e = Release::parse("0.32.14").unwrap_err();
        assert_eq!(
            e,
            "Ollama \"0.32.14\" is not a supported release (supported: 0.32.15-rc2, 0.32.15, 0.33.0-rc0, 0.33.0-rc1, 0.33.0-rc2)"
        );
    }
}
