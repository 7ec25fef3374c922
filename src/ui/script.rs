//! Lesson steps are requests with placeholders: `{{token}}` in a path or body is a value an
//! earlier step saved from its response (a continue token, a resourceVersion). This module
//! fills them in and saves them, without any DOM, so the browser tests can run every lesson.

use std::collections::BTreeMap;

use serde_json::Value;

/// Values saved by earlier steps.
pub type Vars = BTreeMap<String, String>;

/// The placeholder names used in `template`, in order (`{{name}}`, name of `[A-Za-z0-9_]`).
pub fn placeholders(template: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end)
                if end > 0
                    && after[..end]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                out.push(after[..end].to_string());
                rest = &after[end + 2..];
            }
            _ => rest = after,
        }
    }
    out
}

/// `template` with every placeholder replaced; the error names the first missing value.
pub fn fill(template: &str, vars: &Vars) -> Result<String, String> {
    let mut out = template.to_string();
    for name in placeholders(template) {
        let value = vars.get(&name).ok_or_else(|| {
            format!("{{{{{name}}}}} is not known yet: run the earlier steps of the lesson first")
        })?;
        out = out.replace(&format!("{{{{{name}}}}}"), value);
    }
    Ok(out)
}

/// Saves the values `saves` names (`(variable, JSON pointer)`) from a JSON response body.
/// Values that are absent or empty are not saved (a list's empty `continue` means the end).
pub fn capture(body: &Value, saves: &[(&str, &str)], vars: &mut Vars) {
    for (name, pointer) in saves {
        let v = match body.pointer(pointer) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.to_string(),
            _ => continue,
        };
        if !v.is_empty() {
            vars.insert((*name).to_string(), v);
        }
    }
}
