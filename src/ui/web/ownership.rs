//! The ownership table under a response body: which manager owns which field, read from the
//! object's `metadata.managedFields` (see [`crate::ui::ownership`]). Shown open, because it
//! is what the apply lesson asks the learner to look at after every step.

use yew::prelude::*;

use crate::ui::ownership::Ownership;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub table: Ownership,
}

/// `#ownership`: one row per owned field, one column per managedFields entry, a mark where
/// that entry owns the field (two marks in a row: a field shared by equal values).
#[function_component(OwnershipView)]
pub fn ownership_view(props: &Props) -> Html {
    let t = &props.table;
    let heads = t.owners.iter().map(|o| {
        let title = format!("{}, {} at {}", o.operation, o.api_version, o.time);
        html! { <th scope="col" {title}>{ o.label() }</th> }
    });
    let rows = t.rows.iter().map(|r| {
        let marks = (0..t.owners.len()).map(|i| {
            if r.owners.contains(&i) {
                html! { <td class="own" aria-label={format!("owned by {}", t.owners[i].manager)}>{ "●" }</td> }
            } else {
                html! { <td></td> }
            }
        });
        html! {
            <tr>
                <th scope="row"><code>{ r.field.clone() }</code></th>
                { for marks }
            </tr>
        }
    });
    html! {
        <details id="ownership" class="ownership" open=true>
            <summary>{ format!("Field ownership ({} managers, from metadata.managedFields)", t.owners.len()) }</summary>
            <div class="table-wrap">
                <table class="ownership">
                    <thead><tr><th scope="col">{ "Field" }</th>{ for heads }</tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </details>
    }
}
