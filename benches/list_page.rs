//! A page of 500 costs the same at 10k, 100k and 1M objects: lists are served from the
//! watch cache's persistent index, O(log n + page), `remainingItemCount` included.

/// The benchmarks; criterion is a native-only dev-dependency.
#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use bytes::Bytes;
    use criterion::{criterion_group, BenchmarkId, Criterion};
    use kubesim::{Config, Engine};
    use serde_json::json;

    fn engine_with(n: usize) -> Engine {
        let mut e = Engine::new(Config::default());
        e.load_objects((0..n).map(|i| {
            json!({
                "kind": "ControllerRevision",
                "apiVersion": "apps/v1",
                "metadata": {
                    "name": format!("rev-{i:08}"),
                    "namespace": "default",
                    "uid": format!("00000000-0000-4000-8000-{i:012}"),
                    "creationTimestamp": "2026-01-01T00:00:00Z"
                },
                "data": {"spec": {"replicas": 1}},
                "revision": 1
            })
        }));
        e
    }

    fn get(e: &mut Engine, uri: &str) -> usize {
        let req = http::Request::get(uri).body(Bytes::new()).unwrap();
        let resp = e.handle(req);
        assert_eq!(resp.status(), 200);
        resp.body().bytes().len()
    }

    fn pages(c: &mut Criterion) {
        let mut group = c.benchmark_group("list page of 500");
        group.sample_size(20);
        let base = "/apis/apps/v1/namespaces/default/controllerrevisions?limit=500";
        for n in [10_000usize, 100_000, 1_000_000] {
            // Built by the first case that runs (criterion calls a filtered-out case's closure
            // never), so `cargo bench -- 'first page/10000'` does not load a million objects.
            let mut engine: Option<Engine> = None;
            group.bench_with_input(BenchmarkId::new("first page", n), &n, |b, &n| {
                let e = engine.get_or_insert_with(|| engine_with(n));
                b.iter(|| get(e, base))
            });
            group.bench_with_input(BenchmarkId::new("continue page", n), &n, |b, &n| {
                let e = engine.get_or_insert_with(|| engine_with(n));
                // The continue token after the first page (outside the timed loop).
                let after_first = {
                    let req = http::Request::get(format!("{base}&labelSelector=&fieldSelector="))
                        .body(Bytes::new())
                        .unwrap();
                    let first = e.handle(req);
                    let v: serde_json::Value =
                        serde_json::from_slice(first.body().bytes()).unwrap();
                    v["metadata"]["continue"].as_str().unwrap().to_string()
                };
                let cont = format!("{base}&continue={after_first}");
                b.iter(|| get(e, &cont))
            });
        }
        group.finish();
    }

    criterion_group!(benches, pages);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

/// Benchmarks run natively only.
#[cfg(target_arch = "wasm32")]
fn main() {}
