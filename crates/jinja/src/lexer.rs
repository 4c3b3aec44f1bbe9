//! Port of `common/jinja/lexer.h` / `lexer.cpp`: source to tokens, with the
//! chat-template defaults `lstrip_blocks` and `trim_blocks` on, `{%-`/`-%}`
//! trimming, `\r\n` normalization and the single trailing newline dropped.

use crate::error::{Error, ErrorKind, Result};
use crate::utils::{fmt_error_with_source, is_space};

/// `token::type`, in the C++ order (the parser prints the ordinal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum TokenType {
    Eof,
    Text,
    NumericLiteral,
    StringLiteral,
    Identifier,
    Equals,
    OpenParen,
    CloseParen,
    OpenStatement,
    CloseStatement,
    OpenExpression,
    CloseExpression,
    OpenSquareBracket,
    CloseSquareBracket,
    OpenCurlyBracket,
    CloseCurlyBracket,
    Comma,
    Dot,
    Colon,
    Pipe,
    CallOperator,
    AdditiveBinaryOperator,
    MultiplicativeBinaryOperator,
    ComparisonBinaryOperator,
    UnaryOperator,
    Comment,
}

impl TokenType {
    /// `type_to_string`.
    pub fn name(self) -> &'static str {
        use TokenType::*;
        match self {
            Eof => "eof",
            Text => "text",
            NumericLiteral => "numeric_literal",
            StringLiteral => "string_literal",
            Identifier => "identifier",
            Equals => "equals",
            OpenParen => "open_paren",
            CloseParen => "close_paren",
            OpenStatement => "open_statement",
            CloseStatement => "close_statement",
            OpenExpression => "open_expression",
            CloseExpression => "close_expression",
            OpenSquareBracket => "open_square_bracket",
            CloseSquareBracket => "close_square_bracket",
            OpenCurlyBracket => "open_curly_bracket",
            CloseCurlyBracket => "close_curly_bracket",
            Comma => "comma",
            Dot => "dot",
            Colon => "colon",
            Pipe => "pipe",
            CallOperator => "call_operator",
            AdditiveBinaryOperator => "additive_binary_operator",
            MultiplicativeBinaryOperator => "multiplicative_binary_operator",
            ComparisonBinaryOperator => "comparison_binary_operator",
            UnaryOperator => "unary_operator",
            Comment => "comment",
        }
    }
}

/// `token`.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The type.
    pub t: TokenType,
    /// The text (string literals unescaped).
    pub value: Vec<u8>,
    /// Byte position in the normalized source.
    pub pos: usize,
}

impl Token {
    /// The value as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.value).into_owned()
    }
}

/// `lexer_result`: the tokens and the normalized source they point into.
#[derive(Clone, Debug)]
pub struct LexerResult {
    /// The tokens.
    pub tokens: Vec<Token>,
    /// The source after `\r\n`/`\r` normalization and the trailing newline dropped.
    pub source: Vec<u8>,
}

/// `jinja::lexer`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lexer;

const ORDERED_MAPPING_TABLE: &[(&[u8], TokenType)] = {
    use TokenType::*;
    &[
        (b"{%-", OpenStatement),
        (b"-%}", CloseStatement),
        (b"{{-", OpenExpression),
        (b"-}}", CloseExpression),
        (b"{%", OpenStatement),
        (b"%}", CloseStatement),
        (b"{{", OpenExpression),
        (b"}}", CloseExpression),
        (b"(", OpenParen),
        (b")", CloseParen),
        (b"{", OpenCurlyBracket),
        (b"}", CloseCurlyBracket),
        (b"[", OpenSquareBracket),
        (b"]", CloseSquareBracket),
        (b",", Comma),
        (b".", Dot),
        (b":", Colon),
        (b"|", Pipe),
        (b"<=", ComparisonBinaryOperator),
        (b">=", ComparisonBinaryOperator),
        (b"==", ComparisonBinaryOperator),
        (b"!=", ComparisonBinaryOperator),
        (b"<", ComparisonBinaryOperator),
        (b">", ComparisonBinaryOperator),
        (b"+", AdditiveBinaryOperator),
        (b"-", AdditiveBinaryOperator),
        (b"~", AdditiveBinaryOperator),
        (b"*", MultiplicativeBinaryOperator),
        (b"/", MultiplicativeBinaryOperator),
        (b"%", MultiplicativeBinaryOperator),
        (b"=", Equals),
    ]
};

fn escape_char(c: u8) -> Option<u8> {
    Some(match c {
        b'n' => b'\n',
        b't' => b'\t',
        b'r' => b'\r',
        b'b' => 0x08,
        b'f' => 0x0c,
        b'v' => 0x0b,
        b'\\' => b'\\',
        b'\'' => b'\'',
        b'"' => b'"',
        _ => return None,
    })
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn is_integer(c: u8) -> bool {
    c.is_ascii_digit()
}

fn string_lstrip(s: &mut Vec<u8>) {
    match s
        .iter()
        .position(|&c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
    {
        None => s.clear(),
        Some(start) => {
            s.drain(..start);
        }
    }
}

fn string_rstrip(s: &mut Vec<u8>) {
    match s
        .iter()
        .rposition(|&c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
    {
        None => s.clear(),
        Some(end) => s.truncate(end + 1),
    }
}

struct State<'a> {
    src: Vec<u8>,
    source: &'a [u8],
    pos: usize,
    /// Jinja2 dialect: numbers may have an exponent (`1e16`, `2.5E-3`).
    exponents: bool,
}

impl State<'_> {
    /// `src[i]`, with the NUL that `std::string` has at `size()` (and beyond, for safety).
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }
    fn err(&self, msg: &[u8], pos: usize) -> Error {
        Error::new(
            ErrorKind::Lexer,
            fmt_error_with_source("lexer", msg, self.source, pos),
        )
    }
    fn next_pos_is(&self, chars: &[u8], n: usize) -> bool {
        if self.pos + n >= self.src.len() {
            return false;
        }
        chars.contains(&self.src[self.pos + n])
    }
    fn consume_while(&mut self, pred: impl Fn(u8) -> bool) -> Result<Vec<u8>> {
        let mut s = Vec::new();
        while pred(self.at(self.pos)) {
            if self.at(self.pos) == b'\\' {
                self.pos += 1;
                if self.pos >= self.src.len() {
                    return Err(
                        self.err(b"unexpected end of input after escape character", self.pos)
                    );
                }
                let escaped = self.src[self.pos];
                self.pos += 1;
                match escape_char(escaped) {
                    Some(c) => s.push(c),
                    None => {
                        let mut m = b"unknown escape character \\".to_vec();
                        m.push(escaped);
                        return Err(self.err(&m, self.pos));
                    }
                }
                continue;
            }
            s.push(self.at(self.pos));
            self.pos += 1;
            if self.pos > self.src.len() {
                return Err(self.err(b"unexpected end of input during consume_while", self.pos));
            }
        }
        Ok(s)
    }
    fn consume_numeric(&mut self) -> Result<Vec<u8>> {
        let mut num = self.consume_while(is_integer)?;
        if self.pos < self.src.len()
            && self.src[self.pos] == b'.'
            && self.pos + 1 < self.src.len()
            && is_integer(self.src[self.pos + 1])
        {
            self.pos += 1;
            let frac = self.consume_while(is_integer)?;
            num.push(b'.');
            num.extend_from_slice(&frac);
        }
        if self.exponents && matches!(self.at(self.pos), b'e' | b'E') {
            let sign = matches!(self.at(self.pos + 1), b'+' | b'-') as usize;
            if is_integer(self.at(self.pos + 1 + sign)) {
                num.push(b'e');
                if sign == 1 {
                    num.push(self.at(self.pos + 1));
                }
                self.pos += 1 + sign;
                num.extend(self.consume_while(is_integer)?);
            }
        }
        Ok(num)
    }
}

impl Lexer {
    /// A lexer.
    pub fn new() -> Self {
        Lexer
    }

    /// `lexer::tokenize`.
    pub fn tokenize(&self, source: &str) -> Result<LexerResult> {
        tokenize_bytes(source.as_bytes())
    }
}

/// `lexer::tokenize` over raw bytes.
pub fn tokenize_bytes(source: &[u8]) -> Result<LexerResult> {
    tokenize_bytes_in(source, crate::Dialect::LlamaCpp)
}

/// [`tokenize_bytes`] in a dialect (Jinja2's numbers take exponents).
pub fn tokenize_bytes_in(source: &[u8], dialect: crate::Dialect) -> Result<LexerResult> {
    let mut tokens: Vec<Token> = Vec::new();
    if source.is_empty() {
        return Ok(LexerResult {
            tokens,
            source: Vec::new(),
        });
    }
    // Normalize \r\n, then \r, to \n.
    let mut src = Vec::with_capacity(source.len());
    let mut i = 0;
    while i < source.len() {
        if source[i] == b'\r' {
            if source.get(i + 1) == Some(&b'\n') {
                src.push(b'\n');
                i += 2;
                continue;
            }
            src.push(b'\n');
        } else {
            src.push(source[i]);
        }
        i += 1;
    }
    if source.last() == Some(&b'\n') {
        src.pop();
    }
    let mut st = State {
        src,
        source,
        pos: 0,
        exponents: dialect == crate::Dialect::Jinja2,
    };
    let mut curly_bracket_depth: usize = 0;
    let opt_lstrip_blocks = true;
    let opt_trim_blocks = true;

    while st.pos < st.src.len() {
        let mut start_pos = st.pos;
        let last_token_type = tokens
            .last()
            .map(|t| t.t)
            .unwrap_or(TokenType::CloseStatement);
        if matches!(
            last_token_type,
            TokenType::CloseStatement | TokenType::CloseExpression | TokenType::Comment
        ) {
            let mut last_block_can_rm_newline = false;
            let mut is_rstrip_block = false;
            if st.pos > 3 {
                let c0 = st.src[st.pos - 3];
                let c1 = st.src[st.pos - 2];
                let c2 = st.src[st.pos - 1];
                is_rstrip_block = c0 == b'-' && matches!(c1, b'%' | b'}' | b'#') && c2 == b'}';
                last_block_can_rm_newline = matches!(c1, b'#' | b'%' | b'-') && c2 == b'}';
            }
            let start = st.pos;
            let mut end = start;
            while st.pos < st.src.len() && !(st.src[st.pos] == b'{' && st.next_pos_is(b"%{#", 1)) {
                st.pos += 1;
                end = st.pos;
            }
            if opt_lstrip_blocks && st.at(st.pos) == b'{' && st.next_pos_is(b"%#-", 1) {
                let mut current = end;
                while current > start {
                    let c = st.src[current - 1];
                    if current == 1 {
                        end = 0;
                        break;
                    }
                    if c == b'\n' {
                        end = current;
                        break;
                    }
                    if !is_space(c) {
                        break;
                    }
                    current -= 1;
                }
            }
            let mut text = if end > start {
                st.src[start..end].to_vec()
            } else {
                Vec::new()
            };
            if opt_trim_blocks && last_block_can_rm_newline && text.first() == Some(&b'\n') {
                text.remove(0);
            }
            if is_rstrip_block {
                string_lstrip(&mut text);
            }
            let is_lstrip_block =
                st.at(st.pos) == b'{' && st.next_pos_is(b"{%#", 1) && st.next_pos_is(b"-", 2);
            if is_lstrip_block {
                string_rstrip(&mut text);
            }
            if !text.is_empty() {
                tokens.push(Token {
                    t: TokenType::Text,
                    value: text,
                    pos: start_pos,
                });
                continue;
            }
        }

        // comments
        if st.at(st.pos) == b'{' && st.next_pos_is(b"#", 1) {
            start_pos = st.pos;
            st.pos += 2;
            let mut comment = Vec::new();
            while !(st.at(st.pos) == b'#' && st.next_pos_is(b"}", 1)) {
                if st.pos + 2 >= st.src.len() {
                    return Err(st.err(b"missing end of comment tag", st.pos));
                }
                comment.push(st.src[st.pos]);
                st.pos += 1;
            }
            tokens.push(Token {
                t: TokenType::Comment,
                value: comment,
                pos: start_pos,
            });
            st.pos += 2;
            continue;
        }

        if st.at(st.pos) == b'-'
            && matches!(
                last_token_type,
                TokenType::OpenExpression | TokenType::OpenStatement
            )
        {
            st.pos += 1;
            if st.pos >= st.src.len() {
                break;
            }
        }

        st.consume_while(is_space)?;
        if st.pos >= st.src.len() {
            break;
        }
        let ch = st.src[st.pos];
        let is_closing_block = ch == b'-' && st.next_pos_is(b"%}", 1);

        if !is_closing_block && (ch == b'-' || ch == b'+') {
            start_pos = st.pos;
            let last = tokens.last().map(|t| t.t).unwrap_or(TokenType::Eof);
            if matches!(last, TokenType::Text | TokenType::Eof) {
                return Err(st.err(
                    &[b"unexpected character: ".as_slice(), &[ch]].concat(),
                    st.pos,
                ));
            }
            match last {
                TokenType::Identifier
                | TokenType::NumericLiteral
                | TokenType::StringLiteral
                | TokenType::CloseParen
                | TokenType::CloseSquareBracket => {}
                _ => {
                    st.pos += 1;
                    let num = st.consume_numeric()?;
                    let mut value = vec![ch];
                    value.extend_from_slice(&num);
                    let t = if num.is_empty() {
                        TokenType::UnaryOperator
                    } else {
                        TokenType::NumericLiteral
                    };
                    tokens.push(Token {
                        t,
                        value,
                        pos: start_pos,
                    });
                    continue;
                }
            }
        }

        // Jinja2's `//` (floor division) and `**` (power)
        if st.exponents
            && st.pos + 1 < st.src.len()
            && matches!(&st.src[st.pos..st.pos + 2], b"//" | b"**")
        {
            tokens.push(Token {
                t: TokenType::MultiplicativeBinaryOperator,
                value: st.src[st.pos..st.pos + 2].to_vec(),
                pos: st.pos,
            });
            st.pos += 2;
            continue;
        }
        let mut matched = false;
        for (seq, typ) in ORDERED_MAPPING_TABLE {
            start_pos = st.pos;
            if *seq == b"}}" && curly_bracket_depth > 0 {
                continue;
            }
            if st.pos + seq.len() <= st.src.len() && &st.src[st.pos..st.pos + seq.len()] == *seq {
                tokens.push(Token {
                    t: *typ,
                    value: seq.to_vec(),
                    pos: start_pos,
                });
                match typ {
                    TokenType::OpenExpression => curly_bracket_depth = 0,
                    TokenType::OpenCurlyBracket => {
                        curly_bracket_depth = curly_bracket_depth.wrapping_add(1)
                    }
                    TokenType::CloseCurlyBracket => {
                        curly_bracket_depth = curly_bracket_depth.wrapping_sub(1)
                    }
                    _ => {}
                }
                st.pos += seq.len();
                matched = true;
                break;
            }
        }
        if matched {
            continue;
        }

        if ch == b'\'' || ch == b'"' {
            start_pos = st.pos;
            st.pos += 1;
            let s = st.consume_while(|c| c != ch)?;
            tokens.push(Token {
                t: TokenType::StringLiteral,
                value: s,
                pos: start_pos,
            });
            st.pos += 1;
            continue;
        }
        if is_integer(ch) {
            start_pos = st.pos;
            let num = st.consume_numeric()?;
            tokens.push(Token {
                t: TokenType::NumericLiteral,
                value: num,
                pos: start_pos,
            });
            continue;
        }
        if is_word(ch) {
            start_pos = st.pos;
            let word = st.consume_while(is_word)?;
            tokens.push(Token {
                t: TokenType::Identifier,
                value: word,
                pos: start_pos,
            });
            continue;
        }
        return Err(st.err(
            &[b"unexpected character: ".as_slice(), &[ch]].concat(),
            st.pos,
        ));
    }
    Ok(LexerResult {
        tokens,
        source: st.src,
    })
}
