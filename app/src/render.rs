//! Running a template over JSON data, independent of the UI.

use gotmpl::{Template, Value};

/// Name given to the playground's template; it appears in Go's error texts
/// (`template: t:1: ...`).
pub const TEMPLATE_NAME: &str = "t";

/// Which stage failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The template text did not parse.
    Parse,
    /// The data is not valid JSON.
    Data,
    /// The template failed while executing.
    Exec,
}

impl Stage {
    /// A short heading for the error panel.
    pub fn title(self) -> &'static str {
        match self {
            Stage::Parse => "Template error",
            Stage::Data => "JSON data error",
            Stage::Exec => "Execution error",
        }
    }
}

/// An error to show, with its exact text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderError {
    /// Which stage failed.
    pub stage: Stage,
    /// The error text exactly as the engine reports it.
    pub message: String,
}

/// The result of one run: the output (partial when there is an error) and the error, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    /// Everything the template wrote; on an execution error, what it wrote before failing.
    pub output: String,
    /// The error that stopped the run, if any.
    pub error: Option<RenderError>,
}

impl Rendered {
    fn failed(stage: Stage, message: String, output: String) -> Self {
        Rendered {
            output,
            error: Some(RenderError { stage, message }),
        }
    }
}

/// Parses `template`, parses `data` as JSON (blank data means `null`) and executes.
pub fn render(template: &str, data: &str) -> Rendered {
    let tmpl = match Template::parse(TEMPLATE_NAME, template) {
        Ok(tmpl) => tmpl,
        Err(err) => return Rendered::failed(Stage::Parse, err.to_string(), String::new()),
    };
    let json = if data.trim().is_empty() { "null" } else { data };
    let value = match Value::from_json(json) {
        Ok(value) => value,
        Err(err) => return Rendered::failed(Stage::Data, err.to_string(), String::new()),
    };
    match tmpl.execute(&value) {
        Ok(output) => Rendered {
            output,
            error: None,
        },
        Err(err) => {
            let message = err.error.to_string();
            Rendered::failed(Stage::Exec, message, err.partial)
        }
    }
}
