//! `get --sort-by`: kubectl's sorter (`pkg/cmd/get/sorter.go`). The field is a JSONPath
//! (relaxed: `.metadata.name` and `metadata.name` mean `{.metadata.name}`) looked up in each
//! object (a table row's object, asked for with `includeObject=Object`); the first match is
//! the key. Keys compare as Go's `isLess` compares them: integers, floats, strings (as
//! quantities when both parse as one), a missing key before everything.
//!
//! Go sorts with `sort.Sort`, whose insertion sort (up to 12 items) is copied here exactly,
//! down to its treatment of two missing keys (each "less" than the other, so their order
//! flips); longer lists are sorted stably, where Go's pdqsort may order equal keys otherwise.

use serde_json::Value;

use crate::resources::custom::cel::quantity;
use crate::resources::jsonpath::Template;

/// `RelaxedJSONPathExpression`.
pub fn relaxed(field: &str) -> Result<String, String> {
    if field.is_empty() {
        return Ok(String::new());
    }
    let inner = field
        .strip_prefix('{')
        .and_then(|f| f.strip_suffix('}'))
        .unwrap_or(field);
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains('{') || inner.contains('}') {
        return Err(
            "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"
                .to_string(),
        );
    }
    Ok(format!("{{.{inner}}}"))
}

/// Go's `isLess` on two found values; `Err` for the types it cannot sort.
fn is_less(a: &Value, b: &Value) -> Result<bool, String> {
    match (a, b) {
        (Value::Null, Value::Null) => Ok(false),
        (Value::Null, _) => Ok(true),
        (_, Value::Null) => Ok(false),
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => Ok(x < y),
            (None, None) => Ok(x.as_f64() < y.as_f64()),
            _ => Err("unsortable interface: interface".into()),
        },
        (Value::String(x), Value::String(y)) => match (quantity::parse(x), quantity::parse(y)) {
            (Ok(qx), Ok(qy)) => Ok(qx < qy),
            _ => Ok(x < y),
        },
        (Value::Bool(_), _) => Err("unsortable type: bool".into()),
        (Value::Array(_), _) => Err("unsortable type: []interface {}".into()),
        (Value::Object(_), _) => Err("unsortable type: map[string]interface {}".into()),
        _ => Err("unsortable interface: interface".into()),
    }
}

/// `Less` of two items' keys: a missing one is less than anything, another missing one too.
fn less(a: Option<&Value>, b: Option<&Value>) -> Result<bool, String> {
    match (a, b) {
        (None, _) => Ok(true),
        (_, None) => Ok(false),
        (Some(a), Some(b)) => is_less(a, b),
    }
}

/// Sorts `items` by `field` of each (`object` picks what the path is looked up in). Errors:
/// kubectl's when no item has the field, or when its values cannot be compared.
pub fn sort_by<T: Clone>(
    items: &mut [T],
    field: &str,
    object: impl Fn(&T) -> &Value,
) -> Result<(), String> {
    let field = relaxed(field)?;
    let template = Template::parse(&field).map_err(|e| format!("sorting error: {e}"))?;
    let keys: Vec<Option<Value>> = items
        .iter()
        .map(|i| template.first(object(i)).cloned())
        .collect();
    if !items.is_empty() && keys.iter().all(Option::is_none) {
        return Err(format!(
            "couldn't find any field with path \"{field}\" in the list of objects"
        ));
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    let mut failure = None;
    if order.len() <= 12 {
        // Go's insertionSort.
        for i in 1..order.len() {
            let mut j = i;
            while j > 0 {
                match less(keys[order[j]].as_ref(), keys[order[j - 1]].as_ref()) {
                    Ok(true) => order.swap(j, j - 1),
                    Ok(false) => break,
                    Err(e) => {
                        failure = Some(e);
                        break;
                    }
                }
                j -= 1;
            }
        }
    } else {
        crate::sort::sort_by(&mut order, |&x, &y| {
            let (a, b) = (keys[x].as_ref(), keys[y].as_ref());
            match (less(a, b), less(b, a)) {
                (Err(e), _) | (_, Err(e)) => {
                    failure.get_or_insert(e);
                    std::cmp::Ordering::Equal
                }
                (Ok(true), Ok(false)) => std::cmp::Ordering::Less,
                (Ok(false), Ok(true)) => std::cmp::Ordering::Greater,
                _ => std::cmp::Ordering::Equal,
            }
        });
    }
    if let Some(e) = failure {
        return Err(format!("Field {field} is an unsortable type: {e}"));
    }
    let sorted: Vec<T> = order.iter().map(|&i| items[i].clone()).collect();
    items.clone_from_slice(&sorted);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(items: &[Value]) -> Vec<&str> {
        items
            .iter()
            .map(|i| i["metadata"]["name"].as_str().unwrap_or(""))
            .collect()
    }

    #[test]
    fn keys_compare_as_kubectls_is_less() {
        let mut items = vec![
            json!({"metadata": {"name": "b"}, "n": 10, "q": "2Ki"}),
            json!({"metadata": {"name": "a"}, "n": 2, "q": "100"}),
            json!({"metadata": {"name": "c"}, "n": 7}),
        ];
        sort_by(&mut items, ".metadata.name", |v| v).unwrap();
        assert_eq!(names(&items), ["a", "b", "c"]);
        sort_by(&mut items, "n", |v| v).unwrap();
        assert_eq!(names(&items), ["a", "c", "b"]);
        // Quantities compare by value; the one without the field comes first.
        sort_by(&mut items, "{.q}", |v| v).unwrap();
        assert_eq!(names(&items), ["c", "a", "b"]);
        assert_eq!(
            sort_by(&mut items, ".nope", |v| v).unwrap_err(),
            "couldn't find any field with path \"{.nope}\" in the list of objects"
        );
    }

    #[test]
    fn two_missing_keys_swap_as_in_gos_insertion_sort() {
        let mut items = vec![
            json!({"metadata": {"name": "x"}}),
            json!({"metadata": {"name": "y"}}),
            json!({"metadata": {"name": "z"}, "k": "v"}),
        ];
        sort_by(&mut items, ".k", |v| v).unwrap();
        assert_eq!(names(&items), ["y", "x", "z"]);
    }

    #[test]
    fn long_lists_sort_stably() {
        let mut items: Vec<Value> = (0..20)
            .map(|i| json!({"metadata": {"name": format!("n{:02}", 19 - i)}}))
            .collect();
        sort_by(&mut items, ".metadata.name", |v| v).unwrap();
        assert_eq!(names(&items)[0], "n00");
        assert_eq!(names(&items)[19], "n19");
    }
}
