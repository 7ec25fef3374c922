//! The browser playground's entry point, built by Trunk (`make play`, Trunk.toml
//! `[build] example = "playground"`).
//!
//! Why an example and not the `kubesim` binary: Trunk 0.21 picks the wasm artifact by target
//! name, and the library (a `cdylib`, for wasm-pack) and the binary are both named
//! `kubesim`, so `data-bin="kubesim"` matches two artifacts and the build stops with
//! "found more than one target artifact". The example has a name of its own.

#[cfg(target_arch = "wasm32")]
fn main() {
    kubesim::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the playground runs in a browser: `make play` builds and serves it");
}
