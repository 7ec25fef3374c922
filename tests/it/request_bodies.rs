//! How request bodies and options are read: media types, field validation, a body's
//! `apiVersion` as the decoder defaults it, and DeleteOptions from a body or the query.

use crate::common::*;
use serde_json::json;

/// DeleteOptions bodies go through the meta scheme's decoder: DeleteOptions of any
/// apiVersion, nothing else.
#[test]
fn delete_option_bodies_are_decoded_by_the_meta_scheme() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("d", 1));
    let rows = [
        (r#"{"kind":"Pod","apiVersion":"v1"}"#, 400,
         "no kind \"Pod\" is registered for version \"v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\""),
        ("{", 400, "couldn't get version/kind; json parse error: unexpected end of JSON input"),
        (r#"{"kind":"DeleteOptions","apiVersion":"apps/v1","gracePeriodSeconds":"x"}"#, 400,
         "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64"),
        // Kinds the meta scheme knows decode, then do not convert.
        (r#"{"kind":"Status","apiVersion":"v1"}"#, 400,
         "converting (v1.Status) to (v1.DeleteOptions): unknown conversion"),
        (r#"{"kind":"ListOptions","apiVersion":"meta.k8s.io/v1"}"#, 400,
         "converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion"),
        (r#"{"kind":"ListOptions","apiVersion":"v1"}"#, 400,
         "no kind \"ListOptions\" is registered for version \"v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\""),
        // The apiVersion is defaulted from meta.k8s.io/v1 as `gvkWithDefaults` does.
        (r#"{"kind":"Table","apiVersion":"/"}"#, 400,
         "converting (v1.Table) to (v1.DeleteOptions): unknown conversion"),
        (r#"{"kind":"ListOptions","apiVersion":"meta.k8s.io/"}"#, 400,
         "converting (v1.ListOptions) to (v1.DeleteOptions): unknown conversion"),
        (r#"{"kind":"ListOptions","apiVersion":"/v1"}"#, 400,
         "no kind \"ListOptions\" is registered for version \"v1\" in scheme \"pkg/apis/meta/internalversion/scheme/register.go:27\""),
    ];
    for (body, code, msg) in rows {
        let r = send(&mut e, "DELETE", &cr("default", "d"), Some(body), &[]);
        assert_eq!((r.code, r.message()), (code, msg), "{body}");
    }
    // Still there; a per-group DeleteOptions deletes it, the query unread beside a body
    // (the dry run asked there does not happen).
    let r = send(
        &mut e,
        "DELETE",
        &format!("{}?dryRun=All", cr("default", "d")),
        Some(r#"{"kind":"DeleteOptions","apiVersion":"apps/v1"}"#),
        &[],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(get(&mut e, &cr("default", "d")).code, 404);
}

#[test]
fn delete_options_validation() {
    let mut e = engine();
    create_cr(&mut e, "default", &cr_body("v", 1));
    let cases = [
        (
            r#"{"propagationPolicy":"Bogus"}"#,
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"",
        ),
        (
            r#"{"propagationPolicy":"Background","orphanDependents":false}"#,
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Background\": orphanDependents and deletionPropagation cannot be both set",
        ),
        (
            r#"{"dryRun":["x"]}"#,
            "DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"x\"]: supported values: \"All\"",
        ),
    ];
    for (body, msg) in cases {
        let r = send(&mut e, "DELETE", &cr("default", "v"), Some(body), &[]);
        assert_eq!(r.code, 422, "{body}: {}", r.text);
        assert_eq!(r.reason(), "Invalid");
        assert_eq!(r.message(), msg);
    }
    // From the query (no body), as the parameter codec converts them: a parameter present
    // but empty is set, booleans are lenient; any body at all is decoded instead.
    let query_cases = [
        (
            "?propagationPolicy=",
            422,
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"",
        ),
        (
            "?gracePeriodSeconds=",
            400,
            "strconv.ParseInt: parsing \"\": invalid syntax",
        ),
        (
            "?propagationPolicy=Background&orphanDependents=f",
            422,
            "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Background\": orphanDependents and deletionPropagation cannot be both set",
        ),
    ];
    for (query, code, msg) in query_cases {
        let r = send(
            &mut e,
            "DELETE",
            &format!("{}{query}", cr("default", "v")),
            None,
            &[],
        );
        assert_eq!((r.code, r.message()), (code, msg), "{query}");
    }
    let r = send(&mut e, "DELETE", &cr("default", "v"), Some(" "), &[]);
    assert_eq!(
        (r.code, r.message()),
        (
            400,
            "couldn't get version/kind; json parse error: unexpected end of JSON input"
        )
    );
}

#[test]
fn field_validation_levels() {
    let mut e = engine();
    let body = r#"{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"f","bar":1},"data":{"x":1},"revision":1,"foo":true}"#;
    let ct = [("content-type", "application/json")];
    let warn = send(&mut e, "POST", &crs("default"), Some(body), &ct);
    assert_eq!(warn.code, 201, "{}", warn.text);
    assert_eq!(
        warn.header_all("warning"),
        // One warning per problem, in document order.
        [
            "299 - \"unknown field \\\"metadata.bar\\\"\"",
            "299 - \"unknown field \\\"foo\\\"\""
        ]
    );
    assert!(warn.json.get("foo").is_none(), "unknown fields are dropped");

    let strict = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Strict", crs("default")),
        Some(&body.replace("\"f\"", "\"g\"")),
        &ct,
    );
    assert_eq!(strict.code, 400);
    assert_eq!(
        strict.message(),
        "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: strict decoding error: unknown field \"metadata.bar\", unknown field \"foo\""
    );
    let dup = r#"{"metadata":{"name":"h","name":"h"},"data":{},"revision":1}"#;
    let strict_dup = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Strict", crs("default")),
        Some(dup),
        &ct,
    );
    assert_eq!(strict_dup.code, 400);
    assert!(
        strict_dup
            .message()
            .ends_with("strict decoding error: duplicate field \"metadata.name\""),
        "{}",
        strict_dup.message()
    );

    let ignore = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Ignore", crs("default")),
        Some(&body.replace("\"f\"", "\"i\"")),
        &ct,
    );
    assert_eq!(ignore.code, 201);
    assert!(ignore.header_all("warning").is_empty());

    let bogus = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=strict", crs("default")),
        Some(body),
        &ct,
    );
    assert_eq!(bogus.code, 422);
    assert_eq!(
        bogus.message(),
        "CreateOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"strict\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""
    );
}

#[test]
fn unsupported_body_and_accept_media_types() {
    let mut e = engine();
    let r = send(
        &mut e,
        "POST",
        &crs("default"),
        Some("a: b"),
        &[("content-type", "text/plain")],
    );
    assert_eq!(r.code, 415);
    assert_eq!(r.reason(), "UnsupportedMediaType");
    let r = send(
        &mut e,
        "GET",
        &crs("default"),
        None,
        &[("accept", "application/*")],
    );
    assert_eq!(r.code, 406);
    assert_eq!(r.reason(), "NotAcceptable");
    for ok in [
        "*/*",
        "application/json",
        "application/vnd.kubernetes.protobuf, application/json",
    ] {
        assert_eq!(
            send(&mut e, "GET", &crs("default"), None, &[("accept", ok)]).code,
            200,
            "{ok}"
        );
    }
}

/// A body's `apiVersion` as `Interpret` parses it and `gvkWithDefaults` fills it from the
/// URL: `/`, `apps/` and (for the core group) `/v1` are the URL's own group version; more
/// than one slash does not parse.
#[test]
fn body_api_versions_default_from_the_url() {
    let mut e = engine();
    for (i, api_version) in ["", "/", "apps/", "apps/v1"].iter().enumerate() {
        let mut body = cr_body(&format!("gv{i}"), 1);
        body["apiVersion"] = json!(api_version);
        let r = post(&mut e, &crs("default"), &body);
        assert_eq!(r.code, 201, "{api_version:?}: {}", r.text);
    }
    let r = post(
        &mut e,
        "/api/v1/namespaces/default/configmaps",
        &json!({"apiVersion": "/v1", "kind": "ConfigMap", "metadata": {"name": "c"}}),
    );
    assert_eq!(r.code, 201, "{}", r.text);
    let mut body = cr_body("slashes", 1);
    body["apiVersion"] = json!("a/b/c");
    let r = post(&mut e, &crs("default"), &body);
    assert_eq!(r.code, 400);
    assert!(
        r.message().starts_with("the object provided is unrecognized (must be of type ControllerRevision): unexpected GroupVersion string: a/b/c ({"),
        "{}",
        r.message()
    );
}

/// The unversioned meta kinds are found by name in any group version (`Scheme.New`): a
/// `Status` body decodes, then cannot be converted.
#[test]
fn an_unversioned_kind_in_any_version_decodes_then_fails_to_convert() {
    let mut e = engine();
    for api_version in ["apps/v1", "example.com/v1"] {
        let r = post(
            &mut e,
            &crs("default"),
            &json!({"apiVersion": api_version, "kind": "Status", "metadata": {"name": "s"}}),
        );
        let version = api_version.rsplit('/').next().unwrap();
        assert_eq!(
            r.message(),
            format!("Status in version \"{version}\" cannot be handled as a ControllerRevision: converting (v1.Status) to (apps.ControllerRevision): unknown conversion"),
            "{api_version}"
        );
    }
}
