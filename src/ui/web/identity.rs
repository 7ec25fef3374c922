//! The user switcher: who requests without credentials act as (`#identity`; a custom
//! identity's name and groups are `#identity-name` and `#identity-groups`).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::app::Ctx;
use crate::ui::identity::{Identity, NO_GRANTS_USER};
use crate::ui::state::Action;

/// The switcher.
#[function_component(IdentitySwitch)]
pub fn identity_switch() -> Html {
    let ctx = use_context::<Ctx>().expect("Ctx is provided by App");
    let d = ctx.dispatcher();
    let current = ctx.identity.clone();
    let (name, groups) = match &current {
        Identity::Custom { name, groups } => (name.clone(), groups.clone()),
        _ => (String::new(), String::new()),
    };
    let on_choice = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let key = e.target_unchecked_into::<HtmlSelectElement>().value();
            d.dispatch(Action::SetIdentity(Identity::from_key(&key)));
        })
    };
    let on_name = {
        let (d, groups) = (d.clone(), groups.clone());
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlInputElement>().value();
            d.dispatch(Action::SetIdentity(Identity::Custom {
                name,
                groups: groups.clone(),
            }));
        })
    };
    let on_groups = {
        let name = name.clone();
        Callback::from(move |e: Event| {
            let groups = e.target_unchecked_into::<HtmlInputElement>().value();
            d.dispatch(Action::SetIdentity(Identity::Custom {
                name: name.clone(),
                groups,
            }));
        })
    };
    let key = current.key();
    html! {
        <div class="identity" role="group" aria-label="Act as">
            <label for="identity">{ "Act as" }</label>
            <select id="identity" onchange={on_choice}
                title="Who requests without an Authorization header are authenticated as">
                <option value="admin" selected={key == "admin"}>{ "kubesim-admin (system:masters)" }</option>
                <option value="no-grants" selected={key == "no-grants"}>{ format!("{NO_GRANTS_USER} (no grants)") }</option>
                <option value="custom" selected={key == "custom"}>{ "custom…" }</option>
            </select>
            if key == "custom" {
                <input id="identity-name" aria-label="User name" placeholder="name"
                    value={name} onchange={on_name} size="10" />
                <input id="identity-groups" aria-label="Groups, comma-separated"
                    placeholder="group1,group2" value={groups} onchange={on_groups} size="14" />
            }
        </div>
    }
}
