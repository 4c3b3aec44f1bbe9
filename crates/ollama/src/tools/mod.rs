//! `tools/`: the tool-call parser Ollama derives from a Go TEMPLATE (not ported yet, scaffold).
