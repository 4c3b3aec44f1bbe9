//! The lexer, a port of Go's `text/template/parse/lex.go`.
//!
//! A state machine of small state functions that produce one item at a time,
//! pulled by the parser with [`Lexer::next_item`]. Trim markers are handled
//! here; the parser never sees them.

/// Kinds of lexical items.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ItemType {
    /// An error; the value is its text.
    Error,
    /// `true` or `false`.
    Bool,
    /// A printable ASCII character (`,` and the like).
    Char,
    /// A character constant (`'a'`).
    CharConstant,
    /// A comment.
    Comment,
    /// A complex constant (`1+2i`).
    Complex,
    /// `=`
    Assign,
    /// `:=`
    Declare,
    /// End of input.
    Eof,
    /// `.Field`
    Field,
    /// An identifier (function name).
    Identifier,
    /// Left delimiter.
    LeftDelim,
    /// `(`
    LeftParen,
    /// A number.
    Number,
    /// `|`
    Pipe,
    /// A raw string (with its backquotes).
    RawString,
    /// Right delimiter.
    RightDelim,
    /// `)`
    RightParen,
    /// A run of spaces.
    Space,
    /// A quoted string (with its quotes).
    String,
    /// Plain text.
    Text,
    /// `$`, `$x`.
    Variable,
    /// Marker: the keywords follow.
    Keyword,
    /// `block`
    Block,
    /// `break`
    Break,
    /// `continue`
    Continue,
    /// `.`
    Dot,
    /// `define`
    Define,
    /// `else`
    Else,
    /// `end`
    End,
    /// `if`
    If,
    /// `nil`
    Nil,
    /// `range`
    Range,
    /// `template`
    Template,
    /// `with`
    With,
}

fn keyword(word: &str) -> Option<ItemType> {
    Some(match word {
        "." => ItemType::Dot,
        "block" => ItemType::Block,
        "break" => ItemType::Break,
        "continue" => ItemType::Continue,
        "define" => ItemType::Define,
        "else" => ItemType::Else,
        "end" => ItemType::End,
        "if" => ItemType::If,
        "range" => ItemType::Range,
        "nil" => ItemType::Nil,
        "template" => ItemType::Template,
        "with" => ItemType::With,
        _ => return None,
    })
}

/// A lexical item; its text borrows from the input when it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item<'a> {
    /// Its kind.
    pub typ: ItemType,
    /// Byte offset of its start in the input.
    pub pos: usize,
    /// Its text (for errors, the message).
    pub val: std::borrow::Cow<'a, str>,
    /// Line number at its start.
    pub line: usize,
}

impl std::fmt::Display for Item<'_> {
    /// As Go's `item.String()`, used in parse errors.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.typ {
            ItemType::Eof => f.write_str("EOF"),
            ItemType::Error => f.write_str(&self.val),
            t if t > ItemType::Keyword => write!(f, "<{}>", self.val),
            _ => {
                if self.val.len() > 10 {
                    let head: String = self.val.chars().take(10).collect();
                    write!(f, "{}...", crate::strconv::quote(&head))
                } else {
                    f.write_str(&crate::strconv::quote(&self.val))
                }
            }
        }
    }
}

const EOF: char = '\u{10FFFF}'; // never produced by valid input as a real char here: see next()
/// Go's default delimiters.
pub const DEFAULT_LEFT: &str = "{{";
/// Go's default delimiters.
pub const DEFAULT_RIGHT: &str = "}}";
const LEFT_COMMENT: &str = "/*";
const RIGHT_COMMENT: &str = "*/";
const SPACE_CHARS: &[char] = &[' ', '\t', '\r', '\n'];
const TRIM_MARKER_LEN: usize = 2;

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Text,
    LeftDelim,
    Comment,
    RightDelim,
    InsideAction,
    Space,
    Identifier,
    Field,
    Variable,
    Char,
    Number,
    Quote,
    RawQuote,
    Done,
}

/// Lexer options.
#[derive(Clone, Copy, Debug, Default)]
pub struct LexOptions {
    /// Emit comment items.
    pub emit_comment: bool,
    /// `break` is a keyword (no function named `break`).
    pub break_ok: bool,
    /// `continue` is a keyword.
    pub continue_ok: bool,
}

/// The lexer state.
pub struct Lexer<'a> {
    input: &'a str,
    left_delim: String,
    right_delim: String,
    pos: usize,
    start: usize,
    at_eof: bool,
    paren_depth: i32,
    line: usize,
    start_line: usize,
    item: Item<'a>,
    inside_action: bool,
    /// Options set by the parser.
    pub options: LexOptions,
}

fn is_space(r: char) -> bool {
    matches!(r, ' ' | '\t' | '\r' | '\n')
}

/// Go's `unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'`.
pub fn is_alphanumeric(r: char) -> bool {
    r == '_' || crate::unicode::is_letter(r) || crate::unicode::is_digit(r)
}

fn has_left_trim_marker(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && b[0] == b'-' && is_space(b[1] as char)
}

fn has_right_trim_marker(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 2 && is_space(b[0] as char) && b[1] == b'-'
}

impl<'a> Lexer<'a> {
    /// A lexer over `input` with the given delimiters (empty = default).
    pub fn new(input: &'a str, left: &str, right: &str) -> Lexer<'a> {
        Lexer {
            input,
            left_delim: if left.is_empty() { DEFAULT_LEFT } else { left }.to_string(),
            right_delim: if right.is_empty() {
                DEFAULT_RIGHT
            } else {
                right
            }
            .to_string(),
            pos: 0,
            start: 0,
            at_eof: false,
            paren_depth: 0,
            line: 1,
            start_line: 1,
            item: Item {
                typ: ItemType::Eof,
                pos: 0,
                val: "".into(),
                line: 1,
            },
            inside_action: false,
            options: LexOptions::default(),
        }
    }

    /// The left delimiter.
    pub fn left_delim(&self) -> &str {
        &self.left_delim
    }

    /// The right delimiter.
    pub fn right_delim(&self) -> &str {
        &self.right_delim
    }

    fn next(&mut self) -> char {
        match self.input[self.pos..].chars().next() {
            None => {
                self.at_eof = true;
                EOF
            }
            Some(r) => {
                self.pos += r.len_utf8();
                if r == '\n' {
                    self.line += 1;
                }
                r
            }
        }
    }

    fn peek(&mut self) -> char {
        let r = self.next();
        self.backup();
        r
    }

    fn backup(&mut self) {
        if !self.at_eof && self.pos > 0 {
            if let Some(r) = self.input[..self.pos].chars().next_back() {
                self.pos -= r.len_utf8();
                if r == '\n' {
                    self.line -= 1;
                }
            }
        }
    }

    fn this_item(&mut self, typ: ItemType) -> Item<'a> {
        let input: &'a str = self.input;
        let item = Item {
            typ,
            pos: self.start,
            val: input[self.start..self.pos].into(),
            line: self.start_line,
        };
        self.start = self.pos;
        self.start_line = self.line;
        item
    }

    fn emit(&mut self, typ: ItemType) -> State {
        let item = self.this_item(typ);
        self.emit_item(item)
    }

    fn emit_item(&mut self, item: Item<'a>) -> State {
        self.item = item;
        State::Done
    }

    fn ignore(&mut self) {
        self.line += count_newlines(&self.input[self.start..self.pos]);
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn accept(&mut self, valid: &str) -> bool {
        let r = self.next();
        if r != EOF && valid.contains(r) {
            return true;
        }
        self.backup();
        false
    }

    fn accept_run(&mut self, valid: &str) {
        loop {
            let r = self.next();
            if r == EOF || !valid.contains(r) {
                break;
            }
        }
        self.backup();
    }

    fn errorf(&mut self, msg: String) -> State {
        self.item = Item {
            typ: ItemType::Error,
            pos: self.start,
            val: msg.into(),
            line: self.start_line,
        };
        self.start = 0;
        self.pos = 0;
        self.input = &self.input[..0];
        State::Done
    }

    /// The next item.
    pub fn next_item(&mut self) -> Item<'a> {
        self.item = Item {
            typ: ItemType::Eof,
            pos: self.pos,
            val: "EOF".into(),
            line: self.start_line,
        };
        let mut state = if self.inside_action {
            State::InsideAction
        } else {
            State::Text
        };
        loop {
            state = match state {
                State::Done => return self.item.clone(),
                State::Text => self.lex_text(),
                State::LeftDelim => self.lex_left_delim(),
                State::Comment => self.lex_comment(),
                State::RightDelim => self.lex_right_delim(),
                State::InsideAction => self.lex_inside_action(),
                State::Space => self.lex_space(),
                State::Identifier => self.lex_identifier(),
                State::Field => self.lex_field_or_variable(ItemType::Field),
                State::Variable => self.lex_variable(),
                State::Char => self.lex_char(),
                State::Number => self.lex_number(),
                State::Quote => self.lex_quote(),
                State::RawQuote => self.lex_raw_quote(),
            };
        }
    }

    fn lex_text(&mut self) -> State {
        if let Some(x) = self.input[self.pos..].find(self.left_delim.as_str()) {
            if x > 0 {
                self.pos += x;
                let mut trim_length = 0;
                let delim_end = self.pos + self.left_delim.len();
                if has_left_trim_marker(&self.input[delim_end..]) {
                    trim_length = right_trim_length(&self.input[self.start..self.pos]);
                }
                self.pos -= trim_length;
                self.line += count_newlines(&self.input[self.start..self.pos]);
                let item = self.this_item(ItemType::Text);
                self.pos += trim_length;
                self.ignore();
                if !item.val.is_empty() {
                    return self.emit_item(item);
                }
            }
            return State::LeftDelim;
        }
        self.pos = self.input.len();
        if self.pos > self.start {
            self.line += count_newlines(&self.input[self.start..self.pos]);
            return self.emit(ItemType::Text);
        }
        self.emit(ItemType::Eof)
    }

    fn at_right_delim(&self) -> (bool, bool) {
        let rest = &self.input[self.pos..];
        if has_right_trim_marker(rest) && rest[TRIM_MARKER_LEN..].starts_with(&self.right_delim) {
            return (true, true);
        }
        if rest.starts_with(&self.right_delim) {
            return (true, false);
        }
        (false, false)
    }

    fn lex_left_delim(&mut self) -> State {
        self.pos += self.left_delim.len();
        let trim_space = has_left_trim_marker(&self.input[self.pos..]);
        let after_marker = if trim_space { TRIM_MARKER_LEN } else { 0 };
        if self.input[self.pos + after_marker..].starts_with(LEFT_COMMENT) {
            self.pos += after_marker;
            self.ignore();
            return State::Comment;
        }
        let item = self.this_item(ItemType::LeftDelim);
        self.inside_action = true;
        self.pos += after_marker;
        self.ignore();
        self.paren_depth = 0;
        self.emit_item(item)
    }

    fn lex_comment(&mut self) -> State {
        self.pos += LEFT_COMMENT.len();
        let Some(x) = self.input[self.pos..].find(RIGHT_COMMENT) else {
            return self.errorf("unclosed comment".into());
        };
        self.pos += x + RIGHT_COMMENT.len();
        let (delim, trim_space) = self.at_right_delim();
        if !delim {
            return self.errorf("comment ends before closing delimiter".into());
        }
        self.line += count_newlines(&self.input[self.start..self.pos]);
        let item = self.this_item(ItemType::Comment);
        if trim_space {
            self.pos += TRIM_MARKER_LEN;
        }
        self.pos += self.right_delim.len();
        if trim_space {
            self.pos += left_trim_length(&self.input[self.pos..]);
        }
        self.ignore();
        if self.options.emit_comment {
            return self.emit_item(item);
        }
        State::Text
    }

    fn lex_right_delim(&mut self) -> State {
        let (_, trim_space) = self.at_right_delim();
        if trim_space {
            self.pos += TRIM_MARKER_LEN;
            self.ignore();
        }
        self.pos += self.right_delim.len();
        let item = self.this_item(ItemType::RightDelim);
        if trim_space {
            self.pos += left_trim_length(&self.input[self.pos..]);
            self.ignore();
        }
        self.inside_action = false;
        self.emit_item(item)
    }

    fn lex_inside_action(&mut self) -> State {
        let (delim, _) = self.at_right_delim();
        if delim {
            if self.paren_depth == 0 {
                return State::RightDelim;
            }
            return self.errorf("unclosed left paren".into());
        }
        let r = self.next();
        match r {
            EOF => self.errorf("unclosed action".into()),
            r if is_space(r) => {
                self.backup();
                State::Space
            }
            '=' => self.emit(ItemType::Assign),
            ':' => {
                if self.next() != '=' {
                    return self.errorf("expected :=".into());
                }
                self.emit(ItemType::Declare)
            }
            '|' => self.emit(ItemType::Pipe),
            '"' => State::Quote,
            '`' => State::RawQuote,
            '$' => State::Variable,
            '\'' => State::Char,
            '.' => {
                if let Some(&b) = self.input.as_bytes().get(self.pos) {
                    if !b.is_ascii_digit() {
                        return State::Field;
                    }
                }
                self.backup();
                State::Number
            }
            '+' | '-' | '0'..='9' => {
                self.backup();
                State::Number
            }
            r if is_alphanumeric(r) => {
                self.backup();
                State::Identifier
            }
            '(' => {
                self.paren_depth += 1;
                self.emit(ItemType::LeftParen)
            }
            ')' => {
                self.paren_depth -= 1;
                if self.paren_depth < 0 {
                    return self.errorf("unexpected right paren".into());
                }
                self.emit(ItemType::RightParen)
            }
            r if (r as u32) <= 0x7f && (' '..='~').contains(&r) => self.emit(ItemType::Char),
            r => {
                let msg = format!("unrecognized character in action: {}", sharp_u(r));
                self.errorf(msg)
            }
        }
    }

    fn lex_space(&mut self) -> State {
        let mut num_spaces = 0;
        loop {
            let r = self.peek();
            if !is_space(r) {
                break;
            }
            self.next();
            num_spaces += 1;
        }
        let rest = &self.input[self.pos - 1..];
        if has_right_trim_marker(rest) && rest[TRIM_MARKER_LEN..].starts_with(&self.right_delim) {
            self.backup();
            if num_spaces == 1 {
                return State::RightDelim;
            }
        }
        self.emit(ItemType::Space)
    }

    fn lex_identifier(&mut self) -> State {
        loop {
            let r = self.next();
            if r != EOF && is_alphanumeric(r) {
                continue;
            }
            self.backup();
            let word = &self.input[self.start..self.pos];
            if !self.at_terminator() {
                return self.errorf(format!("bad character {}", sharp_u(r)));
            }
            if let Some(kw) = keyword(word) {
                if kw > ItemType::Keyword {
                    if (kw == ItemType::Break && !self.options.break_ok)
                        || (kw == ItemType::Continue && !self.options.continue_ok)
                    {
                        return self.emit(ItemType::Identifier);
                    }
                    return self.emit(kw);
                }
            }
            if word.starts_with('.') {
                return self.emit(ItemType::Field);
            }
            if word == "true" || word == "false" {
                return self.emit(ItemType::Bool);
            }
            return self.emit(ItemType::Identifier);
        }
    }

    fn lex_variable(&mut self) -> State {
        if self.at_terminator() {
            return self.emit(ItemType::Variable);
        }
        self.lex_field_or_variable(ItemType::Variable)
    }

    fn lex_field_or_variable(&mut self, typ: ItemType) -> State {
        if self.at_terminator() {
            if typ == ItemType::Variable {
                return self.emit(ItemType::Variable);
            }
            return self.emit(ItemType::Dot);
        }
        let mut r;
        loop {
            r = self.next();
            if r == EOF || !is_alphanumeric(r) {
                self.backup();
                break;
            }
        }
        if !self.at_terminator() {
            return self.errorf(format!("bad character {}", sharp_u(r)));
        }
        self.emit(typ)
    }

    fn at_terminator(&mut self) -> bool {
        let r = self.peek();
        if is_space(r) {
            return true;
        }
        if matches!(r, EOF | '.' | ',' | '|' | ':' | ')' | '(') {
            return true;
        }
        self.input[self.pos..].starts_with(&self.right_delim)
    }

    fn lex_char(&mut self) -> State {
        loop {
            match self.next() {
                '\\' => {
                    let r = self.next();
                    if r != EOF && r != '\n' {
                        continue;
                    }
                    return self.errorf("unterminated character constant".into());
                }
                EOF | '\n' => return self.errorf("unterminated character constant".into()),
                '\'' => break,
                _ => {}
            }
        }
        self.emit(ItemType::CharConstant)
    }

    fn lex_number(&mut self) -> State {
        if !self.scan_number() {
            let msg = format!(
                "bad number syntax: {}",
                crate::strconv::quote(&self.input[self.start..self.pos])
            );
            return self.errorf(msg);
        }
        let sign = self.peek();
        if sign == '+' || sign == '-' {
            if !self.scan_number() || !self.input[..self.pos].ends_with('i') {
                let msg = format!(
                    "bad number syntax: {}",
                    crate::strconv::quote(&self.input[self.start..self.pos])
                );
                return self.errorf(msg);
            }
            return self.emit(ItemType::Complex);
        }
        self.emit(ItemType::Number)
    }

    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 11 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 23 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        let r = self.peek();
        if r != EOF && is_alphanumeric(r) {
            self.next();
            return false;
        }
        true
    }

    fn lex_quote(&mut self) -> State {
        loop {
            match self.next() {
                '\\' => {
                    let r = self.next();
                    if r != EOF && r != '\n' {
                        continue;
                    }
                    return self.errorf("unterminated quoted string".into());
                }
                EOF | '\n' => return self.errorf("unterminated quoted string".into()),
                '"' => break,
                _ => {}
            }
        }
        self.emit(ItemType::String)
    }

    fn lex_raw_quote(&mut self) -> State {
        loop {
            match self.next() {
                EOF => return self.errorf("unterminated raw quoted string".into()),
                '`' => break,
                _ => {}
            }
        }
        self.emit(ItemType::RawString)
    }
}

fn count_newlines(s: &str) -> usize {
    s.bytes().filter(|&b| b == b'\n').count()
}

fn right_trim_length(s: &str) -> usize {
    s.len() - s.trim_end_matches(SPACE_CHARS).len()
}

fn left_trim_length(s: &str) -> usize {
    s.len() - s.trim_start_matches(SPACE_CHARS).len()
}

/// Go's `%#U`: `U+0041 'A'`, or just `U+0000` when not printable.
pub fn sharp_u(r: char) -> String {
    if r == EOF {
        return "U+FFFFFFFFFFFFFFFF".to_string();
    }
    let code = format!("U+{:04X}", r as u32);
    if crate::unicode::is_print(r) {
        format!("{code} '{r}'")
    } else {
        code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(input: &str) -> Vec<(ItemType, String)> {
        let mut l = Lexer::new(input, "", "");
        l.options.break_ok = true;
        l.options.continue_ok = true;
        let mut out = Vec::new();
        loop {
            let i = l.next_item();
            let done = matches!(i.typ, ItemType::Eof | ItemType::Error);
            out.push((i.typ, i.val.into_owned()));
            if done {
                return out;
            }
        }
    }

    #[test]
    fn trims_and_numbers() {
        use ItemType::*;
        assert_eq!(
            items("a {{- 1.5e3 -}} b"),
            vec![
                (Text, "a".into()),
                (LeftDelim, "{{".into()),
                (Number, "1.5e3".into()),
                (RightDelim, "}}".into()),
                (Text, "b".into()),
                (Eof, "".into())
            ]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            items("{{ 3k }}").last().unwrap().1,
            "bad number syntax: \"3k\""
        );
        assert_eq!(
            items("{{ \u{1} }}").last().unwrap().1,
            "unrecognized character in action: U+0001"
        );
        assert_eq!(items("{{").last().unwrap().1, "unclosed action");
    }
}
