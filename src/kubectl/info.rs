//! `kubectl api-resources` and `kubectl api-versions`, from discovery: the preferred version
//! of every resource, sorted by group and then name, and every group version, sorted.

use super::flags::{boolean, value, Spec};
use super::tabwriter::TabWriter;
use super::{Ctx, Output};

pub const API_RESOURCES_FLAGS: &[Spec] = &[
    value("output", Some('o')),
    value("namespaced", None),
    value("api-group", None),
    value("verbs", None),
    boolean("no-headers", None),
    boolean("cached", None),
];

pub fn api_resources(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    let wide = match ctx.flags.get("output") {
        None => false,
        Some("wide") => true,
        Some("name") => false,
        Some(other) => return out.fail(&format!("error: --output {other} is not available")),
    };
    let names_only = ctx.flags.get("output") == Some("name");
    let namespaced = ctx.flags.get("namespaced").map(|v| v == "true");
    let group = ctx.flags.get("api-group").map(str::to_string);
    let verbs: Vec<String> = ctx
        .flags
        .get("verbs")
        .map(|v| v.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let no_headers = ctx.flags.on("no-headers");
    // Without --cached, discovery is asked again (kubectl invalidates its cache first).
    if !ctx.flags.on("cached") {
        ctx.session.forget_discovery();
    }
    let mut resources: Vec<_> = ctx
        .discovery(out)
        .resources
        .iter()
        .filter(|r| r.preferred)
        .filter(|r| namespaced.is_none_or(|n| r.namespaced == n))
        .filter(|r| group.as_ref().is_none_or(|g| &r.group == g))
        .filter(|r| verbs.iter().all(|v| r.verbs.contains(v)))
        .cloned()
        .collect();
    crate::sort::sort_by(&mut resources, |a, b| {
        (&a.group, &a.resource).cmp(&(&b.group, &b.resource))
    });
    if names_only {
        for r in &resources {
            if r.group.is_empty() {
                out.out(&format!("{}\n", r.resource));
            } else {
                out.out(&format!("{}.{}\n", r.resource, r.group));
            }
        }
        return;
    }
    let mut w = TabWriter::new();
    if !no_headers {
        w.write("NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND");
        w.write(if wide { "\tVERBS\tCATEGORIES\n" } else { "\n" });
    }
    for r in &resources {
        w.write(&format!(
            "{}\t{}\t{}\t{}\t{}",
            r.resource,
            r.short_names.join(","),
            r.group_version(),
            r.namespaced,
            r.kind
        ));
        if wide {
            w.write(&format!(
                "\t{}\t{}",
                r.verbs.join(","),
                r.categories.join(",")
            ));
        }
        w.write("\n");
    }
    out.out(&w.flush());
}

pub fn api_versions(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    // kubectl asks discovery again for this, whatever it has cached.
    ctx.session.forget_discovery();
    let mut versions = ctx.discovery(out).group_versions.clone();
    crate::sort::sort(&mut versions);
    versions.dedup();
    for v in versions {
        out.out(&format!("{v}\n"));
    }
}

pub const VERSION_FLAGS: &[Spec] = &[value("output", Some('o')), boolean("client", None)];

/// The version this kubectl reports (the one its User-Agent names).
const CLIENT: &str = "v1.32.4";
const KUSTOMIZE: &str = "v5.5.0";

/// `kubectl version`: the client's, then the server's (`GET /version`), and the skew
/// warning kubectl prints when they are more than one minor version apart.
pub fn version(ctx: &mut Ctx<'_, '_>, out: &mut Output) {
    out.out(&format!(
        "Client Version: {CLIENT}\nKustomize Version: {KUSTOMIZE}\n"
    ));
    if ctx.flags.on("client") {
        return;
    }
    let mut call = super::client::Call::get("/version?timeout=32s".into(), "application/json, */*");
    call.caller = "discovery_client.go:1008";
    let reply = ctx.client.send(out, call);
    let v = reply.json();
    let Some(server) = v["gitVersion"].as_str() else {
        return out.fail("error: couldn't get version/kind; json parse error");
    };
    out.out(&format!("Server Version: {server}\n"));
    let minor = |s: &str| -> Option<i64> {
        s.trim_start_matches('v')
            .split('.')
            .nth(1)
            .and_then(|m| m.trim_end_matches('+').parse().ok())
    };
    if let (Some(c), Some(s)) = (minor(CLIENT), minor(server)) {
        if (c - s).abs() > 1 {
            out.err(&format!(
                "WARNING: version difference between client (1.{c}) and server (1.{s}) exceeds the supported minor version skew of +/-1\n"
            ));
        }
    }
}
