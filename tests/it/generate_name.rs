//! `generateName` collisions: since 1.32 (KEP-4420, RetryGenerateName GA) the generic store
//! generates a new name and tries again, eight attempts in all, before answering 409.

use crate::common::*;
use serde_json::{json, Value};

fn generated_body() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "ControllerRevision",
        "metadata": {"generateName": "gen-"},
        "data": {},
        "revision": 1
    })
}

/// The objects the first `n` generateName creates make from `state`, in order: each create
/// draws the same random numbers as one attempt of a retried create.
fn names_drawn_from(state: &Value, n: usize) -> Vec<Value> {
    let mut e = engine();
    e.import_state(state).unwrap();
    (0..n)
        .map(|_| {
            let r = post(&mut e, &crs("default"), &generated_body());
            assert_eq!(r.code, 201, "{}", r.text);
            r.json
        })
        .collect()
}

#[test]
fn a_colliding_generated_name_is_generated_again() {
    let state = engine().export_state();
    let drawn = names_drawn_from(&state, 8);
    for taken in 1..=8 {
        let mut e = engine();
        e.import_state(&state).unwrap();
        e.load_objects(drawn[..taken].iter().cloned());
        let r = post(&mut e, &crs("default"), &generated_body());
        if taken < 8 {
            assert_eq!(r.code, 201, "{taken} taken: {}", r.text);
            assert_eq!(
                r.json["metadata"]["name"],
                drawn[taken]["metadata"]["name"],
                "attempt {} wins",
                taken + 1
            );
        } else {
            assert_eq!(r.code, 409, "{}", r.text);
            assert_eq!(r.json["reason"], "AlreadyExists");
            let name = drawn[7]["metadata"]["name"].as_str().unwrap();
            assert_eq!(
                r.json["message"],
                format!("controllerrevisions.apps \"{name}\" already exists, the server was not able to generate a unique name for the object")
            );
            assert_eq!(r.json["details"]["retryAfterSeconds"], 1);
            assert_eq!(r.header("retry-after"), "1");
        }
    }
}

#[test]
fn an_explicit_name_is_never_retried() {
    let mut e = engine();
    let r = post(&mut e, &crs("default"), &cr_body("fixed", 1));
    assert_eq!(r.code, 201);
    let mut body = cr_body("fixed", 1);
    body["metadata"]["generateName"] = json!("gen-");
    let r = post(&mut e, &crs("default"), &body);
    assert_eq!(r.code, 409, "{}", r.text);
}

/// A generateName of `-`: 1.36's `maskTrailingDash` leaves one byte alone, so the prefix and
/// the generated name are both invalid.
#[test]
fn a_lone_dash_prefix_is_invalid_twice() {
    let mut e = engine();
    let mut body = cr_body("", 1);
    body["metadata"] = json!({"generateName": "-"});
    let r = post(&mut e, &crs("default"), &body);
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(
        r.cause_fields(),
        ["metadata.generateName", "metadata.name"],
        "{}",
        r.text
    );
}
