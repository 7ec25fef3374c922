//! Apply conflicts: the 409 kube-apiserver answers (`NewConflictError`), and kubectl's
//! upgrade from client-side apply (`lastAppliedManager`), which lets `kubectl apply
//! --server-side` take over fields whose live value is still what client-side apply last set.

use serde_json::Value;

use super::managed::Manager;
use super::path::path_string;
use super::updater::{Conflicts, Owned, Owners};
use super::walk::{compare, to_field_set};
use super::{FieldManager, LAST_APPLIED};
use crate::resources::status::{ApiError, Cause};

/// The 409: `Apply failed with 1 conflict: conflict with "m" using v1: .data.x`, or, for
/// several, one block per manager (sorted by identifier) listing its paths.
pub fn to_error(conflicts: Conflicts) -> ApiError {
    let mut causes = Vec::new();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (id, owned) in &conflicts.0 {
        let who = Manager::describe(id);
        let paths: Vec<String> = owned.set.paths().iter().map(|p| path_string(p)).collect();
        for p in &paths {
            causes.push(Cause {
                reason: "FieldManagerConflict".into(),
                message: format!("conflict with {who}"),
                field: Some(p.clone()),
            });
        }
        groups.push((who, paths));
    }
    let message = if causes.len() == 1 {
        format!(
            "Apply failed with 1 conflict: {}: {}",
            causes[0].message,
            causes[0].field.as_deref().unwrap_or("")
        )
    } else {
        let mut lines = Vec::new();
        for (who, paths) in &groups {
            lines.push(format!("conflicts with {who}:"));
            lines.extend(paths.iter().map(|p| format!("- {p}")));
        }
        format!(
            "Apply failed with {} conflicts: {}",
            causes.len(),
            lines.join("\n")
        )
    };
    ApiError::apply_conflict(message, causes)
}

/// The conflicts client-side apply's last-applied configuration does not vouch for: fields
/// whose live value still equals the annotation's may be taken over. `None` when the object
/// has no usable annotation (the conflicts stand as they are).
pub fn allowed_by_last_applied(
    fm: &FieldManager,
    live: &Value,
    conflicts: &Conflicts,
) -> Option<Conflicts> {
    let text = live
        .pointer("/metadata/annotations")?
        .get(LAST_APPLIED)?
        .as_str()?;
    let last: Value = serde_json::from_slice(text.as_bytes()).ok()?;
    if last.get("apiVersion").and_then(Value::as_str) != Some(fm.api_version()) {
        return None;
    }
    let root = fm.updater.root;
    if !super::typed::validate(root, &last, true).is_empty() {
        return None;
    }
    let cmp = compare(root, &last, live);
    let allowed = to_field_set(root, &last)
        .difference(&cmp.modified)
        .difference(&cmp.added)
        .difference(&cmp.removed);
    let mut remaining = Owners::new();
    for (id, owned) in &conflicts.0 {
        let left = owned.set.difference(&allowed);
        if !left.is_empty() {
            remaining.insert(
                id.clone(),
                Owned {
                    set: left,
                    ..owned.clone()
                },
            );
        }
    }
    Some(Conflicts(remaining))
}
