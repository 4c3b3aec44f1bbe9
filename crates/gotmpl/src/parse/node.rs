//! The parse tree, a port of Go's `text/template/parse/node.go`.
//!
//! Every node prints back as template source, exactly as Go's `String()`
//! does; execution errors quote that text as their context.

use std::fmt::{self, Write};

/// Byte offset in the template source.
pub type Pos = usize;

/// A node of the template body.
#[derive(Clone, Debug)]
pub enum Node {
    /// Plain text.
    Text(TextNode),
    /// A comment (kept only in comment-preserving mode).
    Comment {
        /// Position.
        pos: Pos,
        /// The comment text, with its `/* */`.
        text: String,
    },
    /// `{{pipeline}}`
    Action(ActionNode),
    /// `{{if}}`
    If(Box<BranchNode>),
    /// `{{range}}`
    Range(Box<BranchNode>),
    /// `{{with}}`
    With(Box<BranchNode>),
    /// `{{template "name" pipeline}}`
    Template(TemplateNode),
    /// `{{break}}`
    Break {
        /// Position.
        pos: Pos,
        /// Line.
        line: usize,
    },
    /// `{{continue}}`
    Continue {
        /// Position.
        pos: Pos,
        /// Line.
        line: usize,
    },
}

/// Plain text.
#[derive(Clone, Debug)]
pub struct TextNode {
    /// Position.
    pub pos: Pos,
    /// The text.
    pub text: String,
}

/// A list of nodes.
#[derive(Clone, Debug, Default)]
pub struct ListNode {
    /// Position.
    pub pos: Pos,
    /// The nodes.
    pub nodes: Vec<Node>,
}

/// An action.
#[derive(Clone, Debug)]
pub struct ActionNode {
    /// Position.
    pub pos: Pos,
    /// Line.
    pub line: usize,
    /// The pipeline.
    pub pipe: PipeNode,
}

/// `if`, `range` and `with`.
#[derive(Clone, Debug)]
pub struct BranchNode {
    /// Position.
    pub pos: Pos,
    /// Line.
    pub line: usize,
    /// The condition.
    pub pipe: PipeNode,
    /// What runs when the condition holds.
    pub list: ListNode,
    /// What runs otherwise.
    pub else_list: Option<ListNode>,
}

/// `{{template}}`.
#[derive(Clone, Debug)]
pub struct TemplateNode {
    /// Position.
    pub pos: Pos,
    /// Line.
    pub line: usize,
    /// The template name.
    pub name: String,
    /// The argument.
    pub pipe: Option<PipeNode>,
}

/// A pipeline with optional declarations.
#[derive(Clone, Debug)]
pub struct PipeNode {
    /// Position.
    pub pos: Pos,
    /// Line.
    pub line: usize,
    /// `=` rather than `:=`.
    pub is_assign: bool,
    /// Declared or assigned variables.
    pub decl: Vec<VariableNode>,
    /// The commands, in order.
    pub cmds: Vec<CommandNode>,
}

/// A command: an operand followed by arguments.
#[derive(Clone, Debug)]
pub struct CommandNode {
    /// Position.
    pub pos: Pos,
    /// The operand and its arguments.
    pub args: Vec<Arg>,
}

/// A variable with an optional field chain: `$x.A.B`.
#[derive(Clone, Debug)]
pub struct VariableNode {
    /// Position.
    pub pos: Pos,
    /// `$x`, then the field names.
    pub ident: Vec<String>,
}

/// A number literal with every interpretation Go gives it.
#[derive(Clone, Debug, Default)]
pub struct NumberNode {
    /// Position.
    pub pos: Pos,
    /// Fits in int64.
    pub is_int: bool,
    /// Fits in uint64.
    pub is_uint: bool,
    /// Is a float.
    pub is_float: bool,
    /// Is complex (imaginary part).
    pub is_complex: bool,
    /// As int64.
    pub int64: i64,
    /// As uint64.
    pub uint64: u64,
    /// As float64.
    pub float64: f64,
    /// As complex128 (real, imaginary).
    pub complex128: (f64, f64),
    /// The source text.
    pub text: String,
}

/// An operand.
#[derive(Clone, Debug)]
pub enum Arg {
    /// `.A.B`
    Field {
        /// Position.
        pos: Pos,
        /// Field names.
        ident: Vec<String>,
    },
    /// `$x.A`
    Variable(VariableNode),
    /// A function name.
    Identifier {
        /// Position.
        pos: Pos,
        /// Name.
        name: String,
    },
    /// `.`
    Dot(Pos),
    /// `nil`
    Nil(Pos),
    /// `true`, `false`
    Bool(Pos, bool),
    /// A number.
    Number(Box<NumberNode>),
    /// A string literal.
    String {
        /// Position.
        pos: Pos,
        /// The literal as written.
        quoted: String,
        /// Its value.
        text: String,
    },
    /// A parenthesized pipeline.
    Pipe(Box<PipeNode>),
    /// `(pipe).A.B`, `$x` chains on non-field operands.
    Chain {
        /// Position.
        pos: Pos,
        /// The operand.
        node: Box<Arg>,
        /// Field names.
        field: Vec<String>,
    },
}

impl Arg {
    /// Position.
    pub fn pos(&self) -> Pos {
        match self {
            Arg::Field { pos, .. }
            | Arg::Identifier { pos, .. }
            | Arg::Dot(pos)
            | Arg::Nil(pos)
            | Arg::Bool(pos, _)
            | Arg::String { pos, .. }
            | Arg::Chain { pos, .. } => *pos,
            Arg::Variable(v) => v.pos,
            Arg::Number(n) => n.pos,
            Arg::Pipe(p) => p.pos,
        }
    }
}

/// Delimiters, needed to print nodes back.
#[derive(Clone, Debug)]
pub struct Delims {
    /// Left delimiter.
    pub left: String,
    /// Right delimiter.
    pub right: String,
}

/// A node of any kind, for error context.
#[derive(Clone, Copy, Debug)]
pub enum AnyNode<'a> {
    /// A body node.
    Node(&'a Node),
    /// A list.
    List(&'a ListNode),
    /// A pipeline.
    Pipe(&'a PipeNode),
    /// A command.
    Command(&'a CommandNode),
    /// An operand.
    Arg(&'a Arg),
    /// A variable node (declarations).
    Variable(&'a VariableNode),
}

impl AnyNode<'_> {
    /// Position.
    pub fn pos(&self) -> Pos {
        match self {
            AnyNode::Node(n) => n.pos(),
            AnyNode::List(l) => l.pos,
            AnyNode::Pipe(p) => p.pos,
            AnyNode::Command(c) => c.pos,
            AnyNode::Arg(a) => a.pos(),
            AnyNode::Variable(v) => v.pos,
        }
    }

    /// The node as template source, as Go's `String()`.
    pub fn source(&self, d: &Delims) -> String {
        let mut s = String::new();
        match self {
            AnyNode::Node(n) => write_node(&mut s, n, d),
            AnyNode::List(l) => write_list(&mut s, l, d),
            AnyNode::Pipe(p) => write_pipe(&mut s, p, d),
            AnyNode::Command(c) => write_command(&mut s, c, d),
            AnyNode::Arg(a) => write_arg(&mut s, a, d),
            AnyNode::Variable(v) => write_variable(&mut s, v),
        }
        s
    }
}

impl Node {
    /// Position.
    pub fn pos(&self) -> Pos {
        match self {
            Node::Text(t) => t.pos,
            Node::Comment { pos, .. } | Node::Break { pos, .. } | Node::Continue { pos, .. } => {
                *pos
            }
            Node::Action(a) => a.pos,
            Node::If(b) | Node::Range(b) | Node::With(b) => b.pos,
            Node::Template(t) => t.pos,
        }
    }
}

/// Writes a node as template source.
pub fn write_node(s: &mut String, n: &Node, d: &Delims) {
    match n {
        Node::Text(t) => s.push_str(&t.text),
        Node::Comment { text, .. } => {
            s.push_str(&d.left);
            s.push_str(text);
            s.push_str(&d.right);
        }
        Node::Action(a) => {
            s.push_str(&d.left);
            write_pipe(s, &a.pipe, d);
            s.push_str(&d.right);
        }
        Node::If(b) => write_branch(s, "if", b, d),
        Node::Range(b) => write_branch(s, "range", b, d),
        Node::With(b) => write_branch(s, "with", b, d),
        Node::Template(t) => {
            s.push_str(&d.left);
            s.push_str("template ");
            s.push_str(&crate::strconv::quote(&t.name));
            if let Some(p) = &t.pipe {
                s.push(' ');
                write_pipe(s, p, d);
            }
            s.push_str(&d.right);
        }
        Node::Break { .. } => {
            let _ = write!(s, "{}break{}", d.left, d.right);
        }
        Node::Continue { .. } => {
            let _ = write!(s, "{}continue{}", d.left, d.right);
        }
    }
}

fn write_list(s: &mut String, l: &ListNode, d: &Delims) {
    for n in &l.nodes {
        write_node(s, n, d);
    }
}

fn write_branch(s: &mut String, name: &str, b: &BranchNode, d: &Delims) {
    s.push_str(&d.left);
    s.push_str(name);
    s.push(' ');
    write_pipe(s, &b.pipe, d);
    s.push_str(&d.right);
    write_list(s, &b.list, d);
    if let Some(e) = &b.else_list {
        s.push_str(&d.left);
        s.push_str("else");
        s.push_str(&d.right);
        write_list(s, e, d);
    }
    s.push_str(&d.left);
    s.push_str("end");
    s.push_str(&d.right);
}

/// Writes a pipeline as template source.
pub fn write_pipe(s: &mut String, p: &PipeNode, d: &Delims) {
    if !p.decl.is_empty() {
        for (i, v) in p.decl.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            write_variable(s, v);
        }
        s.push_str(if p.is_assign { " = " } else { " := " });
    }
    for (i, c) in p.cmds.iter().enumerate() {
        if i > 0 {
            s.push_str(" | ");
        }
        write_command(s, c, d);
    }
}

fn write_command(s: &mut String, c: &CommandNode, d: &Delims) {
    for (i, a) in c.args.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        if let Arg::Pipe(p) = a {
            s.push('(');
            write_pipe(s, p, d);
            s.push(')');
            continue;
        }
        write_arg(s, a, d);
    }
}

fn write_variable(s: &mut String, v: &VariableNode) {
    for (i, id) in v.ident.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(id);
    }
}

/// Writes an operand as template source.
pub fn write_arg(s: &mut String, a: &Arg, d: &Delims) {
    match a {
        Arg::Field { ident, .. } => {
            for id in ident {
                s.push('.');
                s.push_str(id);
            }
        }
        Arg::Variable(v) => write_variable(s, v),
        Arg::Identifier { name, .. } => s.push_str(name),
        Arg::Dot(_) => s.push('.'),
        Arg::Nil(_) => s.push_str("nil"),
        Arg::Bool(_, b) => s.push_str(if *b { "true" } else { "false" }),
        Arg::Number(n) => s.push_str(&n.text),
        Arg::String { quoted, .. } => s.push_str(quoted),
        Arg::Pipe(p) => write_pipe(s, p, d),
        Arg::Chain { node, field, .. } => {
            if let Arg::Pipe(p) = &**node {
                s.push('(');
                write_pipe(s, p, d);
                s.push(')');
            } else {
                write_arg(s, node, d);
            }
            for f in field {
                s.push('.');
                s.push_str(f);
            }
        }
    }
}

impl fmt::Display for NumberNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
