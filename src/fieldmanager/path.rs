//! Path elements of field paths, as structured-merge-diff's `fieldpath.PathElement`: a struct
//! field or map key (`f:`), an associative-list item by its key fields (`k:`), a set item by
//! value (`v:`), or a list index (`i:`). Their order, their FieldsV1 spelling and their
//! human spelling (`.name`, `[uid="x"]`, `[="v"]`, `[3]`) must match Go byte for byte: the
//! order decides the FieldsV1 key order in every managedFields entry, the human form appears
//! in conflict messages.

use std::cmp::Ordering;

use serde_json::{Map, Value};

use crate::codec::json as gojson;

/// One step of a field path.
#[derive(Debug, Clone)]
pub enum PathElement {
    /// A struct field or a map key.
    Field(String),
    /// An associative-list item: its key fields, sorted by name.
    Key(Vec<(String, Value)>),
    /// A set item.
    Value(Value),
    /// A list item by position.
    Index(usize),
}

/// A field path from the object's root.
pub type Path = Vec<PathElement>;

impl PathElement {
    /// A field (or map key) element.
    pub fn field(name: &str) -> Self {
        PathElement::Field(name.to_string())
    }

    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// The FieldsV1 key (`f:name`, `k:{"uid":"x"}`, `v:"x"`, `i:3`).
    pub fn serialize(&self) -> String {
        match self {
            PathElement::Field(n) => {
                let mut s = String::with_capacity(n.len() + 2);
                s.push_str("f:");
                s.push_str(n);
                s
            }
            PathElement::Key(fields) => {
                let map: Map<String, Value> = fields.iter().cloned().collect();
                format!("k:{}", gojson::to_compact_string(&Value::Object(map)))
            }
            PathElement::Value(v) => format!("v:{}", gojson::to_compact_string(v)),
            PathElement::Index(i) => format!("i:{i}"),
        }
    }

    /// Reads a FieldsV1 key back (`DeserializePathElement`).
    pub fn deserialize(s: &str) -> Result<Self, String> {
        if s.len() < 2 {
            return Err("key must be 2 characters long:".into());
        }
        let (kind, rest) = s.split_at(2);
        if !kind.ends_with(':') {
            return Err(format!("missing colon: {s}"));
        }
        match &kind[..1] {
            "f" => Ok(PathElement::Field(rest.to_string())),
            "v" => serde_json::from_slice(rest.as_bytes())
                .map(PathElement::Value)
                .map_err(|e| e.to_string()),
            "k" => {
                let map: Map<String, Value> =
                    serde_json::from_slice(rest.as_bytes()).map_err(|e| e.to_string())?;
                let mut fields: Vec<(String, Value)> = map.into_iter().collect();
                crate::sort::sort_by(&mut fields, |a, b| a.0.cmp(&b.0));
                Ok(PathElement::Key(fields))
            }
            "i" => rest
                .parse()
                .map(PathElement::Index)
                .map_err(|e: std::num::ParseIntError| e.to_string()),
            _ => Err("unknown path element type".into()),
        }
    }
}

/// The human form (`PathElement.String`).
impl std::fmt::Display for PathElement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathElement::Field(n) => write!(f, ".{n}"),
            PathElement::Key(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{k}={}", value_to_string(v)))
                    .collect();
                write!(f, "[{}]", parts.join(","))
            }
            PathElement::Value(v) => write!(f, "[={}]", value_to_string(v)),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path's human form: its elements' forms joined (`.metadata.labels.app`).
pub fn path_string(path: &[PathElement]) -> String {
    path.iter().map(ToString::to_string).collect()
}

/// `value.ToString`: strings quoted as Go's `%q`, numbers and booleans plain.
fn value_to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => crate::codec::go_quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => gojson::format_number(n),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(value_to_string).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}={}", value_to_string(v)))
            .collect(),
    }
}

impl PartialEq for PathElement {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathElement {}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `PathElement.Compare`: fields, then keys, then values, then indices.
impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.cmp(b),
            (PathElement::Key(a), PathElement::Key(b)) => compare_fields(a, b),
            (PathElement::Value(a), PathElement::Value(b)) => compare_values(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// `FieldList.Compare`: item by item (name, then value); a prefix sorts first.
fn compare_fields(a: &[(String, Value)], b: &[(String, Value)]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let c = x.0.cmp(&y.0).then_with(|| compare_values(&x.1, &y.1));
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

fn type_rank(v: &Value) -> u8 {
    match v {
        Value::Number(_) => 0,
        Value::String(_) => 2,
        Value::Bool(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
        Value::Null => 6,
    }
}

/// `value.Compare`: a total order over values — numbers (ints and floats numerically), then
/// strings, booleans, lists, maps, and null last.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if let (Some(i), Some(j)) = (x.as_i64(), y.as_i64()) {
                return i.cmp(&j);
            }
            let (fx, fy) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            fx.partial_cmp(&fy).unwrap_or(Ordering::Equal)
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                let c = compare_values(p, q);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            let mut xs: Vec<_> = x.iter().collect();
            let mut ys: Vec<_> = y.iter().collect();
            crate::sort::sort_by(&mut xs, |p, q| p.0.cmp(q.0));
            crate::sort::sort_by(&mut ys, |p, q| p.0.cmp(q.0));
            for (p, q) in xs.iter().zip(&ys) {
                let c = p.0.cmp(q.0).then_with(|| compare_values(p.1, q.1));
                if c != Ordering::Equal {
                    return c;
                }
            }
            xs.len().cmp(&ys.len())
        }
        (Value::Null, Value::Null) => Ordering::Equal,
        _ => type_rank(a).cmp(&type_rank(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn elements_order_fields_keys_values_indices() {
        let mut v = [
            PathElement::Index(0),
            PathElement::Value(json!("a")),
            PathElement::Key(vec![("uid".into(), json!("x"))]),
            PathElement::field("z"),
            PathElement::field("a"),
        ];
        v.sort();
        let keys: Vec<String> = v.iter().map(PathElement::serialize).collect();
        assert_eq!(keys, ["f:a", "f:z", "k:{\"uid\":\"x\"}", "v:\"a\"", "i:0"]);
    }

    #[test]
    fn human_forms_match_smd() {
        let path = vec![
            PathElement::field("metadata"),
            PathElement::field("ownerReferences"),
            PathElement::Key(vec![("uid".into(), json!("u1"))]),
        ];
        assert_eq!(path_string(&path), ".metadata.ownerReferences[uid=\"u1\"]");
        assert_eq!(PathElement::Value(json!("f")).to_string(), "[=\"f\"]");
        assert_eq!(PathElement::Index(3).to_string(), "[3]");
    }

    #[test]
    fn serialized_elements_read_back() {
        for s in [
            "f:a.b",
            "k:{\"name\":\"x\",\"port\":80}",
            "v:\"kubernetes\"",
            "i:2",
        ] {
            assert_eq!(PathElement::deserialize(s).unwrap().serialize(), s);
        }
        assert!(PathElement::deserialize("x:1").is_err());
        assert!(PathElement::deserialize("f").is_err());
    }
}
