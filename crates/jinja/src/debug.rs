//! `runtime::debug_dump_program` of `runtime.cpp` and the `visit` methods of
//! `runtime.h`: the AST as an indented tree with source snippets.

use crate::ast::{Program, StmtKind, StmtPtr};
use crate::runtime::{get_line_col, Runtime};
use crate::utils::{lossy, peak_source};

impl Runtime<'_> {
    /// `runtime::debug_dump_program`: the AST as an indented tree, each leaf
    /// with its line, column and source snippet.
    pub fn debug_dump_program(prog: &Program, src: &str) -> String {
        let mut out = Vec::new();
        for st in &prog.body {
            dump_node(&mut out, st, src.as_bytes(), 0);
        }
        lossy(out)
    }
}

type Children<'a> = Vec<(&'static str, Vec<Option<&'a StmtPtr>>)>;

fn one(s: &StmtPtr) -> Vec<Option<&StmtPtr>> {
    vec![Some(s)]
}
fn opt(s: &Option<StmtPtr>) -> Vec<Option<&StmtPtr>> {
    vec![s.as_ref()]
}
fn many(v: &[StmtPtr]) -> Vec<Option<&StmtPtr>> {
    v.iter().map(Some).collect()
}

fn node_children(st: &StmtPtr) -> Option<Children<'_>> {
    use StmtKind::*;
    Some(match &st.kind {
        If {
            test,
            body,
            alternate,
        } => vec![
            ("test", one(test)),
            ("body", many(body)),
            ("alternate", many(alternate)),
        ],
        For {
            loopvar,
            iterable,
            body,
            default_block,
        } => vec![
            ("loopvar", one(loopvar)),
            ("iterable", one(iterable)),
            ("body", many(body)),
            ("default_block", many(default_block)),
        ],
        Set {
            assignee,
            val,
            body,
        } => vec![
            ("assignee", one(assignee)),
            ("value", opt(val)),
            ("body", many(body)),
        ],
        Macro { name, args, body } => vec![
            ("name", one(name)),
            ("args", many(args)),
            ("body", many(body)),
        ],
        Member {
            object, property, ..
        } => vec![("object", one(object)), ("property", one(property))],
        Call { callee, args } => vec![("callee", one(callee)), ("args", many(args))],
        Binary { left, right, .. } => vec![("left", one(left)), ("right", one(right))],
        Filter { operand, filter } => vec![("operand", one(operand)), ("filter", one(filter))],
        FilterStatement { filter, body } => vec![("filter", one(filter)), ("body", many(body))],
        Select { lhs, test } => vec![("lhs", one(lhs)), ("test", one(test))],
        Test { operand, test, .. } => vec![("operand", one(operand)), ("test", one(test))],
        Unary { argument, .. } => vec![("argument", one(argument))],
        Slice { start, stop, step } => vec![
            ("start_expr", opt(start)),
            ("stop_expr", opt(stop)),
            ("step_expr", opt(step)),
        ],
        KeywordArgument { key, val } => vec![("key", one(key)), ("val", one(val))],
        Spread { argument } => vec![("argument", one(argument))],
        CallStatement {
            call,
            caller_args,
            body,
        } => {
            vec![
                ("call", one(call)),
                ("caller_args", many(caller_args)),
                ("body", many(body)),
            ]
        }
        Ternary {
            condition,
            true_expr,
            false_expr,
        } => vec![
            ("condition", one(condition)),
            ("true_expr", one(true_expr)),
            ("false_expr", one(false_expr)),
        ],
        _ => return None,
    })
}

fn dump_node(out: &mut Vec<u8>, st: &StmtPtr, src: &[u8], lvl: usize) {
    let indent = |n: usize| vec![b' '; n * 2];
    out.extend(indent(lvl));
    out.extend_from_slice(st.type_name().as_bytes());
    out.extend_from_slice(b":\n");
    let lvl = lvl + 1;
    match node_children(st) {
        None => {
            out.extend(indent(lvl));
            out.extend_from_slice(
                format!("(leaf) at {} in source:\n", get_line_col(src, st.pos)).as_bytes(),
            );
            let mut nl = b"\n".to_vec();
            nl.extend(indent(lvl));
            let snippet = crate::utils::string_replace_all(&peak_source(src, st.pos), b"\n", &nl);
            out.extend(indent(lvl));
            out.extend_from_slice(&snippet);
            out.push(b'\n');
        }
        Some(children) => {
            for (label, kids) in children {
                out.extend(indent(lvl));
                out.extend_from_slice(label.as_bytes());
                out.extend_from_slice(b":\n");
                if kids.is_empty() {
                    out.extend(indent(lvl + 1));
                    out.extend_from_slice(b"<empty>\n\n");
                } else {
                    for k in kids.into_iter().flatten() {
                        dump_node(out, k, src, lvl + 1);
                    }
                }
            }
        }
    }
}
