//! The parser, a port of Go's `text/template/parse/parse.go`.

use std::collections::HashMap;

use super::lex::{Item, ItemType, LexOptions, Lexer};
use super::node::*;
use crate::strconv;

/// Go's `maxStackDepth` for parenthesized expressions (non-wasm value).
pub const MAX_STACK_DEPTH: usize = 10000;

/// A parse error, with Go's exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The full message, e.g. `template: t:1: unexpected EOF`.
    pub message: String,
    /// Line of the error (the parser's current token).
    pub line: usize,
}

type PResult<T> = Result<T, ParseError>;

/// Parses `text` into the set of named trees it defines: the top-level
/// template under `name`, plus every `define` and `block`.
pub fn parse(
    name: &str,
    text: &str,
    left: &str,
    right: &str,
    is_func: &dyn Fn(&str) -> bool,
    parse_comments: bool,
) -> PResult<HashMap<String, ListNode>> {
    let mut lex = Lexer::new(text, left, right);
    lex.options = LexOptions {
        emit_comment: parse_comments,
        break_ok: !is_func("break"),
        continue_ok: !is_func("continue"),
    };
    let mut p = Parser {
        lex,
        token: [empty_item(), empty_item(), empty_item()],
        peek_count: 0,
        vars: vec!["$".to_string()],
        action_line: 0,
        range_depth: 0,
        stack_depth: 0,
        name: name.to_string(),
        parse_name: name.to_string(),
        is_func,
        tree_set: HashMap::new(),
    };
    let root = p.parse_top()?;
    p.add(root)?;
    Ok(p.tree_set)
}

fn empty_item<'a>() -> Item<'a> {
    Item {
        typ: ItemType::Error,
        pos: 0,
        val: "".into(),
        line: 0,
    }
}

struct Parser<'a, 'f> {
    lex: Lexer<'a>,
    token: [Item<'a>; 3],
    peek_count: usize,
    vars: Vec<String>,
    action_line: usize,
    range_depth: usize,
    stack_depth: usize,
    name: String,
    parse_name: String,
    is_func: &'f dyn Fn(&str) -> bool,
    tree_set: HashMap<String, ListNode>,
}

/// The per-tree state that a nested `define` or `block` starts afresh.
struct SavedTree<'a> {
    token: [Item<'a>; 3],
    peek_count: usize,
    vars: Vec<String>,
    action_line: usize,
    range_depth: usize,
    stack_depth: usize,
    name: String,
}

/// Go's `IsEmptyTree`.
pub fn is_empty_list(l: &ListNode) -> bool {
    l.nodes.iter().all(is_empty_node)
}

fn is_empty_node(n: &Node) -> bool {
    match n {
        Node::Comment { .. } => true,
        Node::Text(t) => t.text.trim_matches(crate::unicode::is_space).is_empty(),
        _ => false,
    }
}

/// What `itemList` stopped on.
enum End {
    End,
    Else(Pos),
}

impl<'a, 'f> Parser<'a, 'f> {
    fn next(&mut self) -> Item<'a> {
        if self.peek_count > 0 {
            self.peek_count -= 1;
        } else {
            self.token[0] = self.lex.next_item();
        }
        self.token[self.peek_count].clone()
    }

    fn backup(&mut self) {
        self.peek_count += 1;
    }

    fn backup2(&mut self, t1: Item<'a>) {
        self.token[1] = t1;
        self.peek_count = 2;
    }

    fn backup3(&mut self, t2: Item<'a>, t1: Item<'a>) {
        self.token[1] = t1;
        self.token[2] = t2;
        self.peek_count = 3;
    }

    fn peek(&mut self) -> Item<'a> {
        if self.peek_count > 0 {
            return self.token[self.peek_count - 1].clone();
        }
        self.peek_count = 1;
        self.token[0] = self.lex.next_item();
        self.token[0].clone()
    }

    fn next_non_space(&mut self) -> Item<'a> {
        loop {
            let t = self.next();
            if t.typ != ItemType::Space {
                return t;
            }
        }
    }

    fn peek_non_space(&mut self) -> Item<'a> {
        let t = self.next_non_space();
        self.backup();
        t
    }

    fn errorf<T>(&self, msg: impl std::fmt::Display) -> PResult<T> {
        let line = self.token[0].line;
        Err(ParseError {
            message: format!("template: {}:{}: {}", self.parse_name, line, msg),
            line,
        })
    }

    fn expect(&mut self, expected: ItemType, context: &str) -> PResult<Item<'a>> {
        let token = self.next_non_space();
        if token.typ != expected {
            return self.unexpected(&token, context);
        }
        Ok(token)
    }

    fn expect_one_of(&mut self, e1: ItemType, e2: ItemType, context: &str) -> PResult<Item<'a>> {
        let token = self.next_non_space();
        if token.typ != e1 && token.typ != e2 {
            return self.unexpected(&token, context);
        }
        Ok(token)
    }

    fn unexpected<T>(&self, token: &Item<'_>, context: &str) -> PResult<T> {
        if token.typ == ItemType::Error {
            let mut extra = String::new();
            if self.action_line != 0 && self.action_line != token.line {
                extra = format!(
                    " in action started at {}:{}",
                    self.parse_name, self.action_line
                );
                if token.val.ends_with(" action") {
                    extra = extra[" in action".len()..].to_string();
                }
            }
            return self.errorf(format!("{token}{extra}"));
        }
        self.errorf(format!("unexpected {token} in {context}"))
    }

    fn add(&mut self, root: ListNode) -> PResult<()> {
        match self.tree_set.get(&self.name) {
            Some(existing) if !is_empty_list(existing) => {
                if !is_empty_list(&root) {
                    return self.errorf(format!(
                        "template: multiple definition of template {}",
                        strconv::quote(&self.name)
                    ));
                }
                Ok(())
            }
            _ => {
                self.tree_set.insert(self.name.clone(), root);
                Ok(())
            }
        }
    }

    fn start_subtree(&mut self, name: &str) -> SavedTree<'a> {
        let saved = SavedTree {
            token: std::mem::replace(&mut self.token, [empty_item(), empty_item(), empty_item()]),
            peek_count: self.peek_count,
            vars: std::mem::replace(&mut self.vars, vec!["$".to_string()]),
            action_line: self.action_line,
            range_depth: self.range_depth,
            stack_depth: self.stack_depth,
            name: std::mem::replace(&mut self.name, name.to_string()),
        };
        self.peek_count = 0;
        self.action_line = 0;
        self.range_depth = 0;
        self.stack_depth = 0;
        saved
    }

    fn end_subtree(&mut self, saved: SavedTree<'a>) {
        self.token = saved.token;
        self.peek_count = saved.peek_count;
        self.vars = saved.vars;
        self.action_line = saved.action_line;
        self.range_depth = saved.range_depth;
        self.stack_depth = saved.stack_depth;
        self.name = saved.name;
    }

    fn parse_top(&mut self) -> PResult<ListNode> {
        let mut root = ListNode {
            pos: self.peek().pos,
            nodes: Vec::new(),
        };
        while self.peek().typ != ItemType::Eof {
            if self.peek().typ == ItemType::LeftDelim {
                let delim = self.next();
                if self.next_non_space().typ == ItemType::Define {
                    let saved = self.start_subtree("definition");
                    let r = self.parse_definition();
                    self.end_subtree(saved);
                    r?;
                    continue;
                }
                self.backup2(delim);
            }
            match self.text_or_action()? {
                Parsed::Node(n) => root.nodes.push(n),
                Parsed::End => return self.errorf(format!("unexpected {}", self.end_text())),
                Parsed::Else(..) => return self.errorf(format!("unexpected {}", self.else_text())),
            }
        }
        Ok(root)
    }

    fn parse_definition(&mut self) -> PResult<()> {
        let context = "define clause";
        let name = self.expect_one_of(ItemType::String, ItemType::RawString, context)?;
        match strconv::unquote(&name.val) {
            Ok(n) => self.name = n,
            Err(_) => return self.errorf("invalid syntax"),
        }
        self.expect(ItemType::RightDelim, context)?;
        let (root, end) = self.item_list()?;
        if let End::Else(..) = end {
            return self.errorf(format!("unexpected {} in {}", self.else_text(), context));
        }
        self.add(root)
    }

    /// `{{else}}` with this template's delimiters, as Go prints an else node.
    fn else_text(&self) -> String {
        format!("{}else{}", self.lex.left_delim(), self.lex.right_delim())
    }

    fn end_text(&self) -> String {
        format!("{}end{}", self.lex.left_delim(), self.lex.right_delim())
    }

    fn item_list(&mut self) -> PResult<(ListNode, End)> {
        let mut list = ListNode {
            pos: self.peek_non_space().pos,
            nodes: Vec::new(),
        };
        while self.peek_non_space().typ != ItemType::Eof {
            match self.text_or_action()? {
                Parsed::Node(n) => list.nodes.push(n),
                Parsed::End => return Ok((list, End::End)),
                Parsed::Else(pos) => return Ok((list, End::Else(pos))),
            }
        }
        self.errorf("unexpected EOF")
    }

    fn text_or_action(&mut self) -> PResult<Parsed> {
        let token = self.next_non_space();
        match token.typ {
            ItemType::Text => Ok(Parsed::Node(Node::Text(TextNode {
                pos: token.pos,
                text: token.val.into_owned(),
            }))),
            ItemType::LeftDelim => {
                self.action_line = token.line;
                let r = self.action();
                self.action_line = 0;
                r
            }
            ItemType::Comment => Ok(Parsed::Node(Node::Comment {
                pos: token.pos,
                text: token.val.into_owned(),
            })),
            _ => self.unexpected(&token, "input"),
        }
    }

    fn action(&mut self) -> PResult<Parsed> {
        let token = self.next_non_space();
        match token.typ {
            ItemType::Block => return self.block_control().map(Parsed::Node),
            ItemType::Break => return self.break_control(token.pos, token.line, true),
            ItemType::Continue => return self.break_control(token.pos, token.line, false),
            ItemType::Else => return self.else_control(),
            ItemType::End => {
                self.expect(ItemType::RightDelim, "end")?;
                return Ok(Parsed::End);
            }
            ItemType::If => return self.branch_control("if").map(Parsed::Node),
            ItemType::Range => return self.branch_control("range").map(Parsed::Node),
            ItemType::Template => return self.template_control().map(Parsed::Node),
            ItemType::With => return self.branch_control("with").map(Parsed::Node),
            _ => {}
        }
        self.backup();
        let token = self.peek();
        let pipe = self.pipeline("command", ItemType::RightDelim)?;
        Ok(Parsed::Node(Node::Action(ActionNode {
            pos: token.pos,
            line: token.line,
            pipe,
        })))
    }

    fn break_control(&mut self, pos: Pos, line: usize, is_break: bool) -> PResult<Parsed> {
        let word = if is_break { "break" } else { "continue" };
        let token = self.next_non_space();
        if token.typ != ItemType::RightDelim {
            return self.unexpected(&token, &format!("{{{{{word}}}}}"));
        }
        if self.range_depth == 0 {
            return self.errorf(format!("{{{{{word}}}}} outside {{{{range}}}}"));
        }
        Ok(Parsed::Node(if is_break {
            Node::Break { pos, line }
        } else {
            Node::Continue { pos, line }
        }))
    }

    fn else_control(&mut self) -> PResult<Parsed> {
        let peek = self.peek_non_space();
        if peek.typ == ItemType::If || peek.typ == ItemType::With {
            return Ok(Parsed::Else(peek.pos));
        }
        let token = self.expect(ItemType::RightDelim, "else")?;
        Ok(Parsed::Else(token.pos))
    }

    fn pipeline(&mut self, context: &str, end: ItemType) -> PResult<PipeNode> {
        let token = self.peek_non_space();
        let mut pipe = PipeNode {
            pos: token.pos,
            line: token.line,
            is_assign: false,
            decl: Vec::new(),
            cmds: Vec::new(),
        };
        'decls: loop {
            let v = self.peek_non_space();
            if v.typ == ItemType::Variable {
                self.next();
                let token_after_variable = self.peek();
                let next = self.peek_non_space();
                if next.typ == ItemType::Assign || next.typ == ItemType::Declare {
                    pipe.is_assign = next.typ == ItemType::Assign;
                    self.next_non_space();
                    pipe.decl.push(VariableNode {
                        pos: v.pos,
                        ident: split_ident(&v.val),
                    });
                    self.vars.push(v.val.to_string());
                } else if next.typ == ItemType::Char && next.val == "," {
                    self.next_non_space();
                    pipe.decl.push(VariableNode {
                        pos: v.pos,
                        ident: split_ident(&v.val),
                    });
                    self.vars.push(v.val.to_string());
                    if context == "range" && pipe.decl.len() < 2 {
                        match self.peek_non_space().typ {
                            ItemType::Variable | ItemType::RightDelim | ItemType::RightParen => {
                                continue 'decls;
                            }
                            _ => return self.errorf("range can only initialize variables"),
                        }
                    }
                    return self.errorf(format!("too many declarations in {context}"));
                } else if token_after_variable.typ == ItemType::Space {
                    self.backup3(v, token_after_variable);
                } else {
                    self.backup2(v);
                }
            }
            break;
        }
        loop {
            let token = self.next_non_space();
            match token.typ {
                t if t == end => {
                    self.check_pipeline(&pipe, context)?;
                    return Ok(pipe);
                }
                ItemType::Bool
                | ItemType::CharConstant
                | ItemType::Complex
                | ItemType::Dot
                | ItemType::Field
                | ItemType::Identifier
                | ItemType::Number
                | ItemType::Nil
                | ItemType::RawString
                | ItemType::String
                | ItemType::Variable
                | ItemType::LeftParen => {
                    self.backup();
                    let cmd = self.command()?;
                    pipe.cmds.push(cmd);
                }
                _ => return self.unexpected(&token, context),
            }
        }
    }

    fn check_pipeline(&self, pipe: &PipeNode, context: &str) -> PResult<()> {
        if pipe.cmds.is_empty() {
            return self.errorf(format!("missing value for {context}"));
        }
        for (i, c) in pipe.cmds.iter().enumerate().skip(1) {
            if matches!(
                c.args[0],
                Arg::Bool(..) | Arg::Dot(_) | Arg::Nil(_) | Arg::Number(_) | Arg::String { .. }
            ) {
                return self.errorf(format!(
                    "non executable command in pipeline stage {}",
                    i + 1
                ));
            }
        }
        Ok(())
    }

    fn branch_control(&mut self, context: &str) -> PResult<Node> {
        let nvars = self.vars.len();
        let r = self.parse_control(context);
        self.vars.truncate(nvars);
        let b = Box::new(r?);
        Ok(match context {
            "if" => Node::If(b),
            "range" => Node::Range(b),
            _ => Node::With(b),
        })
    }

    fn parse_control(&mut self, context: &str) -> PResult<BranchNode> {
        let pipe = self.pipeline(context, ItemType::RightDelim)?;
        if context == "range" {
            self.range_depth += 1;
        }
        let r = self.item_list();
        if context == "range" {
            self.range_depth -= 1;
        }
        let (list, next) = r?;
        let mut else_list = None;
        if let End::Else(else_pos) = next {
            let peek = self.peek().typ;
            if context == "if" && peek == ItemType::If {
                self.next();
                let n = self.branch_control("if")?;
                else_list = Some(ListNode {
                    pos: else_pos,
                    nodes: vec![n],
                });
            } else if context == "with" && peek == ItemType::With {
                self.next();
                let n = self.branch_control("with")?;
                else_list = Some(ListNode {
                    pos: else_pos,
                    nodes: vec![n],
                });
            } else {
                let (l, next) = self.item_list()?;
                if let End::Else(..) = next {
                    return self.errorf(format!("expected end; found {}", self.else_text()));
                }
                else_list = Some(l);
            }
        }
        Ok(BranchNode {
            pos: pipe.pos,
            line: pipe.line,
            pipe,
            list,
            else_list,
        })
    }

    fn block_control(&mut self) -> PResult<Node> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.parse_template_name(&token, context)?;
        let pipe = self.pipeline(context, ItemType::RightDelim)?;
        let saved = self.start_subtree(&name);
        let (root, end) = match self.item_list() {
            Ok(r) => r,
            Err(e) => {
                self.end_subtree(saved);
                return Err(e);
            }
        };
        if let End::Else(..) = end {
            // Go reports this one on the enclosing tree.
            self.end_subtree(saved);
            return self.errorf(format!("unexpected {} in {}", self.else_text(), context));
        }
        let added = self.add(root);
        self.end_subtree(saved);
        added?;
        Ok(Node::Template(TemplateNode {
            pos: token.pos,
            line: token.line,
            name,
            pipe: Some(pipe),
        }))
    }

    fn template_control(&mut self) -> PResult<Node> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.parse_template_name(&token, context)?;
        let mut pipe = None;
        if self.next_non_space().typ != ItemType::RightDelim {
            self.backup();
            pipe = Some(self.pipeline(context, ItemType::RightDelim)?);
        }
        Ok(Node::Template(TemplateNode {
            pos: token.pos,
            line: token.line,
            name,
            pipe,
        }))
    }

    fn parse_template_name(&mut self, token: &Item<'_>, context: &str) -> PResult<String> {
        match token.typ {
            ItemType::String | ItemType::RawString => match strconv::unquote(&token.val) {
                Ok(s) => Ok(s),
                Err(_) => self.errorf("invalid syntax"),
            },
            _ => self.unexpected(token, context),
        }
    }

    fn command(&mut self) -> PResult<CommandNode> {
        let mut cmd = CommandNode {
            pos: self.peek_non_space().pos,
            args: Vec::new(),
        };
        loop {
            self.peek_non_space();
            if let Some(operand) = self.operand()? {
                cmd.args.push(operand);
            }
            let token = self.next();
            match token.typ {
                ItemType::Space => continue,
                ItemType::RightDelim | ItemType::RightParen => self.backup(),
                ItemType::Pipe => {}
                _ => return self.unexpected(&token, "operand"),
            }
            break;
        }
        if cmd.args.is_empty() {
            return self.errorf("empty command");
        }
        Ok(cmd)
    }

    fn operand(&mut self) -> PResult<Option<Arg>> {
        let Some(node) = self.term()? else {
            return Ok(None);
        };
        if self.peek().typ == ItemType::Field {
            let chain_pos = self.peek().pos;
            let mut fields = Vec::new();
            while self.peek().typ == ItemType::Field {
                let v = self.next().val;
                fields.push(v[1..].to_string());
            }
            return Ok(Some(match node {
                Arg::Field { mut ident, .. } => {
                    ident.extend(fields);
                    Arg::Field {
                        pos: chain_pos,
                        ident,
                    }
                }
                Arg::Variable(VariableNode { mut ident, .. }) => {
                    ident.extend(fields);
                    Arg::Variable(VariableNode {
                        pos: chain_pos,
                        ident,
                    })
                }
                Arg::Bool(..) | Arg::String { .. } | Arg::Number(_) | Arg::Nil(_) | Arg::Dot(_) => {
                    let mut s = String::new();
                    write_arg(
                        &mut s,
                        &node,
                        &Delims {
                            left: String::new(),
                            right: String::new(),
                        },
                    );
                    return self.errorf(format!("unexpected . after term {}", strconv::quote(&s)));
                }
                node => Arg::Chain {
                    pos: chain_pos,
                    node: Box::new(node),
                    field: fields,
                },
            }));
        }
        Ok(Some(node))
    }

    fn term(&mut self) -> PResult<Option<Arg>> {
        let token = self.next_non_space();
        Ok(Some(match token.typ {
            ItemType::Identifier => {
                if !(self.is_func)(&token.val) {
                    return self.errorf(format!(
                        "function {} not defined",
                        strconv::quote(&token.val)
                    ));
                }
                Arg::Identifier {
                    pos: token.pos,
                    name: token.val.into_owned(),
                }
            }
            ItemType::Dot => Arg::Dot(token.pos),
            ItemType::Nil => Arg::Nil(token.pos),
            ItemType::Variable => {
                let v = VariableNode {
                    pos: token.pos,
                    ident: split_ident(&token.val),
                };
                if !self.vars.iter().any(|n| *n == v.ident[0]) {
                    return self.errorf(format!(
                        "undefined variable {}",
                        strconv::quote(&v.ident[0])
                    ));
                }
                Arg::Variable(v)
            }
            ItemType::Field => Arg::Field {
                pos: token.pos,
                ident: split_ident(&token.val[1..]),
            },
            ItemType::Bool => Arg::Bool(token.pos, token.val == "true"),
            ItemType::CharConstant | ItemType::Complex | ItemType::Number => {
                match new_number(token.pos, &token.val, token.typ) {
                    Ok(n) => Arg::Number(Box::new(n)),
                    Err(msg) => return self.errorf(msg),
                }
            }
            ItemType::LeftParen => {
                if self.stack_depth >= MAX_STACK_DEPTH {
                    return self.errorf("max expression depth exceeded");
                }
                self.stack_depth += 1;
                let r = self.pipeline("parenthesized pipeline", ItemType::RightParen);
                self.stack_depth -= 1;
                Arg::Pipe(Box::new(r?))
            }
            ItemType::String | ItemType::RawString => match strconv::unquote(&token.val) {
                Ok(s) => Arg::String {
                    pos: token.pos,
                    quoted: token.val.into_owned(),
                    text: s,
                },
                Err(_) => return self.errorf("invalid syntax"),
            },
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

enum Parsed {
    Node(Node),
    End,
    Else(Pos),
}

fn split_ident(s: &str) -> Vec<String> {
    s.split('.').map(str::to_string).collect()
}

/// Go's `newNumber`: every interpretation of a number literal.
pub fn new_number(pos: Pos, text: &str, typ: ItemType) -> Result<NumberNode, String> {
    let mut n = NumberNode {
        pos,
        text: text.to_string(),
        ..Default::default()
    };
    match typ {
        ItemType::CharConstant => {
            let inner = &text[1..];
            let (v, tail) = strconv::unquote_char(inner, text.as_bytes()[0])
                .map_err(|_| "invalid syntax".to_string())?;
            if tail != "'" {
                return Err(format!("malformed character constant: {text}"));
            }
            let r = match v {
                strconv::Unquoted::Char(c) => c as i64,
                strconv::Unquoted::Byte(b) => b as i64,
            };
            n.int64 = r;
            n.is_int = true;
            n.uint64 = r as u64;
            n.is_uint = true;
            n.float64 = r as f64;
            n.is_float = true;
            return Ok(n);
        }
        ItemType::Complex => {
            let (re, im) = scan_complex(text)?;
            n.is_complex = true;
            n.complex128 = (re, im);
            simplify_complex(&mut n);
            return Ok(n);
        }
        _ => {}
    }
    if let Some(body) = text.strip_suffix('i') {
        if let Ok(f) = strconv::parse_float(body) {
            n.is_complex = true;
            n.complex128 = (0.0, f);
            simplify_complex(&mut n);
            return Ok(n);
        }
    }
    let u = strconv::parse_uint(text);
    if let Ok(u) = u {
        n.is_uint = true;
        n.uint64 = u;
    }
    if let Ok(i) = strconv::parse_int(text) {
        n.is_int = true;
        n.int64 = i;
        if i == 0 {
            n.is_uint = true;
            n.uint64 = u.unwrap_or(0);
        }
    }
    if n.is_int {
        n.is_float = true;
        n.float64 = n.int64 as f64;
    } else if n.is_uint {
        n.is_float = true;
        n.float64 = n.uint64 as f64;
    } else if let Ok(f) = strconv::parse_float(text) {
        if !text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Err(format!("integer overflow: {}", strconv::quote(text)));
        }
        n.is_float = true;
        n.float64 = f;
        if !n.is_int && float_is_int64(f) {
            n.is_int = true;
            n.int64 = f as i64;
        }
        if !n.is_uint && float_is_uint64(f) {
            n.is_uint = true;
            n.uint64 = f as u64;
        }
    }
    if !n.is_int && !n.is_uint && !n.is_float {
        return Err(format!("illegal number syntax: {}", strconv::quote(text)));
    }
    Ok(n)
}

/// `float64(int64(f)) == f` with Go's amd64 conversion semantics (out of
/// range conversions give the minimum int64).
fn float_is_int64(f: f64) -> bool {
    let i = if f.is_nan() || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&f) {
        i64::MIN
    } else {
        f as i64
    };
    i as f64 == f
}

/// `float64(uint64(f)) == f` with Go's amd64 conversion semantics.
fn float_is_uint64(f: f64) -> bool {
    let u = go_f64_to_u64(f);
    u as f64 == f
}

fn go_f64_to_u64(f: f64) -> u64 {
    // amd64: values below 2^63 convert via CVTTSD2SQ (negative values wrap
    // as int64), values at or above 2^63 subtract 2^63 first.
    const TWO63: f64 = 9.223_372_036_854_776e18;
    if f.is_nan() {
        return 1 << 63;
    }
    if f < TWO63 {
        let i = if f > -TWO63 { f as i64 } else { i64::MIN };
        i as u64
    } else {
        let g = f - TWO63;
        let i = if g < TWO63 { g as i64 } else { i64::MIN };
        (i as u64) ^ (1 << 63)
    }
}

fn simplify_complex(n: &mut NumberNode) {
    n.is_float = n.complex128.1 == 0.0;
    if n.is_float {
        n.float64 = n.complex128.0;
        n.is_int = float_is_int64(n.float64);
        if n.is_int {
            n.int64 = n.float64 as i64;
        }
        n.is_uint = float_is_uint64(n.float64);
        if n.is_uint {
            n.uint64 = go_f64_to_u64(n.float64);
        }
    }
}

/// `fmt.Sscan` of a `complex128` from a lexed complex literal like `1+2i`.
fn scan_complex(text: &str) -> Result<(f64, f64), String> {
    const ERR: &str = "syntax error scanning complex number";
    let b = text.as_bytes();
    let real_end = float_token_end(b, 0);
    let mut i = real_end;
    if i >= b.len() || (b[i] != b'+' && b[i] != b'-') {
        return Err(ERR.into());
    }
    let imag_start = i;
    i = float_token_end(b, i + 1);
    if i >= b.len() || b[i] != b'i' {
        return Err(ERR.into());
    }
    let conv = |s: &str| {
        strconv::parse_float(s).map_err(|e| {
            format!(
                "strconv.ParseFloat: parsing {}: {}",
                strconv::quote(s),
                match e {
                    strconv::NumError::Syntax => "invalid syntax",
                    strconv::NumError::Range => "value out of range",
                }
            )
        })
    };
    let re = conv(&text[..real_end])?;
    let im = conv(&text[imag_start..i])?;
    Ok((re, im))
}

/// The end of `fmt`'s `floatToken` starting at `i` (sign already consumed
/// for the imaginary part, which `floatToken` accepts again).
fn float_token_end(b: &[u8], mut i: usize) -> usize {
    let accept = |i: &mut usize, set: &[u8]| -> bool {
        if *i < b.len() && set.contains(&b[*i]) {
            *i += 1;
            true
        } else {
            false
        }
    };
    accept(&mut i, b"+-");
    let mut digits: &[u8] = b"0123456789_";
    let mut exp: &[u8] = b"eEpP";
    let save = i;
    if accept(&mut i, b"0") && accept(&mut i, b"xX") {
        digits = b"0123456789aAbBcCdDeEfF_";
        exp = b"pP";
    } else {
        i = save;
    }
    while accept(&mut i, digits) {}
    if accept(&mut i, b".") {
        while accept(&mut i, digits) {}
    }
    if accept(&mut i, exp) {
        accept(&mut i, b"+-");
        while accept(&mut i, b"0123456789_") {}
    }
    i
}
