//! `harmony/harmonyparser.go`: not ported yet (scaffold).

use crate::api::{Message, Think, Tool};
use crate::parsers::{Added, Parser};

/// `HarmonyMessageHandler` (scaffold).
#[derive(Debug, Default)]
pub struct HarmonyMessageHandler;

impl HarmonyMessageHandler {
    /// `NewHarmonyMessageHandler()`.
    pub fn new() -> HarmonyMessageHandler {
        HarmonyMessageHandler
    }
}

impl Parser for HarmonyMessageHandler {
    fn init(&mut self, tools: &[Tool], _: Option<&Message>, _: Option<&Think>) -> Vec<Tool> {
        crate::parsers::harmony_rename_tools(tools)
    }
    fn add(&mut self, _: &str, _: bool) -> Result<Added, String> {
        Err("harmony parser not ported yet".into())
    }
    fn preserved_tokens(&self) -> Vec<String> {
        Vec::new()
    }
    fn has_tool_support(&self) -> bool {
        true
    }
    fn has_thinking_support(&self) -> bool {
        true
    }
}
