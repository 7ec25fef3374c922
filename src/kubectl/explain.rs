//! `kubectl explain TYPE[.field...]`: the resource's OpenAPI v3 document fetched as
//! kubectl's OpenAPI client fetches it (the `/openapi/v3` index, then the group version's
//! document by its hashed URL) and rendered as kubectl's `plaintext` template does.
//!
//! Hand-written to match byte for byte (the template's whitespace, its tab after each field
//! name, the four-space line after a description, go-wordwrap's breaks): the template's
//! functions are followed one by one, each with the template's name in its doc. Go templates
//! iterate maps by sorted key and treat empty maps, lists and strings as false: the
//! document's keys are sorted first, and `truthy` is the templates' truth.

use serde_json::{Map, Value};

use super::flags::{boolean, value, Spec};
use super::{Ctx, Output};

pub const EXPLAIN_FLAGS: &[Spec] = &[
    boolean("recursive", None),
    value("api-version", None),
    value("output", Some('o')),
];

pub fn explain(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let args = ctx.flags.args.clone();
    match args.as_slice() {
        [] => {
            return out.fail(
                "error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.\n",
            )
        }
        [_] => {}
        _ => return out.fail("error: We accept only this format: explain RESOURCE\n"),
    }
    let format = ctx.flags.get("output").unwrap_or("plaintext").to_string();
    let arg = args[0].trim_end_matches('.');
    let mut parts = arg.split('.');
    let first = parts.next().unwrap_or("");
    let Some(resource) = ctx.resolve(first, out) else {
        // The mapper's error, printed as it is (no `error: `).
        return out.fail(&format!(
            "the server doesn't have a resource type \"{first}\""
        ));
    };
    // A `resource.group` prefix names the group; the rest are fields.
    let group_resource = resource.group_resource();
    let fields: Vec<String> = match arg.strip_prefix(&group_resource) {
        Some(rest) if rest.is_empty() || rest.starts_with('.') => {
            rest.split('.').skip(1).map(str::to_string).collect()
        }
        _ => parts.map(str::to_string).collect(),
    };
    let (mut group, mut version) = (resource.group.clone(), resource.version.clone());
    if let Some(gv) = ctx.flags.get("api-version") {
        (group, version) = match gv.split_once('/') {
            Some((g, v)) => (g.to_string(), v.to_string()),
            None => (String::new(), gv.to_string()),
        };
    }
    if format == "plaintext-openapiv2" {
        // kubectl's OpenAPI v2 renderer is not written here; the document is asked for
        // all the same, and kubesim serves no v2 (as kubectl finds against it).
        return match super::openapi::v2(ctx, out) {
            Err(status) => {
                let text = ctx.report(out, &status);
                out.fail(&text)
            }
            Ok(()) => {
                out.fail("error: kubesim's kubectl renders OpenAPI v3 only: use --output plaintext")
            }
        };
    }
    let key = super::openapi::key_of(&group, &version);
    let recursive = ctx.flags.on("recursive");
    let Some(doc) = super::openapi::document(ctx, out, &key) else {
        return out.fail(&format!(
            "error: couldn't find resource for \"{}/{version}, Resource={}\"",
            group, resource.resource
        ));
    };
    let gvr = Gvr {
        group: &group,
        version: &version,
        resource: &resource.resource,
    };
    if format != "plaintext" {
        return out.fail(&format!("error: unrecognized format: {format}"));
    }
    let mut text = String::new();
    let done = render(doc, &gvr, &fields, recursive, &mut text);
    // The template writes as it goes: what it wrote before failing is printed too.
    out.out(&text);
    if let Err(e) = done {
        out.fail(&e);
    }
}

/// The resource explained.
pub struct Gvr<'a> {
    pub group: &'a str,
    pub version: &'a str,
    pub resource: &'a str,
}

/// The template's top level: the kind from the resource's paths (`x-kubernetes-group-
/// version-kind` of the first operation that has it, the last such path winning as the
/// template's reassigned `$gvk` does), the header, the schema's output and a newline,
/// written to `text`; on an error, `text` holds what the template wrote before it.
pub fn render(
    doc: &Value,
    gvr: &Gvr<'_>,
    fields: &[String],
    recursive: bool,
    text: &mut String,
) -> Result<(), String> {
    // Go templates range over maps in sorted key order.
    let sorted = crate::codec::json::sorted_keys(doc);
    let doc = &sorted;
    let prefix = if gvr.group.is_empty() {
        "/api".to_string()
    } else {
        format!("/apis/{}", gvr.group)
    };
    let (v, r) = (gvr.version, gvr.resource);
    let searched = [
        format!("{prefix}/{v}/{r}"),
        format!("{prefix}/{v}/{r}/{{name}}"),
        format!("{prefix}/{v}/namespaces/{{namespace}}/{r}"),
        format!("{prefix}/{v}/namespaces/{{namespace}}/{r}/{{name}}"),
    ];
    let mut gvk = &Value::Null;
    for path in &searched {
        let element = &doc["paths"][path];
        if !truthy(element) {
            continue;
        }
        for method in ["get", "post", "put", "patch", "delete"] {
            let operation = &element[method];
            if truthy(operation) {
                gvk = &operation["x-kubernetes-group-version-kind"];
                if truthy(gvk) {
                    break;
                }
            }
        }
    }
    if !truthy(gvk) {
        let group = if gvr.group.is_empty() { "" } else { gvr.group };
        return Err(format!(
            "error: GVR ({group}/{v}, Resource={r}) not found in OpenAPI schema"
        ));
    }
    let g = gvk["group"].as_str().unwrap_or("");
    if !g.is_empty() {
        text.push_str(&format!("GROUP:      {g}\n"));
    }
    text.push_str(&format!(
        "KIND:       {}\nVERSION:    {}\n\n",
        gvk["kind"].as_str().unwrap_or(""),
        gvk["version"].as_str().unwrap_or("")
    ));
    let r = Renderer { doc, recursive };
    let schema = r.schema(gvk, fields)?;
    if schema.is_empty() {
        return Err(format!(
            "error: GVK {} not found in OpenAPI schema",
            go_map(gvk)
        ));
    }
    text.push_str(&schema);
    text.push('\n');
    Ok(())
}

/// `%v` of a Go map: `map[group: kind:ConfigMap version:v1]`.
fn go_map(v: &Value) -> String {
    let pairs: Vec<String> = v
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}:{}", v.as_str().unwrap_or("")))
        .collect();
    format!("map[{}]", pairs.join(" "))
}

/// A Go template's truth: false for null, false, 0, and empty strings, lists and maps.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `and .additionalProperties (not (eq "bool" (printf "%T" .additionalProperties)))`: a
/// map's value schema, not `additionalProperties: true`.
fn map_values(schema: &Value) -> Option<&Value> {
    let ap = &schema["additionalProperties"];
    (truthy(ap) && !ap.is_boolean()).then_some(ap)
}

fn items(schema: &Value) -> Option<&Value> {
    let items = &schema["items"];
    truthy(items).then_some(items)
}

fn ref_of(schema: &Value) -> &str {
    schema["$ref"].as_str().unwrap_or("")
}

struct Renderer<'a> {
    doc: &'a Value,
    recursive: bool,
}

/// The `$ref`s followed on the way down (the template's `history`), to stop at a cycle.
type History<'h> = Vec<&'h str>;

impl<'a> Renderer<'a> {
    /// `resolveRef`: a `#/...` reference followed through the document's maps.
    fn resolve(&self, reference: &str) -> Option<&'a Value> {
        let fragment = reference.strip_prefix('#')?;
        let mut cur = self.doc;
        for k in fragment.split('/').filter(|k| !k.is_empty()) {
            cur = cur.get(k).filter(|v| v.is_object())?;
        }
        Some(cur)
    }

    /// `or (resolveRef $ref) $schema`.
    fn resolved(&self, schema: &'a Value) -> &'a Value {
        self.resolve(ref_of(schema))
            .filter(|v| truthy(v))
            .unwrap_or(schema)
    }

    /// Template `schema`: the first component schema (sorted by name) whose kinds include
    /// `gvk`, explained.
    fn schema(&self, gvk: &Value, fields: &[String]) -> Result<String, String> {
        let schemas = self.doc["components"]["schemas"].as_object();
        for schema in schemas.into_iter().flat_map(Map::values) {
            let kinds = schema["x-kubernetes-group-version-kind"].as_array();
            if kinds.is_some_and(|k| k.contains(gvk)) {
                let text = self.output(schema, &Vec::new(), fields)?;
                if text.is_empty() {
                    let last = fields.last().map_or("", String::as_str);
                    return Err(format!("error: field \"{last}\" does not exist"));
                }
                return Ok(text);
            }
        }
        Ok(String::new())
    }

    /// Template `output`: follows the field path, then prints the description and fields.
    fn output(
        &self,
        schema: &'a Value,
        history: &History<'a>,
        fields: &[String],
    ) -> Result<String, String> {
        let reference = ref_of(schema);
        let mut next: History<'a> = history.clone();
        next.push(reference);
        let resolved = self.resolved(schema);
        let mut text = String::new();
        if fields.is_empty() {
            let description = self.description(resolved);
            let description = if description.is_empty() {
                "<empty>".to_string()
            } else {
                description
            };
            text.push_str("DESCRIPTION:\n");
            text.push_str(&indent(4, &wrap(76, &description)));
            text.push('\n');
            let list = self.field_list(resolved, 1, None);
            if !list.is_empty() {
                text.push_str("FIELDS:\n");
                text.push_str(&list);
            }
            return Ok(text);
        }
        if !reference.is_empty() && history.contains(&reference) {
            return Ok(text);
        }
        let property = &resolved["properties"][fields[0].as_str()];
        if truthy(&resolved["properties"]) && truthy(property) {
            if fields.len() == 1 {
                text.push_str(&format!(
                    "FIELD: {} <{}>\n{}\n\n",
                    fields[0],
                    self.type_guess(property),
                    enum_long(property)
                ));
            }
            text.push_str(&self.output(property, &Vec::new(), &fields[1..])?);
        } else if let Some(items) = items(resolved) {
            text.push_str(&self.output(items, &next, fields)?);
        } else if let Some(values) = map_values(resolved) {
            text.push_str(&self.output(values, &next, fields)?);
        } else {
            for alternative in resolved["allOf"].as_array().into_iter().flatten() {
                let found = self.output(alternative, &next, fields)?;
                if !found.is_empty() {
                    text.push_str(&found);
                    break;
                }
            }
        }
        Ok(text)
    }

    /// Template `fieldList`: each property (sorted), and with `--recursive` its own fields
    /// below it, through `allOf`, `items` and map values; a `$ref` seen before ends it.
    fn field_list(&self, schema: &'a Value, level: usize, history: Option<&History<'a>>) -> String {
        let reference = ref_of(schema);
        if !reference.is_empty() && history.is_some_and(|h| h.contains(&reference)) {
            return String::new();
        }
        let mut next: History<'a> = history.cloned().unwrap_or_default();
        next.push(reference);
        let resolved = self.resolved(schema);
        let mut text = String::new();
        for (name, field) in resolved["properties"].as_object().into_iter().flatten() {
            text.push_str(&self.field_detail(resolved, name, field, level));
            if self.recursive {
                text.push_str(&self.field_list(field, level + 1, Some(&next)));
            }
        }
        for alternative in resolved["allOf"].as_array().into_iter().flatten() {
            text.push_str(&self.field_list(alternative, level, Some(&next)));
        }
        if let Some(items) = items(resolved) {
            text.push_str(&self.field_list(items, level, Some(&next)));
        }
        if let Some(values) = map_values(resolved) {
            text.push_str(&self.field_list(values, level, Some(&next)));
        }
        text
    }

    /// Template `fieldDetail`: `name\t<type>`, ` -required-`, its enum, and (unless
    /// recursive) its description wrapped and indented.
    fn field_detail(&self, parent: &Value, name: &str, field: &Value, level: usize) -> String {
        let pad = level * 2;
        let required = parent["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|n| n == name));
        let mut text = format!(
            "{}\t<{}>{}{}\n",
            indent(pad, name),
            self.type_guess(field),
            if required { " -required-" } else { "" },
            enum_short(field, pad)
        );
        if !self.recursive {
            let description = field["description"].as_str().filter(|d| !d.is_empty());
            let description = description.unwrap_or("<no description>");
            text.push_str(&indent(pad + 2, &wrap(78 - pad, description)));
            text.push_str("\n\n");
        }
        text
    }

    /// Template `description`: the schema's own description, then those of its `allOf`,
    /// `items` and map values, each ending in a newline.
    fn description(&self, schema: &'a Value) -> String {
        let schema = self.resolved(schema);
        let mut text = String::new();
        if let Some(d) = schema["description"].as_str().filter(|d| !d.is_empty()) {
            text.push_str(d);
            text.push('\n');
        }
        for alternative in schema["allOf"].as_array().into_iter().flatten() {
            text.push_str(&self.description(alternative));
        }
        if let Some(items) = items(schema) {
            text.push_str(&self.description(items));
        }
        if let Some(values) = map_values(schema) {
            text.push_str(&self.description(values));
        }
        text
    }

    /// Template `typeGuess`: `string`, `Object`, `[]Object`, `map[string]string`, or the
    /// referenced schema's short name (`ObjectMeta`).
    fn type_guess(&self, schema: &'a Value) -> String {
        if let Some(items) = items(schema) {
            return format!("[]{}", self.type_guess(items));
        }
        if let Some(values) = map_values(schema) {
            return format!("map[string]{}", self.type_guess(values));
        }
        let all_of = schema["allOf"].as_array().filter(|a| !a.is_empty());
        if let (Some([only]), false) = (all_of.map(Vec::as_slice), truthy(&schema["properties"])) {
            return self.type_guess(only);
        }
        let reference = ref_of(schema);
        if !reference.is_empty() {
            let target = self.resolve(reference).filter(|t| truthy(t));
            let ty = target.map(|t| &t["type"]).filter(|t| truthy(t));
            return match ty.and_then(Value::as_str) {
                None | Some("object") => {
                    let name = reference.rsplit('/').next().unwrap_or("");
                    let short = name.rsplit('.').next().unwrap_or("");
                    if short.is_empty() { "Object" } else { short }.to_string()
                }
                Some(t) => t.to_string(),
            };
        }
        match schema["type"].as_str() {
            Some("object") | None | Some("") => "Object".to_string(),
            Some(t) => t.to_string(),
        }
    }
}

/// An enum value as the template prints it: `""` for the empty string, else `%v`.
fn enum_value(v: &Value) -> String {
    match v {
        Value::String(s) if s.is_empty() => "\"\"".to_string(),
        Value::String(s) => s.clone(),
        // Numbers and booleans print alike in Go's `%v` and JSON.
        other => other.to_string(),
    }
}

/// Template `extractEnum`, short view: `\n<pad>enum: A, B, C, D, ....` (four at most).
fn enum_short(schema: &Value, pad: usize) -> String {
    let Some(values) = schema["enum"].as_array().filter(|e| !e.is_empty()) else {
        return String::new();
    };
    let mut text = format!("\n{}enum: ", " ".repeat(pad));
    for (i, v) in values.iter().enumerate() {
        if i >= 4 {
            text.push_str(", ....");
            break;
        }
        if i > 0 {
            text.push_str(", ");
        }
        text.push_str(&enum_value(v));
    }
    text
}

/// Template `extractEnum`, long view: `ENUM:` and each value on its own line.
fn enum_long(schema: &Value) -> String {
    let Some(values) = schema["enum"].as_array().filter(|e| !e.is_empty()) else {
        return String::new();
    };
    let mut text = "ENUM:".to_string();
    for v in values {
        text.push_str("\n    ");
        text.push_str(&enum_value(v));
    }
    text
}

/// The template's `indent`: `amount` spaces before the text and after each newline.
fn indent(amount: usize, text: &str) -> String {
    let pad = " ".repeat(amount);
    format!("{pad}{}", text.replace('\n', &format!("\n{pad}")))
}

/// go-wordwrap's `WrapString` (v1.0.1), which kubectl's word-wrap writer calls: breaks at
/// white space only, a word longer than the limit left whole, lengths counted in characters,
/// the no-break space not a space.
pub fn wrap(limit: usize, s: &str) -> String {
    let mut buf = String::with_capacity(s.len());
    let (mut current, mut word, mut space) = (0usize, String::new(), String::new());
    let (mut word_len, mut space_len) = (0usize, 0usize);
    for c in s.chars() {
        if c == '\n' {
            if word.is_empty() {
                if current + space_len <= limit {
                    buf.push_str(&space);
                }
                space.clear();
                space_len = 0;
            } else {
                buf.push_str(&space);
                buf.push_str(&word);
                space.clear();
                word.clear();
                (space_len, word_len) = (0, 0);
            }
            buf.push(c);
            current = 0;
        } else if c.is_whitespace() && c != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                buf.push_str(&space);
                buf.push_str(&word);
                space.clear();
                word.clear();
                (space_len, word_len) = (0, 0);
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + space_len + word_len > limit && word_len < limit {
                buf.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= limit {
            buf.push_str(&space);
        }
    } else {
        buf.push_str(&space);
        buf.push_str(&word);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::wrap;

    /// go-wordwrap's own cases.
    #[test]
    fn wraps_as_go_wordwrap() {
        let cases: &[(&str, usize, &str)] = &[
            ("", 0, ""),
            ("foo", 0, "foo"),
            ("foobarbaz", 4, "foobarbaz"),
            ("foo bar baz", 4, "foo\nbar\nbaz"),
            ("foo bar baz", 6, "foo\nbar\nbaz"),
            ("foo bar baz", 7, "foo bar\nbaz"),
            ("foo    bar    baz", 9, "foo\nbar\nbaz"),
            ("foo    bar    baz", 10, "foo    bar\nbaz"),
            ("foo\nbar\n\nbaz", 3, "foo\nbar\n\nbaz"),
            ("foo bar  \n  baz", 3, "foo\nbar\n\nbaz"),
            ("foo\u{a0}bar baz", 3, "foo\u{a0}bar\nbaz"),
            ("aaa bbb ccc", 11, "aaa bbb ccc"),
            ("a\u{3000}b", 1, "a\u{3000}b"),
            ("a\u{3000}bb", 2, "a\nbb"),
        ];
        for (input, limit, want) in cases {
            assert_eq!(wrap(*limit, input), *want, "{input:?} at {limit}");
        }
    }
}
