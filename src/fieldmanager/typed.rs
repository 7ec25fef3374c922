//! The kinds' schemas seen as structured-merge-diff sees a converted OpenAPI schema: every
//! type is a scalar, a list (atomic, set, or a map keyed by fields) or a map (a struct with
//! named fields, or `map[string]T`; separable or atomic). `runtime.RawExtension` and other
//! free-form fields are the "deduced" type, whose shape comes from the value: maps are
//! granular, lists and scalars atomic.
//!
//! Also here: the path element of a list item (`listItemToPathElement`) and the validation
//! an applied configuration goes through (`ObjectToTyped`), with its error texts.

use serde_json::Value;

use super::path::PathElement;
use crate::codec::schema::{ListType, MapKey, Struct, Type};

/// A reference to a type.
#[derive(Debug, Clone, Copy)]
pub enum Tr {
    /// A struct (the object's root, or a struct-typed field).
    Struct(&'static Struct),
    /// A field's type.
    Ty(&'static Type),
    /// A free-form value: its shape decides.
    Deduced,
}

/// A scalar's kind, for validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    String,
    Numeric,
    Boolean,
    Untyped,
}

/// What a list's items are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Atomic,
    /// `listType=set`: items by value.
    Set,
    /// `listType=map`: items by their key fields.
    Keyed(&'static [MapKey]),
}

/// A resolved type.
#[derive(Debug, Clone, Copy)]
pub enum Atom {
    Scalar(Scalar),
    List { elem: Tr, kind: ListKind },
    Map(MapAtom),
}

/// A map: a struct's named fields, or a `map[string]T`'s element type.
#[derive(Debug, Clone, Copy)]
pub struct MapAtom {
    pub fields: Option<&'static Struct>,
    pub elem: Option<Tr>,
    pub atomic: bool,
}

impl MapAtom {
    /// The type of `key`: the named field's, else the element type (`None`: not declared).
    pub fn field_type(&self, key: &str) -> Option<Tr> {
        if let Some(s) = self.fields {
            if let Some(f) = s.field(key) {
                return Some(tr_of(&f.ty));
            }
        }
        self.elem
    }

    /// Whether `key` is a named (struct) field.
    pub fn is_named(&self, key: &str) -> bool {
        self.fields.is_some_and(|s| s.field(key).is_some())
    }
}

/// The reference for a field of type `ty`.
pub fn tr_of(ty: &'static Type) -> Tr {
    match ty {
        Type::Object(s) => Tr::Struct(s),
        // The custom-marshalled types have no `type` in OpenAPI: untyped, as for JSON.
        Type::Any | Type::Or(_) => Tr::Deduced,
        other => Tr::Ty(other),
    }
}

const DEDUCED_MAP: MapAtom = MapAtom {
    fields: None,
    elem: Some(Tr::Deduced),
    atomic: false,
};

/// Resolves `tr` for `value` (`deduceAtom`): a deduced type takes the value's shape; an
/// absent or null value of a deduced type is handled as a map, the first kind Go tries.
pub fn resolve(tr: Tr, value: Option<&Value>) -> Atom {
    match tr {
        Tr::Struct(s) => Atom::Map(MapAtom {
            fields: Some(s),
            elem: None,
            atomic: s.atomic,
        }),
        Tr::Ty(ty) => match ty {
            Type::String | Type::Bytes | Type::DateTime | Type::MicroTime => {
                Atom::Scalar(Scalar::String)
            }
            Type::Int64 | Type::Int32 | Type::Float64 => Atom::Scalar(Scalar::Numeric),
            Type::Boolean => Atom::Scalar(Scalar::Boolean),
            Type::Object(s) => resolve(Tr::Struct(s), value),
            Type::Any | Type::Or(_) => resolve(Tr::Deduced, value),
            Type::Map(inner) => Atom::Map(MapAtom {
                fields: None,
                elem: Some(tr_of(inner)),
                atomic: false,
            }),
            Type::Array(inner, lt) => Atom::List {
                elem: tr_of(inner),
                kind: match lt {
                    ListType::Atomic | ListType::Unmarked => ListKind::Atomic,
                    ListType::Set => ListKind::Set,
                    ListType::Map(keys) => ListKind::Keyed(keys),
                },
            },
        },
        Tr::Deduced => match value {
            Some(Value::Array(_)) => Atom::List {
                elem: Tr::Deduced,
                kind: ListKind::Atomic,
            },
            Some(Value::String(_) | Value::Number(_) | Value::Bool(_)) => {
                Atom::Scalar(Scalar::Untyped)
            }
            _ => Atom::Map(DEDUCED_MAP),
        },
    }
}

/// Whether `a` and `b` are the same resolution (`Atom.Equals`).
pub fn same_atom(a: &Atom, b: &Atom) -> bool {
    match (a, b) {
        (Atom::Scalar(x), Atom::Scalar(y)) => x == y,
        (Atom::List { kind: x, .. }, Atom::List { kind: y, .. }) => x == y,
        (Atom::Map(x), Atom::Map(y)) => {
            x.atomic == y.atomic
                && x.fields.map(|s| s as *const Struct) == y.fields.map(|s| s as *const Struct)
        }
        _ => false,
    }
}

/// The path element of an item of a set or keyed list (`listItemToPathElement`).
pub fn item_element(kind: ListKind, item: &Value) -> Result<PathElement, String> {
    match kind {
        ListKind::Atomic => Err("invalid indexing of non-associative list".into()),
        ListKind::Keyed(keys) => match item {
            Value::Null => Err("associative list with keys may not have a null element".into()),
            Value::Object(m) => keyed_element(keys, m),
            _ => Err("associative list with keys may not have non-map elements".into()),
        },
        ListKind::Set => match item {
            Value::Object(_) => {
                Err("associative list without keys has an element that's a map type".into())
            }
            Value::Array(_) => Err("not supported: associative list with lists as elements".into()),
            Value::Null => {
                Err("associative list without keys has an element that's an explicit null".into())
            }
            v => Ok(PathElement::Value(v.clone())),
        },
    }
}

/// A keyed item's element: its key fields, each as set or else as defaulted (a field with
/// neither is left out, so the item is another entry than one that sets it), sorted by name.
fn keyed_element(
    keys: &[MapKey],
    m: &serde_json::Map<String, Value>,
) -> Result<PathElement, String> {
    let mut fields: Vec<(String, Value)> = keys
        .iter()
        .filter_map(|k| {
            let v = m.get(k.name).or(k.default)?;
            Some((k.name.to_string(), v.clone()))
        })
        .collect();
    if fields.is_empty() {
        // Go's %q of the key names: `["a" "b"]`.
        let quoted: Vec<String> = keys
            .iter()
            .map(|k| crate::codec::go_quote(k.name))
            .collect();
        return Err(format!(
            "associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
            quoted.join(" ")
        ));
    }
    if fields.len() > 1 {
        crate::sort::sort_by(&mut fields, |a, b| a.0.cmp(&b.0));
    }
    Ok(PathElement::Key(fields))
}

/// The items of a set or keyed list with their path elements, in list order (items that
/// have none, which validation refuses, are left out).
pub fn indexed_items(kind: ListKind, items: Option<&Vec<Value>>) -> Vec<(PathElement, &Value)> {
    items
        .into_iter()
        .flatten()
        .filter_map(|item| item_element(kind, item).ok().map(|pe| (pe, item)))
        .collect()
}

/// The keys of two maps, as Go's map zip visits them (order aside): `l`'s, then those only in
/// `r`.
pub fn zip_keys<'a>(
    l: Option<&'a serde_json::Map<String, Value>>,
    r: Option<&'a serde_json::Map<String, Value>>,
) -> Vec<&'a String> {
    let mut keys: Vec<&String> = l.into_iter().flat_map(|m| m.keys()).collect();
    keys.extend(
        r.into_iter()
            .flat_map(|m| m.keys())
            .filter(|k| !l.is_some_and(|l| l.contains_key(*k))),
    );
    keys
}

/// One validation error: its path (`.spec.x`) and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeError {
    pub path: String,
    pub message: String,
}

/// `ValidationErrors.Error()`: one error as `path: text`, several as an `errors:` block.
pub fn errors_text(errs: &[TypeError]) -> String {
    let one = |e: &TypeError| {
        if e.path.is_empty() {
            e.message.clone()
        } else {
            format!("{}: {}", e.path, e.message)
        }
    };
    match errs {
        [] => String::new(),
        [e] => one(e),
        _ => {
            let mut lines = vec!["errors:".to_string()];
            lines.extend(errs.iter().map(|e| format!("  {}", one(e))));
            lines.join("\n")
        }
    }
}

/// Validates `value` against `tr` as `ObjectToTyped` does: undeclared fields, scalar types,
/// list shapes and (unless `allow_duplicates`) repeated set items or keys.
pub fn validate(tr: Tr, value: &Value, allow_duplicates: bool) -> Vec<TypeError> {
    let mut errs = Vec::new();
    validate_into(tr, value, allow_duplicates, "", &mut errs);
    errs
}

fn err(path: &str, message: String) -> TypeError {
    TypeError {
        path: path.to_string(),
        message,
    }
}

fn validate_into(tr: Tr, value: &Value, dups: bool, path: &str, errs: &mut Vec<TypeError>) {
    match resolve(tr, Some(value)) {
        Atom::Scalar(kind) => {
            let ok = match (kind, value) {
                (_, Value::Null) => true,
                (Scalar::Numeric, Value::Number(_)) => true,
                (Scalar::String, Value::String(_)) => true,
                (Scalar::Boolean, Value::Bool(_)) => true,
                (Scalar::Untyped, v) => !v.is_array() && !v.is_object(),
                _ => false,
            };
            if !ok {
                let message = match kind {
                    Scalar::Numeric => format!(
                        "expected numeric (int or float), got {}",
                        crate::codec::go_type_of(value)
                    ),
                    Scalar::String => format!(
                        "expected string, got &value.valueUnstructured{{Value:{}}}",
                        crate::codec::go_sprint(value)
                    ),
                    Scalar::Boolean => {
                        format!("expected boolean, got {}", crate::codec::go_sprint(value))
                    }
                    Scalar::Untyped => format!(
                        "expected any scalar, got {}",
                        crate::codec::go_sprint(value)
                    ),
                };
                errs.push(err(path, message));
            }
        }
        Atom::List { elem, kind } => {
            let items = match value {
                Value::Null => return,
                Value::Array(items) => items,
                other => {
                    errs.push(err(
                        path,
                        format!("expected list, got {}", crate::codec::go_sprint(other)),
                    ));
                    return;
                }
            };
            let mut seen: std::collections::BTreeSet<PathElement> = Default::default();
            for (i, item) in items.iter().enumerate() {
                let pe = if kind == ListKind::Atomic {
                    PathElement::Index(i)
                } else {
                    match item_element(kind, item) {
                        Ok(pe) => pe,
                        Err(e) => {
                            errs.push(err(path, format!("element {i}: {e}")));
                            return;
                        }
                    }
                };
                if kind != ListKind::Atomic && !seen.insert(pe.clone()) && !dups {
                    errs.push(err(path, format!("duplicate entries for key {pe}")));
                }
                validate_into(elem, item, dups, &format!("{path}{pe}"), errs);
            }
        }
        Atom::Map(m) => {
            let map = match value {
                Value::Null => return,
                Value::Object(map) => map,
                other => {
                    errs.push(err(
                        path,
                        format!("expected map, got {}", crate::codec::go_sprint(other)),
                    ));
                    return;
                }
            };
            for (k, v) in map {
                let child = format!("{path}.{k}");
                match m.field_type(k) {
                    Some(t) => validate_into(t, v, dups, &child, errs),
                    None => {
                        errs.push(err(&child, "field not declared in schema".into()));
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::schema::CONTROLLER_REVISION;
    use serde_json::json;

    fn check(v: Value) -> String {
        errors_text(&validate(Tr::Struct(&CONTROLLER_REVISION), &v, false))
    }

    #[test]
    fn undeclared_fields_and_wrong_types_read_as_smd() {
        assert_eq!(
            check(json!({"foo": 1})),
            ".foo: field not declared in schema"
        );
        assert_eq!(
            check(json!({"metadata": {"labels": {"a": "b"}, "bogus": true}})),
            ".metadata.bogus: field not declared in schema"
        );
        assert_eq!(
            check(json!({"revision": "x"})),
            ".revision: expected numeric (int or float), got string"
        );
        // Anything goes inside `data`.
        assert_eq!(check(json!({"data": {"x": [1, {"y": null}]}})), "");
    }

    #[test]
    fn sets_and_keyed_lists_refuse_duplicates() {
        assert_eq!(
            check(json!({"metadata": {"finalizers": ["a", "a"]}})),
            ".metadata.finalizers: duplicate entries for key [=\"a\"]"
        );
        assert_eq!(
            check(json!({"metadata": {"ownerReferences": [{"name": "x"}]}})),
            ".metadata.ownerReferences: element 0: associative list with keys has an element that omits all key fields [\"uid\"] (and doesn't have default values for any key fields)"
        );
        assert!(validate(
            Tr::Struct(&CONTROLLER_REVISION),
            &json!({"metadata": {"finalizers": ["a", "a"]}}),
            true
        )
        .is_empty());
    }
}
