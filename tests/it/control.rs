//! kubesim's own control endpoints: time, compaction and cache lag over HTTP, so tests in
//! any language can make expiry happen without sleeping.

use crate::common::*;

#[test]
fn clock_compaction_and_lag_over_http() {
    let mut e = engine();
    let c = get(&mut e, "/kubesim/v1/clock");
    assert_eq!(c.json["mode"], "manual");
    assert_eq!(c.json["now"], "2026-01-01T00:00:00Z");
    let a = send(
        &mut e,
        "POST",
        "/kubesim/v1/clock/advance?seconds=90",
        None,
        &[],
    );
    assert_eq!(a.code, 200);
    assert_eq!(a.json["now"], "2026-01-01T00:01:30Z");
    let a = send(
        &mut e,
        "POST",
        "/kubesim/v1/clock/advance",
        Some(r#"{"ms": 500}"#),
        &[],
    );
    assert_eq!(a.json["nowMs"], 1_767_225_690_500i64);
    assert_eq!(
        send(&mut e, "POST", "/kubesim/v1/clock/advance?ms=-5", None, &[]).code,
        400
    );

    create_cr(&mut e, "default", &cr_body("a", 1));
    let rev = e.store().revision();
    let r = send(&mut e, "POST", "/kubesim/v1/compact", None, &[]);
    assert_eq!(r.json["compactedRevision"], rev);
    assert_eq!(e.store().compacted_revision(), rev);

    let r = send(&mut e, "PUT", "/kubesim/v1/cache/lag?ms=2500", None, &[]);
    assert_eq!(r.json["lagMs"], 2500);
    let s = get(&mut e, "/kubesim/v1/state");
    assert_eq!(s.json["cacheLagMs"], 2500);
    assert_eq!(s.json["revision"], rev);

    assert_eq!(
        send(&mut e, "DELETE", "/kubesim/v1/clock", None, &[]).code,
        405
    );
    assert_eq!(get(&mut e, "/kubesim/v1/nope").code, 404);
}
