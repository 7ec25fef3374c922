//! apiextensions-apiserver's NamingConditionController and EstablishingController
//! (`pkg/controller/status`, `pkg/controller/establish`): a CustomResourceDefinition's
//! requested names are accepted unless another definition of the same group already uses
//! them (`NamesAccepted`), then the definition is `Established`.
//!
//! As on kube-apiserver, the naming controller first writes `Established=False`
//! (`Installing`) with the accepted names, and the establishing controller then writes
//! `Established=True` (`InitialNamesAccepted`): two status writes by `kube-apiserver`, both in
//! the tick after the definition changed. Once established, a definition stays so through
//! later renames.

use serde_json::{json, Map, Value};

use crate::registry::{Registry, Write};
use crate::resources::crd::conditions::{cond, same_condition, set_condition};
use crate::resources::crd::validation::condition_true;
use crate::resources::crd::CUSTOM_RESOURCE_DEFINITIONS as CRDS;

/// The field manager of the apiextensions controllers' writes.
pub const MANAGER: &str = "kube-apiserver";

/// The controllers between ticks: they act when a definition changed (their own status
/// writes included: the next pass finds the names accepted and does nothing).
#[derive(Debug, Default, Clone, Copy)]
pub struct CrdNames {
    seen: super::Seen,
}

impl CrdNames {
    /// Reconciles when a definition changed since the last call.
    pub fn run(&mut self, reg: &mut Registry) {
        if self.seen.changed_under(reg, &CRDS.key_prefix()) {
            reconcile(reg);
            reg.serve_definitions();
        }
    }
}

/// One pass over every definition, in name order: names, then establishment.
pub fn reconcile(reg: &mut Registry) {
    let names: Vec<String> = reg
        .live(&CRDS, None)
        .iter()
        .map(|c| c["metadata"]["name"].as_str().unwrap_or("").to_string())
        .collect();
    for name in names {
        if let Some(next) = named(reg, &name) {
            write_status(reg, next);
        }
        if let Some(next) = established(reg, &name) {
            write_status(reg, next);
        }
    }
}

fn read(reg: &Registry, name: &str) -> Option<Map<String, Value>> {
    match reg.read_current(&CRDS, &CRDS.key("", name)) {
        Ok(Some(Value::Object(m))) => Some(m),
        _ => None,
    }
}

pub(super) fn write_status(
    reg: &mut Registry,
    obj: Map<String, Value>,
) -> Option<Map<String, Value>> {
    let name = crate::resources::meta::map_meta_str(&obj, "name").to_string();
    let w = Write {
        subresource: "status".into(),
        ..Write::by(MANAGER, false)
    };
    // A conflict or a vanished definition is left to the next change, as the informer would.
    reg.update(&CRDS, &CRDS.key("", &name), obj, &w)
        .ok()
        .and_then(|v| v.as_object().cloned())
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn strings_of(v: &Value, key: &str) -> Vec<String> {
    crate::resources::meta::strings(v.get(key))
}

/// The names already accepted in `group`: resources (plural, singular, short names) and
/// kinds (kind, list kind), from every definition's `status.acceptedNames`.
fn used_names(reg: &Registry, group: &str) -> (Vec<String>, Vec<String>) {
    let (mut resources, mut kinds) = (Vec::new(), Vec::new());
    for crd in reg.live(&CRDS, None) {
        if str_of(&crd["spec"], "group") != group {
            continue;
        }
        let accepted = &crd["status"]["acceptedNames"];
        resources.push(str_of(accepted, "plural").to_string());
        resources.push(str_of(accepted, "singular").to_string());
        resources.extend(strings_of(accepted, "shortNames"));
        kinds.push(str_of(accepted, "kind").to_string());
        kinds.push(str_of(accepted, "listKind").to_string());
    }
    (resources, kinds)
}

/// `equalToAcceptedOrFresh`.
fn fresh(requested: &str, accepted: &str, used: &[String]) -> Result<(), String> {
    if requested == accepted || !used.iter().any(|u| u == requested) {
        Ok(())
    } else {
        Err(format!("{requested:?} is already in use"))
    }
}

/// The naming controller's `sync`: the definition with its accepted names and its
/// `NamesAccepted` and `Established` conditions, or `None` when nothing changes.
fn named(reg: &Registry, name: &str) -> Option<Map<String, Value>> {
    let crd = read(reg, name)?;
    let spec_names = crd.get("spec")?.get("names")?.clone();
    let status = crd.get("status").cloned().unwrap_or_else(|| json!({}));
    let accepted = status
        .get("acceptedNames")
        .cloned()
        .unwrap_or_else(|| json!({}));
    if spec_names == accepted {
        return None;
    }
    let group = str_of(crd.get("spec")?, "group").to_string();
    let (resources, kinds) = used_names(reg, &group);
    let mut next = accepted.as_object().cloned().unwrap_or_default();
    // Checked in the real order; the last failure names the condition.
    let mut condition: Option<(&str, String)> = None;
    let mut accept = |field: &str, reason: &'static str, used: &[String]| {
        let requested = str_of(&spec_names, field);
        match fresh(requested, str_of(&accepted, field), used) {
            Ok(()) => {
                next.insert(field.into(), json!(requested));
                None
            }
            Err(msg) => Some((reason, msg)),
        }
    };
    for (field, reason) in [
        ("plural", "PluralConflict"),
        ("singular", "SingularConflict"),
    ] {
        condition = accept(field, reason, &resources).or(condition);
    }
    let requested_short = strings_of(&spec_names, "shortNames");
    let accepted_short = strings_of(&accepted, "shortNames");
    let mut short_accepted = requested_short == accepted_short;
    if !short_accepted {
        let errors: Vec<String> = requested_short
            .iter()
            .filter(|s| !accepted_short.contains(s))
            .filter_map(|s| fresh(s, "", &resources).err())
            .collect();
        short_accepted = errors.is_empty();
        if !short_accepted {
            condition = Some((
                "ShortNamesConflict",
                crate::resources::field::aggregate(&errors),
            ));
        }
    }
    for (field, reason) in [("kind", "KindConflict"), ("listKind", "ListKindConflict")] {
        condition = accept(field, reason, &kinds).or(condition);
    }
    if short_accepted {
        set_or_remove(&mut next, "shortNames", &requested_short);
    }
    set_or_remove(
        &mut next,
        "categories",
        &strings_of(&spec_names, "categories"),
    );
    let names_accepted = match &condition {
        None => cond("NamesAccepted", "True", "NoConflicts", "no conflicts found"),
        Some((reason, msg)) => cond("NamesAccepted", "False", reason, msg),
    };
    let established = if condition_true(&crd, "Established") {
        None
    } else if condition.is_none() {
        Some(cond(
            "Established",
            "False",
            "Installing",
            "the initial names have been accepted",
        ))
    } else {
        Some(cond(
            "Established",
            "False",
            "NotAccepted",
            "not all names are accepted",
        ))
    };
    // (Map equality ignores order; the status write puts the names in Go's order.)
    let next_names = Value::Object(next);
    let unchanged = next_names == accepted && same_condition(&status, &names_accepted);
    if unchanged {
        return None;
    }
    let now = reg.now_text();
    let mut out = crd.clone();
    let st = out.entry("status").or_insert_with(|| json!({}));
    let st = st.as_object_mut()?;
    st.insert("acceptedNames".into(), next_names);
    set_condition(st, names_accepted, &now);
    if let Some(e) = established {
        set_condition(st, e, &now);
    }
    Some(out)
}

/// The establishing controller's `sync`: `Established=True` once names are accepted.
fn established(reg: &Registry, name: &str) -> Option<Map<String, Value>> {
    let mut crd = read(reg, name)?;
    if !condition_true(&crd, "NamesAccepted") || condition_true(&crd, "Established") {
        return None;
    }
    let now = reg.now_text();
    let st = crd.get_mut("status")?.as_object_mut()?;
    set_condition(
        st,
        cond(
            "Established",
            "True",
            "InitialNamesAccepted",
            "the initial names have been accepted",
        ),
        &now,
    );
    Some(crd)
}

fn set_or_remove(m: &mut Map<String, Value>, key: &str, values: &[String]) {
    if values.is_empty() {
        m.remove(key);
    } else {
        m.insert(key.into(), json!(values));
    }
}
