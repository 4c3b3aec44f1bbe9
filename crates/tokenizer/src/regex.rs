//! The regular expressions llama.cpp hands to `std::regex` / `std::wregex`
//! (libstdc++, ECMAScript grammar, the depth-first executor), reproduced:
//! leftmost match, alternatives and greedy repeats tried in order with
//! backtracking (not leftmost-longest, not a DFA), lookaheads, and the C
//! locale's `\s` / `\d` / `\w`, which know only ASCII.
//!
//! Symbols are `u32`: code points for the `wregex` path, or the one-byte
//! "collapsed" categories of `unicode_regex_split` (see `split.rs`).
//!
//! Programs are small instruction lists run by an explicit-stack
//! backtracker, so deep inputs cannot overflow the stack (on wasm either).
//! A search that takes unusually many steps is rerun with a visited-state
//! memo, which bounds it to O(program × text) without changing its result:
//! without back-references, whether a (instruction, position) state leads
//! to a match does not depend on how it was reached.

use std::fmt;

/// A pattern the parser does not accept; llama.cpp's `std::regex`
/// constructor would throw `regex_error` on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RegexError(pub String);

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// ASCII classes of the C locale (`ctype<char>` / `ctype<wchar_t>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctype {
    Space,
    Digit,
    Word,
}

impl Ctype {
    fn contains(self, c: u32) -> bool {
        match self {
            Ctype::Space => matches!(c, 0x09..=0x0D | 0x20),
            Ctype::Digit => matches!(c, 0x30..=0x39),
            Ctype::Word => {
                matches!(c, 0x30..=0x39 | 0x41..=0x5A | 0x61..=0x7A | 0x5F)
            }
        }
    }
}

/// A bracket expression or class escape.
#[derive(Clone, Debug)]
struct Class {
    negated: bool,
    ranges: Vec<(u32, u32)>,
    ctypes: Vec<(Ctype, bool)>,
    /// Membership of symbols below 256, precomputed.
    low: [u64; 4],
}

impl Class {
    fn new(negated: bool, ranges: Vec<(u32, u32)>, ctypes: Vec<(Ctype, bool)>) -> Class {
        let mut c = Class {
            negated,
            ranges,
            ctypes,
            low: [0; 4],
        };
        for s in 0..256u32 {
            if c.slow(s) {
                c.low[(s >> 6) as usize] |= 1 << (s & 63);
            }
        }
        c
    }

    fn slow(&self, s: u32) -> bool {
        let hit = self.ranges.iter().any(|&(a, b)| a <= s && s <= b)
            || self.ctypes.iter().any(|&(k, neg)| k.contains(s) != neg);
        hit != self.negated
    }

    #[inline]
    fn matches(&self, s: u32) -> bool {
        if s < 256 {
            self.low[(s >> 6) as usize] & (1 << (s & 63)) != 0
        } else {
            self.slow(s)
        }
    }
}

#[derive(Clone, Debug)]
enum Node {
    Empty,
    Char(u32),
    Any,
    Class(Class),
    Bol,
    Eol,
    WordBoundary(bool),
    Look(bool, Box<Node>),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

#[derive(Clone, Copy, Debug)]
enum Inst {
    Char(u32),
    Class(u32),
    Any,
    /// Try the first target, then (on failure) the second.
    Split(u32, u32),
    Jmp(u32),
    Bol,
    Eol,
    WordBoundary(bool),
    /// A lookahead: index into `looks`.
    Look(u32),
    Match,
}

#[derive(Clone, Copy, Debug)]
struct Look {
    negated: bool,
    start: u32,
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(crate) struct Regex {
    prog: Vec<Inst>,
    classes: Vec<Class>,
    looks: Vec<Look>,
}

/// `match_flag_type` bits that the split loop uses.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flags {
    pub not_null: bool,
    pub continuous: bool,
    pub prev_avail: bool,
}

struct Parser<'a> {
    p: &'a [u32],
    i: usize,
}

const fn c(ch: char) -> u32 {
    ch as u32
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u32> {
        self.p.get(self.i).copied()
    }

    fn err<T>(&self, msg: &str) -> Result<T, RegexError> {
        Err(RegexError(format!("{msg} at position {}", self.i)))
    }

    fn disjunction(&mut self) -> Result<Node, RegexError> {
        let mut alts = vec![self.alternative()?];
        while self.peek() == Some(c('|')) {
            self.i += 1;
            alts.push(self.alternative()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().unwrap()
        } else {
            Node::Alt(alts)
        })
    }

    fn alternative(&mut self) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while let Some(ch) = self.peek() {
            if ch == c('|') || ch == c(')') {
                break;
            }
            items.push(self.term()?);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap(),
            _ => Node::Concat(items),
        })
    }

    fn term(&mut self) -> Result<Node, RegexError> {
        let ch = self.peek().unwrap();
        // Assertions take no quantifier.
        if ch == c('^') {
            self.i += 1;
            return Ok(Node::Bol);
        }
        if ch == c('$') {
            self.i += 1;
            return Ok(Node::Eol);
        }
        if ch == c('\\') {
            match self.p.get(self.i + 1).copied() {
                Some(b) if b == c('b') => {
                    self.i += 2;
                    return Ok(Node::WordBoundary(false));
                }
                Some(b) if b == c('B') => {
                    self.i += 2;
                    return Ok(Node::WordBoundary(true));
                }
                _ => {}
            }
        }
        if ch == c('(') && self.p.get(self.i + 1) == Some(&c('?')) {
            let kind = self.p.get(self.i + 2).copied();
            if kind == Some(c('=')) || kind == Some(c('!')) {
                self.i += 3;
                let inner = self.disjunction()?;
                if self.peek() != Some(c(')')) {
                    return self.err("missing )");
                }
                self.i += 1;
                return Ok(Node::Look(kind == Some(c('!')), Box::new(inner)));
            }
        }
        let atom = self.atom()?;
        self.quantifier(atom)
    }

    fn atom(&mut self) -> Result<Node, RegexError> {
        let ch = self.peek().unwrap();
        self.i += 1;
        match ch {
            x if x == c('.') => Ok(Node::Any),
            x if x == c('(') => {
                if self.peek() == Some(c('?')) {
                    if self.p.get(self.i + 1) == Some(&c(':')) {
                        self.i += 2;
                    } else {
                        return self.err("invalid special open parenthesis");
                    }
                }
                let inner = self.disjunction()?;
                if self.peek() != Some(c(')')) {
                    return self.err("missing )");
                }
                self.i += 1;
                Ok(inner)
            }
            x if x == c('[') => self.bracket(),
            x if x == c('\\') => self.escape(),
            x if x == c('*') || x == c('+') || x == c('?') || x == c('{') => {
                self.err("nothing to repeat")
            }
            x => Ok(Node::Char(x)),
        }
    }

    fn hex(&mut self, n: usize) -> Result<u32, RegexError> {
        let mut v = 0;
        for _ in 0..n {
            let d = self
                .peek()
                .and_then(char::from_u32)
                .and_then(|d| d.to_digit(16));
            match d {
                Some(d) => {
                    v = v * 16 + d;
                    self.i += 1;
                }
                None => return self.err("invalid escape"),
            }
        }
        Ok(v)
    }

    /// After a backslash, outside or inside brackets. `Ok(Err(class))` for
    /// class escapes, `Ok(Ok(ch))` for a character.
    fn escape_value(&mut self, in_bracket: bool) -> Result<Result<u32, (Ctype, bool)>, RegexError> {
        let Some(e) = self.peek() else {
            return self.err("trailing backslash");
        };
        self.i += 1;
        let ch = char::from_u32(e).unwrap_or('\u{FFFD}');
        Ok(match ch {
            'd' => Err((Ctype::Digit, false)),
            'D' => Err((Ctype::Digit, true)),
            's' => Err((Ctype::Space, false)),
            'S' => Err((Ctype::Space, true)),
            'w' => Err((Ctype::Word, false)),
            'W' => Err((Ctype::Word, true)),
            '0' => Ok(0),
            'b' if in_bracket => Ok(8),
            'f' => Ok(0x0C),
            'n' => Ok(0x0A),
            'r' => Ok(0x0D),
            't' => Ok(0x09),
            'v' => Ok(0x0B),
            'x' => Ok(self.hex(2)?),
            'u' => Ok(self.hex(4)?),
            'c' => {
                let Some(l) = self.peek() else {
                    return self.err("invalid control escape");
                };
                self.i += 1;
                Ok(l % 32)
            }
            '1'..='9' if !in_bracket => return self.err("back-references are not supported"),
            _ => Ok(e),
        })
    }

    fn escape(&mut self) -> Result<Node, RegexError> {
        Ok(match self.escape_value(false)? {
            Ok(ch) => Node::Char(ch),
            Err(ct) => Node::Class(Class::new(false, Vec::new(), vec![ct])),
        })
    }

    fn bracket(&mut self) -> Result<Node, RegexError> {
        let mut negated = false;
        if self.peek() == Some(c('^')) {
            negated = true;
            self.i += 1;
        }
        let mut ranges = Vec::new();
        let mut ctypes = Vec::new();
        loop {
            let Some(ch) = self.peek() else {
                return self.err("missing ]");
            };
            if ch == c(']') {
                self.i += 1;
                break;
            }
            // One class atom.
            let lo = if ch == c('\\') {
                self.i += 1;
                match self.escape_value(true)? {
                    Ok(v) => v,
                    Err(ct) => {
                        ctypes.push(ct);
                        continue;
                    }
                }
            } else if ch == c('[') && self.p.get(self.i + 1) == Some(&c(':')) {
                return self.err("character class names are not supported");
            } else {
                self.i += 1;
                ch
            };
            // A range `lo-hi`, unless the dash ends the bracket.
            if self.peek() == Some(c('-')) && self.p.get(self.i + 1).is_some_and(|&n| n != c(']')) {
                self.i += 1;
                let hi_ch = self.peek().unwrap();
                let hi = if hi_ch == c('\\') {
                    self.i += 1;
                    match self.escape_value(true)? {
                        Ok(v) => v,
                        Err(_) => return self.err("invalid range"),
                    }
                } else {
                    self.i += 1;
                    hi_ch
                };
                if lo > hi {
                    return self.err("invalid range");
                }
                ranges.push((lo, hi));
            } else {
                ranges.push((lo, lo));
            }
        }
        Ok(Node::Class(Class::new(negated, ranges, ctypes)))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        let mut v: u32 = 0;
        while let Some(d) = self.peek().filter(|d| (c('0')..=c('9')).contains(d)) {
            v = v.saturating_mul(10).saturating_add(d - c('0'));
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }

    fn quantifier(&mut self, atom: Node) -> Result<Node, RegexError> {
        let (min, max) = match self.peek() {
            Some(x) if x == c('*') => {
                self.i += 1;
                (0, None)
            }
            Some(x) if x == c('+') => {
                self.i += 1;
                (1, None)
            }
            Some(x) if x == c('?') => {
                self.i += 1;
                (0, Some(1))
            }
            Some(x) if x == c('{') => {
                self.i += 1;
                let Some(min) = self.number() else {
                    return self.err("invalid brace");
                };
                let max = if self.peek() == Some(c(',')) {
                    self.i += 1;
                    self.number()
                } else {
                    Some(min)
                };
                if self.peek() != Some(c('}')) {
                    return self.err("invalid brace");
                }
                self.i += 1;
                if max.is_some_and(|m| m < min) {
                    return self.err("invalid brace range");
                }
                (min, max)
            }
            _ => return Ok(atom),
        };
        let mut greedy = true;
        if self.peek() == Some(c('?')) {
            self.i += 1;
            greedy = false;
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }
}

struct Compiler {
    prog: Vec<Inst>,
    classes: Vec<Class>,
    looks: Vec<Look>,
    pending: Vec<(u32, Node)>,
}

impl Compiler {
    fn pc(&self) -> u32 {
        self.prog.len() as u32
    }

    fn emit(&mut self, i: Inst) -> u32 {
        self.prog.push(i);
        self.pc() - 1
    }

    fn patch_split(&mut self, at: u32, first: u32, second: u32) {
        self.prog[at as usize] = Inst::Split(first, second);
    }

    fn node(&mut self, n: &Node) {
        match n {
            Node::Empty => {}
            Node::Char(ch) => {
                self.emit(Inst::Char(*ch));
            }
            Node::Any => {
                self.emit(Inst::Any);
            }
            Node::Class(cls) => {
                self.classes.push(cls.clone());
                let i = self.classes.len() as u32 - 1;
                self.emit(Inst::Class(i));
            }
            Node::Bol => {
                self.emit(Inst::Bol);
            }
            Node::Eol => {
                self.emit(Inst::Eol);
            }
            Node::WordBoundary(neg) => {
                self.emit(Inst::WordBoundary(*neg));
            }
            Node::Look(neg, inner) => {
                let li = self.looks.len() as u32;
                self.looks.push(Look {
                    negated: *neg,
                    start: 0,
                });
                self.pending.push((li, (**inner).clone()));
                self.emit(Inst::Look(li));
            }
            Node::Concat(items) => {
                for it in items {
                    self.node(it);
                }
            }
            Node::Alt(alts) => {
                // Split(a1, next); a1: ... Jmp end; next: Split(a2, ...)...
                let mut jumps = Vec::new();
                for (k, alt) in alts.iter().enumerate() {
                    if k + 1 < alts.len() {
                        let split = self.emit(Inst::Split(0, 0));
                        let start = self.pc();
                        self.node(alt);
                        jumps.push(self.emit(Inst::Jmp(0)));
                        let next = self.pc();
                        self.patch_split(split, start, next);
                    } else {
                        self.node(alt);
                    }
                }
                let end = self.pc();
                for j in jumps {
                    self.prog[j as usize] = Inst::Jmp(end);
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => {
                for _ in 0..*min {
                    self.node(node);
                }
                match max {
                    None => {
                        // L: Split(body, end); body; Jmp L; end:
                        let split = self.emit(Inst::Split(0, 0));
                        let body = self.pc();
                        self.node(node);
                        self.emit(Inst::Jmp(split));
                        let end = self.pc();
                        if *greedy {
                            self.patch_split(split, body, end);
                        } else {
                            self.patch_split(split, end, body);
                        }
                    }
                    Some(max) => {
                        // libstdc++: each optional copy, when skipped, goes
                        // to the end of the whole repeat.
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            let split = self.emit(Inst::Split(0, 0));
                            splits.push((split, self.pc()));
                            self.node(node);
                        }
                        let end = self.pc();
                        for (split, body) in splits {
                            if *greedy {
                                self.patch_split(split, body, end);
                            } else {
                                self.patch_split(split, end, body);
                            }
                        }
                    }
                }
            }
        }
    }
}

impl Regex {
    /// Parses and compiles a pattern given as symbols.
    pub fn new(pattern: &[u32]) -> Result<Regex, RegexError> {
        let mut p = Parser { p: pattern, i: 0 };
        let ast = p.disjunction()?;
        if p.i != pattern.len() {
            return p.err("unmatched )");
        }
        let mut comp = Compiler {
            prog: Vec::new(),
            classes: Vec::new(),
            looks: Vec::new(),
            pending: Vec::new(),
        };
        comp.node(&ast);
        comp.emit(Inst::Match);
        while let Some((li, inner)) = comp.pending.pop() {
            comp.looks[li as usize].start = comp.pc();
            comp.node(&inner);
            comp.emit(Inst::Match);
        }
        Ok(Regex {
            prog: comp.prog,
            classes: comp.classes,
            looks: comp.looks,
        })
    }

    /// `std::regex_search(text.begin() + begin, text.end(), ...)`: the first
    /// match at or after `begin`, as (start, end).
    pub fn search(&self, text: &[u32], begin: usize, flags: Flags) -> Option<(usize, usize)> {
        self.search_from(0, text, begin, flags)
    }

    /// `_M_search`: one attempt per start position (only the first with
    /// `continuous`). The attempts of one search share a step budget;
    /// past it they share a memo of failed states (a state that failed
    /// from one start fails from any later one, and a success ends the
    /// search), which bounds the whole search to O(program × text).
    fn search_from(
        &self,
        pc: u32,
        text: &[u32],
        begin: usize,
        flags: Flags,
    ) -> Option<(usize, usize)> {
        let mut flags = flags;
        let mut start = begin;
        let mut left: u64 = 2048 + 64 * (text.len() - begin) as u64;
        let mut memo: Option<Memo> = None;
        loop {
            let found = match memo.as_mut() {
                Some(m) => self
                    .run(pc, text, start, flags, Some(m), &mut unlimited())
                    .unwrap_or(None),
                None => match self.run(pc, text, start, flags, None, &mut left) {
                    Ok(r) => r,
                    Err(Exhausted) => {
                        let m = memo.insert(Memo::new(self.prog.len(), text.len() + 1));
                        self.run(pc, text, start, flags, Some(m), &mut unlimited())
                            .unwrap_or(None)
                    }
                },
            };
            if let Some(end) = found {
                return Some((start, end));
            }
            if flags.continuous || start >= text.len() {
                return None;
            }
            flags.prev_avail = true;
            start += 1;
        }
    }

    /// One anchored attempt from `start` (libstdc++ `_M_search_from_first`,
    /// whose `_M_begin` is `start`): a lookahead's sub-match.
    fn attempt(&self, pc: u32, text: &[u32], start: usize, flags: Flags) -> Option<usize> {
        let flags = Flags {
            continuous: true,
            ..flags
        };
        self.search_from(pc, text, start, flags).map(|(_, end)| end)
    }

    fn run(
        &self,
        pc0: u32,
        text: &[u32],
        start: usize,
        flags: Flags,
        mut memo: Option<&mut Memo>,
        budget: &mut u64,
    ) -> Result<Option<usize>, Exhausted> {
        let n = text.len();
        let mut stack: Vec<(u32, usize)> = vec![(pc0, start)];
        while let Some((mut pc, mut pos)) = stack.pop() {
            loop {
                if *budget == 0 {
                    return Err(Exhausted);
                }
                *budget -= 1;
                if let Some(m) = memo.as_deref_mut() {
                    if !m.visit(pc as usize, pos) {
                        break;
                    }
                }
                match self.prog[pc as usize] {
                    Inst::Char(ch) => {
                        if pos < n && text[pos] == ch {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Class(ci) => {
                        if pos < n && self.classes[ci as usize].matches(text[pos]) {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Any => {
                        if pos < n && text[pos] != 0x0A && text[pos] != 0x0D {
                            pc += 1;
                            pos += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Split(a, b) => {
                        stack.push((b, pos));
                        pc = a;
                    }
                    Inst::Jmp(a) => pc = a,
                    Inst::Bol => {
                        if pos == start && !flags.prev_avail {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Eol => {
                        if pos == n {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::WordBoundary(neg) => {
                        let left = (pos != start || flags.prev_avail)
                            && pos > 0
                            && Ctype::Word.contains(text[pos - 1]);
                        let right = pos < n && Ctype::Word.contains(text[pos]);
                        if (left != right) != neg {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Look(li) => {
                        let look = self.looks[li as usize];
                        let hit = self.attempt(look.start, text, pos, flags).is_some();
                        if hit != look.negated {
                            pc += 1;
                        } else {
                            break;
                        }
                    }
                    Inst::Match => {
                        if flags.not_null && pos == start {
                            break;
                        }
                        return Ok(Some(pos));
                    }
                }
            }
        }
        Ok(None)
    }
}

struct Exhausted;

/// A budget that never runs out (for runs with a memo).
fn unlimited() -> u64 {
    u64::MAX
}

/// Visited (instruction, position) states.
struct Memo {
    bits: Vec<u64>,
    width: usize,
}

impl Memo {
    fn new(prog_len: usize, positions: usize) -> Memo {
        let n = prog_len * positions;
        Memo {
            bits: vec![0; n.div_ceil(64)],
            width: positions,
        }
    }

    /// Marks a state; false when it was already visited.
    fn visit(&mut self, pc: usize, pos: usize) -> bool {
        let k = pc * self.width + pos;
        let (w, b) = (k / 64, k % 64);
        let was = self.bits[w] & (1 << b) != 0;
        self.bits[w] |= 1 << b;
        !was
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn syms(s: &str) -> Vec<u32> {
        s.chars().map(|c| c as u32).collect()
    }

    fn find_all(re: &str, text: &str) -> Vec<String> {
        let re = Regex::new(&syms(re)).unwrap();
        let t = syms(text);
        let mut out = Vec::new();
        let mut at = 0;
        let mut flags = Flags::default();
        while let Some((s, e)) = re.search(&t, at, flags) {
            out.push(
                t[s..e]
                    .iter()
                    .map(|&c| char::from_u32(c).unwrap())
                    .collect(),
            );
            if e == s {
                at = e + 1;
            } else {
                at = e;
            }
            flags.prev_avail = true;
            if at > t.len() {
                break;
            }
        }
        out
    }

    #[test]
    fn ordered_alternation_not_longest() {
        assert_eq!(find_all("a|ab", "ab"), vec!["a"]);
        assert_eq!(find_all("ab|a", "ab"), vec!["ab"]);
    }

    #[test]
    fn greedy_backtracking() {
        assert_eq!(find_all("a*ab", "aaab"), vec!["aaab"]);
        assert_eq!(find_all("\\s+(?!\\S)", "a   b"), vec!["  "]);
        assert_eq!(find_all("\\s+(?!\\S)", "a   "), vec!["   "]);
        assert_eq!(find_all("[0-9]{1,3}", "12345"), vec!["123", "45"]);
        assert_eq!(find_all("x?[^a-z]+", "xAB"), vec!["xAB"]);
    }

    #[test]
    fn classes_are_c_locale() {
        // \s knows only ASCII whitespace.
        assert_eq!(find_all("\\s+", "a\u{3000} \t\u{a0}b"), vec![" \t"]);
        assert_eq!(find_all("[^\\s]+", "ab cd"), vec!["ab", "cd"]);
        assert_eq!(find_all("\\w+", "é_a1"), vec!["_a1"]);
    }

    #[test]
    fn anchors_and_lookahead() {
        assert_eq!(find_all("\\s+$", "a  b  "), vec!["  "]);
        assert_eq!(find_all("(?=[a-z])([^A-Z])+", "abC"), vec!["ab"]);
        assert!(Regex::new(&syms("(?i:a)")).is_err());
    }

    #[test]
    fn pathological_patterns_finish() {
        let text = "a".repeat(3000) + "!";
        let re = Regex::new(&syms("(a|a)*(a|a)*b")).unwrap();
        assert_eq!(
            re.search(
                &syms(&text),
                0,
                Flags {
                    continuous: true,
                    ..Flags::default()
                }
            ),
            None
        );
        // Quadratic without the shared memo: every start rescans the run.
        let text = " ".repeat(50_000) + "x";
        let re = Regex::new(&syms("\\s+$")).unwrap();
        assert_eq!(re.search(&syms(&text), 0, Flags::default()), None);
    }
}
