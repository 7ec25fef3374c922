//! The `kubesim` binary: natively the `serve` command; in the browser (wasm32, built by
//! Trunk) the playground page, with the engine running in the tab.

#[cfg(not(target_arch = "wasm32"))]
mod cli;

/// The native server allocates and frees many small trees per request (decoded bodies, field
/// sets, watch frames) on several threads. jemalloc's thread caches serve that for about a
/// third more creates per second than glibc's malloc (wrk on `kubesim serve`), and, unlike
/// mimalloc (tried), it keeps resident memory per stored object as low as glibc with
/// `malloc_trim`. The library leaves the allocator to whoever embeds it.
#[cfg(all(not(target_arch = "wasm32"), feature = "jemalloc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read at its first allocation (the `_rjem_` prefix is
/// tikv-jemalloc-sys's). `dirty_decay_ms:-1`: freed pages stay with the allocator instead of
/// going back to the system on jemalloc's ten-second decay, which also hands the large
/// extents of every big response back at once: a LIST of 30k objects (20 MB) page-faulted and
/// zeroed its whole buffer on each request, 15 ms where the same list into reused pages takes
/// 4.5 ms. The server returns the freed memory itself instead ([`purge_jemalloc`], after each
/// compaction and every ten seconds), so resident memory still falls back after a burst.
/// `_RJEM_MALLOC_CONF` in the environment still overrides it.
#[cfg(all(not(target_arch = "wasm32"), feature = "jemalloc"))]
#[used]
#[export_name = "_rjem_malloc_conf"]
static MALLOC_CONF: &u8 = &b"dirty_decay_ms:-1\0"[0];

/// jemalloc's `arena.<all>.purge`: every arena's unused dirty pages go back to the system
/// now (with decay off, [`MALLOC_CONF`], only this returns them).
#[cfg(all(not(target_arch = "wasm32"), feature = "jemalloc"))]
fn purge_jemalloc() {
    // MALLCTL_ARENAS_ALL is 4096.
    const PURGE_ALL: &[u8] = b"arena.4096.purge\0";
    // SAFETY: a NUL-terminated control name, and no old or new value to read or write.
    unsafe {
        tikv_jemalloc_sys::mallctl(
            PURGE_ALL.as_ptr().cast(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        );
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    #[cfg(feature = "jemalloc")]
    kubesim::server::set_memory_release(purge_jemalloc);
    std::process::exit(cli::main());
}

#[cfg(target_arch = "wasm32")]
fn main() {
    kubesim::ui::start();
}
