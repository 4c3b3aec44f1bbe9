//! What differs between the builds and releases Promptscope reproduces, as
//! data: one table of named changes per runtime, and the [`Rules`] a build
//! puts in effect.
//!
//! The model is Go's GODEBUG table (`internal/godebugs/table.go`): every
//! behaviour that changed between two builds is one row ([`Change`]: a
//! name, the build that first has it, the upstream change, the file where
//! it acts, the new and the old behaviour in a line each), and the code
//! that acts asks for it by name where it acts
//! (`if rules.on(&llamacpp::JINJA_NONE_IN) { ... }`), with no version
//! comparison anywhere else. A reader answers "what differs between b10488
//! and b11312?" by reading [`llamacpp::TABLE`], and a render says which
//! rows it passed through ([`Rules::applied`]), which is how `promptscope
//! diff` and the app's Explain pane name the cause of a difference.
//!
//! The crate knows nothing of templates, GGUF or Ollama's code: it is the
//! table and the lookup.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::cell::RefCell;
use std::fmt;

/// A runtime's table: one `pub const` [`Change`] per row (its doc is the
/// row's two lines) and `TABLE`, every row in the order written.
macro_rules! change_table {
    ($runtime:expr, $table_doc:literal;
     $($name:ident = $id:literal, $area:literal, ($last:expr, $first:expr), $upstream:literal,
       $file:literal, new: $new:literal, old: $old:literal;)*) => {
        $(
            #[doc = concat!("`", $id, "`: ", $new, " (before: ", $old, ").")]
            pub const $name: Change = Change {
                id: $id,
                runtime: $runtime,
                area: $area,
                first: $first,
                last_without: $last,
                upstream: $upstream,
                file: $file,
                new: $new,
                old: $old,
            };
        )*
        #[doc = $table_doc]
        pub const TABLE: &[&Change] = &[$(&$name),*];
    };
}

pub mod llamacpp;
pub mod ollama;

pub use llamacpp::Build;
pub use ollama::Release;

/// Whose table a row is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// llama.cpp ([`llamacpp::TABLE`]): versions are build numbers.
    LlamaCpp,
    /// Ollama ([`ollama::TABLE`]): versions are release tags, numbered by
    /// [`ollama::number`].
    Ollama,
}

/// One behaviour that changed between two builds of a runtime.
#[derive(Debug, PartialEq, Eq)]
pub struct Change {
    /// The name the code asks for (`jinja_none_in`).
    pub id: &'static str,
    /// The runtime whose table holds the row.
    pub runtime: Runtime,
    /// Where it acts: `jinja`, `chat`, `server`, `tokenizer`, `cache`,
    /// `media`; for Ollama `renderer`, `parser`, `tools` (the TEMPLATE's
    /// tool-call parser), `server`, `options`, `route`.
    pub area: &'static str,
    /// The first published version known to have the new behaviour (a
    /// llama.cpp build number, or an Ollama release's [`ollama::number`]).
    pub first: u32,
    /// The last published version known not to have it: the change
    /// landed in `(last_without, first]`.
    pub last_without: u32,
    /// The upstream change (pull request or commit) that made it.
    pub upstream: &'static str,
    /// The upstream file and function where it acts.
    pub file: &'static str,
    /// What builds from `first` on do, in a line.
    pub new: &'static str,
    /// What builds up to `last_without` do, in a line.
    pub old: &'static str,
}

impl Change {
    /// The first version with the new behaviour as its runtime names it
    /// (`b11312`, `0.32.15-rc2`).
    pub fn first_version(&self) -> String {
        version_name(self.runtime, self.first)
    }

    /// The last version without it (`b11311`, `0.32.15-rc1`).
    pub fn last_version_without(&self) -> String {
        version_name(self.runtime, self.last_without)
    }
}

fn version_name(runtime: Runtime, n: u32) -> String {
    match runtime {
        Runtime::LlamaCpp => format!("b{n}"),
        Runtime::Ollama => ollama::name_of(n),
    }
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Runtime::LlamaCpp => "llama.cpp",
            Runtime::Ollama => "Ollama",
        })
    }
}

impl fmt::Display for Change {
    /// `id (llama.cpp bFIRST, UPSTREAM): NEW; before: OLD` (`Ollama
    /// 0.32.15-rc2` for Ollama's rows).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} {}, {}): {}; before: {}",
            self.id,
            self.runtime,
            self.first_version(),
            self.upstream,
            self.new,
            self.old
        )
    }
}

/// The rules of one build (or one Ollama release and the build it
/// compiles) in effect for one piece of work (a render, a tokenization),
/// and the rows of the tables that work consulted: each `on` is a place
/// where the version decides what happens, so the consulted rows are the
/// version-specific rules that applied.
#[derive(Debug)]
pub struct Rules {
    build: Build,
    release: Release,
    applied: RefCell<Vec<&'static Change>>,
}

impl Rules {
    /// The rules of llama.cpp `build`, with nothing consulted yet (Ollama's
    /// rows, if asked, are the newest release's).
    pub fn new(build: Build) -> Rules {
        Rules {
            build,
            release: Release::NEWEST,
            applied: RefCell::new(Vec::new()),
        }
    }

    /// The rules of an Ollama release: its own rows and those of the
    /// llama.cpp build it compiles.
    pub fn of_release(release: Release) -> Rules {
        Rules {
            build: release.llama_cpp,
            release,
            applied: RefCell::new(Vec::new()),
        }
    }

    /// The llama.cpp build.
    pub fn build(&self) -> Build {
        self.build
    }

    /// The Ollama release.
    pub fn release(&self) -> Release {
        self.release
    }

    /// Whether `change` is in effect; notes that it was consulted.
    pub fn on(&self, change: &'static Change) -> bool {
        let mut applied = self.applied.borrow_mut();
        if !applied.iter().any(|c| c.id == change.id) {
            applied.push(change);
        }
        self.has(change)
    }

    /// Whether `change` is in effect, without noting it.
    pub fn has(&self, change: &Change) -> bool {
        match change.runtime {
            Runtime::LlamaCpp => self.build.has(change),
            Runtime::Ollama => self.release.has(change),
        }
    }

    /// The rows consulted so far, in the order first consulted.
    pub fn applied(&self) -> Vec<&'static Change> {
        self.applied.borrow().clone()
    }

    /// Forgets what was consulted (the build stays).
    pub fn clear(&self) {
        self.applied.borrow_mut().clear();
    }
}

impl Default for Rules {
    /// The newest supported build's rules.
    fn default() -> Rules {
        Rules::new(Build::NEWEST)
    }
}

impl Clone for Rules {
    fn clone(&self) -> Rules {
        Rules {
            build: self.build,
            release: self.release,
            applied: RefCell::new(self.applied.borrow().clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_has_the_changes_up_to_it() {
        let old = Rules::new(Build::B10488);
        let new = Rules::new(Build::B11312);
        assert!(!old.on(&llamacpp::PRESERVE_REASONING_DEFAULT));
        assert!(new.on(&llamacpp::PRESERVE_REASONING_DEFAULT));
        assert_eq!(old.applied(), vec![&llamacpp::PRESERVE_REASONING_DEFAULT]);
        old.on(&llamacpp::PRESERVE_REASONING_DEFAULT);
        assert_eq!(old.applied().len(), 1, "a row is noted once");
    }

    #[test]
    fn every_row_is_well_formed_and_named_once() {
        let mut ids = std::collections::BTreeSet::new();
        for c in llamacpp::TABLE.iter().chain(ollama::TABLE) {
            assert!(ids.insert(c.id), "{} twice", c.id);
            if c.runtime == Runtime::Ollama {
                assert_eq!(
                    ollama::number_of(&c.first_version()),
                    Some(c.first),
                    "{}",
                    c.id
                );
            }
            assert!(c.last_without < c.first, "{}", c.id);
            assert!(
                c.id.chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'),
                "{}",
                c.id
            );
            for text in [c.upstream, c.file, c.new, c.old, c.area] {
                assert!(
                    !text.is_empty() && !text.ends_with('.'),
                    "{}: {text:?}",
                    c.id
                );
            }
        }
    }

    #[test]
    fn releases_and_builds_parse_by_their_tags() {
        assert_eq!(Release::parse("v0.33.0-rc2"), Ok(Release::V0_33_0_RC2));
        assert_eq!(
            Release::parse("0.33.0-rc2").unwrap().llama_cpp,
            Build::B10488
        );
        assert_eq!(
            Release::parse("0.29.9").unwrap_err(),
            "Ollama \"0.29.9\" is not a supported release (supported: every release from 0.30.0 to 0.33.0-rc2)"
        );
        assert_eq!(Build::parse("b11312"), Ok(Build::B11312));
        assert_eq!(Build::parse("10488"), Ok(Build::B10488));
        assert_eq!(
            Build::parse("b9999").unwrap_err(),
            "llama.cpp build \"b9999\" is not supported (supported: b9452, b9479, b9493, b9509, b9626, b9672, b9781, b9840, b9888, b10069, b10091, b10242, b10353, b10380, b10434, b10488, b11312)"
        );
        assert!(Build::parse("latest")
            .unwrap_err()
            .contains("not a llama.cpp build"));
    }

    #[test]
    fn every_row_separates_two_supported_builds() {
        // a row no supported build lacks (or has) tells nothing apart
        for c in llamacpp::TABLE {
            assert!(Build::NEWEST.has(c), "{}", c.id);
            assert!(
                !Build::SUPPORTED[0].has(c),
                "{}: every supported build has it",
                c.id
            );
        }
        let between = |a: Build, b: Build| a.differences(b).len();
        assert_eq!(between(Build::B10488, Build::B11312), 28);
        assert_eq!(between(Build::B10434, Build::B10488), 3);
        assert_eq!(between(Build::B10380, Build::B10434), 3);
        assert_eq!(between(Build::B10353, Build::B10380), 0);
        assert_eq!(between(Build::B10242, Build::B10353), 4);
        assert_eq!(between(Build::B10091, Build::B10242), 5);
        assert_eq!(between(Build::B10069, Build::B10091), 1);
        assert_eq!(between(Build::B9888, Build::B10069), 6);
        assert_eq!(between(Build::B9840, Build::B9888), 1);
        assert_eq!(between(Build::B9781, Build::B9840), 6);
        assert_eq!(between(Build::B9672, Build::B9781), 2);
        assert_eq!(between(Build::B9626, Build::B9672), 3);
        assert_eq!(between(Build::B9509, Build::B9626), 6);
        assert_eq!(between(Build::B9493, Build::B9509), 1);
        assert_eq!(between(Build::B9479, Build::B9493), 2);
        assert_eq!(between(Build::B9452, Build::B9479), 1);
    }
}
