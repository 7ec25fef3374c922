//! Stack room for deeply nested objects.
//!
//! Go's decoders accept objects nested 10,000 levels deep, and so does kubesim. Every walk
//! over an object (parsing, typed decoding, validation, field management, the encodings,
//! patches, dropping a `serde_json::Value`) recurses once per level, which at that depth
//! takes about 12 MiB of stack in a release build and 30 MiB in a debug one: more than the
//! 2 MiB of a test thread or the 8 MiB of a main thread. Each depth limit is Go's, so rather
//! than refuse what the real server takes, the engine's entry points run on a stack of
//! their own when the caller's has less room than that left. The native server's engine
//! threads are big enough already (`server::ENGINE_STACK_BYTES`) and never switch.
//!
//! Switching must be cheap, as an in-process host (a test calling `Engine::handle`) switches
//! on every request: a fresh stack per call (`stacker::grow`) costs its mapping and its page
//! faults, 30 µs, five times a small read. So each thread keeps the stack it switched to
//! and reuses it: reserved address space with a guard page below, backed by memory only
//! where a request has reached.
//!
//! wasm32 has no stack switching here (its shadow stack is fixed at link time): the browser
//! and Node hosts take as deep an object as their stack holds.

/// Stack a request may need at the deepest nesting Go allows, with room to spare.
#[cfg(not(target_arch = "wasm32"))]
const NEEDED: usize = 64 << 20;

/// The size of the stack the engine switches to.
#[cfg(not(target_arch = "wasm32"))]
const SIZE: usize = 256 << 20;

/// Runs `f` on the current stack if it has [`NEEDED`] left, otherwise on the thread's
/// roomy one.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    roomy::run(f)
}

/// Other native targets: a fresh stack when the caller's is short.
#[cfg(all(
    not(target_arch = "wasm32"),
    not(all(target_os = "linux", target_env = "gnu"))
))]
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(NEEDED, SIZE, f)
}

/// wasm32: `f`, on the one stack there is.
#[cfg(target_arch = "wasm32")]
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod roomy {
    use super::{NEEDED, SIZE};
    use std::cell::{Cell, RefCell};

    thread_local! {
        /// The thread's roomy stack while it is not in use.
        static SPARE: RefCell<Option<Region>> = const { RefCell::new(None) };
        /// Whether this thread runs on its roomy stack now (its room is known: no check).
        static INSIDE: Cell<bool> = const { Cell::new(false) };
    }

    /// A mapped stack: `SIZE` bytes of address space, the lowest page a guard.
    struct Region {
        base: *mut u8,
    }

    const GUARD: usize = 64 << 10;

    impl Region {
        fn map() -> Option<Self> {
            // SAFETY: a private anonymous mapping at an address of the kernel's choosing;
            // nothing else refers to it. The guard below the stack faults on overflow.
            unsafe {
                let base = libc::mmap(
                    std::ptr::null_mut(),
                    SIZE,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
                    -1,
                    0,
                );
                if base == libc::MAP_FAILED {
                    return None;
                }
                if libc::mprotect(base, GUARD, libc::PROT_NONE) != 0 {
                    libc::munmap(base, SIZE);
                    return None;
                }
                Some(Region { base: base.cast() })
            }
        }
    }

    impl Drop for Region {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `map`, no longer in use (it is only dropped while
            // spare, or when taken and never switched to).
            unsafe {
                libc::munmap(self.base.cast(), SIZE);
            }
        }
    }

    /// Puts the stack back (and leaves it) however `run` ends.
    struct Leave(Option<Region>);

    impl Drop for Leave {
        fn drop(&mut self) {
            INSIDE.set(false);
            if let Some(region) = self.0.take() {
                SPARE.with(|s| *s.borrow_mut() = Some(region));
            }
        }
    }

    pub(super) fn run<R>(f: impl FnOnce() -> R) -> R {
        if INSIDE.get() || stacker::remaining_stack().is_some_and(|left| left >= NEEDED) {
            return f();
        }
        let Some(region) = SPARE.with(|s| s.borrow_mut().take()).or_else(Region::map) else {
            return stacker::maybe_grow(NEEDED, SIZE, f);
        };
        // SAFETY: past the guard, the region is `SIZE - GUARD` bytes of writable memory,
        // page aligned, used by nothing else while `INSIDE` (a nested `run` does not switch
        // again); the callback does not unwind out of `on_stack`, its panic is carried out.
        let stack = unsafe { region.base.add(GUARD) };
        let leave = Leave(Some(region));
        INSIDE.set(true);
        let mut out = None;
        let panic = unsafe {
            psm::on_stack(stack, SIZE - GUARD, || {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| out = Some(f()))).err()
            })
        };
        drop(leave);
        if let Some(p) = panic {
            std::panic::resume_unwind(p);
        }
        out.expect("the callback returned")
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn depth(n: usize) -> usize {
            let pad = std::hint::black_box([0u8; 1024]);
            if n == 0 {
                pad[0] as usize
            } else {
                depth(n - 1) + std::hint::black_box(pad[n % 1024]) as usize
            }
        }

        #[test]
        fn a_short_stack_switches_to_a_roomy_one_and_keeps_it() {
            // 48 MiB of frames on a 1 MiB thread; twice, the second on the kept stack.
            let t = std::thread::Builder::new().stack_size(1 << 20).spawn(|| {
                let a = run(|| depth(48 << 10));
                assert!(SPARE.with(|s| s.borrow().is_some()));
                let b = run(|| run(|| depth(48 << 10)));
                (a, b, INSIDE.get())
            });
            assert_eq!(t.unwrap().join().unwrap(), (0, 0, false));
        }

        #[test]
        fn a_panic_on_the_roomy_stack_reaches_the_caller() {
            let t = std::thread::Builder::new().stack_size(1 << 20).spawn(|| {
                let caught = std::panic::catch_unwind(|| run(|| panic!("inside")));
                (caught.is_err(), INSIDE.get(), run(|| 7))
            });
            assert_eq!(t.unwrap().join().unwrap(), (true, false, 7));
        }
    }
}
