//! Sharded list and watch (gate ShardedListAndWatch): ignored when off; when on, lists and
//! watches are filtered by 64-bit FNV-1a hash ranges and lists carry `shardInfo`.

use crate::common::*;
use kubesim::features::FeatureGates;
use kubesim::selectors::shard::fnv1a64;
use kubesim::{Config, Engine};

fn sharded_engine() -> Engine {
    let mut gates = FeatureGates::default();
    gates.set("ShardedListAndWatch", true).unwrap();
    Engine::new(Config {
        feature_gates: gates,
        ..Default::default()
    })
}

fn enc(s: &str) -> String {
    s.replace('%', "%25")
        .replace(' ', "%20")
        .replace('\'', "%27")
        .replace(',', "%2C")
        .replace('|', "%7C")
        .replace('(', "%28")
        .replace(')', "%29")
}

const LOW: &str = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
const HIGH: &str = "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')";

#[test]
fn ignored_when_the_gate_is_off() {
    let mut e = engine();
    for n in ["a", "b", "c"] {
        create_cr(&mut e, "default", &cr_body(n, 1));
    }
    let r = get(
        &mut e,
        &format!("{}?shardSelector={}", crs("default"), enc(LOW)),
    );
    assert_eq!(r.code, 200);
    assert_eq!(r.names().len(), 3);
    assert!(r.json["metadata"].get("shardInfo").is_none());
    let bad = get(
        &mut e,
        &format!("{}?shardSelector=nonsense", crs("default")),
    );
    assert_eq!(bad.code, 200, "not even parsed when off");
}

#[test]
fn lists_split_by_uid_hash() {
    let mut e = sharded_engine();
    let mut low_expected = Vec::new();
    for i in 0..20 {
        let c = create_cr(&mut e, "default", &cr_body(&format!("o{i:02}"), 1));
        let uid = c["metadata"]["uid"].as_str().unwrap();
        if fnv1a64(uid.as_bytes()) < 0x8000_0000_0000_0000 {
            low_expected.push(format!("o{i:02}"));
        }
    }
    let low = get(
        &mut e,
        &format!("{}?shardSelector={}", crs("default"), enc(LOW)),
    );
    let high = get(
        &mut e,
        &format!("{}?shardSelector={}", crs("default"), enc(HIGH)),
    );
    assert_eq!(low.code, 200, "{}", low.text);
    assert_eq!(low.names(), low_expected);
    assert_eq!(
        low.names().len() + high.names().len(),
        20,
        "the two halves partition the set"
    );
    assert_eq!(low.json["metadata"]["shardInfo"]["selector"], LOW);
    // With `||` the ranges are joined: the whole space.
    let both = format!("{LOW} || {HIGH}");
    let all = get(
        &mut e,
        &format!("{}?shardSelector={}&limit=5", crs("default"), enc(&both)),
    );
    assert_eq!(all.names().len(), 5);
    // Only label and field selectors hide the count; a shard selector does not, so it counts
    // every remaining key, as the real server's does.
    assert_eq!(all.json["metadata"]["remainingItemCount"], 15);
    assert_eq!(all.json["metadata"]["shardInfo"]["selector"], both);
}

#[test]
fn watch_is_filtered_the_same_way() {
    let mut e = sharded_engine();
    let rv = e.store().revision();
    let mut w = watch(
        &mut e,
        &format!(
            "{}?watch=1&resourceVersion={rv}&shardSelector={}",
            crs("default"),
            enc(LOW)
        ),
    );
    let mut want = Vec::new();
    for i in 0..10 {
        let c = create_cr(&mut e, "default", &cr_body(&format!("w{i}"), 1));
        if fnv1a64(c["metadata"]["uid"].as_str().unwrap().as_bytes()) < 0x8000_0000_0000_0000 {
            want.push(format!("ADDED w{i}"));
        }
    }
    assert_eq!(w.summary(), want);
}

#[test]
fn namespace_field_and_malformed_selectors() {
    let mut e = sharded_engine();
    create_ns(&mut e, "team");
    create_cr(&mut e, "team", &cr_body("t", 1));
    let ns_hash = fnv1a64(b"team");
    let sel = format!(
        "shardRange(object.metadata.namespace, '0x{ns_hash:016x}', '0x{:016x}')",
        ns_hash + 1
    );
    let r = get(
        &mut e,
        &format!(
            "/apis/apps/v1/controllerrevisions?shardSelector={}",
            enc(&sel)
        ),
    );
    assert_eq!(r.names(), ["t"]);
    for bad in [
        "shardRange(object.metadata.uid, '0x0', '0x10')",
        "nonsense(",
        "shardRange(object.metadata.name, '0x0000000000000000', '0x0000000000000001')",
    ] {
        let r = get(
            &mut e,
            &format!("{}?shardSelector={}", crs("default"), enc(bad)),
        );
        assert_eq!(r.code, 500, "{bad}: {}", r.text);
        assert_eq!(r.reason(), "", "a plain error, as the real server");
        assert!(
            r.message().starts_with("invalid shard selector: "),
            "{}",
            r.message()
        );
    }
    // A syntax error lists what ANTLR expected there.
    let r = get(
        &mut e,
        &format!("{}?shardSelector={}", crs("default"), enc("shardRange(")),
    );
    assert!(
        r.message().ends_with("CEL parse error: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"),
        "{}",
        r.message()
    );
}
