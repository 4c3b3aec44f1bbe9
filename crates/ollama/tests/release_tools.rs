//! The TEMPLATE's tool-call parser (`tools/tools.go`, which ChatHandler
//! builds as `tools.NewParser(m.Template.Template, req.Tools)` when no
//! built-in parser handles tools) as each supported release reads streamed
//! output: `tests/golden/releases/tools-parser-<tag>.jsonl` hold what
//! v0.30.11's and v0.33.0-rc2's own `tools` package returned (README.md
//! there; v0.30.12-rc0's recording equals v0.33.0-rc2's) for 37 outputs
//! over five templates (no tag, so `{`; `{` and `[` in the template; the
//! named tags `[TOOL_CALLS]` and `<tool_call>`): each chunk's calls and
//! content from `Add`, then `Content()` and the buffer left. Before
//! `tools_brace_in_json_string` a brace or bracket inside a JSON string
//! counts toward the call's end.

use ollama::api::ChatRequest;
use ollama::{parsers, template::Template, tools};
use serde_json::{json, Value as Json};

mod releases_common;

use releases_common::{lines, recording_for, report};

#[test]
fn the_template_tool_parser_per_release() {
    let rows = [&changes::ollama::TOOLS_BRACE_IN_JSON_STRING];
    let mut failures = Vec::new();
    let mut checked = 0;
    for release in changes::Release::SUPPORTED {
        let tag = recording_for(*release, &["0.30.11", "0.33.0-rc2"], &rows);
        for c in lines(&format!("tools-parser-{tag}.jsonl")) {
            let id = c["id"].as_str().unwrap();
            let today = ollama::date::Date::parse("2026-12-07").unwrap();
            let tmpl = Template::parse(c["template"].as_str().unwrap(), today)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            let req = ChatRequest::decode(&json!({"model": "m", "tools": c["tools"]}))
                .unwrap_or_else(|e| panic!("{id}: {}", e.0));
            let mut p = tools::Parser::new(Some(&tmpl), req.tools.as_deref().unwrap_or(&[]));
            p.set_release(*release);
            let mut steps = Vec::new();
            for chunk in c["chunks"].as_array().unwrap() {
                let input = chunk.as_str().unwrap();
                let (calls, content) = p.add(input);
                let calls: Vec<Json> = calls
                    .iter()
                    .map(|t| serde_json::from_str(&parsers::tool_call_json(t).to_json()).unwrap())
                    .collect();
                steps.push(json!({"input": input, "calls": calls, "content": content}));
            }
            let got = json!({
                "tag": p.tag(),
                "steps": steps,
                "final_content": p.content(),
                "final_buffer": String::from_utf8_lossy(p.get_buffer()),
            });
            // arguments compare as objects: Go ranges over a map
            let want = json!({
                "tag": c["tag"],
                "steps": c["steps"],
                "final_content": c["final_content"],
                "final_buffer": c["final_buffer"],
            });
            checked += 1;
            if got != want {
                failures.push(format!(
                    "{release} (recorded at {tag}) {id}:\n  got  {got}\n  want {want}"
                ));
            }
        }
    }
    report("tool-parser outputs", checked, &failures);
}
