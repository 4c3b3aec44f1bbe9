//! Where two renders of one conversation part: the first differing byte
//! (and token, given each side's tokens), the text around it on both
//! sides, and the rows of the change table that explain it.

use ollama::server::BuildRule;

use crate::Spec;

/// The first byte at which `a` and `b` differ (the shorter one's length
/// when one is a prefix of the other); `None` when they are equal.
pub fn first_byte(a: &str, b: &str) -> Option<usize> {
    if a == b {
        return None;
    }
    let n = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    Some(n)
}

/// The first index at which two token lists differ.
pub fn first_token(a: &[u32], b: &[u32]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(a.iter().zip(b).take_while(|(x, y)| x == y).count())
}

/// The text around byte `at` of `s`: up to `radius` bytes on each side,
/// widened to character boundaries.
pub fn context(s: &str, at: usize, radius: usize) -> String {
    let mut start = at.saturating_sub(radius).min(s.len());
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + radius).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    s[start..end].to_string()
}

/// The rows that explain why two specs' renders differ: the rows of
/// llama.cpp's table in effect in one build and not the other that either
/// render consulted (for Ollama, through its release's build). Two renders
/// at the same build have no such rows.
pub fn explained_by(
    a: (Spec, &[BuildRule]),
    b: (Spec, &[BuildRule]),
) -> Vec<&'static changes::Change> {
    let (ba, bb) = (a.0.llama_cpp(), b.0.llama_cpp());
    ba.differences(bb)
        .into_iter()
        .filter(|c| a.1.iter().chain(b.1).any(|r| r.id == c.id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Build;

    #[test]
    fn the_first_difference_and_its_context() {
        assert_eq!(first_byte("abc", "abc"), None);
        assert_eq!(first_byte("abc", "abd"), Some(2));
        assert_eq!(first_byte("ab", "abc"), Some(2));
        assert_eq!(first_token(&[1, 2, 3], &[1, 2]), Some(2));
        assert_eq!(context("héllo wörld", 2, 1), "é");
        assert_eq!(context("abcdef", 3, 2), "bcde");
    }

    #[test]
    fn only_consulted_rows_between_the_builds_explain() {
        let consulted = [BuildRule::of(
            &changes::llamacpp::PRESERVE_REASONING_DEFAULT,
            Build::B10488,
        )];
        let rows = explained_by(
            (Spec::LlamaServer(Build::B10488), &consulted),
            (Spec::LlamaServer(Build::B11312), &[]),
        );
        assert_eq!(rows, vec![&changes::llamacpp::PRESERVE_REASONING_DEFAULT]);
        assert!(explained_by(
            (Spec::LlamaServer(Build::B11312), &consulted),
            (Spec::LlamaServer(Build::B11312), &consulted)
        )
        .is_empty());
    }
}
