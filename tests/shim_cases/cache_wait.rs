//! Reads that wait for the watch cache, through the shim: on a manual clock simulated time
//! moves on while the read waits; on a wall clock its promise resolves once the cache has
//! caught up, in real time (a timer, not the engine, waits).

use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

use crate::shim_support::*;

#[wasm_bindgen_test]
async fn reads_wait_for_a_lagging_cache() {
    for clock in ["manual", "wall"] {
        let sim = simulator(&format!(r#"{{"clock":"{clock}","cacheLagMs":300}}"#));
        let before = sim.now();
        let created = json(&fetch(&sim, CRS, &post_json(&cr_body("late"))).await).await;
        let rv = created["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_string();
        let r = fetch(
            &sim,
            &format!("{CRS}?resourceVersion={rv}"),
            &JsValue::UNDEFINED,
        )
        .await;
        assert_eq!(r.status(), 200, "{clock}");
        let read = r.headers().get("x-kubesim-read").unwrap().unwrap();
        assert!(read.contains("source=watch-cache"), "{clock}: {read}");
        assert!(read.contains("waited-ms="), "{clock}: {read}");
        assert!(
            sim.now() - before >= 300.0,
            "{clock}: the cache's lag has passed"
        );
        assert_eq!(json(&r).await["items"][0]["metadata"]["name"], "late");
    }
}

/// Past the 3 s wait, a Not older than read gets the 504 (simulated time, so the test does
/// not take 3 s).
#[wasm_bindgen_test]
async fn a_read_gives_up_after_three_seconds() {
    let sim = simulator(r#"{"clock":"manual","cacheLagMs":5000}"#);
    let created = json(&fetch(&sim, CRS, &post_json(&cr_body("late"))).await).await;
    let rv = created["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let before = sim.now();
    let r = fetch(
        &sim,
        &format!("{CRS}?resourceVersion={rv}"),
        &JsValue::UNDEFINED,
    )
    .await;
    assert_eq!(r.status(), 504);
    assert_eq!(
        r.headers().get("retry-after").unwrap().as_deref(),
        Some("1")
    );
    assert_eq!(sim.now() - before, 3000.0);
}
