//! Field ownership made readable: `metadata.managedFields` turned into "which manager owns
//! which field", for the response view.
//!
//! managedFields is the server's record of who set what (server-side apply's conflicts come
//! from it), but its FieldsV1 form (`f:metadata: {f:labels: {f:app: {}}}`) is hard to read.
//! This decodes each entry with the field manager's own FieldsV1 reader and lists every
//! owned field once, in the field manager's path order, with its owners. Free of the DOM,
//! so it is tested natively.

use serde_json::Value;

use crate::fieldmanager::path::{path_string, PathElement};
use crate::fieldmanager::set::Set;

/// One managedFields entry, as a reader names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub manager: String,
    /// `Apply` or `Update`.
    pub operation: String,
    pub api_version: String,
    /// Empty for the main resource; `status`, `finalize`, ...
    pub subresource: String,
    pub time: String,
}

impl Owner {
    /// `alice (Apply)`, `kubectl-edit (Update, status)`.
    pub fn label(&self) -> String {
        let mut s = format!("{} ({}", self.manager, self.operation);
        if !self.subresource.is_empty() {
            s.push_str(", ");
            s.push_str(&self.subresource);
        }
        s.push(')');
        s
    }
}

/// One owned field and the entries (indexes into [`Ownership::owners`]) that own it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The field in the field manager's notation: `.metadata.labels.app`,
    /// `.metadata.ownerReferences[uid="…"]`, `.metadata.finalizers[="x"]`.
    pub field: String,
    pub owners: Vec<usize>,
}

/// Who owns what in one object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ownership {
    pub owners: Vec<Owner>,
    pub rows: Vec<Row>,
}

impl Ownership {
    /// The ownership of `obj`, or `None` when it has no managedFields (a list, a Status, an
    /// object written with managedFields reset). An entry whose FieldsV1 cannot be read is
    /// listed as an owner of nothing rather than hiding the others.
    pub fn of(obj: &Value) -> Option<Ownership> {
        let entries = obj.get("metadata")?.get("managedFields")?.as_array()?;
        if entries.is_empty() {
            return None;
        }
        let text = |e: &Value, k: &str| e[k].as_str().unwrap_or("").to_string();
        let mut owners = Vec::new();
        let mut fields: Vec<(Vec<PathElement>, usize)> = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            owners.push(Owner {
                manager: text(e, "manager"),
                operation: text(e, "operation"),
                api_version: text(e, "apiVersion"),
                subresource: text(e, "subresource"),
                time: text(e, "time"),
            });
            let set = e
                .get("fieldsV1")
                .map(Set::from_fields_v1)
                .and_then(Result::ok)
                .unwrap_or_default();
            fields.extend(set.paths().into_iter().map(|p| (p, i)));
        }
        // Sorting by path (then entry) puts a map before its fields and the owners of one
        // field side by side.
        crate::sort::sort(&mut fields);
        let rows = fields
            .chunk_by(|a, b| a.0 == b.0)
            .map(|group| Row {
                field: path_string(&group[0].0),
                owners: group.iter().map(|(_, i)| *i).collect(),
            })
            .collect();
        Some(Ownership { owners, rows })
    }

    /// The fields `manager` owns through any of its entries.
    pub fn fields_of(&self, manager: &str) -> Vec<&str> {
        self.rows
            .iter()
            .filter(|r| r.owners.iter().any(|&i| self.owners[i].manager == manager))
            .map(|r| r.field.as_str())
            .collect()
    }

    /// The ownership as plain text, one field per line (for copying and for tests).
    pub fn to_text(&self) -> String {
        let width = self.rows.iter().map(|r| r.field.len()).max().unwrap_or(0);
        self.rows
            .iter()
            .map(|r| {
                let by: Vec<String> = r.owners.iter().map(|&i| self.owners[i].label()).collect();
                format!("{:width$}  {}", r.field, by.join(", "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}
