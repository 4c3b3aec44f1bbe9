//! The Compare pane's diff over characters or tokens (two prompts, or two
//! token sequences, side by side): `similar`'s Myers diff (O((N+M)·D)),
//! with an edit limit past which the middle is one deletion and one
//! insertion.

use similar::algorithms::{Capture, Replace};
use similar::DiffTag;

/// What a stretch of a diff does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// In both sides.
    Equal,
    /// Only in A (removed going from A to B).
    Delete,
    /// Only in B (added going from A to B).
    Insert,
}

/// A run of characters with one [`Op`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// What the run does.
    pub op: Op,
    /// The characters.
    pub text: String,
}

/// Above this many edits the middle is shown as one deletion and one
/// insertion (the search's time grows with the edits times the lengths).
pub const MAX_EDITS: usize = 2000;

/// The edit script from `a` to `b`: one [`Op`] per element, `Equal` and
/// `Delete` consuming `a`, `Equal` and `Insert` consuming `b`.
pub fn ops<T: PartialEq>(a: &[T], b: &[T]) -> Vec<Op> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    let suffix = ra
        .iter()
        .rev()
        .zip(rb.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&ra[..ra.len() - suffix], &rb[..rb.len() - suffix]);
    let mut out = vec![Op::Equal; prefix];
    match myers(ma, mb, MAX_EDITS) {
        Some(mid) => out.extend(mid),
        None => {
            out.extend(std::iter::repeat_n(Op::Delete, ma.len()));
            out.extend(std::iter::repeat_n(Op::Insert, mb.len()));
        }
    }
    out.extend(std::iter::repeat_n(Op::Equal, suffix));
    out
}

/// The edit script from `a` to `b` by `similar`'s Myers diff, or `None`
/// when it takes more than `max_d` edits.
fn myers<T: PartialEq>(a: &[T], b: &[T], max_d: usize) -> Option<Vec<Op>> {
    if !within_edits(a, b, max_d) {
        return None;
    }
    // `Replace` merges each changed stretch into one replacement, so that
    // deletions always come before insertions.
    let mut hook = Replace::new(Capture::new());
    similar::algorithms::myers::diff(&mut hook, a, 0..a.len(), b, 0..b.len())
        .expect("Capture never fails");
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    for op in hook.into_inner().into_ops() {
        let (tag, old, new) = op.as_tag_tuple();
        let (op, n) = match tag {
            DiffTag::Equal => (Op::Equal, old.len()),
            DiffTag::Delete => (Op::Delete, old.len()),
            DiffTag::Insert => (Op::Insert, new.len()),
            DiffTag::Replace => {
                out.extend(std::iter::repeat_n(Op::Delete, old.len()));
                (Op::Insert, new.len())
            }
        };
        out.extend(std::iter::repeat_n(op, n));
    }
    Some(out)
}

/// Whether `a` becomes `b` in at most `max_d` insertions and deletions:
/// Myers' greedy forward search, stopped at `max_d`, keeping only the
/// furthest-reaching front (time O((N+M)·max_d), memory O(max_d)). This is
/// the edit limit; `similar` then finds the script itself.
fn within_edits<T: PartialEq>(a: &[T], b: &[T], max_d: usize) -> bool {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max_d = max_d.min((n + m) as usize) as isize;
    let off = max_d + 1;
    let mut v = vec![0isize; 2 * max_d as usize + 3];
    let at = |k: isize| (k + off) as usize;
    for d in 0..=max_d {
        let mut k = -d;
        while k <= d {
            let mut x = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
                v[at(k + 1)]
            } else {
                v[at(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                return true;
            }
            k += 2;
        }
    }
    false
}

/// The element-level diff of two sequences: each element with its op.
pub fn diff<T: PartialEq + Clone>(a: &[T], b: &[T]) -> Vec<(Op, T)> {
    let (mut i, mut j) = (0, 0);
    ops(a, b)
        .into_iter()
        .map(|op| match op {
            Op::Equal => {
                i += 1;
                j += 1;
                (op, a[i - 1].clone())
            }
            Op::Delete => {
                i += 1;
                (op, a[i - 1].clone())
            }
            Op::Insert => {
                j += 1;
                (op, b[j - 1].clone())
            }
        })
        .collect()
}

/// The character diff of two texts, as runs.
pub fn diff_chars(a: &str, b: &str) -> Vec<Span> {
    let ca: Vec<char> = a.chars().collect();
    let cb: Vec<char> = b.chars().collect();
    let mut out: Vec<Span> = Vec::new();
    for (op, c) in diff(&ca, &cb) {
        match out.last_mut() {
            Some(last) if last.op == op => last.text.push(c),
            _ => out.push(Span {
                op,
                text: c.to_string(),
            }),
        }
    }
    out
}

/// Whether two texts differ, by the runs of [`diff_chars`].
pub fn changed(spans: &[Span]) -> bool {
    spans.iter().any(|s| s.op != Op::Equal)
}

/// Whitespace made visible: `·` for a space, `→` for a tab, `↵` before a
/// newline (the newline kept, so lines still break).
pub fn visible_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            ' ' => out.push('·'),
            '\t' => out.push('→'),
            '\n' => out.push_str("↵\n"),
            '\r' => out.push('␍'),
            c => out.push(c),
        }
    }
    out
}

/// A token of the token diff as drawn: its whitespace made visible, every
/// newline as `↵` inside the token, and whether a line break follows it
/// (one, however many newlines it holds: a `"\n\n"` token is `↵↵` then a
/// break, not a mark, a break and a mark).
pub fn token_label(piece: &str) -> (String, bool) {
    let label = visible_whitespace(piece).replace("↵\n", "↵");
    (label, piece.contains('\n'))
}

/// The classes of a token in the token diff: only deleted and inserted
/// tokens are tinted; equal ones are outlined, as plain text.
pub fn token_class(op: Op) -> &'static str {
    match op {
        Op::Equal => "tok same",
        Op::Delete => "tok diff-del",
        Op::Insert => "tok diff-ins",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_draw_newlines_inside_and_break_once() {
        assert_eq!(token_label("\n\n"), ("↵↵".to_string(), true));
        assert_eq!(token_label(" a\tb"), ("·a→b".to_string(), false));
        assert_eq!(token_label("x\ny"), ("x↵y".to_string(), true));
        assert_eq!(token_class(Op::Equal), "tok same");
        assert!(token_class(Op::Insert).contains("diff-ins"));
        assert!(token_class(Op::Delete).contains("diff-del"));
    }

    fn apply(a: &str, b: &str) {
        let spans = diff_chars(a, b);
        let left: String = spans
            .iter()
            .filter(|s| s.op != Op::Insert)
            .map(|s| s.text.as_str())
            .collect();
        let right: String = spans
            .iter()
            .filter(|s| s.op != Op::Delete)
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(left, a);
        assert_eq!(right, b);
    }

    #[test]
    fn reconstructs_both_sides() {
        for (a, b) in [
            ("", ""),
            ("abc", ""),
            ("", "abc"),
            ("abc", "abc"),
            ("kitten", "sitting"),
            ("ABCABBA", "CBABAC"),
            ("<|im_start|>user\nHi", "<|user|>\nHi there"),
            ("ünï cødé ✓", "unicode ✓!"),
        ] {
            apply(a, b);
        }
    }

    #[test]
    fn minimal_edits() {
        // Myers' classic example: 5 edits.
        let edits = ops(&b"ABCABBA"[..], &b"CBABAC"[..])
            .into_iter()
            .filter(|o| *o != Op::Equal)
            .count();
        assert_eq!(edits, 5);
        assert_eq!(
            diff_chars("hello world", "hello brave world"),
            vec![
                Span {
                    op: Op::Equal,
                    text: "hello ".into()
                },
                Span {
                    op: Op::Insert,
                    text: "brave ".into()
                },
                Span {
                    op: Op::Equal,
                    text: "world".into()
                },
            ]
        );
        assert!(!changed(&diff_chars("same", "same")));
    }

    #[test]
    fn tokens_and_fallback() {
        let a = [(1u32, "a"), (2, "b"), (3, "c")];
        let b = [(1u32, "a"), (4, "x"), (3, "c")];
        let d = diff(&a, &b);
        assert_eq!(
            d.iter().map(|(o, _)| *o).collect::<Vec<_>>(),
            [Op::Equal, Op::Delete, Op::Insert, Op::Equal]
        );
        // Past MAX_EDITS: still a correct (if not minimal) script.
        let x: String = (0..3000)
            .map(|i| if i % 2 == 0 { 'a' } else { 'b' })
            .collect();
        let y: String = (0..3000)
            .map(|i| if i % 3 == 0 { 'b' } else { 'c' })
            .collect();
        apply(&x, &y);
    }

    /// Edit distance (insertions and deletions only) by dynamic programming.
    fn distance(a: &[u8], b: &[u8]) -> usize {
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, x) in a.iter().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, y) in b.iter().enumerate() {
                let here = if x == y {
                    prev
                } else {
                    1 + row[j].min(row[j + 1])
                };
                prev = row[j + 1];
                row[j + 1] = here;
            }
        }
        row[b.len()]
    }

    #[test]
    fn scripts_are_minimal_and_delete_before_inserting() {
        let mut seed = 0x2545_f491_u32;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        for _ in 0..500 {
            let a: Vec<u8> = (0..next(40)).map(|_| b"abc"[next(3) as usize]).collect();
            let b: Vec<u8> = (0..next(40)).map(|_| b"abc"[next(3) as usize]).collect();
            let script = ops(&a, &b);
            let edits = script.iter().filter(|o| **o != Op::Equal).count();
            assert_eq!(edits, distance(&a, &b), "{a:?} {b:?}");
            assert!(
                !script.windows(2).any(|w| w == [Op::Insert, Op::Delete]),
                "{script:?}"
            );
            let (mut i, mut j) = (0, 0);
            for op in &script {
                match op {
                    Op::Equal => {
                        assert_eq!(a[i], b[j]);
                        i += 1;
                        j += 1;
                    }
                    Op::Delete => i += 1,
                    Op::Insert => j += 1,
                }
            }
            assert_eq!((i, j), (a.len(), b.len()));
        }
    }

    #[test]
    fn past_the_edit_limit_the_middle_is_one_deletion_and_one_insertion() {
        let a: Vec<u32> = (0..3000).collect();
        let b: Vec<u32> = (5000..8000).collect();
        assert!(!within_edits(&a, &b, MAX_EDITS));
        assert!(within_edits(&a[..1000], &b[..1000], MAX_EDITS));
        let mut x = vec![7u32];
        x.extend(&a);
        x.push(9);
        let mut y = vec![7u32];
        y.extend(&b);
        y.push(9);
        let mut want = vec![Op::Equal];
        want.extend(std::iter::repeat_n(Op::Delete, 3000));
        want.extend(std::iter::repeat_n(Op::Insert, 3000));
        want.push(Op::Equal);
        assert_eq!(ops(&x, &y), want);
    }

    #[test]
    fn whitespace() {
        assert_eq!(visible_whitespace("a b\tc\n"), "a·b→c↵\n");
    }
}
