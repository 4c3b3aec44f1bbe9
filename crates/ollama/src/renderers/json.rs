//! Go's `encoding/json` encoding of Ollama's request types, byte for byte,
//! as the renderers produce it with `json.Marshal`, `json.MarshalIndent`
//! and `json.NewEncoder(..).SetEscapeHTML(false)`.
//!
//! What Go does here:
//!
//! - Struct fields come out in declaration order, `omitempty` fields only
//!   when set (`api/types.go`).
//! - Values decoded from the request into `any` (tool-call argument
//!   values, `items`, `enum`, `$defs`) are Go maps: their keys come out
//!   sorted, at every depth. Only the top level of tool-call arguments and
//!   tool properties keeps request order (ordered maps).
//! - Ordered maps write their keys with easyjson's writer (`\u0008` and
//!   `\u000c` rather than `\b` and `\f`) and their values with
//!   `json.Marshal`, so everything inside them is HTML-escaped even when the
//!   outer encoder is told not to escape HTML.
//! - Numbers are `float64`: `5`, `1e+21`, `1e-7`, `12345678901234567000`.

use crate::api::{OrderedArgs, Tool, ToolFunction, ToolFunctionParameters, ToolProperty};
use gotmpl::encoding_json::encode_string;
use serde_json::{Map, Value as Json};

use super::text::json_f64;

/// Go's `appendString`: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other
/// control characters as `\u00XX`, U+2028/U+2029 always, and `<`, `>`,
/// `&` when `html` is set.
pub(crate) fn write_string(out: &mut String, s: &str, html: bool) {
    encode_string(out, s, html);
}

/// A key of an ordered map: easyjson's `Writer.String` with HTML escaping.
pub(crate) fn write_key(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&') => {
                out.push_str("\\u00");
                out.push(HEX[(c as usize) >> 4] as char);
                out.push(HEX[(c as usize) & 0xf] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's float64 encoder.
pub(crate) fn write_f64(out: &mut String, f: f64) {
    // JSON input cannot hold NaN or infinities, the only values Go refuses.
    match gotmpl::encoding_json::marshal(&gotmpl::Value::float(f)) {
        Ok(s) => out.push_str(&s),
        Err(_) => out.push_str("null"),
    }
}

/// `json.Marshal` of a value decoded from JSON into `any`.
pub(crate) fn write_any(out: &mut String, v: &Json, html: bool) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => write_f64(out, json_f64(n)),
        Json::String(s) => write_string(out, s, html),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_any(out, item, html);
            }
            out.push(']');
        }
        Json::Object(obj) => write_go_map(out, obj, html),
    }
}

/// A `map[string]any`: keys sorted bytewise.
fn write_go_map(out: &mut String, obj: &Map<String, Json>, html: bool) {
    let mut entries: Vec<(&String, &Json)> = obj.iter().collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, k, html);
        out.push(':');
        write_any(out, v, html);
    }
    out.push('}');
}

/// `json.Marshal(v)` of a value decoded into `any`, HTML-escaped.
pub(crate) fn any(v: &Json) -> String {
    let mut out = String::new();
    write_any(&mut out, v, true);
    out
}

/// [`any`] without HTML escaping (`Encoder.SetEscapeHTML(false)`).
pub(crate) fn any_unescaped(v: &Json) -> String {
    let mut out = String::new();
    write_any(&mut out, v, false);
    out
}

/// `json.Marshal(s)` of a string, HTML-escaped.
pub(crate) fn string(s: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, s, true);
    out
}

/// `ToolCallFunctionArguments.MarshalJSON`: request order, `{}` when unset.
pub(crate) fn write_args(out: &mut String, args: &OrderedArgs) {
    let Some(args) = args else {
        out.push_str("{}");
        return;
    };
    out.push('{');
    for (i, (k, v)) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_key(out, k);
        out.push(':');
        write_any(out, v, true);
    }
    out.push('}');
}

/// `json.Marshal(f.Arguments)`: `null` when the request sent null.
pub(crate) fn call_args(f: &crate::api::ToolCallFunction) -> String {
    if f.arguments_null {
        return "null".into();
    }
    args(&f.arguments)
}

/// `json.Marshal(args)` of tool-call arguments.
pub(crate) fn args(args: &OrderedArgs) -> String {
    let mut out = String::new();
    write_args(&mut out, args);
    out
}

fn write_strings(out: &mut String, items: &[String], html: bool) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, s, html);
    }
    out.push(']');
}

/// `PropertyType.MarshalJSON`: one type as a string, otherwise a list.
fn write_property_type(out: &mut String, types: &[String], html: bool) {
    match types {
        [one] => write_string(out, one, html),
        _ => write_strings(out, types, html),
    }
}

/// `json.Marshal(api.PropertyType)`.
pub(crate) fn property_type(types: &[String]) -> String {
    let mut out = String::new();
    write_property_type(&mut out, types, true);
    out
}

/// A `ToolProperty`; it only occurs inside an ordered map, so it is always
/// HTML-escaped.
fn write_property(out: &mut String, p: &ToolProperty) {
    let mut fields = Fields::new(out);
    if !p.any_of.is_empty() {
        fields.key("anyOf").push('[');
        for (i, member) in p.any_of.iter().enumerate() {
            if i > 0 {
                fields.out.push(',');
            }
            write_property(fields.out, member);
        }
        fields.out.push(']');
    }
    if !p.type_.is_empty() {
        write_property_type(fields.key("type"), &p.type_, true);
    }
    if let Some(items) = p.items.as_ref().filter(|v| !v.is_null()) {
        write_any(fields.key("items"), items, true);
    }
    if !p.description.is_empty() {
        write_string(fields.key("description"), &p.description, true);
    }
    if let Some(values) = p.enum_.as_ref().filter(|e| !e.is_empty()) {
        let out = fields.key("enum");
        out.push('[');
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_any(out, v, true);
        }
        out.push(']');
    }
    if let Some(props) = &p.properties {
        write_properties(fields.key("properties"), props);
    }
    if let Some(required) = p.required.as_ref().filter(|r| !r.is_empty()) {
        write_strings(fields.key("required"), required, true);
    }
    fields.finish();
}

/// A `*ToolPropertiesMap` that is set: request order.
fn write_properties(out: &mut String, props: &[(String, ToolProperty)]) {
    out.push('{');
    for (i, (k, p)) in props.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_key(out, k);
        out.push(':');
        write_property(out, p);
    }
    out.push('}');
}

/// `json.Marshal` of a `ToolProperty` (as inside a properties map).
pub(crate) fn property(p: &ToolProperty) -> String {
    let mut out = String::new();
    write_property(&mut out, p);
    out
}

/// `ToolFunctionParameters`.
fn write_params(out: &mut String, p: &ToolFunctionParameters, html: bool) {
    let mut fields = Fields::new(out);
    write_string(fields.key("type"), &p.type_, html);
    if let Some(defs) = p.defs.as_ref().filter(|v| !v.is_null()) {
        write_any(fields.key("$defs"), defs, html);
    }
    if let Some(items) = p.items.as_ref().filter(|v| !v.is_null()) {
        write_any(fields.key("items"), items, html);
    }
    if let Some(required) = p.required.as_ref().filter(|r| !r.is_empty()) {
        write_strings(fields.key("required"), required, html);
    }
    let out = fields.key("properties");
    match &p.properties {
        Some(props) => write_properties(out, props),
        None => out.push_str("null"),
    }
    fields.finish();
}

/// `ToolFunction`.
fn write_function(out: &mut String, f: &ToolFunction, html: bool) {
    let mut fields = Fields::new(out);
    write_string(fields.key("name"), &f.name, html);
    if !f.description.is_empty() {
        write_string(fields.key("description"), &f.description, html);
    }
    write_params(fields.key("parameters"), &f.parameters, html);
    fields.finish();
}

/// `Tool`.
fn write_tool(out: &mut String, t: &Tool, html: bool) {
    let mut fields = Fields::new(out);
    write_string(fields.key("type"), &t.type_, html);
    if let Some(items) = t.items.as_ref().filter(|v| !v.is_null()) {
        write_any(fields.key("items"), items, html);
    }
    write_function(fields.key("function"), &t.function, html);
    fields.finish();
}

/// `json.Marshal(tool)`; `html: false` for an encoder that does not escape
/// HTML (the properties stay escaped).
pub(crate) fn tool(t: &Tool, html: bool) -> String {
    let mut out = String::new();
    write_tool(&mut out, t, html);
    out
}

/// `json.Marshal(tools)` of a non-nil `[]api.Tool`.
pub(crate) fn tools(ts: &[Tool]) -> String {
    let mut out = String::from("[");
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_tool(&mut out, t, true);
    }
    out.push(']');
    out
}

/// `json.Marshal(tool.Function)`; see [`tool`] for `html`.
pub(crate) fn function(f: &ToolFunction, html: bool) -> String {
    let mut out = String::new();
    write_function(&mut out, f, html);
    out
}

/// `json.Marshal(tool.Function.Parameters)`; see [`tool`] for `html`.
pub(crate) fn params(p: &ToolFunctionParameters, html: bool) -> String {
    let mut out = String::new();
    write_params(&mut out, p, html);
    out
}

/// Writes `{"k":v,...}` one field at a time.
struct Fields<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut String) -> Fields<'a> {
        out.push('{');
        Fields { out, first: true }
    }

    /// Writes the separator and `"name":`, and returns the output for the
    /// value.
    fn key(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push('"');
        self.out.push_str(name);
        self.out.push_str("\":");
        self.out
    }

    fn finish(self) {
        self.out.push('}');
    }
}

/// `addJSONSpaces` (`json.go`): a space after every `:` and `,` outside
/// strings, as Python's `json.dumps` separators.
pub(crate) fn add_spaces(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() + compact.len() / 8);
    let (mut in_str, mut esc) = (false, false);
    for c in compact.chars() {
        out.push(c);
        if in_str {
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            ':' | ',' => out.push(' '),
            _ => {}
        }
    }
    out
}

/// `json.Indent(dst, compact, "", indent)` of compact JSON: a newline and
/// indentation after `{`, `[` and `,`, `": "` after keys, and `{}` / `[]`
/// for empty containers.
pub(crate) fn indent(compact: &str, indent: &str) -> String {
    fn newline(out: &mut String, indent: &str, depth: usize) {
        out.push('\n');
        for _ in 0..depth {
            out.push_str(indent);
        }
    }
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut in_str, mut esc) = (false, false);
    let mut need_indent = false;
    let mut depth = 0usize;
    for c in compact.chars() {
        if in_str {
            out.push(c);
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if need_indent && c != '}' && c != ']' {
            need_indent = false;
            depth += 1;
            newline(&mut out, indent, depth);
        }
        match c {
            '"' => {
                in_str = true;
                out.push(c);
            }
            '{' | '[' => {
                need_indent = true;
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, indent, depth);
            }
            ':' => out.push_str(": "),
            '}' | ']' => {
                if need_indent {
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, indent, depth);
                }
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ChatRequest;

    fn request(s: &str) -> ChatRequest {
        ChatRequest::decode(&serde_json::from_str(s).unwrap()).unwrap()
    }

    #[test]
    fn arguments_keep_order_nested_maps_sort() {
        let r = request(
            r#"{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f",
               "arguments":{"z":{"b":1,"a":[1.5,12345678901234567890,1e21,1e-7]},"a<":"x&y","\b":"\b\f"}}}]}]}"#,
        );
        assert_eq!(
            args(&r.messages[0].tool_calls[0].function.arguments),
            r#"{"z":{"a":[1.5,12345678901234567000,1e+21,1e-7],"b":1},"a\u003c":"x\u0026y","\u0008":"\b\f"}"#
        );
        assert_eq!(args(&None), "{}");
    }

    #[test]
    fn tools_like_go() {
        let r = request(
            r#"{"tools":[{"type":"function","function":{"name":"f<","description":"d&",
               "parameters":{"type":"object","required":["a"],"properties":{"b":{"type":["string","null"],"description":"<b>",
               "enum":[],"items":{"y":1,"x":2}},"a":{"type":"object","properties":{"q":{"type":"string"},"p":{}}}}}}},
               {"type":"function","function":{"name":"g","parameters":{"type":"object"}}}]}"#,
        );
        let ts = r.tools.unwrap();
        assert_eq!(
            tool(&ts[0], true),
            r#"{"type":"function","function":{"name":"f\u003c","description":"d\u0026","parameters":{"type":"object","required":["a"],"properties":{"b":{"type":["string","null"],"items":{"x":2,"y":1},"description":"\u003cb\u003e"},"a":{"type":"object","properties":{"q":{"type":"string"},"p":{}}}}}}}"#
        );
        assert_eq!(
            tool(&ts[0], false),
            r#"{"type":"function","function":{"name":"f<","description":"d&","parameters":{"type":"object","required":["a"],"properties":{"b":{"type":["string","null"],"items":{"x":2,"y":1},"description":"\u003cb\u003e"},"a":{"type":"object","properties":{"q":{"type":"string"},"p":{}}}}}}}"#
        );
        assert_eq!(
            tool(&ts[1], true),
            r#"{"type":"function","function":{"name":"g","parameters":{"type":"object","properties":null}}}"#
        );
    }

    #[test]
    fn spaces_and_indent() {
        assert_eq!(
            add_spaces(r#"{"a":"x:,\"y","b":[1,2]}"#),
            r#"{"a": "x:,\"y", "b": [1, 2]}"#
        );
        assert_eq!(
            indent(r#"{"a":{},"b":[1,{"c":"[,]"}],"d":[]}"#, "  "),
            "{\n  \"a\": {},\n  \"b\": [\n    1,\n    {\n      \"c\": \"[,]\"\n    }\n  ],\n  \"d\": []\n}"
        );
    }
}
