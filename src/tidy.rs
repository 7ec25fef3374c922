//! Repository checks that keep the layering true (as rust-analyzer's tidy tests do): every
//! `crate::<module>` path in a module's source names a module of a lower layer, or itself.
//!
//! Layers, lowest first: the base (`clock`, `rng`, `features`, `resource_version`, `sort`) → `codec`
//! → `resources` → `selectors`, `patch`, `fieldmanager` → `store` → `cache` → `registry` → `controllers` →
//! `api` → `engine` → hosts (`server`, `shim`, `kubectl`, `cli`) → `ui` (whose terminal runs
//! `kubectl`), `cluster` (the test host, whose
//! in-process kube client sends the native server's bodies). Test-only code (files and folders
//! whose name says `test`, and what follows `#[cfg(test)]` in a file) may reach any layer for
//! fixtures.

use std::path::{Path, PathBuf};

/// Each top-level module and its layer.
const LAYERS: &[(&str, u8)] = &[
    ("clock", 0),
    ("rng", 0),
    ("features", 0),
    ("resource_version", 0),
    ("sort", 0),
    ("codec", 1),
    ("resources", 2),
    ("selectors", 3),
    ("patch", 3),
    ("fieldmanager", 3),
    ("store", 4),
    ("cache", 5),
    ("registry", 6),
    ("controllers", 7),
    ("auth", 7),
    ("api", 8),
    ("engine", 9),
    ("server", 10),
    ("shim", 10),
    ("kubectl", 10),
    ("ui", 11),
    ("cli", 10),
    ("fuzz", 10),
    ("main", 10),
    ("cluster", 11),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`src/api/handlers/list.rs` → `api`).
fn owner(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// The modules a source text names as `crate::<module>` (test code excluded).
fn crate_paths(text: &str) -> Vec<String> {
    let live = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = Vec::new();
    for line in live.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
            rest = after;
        }
    }
    out
}

/// Every `crate::` path that points up or sideways: (file, module named).
fn violations() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    for file in files {
        let module = owner(&src, &file);
        let rel = file.strip_prefix(&src).expect("under src");
        let test_only = rel
            .components()
            .any(|c| c.as_os_str().to_string_lossy().contains("test"));
        if test_only || module == "lib" || module == "tidy" {
            continue;
        }
        let Some(own) = layer(&module) else {
            bad.push((file.display().to_string(), format!("{module} has no layer")));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("read source");
        for named in crate_paths(&text) {
            if named == module {
                continue;
            }
            match layer(&named) {
                Some(l) if l < own => {}
                // Items re-exported at the crate root are the engine's (`crate::Engine`).
                None if named.chars().next().is_some_and(char::is_uppercase) => {
                    if own <= layer("engine").unwrap() {
                        bad.push((file.display().to_string(), named));
                    }
                }
                _ => bad.push((file.display().to_string(), named)),
            }
        }
    }
    bad
}

#[test]
fn dependencies_point_down() {
    let bad = violations();
    assert!(
        bad.is_empty(),
        "modules that import a module of their own layer or above:\n{}",
        bad.iter()
            .map(|(f, m)| format!("  {f} -> crate::{m}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The standard library's sorts a source text calls outside test code (`.sort()`,
/// `.sort_by(`, ...): each call site instantiates a sort of its own in the wasm builds, so
/// code sorts through `crate::sort` (its module comment says why).
fn direct_sorts(text: &str) -> Vec<String> {
    let live = text.split("#[cfg(test)]").next().unwrap_or("");
    let calls = [
        ".sort()",
        ".sort_by(",
        ".sort_by_key(",
        ".sort_unstable",
        ".sort_by_cached_key(",
    ];
    live.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .filter(|code| calls.iter().any(|c| code.contains(c)))
        .map(|code| code.trim().to_string())
        .collect()
}

#[test]
fn sorts_go_through_the_shared_instance() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        let name = rel.display().to_string();
        if name.contains("test") || name == "sort.rs" || name == "tidy.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        bad.extend(
            direct_sorts(&text)
                .into_iter()
                .map(|c| format!("  {name}: {c}")),
        );
    }
    assert!(
        bad.is_empty(),
        "sorts that do not go through crate::sort:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_sees_a_direct_sort() {
    let text = "v.sort_by(|a, b| a.cmp(b));\n// v.sort()\ncrate::sort::sort(&mut v);\n#[cfg(test)]\nw.sort();";
    assert_eq!(
        direct_sorts(text),
        vec!["v.sort_by(|a, b| a.cmp(b));".to_string()]
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).expect("read src") {
        let path = entry.expect("entry").path();
        let module = owner(&src, &path);
        if module == "lib" || module == "tidy" {
            continue;
        }
        assert!(
            layer(&module).is_some(),
            "src/{module} needs a layer in LAYERS"
        );
    }
}

#[test]
fn the_checker_sees_an_upward_path() {
    let text = "use crate::api::status::ApiError;\n// crate::engine in a comment\n#[cfg(test)]\nuse crate::engine::Engine;";
    assert_eq!(crate_paths(text), vec!["api".to_string()]);
}
