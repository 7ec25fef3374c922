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
    let mut versions = ctx.discovery(out).group_versions.clone();
    crate::sort::sort(&mut versions);
    versions.dedup();
    for v in versions {
        out.out(&format!("{v}\n"));
    }
}
