//! Export and import of the whole simulation: after a reload every request is answered
//! byte for byte as before (generated names and UIDs included, as the RNG state travels too).

use crate::common::*;
use serde_json::json;

#[test]
fn reload_answers_identically() {
    let mut a = engine();
    create_cr(&mut a, "default", &cr_body("x", 1));
    let old = e_rev(&a);
    create_cr(&mut a, "default", &cr_body("y", 2));
    a.advance(30_000);
    delete(&mut a, &cr("default", "x"));
    let state = a.export_state();

    let mut b = engine();
    b.import_state(&state).unwrap();
    let mut gen = cr_body("", 1);
    gen["metadata"] = json!({"generateName": "g-"});
    for uri in [
        crs("default"),
        format!(
            "{}?resourceVersion={old}&resourceVersionMatch=Exact",
            crs("default")
        ),
        "/kubesim/v1/clock".to_string(),
    ] {
        assert_eq!(get(&mut a, &uri).text, get(&mut b, &uri).text, "{uri}");
    }
    assert_eq!(
        post(&mut a, &crs("default"), &gen).text,
        post(&mut b, &crs("default"), &gen).text
    );
    assert_eq!(a.export_state(), b.export_state());
    assert!(b.import_state(&json!({"kind": "Other"})).is_err());
}

fn e_rev(e: &kubesim::Engine) -> u64 {
    e.store().revision()
}
