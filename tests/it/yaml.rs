//! YAML for requests and responses: every kind created from a YAML body, read back as YAML
//! (object and list) and compared with its JSON form; go-yaml's output bytes; YAML's own
//! decoding rules (YAML 1.1 typing, duplicate keys as warnings or strict errors).

use crate::common::*;
use serde_json::{json, Value};

const YAML: &str = "application/yaml";

fn yaml_to_value(text: &str) -> Value {
    let c = kubesim::codec::yaml::to_json(text.as_bytes()).expect("valid YAML");
    serde_json::from_slice(&c.json).expect("JSON")
}

/// Sends a YAML body asking for YAML back.
fn send_yaml(e: &mut kubesim::Engine, method: &str, uri: &str, body: &str) -> Resp {
    send(
        e,
        method,
        uri,
        Some(body),
        &[("content-type", YAML), ("accept", YAML)],
    )
}

/// Sends a YAML body, reading the (JSON) answer.
fn post_yaml(e: &mut kubesim::Engine, uri: &str, body: &str) -> Resp {
    send(e, "POST", uri, Some(body), &[("content-type", YAML)])
}

/// (collection path, object path, YAML body, updated YAML body) for every served kind.
fn kinds() -> Vec<(String, String, String, String)> {
    vec![
        (
            crs("default"),
            cr("default", "web-1"),
            "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web-1\n  labels:\n    app: web\ndata:\n  spec:\n    replicas: 3\n    note: \"true\"\nrevision: 7\n".into(),
            "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: web-1\n  labels:\n    app: web\n    tier: front\ndata:\n  spec:\n    replicas: 3\n    note: \"true\"\nrevision: 8\n".into(),
        ),
        (
            "/api/v1/namespaces".into(),
            "/api/v1/namespaces/team-a".into(),
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  annotations:\n    owner: \"42\"\n".into(),
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  annotations:\n    owner: \"43\"\n".into(),
        ),
    ]
}

#[test]
fn every_kind_round_trips_in_json_and_yaml() {
    let mut e = engine();
    for (collection, object, body, update) in kinds() {
        let created = send_yaml(&mut e, "POST", &collection, &body);
        assert_eq!(created.code, 201, "{}", created.text);
        assert_eq!(created.header("content-type"), YAML);
        let as_json = get(&mut e, &object);
        assert_eq!(yaml_to_value(&created.text), as_json.json, "{object}");
        // GET as YAML is the same object.
        let got = send(&mut e, "GET", &object, None, &[("accept", YAML)]);
        assert_eq!(got.code, 200);
        assert_eq!(got.text, created.text, "{object}");
        // LIST as YAML holds it, items without kind/apiVersion as in JSON.
        let listed = send(&mut e, "GET", &collection, None, &[("accept", YAML)]);
        let json_list = get(&mut e, &collection);
        assert_eq!(yaml_to_value(&listed.text), json_list.json, "{collection}");
        // PUT with a YAML body (resourceVersion from the YAML we read).
        let rv = as_json.json["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_string();
        let update = update.replacen(
            "metadata:\n",
            &format!("metadata:\n  resourceVersion: \"{rv}\"\n"),
            1,
        );
        let replaced = send_yaml(&mut e, "PUT", &object, &update);
        assert_eq!(replaced.code, 200, "{}", replaced.text);
        assert_eq!(yaml_to_value(&replaced.text), get(&mut e, &object).json);
    }
}

#[test]
fn yaml_output_is_go_yaml_v2_bytes() {
    let mut e = engine();
    let mut body = cr_body("r", 3);
    body["data"] = json!({"z": 1.5, "a": [true, null, "yes", "2024-01-02"], "long": "x ".repeat(45).trim(), "multi": "a\nb\n", "big": 1234567.5});
    create_cr(&mut e, "default", &body);
    let r = send(
        &mut e,
        "GET",
        &cr("default", "r"),
        None,
        &[("accept", YAML)],
    );
    let m = get(&mut e, &cr("default", "r")).json["metadata"].clone();
    let expected = format!(
        "apiVersion: apps/v1\ndata:\n  a:\n  - true\n  - null\n  - \"yes\"\n  - \"2024-01-02\"\n  big: 1.2345675e+06\n  long: x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x\n    x x x x x x x x\n  multi: |\n    a\n    b\n  z: 1.5\nkind: ControllerRevision\nmetadata:\n  creationTimestamp: \"{}\"\n  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n      f:data:\n        f:a: {{}}\n        f:big: {{}}\n        f:long: {{}}\n        f:multi: {{}}\n        f:z: {{}}\n      f:revision: {{}}\n    manager: unknown\n    operation: Update\n    time: \"{}\"\n  name: r\n  namespace: default\n  resourceVersion: \"{}\"\n  uid: {}\nrevision: 3\n",
        m["creationTimestamp"].as_str().unwrap(),
        m["creationTimestamp"].as_str().unwrap(),
        m["resourceVersion"].as_str().unwrap(),
        m["uid"].as_str().unwrap(),
    );
    assert_eq!(r.text, expected);
    // An empty list.
    let r = send(&mut e, "GET", &crs("empty"), None, &[("accept", YAML)]);
    let rv = get(&mut e, &crs("empty")).json["metadata"]["resourceVersion"].clone();
    assert_eq!(
        r.text,
        format!("apiVersion: apps/v1\nitems: []\nkind: ControllerRevisionList\nmetadata:\n  resourceVersion: \"{}\"\n", rv.as_str().unwrap())
    );
}

#[test]
fn yaml_bodies_follow_go_yaml_v2_typing() {
    let mut e = engine();
    // `yes` is a boolean in YAML 1.1, so it cannot be a name.
    let r = post_yaml(
        &mut e,
        &crs("default"),
        "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: yes\ndata: {}\nrevision: 1\n",
    );
    assert_eq!(r.code, 400);
    assert_eq!(
        r.message(),
        "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string"
    );
    // Hex and underscores are integers.
    let r = post_yaml(
        &mut e,
        &crs("default"),
        "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: hex\ndata: {}\nrevision: 0x1_0\n",
    );
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(get(&mut e, &cr("default", "hex")).json["revision"], 16);
    // Syntax errors are the unrecognized-object 400 with a hex summary of the body.
    let r = post_yaml(&mut e, &crs("default"), "a: b: c\n");
    assert_eq!(r.code, 400);
    // YAMLToJSON's error as it is: no "error converting YAML to JSON: " in front, and no
    // line for an error on the first line (go-yaml's `parser.fail`).
    assert!(
        r.message().starts_with(
            "the object provided is unrecognized (must be of type ControllerRevision): yaml: mapping values are not allowed in this context ("
        ),
        "{}",
        r.message()
    );
    assert!(
        r.message().ends_with("(613a20623a20630a)"),
        "{}",
        r.message()
    );
}

#[test]
fn duplicate_keys_and_unknown_fields() {
    let body = "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: d\n  name: d\nspec: 1\ndata: {}\nrevision: 1\n";
    let mut e = engine();
    let r = post_yaml(&mut e, &crs("default"), body);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(
        r.header_all("warning"),
        [
            r#"299 - "line 5: key \"name\" already set in map""#,
            r#"299 - "unknown field \"spec\"""#
        ]
    );
    let r = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Strict", crs("default")),
        Some(&body.replace("name: d", "name: s")),
        &[("content-type", YAML)],
    );
    assert_eq!(r.code, 400);
    assert_eq!(
        r.message(),
        "ControllerRevision in version \"v1\" cannot be handled as a ControllerRevision: strict decoding error: yaml: unmarshal errors:\n  line 5: key \"name\" already set in map, unknown field \"spec\""
    );
    let r = send(
        &mut e,
        "POST",
        &format!("{}?fieldValidation=Ignore", crs("default")),
        Some(&body.replace("name: d", "name: i")),
        &[("content-type", YAML)],
    );
    assert_eq!(r.code, 201);
    assert!(r.header_all("warning").is_empty());
}

/// go-yaml names a parser error by its 0-based line: the bracket on line 3 reads "line 2".
#[test]
fn yaml_syntax_errors_are_the_converters_own_text() {
    let mut e = engine();
    let body =
        "apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: [a, b}\nrevision: 1\n";
    let r = post_yaml(&mut e, &crs("default"), body);
    assert_eq!(r.code, 400, "{}", r.text);
    assert!(
        r.message().starts_with(
            "the object provided is unrecognized (must be of type ControllerRevision): yaml: line 2: did not find expected ',' or ']' ("
        ),
        "{}",
        r.message()
    );
}
