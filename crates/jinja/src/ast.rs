//! The AST of `common/jinja/runtime.h` (`statement` and its subclasses).

use std::rc::Rc;

use crate::lexer::Token;

/// `statement_ptr` (shared, so macros can keep their body).
pub type StmtPtr = Rc<Stmt>;

/// `statement`: a node with its byte position in the source.
#[derive(Debug)]
pub struct Stmt {
    /// Position in the (normalized) source.
    pub pos: usize,
    /// What the node is.
    pub kind: StmtKind,
}

/// The node types of `runtime.h`.
#[derive(Debug)]
#[allow(missing_docs)]
pub enum StmtKind {
    If {
        test: StmtPtr,
        body: Vec<StmtPtr>,
        alternate: Vec<StmtPtr>,
    },
    For {
        loopvar: StmtPtr,
        iterable: StmtPtr,
        body: Vec<StmtPtr>,
        default_block: Vec<StmtPtr>,
    },
    Break,
    Continue,
    Noop,
    Set {
        assignee: StmtPtr,
        val: Option<StmtPtr>,
        body: Vec<StmtPtr>,
    },
    Macro {
        name: StmtPtr,
        args: Vec<StmtPtr>,
        body: Vec<StmtPtr>,
    },
    Comment(Vec<u8>),
    Blank,
    Member {
        object: StmtPtr,
        property: StmtPtr,
        computed: bool,
    },
    Call {
        callee: StmtPtr,
        args: Vec<StmtPtr>,
    },
    Identifier(String),
    IntegerLiteral(i64),
    FloatLiteral(f64),
    StringLiteral(Vec<u8>),
    ArrayLiteral(Vec<StmtPtr>),
    TupleLiteral(Vec<StmtPtr>),
    ObjectLiteral(Vec<(StmtPtr, StmtPtr)>),
    Binary {
        op: Token,
        left: StmtPtr,
        right: StmtPtr,
    },
    Filter {
        operand: StmtPtr,
        filter: StmtPtr,
    },
    FilterStatement {
        filter: StmtPtr,
        body: Vec<StmtPtr>,
    },
    Select {
        lhs: StmtPtr,
        test: StmtPtr,
    },
    Test {
        operand: StmtPtr,
        negate: bool,
        test: StmtPtr,
    },
    Unary {
        op: Token,
        argument: StmtPtr,
    },
    Slice {
        start: Option<StmtPtr>,
        stop: Option<StmtPtr>,
        step: Option<StmtPtr>,
    },
    KeywordArgument {
        key: StmtPtr,
        val: StmtPtr,
    },
    Spread {
        argument: StmtPtr,
    },
    CallStatement {
        call: StmtPtr,
        caller_args: Vec<StmtPtr>,
        body: Vec<StmtPtr>,
    },
    Ternary {
        condition: StmtPtr,
        true_expr: StmtPtr,
        false_expr: StmtPtr,
    },
    /// Jinja2 dialect only: `{{ expr }}`, whose value is written as
    /// Python's `str()` gives it.
    Output(StmtPtr),
}

impl Stmt {
    /// `statement::type()`, as the error messages print it.
    pub fn type_name(&self) -> &'static str {
        use StmtKind::*;
        match &self.kind {
            If { .. } => "If",
            For { .. } => "For",
            Break => "Break",
            Continue => "Continue",
            Noop => "Noop",
            Set { .. } => "Set",
            Macro { .. } => "Macro",
            Comment(_) => "Comment",
            Blank => "BlankExpression",
            Member { .. } => "MemberExpression",
            Call { .. } => "CallExpression",
            Identifier(_) => "Identifier",
            IntegerLiteral(_) => "IntegerLiteral",
            FloatLiteral(_) => "FloatLiteral",
            StringLiteral(_) => "StringLiteral",
            ArrayLiteral(_) => "ArrayLiteral",
            TupleLiteral(_) => "TupleLiteral",
            ObjectLiteral(_) => "ObjectLiteral",
            Binary { .. } => "BinaryExpression",
            Filter { .. } => "FilterExpression",
            FilterStatement { .. } => "FilterStatement",
            Select { .. } => "SelectExpression",
            Test { .. } => "TestExpression",
            Unary { .. } => "UnaryExpression",
            Slice { .. } => "SliceExpression",
            KeywordArgument { .. } => "KeywordArgumentExpression",
            Spread { .. } => "SpreadExpression",
            CallStatement { .. } => "CallStatement",
            Ternary { .. } => "Ternary",
            Output(_) => "Output",
        }
    }

    /// The name when this is an `identifier`.
    pub fn as_identifier(&self) -> Option<&str> {
        match &self.kind {
            StmtKind::Identifier(s) => Some(s),
            _ => None,
        }
    }
}

/// `program`: the top-level statements.
#[derive(Debug, Default)]
pub struct Program {
    /// The statements.
    pub body: Vec<StmtPtr>,
}
