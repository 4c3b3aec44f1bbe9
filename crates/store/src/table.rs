//! The table printer `ollama list` and `ollama show` use:
//! github.com/olekukonko/tablewriter v0.0.5 in the configuration Ollama
//! gives it (no borders, no white space, a padding string, left
//! alignment), with its word wrapping (cells wider than the column width,
//! 30 by default, are reflowed with minimal raggedness).

use std::collections::HashMap;

/// `runewidth.StringWidth`, for the characters model metadata holds: wide
/// East Asian and emoji ranges count 2, combining marks 0, the rest 1.
pub fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

fn char_width(c: char) -> usize {
    let u = c as u32;
    match u {
        0 => 0,
        0x0300..=0x036F | 0x200B..=0x200F | 0xFE00..=0xFE0F | 0x20D0..=0x20FF => 0,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD => 2,
        _ => 1,
    }
}

/// `WrapWords`: minimal raggedness line breaking.
fn wrap_words(words: &[&str], spc: usize, lim: usize, pen: i64) -> Vec<Vec<String>> {
    let n = words.len();
    let w: Vec<i64> = words.iter().map(|x| width(x) as i64).collect();
    // length(i, j) = widths of words i..=j plus the spaces between
    let len =
        |i: usize, j: usize| -> i64 { w[i..=j].iter().sum::<i64>() + (j - i) as i64 * spc as i64 };
    let mut nbrk = vec![0usize; n];
    let mut cost = vec![i32::MAX as i64; n];
    let lim = lim as i64;
    for i in (0..n).rev() {
        if len(i, n - 1) <= lim {
            cost[i] = 0;
            nbrk[i] = n;
        } else {
            for j in i + 1..n {
                let l = len(i, j - 1);
                let d = lim - l;
                let mut c = d * d + cost[j];
                if l > lim {
                    c += pen;
                }
                if c < cost[i] {
                    cost[i] = c;
                    nbrk[i] = j;
                }
            }
        }
    }
    let mut lines = Vec::new();
    let mut i = 0;
    while i < n {
        let next = nbrk[i].max(i + 1);
        lines.push(words[i..next].iter().map(|s| s.to_string()).collect());
        i = next;
    }
    lines
}

/// `WrapString`.
fn wrap_string(s: &str, lim: usize) -> Vec<String> {
    let joined = s.replace('\n', " ");
    let words: Vec<&str> = joined.split(' ').collect();
    let mut lim = lim;
    for v in &words {
        lim = lim.max(width(v));
    }
    wrap_words(&words, 1, lim, 100_000)
        .into_iter()
        .map(|l| l.join(" "))
        .collect()
}

/// A table as Ollama configures it.
pub struct Table {
    max_width: usize,
    padding: String,
    headers: Vec<Vec<String>>,
    lines: Vec<Vec<Vec<String>>>,
    cs: HashMap<usize, usize>,
    rs: HashMap<isize, usize>,
}

impl Table {
    /// A table with the padding string between columns and the wrapping
    /// width (`SetColWidth`; 30 unless set).
    pub fn new(padding: &str, col_width: usize) -> Table {
        Table {
            max_width: col_width,
            padding: padding.to_string(),
            headers: Vec::new(),
            lines: Vec::new(),
            cs: HashMap::new(),
            rs: HashMap::new(),
        }
    }

    fn parse_dimension(&mut self, s: &str, col: usize, row: isize) -> Vec<String> {
        let raw: Vec<&str> = s.split('\n').collect();
        let mut max = raw.iter().map(|l| width(l)).max().unwrap_or(0);
        max = max.min(self.max_width);
        // reflow: one paragraph of everything
        let para = raw.join(" ");
        let lines = wrap_string(&para, max);
        let new_max = lines.iter().map(|l| width(l)).max().unwrap_or(0).max(max);
        let v = self.cs.get(&col).copied();
        if v.is_none_or(|v| v < new_max || v == 0) {
            self.cs.insert(col, new_max);
        }
        let h = lines.len();
        let r = self.rs.get(&row).copied();
        if r.is_none_or(|r| r < h || r == 0) {
            self.rs.insert(row, h);
        }
        lines
    }

    /// `SetHeader`.
    pub fn header(&mut self, keys: &[&str]) {
        for (i, k) in keys.iter().enumerate() {
            let lines = self.parse_dimension(k, i, -1);
            self.headers.push(lines);
        }
    }

    /// `Append`.
    pub fn append(&mut self, row: &[String]) {
        let n = self.lines.len() as isize;
        let line = row
            .iter()
            .enumerate()
            .map(|(i, v)| self.parse_dimension(v, i, n))
            .collect();
        self.lines.push(line);
    }

    fn pad_right(s: &str, w: usize) -> String {
        let gap = w.saturating_sub(width(s));
        format!("{s}{}", " ".repeat(gap))
    }

    /// `Render`.
    pub fn render(&self, out: &mut String) {
        if !self.headers.is_empty() {
            let end = self.cs.len().saturating_sub(1);
            let max = self.rs.get(&-1).copied().unwrap_or(0);
            for x in 0..max {
                for y in 0..=end {
                    let h = self
                        .headers
                        .get(y)
                        .and_then(|l| l.get(x))
                        .map(|s| title(s))
                        .unwrap_or_default();
                    let w = self.cs.get(&y).copied().unwrap_or(0);
                    let pad = if y == end { " " } else { &self.padding };
                    out.push_str(&Self::pad_right(&h, w));
                    out.push_str(pad);
                }
                out.push('\n');
            }
        }
        for (i, cols) in self.lines.iter().enumerate() {
            let max = self.rs.get(&(i as isize)).copied().unwrap_or(0);
            for x in 0..max {
                for (y, col) in cols.iter().enumerate() {
                    let s = col.get(x).map(String::as_str).unwrap_or("  ");
                    let w = self.cs.get(&y).copied().unwrap_or(0);
                    out.push_str(&Self::pad_right(s, w));
                    out.push_str(&self.padding);
                }
                out.push('\n');
            }
        }
    }
}

/// tablewriter's `Title`: header cells upper-cased, `_` (and `.` between
/// non-digits) made spaces, trimmed.
fn title(name: &str) -> String {
    let rs: Vec<char> = name.chars().collect();
    let num_or_space = |c: char| c.is_ascii_digit() || c == ' ';
    let mut out: Vec<char> = rs.clone();
    for (i, &r) in rs.iter().enumerate() {
        match r {
            '_' => out[i] = ' ',
            '.' if (i != 0 && !num_or_space(rs[i - 1]))
                || (i != rs.len() - 1 && !num_or_space(rs[i + 1])) =>
            {
                out[i] = ' '
            }
            _ => {}
        }
    }
    let s: String = out.into_iter().collect();
    let t = s.trim_matches(|c: char| c.is_whitespace());
    if t.is_empty() && !name.is_empty() {
        return " ".into();
    }
    t.to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_padded_and_wrapped_as_tablewriter_does() {
        let mut t = Table::new("    ", 30);
        t.append(&["".into(), "architecture".into(), "llama".into()]);
        t.append(&["".into(), "parameters".into(), "134.52M".into()]);
        let mut s = String::new();
        t.render(&mut s);
        assert_eq!(
            s,
            "    architecture    llama      \n    parameters      134.52M    \n"
        );
        let mut t = Table::new("    ", 30);
        t.append(&["a b c d e f g h i j k l m n o p q r s t u v".into()]);
        let mut s = String::new();
        t.render(&mut s);
        // minimal raggedness: the last line is free
        assert_eq!(
            s,
            "a b c d e f g h i j k l m n o     \np q r s t u v                     \n"
        );
    }
}
