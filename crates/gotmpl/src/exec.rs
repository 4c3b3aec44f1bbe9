//! Execution, a port of Go's `text/template/exec.go`.
//!
//! Go works on `reflect.Value`s, whose kind can be `Interface` when a value
//! was read from an `interface{}` slot (a JSON map or array element). Error
//! messages show that (`can't evaluate field x in type interface {}`), so
//! the evaluator carries the flag alongside the value: [`Rv`].

use std::sync::Arc;

use crate::funcs::{self, Builtin, Callable};
use crate::gofmt;
use crate::parse::{
    AnyNode, Arg, BranchNode, CommandNode, ListNode, Node, NumberNode, PipeNode, TemplateNode,
};
use crate::template::{MissingKey, TemplateSet};
use crate::value::{ComplexType, FloatType, FuncType, IntType, Kind, Type, Value};
use crate::{Error, ErrorKind};

/// A value as the evaluator sees it: the value, and whether Go would hold
/// it in a `reflect.Value` of kind `Interface` (read from an `interface{}`
/// slot). `Value::Nil` only occurs with `iface` set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rv {
    pub v: Value,
    pub iface: bool,
}

impl Rv {
    pub fn new(v: Value) -> Rv {
        Rv { v, iface: false }
    }

    /// A value read from a slot of static type `slot`.
    pub fn from_slot(v: Value, slot: &Type) -> Rv {
        let iface = matches!(slot, Type::Interface | Type::Error);
        if !iface && matches!(v, Value::Nil) {
            return Rv::new(Value::Invalid);
        }
        Rv { v, iface }
    }

    pub fn invalid() -> Rv {
        Rv::new(Value::Invalid)
    }

    pub fn is_valid(&self) -> bool {
        self.iface || self.v.is_valid()
    }

    /// `reflect.Value.Kind()`.
    pub fn kind(&self) -> Kind {
        if self.iface {
            Kind::Interface
        } else {
            self.v.kind()
        }
    }

    /// `reflect.Value.Type()`, printed.
    pub fn type_name(&self) -> String {
        if self.iface {
            return "interface {}".to_string();
        }
        match self.v.type_of() {
            Some(t) => t.to_string(),
            None => "<nil>".to_string(),
        }
    }

    /// `indirectInterface`: the concrete value inside an interface.
    pub fn indirect_interface(self) -> Rv {
        if self.iface {
            if matches!(self.v, Value::Nil) {
                return Rv::invalid();
            }
            return Rv::new(self.v);
        }
        self
    }
}

/// `indirect`: follows pointers and interfaces; the flag says whether it
/// stopped at a nil one.
pub(crate) fn indirect(mut v: Rv) -> (Rv, bool) {
    loop {
        if v.iface {
            if matches!(v.v, Value::Nil) {
                return (v, true);
            }
            v.iface = false;
            continue;
        }
        match &v.v {
            Value::Pointer(p) => match &p.target {
                None => return (v, true),
                Some(t) => {
                    let elem = match &p.ty {
                        Type::Pointer(e) => (**e).clone(),
                        _ => Type::Interface,
                    };
                    v = Rv::from_slot(t.clone(), &elem);
                }
            },
            _ => return (v, false),
        }
    }
}

/// Control flow out of a walk: an error, or `break`/`continue`.
pub(crate) enum Flow {
    Error(Box<Error>),
    Break,
    Continue,
}

type R<T> = Result<T, Flow>;

/// The execution state of one `Execute`.
pub(crate) struct State<'t> {
    pub set: &'t TemplateSet,
    /// Name of the template being executed (for messages).
    pub tmpl_name: String,
    pub out: String,
    pub node: Option<AnyNode<'t>>,
    pub vars: Vec<(String, Rv)>,
    pub depth: usize,
    pub steps: u64,
}

/// Template depth at which execution continues on a fresh thread with a
/// large stack (native only), so Go's depth limit of 100,000 is reachable.
#[cfg(not(target_arch = "wasm32"))]
const DEPTH_PER_STACK: usize = 200;

impl<'t> State<'t> {
    pub fn new(set: &'t TemplateSet, name: &str, dot: Rv) -> State<'t> {
        State {
            set,
            tmpl_name: name.to_string(),
            out: String::with_capacity(4096),
            node: None,
            vars: vec![("$".to_string(), dot)],
            depth: 0,
            steps: 0,
        }
    }

    fn at(&mut self, n: AnyNode<'t>) {
        self.node = Some(n);
    }

    /// An execution error with Go's exact prefix.
    pub fn error(&self, msg: impl Into<String>) -> Flow {
        self.error_kind(ErrorKind::Exec, msg)
    }

    fn error_kind(&self, kind: ErrorKind, msg: impl Into<String>) -> Flow {
        let msg = msg.into();
        let (message, line, col) = match &self.node {
            None => (format!("template: {}: {}", self.tmpl_name, msg), None, None),
            Some(n) => {
                let (line, col) = self.set.line_col(n.pos());
                let context = n.source(&self.set.delims);
                (
                    format!(
                        "template: {}:{}:{}: executing {} at <{}>: {}",
                        self.set.parse_name,
                        line,
                        col,
                        crate::strconv::quote(&self.tmpl_name),
                        context,
                        msg
                    ),
                    Some(line),
                    Some(col),
                )
            }
        };
        Flow::Error(Box::new(Error {
            kind,
            message,
            line,
            column: col,
        }))
    }

    fn step(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > self.set.limits.max_steps {
            return Err(self.error_kind(
                ErrorKind::Limit,
                format!(
                    "execution stopped after {} steps (Promptscope's limit for runaway templates)",
                    self.set.limits.max_steps
                ),
            ));
        }
        Ok(())
    }

    fn write(&mut self, s: &str) -> R<()> {
        if self.out.len() + s.len() > self.set.limits.max_output {
            return Err(self.error_kind(
                ErrorKind::Limit,
                format!(
                    "output exceeds {} bytes (Promptscope's limit for runaway templates)",
                    self.set.limits.max_output
                ),
            ));
        }
        self.out.push_str(s);
        Ok(())
    }

    fn mark(&self) -> usize {
        self.vars.len()
    }

    fn pop(&mut self, mark: usize) {
        self.vars.truncate(mark);
    }

    fn set_var(&mut self, name: &str, value: Rv) -> R<()> {
        for v in self.vars.iter_mut().rev() {
            if v.0 == name {
                v.1 = value;
                return Ok(());
            }
        }
        Err(self.error(format!("undefined variable: {name}")))
    }

    fn set_top_var(&mut self, n: usize, value: Rv) {
        let len = self.vars.len();
        self.vars[len - n].1 = value;
    }

    fn var_value(&self, name: &str) -> R<Rv> {
        for v in self.vars.iter().rev() {
            if v.0 == name {
                return Ok(v.1.clone());
            }
        }
        Err(self.error(format!("undefined variable: {name}")))
    }

    // ---- walk ----

    pub fn walk_list(&mut self, dot: &Rv, list: &'t ListNode) -> R<()> {
        self.at(AnyNode::List(list));
        for n in &list.nodes {
            self.walk(dot, n)?;
        }
        Ok(())
    }

    fn walk(&mut self, dot: &Rv, node: &'t Node) -> R<()> {
        self.at(AnyNode::Node(node));
        self.step()?;
        match node {
            Node::Action(a) => {
                let val = self.eval_pipeline(dot, &a.pipe)?;
                if a.pipe.decl.is_empty() {
                    self.print_value(AnyNode::Node(node), val)?;
                }
                Ok(())
            }
            Node::Break { .. } => Err(Flow::Break),
            Node::Continue { .. } => Err(Flow::Continue),
            Node::Comment { .. } => Ok(()),
            Node::If(b) => self.walk_if_or_with(false, dot, b),
            Node::With(b) => self.walk_if_or_with(true, dot, b),
            Node::Range(b) => self.walk_range(dot, node, b),
            Node::Template(t) => self.walk_template(dot, node, t),
            Node::Text(t) => self.write(&t.text),
        }
    }

    fn walk_if_or_with(&mut self, is_with: bool, dot: &Rv, b: &'t BranchNode) -> R<()> {
        let mark = self.mark();
        let r = self.walk_if_or_with_inner(is_with, dot, b);
        self.pop(mark);
        r
    }

    fn walk_if_or_with_inner(&mut self, is_with: bool, dot: &Rv, b: &'t BranchNode) -> R<()> {
        let val = self.eval_pipeline(dot, &b.pipe)?;
        let Some(truth) = is_true(&val.clone().indirect_interface()) else {
            return Err(self.error(format!("if/with can't use {}", sprint_v(&val))));
        };
        if truth {
            if is_with {
                self.walk_list(&val, &b.list)
            } else {
                self.walk_list(dot, &b.list)
            }
        } else if let Some(e) = &b.else_list {
            self.walk_list(dot, e)
        } else {
            Ok(())
        }
    }

    fn walk_range(&mut self, dot: &Rv, node: &'t Node, r: &'t BranchNode) -> R<()> {
        self.at(AnyNode::Node(node));
        let outer_mark = self.mark();
        let result = self.walk_range_inner(dot, r);
        self.pop(outer_mark);
        match result {
            Err(Flow::Break) => Ok(()),
            other => other,
        }
    }

    fn one_iteration(&mut self, r: &'t BranchNode, mark: usize, index: Rv, elem: Rv) -> R<()> {
        self.step()?;
        let decl = &r.pipe.decl;
        if !decl.is_empty() {
            if r.pipe.is_assign {
                if decl.len() > 1 {
                    self.set_var(&decl[0].ident[0], index.clone())?;
                } else {
                    self.set_var(&decl[0].ident[0], elem.clone())?;
                }
            } else {
                self.set_top_var(1, elem.clone());
            }
        }
        if decl.len() > 1 {
            if r.pipe.is_assign {
                self.set_var(&decl[1].ident[0], elem.clone())?;
            } else {
                self.set_top_var(2, index);
            }
        }
        let res = self.walk_list(&elem, &r.list);
        self.pop(mark);
        match res {
            Err(Flow::Continue) => Ok(()),
            other => other,
        }
    }

    fn walk_range_inner(&mut self, dot: &Rv, r: &'t BranchNode) -> R<()> {
        let (val, _) = indirect(self.eval_pipeline(dot, &r.pipe)?);
        let mark = self.mark();
        let decl_len = r.pipe.decl.len();
        match val.v.underlying() {
            Value::Int(n, t) if !val.iface => {
                if decl_len > 1 {
                    return Err(self.error(format!(
                        "can't use {} to iterate over more than one variable",
                        sprint_v(&val)
                    )));
                }
                let (n, t) = (*n, *t);
                if n > 0 {
                    for i in 0..n {
                        self.one_iteration(r, mark, Rv::invalid(), Rv::new(Value::Int(i, t)))?;
                    }
                    return Ok(());
                }
            }
            Value::Uint(n, t) if !val.iface => {
                if decl_len > 1 {
                    return Err(self.error(format!(
                        "can't use {} to iterate over more than one variable",
                        sprint_v(&val)
                    )));
                }
                let (n, t) = (*n, *t);
                if n > 0 {
                    for i in 0..n {
                        self.one_iteration(r, mark, Rv::invalid(), Rv::new(Value::Uint(i, t)))?;
                    }
                    return Ok(());
                }
            }
            Value::Slice(s) if !val.iface => {
                if s.len > 0 {
                    let s = s.clone();
                    let elem_ty = s.elem_type();
                    for (i, item) in s.items().iter().enumerate() {
                        self.one_iteration(
                            r,
                            mark,
                            Rv::new(Value::int(i as i64)),
                            Rv::from_slot(item.clone(), &elem_ty),
                        )?;
                    }
                    return Ok(());
                }
            }
            Value::Map(m) if !val.iface => {
                if !m.entries.is_empty() {
                    let m = m.clone();
                    let (kt, et) = (m.key_type(), m.elem_type());
                    for (k, v) in &m.entries {
                        self.one_iteration(
                            r,
                            mark,
                            Rv::from_slot(k.clone(), &kt),
                            Rv::from_slot(v.clone(), &et),
                        )?;
                    }
                    return Ok(());
                }
            }
            Value::Invalid => {}
            _ => {
                return Err(self.error(format!("range can't iterate over {}", sprint_v(&val))));
            }
        }
        if let Some(e) = &r.else_list {
            self.walk_list(dot, e)?;
        }
        Ok(())
    }

    fn walk_template(&mut self, dot: &Rv, node: &'t Node, t: &'t TemplateNode) -> R<()> {
        self.at(AnyNode::Node(node));
        let Some(tree) = self.set.trees.get(&t.name) else {
            return Err(self.error(format!(
                "template {} not defined",
                crate::strconv::quote(&t.name)
            )));
        };
        if self.depth == self.set.limits.max_depth {
            return Err(self.error(format!(
                "exceeded maximum template depth ({})",
                self.set.limits.max_depth
            )));
        }
        let new_dot = match &t.pipe {
            Some(p) => self.eval_pipeline(dot, p)?,
            None => Rv::invalid(),
        };
        let saved_vars =
            std::mem::replace(&mut self.vars, vec![("$".to_string(), new_dot.clone())]);
        let saved_name = std::mem::replace(&mut self.tmpl_name, t.name.clone());
        self.depth += 1;
        let r = self.walk_tree(&new_dot, tree);
        self.depth -= 1;
        self.tmpl_name = saved_name;
        self.vars = saved_vars;
        r
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn walk_tree(&mut self, dot: &Rv, tree: &'t ListNode) -> R<()> {
        if self.depth.is_multiple_of(DEPTH_PER_STACK) {
            // Continue on a fresh stack: recursion is legal up to Go's limit.
            let mut result = None;
            std::thread::scope(|scope| {
                let spawned = std::thread::Builder::new()
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, || self.walk_list(dot, tree));
                if let Ok(handle) = spawned {
                    result = Some(handle.join());
                }
            });
            match result {
                Some(Ok(r)) => return r,
                Some(Err(_)) => {
                    return Err(Flow::Error(Box::new(Error::internal(
                        "execution thread panicked",
                    ))))
                }
                None => {} // could not spawn: carry on here
            }
        }
        self.walk_list(dot, tree)
    }

    #[cfg(target_arch = "wasm32")]
    fn walk_tree(&mut self, dot: &Rv, tree: &'t ListNode) -> R<()> {
        self.walk_list(dot, tree)
    }

    // ---- eval ----

    fn eval_pipeline(&mut self, dot: &Rv, pipe: &'t PipeNode) -> R<Rv> {
        self.at(AnyNode::Pipe(pipe));
        let mut value: Option<Rv> = None;
        for cmd in &pipe.cmds {
            let v = self.eval_command(dot, cmd, value.take())?;
            // An interface{} is dug into, one level.
            value = Some(v.indirect_interface());
        }
        let value = value.unwrap_or_default();
        for var in &pipe.decl {
            if pipe.is_assign {
                self.set_var(&var.ident[0], value.clone())?;
            } else {
                self.vars.push((var.ident[0].clone(), value.clone()));
            }
        }
        Ok(value)
    }

    fn not_a_function(&self, args: &'t [Arg], final_: &Option<Rv>) -> R<()> {
        if args.len() > 1 || final_.is_some() {
            return Err(self.error(format!(
                "can't give argument to non-function {}",
                AnyNode::Arg(&args[0]).source(&self.set.delims)
            )));
        }
        Ok(())
    }

    fn eval_command(&mut self, dot: &Rv, cmd: &'t CommandNode, final_: Option<Rv>) -> R<Rv> {
        let first = &cmd.args[0];
        match first {
            Arg::Field { ident, .. } => {
                return self.eval_field_node(dot, first, ident, Some(&cmd.args), final_)
            }
            Arg::Chain { node, field, .. } => {
                return self.eval_chain_node(dot, first, node, field, Some(&cmd.args), final_)
            }
            Arg::Identifier { name, .. } => {
                return self.eval_function(
                    dot,
                    first,
                    name,
                    AnyNode::Command(cmd),
                    Some(&cmd.args),
                    final_,
                )
            }
            Arg::Pipe(p) => {
                self.not_a_function(&cmd.args, &final_)?;
                return self.eval_pipeline(dot, p);
            }
            Arg::Variable(v) => {
                return self.eval_variable_node(dot, first, &v.ident, Some(&cmd.args), final_)
            }
            _ => {}
        }
        self.at(AnyNode::Arg(first));
        self.not_a_function(&cmd.args, &final_)?;
        match first {
            Arg::Bool(_, b) => Ok(Rv::new(Value::Bool(*b))),
            Arg::Dot(_) => Ok(dot.clone()),
            Arg::Nil(_) => Err(self.error("nil is not a command")),
            Arg::Number(n) => self.ideal_constant(first, n),
            Arg::String { text, .. } => Ok(Rv::new(Value::string(text.as_str()))),
            _ => Err(self.error(format!(
                "can't evaluate command {}",
                crate::strconv::quote(&AnyNode::Arg(first).source(&self.set.delims))
            ))),
        }
    }

    fn ideal_constant(&mut self, node: &'t Arg, c: &NumberNode) -> R<Rv> {
        self.at(AnyNode::Arg(node));
        let text = &c.text;
        let is_hex_int = text.len() > 2
            && text.as_bytes()[0] == b'0'
            && matches!(text.as_bytes()[1], b'x' | b'X')
            && !text.contains(['p', 'P']);
        let is_rune = text.starts_with('\'');
        if c.is_complex {
            return Ok(Rv::new(Value::Complex(
                c.complex128.0,
                c.complex128.1,
                ComplexType::C128,
            )));
        }
        if c.is_float && !is_hex_int && !is_rune && text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Ok(Rv::new(Value::Float(c.float64, FloatType::F64)));
        }
        if c.is_int {
            return Ok(Rv::new(Value::Int(c.int64, IntType::Int)));
        }
        if c.is_uint {
            return Err(self.error(format!("{text} overflows int")));
        }
        Ok(Rv::invalid())
    }

    fn eval_field_node(
        &mut self,
        dot: &Rv,
        node: &'t Arg,
        ident: &'t [String],
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
    ) -> R<Rv> {
        self.at(AnyNode::Arg(node));
        self.eval_field_chain(dot, dot.clone(), node, ident, args, final_)
    }

    fn eval_chain_node(
        &mut self,
        dot: &Rv,
        node: &'t Arg,
        inner: &'t Arg,
        field: &'t [String],
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
    ) -> R<Rv> {
        self.at(AnyNode::Arg(node));
        if field.is_empty() {
            return Err(self.error("internal error: no fields in evalChainNode"));
        }
        if let Arg::Nil(_) = inner {
            return Err(self.error(format!(
                "indirection through explicit nil in {}",
                AnyNode::Arg(node).source(&self.set.delims)
            )));
        }
        let pipe = self.eval_arg(dot, None, inner)?;
        self.eval_field_chain(dot, pipe, node, field, args, final_)
    }

    fn eval_variable_node(
        &mut self,
        dot: &Rv,
        node: &'t Arg,
        ident: &'t [String],
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
    ) -> R<Rv> {
        self.at(AnyNode::Arg(node));
        let value = self.var_value(&ident[0])?;
        if ident.len() == 1 {
            if let Some(a) = args {
                self.not_a_function(a, &final_)?;
            } else if final_.is_some() {
                return Err(self.error(format!(
                    "can't give argument to non-function {}",
                    AnyNode::Arg(node).source(&self.set.delims)
                )));
            }
            return Ok(value);
        }
        self.eval_field_chain(dot, value, node, &ident[1..], args, final_)
    }

    fn eval_field_chain(
        &mut self,
        dot: &Rv,
        mut receiver: Rv,
        node: &'t Arg,
        ident: &'t [String],
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
    ) -> R<Rv> {
        let n = ident.len();
        for name in &ident[..n - 1] {
            receiver = self.eval_field(dot, name, node, None, None, receiver)?;
        }
        self.eval_field(dot, &ident[n - 1], node, args, final_, receiver)
    }

    fn eval_function(
        &mut self,
        dot: &Rv,
        node: &'t Arg,
        name: &str,
        cmd: AnyNode<'t>,
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
    ) -> R<Rv> {
        self.at(AnyNode::Arg(node));
        let Some(function) = self.set.find_function(name) else {
            return Err(self.error(format!(
                "{} is not a defined function",
                crate::strconv::quote(name)
            )));
        };
        self.eval_call(dot, function, cmd, name, args, final_)
    }

    fn eval_field(
        &mut self,
        dot: &Rv,
        field_name: &str,
        node: &'t Arg,
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
        receiver: Rv,
    ) -> R<Rv> {
        if !receiver.is_valid() {
            if self.set.missing_key == MissingKey::Error {
                return Err(self.error(format!(
                    "nil data; no entry for key {}",
                    crate::strconv::quote(field_name)
                )));
            }
            return Ok(Rv::invalid());
        }
        // Go names the receiver's type before indirection in its messages.
        let from_pointer = matches!(receiver.v, Value::Pointer(_));
        let original = (receiver.iface || from_pointer).then(|| receiver.clone());
        let (receiver, is_nil) = indirect(receiver);
        let typ = || original.as_ref().unwrap_or(&receiver).type_name();
        if receiver.kind() == Kind::Interface && is_nil {
            return Err(self.error(format!("nil pointer evaluating {}.{field_name}", typ())));
        }
        if let Some(m) = receiver.v.method(field_name) {
            if !m.pointer_receiver || from_pointer {
                let callable = Callable::Method(receiver.v.clone(), m.clone());
                return self.eval_call(dot, callable, AnyNode::Arg(node), field_name, args, final_);
            }
        }
        let has_args = args.is_some_and(|a| a.len() > 1) || final_.is_some();
        match receiver.v.underlying() {
            Value::Struct(s) if !receiver.iface => {
                if let Some(i) = s.ty.fields.iter().position(|f| f.name == field_name) {
                    let fd = &s.ty.fields[i];
                    if !fd.is_exported() {
                        return Err(self.error(format!(
                            "{field_name} is an unexported field of struct type {}",
                            typ()
                        )));
                    }
                    if has_args {
                        return Err(self.error(format!(
                            "{field_name} has arguments but cannot be invoked as function"
                        )));
                    }
                    return Ok(Rv::from_slot(s.fields[i].clone(), &fd.ty));
                }
            }
            Value::Map(m) if !receiver.iface => {
                let kt = m.key_type();
                if matches!(kt.underlying(), Type::String | Type::Interface) {
                    if has_args {
                        return Err(
                            self.error(format!("{field_name} is not a method but has arguments"))
                        );
                    }
                    let et = m.elem_type();
                    return match m.get_str(field_name) {
                        Some(v) => Ok(Rv::from_slot(v.clone(), &et)),
                        None => match self.set.missing_key {
                            MissingKey::Invalid => Ok(Rv::invalid()),
                            MissingKey::Zero => Ok(Rv::from_slot(et.zero(), &et)),
                            MissingKey::Error => Err(self.error(format!(
                                "map has no entry for key {}",
                                crate::strconv::quote(field_name)
                            ))),
                        },
                    };
                }
            }
            Value::Pointer(p) if !receiver.iface => {
                let mut has_field = true;
                if let Type::Pointer(e) = &p.ty {
                    if let Type::Struct(st) = &**e {
                        has_field = st.fields.iter().any(|f| f.name == field_name);
                    }
                }
                if has_field && is_nil {
                    return Err(
                        self.error(format!("nil pointer evaluating {}.{field_name}", typ()))
                    );
                }
            }
            _ => {}
        }
        Err(self.error(format!(
            "can't evaluate field {field_name} in type {}",
            typ()
        )))
    }

    pub(crate) fn eval_call(
        &mut self,
        dot: &Rv,
        fun: Callable,
        node: AnyNode<'t>,
        name: &str,
        args: Option<&'t [Arg]>,
        final_: Option<Rv>,
    ) -> R<Rv> {
        let args: &'t [Arg] = match args {
            Some(a) => &a[1..],
            None => &[],
        };
        let sig = fun.sig();
        let num_params = sig.params.len();
        let num_in = args.len() + usize::from(final_.is_some());
        let mut num_fixed = args.len();
        if sig.variadic {
            num_fixed = num_params - 1;
            if num_in < num_fixed {
                return Err(self.error(format!(
                    "wrong number of args for {name}: want at least {} got {}",
                    num_params - 1,
                    args.len()
                )));
            }
        } else if num_in != num_params {
            return Err(self.error(format!(
                "wrong number of args for {name}: want {num_params} got {num_in}"
            )));
        }
        if let Err(e) = funcs::good_func(name, &sig) {
            return Err(self.error(e));
        }

        if let Callable::Builtin(b @ (Builtin::And | Builtin::Or)) = fun {
            let is_or = b == Builtin::Or;
            let mut v = Rv::invalid();
            for arg in args {
                v = self.eval_arg(dot, Some(&Type::ReflectValue), arg)?;
                if funcs::truth(&v) == is_or {
                    return Ok(v);
                }
            }
            if let Some(f) = final_ {
                v = self.validate_type(f, Some(&Type::ReflectValue))?;
            }
            return Ok(v);
        }

        let mut argv: Vec<Rv> = Vec::with_capacity(num_in);
        let mut i = 0;
        while i < num_fixed && i < args.len() {
            argv.push(self.eval_arg(dot, Some(&sig.params[i]), &args[i])?);
            i += 1;
        }
        if sig.variadic {
            let elem = match &sig.params[num_params - 1] {
                Type::Slice(e) => (**e).clone(),
                t => t.clone(),
            };
            while i < args.len() {
                argv.push(self.eval_arg(dot, Some(&elem), &args[i])?);
                i += 1;
            }
        }
        if let Some(f) = final_ {
            let mut t = sig.params[num_params - 1].clone();
            if sig.variadic {
                if num_in - 1 < num_fixed {
                    t = sig.params[num_in - 1].clone();
                } else if let Type::Slice(e) = &t {
                    t = (**e).clone();
                }
            }
            argv.push(self.validate_type(f, Some(&t))?);
        }

        let result = if let Callable::Builtin(Builtin::Call) = fun {
            let callee_name = match args.first() {
                Some(a) => AnyNode::Arg(a).source(&self.set.delims),
                None => match argv.first() {
                    Some(v) => reflect_string(v),
                    None => String::new(),
                },
            };
            funcs::call(&callee_name, argv)
        } else {
            fun.invoke(argv)
        };
        match result {
            Ok(v) => Ok(v),
            Err(e) => {
                self.at(node);
                Err(self.error(format!("error calling {name}: {e}")))
            }
        }
    }

    /// `validateType`; `typ` of `None` means an untyped nil interface.
    fn validate_type(&self, value: Rv, typ: Option<&Type>) -> R<Rv> {
        let Some(typ) = typ else {
            if !value.is_valid() {
                return Ok(Rv::invalid());
            }
            return Ok(value);
        };
        if !value.is_valid() {
            if typ.can_be_nil() {
                return Ok(Rv::from_slot(typ.zero(), typ));
            }
            return Err(self.error(format!("invalid value; expected {typ}")));
        }
        if *typ == Type::ReflectValue {
            return Ok(value);
        }
        if !assignable(&value, typ) {
            let mut value = value;
            if value.iface && !matches!(value.v, Value::Nil) {
                value.iface = false;
                if assignable(&value, typ) {
                    return Ok(value);
                }
            }
            if let Value::Pointer(p) = &value.v {
                if let Type::Pointer(e) = &p.ty {
                    if e.assignable_to(typ) {
                        return match &p.target {
                            Some(t) => Ok(Rv::from_slot(t.clone(), e)),
                            None => {
                                Err(self.error(format!("dereference of nil pointer of type {typ}")))
                            }
                        };
                    }
                }
            }
            return Err(self.error(format!(
                "wrong type for value; expected {typ}; got {}",
                value.type_name()
            )));
        }
        Ok(value)
    }

    fn eval_arg(&mut self, dot: &Rv, typ: Option<&Type>, n: &'t Arg) -> R<Rv> {
        self.at(AnyNode::Arg(n));
        match n {
            Arg::Dot(_) => return self.validate_type(dot.clone(), typ),
            Arg::Nil(_) => {
                return match typ {
                    Some(t) if t.can_be_nil() => Ok(Rv::from_slot(t.zero(), t)),
                    Some(t) => Err(self.error(format!("cannot assign nil to {t}"))),
                    None => Err(self.error("cannot assign nil to <nil>")),
                };
            }
            Arg::Field { ident, .. } => {
                let v = self.eval_field_node(dot, n, ident, Some(std::slice::from_ref(n)), None)?;
                return self.validate_type(v, typ);
            }
            Arg::Variable(v) => {
                let v = self.eval_variable_node(dot, n, &v.ident, None, None)?;
                return self.validate_type(v, typ);
            }
            Arg::Pipe(p) => {
                let v = self.eval_pipeline(dot, p)?;
                return self.validate_type(v, typ);
            }
            Arg::Identifier { name, .. } => {
                let v = self.eval_function(dot, n, name, AnyNode::Arg(n), None, None)?;
                return self.validate_type(v, typ);
            }
            Arg::Chain { node, field, .. } => {
                let v = self.eval_chain_node(dot, n, node, field, None, None)?;
                return self.validate_type(v, typ);
            }
            _ => {}
        }
        let Some(typ) = typ else {
            return self.eval_empty_interface(dot, n);
        };
        let src = || AnyNode::Arg(n).source(&self.set.delims);
        match typ.underlying() {
            Type::Bool => match n {
                Arg::Bool(_, b) => Ok(Rv::new(convert_literal(Value::Bool(*b), typ))),
                _ => Err(self.error(format!("expected bool; found {}", src()))),
            },
            Type::Complex(_) => match n {
                Arg::Number(num) if num.is_complex => Ok(Rv::new(convert_literal(
                    Value::Complex(num.complex128.0, num.complex128.1, ComplexType::C128),
                    typ,
                ))),
                _ => Err(self.error(format!("expected complex; found {}", src()))),
            },
            Type::Float(_) => match n {
                Arg::Number(num) if num.is_float => {
                    Ok(Rv::new(convert_literal(Value::float(num.float64), typ)))
                }
                _ => Err(self.error(format!("expected float; found {}", src()))),
            },
            Type::Int(_) => match n {
                Arg::Number(num) if num.is_int => {
                    Ok(Rv::new(convert_literal(Value::int(num.int64), typ)))
                }
                _ => Err(self.error(format!("expected integer; found {}", src()))),
            },
            Type::Uint(_) => match n {
                Arg::Number(num) if num.is_uint => Ok(Rv::new(convert_literal(
                    Value::Uint(num.uint64, crate::value::UintType::U64),
                    typ,
                ))),
                _ => Err(self.error(format!("expected unsigned integer; found {}", src()))),
            },
            Type::String => match n {
                Arg::String { text, .. } => {
                    Ok(Rv::new(convert_literal(Value::string(text.as_str()), typ)))
                }
                _ => Err(self.error(format!("expected string; found {}", src()))),
            },
            Type::Interface => self.eval_empty_interface(dot, n),
            Type::ReflectValue => self.eval_empty_interface(dot, n),
            _ => Err(self.error(format!("can't handle {} for arg of type {typ}", src()))),
        }
    }

    fn eval_empty_interface(&mut self, dot: &Rv, n: &'t Arg) -> R<Rv> {
        self.at(AnyNode::Arg(n));
        match n {
            Arg::Bool(_, b) => Ok(Rv::new(Value::Bool(*b))),
            Arg::Dot(_) => Ok(dot.clone()),
            Arg::Field { ident, .. } => self.eval_field_node(dot, n, ident, None, None),
            Arg::Identifier { name, .. } => {
                self.eval_function(dot, n, name, AnyNode::Arg(n), None, None)
            }
            Arg::Nil(_) => Err(self.error("evalEmptyInterface: nil (can't happen)")),
            Arg::Number(num) => self.ideal_constant(n, num),
            Arg::String { text, .. } => Ok(Rv::new(Value::string(text.as_str()))),
            Arg::Variable(v) => self.eval_variable_node(dot, n, &v.ident, None, None),
            Arg::Pipe(p) => self.eval_pipeline(dot, p),
            Arg::Chain { .. } => Err(self.error(format!(
                "can't handle assignment of {} to empty interface argument",
                AnyNode::Arg(n).source(&self.set.delims)
            ))),
        }
    }

    fn print_value(&mut self, n: AnyNode<'t>, v: Rv) -> R<()> {
        self.at(n);
        let Some(p) = printable_value(v.clone()) else {
            return Err(self.error(format!(
                "can't print {} of type {}",
                n.source(&self.set.delims),
                v.type_name()
            )));
        };
        match p {
            Printable::NoValue => self.write("<no value>"),
            Printable::Value(Value::String(s)) => self.write(&s),
            Printable::Value(v) => {
                let s = gofmt::sprint(std::slice::from_ref(&v));
                self.write(&s)
            }
        }
    }
}

/// What `printableValue` returns.
pub(crate) enum Printable {
    NoValue,
    Value(Value),
}

/// `printableValue`: `None` when the value cannot be printed (a func).
pub(crate) fn printable_value(v: Rv) -> Option<Printable> {
    let v = if matches!(v.v, Value::Pointer(_)) && !v.iface {
        indirect(v).0
    } else {
        v
    };
    if !v.is_valid() {
        return Some(Printable::NoValue);
    }
    if matches!(v.v, Value::Func(_))
        && v.v.method("String").is_none()
        && v.v.method("Error").is_none()
    {
        return None;
    }
    Some(Printable::Value(v.v))
}

fn assignable(v: &Rv, typ: &Type) -> bool {
    if v.iface {
        return matches!(typ, Type::Interface);
    }
    match v.v.type_of() {
        Some(t) => t.assignable_to(typ),
        None => typ.can_be_nil(),
    }
}

/// Converts a literal to a parameter's type (Go's `reflect.New(typ).Elem().SetX`).
fn convert_literal(v: Value, typ: &Type) -> Value {
    let base = match (v, typ.underlying()) {
        (Value::Int(i, _), Type::Int(t)) => Value::Int(truncate_int(i, *t), *t),
        (Value::Uint(u, _), Type::Uint(t)) => Value::Uint(truncate_uint(u, *t), *t),
        (Value::Float(f, _), Type::Float(t)) => Value::Float(
            if *t == FloatType::F32 {
                f as f32 as f64
            } else {
                f
            },
            *t,
        ),
        (Value::Complex(r, i, _), Type::Complex(t)) => Value::Complex(r, i, *t),
        (v, _) => v,
    };
    match typ {
        Type::Named(nt) => Value::Named(nt.clone(), Box::new(base)),
        _ => base,
    }
}

fn truncate_int(i: i64, t: IntType) -> i64 {
    match t.bits() {
        8 => i as i8 as i64,
        16 => i as i16 as i64,
        32 => i as i32 as i64,
        _ => i,
    }
}

fn truncate_uint(u: u64, t: crate::value::UintType) -> u64 {
    match t.bits() {
        8 => u as u8 as u64,
        16 => u as u16 as u64,
        32 => u as u32 as u64,
        _ => u,
    }
}

/// `isTrue`; `None` when the value has no truth value.
pub(crate) fn is_true(v: &Rv) -> Option<bool> {
    if !v.is_valid() {
        return Some(false);
    }
    if v.iface {
        return Some(!matches!(v.v, Value::Nil));
    }
    Some(match v.v.underlying() {
        Value::Invalid | Value::Nil => false,
        Value::Bool(b) => *b,
        Value::Int(i, _) => *i != 0,
        Value::Uint(u, _) => *u != 0,
        Value::Float(f, _) => *f != 0.0,
        Value::Complex(r, i, _) => *r != 0.0 || *i != 0.0,
        Value::String(s) => !s.is_empty(),
        Value::Slice(s) => s.len > 0,
        Value::Map(m) => !m.entries.is_empty(),
        Value::Struct(_) => true,
        Value::Pointer(p) => p.target.is_some(),
        Value::Func(f) => f.addr != 0,
        Value::Named(..) => unreachable!(),
    })
}

/// `%v` of a reflect.Value, as fmt prints it in error messages.
pub(crate) fn sprint_v(v: &Rv) -> String {
    match &v.v {
        Value::Invalid => "<invalid reflect.Value>".to_string(),
        other => gofmt::sprint(std::slice::from_ref(other)),
    }
}

/// `reflect.Value.String()`: the string for strings, `<T Value>` otherwise.
pub(crate) fn reflect_string(v: &Rv) -> String {
    match (&v.v, v.iface) {
        (Value::String(s), false) => s.to_string(),
        (Value::Invalid, false) => "<invalid Value>".to_string(),
        _ => format!("<{} Value>", v.type_name()),
    }
}

/// Signature helper for functions taking `reflect.Value`s.
pub(crate) fn sig(params: Vec<Type>, variadic: bool, results: Vec<Type>) -> Arc<FuncType> {
    Arc::new(FuncType {
        params,
        variadic,
        results,
    })
}
