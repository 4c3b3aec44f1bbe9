//! Port of `common/jinja/parser.h` / `parser.cpp`: tokens to a [`Program`],
//! a recursive-descent parser with Jinja's precedence (lowest first):
//! ternary/select, `or`, `and`, `not`, comparison and membership, `+ - ~`,
//! `* / %`, `is` tests, `|` filters, unary `- +`, calls and members, primaries.
//!
//! Our addition: a nesting limit ([`MAX_PARSE_DEPTH`]) so deeply nested input
//! gives an error instead of overflowing the stack.

use std::rc::Rc;

use crate::ast::{Program, Stmt, StmtKind, StmtPtr};
use crate::error::{Error, ErrorKind, Result};
use crate::lexer::{LexerResult, Token, TokenType};
use crate::utils::fmt_error_with_source;
use crate::Dialect;

/// How deep blocks and expressions may nest in the parser (our addition).
pub const MAX_PARSE_DEPTH: usize = 100;

/// `parse_from_tokens`, as the newest build parses.
pub fn parse_from_tokens(lexer_res: &LexerResult) -> Result<Program> {
    parse_from_tokens_with(lexer_res, &changes::Rules::default())
}

/// `parse_from_tokens` as `rules`' build parses (and noting the
/// build-specific rules it consulted).
pub fn parse_from_tokens_with(lexer_res: &LexerResult, rules: &changes::Rules) -> Result<Program> {
    parse_from_tokens_in(lexer_res, rules, Dialect::LlamaCpp)
}

/// `parse_from_tokens` in a [`Dialect`].
pub fn parse_from_tokens_in(
    lexer_res: &LexerResult,
    rules: &changes::Rules,
    dialect: Dialect,
) -> Result<Program> {
    let mut p = Parser {
        tokens: &lexer_res.tokens,
        current: 0,
        source: &lexer_res.source,
        depth: 0,
        rules,
        dialect,
    };
    p.parse()
}

struct Parser<'a> {
    tokens: &'a [Token],
    current: usize,
    source: &'a [u8],
    depth: usize,
    rules: &'a changes::Rules,
    dialect: Dialect,
}

static END_TOKEN: Token = Token {
    t: TokenType::Eof,
    value: Vec::new(),
    pos: 0,
};

fn plain(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::Parser, msg)
}

impl<'a> Parser<'a> {
    fn parse(&mut self) -> Result<Program> {
        let mut body = Vec::new();
        while self.current < self.tokens.len() {
            body.push(self.parse_any()?);
        }
        Ok(Program { body })
    }

    fn mk(&self, start_pos: usize, kind: StmtKind) -> StmtPtr {
        let pos = self.tokens.get(start_pos).map(|t| t.pos).unwrap_or(0);
        Rc::new(Stmt { pos, kind })
    }

    fn err(&self, msg: &[u8], pos: usize) -> Error {
        Error::new(
            ErrorKind::Parser,
            fmt_error_with_source("parser", msg, self.source, pos),
        )
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_PARSE_DEPTH {
            let pos = self.peek(0).pos;
            return Err(Error::new(
                ErrorKind::TooDeep,
                fmt_error_with_source(
                    "parser",
                    format!("template nesting exceeds the limit of {MAX_PARSE_DEPTH} levels")
                        .as_bytes(),
                    self.source,
                    pos,
                ),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn peek(&self, offset: usize) -> &'a Token {
        self.tokens.get(self.current + offset).unwrap_or(&END_TOKEN)
    }

    fn next(&mut self) -> Result<&'a Token> {
        if self.current >= self.tokens.len() {
            let pos = self.tokens.last().map(|t| t.pos).unwrap_or(0);
            return Err(self.err(b"Parser Error: Unexpected EOF", pos));
        }
        let t = &self.tokens[self.current];
        self.current += 1;
        Ok(t)
    }

    fn expect(&mut self, t: TokenType, error: &str) -> Result<&'a Token> {
        let tok = self.peek(0);
        if tok.t != t {
            let mut m = format!("Parser Error: {error} (Got ").into_bytes();
            m.extend_from_slice(&tok.value);
            m.push(b')');
            return Err(self.err(&m, tok.pos));
        }
        self.current += 1;
        Ok(tok)
    }

    fn expect_identifier(&mut self, name: &str) -> Result<()> {
        let tok = self.peek(0);
        if tok.t != TokenType::Identifier || tok.value != name.as_bytes() {
            return Err(self.err(format!("Expected identifier: {name}").as_bytes(), tok.pos));
        }
        self.current += 1;
        Ok(())
    }

    fn is(&self, t: TokenType) -> bool {
        self.peek(0).t == t
    }

    fn is_identifier(&self, name: &str) -> bool {
        self.peek(0).t == TokenType::Identifier && self.peek(0).value == name.as_bytes()
    }

    fn is_statement(&self, names: &[&str]) -> bool {
        if self.peek(0).t != TokenType::OpenStatement || self.peek(1).t != TokenType::Identifier {
            return false;
        }
        let v = &self.peek(1).value;
        names.iter().any(|n| n.as_bytes() == v.as_slice())
    }

    fn parse_any(&mut self) -> Result<StmtPtr> {
        self.enter()?;
        let r = self.parse_any_inner();
        self.leave();
        r
    }

    fn parse_any_inner(&mut self) -> Result<StmtPtr> {
        let start_pos = self.current;
        match self.peek(0).t {
            TokenType::Comment => {
                let v = self.next()?.value.clone();
                Ok(self.mk(start_pos, StmtKind::Comment(v)))
            }
            TokenType::Text => {
                let v = self.next()?.value.clone();
                Ok(self.mk(start_pos, StmtKind::StringLiteral(v)))
            }
            TokenType::OpenStatement => self.parse_jinja_statement(),
            TokenType::OpenExpression => self.parse_jinja_expression(),
            _ => Err(plain("Unexpected token type")),
        }
    }

    fn parse_jinja_expression(&mut self) -> Result<StmtPtr> {
        self.expect(TokenType::OpenExpression, "Expected {{")?;
        let start_pos = self.current;
        let result = self.parse_expression()?;
        self.expect(TokenType::CloseExpression, "Expected }}")?;
        if self.dialect == Dialect::Jinja2 {
            return Ok(self.mk(start_pos, StmtKind::Output(result)));
        }
        Ok(result)
    }

    fn parse_body_until(&mut self, names: &[&str]) -> Result<Vec<StmtPtr>> {
        let mut body = Vec::new();
        while !self.is_statement(names) {
            body.push(self.parse_any()?);
        }
        Ok(body)
    }

    fn expect_end(&mut self, name: &str) -> Result<()> {
        self.expect(TokenType::OpenStatement, "Expected {%")?;
        self.expect_identifier(name)?;
        self.expect(TokenType::CloseStatement, "Expected %}")?;
        Ok(())
    }

    fn parse_jinja_statement(&mut self) -> Result<StmtPtr> {
        self.expect(TokenType::OpenStatement, "Expected {%")?;
        if self.peek(0).t != TokenType::Identifier {
            return Err(plain("Unknown statement"));
        }
        let start_pos = self.current;
        let name = self.next()?.text();
        let result = match name.as_str() {
            "set" => self.parse_set_statement(start_pos)?,
            "if" => {
                let r = self.parse_if_statement(start_pos)?;
                self.expect_end("endif")?;
                r
            }
            "macro" => {
                let r = self.parse_macro_statement(start_pos)?;
                self.expect_end("endmacro")?;
                r
            }
            "for" => {
                let r = self.parse_for_statement(start_pos)?;
                self.expect_end("endfor")?;
                r
            }
            "break" => {
                self.expect(TokenType::CloseStatement, "Expected %}")?;
                self.mk(start_pos, StmtKind::Break)
            }
            "continue" => {
                self.expect(TokenType::CloseStatement, "Expected %}")?;
                self.mk(start_pos, StmtKind::Continue)
            }
            "call" => {
                let mut caller_args = Vec::new();
                if self.is(TokenType::OpenParen) {
                    caller_args = self.parse_args()?;
                }
                let callee = self.parse_primary_expression()?;
                if callee.as_identifier().is_none() {
                    return Err(plain("Expected identifier"));
                }
                let call_args = self.parse_args()?;
                self.expect(TokenType::CloseStatement, "Expected %}")?;
                let body = self.parse_body_until(&["endcall"])?;
                self.expect_end("endcall")?;
                let call = self.mk(
                    start_pos,
                    StmtKind::Call {
                        callee,
                        args: call_args,
                    },
                );
                self.mk(
                    start_pos,
                    StmtKind::CallStatement {
                        call,
                        caller_args,
                        body,
                    },
                )
            }
            "filter" => {
                let mut filter = self.parse_primary_expression()?;
                if filter.as_identifier().is_some() && self.is(TokenType::OpenParen) {
                    filter = self.parse_call_expression(filter)?;
                }
                self.expect(TokenType::CloseStatement, "Expected %}")?;
                let body = self.parse_body_until(&["endfilter"])?;
                self.expect_end("endfilter")?;
                self.mk(start_pos, StmtKind::FilterStatement { filter, body })
            }
            "generation" | "endgeneration" => {
                let r = self.mk(start_pos, StmtKind::Noop);
                self.current += 1;
                r
            }
            _ => return Err(plain(format!("Unknown statement: {name}"))),
        };
        Ok(result)
    }

    fn parse_set_statement(&mut self, start_pos: usize) -> Result<StmtPtr> {
        let left = self.parse_expression_sequence(false)?;
        let mut value = None;
        let mut body = Vec::new();
        if self.is(TokenType::Equals) {
            self.current += 1;
            value = Some(self.parse_expression_sequence(false)?);
        } else {
            self.expect(TokenType::CloseStatement, "Expected %}")?;
            body = self.parse_body_until(&["endset"])?;
            self.expect(TokenType::OpenStatement, "Expected {%")?;
            self.expect_identifier("endset")?;
        }
        self.expect(TokenType::CloseStatement, "Expected %}")?;
        Ok(self.mk(
            start_pos,
            StmtKind::Set {
                assignee: left,
                val: value,
                body,
            },
        ))
    }

    fn parse_if_statement(&mut self, start_pos: usize) -> Result<StmtPtr> {
        self.enter()?;
        let r = self.parse_if_statement_inner(start_pos);
        self.leave();
        r
    }

    fn parse_if_statement_inner(&mut self, start_pos: usize) -> Result<StmtPtr> {
        let test = self.parse_expression()?;
        self.expect(TokenType::CloseStatement, "Expected %}")?;
        let body = self.parse_body_until(&["elif", "else", "endif"])?;
        let mut alternate = Vec::new();
        if self.is_statement(&["elif"]) {
            let pos0 = self.current;
            self.current += 2;
            alternate.push(self.parse_if_statement(pos0)?);
        } else if self.is_statement(&["else"]) {
            self.current += 2;
            self.expect(TokenType::CloseStatement, "Expected %}")?;
            alternate = self.parse_body_until(&["endif"])?;
        }
        Ok(self.mk(
            start_pos,
            StmtKind::If {
                test,
                body,
                alternate,
            },
        ))
    }

    fn parse_macro_statement(&mut self, start_pos: usize) -> Result<StmtPtr> {
        let name = self.parse_primary_expression()?;
        let args = self.parse_args()?;
        self.expect(TokenType::CloseStatement, "Expected %}")?;
        let body = self.parse_body_until(&["endmacro"])?;
        Ok(self.mk(start_pos, StmtKind::Macro { name, args, body }))
    }

    fn parse_expression_sequence(&mut self, primary: bool) -> Result<StmtPtr> {
        let start_pos = self.current;
        let mut exprs = Vec::new();
        exprs.push(if primary {
            self.parse_primary_expression()?
        } else {
            self.parse_expression()?
        });
        let is_tuple = self.is(TokenType::Comma);
        while self.is(TokenType::Comma) {
            self.current += 1;
            if self.dialect == Dialect::Jinja2 && self.is(TokenType::CloseParen) {
                break;
            }
            exprs.push(if primary {
                self.parse_primary_expression()?
            } else {
                self.parse_expression()?
            });
        }
        if is_tuple {
            Ok(self.mk(start_pos, StmtKind::TupleLiteral(exprs)))
        } else {
            Ok(exprs.pop().expect("one expression"))
        }
    }

    fn parse_for_statement(&mut self, start_pos: usize) -> Result<StmtPtr> {
        let loopvar = self.parse_expression_sequence(true)?;
        if !self.is_identifier("in") {
            return Err(plain("Expected 'in'"));
        }
        self.current += 1;
        let iterable = self.parse_expression()?;
        self.expect(TokenType::CloseStatement, "Expected %}")?;
        let body = self.parse_body_until(&["endfor", "else"])?;
        let mut default_block = Vec::new();
        if self.is_statement(&["else"]) {
            self.current += 2;
            self.expect(TokenType::CloseStatement, "Expected %}")?;
            default_block = self.parse_body_until(&["endfor"])?;
        }
        Ok(self.mk(
            start_pos,
            StmtKind::For {
                loopvar,
                iterable,
                body,
                default_block,
            },
        ))
    }

    fn parse_expression(&mut self) -> Result<StmtPtr> {
        self.enter()?;
        let r = self.parse_if_expression();
        self.leave();
        r
    }

    fn parse_if_expression(&mut self) -> Result<StmtPtr> {
        let a = self.parse_logical_or_expression()?;
        if self.is_identifier("if") {
            let start_pos = self.current;
            self.current += 1;
            let test = self.parse_logical_or_expression()?;
            if self.is_identifier("else") {
                let pos0 = self.current;
                self.current += 1;
                self.enter()?;
                let false_expr = self.parse_if_expression();
                self.leave();
                let false_expr = false_expr?;
                return Ok(self.mk(
                    pos0,
                    StmtKind::Ternary {
                        condition: test,
                        true_expr: a,
                        false_expr,
                    },
                ));
            }
            return Ok(self.mk(start_pos, StmtKind::Select { lhs: a, test }));
        }
        Ok(a)
    }

    fn binary(&mut self, start_pos: usize, op: Token, left: StmtPtr, right: StmtPtr) -> StmtPtr {
        self.mk(start_pos, StmtKind::Binary { op, left, right })
    }

    fn parse_logical_or_expression(&mut self) -> Result<StmtPtr> {
        let mut left = self.parse_logical_and_expression()?;
        while self.is_identifier("or") {
            let start_pos = self.current;
            let op = self.next()?.clone();
            let right = self.parse_logical_and_expression()?;
            left = self.binary(start_pos, op, left, right);
        }
        Ok(left)
    }

    fn parse_logical_and_expression(&mut self) -> Result<StmtPtr> {
        let mut left = self.parse_logical_negation_expression()?;
        while self.is_identifier("and") {
            let start_pos = self.current;
            let op = self.next()?.clone();
            let right = self.parse_logical_negation_expression()?;
            left = self.binary(start_pos, op, left, right);
        }
        Ok(left)
    }

    fn parse_logical_negation_expression(&mut self) -> Result<StmtPtr> {
        if self.is_identifier("not") {
            let start_pos = self.current;
            let op = self.next()?.clone();
            self.enter()?;
            let arg = self.parse_logical_negation_expression();
            self.leave();
            let argument = arg?;
            return Ok(self.mk(start_pos, StmtKind::Unary { op, argument }));
        }
        self.parse_comparison_expression()
    }

    fn parse_comparison_expression(&mut self) -> Result<StmtPtr> {
        let mut left = self.parse_additive_expression()?;
        loop {
            let start_pos = self.current;
            let op;
            if self.is_identifier("not")
                && self.peek(1).t == TokenType::Identifier
                && self.peek(1).value == b"in"
            {
                op = Token {
                    t: TokenType::Identifier,
                    value: b"not in".to_vec(),
                    pos: self.tokens[self.current].pos,
                };
                self.current += 2;
            } else if self.is_identifier("in") || self.is(TokenType::ComparisonBinaryOperator) {
                op = self.next()?.clone();
            } else {
                break;
            }
            let right = self.parse_additive_expression()?;
            left = self.binary(start_pos, op, left, right);
        }
        Ok(left)
    }

    fn parse_additive_expression(&mut self) -> Result<StmtPtr> {
        let mut left = self.parse_multiplicative_expression()?;
        while self.is(TokenType::AdditiveBinaryOperator) {
            let start_pos = self.current;
            let op = self.next()?.clone();
            let right = self.parse_multiplicative_expression()?;
            left = self.binary(start_pos, op, left, right);
        }
        Ok(left)
    }

    fn parse_multiplicative_expression(&mut self) -> Result<StmtPtr> {
        let mut left = self.parse_pow_expression()?;
        while self.is(TokenType::MultiplicativeBinaryOperator) && !self.is_pow() {
            let start_pos = self.current;
            let op = self.next()?.clone();
            let right = self.parse_pow_expression()?;
            left = self.binary(start_pos, op, left, right);
        }
        Ok(left)
    }

    /// Jinja2's `**` (only its lexer makes the token).
    fn is_pow(&self) -> bool {
        self.is(TokenType::MultiplicativeBinaryOperator) && self.peek(0).value == b"**"
    }

    /// Jinja2 dialect: `a ** b`, above `*` and left-associative, as
    /// jinja2's `parse_pow`.
    fn parse_pow_expression(&mut self) -> Result<StmtPtr> {
        let mut left = self.parse_test_expression()?;
        while self.is_pow() {
            let start_pos = self.current;
            let op = self.next()?.clone();
            let right = self.parse_test_expression()?;
            left = self.binary(start_pos, op, left, right);
        }
        Ok(left)
    }

    fn parse_test_expression(&mut self) -> Result<StmtPtr> {
        let mut operand = self.parse_filter_expression()?;
        while self.is_identifier("is") {
            let start_pos = self.current;
            self.current += 1;
            let mut negate = false;
            if self.is_identifier("not") {
                self.current += 1;
                negate = true;
            }
            let mut test = self.parse_primary_expression()?;
            if self.is(TokenType::OpenParen) {
                test = self.parse_call_expression(test)?;
            } else if (self.is(TokenType::NumericLiteral)
                || self.is(TokenType::StringLiteral)
                || self.is(TokenType::OpenCurlyBracket)
                || self.is(TokenType::OpenSquareBracket)
                || (self.is(TokenType::Identifier)
                    && !self.is_identifier("and")
                    && !self.is_identifier("or")
                    && !self.is_identifier("else")))
                // before: the argument needs parentheses, and what follows
                // the test's name is left to the caller (a parse error)
                && self.rules.on(&changes::llamacpp::JINJA_TEST_ARG_WITHOUT_PARENS)
            {
                let call_pos = self.current;
                let args = vec![self.parse_unary_expression()?];
                test = self.mk(call_pos, StmtKind::Call { callee: test, args });
            }
            operand = self.mk(
                start_pos,
                StmtKind::Test {
                    operand,
                    negate,
                    test,
                },
            );
        }
        Ok(operand)
    }

    fn parse_filter_expression(&mut self) -> Result<StmtPtr> {
        // Filters and tests bind outside unary, so `-n|abs` is `(-n)|abs`.
        // Before: no unary operator here, so `-n` meets the primary
        // expression's `Unexpected token`.
        let mut operand = if self.is(TokenType::UnaryOperator)
            && !self.rules.on(&changes::llamacpp::JINJA_UNARY_NON_LITERAL)
        {
            self.parse_call_member_expression()?
        } else {
            self.parse_unary_expression()?
        };
        while self.is(TokenType::Pipe) {
            let start_pos = self.current;
            self.current += 1;
            let mut filter = self.parse_primary_expression()?;
            if self.is(TokenType::OpenParen) {
                filter = self.parse_call_expression(filter)?;
            }
            operand = self.mk(start_pos, StmtKind::Filter { operand, filter });
        }
        Ok(operand)
    }

    fn parse_unary_expression(&mut self) -> Result<StmtPtr> {
        if self.is(TokenType::UnaryOperator) {
            let start_pos = self.current;
            let op = self.next()?.clone();
            self.enter()?;
            let arg = self.parse_unary_expression();
            self.leave();
            let argument = arg?;
            return Ok(self.mk(start_pos, StmtKind::Unary { op, argument }));
        }
        self.parse_call_member_expression()
    }

    fn parse_call_member_expression(&mut self) -> Result<StmtPtr> {
        let primary = self.parse_primary_expression()?;
        let member = self.parse_member_expression(primary)?;
        if self.is(TokenType::OpenParen) {
            self.parse_call_expression(member)
        } else {
            Ok(member)
        }
    }

    fn parse_call_expression(&mut self, callee: StmtPtr) -> Result<StmtPtr> {
        // loop instead of the C++ tail recursion (`foo()()()`), same tree
        let mut callee = callee;
        loop {
            let start_pos = self.current;
            let args = self.parse_args()?;
            let expr = self.mk(start_pos, StmtKind::Call { callee, args });
            let member = self.parse_member_expression(expr)?;
            if self.is(TokenType::OpenParen) {
                callee = member;
            } else {
                return Ok(member);
            }
        }
    }

    fn parse_args(&mut self) -> Result<Vec<StmtPtr>> {
        self.expect(TokenType::OpenParen, "Expected (")?;
        let mut args = Vec::new();
        while !self.is(TokenType::CloseParen) {
            let arg;
            if self.peek(0).t == TokenType::MultiplicativeBinaryOperator
                && self.peek(0).value == b"*"
            {
                let start_pos = self.current;
                self.current += 1;
                let argument = self.parse_expression()?;
                arg = self.mk(start_pos, StmtKind::Spread { argument });
            } else {
                let a = self.parse_expression()?;
                if self.is(TokenType::Equals) {
                    let start_pos = self.current;
                    self.current += 1;
                    let val = self.parse_expression()?;
                    arg = self.mk(start_pos, StmtKind::KeywordArgument { key: a, val });
                } else {
                    arg = a;
                }
            }
            args.push(arg);
            if self.is(TokenType::Comma) {
                self.current += 1;
            }
        }
        self.expect(TokenType::CloseParen, "Expected )")?;
        Ok(args)
    }

    fn parse_member_expression(&mut self, object: StmtPtr) -> Result<StmtPtr> {
        let start_pos = self.current;
        let mut object = object;
        while self.is(TokenType::Dot) || self.is(TokenType::OpenSquareBracket) {
            let op = self.next()?;
            let computed = op.t == TokenType::OpenSquareBracket;
            let property = if computed {
                let p = self.parse_member_expression_arguments()?;
                self.expect(TokenType::CloseSquareBracket, "Expected ]")?;
                p
            } else {
                self.parse_primary_expression()?
            };
            object = self.mk(
                start_pos,
                StmtKind::Member {
                    object,
                    property,
                    computed,
                },
            );
        }
        Ok(object)
    }

    fn parse_member_expression_arguments(&mut self) -> Result<StmtPtr> {
        let mut slices: Vec<Option<StmtPtr>> = Vec::new();
        let mut is_slice = false;
        let start_pos = self.current;
        while !self.is(TokenType::CloseSquareBracket) {
            if self.is(TokenType::Colon) {
                slices.push(None);
                self.current += 1;
                is_slice = true;
            } else {
                slices.push(Some(self.parse_expression()?));
                if self.is(TokenType::Colon) {
                    self.current += 1;
                    is_slice = true;
                }
            }
        }
        if is_slice {
            let mut it = slices.into_iter();
            let start = it.next().flatten();
            let stop = it.next().flatten();
            let step = it.next().flatten();
            return Ok(self.mk(start_pos, StmtKind::Slice { start, stop, step }));
        }
        if slices.is_empty() {
            return Ok(self.mk(start_pos, StmtKind::Blank));
        }
        // without a colon every element was a Some
        match slices.swap_remove(0) {
            Some(s) => Ok(s),
            None => Ok(self.mk(start_pos, StmtKind::Blank)),
        }
    }

    fn parse_pairs(&mut self, pairs: &mut Vec<(StmtPtr, StmtPtr)>) -> Result<()> {
        while !self.is(TokenType::CloseCurlyBracket) {
            let key = self.parse_expression()?;
            self.expect(TokenType::Colon, "Expected :")?;
            let v = self.parse_expression()?;
            pairs.push((key, v));
            if self.is(TokenType::Comma) {
                self.current += 1;
            }
        }
        Ok(())
    }

    fn parse_primary_expression(&mut self) -> Result<StmtPtr> {
        let start_pos = self.current;
        let t = self.next()?;
        match t.t {
            TokenType::NumericLiteral => {
                let s = t.text();
                if s.contains('.') || s.contains('e') {
                    match parse_stod(&s) {
                        Some(v) => Ok(self.mk(start_pos, StmtKind::FloatLiteral(v))),
                        None => Err(plain("stod")),
                    }
                } else {
                    match s.parse::<i64>() {
                        Ok(v) => Ok(self.mk(start_pos, StmtKind::IntegerLiteral(v))),
                        Err(_) => Err(plain("stoll")),
                    }
                }
            }
            TokenType::StringLiteral => {
                let mut val = t.value.clone();
                while self.is(TokenType::StringLiteral) {
                    val.extend_from_slice(&self.next()?.value);
                }
                Ok(self.mk(start_pos, StmtKind::StringLiteral(val)))
            }
            TokenType::Identifier => Ok(self.mk(start_pos, StmtKind::Identifier(t.text()))),
            TokenType::OpenParen => {
                self.enter()?;
                let e = self.parse_expression_sequence(false);
                self.leave();
                let expr = e?;
                self.expect(TokenType::CloseParen, "Expected )")?;
                Ok(expr)
            }
            TokenType::OpenSquareBracket => {
                let mut vals = Vec::new();
                self.enter()?;
                while !self.is(TokenType::CloseSquareBracket) {
                    let v = self.parse_expression();
                    let Ok(v) = v else {
                        self.leave();
                        return v;
                    };
                    vals.push(v);
                    if self.is(TokenType::Comma) {
                        self.current += 1;
                    }
                }
                self.leave();
                self.current += 1;
                Ok(self.mk(start_pos, StmtKind::ArrayLiteral(vals)))
            }
            TokenType::OpenCurlyBracket => {
                let mut pairs = Vec::new();
                self.enter()?;
                let r = self.parse_pairs(&mut pairs);
                self.leave();
                r?;
                self.current += 1;
                Ok(self.mk(start_pos, StmtKind::ObjectLiteral(pairs)))
            }
            _ => {
                let mut m = b"Unexpected token: ".to_vec();
                m.extend_from_slice(&t.value);
                m.extend_from_slice(format!(" of type {}", t.t as u32).as_bytes());
                Err(plain(crate::utils::lossy(m)))
            }
        }
    }
}

/// `std::stod` on `digits.digits`: `None` where it throws `out_of_range`
/// (overflow to infinity or underflow to zero/denormal).
fn parse_stod(s: &str) -> Option<f64> {
    let v: f64 = s.parse().ok()?;
    if v.is_infinite() {
        return None;
    }
    let nonzero_digit = s.bytes().any(|c| (b'1'..=b'9').contains(&c));
    if nonzero_digit && (v == 0.0 || v.abs() < f64::MIN_POSITIVE) {
        return None;
    }
    Some(v)
}
