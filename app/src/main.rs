//! Promptscope web app entry point: mounts the root component and nothing else.
//! The app is built for wasm32 only; on other targets this binary is empty
//! (the logic lives in the library, whose tests run natively).

#[cfg(target_arch = "wasm32")]
mod ui;

fn main() {
    #[cfg(target_arch = "wasm32")]
    {
        console_error_panic_hook::set_once();
        leptos::mount::mount_to_body(ui::app::App);
    }
}
