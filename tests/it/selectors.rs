//! Label and field selectors on list and deletecollection: every operator, AND by comma,
//! and the 400s for malformed selectors with kube-apiserver's messages.

use crate::common::*;
use serde_json::json;

fn seeded() -> kubesim::Engine {
    let mut e = engine();
    create_ns(&mut e, "other");
    create_cr(
        &mut e,
        "default",
        &cr_labeled("a", json!({"app": "x", "tier": "web"})),
    );
    create_cr(&mut e, "default", &cr_labeled("b", json!({"app": "y"})));
    create_cr(&mut e, "default", &cr_labeled("c", json!({"tier": "db"})));
    create_cr(&mut e, "other", &cr_labeled("d", json!({"app": "x"})));
    e
}

fn enc(s: &str) -> String {
    s.replace('%', "%25")
        .replace('=', "%3D")
        .replace(',', "%2C")
        .replace(' ', "%20")
        .replace('!', "%21")
        .replace('(', "%28")
        .replace(')', "%29")
}

#[test]
fn label_selector_operators() {
    let mut e = seeded();
    let rows: &[(&str, &[&str])] = &[
        ("app=x", &["a"]),
        ("app==x", &["a"]),
        ("app!=x", &["b", "c"]),
        ("app in (x,y)", &["a", "b"]),
        ("app notin (x)", &["b", "c"]),
        ("app", &["a", "b"]),
        ("!app", &["c"]),
        ("app=x,tier=web", &["a"]),
        ("app,tier", &["a"]),
        ("app=z", &[]),
        ("", &["a", "b", "c"]),
    ];
    for (sel, want) in rows {
        let r = get(
            &mut e,
            &format!("{}?labelSelector={}", crs("default"), enc(sel)),
        );
        assert_eq!(r.code, 200, "{sel}: {}", r.text);
        assert_eq!(r.names(), *want, "{sel}");
    }
    let all = get(
        &mut e,
        &format!(
            "/apis/apps/v1/controllerrevisions?labelSelector={}",
            enc("app=x")
        ),
    );
    assert_eq!(all.names(), ["a", "d"]);
}

#[test]
fn field_selector_operators() {
    let mut e = seeded();
    let rows: &[(&str, &str, &[&str])] = &[
        (
            "/apis/apps/v1/namespaces/default/controllerrevisions",
            "metadata.name=a",
            &["a"],
        ),
        (
            "/apis/apps/v1/namespaces/default/controllerrevisions",
            "metadata.name==b",
            &["b"],
        ),
        (
            "/apis/apps/v1/namespaces/default/controllerrevisions",
            "metadata.name!=a",
            &["b", "c"],
        ),
        (
            "/apis/apps/v1/controllerrevisions",
            "metadata.namespace=other",
            &["d"],
        ),
        (
            "/apis/apps/v1/controllerrevisions",
            "metadata.namespace!=other",
            &["a", "b", "c"],
        ),
        (
            "/apis/apps/v1/controllerrevisions",
            "metadata.namespace=default,metadata.name!=b",
            &["a", "c"],
        ),
        ("/api/v1/namespaces", "metadata.name=other", &["other"]),
        (
            "/api/v1/namespaces",
            "status.phase=Active,metadata.name!=default",
            &["kube-public", "kube-system", "other"],
        ),
    ];
    for (path, sel, want) in rows {
        let r = get(&mut e, &format!("{path}?fieldSelector={}", enc(sel)));
        assert_eq!(r.code, 200, "{sel}: {}", r.text);
        assert_eq!(r.names(), *want, "{path} {sel}");
    }
    // Both kinds of selector together.
    let r = get(
        &mut e,
        &format!(
            "/apis/apps/v1/controllerrevisions?labelSelector={}&fieldSelector={}",
            enc("app=x"),
            enc("metadata.namespace=default")
        ),
    );
    assert_eq!(r.names(), ["a"]);
}

#[test]
fn malformed_selectors_are_400() {
    let mut e = seeded();
    let rows: &[(&str, &str, &str)] = &[
        ("labelSelector", "app=x,", "found '', expected: identifier after ','"),
        ("labelSelector", "app x", "unable to parse requirement: found 'x', expected: in, notin, =, ==, !=, gt, lt"),
        ("labelSelector", "a@b", "unable to parse requirement: <nil>: Invalid value: \"a@b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
        ("fieldSelector", "a=b,c", "invalid selector: 'a=b,c'; can't understand 'c'"),
        ("fieldSelector", "spec.foo=bar", "\"spec.foo\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""),
    ];
    for (param, sel, msg) in rows {
        for method in ["GET", "DELETE"] {
            let r = send(
                &mut e,
                method,
                &format!("{}?{param}={}", crs("default"), enc(sel)),
                None,
                &[],
            );
            assert_eq!(r.code, 400, "{method} {param}={sel}: {}", r.text);
            assert_eq!(r.reason(), "BadRequest");
            assert_eq!(r.message(), *msg, "{method} {param}={sel}");
        }
    }
    let r = get(
        &mut e,
        &format!(
            "/api/v1/namespaces?fieldSelector={}",
            enc("metadata.namespace=x")
        ),
    );
    assert_eq!(r.code, 400);
    assert_eq!(r.message(), "field label not supported: metadata.namespace");
    // Nothing was deleted by the failed deletecollection calls.
    assert_eq!(get(&mut e, &crs("default")).names(), ["a", "b", "c"]);
}
