//! CustomResourceDefinitions as a resource: defaults, the strategy's status and generation,
//! the naming and establishing controllers, validation texts, discovery.

use kubesim::Engine;
use serde_json::{json, Value};

use crate::common::{engine, get, post, send, Resp};

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

fn crontab() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {
            "group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "kind": "CronTab", "shortNames": ["ct"]},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object",
                "properties": {"spec": {"type": "object", "properties": {
                    "cronSpec": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1.0}}}}}}}]
        }
    })
}

fn get_crd(e: &mut Engine, name: &str) -> Value {
    let Resp {
        code, json: body, ..
    } = get(e, &format!("{CRDS}/{name}"));
    assert_eq!(code, 200, "{body}");
    body
}

/// The create answer: v1 defaults applied, status reset to the strategy's (the storage
/// version recorded, `conditions` null, `acceptedNames` empty), generation 1, and every field
/// in Go struct order (`served`/`storage` always written, `minimum: 1.0` written as `1`).
#[test]
fn a_create_is_defaulted_and_its_status_is_the_strategys() {
    let mut e = engine();
    let mut sent = crontab();
    sent["status"] = json!({"storedVersions": ["v9"], "conditions": [{"type": "Established", "status": "True"}]});
    let Resp {
        code, json: body, ..
    } = post(&mut e, CRDS, &sent);
    assert_eq!(code, 201, "{body}");
    assert_eq!(body["metadata"]["generation"], 1);
    assert_eq!(
        body["spec"].to_string(),
        r#"{"group":"stable.example.com","names":{"plural":"crontabs","singular":"crontab","shortNames":["ct"],"kind":"CronTab","listKind":"CronTabList"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string"},"replicas":{"type":"integer","minimum":1}}}}}}}],"conversion":{"strategy":"None"}}"#
    );
    assert_eq!(
        body["status"].to_string(),
        r#"{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"]}"#
    );
}

/// After the create's tick the naming and establishing controllers have written the status
/// kube-apiserver's do: the accepted names, `NamesAccepted` then `Established`, as
/// `kube-apiserver` through `status`.
#[test]
fn the_controllers_accept_the_names_and_establish_the_definition() {
    let mut e = engine();
    let Resp {
        code,
        json: created,
        ..
    } = post(&mut e, CRDS, &crontab());
    assert_eq!(code, 201);
    let crd = get_crd(&mut e, "crontabs.stable.example.com");
    let status = &crd["status"];
    assert_eq!(
        status["acceptedNames"].to_string(),
        r#"{"plural":"crontabs","singular":"crontab","shortNames":["ct"],"kind":"CronTab","listKind":"CronTabList"}"#
    );
    let conditions: Vec<(&str, &str, &str, &str)> = status["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap();
            (s("type"), s("status"), s("reason"), s("message"))
        })
        .collect();
    assert_eq!(
        conditions,
        [
            ("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
            (
                "Established",
                "True",
                "InitialNamesAccepted",
                "the initial names have been accepted"
            ),
        ]
    );
    // Two status writes after the create; the spec's generation is unchanged.
    let rv = |v: &Value| {
        v["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    assert_eq!(rv(&crd), rv(&created) + 2);
    assert_eq!(crd["metadata"]["generation"], 1);
    let status_manager = crd["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["subresource"] == "status")
        .unwrap();
    assert_eq!(status_manager["manager"], "kube-apiserver");
}

/// A second definition in the group asking for names already accepted is refused them, with
/// the real reasons; `Established` stays false.
#[test]
fn names_in_use_in_the_group_are_not_accepted() {
    let mut e = engine();
    assert_eq!(post(&mut e, CRDS, &crontab()).code, 201);
    let mut other = crontab();
    other["metadata"]["name"] = json!("crontabz.stable.example.com");
    other["spec"]["names"] = json!({"plural": "crontabz", "kind": "CronTab", "shortNames": ["ct"]});
    assert_eq!(post(&mut e, CRDS, &other).code, 201);
    let crd = get_crd(&mut e, "crontabz.stable.example.com");
    let conditions = crd["status"]["conditions"].as_array().unwrap();
    assert_eq!(conditions[0]["type"], "NamesAccepted");
    assert_eq!(conditions[0]["status"], "False");
    assert_eq!(conditions[0]["reason"], "ListKindConflict");
    assert_eq!(
        conditions[0]["message"],
        r#""CronTabList" is already in use"#
    );
    assert_eq!(conditions[1]["type"], "Established");
    assert_eq!(conditions[1]["status"], "False");
    assert_eq!(conditions[1]["reason"], "NotAccepted");
    // Only the free plural is accepted: the singular, short name and kinds are taken.
    assert_eq!(
        crd["status"]["acceptedNames"].to_string(),
        r#"{"plural":"crontabz","kind":""}"#
    );
}

/// A spec change bumps `generation`; a write through `status` cannot change the spec, and
/// the main resource cannot change the status.
#[test]
fn generation_follows_the_spec_and_status_is_its_own_endpoint() {
    let mut e = engine();
    assert_eq!(post(&mut e, CRDS, &crontab()).code, 201);
    let uri = format!("{CRDS}/crontabs.stable.example.com");
    let patch = |e: &mut Engine, uri: &str, body: Value| {
        let headers = [("content-type", "application/merge-patch+json")];
        let r = send(e, "PATCH", uri, Some(&body.to_string()), &headers);
        (r.code, r.json)
    };
    let (code, body) = patch(&mut e, &uri, json!({"status": {"storedVersions": ["v7"]}}));
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["metadata"]["generation"], 1);
    assert_eq!(body["status"]["storedVersions"], json!(["v1"]));
    let (code, body) = patch(
        &mut e,
        &uri,
        json!({"spec": {"names": {"categories": ["all"]}}}),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["metadata"]["generation"], 2);
    let (code, body) = patch(
        &mut e,
        &format!("{uri}/status"),
        json!({"spec": {"scope": "Cluster"}}),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["spec"]["scope"], "Namespaced");
    assert_eq!(body["metadata"]["generation"], 2);
}

/// Validation on create, each row one mistake and the real 422 text.
#[test]
fn invalid_definitions_get_the_real_messages() {
    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "name not plural.group",
            json!({"metadata": {"name": "crontab.stable.example.com"}}),
            r#"metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group"#,
        ),
        (
            "group without a dot",
            json!({"metadata": {"name": "crontabs.example"}, "spec": {"group": "example"}}),
            r#"spec.group: Invalid value: "example": should be a domain with at least one dot"#,
        ),
        (
            "bad scope",
            json!({"spec": {"scope": "Global"}}),
            r#"spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced""#,
        ),
        (
            "no storage version",
            json!({"spec": {"versions": [{"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}),
            r#"spec.versions: Invalid value: [{"Name":"v1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version, status.storedVersions: Invalid value: null: must have at least one stored version"#,
        ),
        (
            "no schema",
            json!({"spec": {"versions": [{"name": "v1", "served": true, "storage": true}]}}),
            "spec.versions[0].schema.openAPIV3Schema: Required value",
        ),
        (
            "a field without a type",
            json!({"spec": {"versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"description": "x"}}}}}]}}),
            "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
        ),
        (
            "a bad version name",
            json!({"spec": {"versions": [{"name": "V1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]}}),
            r#"spec.versions[0].name: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#,
        ),
        (
            "kind equals listKind",
            json!({"spec": {"names": {"plural": "crontabs", "kind": "CronTab", "listKind": "CronTab"}}}),
            r#"spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same"#,
        ),
        (
            "a protected group",
            json!({"metadata": {"name": "crontabs.x.k8s.io"}, "spec": {"group": "x.k8s.io"}}),
            r#"metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111"#,
        ),
    ];
    for (what, change, want) in cases {
        let mut e = engine();
        let mut crd = crontab();
        merge(&mut crd, &change);
        let Resp {
            code, json: body, ..
        } = post(&mut e, CRDS, &crd);
        assert_eq!(code, 422, "{what}: {body}");
        let name = crd["metadata"]["name"].as_str().unwrap();
        let want = if want.contains(", status.") {
            format!("[{want}]")
        } else {
            want.to_string()
        };
        assert_eq!(
            body["message"],
            format!("CustomResourceDefinition.apiextensions.k8s.io {name:?} is invalid: {want}"),
            "{what}"
        );
    }
}

/// Merges `patch` into `doc`: objects member by member, anything else replaced.
fn merge(doc: &mut Value, patch: &Value) {
    match (doc, patch) {
        (Value::Object(d), Value::Object(p)) => {
            for (k, v) in p {
                merge(d.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (d, p) => *d = p.clone(),
    }
}

/// Discovery lists the resource as kube-apiserver does: short names, the `api-extensions`
/// category, the v1beta1 storage hash, and its status subresource.
#[test]
fn discovery_shows_the_definitions_resource() {
    let mut e = engine();
    let Resp {
        code, json: body, ..
    } = get(&mut e, "/apis/apiextensions.k8s.io/v1");
    assert_eq!(code, 200);
    assert_eq!(
        body["resources"].to_string(),
        r#"[{"name":"customresourcedefinitions","singularName":"customresourcedefinition","namespaced":false,"kind":"CustomResourceDefinition","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],"shortNames":["crd","crds"],"categories":["api-extensions"],"storageVersionHash":"jfWCUB31mvA="},{"name":"customresourcedefinitions/status","singularName":"","namespaced":false,"kind":"CustomResourceDefinition","verbs":["get","patch","update"]}]"#
    );
}

/// The name rule is the name function's: a generateName gets it too, and so does the name
/// generated from it.
#[test]
fn a_generated_name_breaks_the_name_rule_twice() {
    let mut e = engine();
    let mut crd = crontab();
    crd["metadata"] = json!({"generateName": "crontabs-"});
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 422, "{}", r.text);
    assert_eq!(r.cause_fields(), ["metadata.generateName", "metadata.name"]);
    assert!(r.message().contains(
        r#"metadata.generateName: Invalid value: "crontabs-": must be spec.names.plural+"."+spec.group"#
    ));
}

/// JSONSchemaProps' `items` and `additionalProperties` are decoded by their own
/// `UnmarshalJSON`, which is not strict: an unknown field there is dropped silently, where one
/// in `properties` is reported.
#[test]
fn strict_decoding_does_not_reach_inside_custom_unmarshallers() {
    let mut e = engine();
    let mut crd = crontab();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["tags"] = json!({"type": "array", "items": {"type": "string", "bogus": 1}});
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["bogus"] =
        json!(2);
    let body = crd.to_string();
    let headers = [("content-type", "application/json")];
    let uri = format!("{CRDS}?fieldValidation=Strict");
    let r = send(&mut e, "POST", &uri, Some(&body), &headers);
    assert_eq!(r.code, 400, "{}", r.text);
    assert_eq!(
        r.message(),
        r#"CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.bogus""#
    );
}
