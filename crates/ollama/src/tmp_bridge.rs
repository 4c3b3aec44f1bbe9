//! TEMPORARY (local only, never committed): stands in for the renderer and
//! parser ports while they are being written.
pub mod renderers {
    use crate::api;
    pub fn render_with_renderer(
        name: &str,
        _m: &[api::Message],
        _t: Option<&[api::Tool]>,
        _k: Option<&api::Think>,
    ) -> Result<String, String> {
        Err(format!("unknown renderer {:?}", name))
    }
    pub fn leading_bos(_n: &str) -> Option<&'static str> {
        None
    }
    pub fn resolve_renderer_name(n: &str, _m: &str, _p: Option<u64>) -> String {
        n.to_string()
    }
}
pub mod parsers {
    use crate::api;
    pub fn parser_capabilities(_n: &str) -> Option<(bool, bool)> {
        None
    }
    pub fn harmony_rename_tools(t: &[api::Tool]) -> Vec<api::Tool> {
        t.to_vec()
    }
}
