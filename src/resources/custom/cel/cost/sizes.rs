//! The sizes the estimate reads off a schema node (apiextensions' `MinSerializedSize`,
//! `MaxElements` and `maxCardinality`): what fits in the largest request where the schema
//! sets no bound.

use super::{ty_of, Ty};
use crate::resources::custom::structural::Schema;

/// The largest request: what an unbounded string, list or map is assumed to fill.
const MAX_REQUEST_SIZE: u64 = 3 * 1024 * 1024;

/// `MinSerializedSize`: the fewest bytes a value of this node takes in JSON.
pub fn min_serialized_size(s: &Schema) -> u64 {
    if s.int_or_string {
        return 1;
    }
    match (s.ty.as_str(), s.format.as_str()) {
        ("string", "duration") => 3,
        ("string", "date") => 12,
        ("string", "date-time") => 21,
        ("string", _) => 2,
        ("boolean", _) => 4,
        ("integer" | "number", _) => 1,
        ("array", _) => 2,
        ("object", _) if ty_of(s) == Ty::Map => 2,
        ("object", _) => {
            2 + s
                .checks
                .required
                .iter()
                .filter_map(|name| s.properties.get(name).map(|p| (name, p)))
                .filter(|(_, p)| p.default.is_none())
                .map(|(name, p)| name.len() as u64 + min_serialized_size(p) + 4)
                .sum::<u64>()
        }
        _ => 1,
    }
}

/// `MaxElements`: the most runes, bytes, items or entries a value of this node holds (0 for
/// scalars and objects).
pub fn max_elements(s: &Schema) -> u64 {
    let max_length = s.checks.max_length.map(|n| n.max(0) as u64);
    let unbounded_string = MAX_REQUEST_SIZE - 2;
    if s.int_or_string {
        return max_length.map_or(unbounded_string, |n| n.saturating_mul(4));
    }
    match (s.ty.as_str(), s.format.as_str()) {
        ("string", "duration" | "date-time") => 32,
        ("string", "date") => 12,
        ("string", "byte") => max_length.unwrap_or(unbounded_string),
        ("string", _) => match (max_length, &s.checks.enumeration) {
            (Some(n), _) => n.saturating_mul(4),
            (None, Some(values)) => values
                .iter()
                .filter_map(|v| v.as_str())
                .map(|v| v.len() as u64)
                .max()
                .unwrap_or(0),
            (None, None) => unbounded_string,
        },
        ("array", _) => match s.checks.max_items {
            Some(n) => n.max(0) as u64,
            None => {
                let item = s.items.as_deref().map_or(1, min_serialized_size);
                (MAX_REQUEST_SIZE - 2) / (item + 1)
            }
        },
        ("object", _) if ty_of(s) == Ty::Map => match s.checks.max_properties {
            Some(n) => n.max(0) as u64,
            None => {
                let value = s.additional.as_deref().map_or(1, min_serialized_size);
                (MAX_REQUEST_SIZE - 2) / (value + 6)
            }
        },
        _ => 0,
    }
}

/// `maxCardinality`: how many values a node with this minimum size can have in one request.
pub fn unbounded_cardinality(s: &Schema) -> u64 {
    MAX_REQUEST_SIZE / (min_serialized_size(s) + 1)
}
