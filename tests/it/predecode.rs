//! Bodies decoded before the engine is entered (`Engine::predecoder`): the native server
//! decodes creates and updates, and applies patches, outside the engine's lock. The answer
//! must be the one the engine gives when it decodes the body itself, for every outcome of
//! the decode.

use crate::common::*;
use bytes::Bytes;
use kubesim::api::predecode::Predecoded;
use kubesim::engine::Predecoder;
use kubesim::Engine;

fn request(method: &str, uri: &str, content_type: &str, body: &str) -> http::Request<Bytes> {
    http::Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", content_type)
        .body(Bytes::from(body.to_string()))
        .unwrap()
}

fn answer(e: &mut Engine, req: http::Request<Bytes>) -> (u16, Vec<(String, String)>, String) {
    let resp = e.handle(req);
    let headers = resp
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_string()))
        .collect();
    let body = String::from_utf8_lossy(resp.body().bytes()).into_owned();
    (resp.status().as_u16(), headers, body)
}

/// Each row is sent to two engines, one decoding the body itself and one given the body
/// decoded ahead (and an update's field tracking prepared against the live object): status,
/// headers and body must be the same (generated names and uids too, as both engines draw the
/// same random numbers). `ahead`: whether the predecoder decodes it.
#[test]
fn answers_are_the_same_whether_the_body_was_decoded_ahead_or_not() {
    let json = "application/json";
    let crs = "/apis/apps/v1/namespaces/default/controllerrevisions";
    let r1 = format!("{crs}/r1");
    let merge = "application/merge-patch+json";
    let apply = "application/apply-patch+yaml";
    let cms = "/api/v1/namespaces/default/configmaps";
    let long_entry = format!(
        r#"{{"manager":"{}","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{{"f:data":{{}}}}}}"#,
        "m".repeat(200)
    );
    let cm = |name: &str, k: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  k: \"{k}\"\n")
    };
    let cr = |extra: &str| {
        format!(
            r#"{{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{{"name":"r1"}},"data":{{"x":1}},"revision":1{extra}}}"#
        )
    };
    let rows: Vec<(&str, String, &str, String, bool)> = vec![
        ("POST", crs.into(), json, cr(""), true),
        ("POST", crs.into(), json, cr(""), true), // 409 AlreadyExists
        ("POST", format!("{crs}?fieldValidation=Strict"), json, cr(r#","bogus":1"#), true),
        ("POST", crs.into(), json, cr(r#","bogus":1,"revision":2"#).replace("r1", "r2"), true),
        ("POST", format!("{crs}?fieldValidation=Bogus"), json, cr(""), false),
        ("POST", format!("{crs}?dryRun=All"), json, cr("").replace("r1", "r3"), true),
        ("POST", crs.into(), json, "{".into(), true),
        ("POST", crs.into(), json, r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#.into(), true),
        ("POST", crs.into(), "text/plain", cr(""), true),
        ("POST", crs.into(), "application/yaml", "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {generateName: g-}\ndata: {}\nrevision: 1\nrevision: 2\n".into(), true),
        ("POST", crs.into(), json, r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"generateName":"g-"},"data":{},"revision":1}"#.into(), true),
        ("PUT", r1.clone(), json, cr("").replace(r#""name":"r1""#, r#""name":"r1","labels":{"a":"b"}"#), true),
        ("PUT", r1.clone(), json, cr("").replace(r#""name":"r1""#, r#""name":"r1","resourceVersion":"1""#), true),
        ("PUT", format!("{r1}?fieldManager=tool-b"), json, cr("").replace(r#""name":"r1""#, r#""name":"r1","labels":{"a":"c","d":"e"}"#), true),
        ("PUT", r1.clone(), json, cr("").replace(r#""name":"r1""#, r#""name":"r1","managedFields":[]"#), true),
        ("PUT", format!("{crs}/missing"), json, cr("").replace("r1", "missing"), true),
        ("PUT", r1.clone(), json, cr("").replace("r1", "other"), true),
        ("POST", "/api/v1/namespaces".into(), json, r#"{"metadata":{"name":"ns1"}}"#.into(), true),
        ("PUT", "/api/v1/namespaces/ns1/finalize".into(), json, r#"{"metadata":{"name":"ns1"},"spec":{"finalizers":[]}}"#.into(), true),
        ("POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews".into(), json, r#"{"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}"#.into(), true),
        // Field tracking prepared ahead: a named manager, a reset, sent entries, a namespace
        // that does not match the URL's.
        ("POST", format!("{crs}?fieldManager=tool-a"), json, cr("").replace("r1", "r5"), true),
        ("POST", crs.into(), json, cr("").replace(r#""name":"r1""#, r#""name":"r6","managedFields":[]"#), true),
        ("POST", crs.into(), json, cr("").replace(r#""name":"r1""#, r#""name":"r7","managedFields":[{"manager":"m","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{}}}]"#), true),
        ("POST", crs.into(), json, cr("").replace(r#""name":"r1""#, r#""name":"r8","namespace":"other""#), true),
        // Patches and applies, prepared against the object stored now (an apply also at
        // the engine's time).
        ("PATCH", r1.clone(), merge, r#"{"metadata":{"labels":{"p":"1"}}}"#.into(), true),
        ("PATCH", r1.clone(), "application/json-patch+json", r#"[{"op":"add","path":"/metadata/labels/q","value":"2"}]"#.into(), true),
        ("PATCH", r1.clone(), "application/strategic-merge-patch+json", r#"{"metadata":{"annotations":{"s":"3"}}}"#.into(), true),
        ("PATCH", r1.clone(), "application/json-patch+json", r#"[{"op":"remove","path":"/nothing"}]"#.into(), true),
        ("PATCH", format!("{r1}?fieldValidation=Strict"), merge, r#"{"bogus":1}"#.into(), true),
        ("PATCH", r1.clone(), merge, r#"{"metadata":{"resourceVersion":"1"}}"#.into(), true),
        ("PATCH", format!("{r1}?dryRun=All"), merge, r#"{"revision":9}"#.into(), true),
        ("PATCH", r1.clone(), merge, r#"{"metadata":{"managedFields":[]}}"#.into(), true),
        ("PATCH", format!("{crs}/missing"), merge, "{}".into(), false),
        ("PATCH", format!("{r1}?force=false"), merge, "{}".into(), false),
        ("PATCH", r1.clone(), "application/json", "{}".into(), false),
        ("PATCH", format!("{crs}/r1/status"), merge, "{}".into(), false),
        ("PATCH", format!("{cms}/a1?fieldManager=x"), apply, cm("a1", "1"), true),
        ("PATCH", format!("{cms}/a1?fieldManager=x"), apply, cm("a1", "2"), true),
        ("PATCH", format!("{cms}/a1?fieldManager=y"), apply, cm("a1", "3"), true),
        ("PATCH", format!("{cms}/a1?fieldManager=y&force=true"), apply, cm("a1", "3"), true),
        ("PATCH", format!("{cms}/a1?fieldManager=y&fieldValidation=Strict"), apply, format!("{}  k: \"4\"\n", cm("a1", "4")), true),
        ("PATCH", format!("{cms}/a1?fieldManager=y"), apply, cm("other", "5"), true),
        ("PATCH", format!("{cms}/a1"), apply, cm("a1", "6"), false),
        // The kind's validation, prepared with an update.
        ("PUT", format!("{cms}/a1"), json, r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a1"},"data":{"bad key":"1"}}"#.into(), true),
        ("PATCH", format!("{cms}/a1"), merge, r#"{"data":{"bad key":"1"}}"#.into(), true),
        ("PATCH", format!("{cms}/a1?fieldManager=y"), apply, cm("a1", "7").replace("  k:", "  bad key:"), true),
        ("PUT", format!("{cms}/a1"), json, r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a1","labels":{"bad label!":"x"}},"data":{"bad key":"1"}}"#.into(), true),
        ("PATCH", format!("{cms}/a1"), merge, r#"{"metadata":{"labels":{"bad label!":"x"}}}"#.into(), true),
        ("POST", cms.into(), json, r#"{"metadata":{"name":"v1"},"data":{"bad key":"1"}}"#.into(), true),
        ("POST", cms.into(), json, r#"{"metadata":{"generateName":"g-"},"data":{"bad key":"1"}}"#.into(), true),
        ("POST", cms.into(), json, r#"{"metadata":{"generateName":"g-"},"data":{"k":"1"}}"#.into(), true),
        ("POST", cms.into(), json, r#"{"metadata":{"generateName":"Bad_"},"data":{"k":"1"}}"#.into(), true),
        // An entry whose manager ObjectMeta's check refuses: the write validates anew.
        ("POST", cms.into(), json, format!(r#"{{"metadata":{{"name":"v2","managedFields":[{long_entry}]}},"data":{{"bad key":"1"}}}}"#), true),
        ("PUT", format!("{cms}/a1"), json, format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"a1","managedFields":[{long_entry}]}},"data":{{"k":"8"}}}}"#), true),
        ("DELETE", r1.clone(), json, String::new(), false),
        ("GET", crs.into(), json, String::new(), false),
    ];
    let mut itself = engine();
    let mut ahead = engine();
    let mut codes = Vec::new();
    for (method, uri, ct, body, decoded_ahead) in rows {
        let want = answer(&mut itself, request(method, &uri, ct, &body));
        let mut req = request(method, &uri, ct, &body);
        // Updates are prepared against the object stored now, as the native server does.
        ahead
            .predecoder()
            .predecode_against(&mut req, |key| ahead.stored_at(key));
        assert_eq!(
            req.extensions().get::<Predecoded>().is_some(),
            decoded_ahead,
            "{method} {uri} {body}"
        );
        let got = answer(&mut ahead, req);
        assert_eq!(got, want, "{method} {uri} {body}");
        codes.push(got.0);
    }
    let want = [
        201, 409, 400, 201, 422, 201, 400, 400, 415, 201, 201, 200, 409, 200, 200, 404, 400, 201,
        200, 201, 201, 201, 201, 400, 200, 200, 200, 422, 422, 409, 200, 200, 404, 422, 415, 404,
        201, 200, 409, 200, 400, 400, 422, 422, 422, 422, 422, 422, 422, 422, 201, 422, 422, 422,
        200, 200,
    ];
    assert_eq!(codes, want);
}

/// A create of `cr_body("ahead")` decoded ahead by `predecoder`, its bytes then swapped for
/// `cr_body("swapped")`, served by `e`: the name of what `e` created.
fn created_after_swap(predecoder: &Predecoder, e: &mut Engine) -> serde_json::Value {
    let body = cr_body("ahead", 1).to_string();
    let mut req = request("POST", &crs("default"), "application/json", &body);
    predecoder.predecode(&mut req);
    assert!(req.extensions().get::<Predecoded>().is_some());
    let (parts, _) = req.into_parts();
    let swapped = Bytes::from(cr_body("swapped", 1).to_string());
    let r = Resp::from_response(&e.handle(http::Request::from_parts(parts, swapped)));
    assert_eq!(r.code, 201, "{}", r.text);
    r.json["metadata"]["name"].clone()
}

/// The engine takes the body decoded ahead rather than decoding again: given a request whose
/// bytes were swapped after its own predecoder read them, it creates what that read.
#[test]
fn the_engine_uses_the_body_decoded_ahead() {
    let mut e = engine();
    let own = e.predecoder();
    assert_eq!(created_after_swap(&own, &mut e), "ahead");
}

/// A body decoded against other kinds (as after kinds are registered, or another engine's)
/// is not used: the engine decodes the bytes it has.
#[test]
fn a_body_decoded_against_other_kinds_is_decoded_again() {
    let other = engine().predecoder();
    let mut e = engine();
    assert_eq!(created_after_swap(&other, &mut e), "swapped");
}

/// A create's field tracking prepared ahead is for the manager it was prepared with: a request
/// whose `fieldManager` changed after the predecoder read it is tracked anew, for the manager
/// it names when the engine serves it.
#[test]
fn tracking_prepared_for_another_manager_is_not_used() {
    let mut e = engine();
    let body = cr_body("managed", 1).to_string();
    let mut req = request(
        "POST",
        &format!("{}?fieldManager=first", crs("default")),
        "application/json",
        &body,
    );
    e.predecoder().predecode(&mut req);
    assert!(req.extensions().get::<Predecoded>().is_some());
    let (mut parts, body) = req.into_parts();
    parts.uri = format!("{}?fieldManager=second", crs("default"))
        .parse()
        .unwrap();
    let r = Resp::from_response(&e.handle(http::Request::from_parts(parts, body)));
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(manager_names(&r.json), ["second"]);
}

/// A PATCH to `uri` prepared ahead with `prepared` as its body (against the object stored
/// then, at the engine's time then), its bytes swapped for `sent`, and `between` run on the
/// engine before it serves the request: the answer, how many leftovers it carries, and
/// whether the preparation was left to the host (as the server's handle frees it, after the
/// lock).
fn served_after_swap(
    e: &mut Engine,
    uri: &str,
    content_type: &str,
    (prepared, sent): (&str, &str),
    between: impl FnOnce(&mut Engine),
) -> (Resp, usize, bool) {
    let mut req = request("PATCH", uri, content_type, prepared);
    e.predecoder()
        .predecode_against(&mut req, |key| e.stored_at(key));
    let host_handle = req.extensions().get::<Predecoded>().cloned().unwrap();
    between(e);
    let (parts, _) = req.into_parts();
    let swapped = Bytes::from(sent.to_string());
    let resp = e.handle(http::Request::from_parts(parts, swapped));
    let leftovers = resp
        .extensions()
        .get::<kubesim::api::Leftovers>()
        .map_or(0, |l| l.len());
    (
        Resp::from_response(&resp),
        leftovers,
        host_handle.is_untaken(),
    )
}

/// A patch applied ahead is what the engine writes while the version it was applied to is
/// still the live one; once another write has replaced that version, the engine patches the
/// new one itself (with the bytes it has), as `GuaranteedUpdate` retries on a stale object.
#[test]
fn a_patch_prepared_ahead_is_written_only_while_its_version_is_live() {
    let cms = "/api/v1/namespaces/default/configmaps";
    let label = |v: &str| format!(r#"{{"metadata":{{"labels":{{"a":"{v}"}}}}}}"#);
    for stale in [false, true] {
        let mut e = engine();
        let r = e.handle(request(
            "POST",
            cms,
            "application/json",
            r#"{"metadata":{"name":"c"}}"#,
        ));
        assert_eq!(r.status(), 201);
        let between = |e: &mut Engine| {
            if stale {
                let other = request(
                    "PATCH",
                    &format!("{cms}/c"),
                    "application/merge-patch+json",
                    r#"{"data":{"k":"v"}}"#,
                );
                assert_eq!(e.handle(other).status(), 200);
            }
        };
        let (ahead, swapped) = (label("ahead"), label("swapped"));
        let (r, leftovers, untaken) = served_after_swap(
            &mut e,
            &format!("{cms}/c"),
            "application/merge-patch+json",
            (&ahead, &swapped),
            between,
        );
        assert_eq!(r.code, 200, "{}", r.text);
        let want = if stale { "swapped" } else { "ahead" };
        assert_eq!(r.json["metadata"]["labels"]["a"], want, "stale: {stale}");
        // The stored value and the version it replaced leave with the response; the patch
        // made against a version no longer live is not taken: the host frees it.
        assert_eq!(leftovers, 2, "stale: {stale}");
        assert_eq!(untaken, stale, "stale: {stale}");
        assert_eq!(r.json["data"]["k"].is_string(), stale);
    }
}

/// An apply merged ahead is stamped with the engine's time then: the engine writes it only
/// while that is still the time and the object is as it was (here absent, so the apply
/// creates); after the clock moves, or once the object exists, it applies again itself.
#[test]
fn an_apply_prepared_ahead_is_written_only_at_its_time_and_version() {
    let cms = "/api/v1/namespaces/default/configmaps";
    let cm = |v: &str| {
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: \"{v}\"\n")
    };
    let (ahead, swapped) = (cm("ahead"), cm("swapped"));
    let uri = format!("{cms}/c?fieldManager=m");
    for change in ["none", "clock", "created"] {
        let mut e = engine();
        let between = |e: &mut Engine| match change {
            "clock" => e.advance(1_000),
            "created" => {
                let create = request(
                    "POST",
                    cms,
                    "application/json",
                    r#"{"metadata":{"name":"c"}}"#,
                );
                assert_eq!(e.handle(create).status(), 201);
            }
            _ => {}
        };
        let (r, leftovers, untaken) = served_after_swap(
            &mut e,
            &uri,
            "application/apply-patch+yaml",
            (&ahead, &swapped),
            between,
        );
        // Leftovers: the stored value; the version an update replaced. A stale apply is
        // not taken: the host frees it.
        let (code, want, left) = match change {
            "none" => (201, "ahead", 1),
            "clock" => (201, "swapped", 1),
            _ => (200, "swapped", 2),
        };
        assert_eq!(leftovers, left, "{change}");
        assert_eq!(untaken, change != "none", "{change}");
        assert_eq!(
            (r.code, r.json["data"]["k"].as_str()),
            (code, Some(want)),
            "{change}: {}",
            r.text
        );
    }
}

/// A write hands the trees it no longer needs out with its response (`Leftovers`), so a host
/// frees them after releasing the engine's lock: an update's stored object and the decoded
/// version it replaced; a create's stored object; a read hands out nothing.
#[test]
fn a_write_hands_its_trees_out_with_the_response() {
    use kubesim::api::Leftovers;
    let mut e = engine();
    let cms = "/api/v1/namespaces/default/configmaps";
    let left = |resp: &http::Response<kubesim::api::body::Body>| -> Vec<serde_json::Value> {
        resp.extensions()
            .get::<Leftovers>()
            .map(|l| l.of::<serde_json::Value>().cloned().collect())
            .unwrap_or_default()
    };
    let created = e.handle(request(
        "POST",
        cms,
        "application/json",
        r#"{"metadata":{"name":"c"},"data":{"a":"1"}}"#,
    ));
    assert_eq!(created.status(), 201);
    let first: serde_json::Value = serde_json::from_slice(created.body().bytes()).unwrap();
    assert_eq!(left(&created), std::slice::from_ref(&first));
    let patch = r#"{"data":{"a":"2"}}"#;
    let updated = e.handle(request(
        "PATCH",
        &format!("{cms}/c"),
        "application/merge-patch+json",
        patch,
    ));
    assert_eq!(updated.status(), 200);
    let second: serde_json::Value = serde_json::from_slice(updated.body().bytes()).unwrap();
    assert_eq!(left(&updated), [second, first]);
    let read = e.handle(request("GET", &format!("{cms}/c"), "application/json", ""));
    assert!(left(&read).is_empty());
}
