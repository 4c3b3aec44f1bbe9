//! Promptscope web app entry point: mounts the root component and nothing else.

mod app;
mod editor;
mod examples;
mod output;
mod playground;
mod render;
mod storage;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
