//! The `kubesim` binary: natively the `serve` command; in the browser (wasm32, built by
//! Trunk) the playground page, with the engine running in the tab.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(target_arch = "wasm32")]
fn main() {
    kubesim::ui::start();
}
