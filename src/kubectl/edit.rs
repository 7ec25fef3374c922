//! `kubectl edit`: the objects read as the builder reads them, written to "the editor" (the
//! terminal's editor pane; the parity test's `KUBE_EDITOR` script) behind kubectl's header
//! comment, with managedFields left out; when the editor closes, the saved text compared
//! with what it was given (comments aside), parsed, checked (apiVersion, kind, name and
//! namespace unchanged) and sent as kubectl sends it: a two-way strategic merge patch for
//! the kinds in kubectl's scheme, a JSON merge patch for the rest, `fieldManager=kubectl-edit`.
//! A server's Invalid reopens the editor with the causes in the header, as kubectl does; a
//! second save with nothing changed gives up.
//!
//! The edit is two calls: [`edit`] returns an [`Editing`] in `Output::editing`, and
//! `Kubectl::finish_edit` hands it the saved text.

use serde_json::{json, Value};

use super::client::{encode_query, Call};
use super::flags::{boolean, value, Parsed, Spec};
use super::mapper::Resource;
use super::printers::{name_of, omit_managed_fields};
use super::{Ctx, Output};

pub const EDIT_FLAGS: &[Spec] = &[
    value("output", Some('o')),
    boolean("output-patch", None),
    value("field-manager", None),
    value("validate", None),
    boolean("save-config", None),
    boolean("windows-line-endings", None),
    value("selector", Some('l')),
    boolean("all-namespaces", Some('A')),
];

/// What the `-v=5` line names as the editor: the terminal's pane.
pub const EDITOR: &str = "kubesim-editor-pane";

const HEADER: &str = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";

/// An edit waiting for the editor to close.
#[derive(Debug, Clone)]
pub struct Editing {
    /// The file the editor opens with.
    pub text: String,
    /// Its path, as kubectl names a temporary file.
    pub file: String,
    /// The objects as read, managedFields included, with their resources.
    originals: Vec<(Resource, Value)>,
    /// The first file (its header included), to compare a save with.
    original: String,
    /// The text saved last time, when the editor was reopened after an error.
    previous: Option<String>,
    pub(super) flags: Parsed,
    pub(super) namespace: String,
}

pub fn edit(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let format = ctx.flags.get("output").unwrap_or("yaml").to_string();
    if format != "yaml" && format != "json" {
        return out.fail(&format!(
            "error: the edit mode doesn't support output the format \"{format}\""
        ));
    }
    let Some(originals) = objects(ctx, out) else {
        return;
    };
    if originals.is_empty() {
        return out.fail("error: edit cancelled, no objects found");
    }
    // JSON gets no comment header (JSON has no comments).
    let json = format == "json";
    let header = if json { "" } else { HEADER };
    let text = format!("{header}{}", print(ctx, &originals));
    ctx.session.edits += 1;
    let ext = if json { "json" } else { "yaml" };
    let file = format!("/tmp/kubectl-edit-{}.{ext}", ctx.session.edits);
    if ctx.client.verbosity >= 5 {
        let line = format!("Opening file with editor [{EDITOR} {file}]");
        ctx.client.log(out, "launcher_others.go:62", &line);
    }
    out.editing = Some(Editing {
        file,
        original: text.clone(),
        text,
        originals,
        previous: None,
        flags: ctx.flags.clone(),
        namespace: ctx.namespace.clone(),
    });
}

/// What the builder finds: the objects named, or every one of a type.
fn objects(ctx: &mut Ctx<'_, '_>, out: &mut Output) -> Option<Vec<(Resource, Value)>> {
    let args = ctx.flags.args.clone();
    if args.is_empty() {
        out.fail("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'");
        return None;
    }
    if args.len() == 1 && !args[0].contains('/') {
        let Some(r) = ctx.resolve(&args[0], out) else {
            out.fail(&format!(
                "error: the server doesn't have a resource type \"{}\"",
                args[0]
            ));
            return None;
        };
        return match ctx.list_all(out, &r, false) {
            Ok(items) => Some(items.into_iter().map(|o| (r.clone(), o)).collect()),
            Err(status) => {
                let text = ctx.report(out, &status);
                out.fail(&text);
                None
            }
        };
    }
    let mut found = Vec::new();
    for (r, name) in super::write::named(ctx, out, "edit")? {
        let reply = ctx.get_named(out, &r, &name, "application/json");
        if !reply.ok() {
            let text = ctx.report(out, &reply.json());
            out.fail(&text);
            return None;
        }
        found.push((r, reply.json()));
    }
    Some(found)
}

/// The objects as the editor shows them: one alone, several in a `v1` `List`, without
/// managedFields, in YAML or JSON.
fn print(ctx: &Ctx<'_, '_>, originals: &[(Resource, Value)]) -> String {
    let mut shown = match originals {
        [(_, one)] => one.clone(),
        many => json!({"apiVersion": "v1", "kind": "List", "metadata": {},
            "items": many.iter().map(|(_, o)| o.clone()).collect::<Vec<_>>()}),
    };
    omit_managed_fields(&mut shown);
    if ctx.flags.get("output") == Some("json") {
        super::printers::json(&shown)
    } else {
        super::printers::yaml(&shown)
    }
}

/// `cmdutil.ManualStrip`: the lines that are not comments (`#!` kept).
fn manual_strip(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with('#') && !t.starts_with("#!") {
            continue;
        }
        out.push_str(line);
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
    out
}

/// `cmdutil.StripComments`: the text as JSON (comments gone), else stripped by hand.
fn strip_comments(text: &str) -> Vec<u8> {
    match crate::codec::yaml::parse::to_json(text.as_bytes()) {
        Ok(c) => c.json,
        Err(_) => manual_strip(text).into_bytes(),
    }
}

/// `hasLines`: a line with something other than white space or a comment.
fn has_lines(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    })
}

/// One reason the editor reopens: a head and its causes.
struct Reason {
    head: String,
    causes: Vec<String>,
}

/// `hashOnLineBreak`: every line of a reason a comment.
fn hash_on_line_break(s: &str) -> String {
    let mut out = String::new();
    let bytes = s.as_bytes();
    for (i, c) in s.char_indices() {
        if c == '\n' && bytes.get(i + 1).is_some_and(|b| *b != b'#') {
            out.push_str("\n# ");
        } else {
            out.push(c);
        }
    }
    out
}

fn header_with(reasons: &[Reason]) -> String {
    let mut text = HEADER.to_string();
    for r in reasons {
        let colon = if r.causes.is_empty() { "" } else { ":" };
        text.push_str(&format!("# {}{colon}\n", hash_on_line_break(&r.head)));
        for c in &r.causes {
            text.push_str(&format!("# * {}\n", hash_on_line_break(c)));
        }
        text.push_str("#\n");
    }
    text
}

impl Editing {
    /// The editor opened again on what was saved, the reasons above it.
    fn reopen(mut self, out: &mut Output, saved: &str, reasons: &[Reason]) {
        self.text = format!("{}{}", header_with(reasons), manual_strip(saved));
        self.previous = Some(saved.to_string());
        out.editing = Some(self);
    }

    fn preserved(&self, out: &mut Output, error: &str) {
        out.err(&format!(
            "A copy of your changes has been stored to \"{}\"\n",
            self.file
        ));
        out.fail(error);
    }
}

/// The editor closed with `saved` in the file.
pub fn finish(ctx: &mut Ctx<'_, '_>, out: &mut Output, editing: Editing, saved: &str) {
    if let Some(previous) = &editing.previous {
        if strip_comments(previous) == strip_comments(saved) {
            return editing.preserved(out, "error: Edit cancelled, no valid changes were saved.");
        }
    }
    if ctx.client.verbosity >= 4 {
        let line = format!("User edited:\n{saved}");
        ctx.client.log(out, "editoptions.go:310", &line);
    }
    if let Some(e) = validate(ctx, out, &editing) {
        let (r, first) = &editing.originals[0];
        let reason = Reason {
            head: format!(
                "{} {} was not valid",
                r.group_resource(),
                go_quoted_name(first)
            ),
            causes: vec![format!(
                "<nil>: Invalid value: \"The edited file failed validation\": {e}"
            )],
        };
        out.err(&format!(
            "error: {} {} is invalid\n",
            r.group_resource(),
            go_quoted_name(first)
        ));
        return editing.reopen(out, saved, &[reason]);
    }
    if strip_comments(&editing.original) == strip_comments(saved) {
        out.err("Edit cancelled, no changes made.\n");
        return;
    }
    if !has_lines(saved) {
        out.err("Edit cancelled, saved file was empty.\n");
        return;
    }
    let edited = match parse(saved) {
        Ok(objects) => objects,
        Err(e) => {
            let head = format!("The edited file had a syntax error: {e}");
            return editing.reopen(
                out,
                saved,
                &[Reason {
                    head,
                    causes: Vec::new(),
                }],
            );
        }
    };
    let mut reasons = Vec::new();
    let (mut retryable, mut not_found) = (false, false);
    for mut obj in edited {
        let uid = obj["metadata"]["uid"].clone();
        let Some((r, original)) = editing
            .originals
            .iter()
            .find(|(_, o)| o["metadata"]["uid"] == uid)
        else {
            return editing.preserved(
                out,
                "error: no original object found for the edited object (its uid was changed)",
            );
        };
        // managedFields go back as they were, on both sides.
        if let Some(fields) = original["metadata"].get("managedFields") {
            obj["metadata"]["managedFields"] = fields.clone();
        }
        let ns = obj["metadata"]["namespace"].as_str().unwrap_or("");
        if r.namespaced && !ns.is_empty() && ns != editing.namespace {
            return editing.preserved(out, &format!(
                "error: the namespace from the provided object \"{ns}\" does not match the namespace \"{}\". You must pass '--namespace={ns}' to perform this operation.",
                editing.namespace
            ));
        }
        if &obj == original {
            print_result(ctx, out, &obj, "skipped");
            continue;
        }
        let patch = super::apply::two_way(original, &obj);
        let changed = |k: &str| patch.contains_key(k);
        if changed("apiVersion")
            || changed("kind")
            || changed("managedFields")
            || patch
                .get("metadata")
                .is_some_and(|m| m.get("name").is_some())
        {
            return editing.preserved(
                out,
                "error: At least one of apiVersion, kind and name was changed",
            );
        }
        let patch = crate::codec::json::sorted_keys(&Value::Object(patch));
        if ctx.flags.on("output-patch") {
            out.out(&format!(
                "Patch: {}\n",
                crate::codec::json::to_compact_string(&patch)
            ));
        }
        match send(ctx, out, r, original, &patch) {
            Ok(patched) => print_result(ctx, out, &patched, "edited"),
            Err(status) => {
                let resource = r.group_resource();
                let quoted = go_quoted_name(original);
                match status["reason"].as_str() {
                    Some("Invalid") => {
                        let causes = super::causes_of(&status);
                        reasons.push(Reason {
                            head: format!("{resource} {quoted} was not valid"),
                            causes,
                        });
                        out.err(&format!("error: {resource} {quoted} is invalid\n"));
                    }
                    Some("NotFound") => {
                        not_found = true;
                        out.err(&format!(
                            "error: {resource} {quoted} could not be found on the server\n"
                        ));
                    }
                    _ => {
                        retryable = true;
                        let message = super::server_error(&status);
                        let message = message.strip_prefix("Error from server ").map_or(
                            message.clone(),
                            |rest| {
                                rest.split_once(": ")
                                    .map_or(rest.to_string(), |(_, m)| m.to_string())
                            },
                        );
                        out.err(&format!(
                            "error: {resource} {quoted} could not be patched: {message}\n"
                        ));
                    }
                }
            }
        }
    }
    if retryable {
        out.err(&format!(
            "You can run `kubectl replace -f {}` to try this update again.\n",
            editing.file
        ));
        out.exit = 1;
    } else if not_found {
        out.err(&format!(
            "The edits you made on deleted resources have been saved to \"{}\"\n",
            editing.file
        ));
        out.exit = 1;
    } else if !reasons.is_empty() {
        editing.reopen(out, saved, &reasons);
    }
}

/// The result as `-o` asks: the object in YAML or JSON (managedFields left out), else
/// `configmap/one edited`.
fn print_result(ctx: &Ctx<'_, '_>, out: &mut Output, obj: &Value, operation: &str) {
    let mut shown = obj.clone();
    omit_managed_fields(&mut shown);
    match ctx.flags.get("output") {
        Some("json") => out.out(&super::printers::json(&shown)),
        Some("yaml") => out.out(&super::printers::yaml(&shown)),
        _ => out.out(&format!("{} {operation}\n", name_of(obj))),
    }
}

fn go_quoted_name(obj: &Value) -> String {
    crate::codec::goquote::go_quote(obj["metadata"]["name"].as_str().unwrap_or(""))
}

/// kubectl's validator (`--validate=strict`): the server's `fieldValidation` support looked
/// up in the object's OpenAPI v3 document; a `List`, which no document has, validated on the
/// client against OpenAPI v2 instead. The error, when that fails.
fn validate(ctx: &mut Ctx<'_, '_>, out: &mut Output, editing: &Editing) -> Option<String> {
    let directive = ctx.flags.get("validate").unwrap_or("strict");
    if matches!(directive, "false" | "ignore") {
        return None;
    }
    match editing.originals.as_slice() {
        [(r, _)] => {
            super::openapi::fetch_for(ctx, out, r);
            None
        }
        _ if directive == "warn" => None,
        _ => super::openapi::v2(ctx, out)
            .err()
            .map(|status| status["message"].as_str().unwrap_or("").to_string()),
    }
}

/// The saved file's objects (a `List`'s items).
fn parse(saved: &str) -> Result<Vec<Value>, String> {
    let converted = crate::codec::yaml::parse::to_json(saved.as_bytes())
        .map_err(|e| format!("error parsing edited-file: error converting YAML to JSON: {e}"))?;
    let v: Value = serde_json::from_slice(&converted.json)
        .map_err(|e| format!("error parsing edited-file: {e}"))?;
    if v["kind"] == "List" {
        return Ok(v["items"].as_array().cloned().unwrap_or_default());
    }
    if !v.is_object() {
        return Err("error parsing edited-file: Object 'Kind' is missing".into());
    }
    Ok(vec![v])
}

/// The PATCH, as `resource.Helper` sends it.
fn send(
    ctx: &mut Ctx<'_, '_>,
    out: &mut Output,
    r: &Resource,
    original: &Value,
    patch: &Value,
) -> Result<Value, Value> {
    let meta = &original["metadata"];
    let ns = meta["namespace"].as_str();
    let path = format!(
        "{}/{}",
        r.collection(ns),
        meta["name"].as_str().unwrap_or("")
    );
    let manager = ctx
        .flags
        .get("field-manager")
        .unwrap_or("kubectl-edit")
        .to_string();
    let validation = match ctx.flags.get("validate").unwrap_or("strict") {
        "false" | "ignore" => "Ignore",
        "warn" => "Warn",
        _ => "Strict",
    };
    let content_type = if in_kubectl_scheme(&r.group) {
        "application/strategic-merge-patch+json"
    } else {
        "application/merge-patch+json"
    };
    let query = encode_query(vec![
        ("fieldManager", manager),
        ("fieldValidation", validation.to_string()),
    ]);
    let call = Call::with_body(
        "PATCH",
        format!("{path}?{query}"),
        content_type,
        crate::codec::json::to_compact_string(patch).into_bytes(),
        "helper.go:269",
    );
    let reply = ctx.client.send(out, call);
    if reply.ok() {
        Ok(reply.json())
    } else {
        Err(reply.json())
    }
}

/// Whether kubectl's own scheme has the group's kinds (edit then sends a strategic merge
/// patch): the built-in groups, not apiextensions or custom resources.
fn in_kubectl_scheme(group: &str) -> bool {
    super::apply::built_in(group) && group != "apiextensions.k8s.io"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_stripped_as_kubectl_strips_them() {
        assert_eq!(manual_strip("# a\nx: 1\n  # b\n#!keep\n"), "x: 1\n#!keep\n");
        assert_eq!(
            strip_comments("# hi\na: 1\n"),
            strip_comments("a: 1 # there\n")
        );
        assert!(!has_lines("# only\n\n   \n"));
        assert!(has_lines("# c\nx: 1"));
        assert_eq!(hash_on_line_break("a\nb\n#c"), "a\n# b\n#c");
    }

    #[test]
    fn reasons_become_header_comments() {
        let reasons = [Reason {
            head: "configmaps \"a\" was not valid".into(),
            causes: vec!["data[x y]: Invalid value".into()],
        }];
        assert_eq!(
            header_with(&reasons).strip_prefix(HEADER),
            Some("# configmaps \"a\" was not valid:\n# * data[x y]: Invalid value\n#\n")
        );
    }
}
