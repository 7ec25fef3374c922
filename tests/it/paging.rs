//! Chunked lists: `limit` and `continue` across a consistent snapshot, `remainingItemCount`
//! rules, short pages with selectors, token expiry and the inconsistent continuation.

use crate::common::*;
use serde_json::json;

fn five() -> kubesim::Engine {
    let mut e = engine();
    for (i, n) in ["a", "b", "c", "d", "e"].iter().enumerate() {
        let app = if i % 2 == 0 { "even" } else { "odd" };
        create_cr(&mut e, "default", &cr_labeled(n, json!({ "app": app })));
    }
    e
}

fn page(e: &mut kubesim::Engine, q: &str) -> Resp {
    let r = get(e, &format!("{}?{q}", crs("default")));
    assert_eq!(r.code, 200, "{q}: {}", r.text);
    r
}

#[test]
fn pages_share_one_snapshot_while_writes_happen() {
    let mut e = five();
    let p1 = page(&mut e, "limit=2");
    assert_eq!(p1.names(), ["a", "b"]);
    assert_eq!(p1.json["metadata"]["remainingItemCount"], 3);
    let rv = p1.json["metadata"]["resourceVersion"].clone();
    // Writes between pages are not seen by later pages.
    create_cr(&mut e, "default", &cr_body("bb", 1));
    delete(&mut e, &cr("default", "d"));
    let t1 = p1.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    let p2 = page(&mut e, &format!("limit=2&continue={t1}"));
    assert_eq!(p2.names(), ["c", "d"]);
    assert_eq!(p2.json["metadata"]["resourceVersion"], rv);
    assert_eq!(p2.json["metadata"]["remainingItemCount"], 1);
    let t2 = p2.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    let p3 = page(&mut e, &format!("limit=2&continue={t2}"));
    assert_eq!(p3.names(), ["e"]);
    assert!(p3.json["metadata"].get("continue").is_none());
    assert!(p3.json["metadata"].get("remainingItemCount").is_none());
    assert!(
        explained(&p3).starts_with("semantic=Continuation; source=cache-snapshot"),
        "{}",
        explained(&p3)
    );
}

#[test]
fn selectors_give_short_pages_and_no_remaining_count() {
    let mut e = five();
    // The server keeps reading until the page holds `limit` matches (etcd3's doubling loop).
    let p1 = page(&mut e, "limit=2&labelSelector=app%3Dodd");
    assert_eq!(p1.names(), ["b", "d"]);
    assert!(
        p1.json["metadata"]["continue"].is_string(),
        "key e remains unexamined"
    );
    assert!(p1.json["metadata"].get("remainingItemCount").is_none());
    let t = p1.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    // Only `continue` means "more": this last page is empty.
    let p2 = page(
        &mut e,
        &format!("limit=2&labelSelector=app%3Dodd&continue={t}"),
    );
    assert!(p2.names().is_empty());
    assert!(p2.json["metadata"].get("continue").is_none());
}

#[test]
fn limit_zero_or_negative_means_no_limit() {
    let mut e = five();
    for l in ["0", "-1"] {
        let r = page(&mut e, &format!("limit={l}"));
        assert_eq!(r.names().len(), 5);
        assert!(r.json["metadata"].get("continue").is_none());
    }
}

/// The JSON inside a token, as a client that peeks at it sees it.
fn token_json(t: &str) -> String {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(t)
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

#[test]
fn a_namespaced_page_token_starts_below_the_namespace_with_a_slash() {
    let mut e = five();
    let p1 = page(&mut e, "limit=2");
    let t = p1.json["metadata"]["continue"].as_str().unwrap();
    let rv = rv_of(&p1.json);
    assert_eq!(
        token_json(t),
        format!(r#"{{"v":"meta.k8s.io/v1","rv":{rv},"start":"/b\u0000"}}"#)
    );
}

#[test]
fn expired_token_offers_an_inconsistent_continuation() {
    let mut e = five();
    let p1 = page(&mut e, "limit=2");
    let t1 = p1.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    // A write after the first page, then five simulated minutes: history is compacted.
    create_cr(&mut e, "default", &cr_body("c2", 1));
    e.advance(5 * 60_000 + 1_000);
    let r = get(&mut e, &format!("{}?limit=2&continue={t1}", crs("default")));
    assert_eq!(r.code, 410, "{}", r.text);
    assert_eq!(r.reason(), "Expired");
    assert!(r.message().starts_with(
        "The provided continue parameter is too old to display a consistent list result."
    ));
    let fresh = r.json["metadata"]["continue"]
        .as_str()
        .expect("a new token in the error")
        .to_string();
    // etcd builds this one relative to the prefix with its trailing slash: no leading slash.
    assert_eq!(
        token_json(&fresh),
        r#"{"v":"meta.k8s.io/v1","rv":-1,"start":"b\u0000"}"#
    );
    // Continuing with it shows the latest state from the same position: c2 appears.
    let r = page(&mut e, &format!("limit=2&continue={fresh}"));
    assert_eq!(r.names(), ["c", "c2"]);
    assert_eq!(rv_of(&r.json), e.store().revision());
}

#[test]
fn a_token_lives_while_its_revision_is_kept() {
    let mut e = five();
    let p1 = page(&mut e, "limit=2");
    let t1 = p1.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    // Without later writes, compaction keeps the token's revision readable.
    e.advance(10 * 60_000);
    assert_eq!(
        page(&mut e, &format!("limit=2&continue={t1}")).names(),
        ["c", "d"]
    );
}

#[test]
fn malformed_tokens_are_400() {
    let mut e = five();
    for (tok, msg) in [
        ("%21%21", "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"),
        ("eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MCwic3RhcnQiOiJhIn0",
         "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"),
        // base64url of `nope`: Go's encoding/json text.
        ("bm9wZQ", "invalid continue token: continue key is not valid: invalid character 'o' in literal null (expecting 'u')"),
        // base64url of {"v":"meta.k8s.io/v0","rv":1,"start":"a"}: the version unquoted.
        ("eyJ2IjoibWV0YS5rOHMuaW8vdjAiLCJydiI6MSwic3RhcnQiOiJhIn0",
         "invalid continue token: continue key is not valid: server does not recognize this encoded version meta.k8s.io/v0"),
    ] {
        let r = get(&mut e, &format!("{}?limit=2&continue={tok}", crs("default")));
        assert_eq!(r.code, 400, "{tok}: {}", r.text);
        assert_eq!(r.message(), msg);
    }
}

#[test]
fn all_namespaces_pages_follow_storage_keys() {
    let mut e = engine();
    create_ns(&mut e, "x");
    create_ns(&mut e, "x-b");
    create_cr(&mut e, "x", &cr_body("one", 1));
    create_cr(&mut e, "x-b", &cr_body("two", 1));
    let r = get(&mut e, "/apis/apps/v1/controllerrevisions?limit=1");
    assert_eq!(r.names(), ["two"]);
    let t = r.json["metadata"]["continue"].as_str().unwrap();
    let rv = rv_of(&r.json);
    assert_eq!(
        token_json(t),
        format!(r#"{{"v":"meta.k8s.io/v1","rv":{rv},"start":"/x-b/two\u0000"}}"#)
    );
    let r2 = get(
        &mut e,
        &format!("/apis/apps/v1/controllerrevisions?limit=1&continue={t}"),
    );
    assert_eq!(r2.names(), ["one"]);
}
