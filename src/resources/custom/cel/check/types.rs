//! The checker's types: CEL's, and the ones apiserver's `SchemaDeclType` gives a CRD schema
//! node, with how they unify and print.

use crate::resources::custom::structural::Schema;

/// A CEL type as the checker sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum T<'s> {
    /// `dyn`: a value of any type (int-or-string, `dyn()`): matches every overload, but is
    /// no bool.
    Dyn,
    /// What this checker does not model: matches anything, and passes as any result.
    Unknown,
    /// An unbound type variable: an empty literal's element, key or value, which takes the
    /// type of what it meets.
    Free,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    Str,
    Bytes,
    Timestamp,
    Duration,
    Type,
    List(Box<T<'s>>),
    Map(Box<T<'s>>, Box<T<'s>>),
    /// A schema object: its type name and node (`resource`: a resource's root, where
    /// `apiVersion`, `kind` and `metadata` are declared).
    Object(String, &'s Schema, bool),
    /// A library type (`net.IP`, `kubernetes.Quantity`).
    Named(&'static str),
    Optional(Box<T<'s>>),
}

use T::*;

impl T<'_> {
    /// `FormatCELType`.
    pub fn name(&self) -> String {
        match self {
            Dyn | Unknown | Free => "dyn".into(),
            Null => "null".into(),
            Bool => "bool".into(),
            Int => "int".into(),
            Uint => "uint".into(),
            Double => "double".into(),
            Str => "string".into(),
            Bytes => "bytes".into(),
            Timestamp => "timestamp".into(),
            Duration => "duration".into(),
            Type => "type".into(),
            List(e) => format!("list({})", e.name()),
            Map(k, v) => format!("map({}, {})", k.name(), v.name()),
            Object(n, ..) => n.clone(),
            Named(n) => (*n).into(),
            Optional(t) => format!("optional_type({})", t.name()),
        }
    }

    pub(super) fn loose(&self) -> bool {
        matches!(self, Dyn | Unknown | Free)
    }
}

/// Whether values of `a` and `b` unify (cel-go's `isAssignable` both ways, dyn anywhere).
pub(super) fn unify(a: &T, b: &T) -> bool {
    match (a, b) {
        (x, y) if x.loose() || y.loose() => true,
        (List(x), List(y)) => unify(x, y),
        (Map(k1, v1), Map(k2, v2)) => unify(k1, k2) && unify(v1, v2),
        (Optional(x), Optional(y)) => unify(x, y),
        (Object(x, ..), Object(y, ..)) => x == y,
        // null is a value of the nullable kinds.
        (Null, x) | (x, Null) => matches!(
            x,
            Null | Object(..) | Named(_) | Timestamp | Duration | Optional(_)
        ),
        (x, y) => x == y,
    }
}

/// The more general of two unified types (`mostGeneral`): dyn where either is.
pub(super) fn general<'s>(a: &T<'s>, b: &T<'s>) -> T<'s> {
    match (a, b) {
        (Free, x) | (x, Free) => x.clone(),
        (Unknown, _) | (_, Unknown) => Unknown,
        (Dyn, _) | (_, Dyn) => Dyn,
        (List(x), List(y)) => List(Box::new(general(x, y))),
        (Map(k1, v1), Map(k2, v2)) => Map(Box::new(general(k1, k2)), Box::new(general(v1, v2))),
        (Null, x) | (x, Null) => x.clone(),
        (x, _) => x.clone(),
    }
}

/// The type apiserver declares for a schema node (`SchemaDeclType`); `None` when the node is
/// not exposed.
pub fn decl<'s>(s: &'s Schema, name: String, resource: bool) -> Option<T<'s>> {
    if s.int_or_string {
        return Some(Dyn);
    }
    Some(match s.ty.as_str() {
        "array" => {
            let items = s.items.as_deref()?;
            List(Box::new(decl(
                items,
                format!("{name}.@idx"),
                items.embedded,
            )?))
        }
        "object" => match s.additional.as_deref().filter(|a| !a.absent) {
            Some(a) => Map(
                Box::new(Str),
                Box::new(decl(a, format!("{name}.@elem"), a.embedded)?),
            ),
            None => Object(name, s, resource || s.embedded),
        },
        "string" => match s.format.as_str() {
            "byte" => Bytes,
            "duration" => Duration,
            "date" | "date-time" => Timestamp,
            _ => Str,
        },
        "boolean" => Bool,
        "number" => Double,
        "integer" => Int,
        _ => return None,
    })
}

/// Whether a resource node already declares `kind` and `apiVersion` as strings and
/// `metadata` with string `name` and `generateName`, which `WithTypeAndObjectMeta` then
/// leaves as declared (an embedded resource may declare more of its metadata).
pub fn declares_type_and_meta(s: &Schema) -> bool {
    let string = |x: Option<&Schema>| x.is_some_and(|x| x.ty == "string");
    let meta = s.properties.get("metadata");
    string(s.properties.get("kind"))
        && string(s.properties.get("apiVersion"))
        && meta.is_some_and(|m| {
            m.ty == "object"
                && string(m.properties.get("name"))
                && string(m.properties.get("generateName"))
        })
}

/// The type of a field of an object (`FindStructFieldType`, escaped names, a reserved
/// word's `__name__` form).
pub(super) fn field<'s>(name: &str, s: &'s Schema, resource: bool, f: &str) -> Option<T<'s>> {
    if resource && !declares_type_and_meta(s) {
        let (meta, string) = super::super::cost::type_and_object_meta();
        match f {
            "metadata" => return decl(meta, format!("{name}.metadata"), false),
            "apiVersion" | "kind" => return decl(string, String::new(), false),
            _ => {}
        }
    }
    let wanted = if super::super::escaping::reserved(f) {
        format!("__{f}__")
    } else {
        f.to_string()
    };
    s.properties.iter().find_map(|(p, ps)| {
        (super::super::escaping::escape(p).as_deref() == Some(wanted.as_str()))
            .then(|| decl(ps, format!("{name}.{wanted}"), ps.embedded))
            .flatten()
    })
}
