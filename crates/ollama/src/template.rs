//! Ollama's `template` package (template/template.go) and
//! `thinking.InferTags` (thinking/template.go): parsing with
//! `missingkey=zero` and Ollama's functions, `Vars()`, the appended
//! `{{ .Response }}`, and the three execution branches.

use std::sync::Arc;

use gotmpl::parse::{ActionNode, Arg, BranchNode, CommandNode, ListNode, Node, PipeNode};
use gotmpl::value::{FuncType, Type};
use gotmpl::{Template as GoTemplate, Value};

use crate::api;
use crate::date::Date;
use crate::values;

/// A parsed Ollama template.
#[derive(Clone, Debug)]
pub struct Template {
    raw: String,
    tmpl: GoTemplate,
    vars: Vec<String>,
    response_appended: bool,
}

/// What the template is executed with (`template.Values`).
#[derive(Clone, Debug, Default)]
pub struct Values {
    /// Messages (collated inside `execute`).
    pub messages: Vec<api::Message>,
    /// Tools; `None` is a nil `api.Tools`.
    pub tools: Option<Vec<api::Tool>>,
    /// `Prompt` (insert branch).
    pub prompt: String,
    /// `Suffix` (insert branch).
    pub suffix: String,
    /// `Think`
    pub think: bool,
    /// `ThinkLevel`
    pub think_level: String,
    /// `IsThinkSet`
    pub is_think_set: bool,
}

/// Which of the three execution branches ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// `Prompt` and `Suffix` set: one execution with `{Prompt, Suffix, ...}`.
    Insert,
    /// The template uses `.Messages`: one execution with all messages.
    Messages,
    /// A legacy `.System/.Prompt/.Response` template: one execution per turn.
    Legacy,
}

impl Branch {
    /// Lower-case name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Branch::Insert => "insert",
            Branch::Messages => "messages",
            Branch::Legacy => "legacy",
        }
    }
}

/// The result of an execution, with what happened on the way.
#[derive(Clone, Debug)]
pub struct Executed {
    /// The prompt.
    pub prompt: String,
    /// The branch taken.
    pub branch: Branch,
    /// Messages after `collate`, with the indexes (into the input) of the
    /// messages merged into each.
    pub collated: Vec<(api::Message, Vec<usize>)>,
    /// Legacy branch: indexes of user messages whose text was lost (an empty
    /// assistant turn did not flush them).
    pub dropped: Vec<usize>,
}

fn func_sig(params: Vec<Type>, variadic: bool) -> FuncType {
    FuncType {
        params,
        variadic,
        results: vec![Type::String],
    }
}

impl Template {
    /// `template.Parse(s)`: Go's parse under the name `""` with
    /// `missingkey=zero` and Ollama's functions; `{{ .Response }}` is appended
    /// when the template uses neither `.Messages` nor `.Response`.
    pub fn parse(s: &str, today: Date) -> Result<Template, String> {
        let strings = Type::Slice(Arc::new(Type::String));
        let tmpl = GoTemplate::new("")
            .option("missingkey=zero")
            .map_err(|e| e.to_string())?
            .func(
                "json",
                func_sig(vec![Type::Interface], false),
                Arc::new(|args: &[Value]| Ok(Value::string(values::json_string(&args[0])))),
            )
            .func(
                "currentDate",
                func_sig(vec![strings.clone()], true),
                Arc::new(move |_: &[Value]| Ok(Value::string(today.to_string()))),
            )
            .func(
                "yesterdayDate",
                func_sig(vec![strings], true),
                Arc::new(move |_: &[Value]| Ok(Value::string(today.yesterday().to_string()))),
            )
            .func(
                "toTypeScriptType",
                func_sig(vec![Type::Interface], false),
                Arc::new(|args: &[Value]| Ok(Value::string(values::typescript_type(&args[0])))),
            )
            .parse(s)
            .map_err(|e| e.to_string())?;
        let vars = vars_of(&tmpl)?;
        let mut t = Template {
            raw: s.to_string(),
            tmpl,
            vars,
            response_appended: false,
        };
        if !t.has_var("messages") && !t.has_var("response") {
            let mut root = t.tmpl.root().cloned().unwrap_or_default();
            root.nodes.push(Node::Action(response_node()));
            t.tmpl = t.tmpl.with_root(root);
            t.vars = vars_of(&t.tmpl)?;
            t.response_appended = true;
        }
        Ok(t)
    }

    /// The source text (`String()`).
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// `Vars()`: lowercased identifiers, sorted, de-duplicated.
    pub fn vars(&self) -> &[String] {
        &self.vars
    }

    /// Whether `Vars()` contains `name`.
    pub fn has_var(&self, name: &str) -> bool {
        self.vars.iter().any(|v| v == name)
    }

    /// `Contains(s)`: a substring test on the source.
    pub fn contains(&self, s: &str) -> bool {
        self.raw.contains(s)
    }

    /// Whether `{{ .Response }}` was appended by `Parse`.
    pub fn response_appended(&self) -> bool {
        self.response_appended
    }

    /// The underlying Go template.
    pub fn go_template(&self) -> &GoTemplate {
        &self.tmpl
    }

    /// `thinking.InferTags`: the opening and closing thinking tags.
    pub fn infer_tags(&self) -> (String, String) {
        match self.tmpl.root() {
            Some(root) => infer_tags(root),
            None => (String::new(), String::new()),
        }
    }

    /// `Execute(w, v)`.
    pub fn execute(&self, v: &Values) -> Result<Executed, String> {
        let (system, collated) = collate(&v.messages);
        let think = || {
            vec![
                ("Think", Value::Bool(v.think)),
                ("ThinkLevel", Value::string(v.think_level.as_str())),
                ("IsThinkSet", Value::Bool(v.is_think_set)),
            ]
        };
        if !v.prompt.is_empty() && !v.suffix.is_empty() {
            let mut entries = vec![
                ("Prompt", Value::string(v.prompt.as_str())),
                ("Suffix", Value::string(v.suffix.as_str())),
                ("Response", Value::string("")),
            ];
            entries.extend(think());
            let prompt = self.run(&self.tmpl, &values::values_map(entries))?;
            return Ok(Executed {
                prompt,
                branch: Branch::Insert,
                collated,
                dropped: Vec::new(),
            });
        }
        if self.has_var("messages") {
            let msgs: Vec<api::Message> = collated.iter().map(|(m, _)| m.clone()).collect();
            let mut entries = vec![
                ("System", Value::string(system.as_str())),
                ("Messages", values::convert_messages(&msgs)),
                ("Tools", values::convert_tools(v.tools.as_deref())),
                ("Response", Value::string("")),
            ];
            entries.extend(think());
            let prompt = self.run(&self.tmpl, &values::values_map(entries))?;
            return Ok(Executed {
                prompt,
                branch: Branch::Messages,
                collated,
                dropped: Vec::new(),
            });
        }

        // Legacy: one execution per turn.
        let mut out = String::new();
        let (mut sys, mut prompt, mut response) = (String::new(), String::new(), String::new());
        let mut prompt_from: Option<usize> = None;
        let mut dropped = Vec::new();
        let turn = |sys: &str, prompt: &str, response: &str| {
            let mut entries = vec![
                ("System", Value::string(sys)),
                ("Prompt", Value::string(prompt)),
                ("Response", Value::string(response)),
            ];
            entries.extend(think());
            values::values_map(entries)
        };
        for (i, (m, _)) in collated.iter().enumerate() {
            let flush = match m.role.as_str() {
                "system" => !prompt.is_empty() || !response.is_empty(),
                "user" => !response.is_empty(),
                _ => false,
            };
            if flush {
                out.push_str(&self.run(&self.tmpl, &turn(&sys, &prompt, &response))?);
                sys.clear();
                prompt.clear();
                response.clear();
                prompt_from = None;
            }
            match m.role.as_str() {
                "system" => sys = m.content.clone(),
                "user" => {
                    if let Some(p) = prompt_from {
                        if !prompt.is_empty() {
                            dropped.push(p);
                        }
                    }
                    prompt = m.content.clone();
                    prompt_from = Some(i);
                }
                "assistant" => response = m.content.clone(),
                _ => {}
            }
        }
        let root = self.tmpl.root().cloned().unwrap_or_default();
        let pruned = prune_after_response(root)?;
        let last = self.tmpl.standalone(pruned);
        out.push_str(&self.run(&last, &turn(&sys, &prompt, &response))?);
        Ok(Executed {
            prompt: out,
            branch: Branch::Legacy,
            collated,
            dropped,
        })
    }

    fn run(&self, t: &GoTemplate, data: &Value) -> Result<String, String> {
        t.execute(data).map_err(|e| e.to_string())
    }
}

/// The `{{ .Response }}` action Ollama appends (no position, no tree).
fn response_node() -> ActionNode {
    ActionNode {
        pos: 0,
        line: 0,
        pipe: PipeNode {
            pos: 0,
            line: 0,
            is_assign: false,
            decl: vec![],
            cmds: vec![CommandNode {
                pos: 0,
                args: vec![Arg::Field {
                    pos: 0,
                    ident: vec!["Response".into()],
                }],
            }],
        },
    }
}

/// `collate`: system contents joined, consecutive same-role messages merged
/// (except `tool`). Returns the merged messages with their source indexes.
pub fn collate(msgs: &[api::Message]) -> (String, Vec<(api::Message, Vec<usize>)>) {
    let mut system = Vec::new();
    let mut collated: Vec<(api::Message, Vec<usize>)> = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        if m.role == "system" {
            system.push(m.content.as_str());
        }
        match collated.last_mut() {
            Some((last, from)) if last.role == m.role && m.role != "tool" => {
                last.content.push_str("\n\n");
                last.content.push_str(&m.content);
                from.push(i);
            }
            _ => collated.push((m.clone(), vec![i])),
        }
    }
    (system.join("\n\n"), collated)
}

/// `Vars()` over every tree of the set.
fn vars_of(t: &GoTemplate) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for (_, root) in t.trees() {
        for n in &root.nodes {
            identifiers_node(n, &mut names)?;
        }
    }
    let mut set: Vec<String> = names.into_iter().map(|n| n.to_lowercase()).collect();
    set.sort();
    set.dedup();
    Ok(set)
}

fn identifiers_list(l: &ListNode, out: &mut Vec<String>) -> Result<(), String> {
    for n in &l.nodes {
        identifiers_node(n, out)?;
    }
    Ok(())
}

fn identifiers_node(n: &Node, out: &mut Vec<String>) -> Result<(), String> {
    match n {
        Node::Template(t) => match &t.pipe {
            None => Err("undefined template specified".into()),
            Some(p) => identifiers_pipe(p, out),
        },
        Node::Action(a) => identifiers_pipe(&a.pipe, out),
        Node::If(b) | Node::Range(b) | Node::With(b) => identifiers_branch(b, out),
        _ => Ok(()),
    }
}

fn identifiers_branch(b: &BranchNode, out: &mut Vec<String>) -> Result<(), String> {
    identifiers_pipe(&b.pipe, out)?;
    identifiers_list(&b.list, out)?;
    if let Some(e) = &b.else_list {
        identifiers_list(e, out)?;
    }
    Ok(())
}

fn identifiers_pipe(p: &PipeNode, out: &mut Vec<String>) -> Result<(), String> {
    for c in &p.cmds {
        for a in &c.args {
            match a {
                Arg::Field { ident, .. } => out.extend(ident.iter().cloned()),
                Arg::Variable(v) => out.extend(v.ident.iter().cloned()),
                Arg::Pipe(p) => identifiers_pipe(p, out)?,
                _ => {}
            }
        }
    }
    Ok(())
}

// ---- deleteNode: the legacy cut after .Response ----

struct Pruner {
    cut: bool,
}

impl Pruner {
    /// The predicate: true deletes; the first field naming `Response` sets
    /// the cut and is kept.
    fn hit_field(&mut self, ident: &[String]) -> bool {
        if ident.iter().any(|i| i == "Response") {
            self.cut = true;
            return false;
        }
        self.cut
    }

    fn list(&mut self, l: ListNode) -> Result<Option<ListNode>, String> {
        if self.cut {
            return Ok(None);
        }
        let mut nodes = Vec::new();
        for n in l.nodes {
            if let Some(n) = self.node(n)? {
                nodes.push(n);
            }
        }
        Ok(Some(ListNode { pos: l.pos, nodes }))
    }

    fn branch(&mut self, mut b: BranchNode) -> Result<BranchNode, String> {
        // Go walks the branch's lists, not its pipe; a list visited after
        // the cut makes Ollama's type assertion on nil panic.
        b.list = self.list(b.list)?.ok_or_else(nil_list_panic)?;
        if let Some(e) = b.else_list.take() {
            b.else_list = Some(self.list(e)?.ok_or_else(nil_list_panic)?);
        }
        Ok(b)
    }

    fn node(&mut self, n: Node) -> Result<Option<Node>, String> {
        if self.cut {
            return Ok(None);
        }
        Ok(Some(match n {
            Node::If(b) => Node::If(Box::new(self.branch(*b)?)),
            Node::With(b) => Node::With(Box::new(self.branch(*b)?)),
            Node::Range(b) => Node::Range(Box::new(self.branch(*b)?)),
            Node::Action(mut a) => match self.pipe(a.pipe)? {
                None => return Ok(None),
                Some(p) => {
                    a.pipe = p;
                    Node::Action(a)
                }
            },
            other => other,
        }))
    }

    fn pipe(&mut self, mut p: PipeNode) -> Result<Option<PipeNode>, String> {
        if self.cut {
            return Ok(None);
        }
        let mut commands = Vec::new();
        for mut c in std::mem::take(&mut p.cmds) {
            let mut args = Vec::new();
            for a in c.args {
                if let Some(a) = self.arg(a)? {
                    args.push(a);
                }
            }
            if args.is_empty() {
                return Ok(None);
            }
            c.args = args;
            commands.push(c);
        }
        if commands.is_empty() {
            return Ok(None);
        }
        p.cmds = commands;
        Ok(Some(p))
    }

    fn arg(&mut self, a: Arg) -> Result<Option<Arg>, String> {
        match a {
            Arg::Field { pos, ident } => {
                if self.hit_field(&ident) {
                    return Ok(None);
                }
                Ok(Some(Arg::Field { pos, ident }))
            }
            Arg::Pipe(p) => Ok(self.pipe(*p)?.map(|p| Arg::Pipe(Box::new(p)))),
            other => Ok(if self.cut { None } else { Some(other) }),
        }
    }
}

fn nil_list_panic() -> String {
    "panic: interface conversion: parse.Node is nil, not *parse.ListNode (Ollama's legacy template path crashes on an else branch after {{ .Response }})".into()
}

/// `deleteNode(root, cut after the first .Response)`.
pub fn prune_after_response(root: ListNode) -> Result<ListNode, String> {
    let mut p = Pruner { cut: false };
    Ok(p.list(root)?.unwrap_or_default())
}

// ---- thinking.InferTags ----

#[derive(Clone, Copy)]
enum Anc<'a> {
    List(&'a ListNode),
    Range(&'a BranchNode),
    Other,
}

struct Infer<'a> {
    ancestors: Vec<Anc<'a>>,
    opening: String,
    closing: String,
}

fn go_trim_space(s: &str) -> String {
    s.trim_matches(gotmpl::unicode::is_space).to_string()
}

impl<'a> Infer<'a> {
    fn list(&mut self, l: &'a ListNode) {
        self.ancestors.push(Anc::List(l));
        for n in &l.nodes {
            self.node(n);
        }
        self.ancestors.pop();
    }

    fn node(&mut self, n: &'a Node) {
        self.ancestors.push(Anc::Other);
        match n {
            Node::If(b) | Node::With(b) => self.branch(b),
            Node::Range(b) => {
                // The RangeNode itself is the ancestor the search looks for.
                let top = self.ancestors.len() - 1;
                self.ancestors[top] = Anc::Range(b);
                self.branch(b);
            }
            Node::Action(a) => self.pipe(&a.pipe),
            Node::Template(t) => {
                if let Some(p) = &t.pipe {
                    self.pipe(p);
                }
            }
            _ => {}
        }
        self.ancestors.pop();
    }

    fn branch(&mut self, b: &'a BranchNode) {
        self.ancestors.push(Anc::Other);
        self.pipe(&b.pipe);
        self.list(&b.list);
        if let Some(e) = &b.else_list {
            self.list(e);
        }
        self.ancestors.pop();
    }

    fn pipe(&mut self, p: &'a PipeNode) {
        self.ancestors.push(Anc::Other);
        for c in &p.cmds {
            self.ancestors.push(Anc::Other);
            for a in &c.args {
                self.arg(a);
            }
            self.ancestors.pop();
        }
        self.ancestors.pop();
    }

    fn arg(&mut self, a: &'a Arg) {
        match a {
            Arg::Field { ident, .. } if ident.first().is_some_and(|i| i == "Thinking") => {
                self.found_thinking()
            }
            Arg::Pipe(p) => self.pipe(p),
            _ => {}
        }
    }

    fn found_thinking(&mut self) {
        let range = self.ancestors.iter().rev().find_map(|a| match a {
            Anc::Range(b) => Some(*b),
            _ => None,
        });
        let Some(range) = range else { return };
        if !pipe_uses_field(&range.pipe, "Messages") {
            return;
        }
        let list = self.ancestors.iter().rev().find_map(|a| match a {
            Anc::List(l) => Some(*l),
            _ => None,
        });
        if let Some(l) = list {
            if let Some(Node::Text(t)) = l.nodes.first() {
                self.opening = go_trim_space(&t.text);
            }
            if let Some(Node::Text(t)) = l.nodes.last() {
                self.closing = go_trim_space(&t.text);
            }
        }
    }
}

fn pipe_uses_field(p: &PipeNode, field: &str) -> bool {
    p.cmds.iter().any(|c| {
        c.args.iter().any(|a| match a {
            Arg::Field { ident, .. } => ident.first().is_some_and(|i| i == field),
            Arg::Pipe(p) => pipe_uses_field(p, field),
            _ => false,
        })
    })
}

/// `thinking.InferTags` over a root list.
pub fn infer_tags(root: &ListNode) -> (String, String) {
    let mut i = Infer {
        ancestors: Vec::new(),
        opening: String::new(),
        closing: String::new(),
    };
    i.list(root);
    (i.opening, i.closing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> Date {
        Date::new(2026, 11, 30)
    }

    #[test]
    fn vars_and_append() {
        let t = Template::parse("{{ .Prompt }}", today()).unwrap();
        assert_eq!(t.vars(), ["prompt", "response"]);
        assert!(t.response_appended());
        assert_eq!(
            Template::parse("{{ template \"x\" }}", today()).unwrap_err(),
            "undefined template specified"
        );
        assert_eq!(
            Template::parse("{{ .Foo", today()).unwrap_err(),
            "template: :1: unclosed action"
        );
    }

    #[test]
    fn thinking_tags() {
        let t = Template::parse(
            "{{ range .Messages }}{{ if .Thinking }}<think>{{ .Thinking }}</think>{{ end }}{{ end }}",
            today(),
        )
        .unwrap();
        assert_eq!(
            t.infer_tags(),
            ("<think>".to_string(), "</think>".to_string())
        );
    }

    #[test]
    fn collate_merges() {
        let msgs = vec![
            api::Message::new("system", "a"),
            api::Message::new("user", "b"),
            api::Message::new("user", "c"),
            api::Message::new("tool", "d"),
            api::Message::new("tool", "e"),
        ];
        let (system, c) = collate(&msgs);
        assert_eq!(system, "a");
        assert_eq!(c.len(), 4);
        assert_eq!(c[1].0.content, "b\n\nc");
        assert_eq!(c[1].1, vec![1, 2]);
    }
}
