//! Port of `common/jinja/caps.h` / `caps.cpp`: what a chat template supports,
//! found by running it on probe conversations with usage statistics on and
//! looking at which input values it touched.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::json;

use crate::ast::Program;
use crate::error::Result;
use crate::runtime::{gather_string_parts, Context, Runtime};
use crate::value::{global_from_json, Value};

/// `jinja::caps`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Uses `tools`.
    pub supports_tools: bool,
    /// Renders `tool_calls`.
    pub supports_tool_calls: bool,
    /// Renders a system message.
    pub supports_system_role: bool,
    /// Renders a second tool call.
    pub supports_parallel_tool_calls: bool,
    /// Keeps `reasoning_content` of earlier assistant turns.
    pub supports_preserve_reasoning: bool,
    /// Reads `reasoning_effort`.
    pub supports_reasoning_effort: bool,
    /// Whether the build probes `reasoning_effort` at all (before
    /// `caps_reasoning_effort_probe` the capability does not exist).
    pub probes_reasoning_effort: bool,
    /// Accepts string content.
    pub supports_string_content: bool,
    /// Accepts typed (array) content.
    pub supports_typed_content: bool,
    /// Reads tool call arguments as an object.
    pub supports_object_arguments: bool,
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            supports_tools: true,
            supports_tool_calls: true,
            supports_system_role: true,
            supports_parallel_tool_calls: true,
            supports_preserve_reasoning: false,
            supports_reasoning_effort: false,
            probes_reasoning_effort: true,
            supports_string_content: true,
            supports_typed_content: false,
            supports_object_arguments: false,
        }
    }
}

impl Caps {
    /// `to_map()` (sorted by name, like the C++ `std::map`).
    pub fn to_map(&self) -> BTreeMap<&'static str, bool> {
        let mut map = BTreeMap::from([
            ("supports_string_content", self.supports_string_content),
            ("supports_typed_content", self.supports_typed_content),
            ("supports_tools", self.supports_tools),
            ("supports_tool_calls", self.supports_tool_calls),
            (
                "supports_parallel_tool_calls",
                self.supports_parallel_tool_calls,
            ),
            ("supports_system_role", self.supports_system_role),
            (
                "supports_preserve_reasoning",
                self.supports_preserve_reasoning,
            ),
            ("supports_reasoning_effort", self.supports_reasoning_effort),
            ("supports_object_arguments", self.supports_object_arguments),
        ]);
        if !self.probes_reasoning_effort {
            map.remove("supports_reasoning_effort");
        }
        map
    }
}

impl std::fmt::Display for Caps {
    /// `to_string()`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Caps(")?;
        for (k, v) in self.to_map() {
            writeln!(f, "  {k}={v}")?;
        }
        write!(f, ")")
    }
}

/// `caps_apply_preserve_reasoning`; `drop_thinking` too where the build
/// has `preserve_reasoning_drop_thinking` (the context's rules).
pub fn caps_apply_preserve_reasoning(ctx: &mut Context, enabled: bool) -> Result<()> {
    ctx.set_val("preserve_thinking", Value::bool(enabled))?;
    ctx.set_val("clear_thinking", Value::bool(!enabled))?;
    ctx.set_val("truncate_history_thinking", Value::bool(!enabled))?;
    if ctx
        .rules
        .has(&changes::llamacpp::PRESERVE_REASONING_DROP_THINKING)
    {
        ctx.set_val("drop_thinking", Value::bool(!enabled))?;
    }
    Ok(())
}

/// `caps_apply_reasoning_effort` (one value bound to both names).
pub fn caps_apply_reasoning_effort(ctx: &mut Context, effort: &str) -> Result<()> {
    let v = Value::str(effort);
    ctx.set_val("reasoning_effort", v.clone())?;
    ctx.set_val("reasoning_strength", v)
}

type CtxFn<'a> = &'a dyn Fn(&mut Context) -> Result<()>;

struct Probe {
    ctx: Context,
    success: bool,
    messages: Value,
    tools: Value,
    output: String,
}

fn caps_try_execute(
    prog: &Program,
    rules: &Rc<changes::Rules>,
    messages: serde_json::Value,
    ctx_fn: Option<CtxFn<'_>>,
    tools: Option<serde_json::Value>,
) -> Result<Probe> {
    let mut ctx = Context::with_rules("", rules.clone());
    ctx.is_get_stats = true;
    global_from_json(
        &mut ctx,
        &json!({
            "messages": messages,
            "tools": tools.unwrap_or_else(|| json!([])),
            "bos_token": "",
            "eos_token": "",
            "add_generation_prompt": true,
        }),
        true,
    )?;
    if let Some(f) = ctx_fn {
        f(&mut ctx)?;
    }
    let messages = ctx.get_val("messages");
    let tools = ctx.get_val("tools");
    let (success, output) = match Runtime::new(&ctx)
        .execute(prog)
        .and_then(|r| gather_string_parts(&r))
    {
        Ok(parts) => (true, parts.str()),
        // Our addition: a probe that runs out of fuel ends the probing (the
        // C++ would run on), so a runaway template costs one budget, not one
        // per probe. A call the build never returns from ends it too (the
        // C++ would hang there).
        Err(e)
            if matches!(
                e.kind(),
                crate::ErrorKind::FuelExhausted | crate::ErrorKind::NeverReturns
            ) =>
        {
            return Err(e)
        }
        Err(_) => (false, String::new()),
    };
    Ok(Probe {
        ctx,
        success,
        messages,
        tools,
        output,
    })
}

fn tools_json() -> serde_json::Value {
    json!([{
        "name": "tool",
        "type": "function",
        "function": {
            "name": "tool1",
            "description": "Tool description",
            "parameters": {
                "type": "object",
                "properties": {"arg": {"type": "string", "description": "Arg description"}},
                "required": ["arg"],
            },
        },
    }])
}

fn tool_messages(calls: serde_json::Value) -> serde_json::Value {
    json!([
        {"role": "user", "content": "User message"},
        {"role": "assistant", "content": "", "tool_calls": calls},
        {"role": "tool", "content": "Tool response", "tool_call_id": "call00001"},
        {"role": "assistant", "content": "The tool response was 'tool response'"},
        {"role": "user", "content": "User message"},
    ])
}

fn call(id: &str, args: serde_json::Value) -> serde_json::Value {
    json!({"id": id, "type": "function", "function": {"name": "tool1", "arguments": args}})
}

/// `caps_get`: runs the probes and reports what the template supports, as
/// the newest build probes. Errors only where the C++ would throw out of
/// the analysis itself.
pub fn caps_get(prog: &Program) -> Result<Caps> {
    caps_get_with(prog, &Rc::new(changes::Rules::default()))
}

/// [`caps_get`] as `rules`' build probes (noting the rows it consulted).
pub fn caps_get_with(prog: &Program, rules: &Rc<changes::Rules>) -> Result<Caps> {
    let mut result = Caps::default();
    // before `caps_typed_content_marker` the probe's content was "content"
    // and its output was not read
    let marker = rules.has(&changes::llamacpp::CAPS_TYPED_CONTENT_MARKER);
    let content_marker = if marker { "STRING_MARKER" } else { "content" };
    let mut checks_for_string = false;

    // typed content (before `caps_typed_content_probe_tools` with tools
    // [null], which a template that maps its tools fails on: noted where
    // that decides the probe)
    let typed_probe = |tools: serde_json::Value| {
        caps_try_execute(
            prog,
            rules,
            json!([{"role": "user", "content": content_marker}]),
            None,
            Some(tools),
        )
    };
    let mut p = typed_probe(json!([]))?;
    if !rules.has(&changes::llamacpp::CAPS_TYPED_CONTENT_PROBE_TOOLS) {
        let old = typed_probe(json!([null]))?;
        if old.success != p.success {
            rules.on(&changes::llamacpp::CAPS_TYPED_CONTENT_PROBE_TOOLS);
        }
        p = old;
    }
    {
        let content = p.messages.at_index(0)?.at_str("content")?;
        if content.has_op("test_is_string") {
            checks_for_string = true;
        }
        let used_as_array = content.has_op("selectattr") || content.has_op("array_access");
        if used_as_array {
            result.supports_typed_content = true;
        }
        if !p.success
            || (used_as_array
                && !p.output.contains(content_marker)
                && rules.on(&changes::llamacpp::CAPS_TYPED_CONTENT_MARKER))
        {
            result.supports_string_content = false;
        }
    }

    // before: one probe, so a template that tests `content is string`
    // takes strings only
    if checks_for_string && rules.on(&changes::llamacpp::CAPS_TYPED_CONTENT_RECHECK) {
        let p = caps_try_execute(
            prog,
            rules,
            json!([{"role": "user", "content": []}]),
            None,
            None,
        )?;
        let content = p.messages.at_index(0)?.at_str("content")?;
        let used_as_array = content.has_op("selectattr") || content.has_op("array_access");
        if used_as_array && p.success {
            result.supports_typed_content = true;
        }
    }

    // system prompt
    let p = caps_try_execute(
        prog,
        rules,
        json!([
            {"role": "system", "content": "System message"},
            {"role": "user", "content": "User message"},
        ]),
        None,
        None,
    )?;
    if !p.messages.at_index(0)?.at_str("content")?.stats().used {
        result.supports_system_role = false;
    }

    // single tool call, object arguments
    let p = caps_try_execute(
        prog,
        rules,
        tool_messages(json!([call("call00001", json!({"arg": "value"}))])),
        None,
        Some(tools_json()),
    )?;
    if p.success {
        let tool_name = p.tools.at_index(0)?.at_str("function")?.at_str("name")?;
        if !tool_name.stats().used {
            result.supports_tools = false;
        }
        let tool_calls = p.messages.at_index(1)?.at_str("tool_calls")?;
        if !tool_calls.stats().used {
            result.supports_tool_calls = false;
        } else {
            let arg = tool_calls
                .at_index(0)?
                .at_str("function")?
                .at_str("arguments")?
                .at_str("arg")?;
            if arg.stats().used {
                result.supports_object_arguments = true;
            }
        }
    }

    if !result.supports_object_arguments {
        // single tool call, string arguments
        let p = caps_try_execute(
            prog,
            rules,
            tool_messages(json!([call("call00001", json!(r#"{"arg": "value"}"#))])),
            None,
            Some(tools_json()),
        )?;
        if !p.success {
            result.supports_tool_calls = false;
            result.supports_tools = false;
        } else {
            let tool_name = p.tools.at_index(0)?.at_str("function")?.at_str("name")?;
            if !tool_name.stats().used {
                result.supports_tools = false;
            }
            let tool_calls = p.messages.at_index(1)?.at_str("tool_calls")?;
            if !tool_calls.stats().used {
                result.supports_tool_calls = false;
            }
        }
    }

    // parallel tool calls
    let args = if result.supports_object_arguments {
        json!({"arg": "value"})
    } else {
        json!(r#"{"arg": "value"}"#)
    };
    let p = caps_try_execute(
        prog,
        rules,
        tool_messages(json!([
            call("call00001", args.clone()),
            call("call00002", args)
        ])),
        None,
        Some(tools_json()),
    )?;
    if !p.success {
        result.supports_parallel_tool_calls = false;
    } else {
        let tool_calls = p.messages.at_index(1)?.at_str("tool_calls")?;
        if !tool_calls.at_index(1)?.at_str("function")?.stats().used {
            result.supports_parallel_tool_calls = false;
        }
    }

    // preserve reasoning (before `caps_preserve_reasoning_probe`, whether
    // an earlier turn's reasoning_content is read at all: a probe that
    // changes no render, so the build's rule is read, not noted)
    if !rules.has(&changes::llamacpp::CAPS_PRESERVE_REASONING_PROBE) {
        let p = caps_try_execute(
            prog,
            rules,
            json!([
                {"role": "user", "content": "User message"},
                {"role": "assistant", "content": "Assistant message", "reasoning_content": "Reasoning content"},
                {"role": "user", "content": "User message"},
            ]),
            None,
            None,
        )?;
        if p.messages
            .at_index(1)?
            .at_str("reasoning_content")?
            .stats()
            .used
        {
            result.supports_preserve_reasoning = true;
        }
        return reasoning_effort_probe(prog, rules, result);
    }
    let placeholder = "<REASONING_CONTENT_PLACEHOLDER>";
    // (a probe that changes no render at the builds before it: the
    // build's rule is read, not noted)
    let thinking_on = rules.has(&changes::llamacpp::CAPS_PRESERVE_REASONING_ENABLE_THINKING);
    let set_preserve = |ctx: &mut Context| -> Result<()> {
        if thinking_on {
            ctx.set_val("enable_thinking", Value::bool(true))?;
        }
        caps_apply_preserve_reasoning(ctx, true)
    };
    let p = caps_try_execute(
        prog,
        rules,
        json!([
            {"role": "user", "content": "User message"},
            {"role": "assistant", "content": "Assistant message", "reasoning_content": placeholder},
            {"role": "user", "content": "User message"},
            {"role": "assistant", "content": "Assistant message", "reasoning_content": "Reasoning content"},
            {"role": "user", "content": "User message"},
        ]),
        Some(&set_preserve),
        None,
    )?;
    if p.output.contains(placeholder) {
        result.supports_preserve_reasoning = true;
    }

    reasoning_effort_probe(prog, rules, result)
}

/// The reasoning-effort probe of [`caps_get_with`].
fn reasoning_effort_probe(
    prog: &Program,
    rules: &Rc<changes::Rules>,
    mut result: Caps,
) -> Result<Caps> {
    // reasoning effort (a probe that changes no render: the build's rule
    // is read, not noted)
    if !rules.has(&changes::llamacpp::CAPS_REASONING_EFFORT_PROBE) {
        result.probes_reasoning_effort = false;
        return Ok(result);
    }
    let set_effort = |ctx: &mut Context| -> Result<()> {
        ctx.set_val("enable_thinking", Value::bool(true))?;
        caps_apply_reasoning_effort(ctx, "low")
    };
    let p = caps_try_execute(
        prog,
        rules,
        json!([{"role": "user", "content": "User message"}]),
        Some(&set_effort),
        None,
    )?;
    result.supports_reasoning_effort = p.ctx.get_val("reasoning_effort").stats().used;

    Ok(result)
}
