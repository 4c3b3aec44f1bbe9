//! A small Myers diff (O((N+M)·D)) over characters or tokens, for the
//! Compare pane: two prompts, or two token sequences, side by side.

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
/// insertion (the search's memory grows with the square of the edits).
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

/// Myers' greedy search, or `None` past `max_d` edits.
fn myers<T: PartialEq>(a: &[T], b: &[T], max_d: usize) -> Option<Vec<Op>> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let off = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    // trace[d]: v[-(d+1)..=(d+1)] before step d.
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let at = |k: isize| (k + off) as usize;
    for d in 0..=max.min(max_d) as isize {
        trace.push(v[at(-d - 1)..=at(d + 1)].to_vec());
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
                return Some(backtrack(&trace, n, m));
            }
            k += 2;
        }
    }
    None
}

fn backtrack(trace: &[Vec<isize>], n: isize, m: isize) -> Vec<Op> {
    let mut out = Vec::new();
    let (mut x, mut y) = (n, m);
    for (d, v) in trace.iter().enumerate().rev() {
        let d = d as isize;
        let get = |k: isize| v[(k + d + 1) as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && get(k - 1) < get(k + 1)) {
            k + 1
        } else {
            k - 1
        };
        let prev_x = get(prev_k);
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            out.push(Op::Equal);
            x -= 1;
            y -= 1;
        }
        if d > 0 {
            out.push(if x == prev_x { Op::Insert } else { Op::Delete });
        }
        x = prev_x;
        y = prev_y;
    }
    out.reverse();
    out
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn whitespace() {
        assert_eq!(visible_whitespace("a b\tc\n"), "a·b→c↵\n");
    }
}
