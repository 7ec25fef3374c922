//! "Copy as": the builder's request as a curl command, a kubectl command and a `fetch` call.
//!
//! What a learner tries in the playground should carry over to a real cluster (or to
//! `kubesim serve`) unchanged, so each rendering sends the same method, path, headers and
//! body bytes the engine received. kubectl cannot say everything (`--raw` sends no custom
//! headers); what it drops is written as a comment rather than silently lost.

use super::exchange::{default_content_type, Draft};
use super::query;

/// Where `kubesim serve` listens by default.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080";

/// Quotes `s` for a POSIX shell (single quotes; `'` becomes `'\''`).
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The header lines of the draft, plus the Content-Type the engine would default to.
fn headers(d: &Draft) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = d
        .headers
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .filter(|(k, _)| !k.is_empty())
        .collect();
    if !d.body.is_empty() && query::header(&d.headers, "content-type").is_none() {
        out.push((
            "Content-Type".into(),
            default_content_type(d.method.trim()).into(),
        ));
    }
    out
}

fn method(d: &Draft) -> String {
    d.method.trim().to_ascii_uppercase()
}

/// `curl`: `-N` for watches (print events as they come), `--compressed` with gzip.
pub fn to_curl(d: &Draft, base: &str) -> String {
    let m = method(d);
    let mut parts = vec!["curl -sS".to_string()];
    if query::is_watch(&d.path) {
        parts[0].push_str(" -N");
    }
    if m != "GET" || !d.body.is_empty() {
        parts[0].push_str(&format!(" -X {m}"));
    }
    parts.push(shell_quote(&format!("{base}{}", d.path.trim())));
    for (k, v) in headers(d) {
        parts.push(format!("-H {}", shell_quote(&format!("{k}: {v}"))));
    }
    if !d.body.is_empty() {
        parts.push(format!("--data-binary {}", shell_quote(&d.body)));
    }
    parts.join(" \\\n  ")
}

/// A path's resource coordinates: `(resource[.group], namespace, name)`.
fn resource_of(path: &str) -> Option<(String, Option<String>, Option<String>)> {
    let (base, _) = query::split(path.trim());
    let segs: Vec<&str> = base.trim_matches('/').split('/').collect();
    let (group, rest) = match segs.as_slice() {
        ["api", _v, rest @ ..] => ("", rest),
        ["apis", g, _v, rest @ ..] => (*g, rest),
        _ => return None,
    };
    let rest: Vec<&str> = rest.iter().copied().filter(|s| *s != "watch").collect();
    let (ns, rest) = match rest.as_slice() {
        ["namespaces", ns, r, tail @ ..] => (Some(ns.to_string()), [&[*r][..], tail].concat()),
        _ => (None, rest),
    };
    let resource = rest.first()?;
    let qualified = if group.is_empty() {
        resource.to_string()
    } else {
        format!("{resource}.{group}")
    };
    Some((qualified, ns, rest.get(1).map(|s| s.to_string())))
}

/// A heredoc feeding `body` to `-f -`.
fn heredoc(body: &str) -> String {
    let body = body.trim_end_matches('\n');
    format!("-f - <<'EOF'\n{body}\nEOF")
}

/// `kubectl`: `--raw` for GET, POST, PUT and DELETE; `kubectl patch` (or `apply
/// --server-side`) for PATCH, which has no `--raw` form.
pub fn to_kubectl(d: &Draft) -> String {
    let m = method(d);
    let path = d.path.trim();
    let mut notes: Vec<String> = Vec::new();
    let hs = headers(d);
    let dropped: Vec<String> = hs
        .iter()
        .filter(|(k, _)| !(m == "PATCH" && k.eq_ignore_ascii_case("content-type")))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    if !dropped.is_empty() && m != "POST" && m != "PUT" {
        notes.push(format!(
            "# kubectl --raw does not send these headers: {}",
            dropped.join("; ")
        ));
    }
    let cmd = match m.as_str() {
        "GET" => format!("kubectl get --raw {}", shell_quote(path)),
        "POST" => format!(
            "kubectl create --raw {} {}",
            shell_quote(path),
            heredoc(&d.body)
        ),
        "PUT" => format!(
            "kubectl replace --raw {} {}",
            shell_quote(path),
            heredoc(&d.body)
        ),
        "DELETE" => {
            if !d.body.trim().is_empty() {
                notes.push(
                    "# kubectl delete --raw sends no body: pass DeleteOptions as query parameters"
                        .into(),
                );
            }
            format!("kubectl delete --raw {}", shell_quote(path))
        }
        "PATCH" => {
            let ct = query::header(&d.headers, "content-type")
                .unwrap_or_else(|| default_content_type("PATCH").to_string());
            let Some((res, ns, name)) = resource_of(path) else {
                return format!("# kubectl has no --raw PATCH; {path} is not a resource path");
            };
            let ns = ns.map(|n| format!(" -n {n}")).unwrap_or_default();
            if ct.starts_with("application/apply-patch") {
                let mgr = query::get(path, "fieldManager")
                    .map(|f| format!(" --field-manager={}", shell_quote(&f)))
                    .unwrap_or_default();
                format!("kubectl apply --server-side{mgr}{ns} {}", heredoc(&d.body))
            } else {
                let ty = match ct.as_str() {
                    "application/json-patch+json" => "json",
                    "application/strategic-merge-patch+json" => "strategic",
                    _ => "merge",
                };
                format!(
                    "kubectl patch {res} {}{ns} --type={ty} -p {}",
                    name.unwrap_or_default(),
                    shell_quote(&d.body)
                )
            }
        }
        other => format!("# kubectl cannot send {other}"),
    };
    notes.push(cmd);
    notes.join("\n")
}

/// A JavaScript string literal (JSON string syntax is valid JavaScript).
fn js_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// `fetch`: prints the status and body; a watch reads its stream chunk by chunk.
pub fn to_fetch(d: &Draft, base: &str) -> String {
    let m = method(d);
    let mut init: Vec<String> = Vec::new();
    if m != "GET" {
        init.push(format!("  method: {},", js_string(&m)));
    }
    let hs = headers(d);
    if !hs.is_empty() {
        let items: Vec<String> = hs
            .iter()
            .map(|(k, v)| format!("    {}: {},", js_string(k), js_string(v)))
            .collect();
        init.push(format!("  headers: {{\n{}\n  }},", items.join("\n")));
    }
    if !d.body.is_empty() {
        // A JSON body reads best as an object literal (same document, other whitespace).
        let body = match serde_json::from_slice::<serde_json::Value>(d.body.as_bytes()) {
            Ok(v) if v.is_object() || v.is_array() => format!(
                "JSON.stringify({})",
                serde_json::to_string_pretty(&v)
                    .unwrap_or_default()
                    .replace('\n', "\n  ")
            ),
            _ => js_string(&d.body),
        };
        init.push(format!("  body: {body},"));
    }
    let url = js_string(&format!("{base}{}", d.path.trim()));
    let call = if init.is_empty() {
        format!("const res = await fetch({url});")
    } else {
        format!(
            "const res = await fetch({url}, {{\n{}\n}});",
            init.join("\n")
        )
    };
    let read = if query::is_watch(&d.path) {
        "const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();\n\
         for (;;) {\n  const { value, done } = await reader.read();\n  if (done) break;\n  console.log(value);\n}"
    } else {
        "console.log(res.status, res.headers.get('x-kubesim-read'), await res.text());"
    };
    format!("{call}\n{read}")
}
