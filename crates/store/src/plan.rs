//! What a reader that cannot read synchronously (the browser, through a
//! folder handle) must fetch into a [`MemDir`] before the store functions
//! run on it: for the list, every manifest, every config and template
//! blob and the first bytes of each model blob (its header, which
//! `ollama list` scans); for one model, its small layers. Never a model
//! blob's tensor data.

use crate::dir::MemDir;
use crate::manifest::{self, media};

/// How much of a file to fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// The whole file (the caller refuses files over `limit`).
    Whole {
        /// The most bytes the file may have.
        limit: u64,
    },
    /// Its first bytes.
    Prefix(u64),
    /// Its size only.
    Size,
}

/// One file to fetch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Need {
    /// The path, relative to the models directory.
    pub path: String,
    /// How much of it.
    pub how: How,
}

/// How many bytes of a model blob the list reads: the header values up
/// to the tokenizer arrays fit in this in every real GGUF.
pub const HEADER_PREFIX: u64 = 256 << 10;

fn push(out: &mut Vec<Need>, dir: &MemDir, path: String, how: How) {
    let have = match how {
        How::Whole { .. } => dir.has_whole(&path),
        _ => dir.contains(&path),
    };
    if !have && !out.iter().any(|n| n.path == path) {
        out.push(Need { path, how });
    }
}

fn needs(dir: &MemDir, small: impl Fn(&str) -> bool, header: bool) -> Vec<Need> {
    let mut out = Vec::new();
    let Ok((all, _)) = manifest::all(dir) else {
        return out;
    };
    for (_, m) in &all {
        let whole = How::Whole {
            limit: crate::model::SMALL_BLOB_LIMIT,
        };
        if let Ok(p) = manifest::blob_path(&m.config.digest) {
            push(&mut out, dir, p, whole);
        }
        for l in &m.layers {
            let Ok(p) = manifest::blob_path(&l.digest) else {
                continue;
            };
            match l.media_type.as_str() {
                media::MODEL | media::PROJECTOR if header => {
                    push(&mut out, dir, p, How::Prefix(HEADER_PREFIX))
                }
                media::MODEL | media::PROJECTOR | media::ADAPTER | media::DRAFT => {
                    push(&mut out, dir, p, How::Size)
                }
                t if small(t) => push(&mut out, dir, p, whole),
                _ => {}
            }
        }
    }
    out
}

/// What the list needs beyond the manifests already in `dir`.
pub fn for_list(dir: &MemDir) -> Vec<Need> {
    needs(dir, |t| matches!(t, media::TEMPLATE | media::PROMPT), true)
}

/// What loading models needs beyond what `dir` holds: every small layer
/// (template, system, params, messages, license).
pub fn for_models(dir: &MemDir) -> Vec<Need> {
    needs(
        dir,
        |t| {
            matches!(
                t,
                media::TEMPLATE
                    | media::PROMPT
                    | media::SYSTEM
                    | media::PARAMS
                    | media::MESSAGES
                    | media::LICENSE
            )
        },
        true,
    )
}
