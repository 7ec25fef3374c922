//! What a write's body set at its top level, for the rules about fields the client left out.
//!
//! The decoded object cannot show an omission: Go's decoder fills a missing `revision` with
//! its zero value, as it does for `"revision": null`. The rules that care (a
//! ControllerRevision's required `revision`) ask this instead. Only the top-level members
//! are kept, not the body as a tree: building one cost a create as much as decoding it.

use serde_json::{Map, Value};

use crate::codec::json::Raw;

/// The top-level members of a write's body that are set (present and not `null`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sent(Vec<String>);

impl Sent {
    /// Nothing sent: the server's own writes (bootstrap, controllers).
    pub fn none() -> Self {
        Sent::default()
    }

    /// What a decoded document sets.
    pub fn of(body: &Map<String, Value>) -> Self {
        Sent(
            body.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, _)| k.clone())
                .collect(),
        )
    }

    /// What a parsed body sets; of members repeated, the last counts, as a decoder filling a
    /// struct ends with.
    pub(crate) fn of_raw(body: &Raw) -> Self {
        let Raw::Object(members) = body else {
            return Sent::none();
        };
        let mut set: Vec<String> = Vec::new();
        for (k, v) in members {
            let null = matches!(v, Raw::Null);
            match set.iter().position(|s| s == k) {
                Some(i) if null => {
                    set.remove(i);
                }
                None if !null => set.push(k.clone()),
                _ => {}
            }
        }
        Sent(set)
    }

    /// Whether the body set `field`.
    pub fn has(&self, field: &str) -> bool {
        self.0.iter().any(|f| f == field)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member counts when its last occurrence is not null, read the same from a parse tree
    /// as from the document it decodes to.
    #[test]
    fn set_members_are_the_last_non_null_ones() {
        let cases: &[(&str, &[&str])] = &[
            (r#"{"a":1,"b":null,"c":{}}"#, &["a", "c"]),
            (r#"{"a":1,"a":null}"#, &[]),
            (r#"{"a":null,"a":2}"#, &["a"]),
            (r#"[1]"#, &[]),
            (r#"{}"#, &[]),
        ];
        for (doc, want) in cases {
            let raw = crate::codec::json::parse_raw(doc.as_bytes()).unwrap();
            let sent = Sent::of_raw(&raw);
            for f in ["a", "b", "c"] {
                assert_eq!(sent.has(f), want.contains(&f), "{doc}: {f}");
            }
            let value = crate::codec::json::parse(doc.as_bytes()).unwrap().value;
            let from_value = value.as_object().map(Sent::of).unwrap_or_default();
            for f in ["a", "b", "c"] {
                assert_eq!(from_value.has(f), sent.has(f), "{doc}: {f}");
            }
        }
    }
}
