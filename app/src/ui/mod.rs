//! The Leptos UI: one component per file over the library's logic.

pub mod answer_client;
pub mod answer_pane;
pub mod app;
pub mod browser;
pub mod code_editor;
pub mod compare_pane;
pub mod embed_bridge;
pub mod embed_route;
pub mod embed_view;
pub mod engine_client;
pub mod examples_bar;
pub mod explain_pane;
pub mod generate_pane;
pub mod gguf_pane;
pub mod help;
pub mod hf_client;
pub mod import_pane;
pub mod json_field;
pub mod model_pane;
pub mod prompt_pane;
pub mod request_form;
pub mod request_pane;
pub mod settings;
pub mod sources;
pub mod store;
pub mod store_pane;
pub mod toolbar;

#[cfg(test)]
mod component_tests;
