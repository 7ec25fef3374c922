//! What CustomResourceDefinitions serve, seen from outside: the plain 404s of what no
//! definition serves, discovery, several served versions, list types, the status schema,
//! deprecation, selectable fields, protobuf, and deleting a definition with its objects.

use serde_json::{json, Value};

use crate::common::{engine, get, post, put, send};
use crate::custom_resources::{widget, widget_crd, with_widgets, CRDS, WIDGETS};

fn condition(crd: &Value, ty: &str) -> (String, String, String) {
    let c = crd["status"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == ty)
        .unwrap_or_else(|| panic!("no {ty} in {crd}"));
    let s = |k: &str| c[k].as_str().unwrap().to_string();
    (s("status"), s("reason"), s("message"))
}

/// Outside what the definitions serve, the CRD handler answers the plain-text 404.
#[test]
fn unserved_custom_paths_are_plain_404s() {
    let mut e = with_widgets();
    for path in [
        "/apis/example.com/v2/namespaces/default/widgets",
        "/apis/example.com/v1/namespaces/default/gadgets",
        "/apis/example.com/v1/widgets/w1",
        "/apis/example.com/v2",
    ] {
        let r = get(&mut e, path);
        assert_eq!(
            (r.code, r.text.as_str()),
            (404, "404 page not found\n"),
            "{path}"
        );
    }
}

/// Discovery of custom resources as the CRD handler and the aggregator publish them: groups
/// after the built-in ones, versions in kube-aware order, the CRD handler's verb order,
/// `status` then `scale` (an autoscaling/v1 Scale), names from the accepted ones.
#[test]
fn discovery_lists_custom_resources_as_the_crd_handler_does() {
    let mut e = engine();
    let mut crd = widget_crd();
    let v1 = crd["spec"]["versions"][0].clone();
    let mut beta = v1.clone();
    beta["name"] = json!("v1beta1");
    beta["storage"] = json!(false);
    crd["spec"]["versions"][0]["subresources"]["scale"] =
        json!({"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.size"});
    crd["spec"]["versions"] = json!([beta, crd["spec"]["versions"][0].clone()]);
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 201, "{}", r.text);
    let mut other = widget_crd();
    other["metadata"]["name"] = json!("gadgets.aaa.example.com");
    other["spec"]["group"] = json!("aaa.example.com");
    other["spec"]["names"] = json!({"plural": "gadgets", "kind": "Gadget"});
    assert_eq!(post(&mut e, CRDS, &other).code, 201);
    let groups: Vec<String> = get(&mut e, "/apis").json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        groups[groups.len() - 3..],
        ["apiextensions.k8s.io", "aaa.example.com", "example.com"]
    );
    assert_eq!(
        get(&mut e, "/apis/example.com").text,
        r#"{"kind":"APIGroup","apiVersion":"v1","name":"example.com","versions":[{"groupVersion":"example.com/v1","version":"v1"},{"groupVersion":"example.com/v1beta1","version":"v1beta1"}],"preferredVersion":{"groupVersion":"example.com/v1","version":"v1"}}"#.to_string() + "\n"
    );
    assert_eq!(
        get(&mut e, "/apis/example.com/v1beta1").text,
        r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"example.com/v1beta1","resources":[{"name":"widgets","singularName":"widget","namespaced":true,"kind":"Widget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"shortNames":["wd"],"categories":["all"],"storageVersionHash":"gIwvi5rymmg="},{"name":"widgets/status","singularName":"","namespaced":true,"kind":"Widget","verbs":["get","patch","update"]}]}"#.to_string() + "\n"
    );
    assert_eq!(
        get(&mut e, "/apis/example.com/v1").text,
        r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"example.com/v1","resources":[{"name":"widgets","singularName":"widget","namespaced":true,"kind":"Widget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"shortNames":["wd"],"categories":["all"],"storageVersionHash":"gIwvi5rymmg="},{"name":"widgets/status","singularName":"","namespaced":true,"kind":"Widget","verbs":["get","patch","update"]},{"name":"widgets/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]}]}"#.to_string() + "\n"
    );
    let aggregated = send(
        &mut e,
        "GET",
        "/apis",
        None,
        &[(
            "accept",
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
        )],
    );
    let items = aggregated.json["items"].as_array().unwrap();
    let names: Vec<&str> = items
        .iter()
        .map(|g| g["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names[names.len() - 2..], ["aaa.example.com", "example.com"]);
    let group = items.last().unwrap();
    assert_eq!(
        group["versions"][0].to_string(),
        r#"{"version":"v1","resources":[{"resource":"widgets","responseKind":{"group":"example.com","version":"v1","kind":"Widget"},"scope":"Namespaced","singularResource":"widget","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"shortNames":["wd"],"categories":["all"],"subresources":[{"subresource":"status","responseKind":{"group":"example.com","version":"v1","kind":"Widget"},"verbs":["get","patch","update"]},{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get","patch","update"]}]}],"freshness":"Current"}"#
    );
}

/// Deleting a definition marks it (the cleanup finalizer, `Terminating`), refuses creates,
/// deletes its objects, waits for those held by finalizers, then goes, and so does the
/// resource.
#[test]
fn deleting_a_definition_removes_its_objects_first() {
    let mut e = with_widgets();
    let crd_path = format!("{CRDS}/widgets.example.com");
    assert_eq!(post(&mut e, WIDGETS, &widget("w1", json!({}))).code, 201);
    let mut held = widget("w2", json!({}));
    held["metadata"]["finalizers"] = json!(["example.com/hold"]);
    assert_eq!(post(&mut e, WIDGETS, &held).code, 201);
    let r = crate::common::delete(&mut e, &crd_path);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(
        r.json["metadata"]["finalizers"],
        json!(["customresourcecleanup.apiextensions.k8s.io"])
    );
    assert!(r.json["metadata"]["deletionTimestamp"].is_string());
    assert!(r.json["metadata"]
        .get("deletionGracePeriodSeconds")
        .is_none());
    assert_eq!(
        condition(&r.json, "Terminating"),
        (
            "True".into(),
            "InstanceDeletionPending".into(),
            "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon"
                .into()
        )
    );
    e.tick();
    let r = post(&mut e, WIDGETS, &widget("w3", json!({})));
    assert_eq!(r.code, 403);
    assert_eq!(
        r.json["message"],
        r#"widgets.example.com "w3" is forbidden: create not allowed while custom resource definition is terminating"#
    );
    assert_eq!(get(&mut e, &format!("{WIDGETS}/w1")).code, 404);
    assert!(
        get(&mut e, &format!("{WIDGETS}/w2")).json["metadata"]["deletionTimestamp"].is_string()
    );
    let crd = get(&mut e, &crd_path).json;
    assert_eq!(
        condition(&crd, "Terminating"),
        (
            "True".into(),
            "InstanceDeletionInProgress".into(),
            "CustomResource deletion is in progress".into()
        )
    );
    let verbs = &get(&mut e, "/apis/example.com/v1").json["resources"][0]["verbs"];
    assert_eq!(
        verbs,
        &json!(["delete", "deletecollection", "get", "list", "watch"])
    );
    // The held object is not written again while it waits (no generation churn).
    let before = get(&mut e, &format!("{WIDGETS}/w2")).json;
    e.advance(5000);
    let after = get(&mut e, &format!("{WIDGETS}/w2")).json;
    assert_eq!(
        after["metadata"]["resourceVersion"],
        before["metadata"]["resourceVersion"]
    );
    let mut watch = crate::common::watch(&mut e, &format!("{WIDGETS}?watch=true"));
    // The last object's finalizer goes: so do the object, the definition and the resource.
    let r = send(
        &mut e,
        "PATCH",
        &format!("{WIDGETS}/w2"),
        Some(r#"{"metadata":{"finalizers":null}}"#),
        &[("content-type", "application/merge-patch+json")],
    );
    assert_eq!(r.code, 200, "{}", r.text);
    e.tick();
    e.tick();
    assert_eq!(get(&mut e, &crd_path).code, 404);
    // Its watches end with it.
    let (_, ended) = watch.events();
    assert!(ended, "the watch of a resource no longer served is over");
    let r = get(&mut e, WIDGETS);
    assert_eq!((r.code, r.text.as_str()), (404, "404 page not found\n"));
}

/// A definition that never established (its kind is another's) is finalized as the real
/// finalizer does it: the `InstanceDeletionInProgress` write first, then `NeverEstablished`
/// with the finalizer's removal, which deletes it (the DELETED event carries the state stored
/// before it).
#[test]
fn a_never_established_definition_still_reports_deletion_in_progress_first() {
    let mut e = engine();
    assert_eq!(post(&mut e, CRDS, &widget_crd()).code, 201);
    e.tick();
    let mut rival = widget_crd();
    rival["metadata"]["name"] = json!("gadgets.example.com");
    rival["spec"]["names"] = json!({"plural": "gadgets", "kind": "Widget"});
    assert_eq!(post(&mut e, CRDS, &rival).code, 201);
    e.tick();
    let path = format!("{CRDS}/gadgets.example.com");
    assert_eq!(
        condition(&get(&mut e, &path).json, "NamesAccepted").0,
        "False"
    );
    let mut watch = crate::common::watch(
        &mut e,
        &format!("{CRDS}?watch=true&fieldSelector=metadata.name%3Dgadgets.example.com"),
    );
    assert_eq!(crate::common::delete(&mut e, &path).code, 200);
    e.tick();
    e.tick();
    assert_eq!(get(&mut e, &path).code, 404);
    let (events, _) = watch.events();
    let reasons: Vec<String> = events
        .iter()
        .filter(|ev| ev["type"] == "MODIFIED")
        .map(|ev| condition(&ev["object"], "Terminating").1)
        .collect();
    assert_eq!(
        reasons,
        ["InstanceDeletionPending", "InstanceDeletionInProgress"]
    );
    assert_eq!(events.last().unwrap()["type"], "DELETED");
}

/// Two served versions with `conversion: None`: objects are stored in the storage version
/// and read in the version asked for, by GET, list and watch alike.
#[test]
fn served_versions_read_the_same_objects_in_their_own_version() {
    let mut e = engine();
    let mut crd = widget_crd();
    let mut beta = crd["spec"]["versions"][0].clone();
    beta["name"] = json!("v1beta1");
    beta["storage"] = json!(false);
    crd["spec"]["versions"] = json!([crd["spec"]["versions"][0].clone(), beta]);
    assert_eq!(post(&mut e, CRDS, &crd).code, 201);
    let beta_widgets = "/apis/example.com/v1beta1/namespaces/default/widgets";
    let mut w = crate::common::watch(&mut e, &format!("{beta_widgets}?watch=true"));
    let mut body = widget("w1", json!({"color": "red"}));
    body["apiVersion"] = json!("example.com/v1beta1");
    let r = post(&mut e, beta_widgets, &body);
    assert_eq!(r.code, 201, "{}", r.text);
    assert_eq!(r.json["apiVersion"], "example.com/v1beta1");
    assert_eq!(
        r.json["metadata"]["managedFields"][0]["apiVersion"],
        "example.com/v1beta1"
    );
    assert_eq!(
        get(&mut e, &format!("{WIDGETS}/w1")).json["apiVersion"],
        "example.com/v1"
    );
    assert_eq!(
        get(&mut e, &format!("{beta_widgets}/w1")).json["apiVersion"],
        "example.com/v1beta1"
    );
    let list = get(&mut e, beta_widgets).json;
    assert_eq!(
        (
            list["apiVersion"].as_str(),
            list["items"][0]["apiVersion"].as_str()
        ),
        (Some("example.com/v1beta1"), Some("example.com/v1beta1"))
    );
    assert_eq!(
        get(&mut e, WIDGETS).json["items"][0]["apiVersion"],
        "example.com/v1"
    );
    e.advance(1000);
    let (events, _) = w.events();
    assert_eq!(
        events[0]["object"]["apiVersion"], "example.com/v1beta1",
        "{events:?}"
    );
    // Writes through the other version: a no-op changes nothing, status works.
    let current = get(&mut e, &format!("{beta_widgets}/w1")).json;
    let r = put(&mut e, &format!("{beta_widgets}/w1"), &current);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["metadata"]["generation"], 1);
    assert_eq!(
        r.json["metadata"]["resourceVersion"],
        current["metadata"]["resourceVersion"]
    );
    let mut status = current.clone();
    status["status"] = json!({"ready": true});
    let r = put(&mut e, &format!("{beta_widgets}/w1/status"), &status);
    assert_eq!(r.code, 200, "{}", r.text);
    assert_eq!(r.json["apiVersion"], "example.com/v1beta1");
}

/// The rest of a version's definition at work: list types refuse duplicates, `status` is
/// validated against its own schema, a deprecated version warns, selectable fields select,
/// and custom resources have no protobuf form.
#[test]
fn list_types_status_schema_deprecation_selectable_fields_and_protobuf() {
    let mut e = engine();
    let mut crd = widget_crd();
    let props = &mut crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    props["spec"]["properties"]["ports"] = json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}});
    props["spec"]["properties"]["tags"]["x-kubernetes-list-type"] = json!("set");
    props["status"]["properties"]["count"] = json!({"type": "integer", "maximum": 10});
    crd["spec"]["versions"][0]["selectableFields"] = json!([{"jsonPath": ".spec.color"}]);
    let mut old = crd["spec"]["versions"][0].clone();
    old["name"] = json!("v1alpha1");
    old["storage"] = json!(false);
    old["deprecated"] = json!(true);
    crd["spec"]["versions"] = json!([crd["spec"]["versions"][0].clone(), old]);
    let r = post(&mut e, CRDS, &crd);
    assert_eq!(r.code, 201, "{}", r.text);

    let dup = widget(
        "w1",
        json!({"ports": [{"name": "http", "port": 80}, {"name": "http", "port": 81}], "tags": ["a", "a"]}),
    );
    let r = post(&mut e, WIDGETS, &dup);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "w1" is invalid: [spec.ports[1]: Duplicate value: {"name":"http"}, spec.tags[1]: Duplicate value: "a"]"#
    );

    let created = post(&mut e, WIDGETS, &widget("w1", json!({"color": "red"})));
    assert_eq!(created.code, 201);
    assert_eq!(
        post(&mut e, WIDGETS, &widget("w2", json!({"color": "blue"}))).code,
        201
    );
    let mut status = created.json.clone();
    status["status"] = json!({"count": 15});
    let r = put(&mut e, &format!("{WIDGETS}/w1/status"), &status);
    assert_eq!(r.code, 422);
    assert_eq!(
        r.json["message"],
        r#"Widget.example.com "w1" is invalid: status.count: Invalid value: 15: count in body should be less than or equal to 10"#
    );

    let r = get(
        &mut e,
        "/apis/example.com/v1alpha1/namespaces/default/widgets",
    );
    assert_eq!(r.code, 200);
    assert_eq!(
        r.headers.get("warning").unwrap().to_str().unwrap(),
        r#"299 - "example.com/v1alpha1 Widget is deprecated; use example.com/v1 Widget""#
    );
    assert!(get(&mut e, WIDGETS).headers.get("warning").is_none());
    // The CRD handler warns before it serves: a 404 and a 406 on the deprecated version
    // carry the warning too, a served version's 404 does not.
    let deprecated =
        r#"299 - "example.com/v1alpha1 Widget is deprecated; use example.com/v1 Widget""#;
    let r = get(
        &mut e,
        "/apis/example.com/v1alpha1/namespaces/default/widgets/missing",
    );
    assert_eq!(r.code, 404);
    assert_eq!(r.headers.get("warning").unwrap(), deprecated);
    let r = send(
        &mut e,
        "GET",
        "/apis/example.com/v1alpha1/namespaces/default/widgets",
        None,
        &[("accept", "application/vnd.kubernetes.protobuf")],
    );
    assert_eq!(r.code, 406);
    assert_eq!(r.headers.get("warning").unwrap(), deprecated);
    assert!(get(&mut e, &format!("{WIDGETS}/missing"))
        .headers
        .get("warning")
        .is_none());

    let r = get(
        &mut e,
        &format!("{WIDGETS}?fieldSelector=spec.color%3Dblue"),
    );
    assert_eq!(r.names(), ["w2"]);
    let r = get(&mut e, &format!("{WIDGETS}?fieldSelector=spec.size%3D3"));
    assert_eq!(r.code, 400, "{}", r.text);

    // The 406 is itself a protobuf Status.
    let r = send(
        &mut e,
        "GET",
        &format!("{WIDGETS}/w1"),
        None,
        &[("accept", "application/vnd.kubernetes.protobuf")],
    );
    assert_eq!(r.code, 406);
    assert!(r.text.contains(
        "object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message"
    ));
}

/// A definition created while a paged list and a watch run elsewhere changes nothing for
/// them: the list's next page comes at its own revision, the watch sees only its own kind,
/// and a watch of the definitions sees the controllers' status writes.
#[test]
fn a_definition_created_meanwhile_changes_nothing_for_other_reads() {
    let mut e = engine();
    let cms = "/api/v1/namespaces/default/configmaps";
    for name in ["a", "b", "c"] {
        let r = post(
            &mut e,
            cms,
            &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}),
        );
        assert_eq!(r.code, 201);
    }
    let first = get(&mut e, &format!("{cms}?limit=2"));
    let token = first.json["metadata"]["continue"]
        .as_str()
        .unwrap()
        .to_string();
    let rv = first.json["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let mut cm_watch =
        crate::common::watch(&mut e, &format!("{cms}?watch=true&resourceVersion={rv}"));
    let mut crd_watch =
        crate::common::watch(&mut e, &format!("{CRDS}?watch=true&resourceVersion={rv}"));
    assert_eq!(post(&mut e, CRDS, &widget_crd()).code, 201);
    assert_eq!(post(&mut e, WIDGETS, &widget("w1", json!({}))).code, 201);
    e.advance(2000);
    let next = get(&mut e, &format!("{cms}?limit=2&continue={token}"));
    assert_eq!(next.code, 200, "{}", next.text);
    assert_eq!(next.names(), ["c"]);
    assert_eq!(next.json["metadata"]["resourceVersion"], rv.as_str());
    let (events, ended) = cm_watch.events();
    assert!(events.is_empty() && !ended, "{events:?}");
    let (events, _) = crd_watch.events();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        ["ADDED", "MODIFIED", "MODIFIED"],
        "created, then named and established"
    );
    let r = post(
        &mut e,
        cms,
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "d"}}),
    );
    assert_eq!(r.code, 201);
    e.advance(2000);
    let (events, _) = cm_watch.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["object"]["metadata"]["name"], "d");
}
