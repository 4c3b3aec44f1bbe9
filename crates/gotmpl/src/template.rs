//! Templates: parsing a source into a set of named trees, and executing
//! them (Go's `template.go`, `option.go` and the entry points of `exec.go`).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::exec::{Flow, Rv, State};
use crate::funcs::{Builtin, Callable};
use crate::parse::{self, Delims, ListNode};
use crate::value::{FuncType, Function, NativeFn, Value};

/// What a missing map key yields (`missingkey=` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MissingKey {
    /// `missingkey=default` / `invalid`: the invalid value (`<no value>`).
    #[default]
    Invalid,
    /// `missingkey=zero`: the zero value of the map's element type.
    Zero,
    /// `missingkey=error`: an execution error.
    Error,
}

/// Bounds on execution, so that a runaway template cannot hang or exhaust
/// memory. Go has only the depth limit; the others are Promptscope's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nesting of `{{template}}` calls (Go: 100,000; 1,000 on wasm).
    pub max_depth: usize,
    /// Maximum evaluation steps (nodes walked plus range iterations).
    pub max_steps: u64,
    /// Maximum output size in bytes.
    pub max_output: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: if cfg!(target_arch = "wasm32") {
                1000
            } else {
                100_000
            },
            max_steps: 20_000_000,
            max_output: 64 << 20,
        }
    }
}

/// What kind of error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The template did not parse.
    Parse,
    /// Execution failed, as in Go.
    Exec,
    /// Execution hit one of Promptscope's [`Limits`] (Go would keep going).
    Limit,
    /// A bad option or argument from the embedder.
    Usage,
    /// A bug in Promptscope.
    Internal,
}

/// An error from parsing or executing a template. Its `Display` is Go's
/// exact error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of error.
    pub kind: ErrorKind,
    /// Go's message.
    pub message: String,
    /// 1-based line in the template source, when known.
    pub line: Option<usize>,
    /// 0-based byte column, as Go reports it, when known.
    pub column: Option<usize>,
}

impl Error {
    pub(crate) fn internal(msg: &str) -> Error {
        Error {
            kind: ErrorKind::Internal,
            message: msg.to_string(),
            line: None,
            column: None,
        }
    }

    fn usage(msg: String) -> Error {
        Error {
            kind: ErrorKind::Usage,
            message: msg,
            line: None,
            column: None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A failed execution: the error and what had been written before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// The error.
    pub error: Error,
    /// Output written before the error.
    pub partial: String,
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for ExecError {}

/// Functions available to templates, by name.
pub type FuncMap = HashMap<String, Arc<Function>>;

/// The shared, immutable result of a parse.
pub(crate) struct TemplateSet {
    pub trees: HashMap<String, ListNode>,
    pub parse_name: String,
    pub delims: Delims,
    pub funcs: FuncMap,
    pub missing_key: MissingKey,
    pub limits: Limits,
    line_starts: Vec<usize>,
}

impl TemplateSet {
    /// Go's `ErrorContext` location: line and byte column of `pos`.
    pub fn line_col(&self, pos: usize) -> (usize, usize) {
        let line_idx = self.line_starts.partition_point(|&s| s <= pos) - 1;
        let col = if line_idx == 0 {
            pos
        } else {
            pos - self.line_starts[line_idx]
        };
        (line_idx + 1, col)
    }

    pub fn find_function(&self, name: &str) -> Option<Callable> {
        if let Some(f) = self.funcs.get(name) {
            return Some(Callable::Func(f.clone()));
        }
        Builtin::by_name(name).map(Callable::Builtin)
    }
}

/// A template builder: name, delimiters, options and functions, then
/// [`Builder::parse`].
#[derive(Clone, Default)]
pub struct Builder {
    name: String,
    left: String,
    right: String,
    funcs: FuncMap,
    missing_key: MissingKey,
    limits: Limits,
    parse_comments: bool,
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("name", &self.name)
            .field("delims", &(&self.left, &self.right))
            .field("funcs", &self.funcs.keys().collect::<Vec<_>>())
            .field("missing_key", &self.missing_key)
            .field("limits", &self.limits)
            .finish()
    }
}

impl Builder {
    /// Sets the action delimiters (empty strings mean `{{` and `}}`).
    pub fn delims(mut self, left: &str, right: &str) -> Builder {
        self.left = left.to_string();
        self.right = right.to_string();
        self
    }

    /// Sets an option as Go's `Template.Option` does (`missingkey=zero`...).
    pub fn option(mut self, opt: &str) -> Result<Builder, Error> {
        if opt.is_empty() {
            return Err(Error::usage("empty option string".into()));
        }
        if let Some(("missingkey", value)) = opt.split_once('=') {
            self.missing_key = match value {
                "invalid" | "default" => MissingKey::Invalid,
                "zero" => MissingKey::Zero,
                "error" => MissingKey::Error,
                _ => return Err(Error::usage(format!("unrecognized option: {opt}"))),
            };
            return Ok(self);
        }
        Err(Error::usage(format!("unrecognized option: {opt}")))
    }

    /// Adds a function, as Go's `Funcs`.
    pub fn func(mut self, name: &str, sig: FuncType, imp: Arc<NativeFn>) -> Builder {
        let Value::Func(f) = Value::func(name, sig, imp) else {
            unreachable!()
        };
        self.funcs.insert(name.to_string(), f);
        self
    }

    /// Adds a map of functions.
    pub fn funcs(mut self, funcs: &FuncMap) -> Builder {
        for (k, v) in funcs {
            self.funcs.insert(k.clone(), v.clone());
        }
        self
    }

    /// Sets the execution limits.
    pub fn limits(mut self, limits: Limits) -> Builder {
        self.limits = limits;
        self
    }

    /// Keeps comments in the parse tree (Go's `parse.ParseComments`).
    pub fn parse_comments(mut self, yes: bool) -> Builder {
        self.parse_comments = yes;
        self
    }

    /// Parses the template source.
    pub fn parse(self, text: &str) -> Result<Template, Error> {
        let funcs = &self.funcs;
        let is_func = |n: &str| funcs.contains_key(n) || Builtin::by_name(n).is_some();
        let trees = parse::parse(
            &self.name,
            text,
            &self.left,
            &self.right,
            &is_func,
            self.parse_comments,
        )
        .map_err(|e| Error {
            kind: ErrorKind::Parse,
            message: e.message,
            line: Some(e.line),
            column: None,
        })?;
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let set = TemplateSet {
            trees,
            parse_name: self.name.clone(),
            delims: Delims {
                left: if self.left.is_empty() {
                    "{{".into()
                } else {
                    self.left
                },
                right: if self.right.is_empty() {
                    "}}".into()
                } else {
                    self.right
                },
            },
            funcs: self.funcs,
            missing_key: self.missing_key,
            limits: self.limits,
            line_starts,
        };
        Ok(Template {
            name: self.name,
            set: Arc::new(set),
        })
    }
}

/// A parsed template and the templates it defines.
#[derive(Clone)]
pub struct Template {
    name: String,
    set: Arc<TemplateSet>,
}

impl fmt::Debug for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Template")
            .field("name", &self.name)
            .finish()
    }
}

impl Template {
    /// Starts a template named `name` (Go's `template.New`).
    #[allow(clippy::new_ret_no_self)]
    pub fn new(name: &str) -> Builder {
        Builder {
            name: name.to_string(),
            ..Builder::default()
        }
    }

    /// Parses `text` as a template named `name` with default options.
    pub fn parse(name: &str, text: &str) -> Result<Template, Error> {
        Template::new(name).parse(text)
    }

    /// The template's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Names of every template in the set, sorted.
    pub fn template_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.set.trees.keys().cloned().collect();
        v.sort();
        v
    }

    /// The parse tree of this template (its root list), if it has one.
    pub fn root(&self) -> Option<&ListNode> {
        self.set.trees.get(&self.name)
    }

    /// Every tree in the set (this template and the ones it defines), by
    /// name, sorted by name.
    pub fn trees(&self) -> Vec<(&str, &ListNode)> {
        let mut v: Vec<(&str, &ListNode)> = self
            .set
            .trees
            .iter()
            .map(|(k, v)| (k.as_str(), v))
            .collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }

    /// A copy of this template set whose main tree is `root` (the other
    /// trees, functions and options are kept).
    pub fn with_root(&self, root: ListNode) -> Template {
        let mut trees = self.set.trees.clone();
        trees.insert(self.name.clone(), root);
        self.with_set(trees, self.set.funcs.clone(), self.set.missing_key)
    }

    /// A new template holding only `root`: no other trees, no functions,
    /// default options, as Go's `template.New(name)` given a parse tree.
    pub fn standalone(&self, root: ListNode) -> Template {
        let mut trees = HashMap::new();
        trees.insert(self.name.clone(), root);
        self.with_set(trees, FuncMap::new(), MissingKey::default())
    }

    fn with_set(
        &self,
        trees: HashMap<String, ListNode>,
        funcs: FuncMap,
        missing_key: MissingKey,
    ) -> Template {
        let set = TemplateSet {
            trees,
            parse_name: self.set.parse_name.clone(),
            delims: self.set.delims.clone(),
            funcs,
            missing_key,
            limits: self.set.limits,
            line_starts: self.set.line_starts.clone(),
        };
        Template {
            name: self.name.clone(),
            set: Arc::new(set),
        }
    }

    /// The template named `name` in this set, if any (Go's `Lookup`).
    pub fn lookup(&self, name: &str) -> Option<Template> {
        self.set.trees.contains_key(name).then(|| Template {
            name: name.to_string(),
            set: self.set.clone(),
        })
    }

    /// Executes the template on `data`.
    pub fn execute(&self, data: &Value) -> Result<String, ExecError> {
        let dot = match data {
            Value::Nil => Rv::invalid(),
            v => Rv::new(v.clone()),
        };
        let mut state = State::new(&self.set, &self.name, dot.clone());
        let Some(root) = self.set.trees.get(&self.name) else {
            let flow = state.error(format!(
                "{} is an incomplete or empty template",
                crate::strconv::quote(&self.name)
            ));
            return Err(to_exec_error(flow, String::new()));
        };
        match state.walk_list(&dot, root) {
            Ok(()) => Ok(state.out),
            Err(flow) => Err(to_exec_error(flow, state.out)),
        }
    }

    /// Executes the template named `name` of this set (Go's `ExecuteTemplate`).
    pub fn execute_template(&self, name: &str, data: &Value) -> Result<String, ExecError> {
        match self.lookup(name) {
            Some(t) => t.execute(data),
            None => Err(ExecError {
                error: Error {
                    kind: ErrorKind::Exec,
                    message: format!(
                        "template: no template {} associated with template {}",
                        crate::strconv::quote(name),
                        crate::strconv::quote(&self.name)
                    ),
                    line: None,
                    column: None,
                },
                partial: String::new(),
            }),
        }
    }
}

fn to_exec_error(flow: Flow, partial: String) -> ExecError {
    let error = match flow {
        Flow::Error(e) => *e,
        // break/continue outside range cannot parse; treat as internal.
        Flow::Break | Flow::Continue => Error::internal("break or continue outside range"),
    };
    ExecError { error, partial }
}
