//! `make bench`'s one table: each row a cost measured beside the limit it is compared with, in
//! the same run (the bare serializer of the same bytes, a memory copy of them, encoding once),
//! so the ratio means something on any machine. Also: heap per stored object against its JSON
//! (a counting allocator: live bytes, which resident memory cannot show once freed history
//! stays mapped), the native server's rows from scripts/bench-server.sh (wrk), and the wasm
//! sizes from dist/ and pkg-node/.
//!
//! Timings are printed, never asserted. `BENCH_QUICK=1` skips the million-object row;
//! `BENCH_ONLY=engine,page,fanout,memory,server,wasm` picks groups of rows. Run
//! without `--bench` (as `cargo test --all-targets` does) it is a smoke test: every row once,
//! on a few hundred objects.

#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use std::alloc::{GlobalAlloc, Layout};
    use std::hint::black_box;
    use std::sync::atomic::{AtomicIsize, Ordering};
    use std::time::Instant;

    use bytes::Bytes;
    use kubesim::{Body, Config, Engine, WatchStream};
    use serde_json::{json, Value};

    #[cfg(not(feature = "jemalloc"))]
    use std::alloc::System as Inner;
    /// The allocator the `kubesim` binary serves with (jemalloc with its options from
    /// src/main.rs, or the system's without the feature), so that the engine rows measure what
    /// the server does; the limits beside them run under the same allocator.
    #[cfg(feature = "jemalloc")]
    use tikv_jemallocator::Jemalloc as Inner;

    /// src/main.rs's jemalloc options (why: there).
    #[cfg(feature = "jemalloc")]
    #[used]
    #[export_name = "_rjem_malloc_conf"]
    static MALLOC_CONF: &u8 = &b"dirty_decay_ms:-1\0"[0];

    /// The binary's allocator, counting live bytes.
    pub struct Counting;
    static LIVE: AtomicIsize = AtomicIsize::new(0);

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
            Inner.alloc(l)
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
            Inner.dealloc(p, l)
        }
        unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
            LIVE.fetch_add(n as isize - l.size() as isize, Ordering::Relaxed);
            Inner.realloc(p, l, n)
        }
    }

    const COLL: &str = "/apis/apps/v1/namespaces/default/controllerrevisions";

    /// Not under `cargo bench`: every row once, small.
    fn smoke() -> bool {
        !std::env::args().any(|a| a == "--bench")
    }

    /// `n`, or a few hundred in a smoke run.
    fn scaled(n: usize) -> usize {
        if smoke() {
            n.min(300)
        } else {
            n
        }
    }

    /// Seconds per call of `f`, best of a few rounds of at least ~0.3 s each.
    fn time<R>(mut f: impl FnMut() -> R) -> f64 {
        let mut best = f64::MAX;
        let (rounds, secs) = if smoke() { (1, 0.0) } else { (3, 0.3) };
        for _ in 0..rounds {
            let mut n = 0u64;
            let start = Instant::now();
            while n == 0 || start.elapsed().as_secs_f64() < secs {
                black_box(f());
                n += 1;
            }
            best = best.min(start.elapsed().as_secs_f64() / n as f64);
        }
        best
    }

    fn request(method: &str, uri: &str, body: &str) -> http::Request<Bytes> {
        http::Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Bytes::from(body.to_string()))
            .unwrap()
    }

    fn get(e: &mut Engine, uri: &str) -> Bytes {
        match e.handle(request("GET", uri, "")).into_body() {
            Body::Full(b) => b,
            Body::Watch(_) => panic!("a watch"),
        }
    }

    /// A ControllerRevision as a client sends it (the server adds uid, timestamps and
    /// managedFields: about 1.1 KB of JSON once stored).
    fn post_body(i: usize) -> String {
        json!({
            "apiVersion": "apps/v1", "kind": "ControllerRevision",
            "metadata": {"name": format!("bench-{i:08}"), "labels": {"app": "bench", "tier": "backend"}},
            "revision": 1,
            "data": {"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "main", "image": "registry.example/bench:1.0"}]}}}}
        })
        .to_string()
    }

    fn small(i: usize) -> Value {
        json!({
            "kind": "ControllerRevision", "apiVersion": "apps/v1",
            "metadata": {"name": format!("rev-{i:08}"), "namespace": "default",
                "uid": format!("00000000-0000-4000-8000-{i:012}"), "creationTimestamp": "2026-01-01T00:00:00Z"},
            "data": {"spec": {"replicas": 1}}, "revision": 1
        })
    }

    struct Table(Vec<[String; 4]>);

    impl Table {
        fn row(&mut self, what: &str, value: String, limit: String, ratio: String) {
            println!("  {what:<52} {value:>16} {limit:>16} {ratio:>9}");
            self.0.push([what.into(), value, limit, ratio]);
        }
        fn timed(&mut self, what: &str, ours: f64, limit_name: &str, limit: f64) {
            self.row(
                what,
                format!("{:.1} us", ours * 1e6),
                format!("{limit_name} {:.1} us", limit * 1e6),
                format!("{:.2}x", ours / limit),
            );
        }
    }

    fn copy_of(bytes: &[u8]) -> f64 {
        time(|| bytes.to_vec())
    }

    fn engine_rows(t: &mut Table) {
        let mut e = Engine::new(Config::default());
        for i in 0..scaled(30_000) {
            let r = e.handle(request("POST", COLL, &post_body(i)));
            assert_eq!(r.status(), 201);
        }
        let one = get(&mut e, &format!("{COLL}/bench-00000007"));
        let value: Value = serde_json::from_slice(&one).unwrap();
        let uri = format!("{COLL}/bench-00000007");
        t.timed(
            "engine GET one (JSON)",
            time(|| get(&mut e, &uri)),
            "serde_json",
            time(|| serde_json::to_vec(&value).unwrap()),
        );
        let page = get(&mut e, &format!("{COLL}?limit=500"));
        t.timed(
            "engine LIST page of 500 (30k objects)",
            time(|| get(&mut e, &format!("{COLL}?limit=500"))),
            "memcpy",
            copy_of(&page),
        );
        let all = get(&mut e, &format!("{COLL}?resourceVersion=0"));
        t.timed(
            &format!("engine LIST all 30k from cache ({} MB)", all.len() >> 20),
            time(|| get(&mut e, &format!("{COLL}?resourceVersion=0"))),
            "memcpy",
            copy_of(&all),
        );
        let start = Instant::now();
        let extra = scaled(2_000);
        for i in 30_000..30_000 + extra {
            e.handle(request("POST", COLL, &post_body(i)));
        }
        let per = start.elapsed().as_secs_f64() / extra as f64;
        t.row(
            "engine POST create",
            format!("{:.1} us", per * 1e6),
            format!("{:.0} /s", 1.0 / per),
            "-".into(),
        );
    }

    fn page_rows(t: &mut Table) {
        let sizes: &[usize] = if std::env::var_os("BENCH_QUICK").is_some() {
            &[10_000, 100_000]
        } else {
            &[10_000, 100_000, 1_000_000]
        };
        for &n in sizes {
            let n = scaled(n);
            let mut e = Engine::new(Config::default());
            e.load_objects((0..n).map(small));
            let uri = format!("{COLL}?limit=500");
            let page = get(&mut e, &uri);
            t.timed(
                &format!("engine LIST page of 500 at {n} objects"),
                time(|| get(&mut e, &uri)),
                "memcpy",
                copy_of(&page),
            );
        }
    }

    fn open_watchers(e: &mut Engine, n: usize) -> Vec<WatchStream> {
        let rv = e.store().revision();
        (0..n)
            .map(|_| {
                let uri = format!("{COLL}?watch=1&resourceVersion={rv}&timeoutSeconds=100000");
                match e.handle(request("GET", &uri, "")).into_body() {
                    Body::Watch(s) => s,
                    Body::Full(_) => panic!("not a watch"),
                }
            })
            .collect()
    }

    fn fanout_row(t: &mut Table) {
        let mut e = Engine::new(Config::default());
        let mut streams = open_watchers(&mut e, scaled(1_000));
        let mut i = 0;
        let ours = time(|| {
            e.handle(request("POST", COLL, &post_body(i)));
            i += 1;
            for s in streams.iter_mut() {
                s.drain();
            }
        });
        let mut alone = Engine::new(Config::default());
        let mut j = 0;
        let write = time(|| {
            alone.handle(request("POST", COLL, &post_body(j)));
            j += 1;
        });
        t.timed(
            "watch: one write fanned out to 1000 watchers",
            ours,
            "write, no watcher",
            write,
        );
    }

    fn memory_row(t: &mut Table) {
        let n = scaled(30_000);
        let before = LIVE.load(Ordering::Relaxed);
        let mut e = Engine::new(Config::default());
        for i in 0..n {
            e.handle(request("POST", COLL, &post_body(i)));
        }
        // History goes: the store's compaction and the cache's window, on the engine's clock.
        e.advance(6 * 60 * 1000);
        e.compact();
        e.advance(1000);
        let json = get(&mut e, &format!("{COLL}/bench-00000007")).len() - 1;
        let after = LIVE.load(Ordering::Relaxed);
        let per = (after - before) as f64 / n as f64;
        t.row(
            &format!("heap per stored object ({n}, no history)"),
            format!("{per:.0} B"),
            format!("JSON {json} B"),
            format!("{:.2}x", per / json as f64),
        );
        drop(e);
    }

    fn server_rows(t: &mut Table) {
        let Ok(text) = std::fs::read_to_string("target/bench/server.tsv") else {
            t.row(
                "server rows (scripts/bench-server.sh)",
                "not run".into(),
                "-".into(),
                "-".into(),
            );
            return;
        };
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            if let [what, value, unit] = f[..] {
                t.row(what, format!("{value} {unit}"), "-".into(), "-".into());
            }
        }
    }

    fn gzip_len(bytes: &[u8]) -> usize {
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(bytes).unwrap();
        z.finish().unwrap().len()
    }

    fn wasm_rows(t: &mut Table) {
        let playground = std::fs::read_dir("dist").ok().and_then(|d| {
            d.flatten()
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == "wasm"))
        });
        for (what, path, target) in [
            (
                "wasm gzip: shim (pkg-node)",
                Some("pkg-node/kubesim_bg.wasm".into()),
                300,
            ),
            ("wasm gzip: playground (dist)", playground, 400),
        ] {
            match path.and_then(|p: std::path::PathBuf| std::fs::read(p).ok()) {
                Some(b) => t.row(
                    what,
                    format!("{} KB", gzip_len(&b) / 1000),
                    format!("target {target} KB"),
                    format!("{:.2}x", gzip_len(&b) as f64 / (target * 1000) as f64),
                ),
                None => t.row(what, "not built".into(), "-".into(), "-".into()),
            }
        }
    }

    pub fn main() {
        println!(
            "  {:<52} {:>16} {:>16} {:>9}",
            "what", "kubesim", "limit", "ratio"
        );
        let mut t = Table(Vec::new());
        // `BENCH_ONLY=engine,page` measures only those groups of rows (a quick A/B of one
        // change), and then leaves the saved table alone.
        let only = std::env::var("BENCH_ONLY").ok();
        let wanted = |group: &str| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|g| g == group))
        };
        type Rows = fn(&mut Table);
        let groups: [(&str, Rows); 6] = [
            ("engine", engine_rows),
            ("page", page_rows),
            ("fanout", fanout_row),
            ("memory", memory_row),
            ("server", server_rows),
            ("wasm", wasm_rows),
        ];
        for (group, rows) in groups {
            if wanted(group) {
                rows(&mut t);
            }
        }
        if smoke() || only.is_some() {
            return;
        }
        let tsv: String = t.0.iter().map(|r| r.join("\t") + "\n").collect();
        std::fs::create_dir_all("target/bench").ok();
        std::fs::write("target/bench/ratios.tsv", tsv).ok();
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOC: bench::Counting = bench::Counting;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    bench::main();
}

/// Benchmarks run natively only.
#[cfg(target_arch = "wasm32")]
fn main() {}
