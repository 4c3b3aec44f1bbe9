//! What `ollama create` makes of a parsed Modelfile (parser/parser.go
//! `Modelfile.CreateRequest`, and api/types.go `FormatParams` for each
//! PARAMETER): the model's FROM, TEMPLATE, SYSTEM, LICENSEs, RENDERER,
//! PARSER, REQUIRES, MESSAGEs and typed parameters, or Ollama's error.
//!
//! No file system: FROM is kept as written (what Ollama does when it names
//! no local file), ADAPTER and DRAFT paths are listed for the caller.

use serde_json::{Map, Value as Json};

use crate::modelfile::Modelfile;

/// A MESSAGE: role and content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
}

/// `api.CreateRequest`'s model side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CreateRequest {
    /// FROM (the last one).
    pub from: String,
    /// TEMPLATE.
    pub template: String,
    /// SYSTEM.
    pub system: String,
    /// LICENSEs, in order.
    pub license: Vec<String>,
    /// RENDERER.
    pub renderer: String,
    /// PARSER.
    pub parser: String,
    /// REQUIRES, without its `v`.
    pub requires: String,
    /// MESSAGEs.
    pub messages: Vec<Message>,
    /// PARAMETERs as typed JSON values (`stop` a list), by name.
    pub parameters: Map<String, Json>,
    /// ADAPTER paths (Ollama reads the files).
    pub adapters: Vec<String>,
    /// DRAFT paths (Ollama reads the files).
    pub drafts: Vec<String>,
    /// `warning: parameter X is deprecated` lines Ollama prints.
    pub warnings: Vec<String>,
}

/// parser/parser.go `deprecatedParameters`.
const DEPRECATED: [&str; 9] = [
    "penalize_newline",
    "low_vram",
    "f16_kv",
    "logits_all",
    "vocab_only",
    "use_mlock",
    "mirostat",
    "mirostat_tau",
    "mirostat_eta",
];

#[derive(Clone, Copy)]
enum Kind {
    Float32,
    Int,
    Strings,
    IntPointer,
    BoolPointer,
}

/// api.Options' JSON names and field kinds (api/types.go `Options`,
/// `Runner`; its only bool is the pointer `use_mmap`).
fn kind(name: &str) -> Option<Kind> {
    Some(match name {
        "num_ctx" | "num_batch" | "num_gpu" | "num_thread" | "draft_num_predict" | "num_keep"
        | "seed" | "num_predict" | "top_k" | "repeat_last_n" => Kind::Int,
        "main_gpu" => Kind::IntPointer,
        "use_mmap" => Kind::BoolPointer,
        "top_p" | "min_p" | "typical_p" | "temperature" | "repeat_penalty" | "presence_penalty"
        | "frequency_penalty" => Kind::Float32,
        "stop" => Kind::Strings,
        _ => return None,
    })
}

/// `strconv.ParseBool`.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// `strconv.ParseFloat(s, 32)`: Go's syntax, an error when the value
/// overflows a float32.
fn parse_float32(s: &str) -> Option<f32> {
    let v = gotmpl::strconv::parse_float(s).ok()?;
    let f = v as f32;
    (f.is_finite() || !v.is_finite()).then_some(f)
}

/// A float32 as Go's encoding/json writes it: its shortest form, with no
/// fraction when it is whole (`1`, not `1.0`).
fn float32_json(f: f32) -> Json {
    if f.fract() == 0.0 && f.abs() < 9e18 {
        return Json::from(f as i64);
    }
    f.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Json::Null, Json::Number)
}

/// `FormatParams` for one PARAMETER.
fn format_param(name: &str, value: &str) -> Result<Json, String> {
    let vals = format!("[{value}]");
    let k = kind(name).ok_or_else(|| format!("unknown parameter '{name}'"))?;
    Ok(match k {
        Kind::Float32 => {
            float32_json(parse_float32(value).ok_or(format!("invalid float value {vals}"))?)
        }
        Kind::Int | Kind::IntPointer => Json::from(
            value
                .parse::<i64>()
                .map_err(|_| format!("invalid int value {vals}"))?,
        ),
        Kind::BoolPointer => {
            Json::Bool(parse_bool(value).ok_or(format!("invalid bool value {vals}"))?)
        }
        Kind::Strings => Json::Array(vec![Json::from(value)]),
    })
}

/// golang.org/x/mod/semver `IsValid` (a `v` and up to three numbers, then
/// a pre-release and build).
fn semver_valid(v: &str) -> bool {
    fn int(v: &str) -> Option<&str> {
        let n = v.bytes().take_while(u8::is_ascii_digit).count();
        (n > 0 && !(v.starts_with('0') && n != 1)).then(|| &v[n..])
    }
    fn ident(c: u8) -> bool {
        c.is_ascii_alphanumeric() || c == b'-'
    }
    fn bad_num(v: &str) -> bool {
        v.len() > 1 && v.bytes().all(|c| c.is_ascii_digit()) && v.starts_with('0')
    }
    let Some(mut rest) = v.strip_prefix('v').and_then(int) else {
        return false;
    };
    for _ in 0..2 {
        if rest.is_empty() {
            return true;
        }
        let Some(r) = rest.strip_prefix('.').and_then(int) else {
            return false;
        };
        rest = r;
    }
    if let Some(pre) = rest.strip_prefix('-') {
        let end = pre.find('+').unwrap_or(pre.len());
        let (ids, after) = pre.split_at(end);
        if !ids.bytes().all(|c| ident(c) || c == b'.')
            || ids.split('.').any(|id| id.is_empty() || bad_num(id))
        {
            return false;
        }
        rest = after;
    }
    if let Some(build) = rest.strip_prefix('+') {
        if !build.bytes().all(|c| ident(c) || c == b'.') || build.split('.').any(str::is_empty) {
            return false;
        }
        rest = "";
    }
    rest.is_empty()
}

impl Modelfile {
    /// `CreateRequest`: what `ollama create` sends for this Modelfile, or
    /// Ollama's error.
    pub fn create_request(&self) -> Result<CreateRequest, String> {
        let mut req = CreateRequest::default();
        for c in &self.commands {
            match c.name.as_str() {
                "model" => req.from = c.args.clone(),
                "adapter" => req.adapters.push(c.args.clone()),
                "draft" => req.drafts.push(c.args.clone()),
                "template" => req.template = c.args.clone(),
                "system" => req.system = c.args.clone(),
                "license" => req.license.push(c.args.clone()),
                "renderer" => req.renderer = c.args.clone(),
                "parser" => req.parser = c.args.clone(),
                "requires" => {
                    let v = if c.args.starts_with('v') {
                        c.args.clone()
                    } else {
                        format!("v{}", c.args)
                    };
                    if !semver_valid(&v) {
                        return Err("requires must be a valid semver (e.g. 0.14.0)".into());
                    }
                    req.requires = v[1..].to_string();
                }
                "message" => {
                    let (role, content) = c.args.split_once(": ").unwrap_or((&c.args, ""));
                    req.messages.push(Message {
                        role: role.into(),
                        content: content.into(),
                    });
                }
                name if DEPRECATED.contains(&name) => req
                    .warnings
                    .push(format!("warning: parameter {name} is deprecated")),
                name => {
                    let v = format_param(name, &c.args)?;
                    match (req.parameters.get_mut(name), v) {
                        (Some(Json::Array(have)), Json::Array(more)) => have.extend(more),
                        (_, v) => {
                            req.parameters.insert(name.to_string(), v);
                        }
                    }
                }
            }
        }
        Ok(req)
    }
}

impl CreateRequest {
    /// Fills a render case's `model` from this request, where the case
    /// does not say otherwise (`template`, `system`, `messages`,
    /// `renderer`, `parser`), and merges the PARAMETERs under the request's
    /// `options` as Ollama's `modelOptions` does: the request's options win
    /// key by key (a request's `stop` replaces the Modelfile's).
    pub fn fill_case(&self, case: &mut Json) {
        let messages = self
            .messages
            .iter()
            .map(|x| (x.role.as_str(), x.content.as_str()));
        fill_model(
            case,
            &[
                ("template", Some(self.template.as_str())),
                ("system", Some(self.system.as_str())),
                ("renderer", Some(self.renderer.as_str())),
                ("parser", Some(self.parser.as_str())),
            ],
            messages,
        );
        options_under_request(case, &self.parameters);
    }
}

/// Sets each `(key, value)` of a case's `model` that the case leaves
/// absent or `null`; an empty value (or `None`) sets nothing. `messages`
/// (role, content) likewise, when there are any.
pub(crate) fn fill_model<'a>(
    case: &mut Json,
    keys: &[(&str, Option<&str>)],
    messages: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
) {
    if !case["model"].is_object() {
        case["model"] = Json::Object(Map::new());
    }
    let m = &mut case["model"];
    let free = |m: &Json, k: &str| m.get(k).is_none_or(Json::is_null);
    for (k, v) in keys {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            if free(m, k) {
                m[*k] = Json::from(v);
            }
        }
    }
    if messages.len() > 0 && free(m, "messages") {
        m["messages"] = Json::Array(
            messages
                .map(|(role, content)| serde_json::json!({"role": role, "content": content}))
                .collect(),
        );
    }
}

/// Puts option defaults (a Modelfile's PARAMETERs, a params layer) under
/// the request's `options` as `modelOptions` does: the request's win key
/// by key (its `stop` replaces theirs).
pub(crate) fn options_under_request(case: &mut Json, defaults: &Map<String, Json>) {
    if defaults.is_empty() || !case["request"].is_object() {
        return;
    }
    let route = case
        .get("endpoint")
        .and_then(Json::as_str)
        .and_then(ollama::compat::Route::from_name);
    if route.is_some() {
        // A compatibility route's body has no `options`; the converted
        // request's go over the model's (`model.parameters`).
        if case["model"].is_object() {
            case["model"]["parameters"] = Json::Object(defaults.clone());
        }
        return;
    }
    let mut options = defaults.clone();
    if let Some(Json::Object(asked)) = case["request"].get("options") {
        for (k, v) in asked {
            options.insert(k.clone(), v.clone());
        }
    }
    case["request"]["options"] = Json::Object(options);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_takes_the_modelfile_under_what_it_says() {
        let f = crate::modelfile::parse(
            b"FROM x\nTEMPLATE {{ .Prompt }}\nSYSTEM sys\nPARAMETER num_ctx 64\nPARAMETER stop a\nMESSAGE user hi\n",
        )
        .unwrap();
        let mut case = serde_json::json!({"model": {"system": "mine"},
            "request": {"model": "m", "options": {"stop": ["b"]}}});
        f.create_request().unwrap().fill_case(&mut case);
        assert_eq!(
            case,
            serde_json::json!({"model": {"system": "mine", "template": "{{ .Prompt }}",
                "messages": [{"role": "user", "content": "hi"}]},
                "request": {"model": "m", "options": {"num_ctx": 64, "stop": ["b"]}}})
        );
    }

    #[test]
    fn semver_is_x_mods() {
        for v in [
            "v1",
            "v1.2",
            "v1.2.3",
            "v1.2.3-rc.1",
            "v1.2.3+build.5",
            "v0.14.0",
            "v1.2.3-0a",
        ] {
            assert!(semver_valid(v), "{v}");
        }
        for v in [
            "1.2.3",
            "v01.2.3",
            "v1.2.3-01",
            "v1.2.3-",
            "v1.2.3+",
            "v",
            "vabc",
            "v1.2.3.4",
            "v1.2-rc",
        ] {
            assert!(!semver_valid(v), "{v}");
        }
    }

    #[test]
    fn parameters_are_typed_and_stop_accumulates() {
        let f = crate::modelfile::parse(
            b"FROM x\nPARAMETER num_ctx 8192\nPARAMETER temperature 0.7\nPARAMETER stop a\nPARAMETER stop b\nPARAMETER use_mmap true\nPARAMETER mirostat 1\n",
        )
        .unwrap();
        let r = f.create_request().unwrap();
        assert_eq!(
            Json::Object(r.parameters),
            serde_json::json!({"num_ctx": 8192, "temperature": 0.7, "stop": ["a", "b"], "use_mmap": true})
        );
        let f = crate::modelfile::parse(b"FROM x\nPARAMETER top_p 1.0").unwrap();
        assert_eq!(
            Json::Object(f.create_request().unwrap().parameters).to_string(),
            r#"{"top_p":1}"#
        );
        assert_eq!(r.warnings, ["warning: parameter mirostat is deprecated"]);
        let f = crate::modelfile::parse(b"FROM x\nPARAMETER num_ctx big").unwrap();
        assert_eq!(f.create_request().unwrap_err(), "invalid int value [big]");
    }
}
