//! 1,000 watchers x 10,000 events: every event is encoded once and the same bytes go to
//! every watcher. Reports events per second and frames encoded per event.

/// The benchmarks; criterion is a native-only dev-dependency.
#[cfg(not(target_arch = "wasm32"))]
mod bench {
    use std::time::Instant;

    use bytes::Bytes;
    use criterion::{criterion_group, Criterion};
    use kubesim::{Body, Config, Engine, WatchStream};

    fn create(e: &mut Engine, i: usize) {
        let body =
            format!(r#"{{"metadata":{{"name":"ev-{i:08}"}},"data":{{"i":{i}}},"revision":1}}"#);
        let req = http::Request::post("/apis/apps/v1/namespaces/default/controllerrevisions")
            .header("content-type", "application/json")
            .body(Bytes::from(body))
            .unwrap();
        assert_eq!(e.handle(req).status(), 201);
    }

    fn open_watchers(e: &mut Engine, n: usize) -> Vec<WatchStream> {
        let rv = e.store().revision();
        (0..n)
            .map(|_| {
                let req = http::Request::get(format!(
                    "/apis/apps/v1/namespaces/default/controllerrevisions?watch=1&resourceVersion={rv}&timeoutSeconds=100000"
                ))
                .body(Bytes::new())
                .unwrap();
                match e.handle(req).into_body() {
                    Body::Watch(s) => s,
                    Body::Full(_) => panic!("not a watch"),
                }
            })
            .collect()
    }

    fn fanout(c: &mut Criterion) {
        // The headline scenario, measured once: 1,000 watchers, 10,000 events.
        let mut e = Engine::new(Config::default());
        let mut streams = open_watchers(&mut e, 1_000);
        let (events0, frames0) = e.dispatch_stats();
        let start = Instant::now();
        let mut delivered = 0usize;
        for i in 0..10_000 {
            create(&mut e, i);
            if i % 100 == 99 {
                for s in streams.iter_mut() {
                    delivered += s.drain().0.len();
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let (events, frames) = e.dispatch_stats();
        let (events, frames) = (events - events0, frames - frames0);
        eprintln!(
            "watch fan-out: 1000 watchers x 10000 events in {secs:.2}s ({:.0} events/s, {:.0} frames delivered/s); {events} events dispatched, {frames} frames encoded ({:.2} per event); {delivered} frames delivered",
            10_000.0 / secs,
            delivered as f64 / secs,
            frames as f64 / events as f64
        );
        assert_eq!(frames, events, "one encoding per event for all watchers");

        let mut group = c.benchmark_group("watch fan-out");
        group.sample_size(20);
        let mut e = Engine::new(Config::default());
        let mut streams = open_watchers(&mut e, 1_000);
        let mut i = 0;
        group.bench_function("one event to 1000 watchers", |b| {
            b.iter(|| {
                create(&mut e, i);
                i += 1;
                for s in streams.iter_mut() {
                    s.drain();
                }
            })
        });
        group.finish();
    }

    criterion_group!(benches, fanout);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

/// Benchmarks run natively only.
#[cfg(target_arch = "wasm32")]
fn main() {}
