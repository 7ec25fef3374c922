//! Encode throughput per encoding for a list of 10k ControllerRevisions, against the bare
//! serializer as the limit (`serde_json::to_vec` of an already-built list value).
//!
//! kubesim's JSON and YAML writers stream the stored items (no second copy of the list);
//! Protobuf and CBOR take the whole list value. `through the engine` adds the list read
//! from the watch cache and the response around it.

/// The benchmarks; criterion is a native-only dev-dependency.
#[cfg(not(target_arch = "wasm32"))]
mod bench {

    use bytes::Bytes;
    use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
    use kubesim::api::encode::{encode, Payload};
    use kubesim::api::negotiation::Encoding;
    use kubesim::store::Object;
    use kubesim::{Config, Engine};
    use serde_json::{json, Value};

    const N: usize = 10_000;

    fn object(i: usize) -> Value {
        json!({
            "kind": "ControllerRevision",
            "apiVersion": "apps/v1",
            "metadata": {
                "name": format!("rev-{i:08}"),
                "namespace": "default",
                "uid": format!("00000000-0000-4000-8000-{i:012}"),
                "resourceVersion": format!("{}", i + 10),
                "creationTimestamp": "2026-01-01T00:00:00Z",
                "labels": {"app": "web", "pod-template-hash": "5d8f7c9b6"}
            },
            "data": {"spec": {"replicas": 3, "template": {"metadata": {"labels": {"app": "web"}}}}},
            "revision": i as i64
        })
    }

    fn encodings(c: &mut Criterion) {
        let items: Vec<Object> = (0..N).map(|i| Object::new(object(i))).collect();
        let envelope = json!({"kind": "ControllerRevisionList", "apiVersion": "apps/v1", "metadata": {"resourceVersion": "99999"}});
        let mut whole = envelope.clone();
        whole["items"] = Value::Array(
            items
                .iter()
                .map(|o| {
                    let mut o = o.decode();
                    let m = o.as_object_mut().unwrap();
                    m.shift_remove("kind");
                    m.shift_remove("apiVersion");
                    o
                })
                .collect(),
        );
        let items = kubesim::cache::Items::Owned(items);
        let payload = Payload::List {
            envelope: &envelope,
            items: &items,
        };
        let mut group = c.benchmark_group("encode 10k-item list");
        group.sample_size(10);
        group.throughput(Throughput::Elements(N as u64));
        group.bench_function("bare serde_json::to_vec (limit)", |b| {
            b.iter(|| serde_json::to_vec(&whole).unwrap().len())
        });
        for (name, enc, pretty) in [
            ("json", Encoding::Json, false),
            ("json pretty", Encoding::Json, true),
            ("yaml", Encoding::Yaml, false),
            ("protobuf", Encoding::Protobuf, false),
            ("cbor", Encoding::Cbor, false),
        ] {
            group.bench_function(BenchmarkId::new("kubesim", name), |b| {
                b.iter(|| {
                    encode(payload, enc, pretty, &kubesim::resources::SCHEME)
                        .unwrap()
                        .len()
                })
            });
        }
        group.finish();

        let mut e = Engine::new(Config {
            feature_gates: kubesim::features::FeatureGates::parse("CBORServingAndStorage=true")
                .unwrap(),
            ..Config::default()
        });
        e.load_objects((0..N).map(object));
        let mut group = c.benchmark_group("list 10k through the engine");
        group.sample_size(10);
        group.throughput(Throughput::Elements(N as u64));
        for accept in [
            "application/json",
            "application/yaml",
            "application/vnd.kubernetes.protobuf",
            "application/cbor",
            "application/json;as=Table;g=meta.k8s.io;v=v1",
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        ] {
            group.bench_function(accept, |b| {
                b.iter(|| {
                    let req =
                        http::Request::get("/apis/apps/v1/namespaces/default/controllerrevisions")
                            .header("accept", accept)
                            .body(Bytes::new())
                            .unwrap();
                    let resp = e.handle(req);
                    assert_eq!(resp.status(), 200);
                    resp.body().bytes().len()
                })
            });
        }
        group.finish();
    }

    criterion_group!(benches, encodings);
}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(bench::benches);

/// Benchmarks run natively only.
#[cfg(target_arch = "wasm32")]
fn main() {}
