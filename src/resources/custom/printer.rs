//! A custom kind's Table (`pkg/registry/customresource/tableconvertor`): `Name`, then the
//! version's `additionalPrinterColumns`, or `Age` alone when it has none
//! (`serveDefaultColumnsIfEmpty`). Each cell is the first result of the column's JSONPath,
//! cast to the column's type (`cellForJSONValue`); `date` cells print as ages.

use serde_json::Value;

use super::{leak, leak_str, PrinterColumn};
use crate::resources::schema::CREATION_TIMESTAMP_DOC;
use crate::resources::{Column, Printer};

/// A custom kind's columns and how to fill them.
#[derive(Debug)]
pub struct CustomPrinter {
    columns: Vec<PrinterColumn>,
    paths: Vec<Option<jsonpath::Path>>,
    defs: &'static [Column],
}

/// The columns served when a version defines none.
fn default_columns() -> Vec<PrinterColumn> {
    vec![PrinterColumn {
        name: "Age".into(),
        ty: "date".into(),
        format: String::new(),
        description: CREATION_TIMESTAMP_DOC.into(),
        priority: 0,
        json_path: ".metadata.creationTimestamp".into(),
    }]
}

/// The printer of a version with `columns` (its `additionalPrinterColumns`).
pub fn printer(columns: &[PrinterColumn]) -> &'static CustomPrinter {
    let columns = if columns.is_empty() {
        default_columns()
    } else {
        columns.to_vec()
    };
    let defs: Vec<Column> = columns
        .iter()
        .map(|c| Column {
            name: leak_str(&c.name),
            ty: leak_str(&c.ty),
            format: leak_str(&c.format),
            description: if c.description.is_empty() {
                leak_str(&format!(
                    "Custom resource definition column (in JSONPath format): {}",
                    c.json_path
                ))
            } else {
                leak_str(&c.description)
            },
            priority: u8::try_from(c.priority).unwrap_or(u8::MAX),
        })
        .collect();
    let paths = columns
        .iter()
        .map(|c| jsonpath::Path::parse(&c.json_path).ok())
        .collect();
    leak(CustomPrinter {
        columns,
        paths,
        defs: Box::leak(defs.into_boxed_slice()),
    })
}

impl Printer for CustomPrinter {
    fn columns(&self) -> &'static [Column] {
        self.defs
    }

    /// `Age` is one of the columns (a `date` column) when the version prints it.
    fn has_age(&self) -> bool {
        false
    }

    fn cells(&self, obj: &Value, now_ms: i64) -> Vec<Value> {
        self.columns
            .iter()
            .zip(&self.paths)
            .map(|(column, path)| {
                let Some(found) = path.as_ref().and_then(|p| p.first(obj)) else {
                    return Value::Null;
                };
                cell(&column.ty, found, now_ms)
            })
            .collect()
    }
}

/// `cellForJSONValue`, with `string` columns printed as JSONPath prints a result.
fn cell(ty: &str, value: &Value, now_ms: i64) -> Value {
    match (ty, value) {
        (_, Value::Null) => Value::Null,
        ("string", Value::String(s)) => Value::String(s.clone()),
        ("string", other) => Value::String(jsonpath::text(other)),
        ("integer", Value::Number(n)) => match n.as_i64() {
            Some(i) => Value::from(i),
            None => n.as_f64().map_or(Value::Null, |f| Value::from(f as i64)),
        },
        ("number", Value::Number(n)) => n.as_f64().map_or(Value::Null, Value::from),
        ("boolean", Value::Bool(b)) => Value::Bool(*b),
        // `ConvertToHumanReadableDateType`.
        ("date", Value::String(s)) => match crate::codec::rfc3339::parse_full(s) {
            Ok(t) if t.is_go_zero() => Value::String("<unknown>".into()),
            Ok(_) => {
                Value::String(crate::resources::duration::since(value, now_ms).unwrap_or_default())
            }
            Err(_) => Value::String("<invalid>".into()),
        },
        _ => Value::Null,
    }
}

pub mod jsonpath {
    //! The simple JSONPath printer columns and selectable fields use (client-go's
    //! `util/jsonpath` over one object): `.a.b`, `['a']`, `[0]`, `[*]`, `..` is not
    //! supported, and `[?(@.k == "v")]` filters.

    use serde_json::Value;

    #[derive(Debug, Clone, PartialEq)]
    enum Step {
        Field(String),
        Index(i64),
        All,
        Filter(Vec<String>, bool, Value),
    }

    /// A parsed path.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Path(Vec<Step>);

    impl Path {
        /// Parses `.spec.replicas` (optionally within `{}`).
        pub fn parse(text: &str) -> Result<Path, String> {
            let t = text.trim();
            let t = t
                .strip_prefix('{')
                .and_then(|t| t.strip_suffix('}'))
                .unwrap_or(t);
            let b = t.as_bytes();
            let mut i = 0;
            let mut steps = Vec::new();
            while i < b.len() {
                match b[i] {
                    b'.' => {
                        i += 1;
                        let start = i;
                        while i < b.len() && b[i] != b'.' && b[i] != b'[' {
                            i += 1;
                        }
                        if i > start {
                            steps.push(Step::Field(t[start..i].to_string()));
                        }
                    }
                    b'[' => {
                        let end = t[i..].find(']').ok_or("unterminated [")? + i;
                        let inner = t[i + 1..end].trim();
                        i = end + 1;
                        steps.push(bracket(inner)?);
                    }
                    b'@' | b'$' => i += 1,
                    _ => {
                        let start = i;
                        while i < b.len() && b[i] != b'.' && b[i] != b'[' {
                            i += 1;
                        }
                        steps.push(Step::Field(t[start..i].to_string()));
                    }
                }
            }
            Ok(Path(steps))
        }

        /// The first value the path finds in `obj`.
        pub fn first<'a>(&self, obj: &'a Value) -> Option<&'a Value> {
            let mut current = vec![obj];
            for step in &self.0 {
                let mut next = Vec::new();
                for v in current {
                    match step {
                        Step::Field(f) => next.extend(v.get(f.as_str())),
                        Step::Index(n) => {
                            if let Some(a) = v.as_array() {
                                let at = if *n < 0 { a.len() as i64 + n } else { *n };
                                next.extend(usize::try_from(at).ok().and_then(|i| a.get(i)));
                            }
                        }
                        Step::All => match v {
                            Value::Array(a) => next.extend(a.iter()),
                            Value::Object(m) => next.extend(m.values()),
                            _ => {}
                        },
                        Step::Filter(path, equal, want) => {
                            for item in v.as_array().into_iter().flatten() {
                                let mut at = Some(item);
                                for p in path {
                                    at = at.and_then(|x| x.get(p.as_str()));
                                }
                                if at.is_some_and(|got| (got == want) == *equal) {
                                    next.push(item);
                                }
                            }
                        }
                    }
                }
                current = next;
            }
            current.into_iter().next()
        }
    }

    fn bracket(inner: &str) -> Result<Step, String> {
        if inner == "*" {
            return Ok(Step::All);
        }
        if let Some(f) = inner
            .strip_prefix('\'')
            .and_then(|s| s.strip_suffix('\''))
            .or_else(|| inner.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        {
            return Ok(Step::Field(f.to_string()));
        }
        if let Some(expr) = inner.strip_prefix("?(").and_then(|s| s.strip_suffix(')')) {
            let (lhs, equal, rhs) = if let Some((l, r)) = expr.split_once("==") {
                (l, true, r)
            } else if let Some((l, r)) = expr.split_once("!=") {
                (l, false, r)
            } else {
                return Err(format!("unsupported filter {expr}"));
            };
            let path = lhs
                .trim()
                .trim_start_matches('@')
                .split('.')
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect();
            let rhs = rhs.trim();
            let want = if let Some(s) = rhs
                .strip_prefix('\'')
                .and_then(|s| s.strip_suffix('\''))
                .or_else(|| rhs.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
            {
                Value::String(s.to_string())
            } else {
                serde_json::from_slice(rhs.as_bytes()).map_err(|e| e.to_string())?
            };
            return Ok(Step::Filter(path, equal, want));
        }
        inner
            .parse::<i64>()
            .map(Step::Index)
            .map_err(|_| format!("unsupported bracket [{inner}]"))
    }

    /// How JSONPath prints a result: strings as they are, other values as JSON.
    pub fn text(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            other => crate::codec::json::to_compact_string(other),
        }
    }
}
