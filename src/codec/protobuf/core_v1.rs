//! core/v1 messages (`k8s.io.api.core.v1`): Namespace, its spec, status, conditions and list.
//!
//! `spec` and `status` are non-pointer structs (always in JSON, always in proto even when
//! empty). NamespaceCondition numbers skip 3 (`lastTransitionTime` is 4); its
//! `lastTransitionTime` is a non-pointer `metav1.Time` without `omitzero`, so a zero time is
//! written as JSON `null`.

use super::meta_v1::{LIST_META, OBJECT_META};
use super::schema::{field, Msg, Rule, Ty};

use Rule::{Always, OmitEmpty};

/// `core/v1.NamespaceSpec`.
pub(crate) static NAMESPACE_SPEC: Msg = Msg {
    name: "NamespaceSpec",
    fields: &[field("finalizers", "Finalizers", 1, Ty::Strings, OmitEmpty)],
};

/// `core/v1.NamespaceCondition`.
pub(crate) static NAMESPACE_CONDITION: Msg = Msg {
    name: "NamespaceCondition",
    fields: &[
        field("type", "Type", 1, Ty::Str, Always),
        field("status", "Status", 2, Ty::Str, Always),
        field(
            "lastTransitionTime",
            "LastTransitionTime",
            4,
            Ty::Time,
            OmitEmpty,
        ),
        field("reason", "Reason", 5, Ty::Str, OmitEmpty),
        field("message", "Message", 6, Ty::Str, OmitEmpty),
    ],
};

/// `core/v1.NamespaceStatus`.
pub(crate) static NAMESPACE_STATUS: Msg = Msg {
    name: "NamespaceStatus",
    fields: &[
        field("phase", "Phase", 1, Ty::Str, OmitEmpty),
        field(
            "conditions",
            "Conditions",
            2,
            Ty::Messages(&NAMESPACE_CONDITION, None),
            OmitEmpty,
        ),
    ],
};

/// `core/v1.Namespace`: metadata = 1, spec = 2, status = 3.
pub(crate) static NAMESPACE: Msg = Msg {
    name: "Namespace",
    fields: &[
        field(
            "metadata",
            "ObjectMeta",
            1,
            Ty::Message(&OBJECT_META),
            Always,
        ),
        field("spec", "Spec", 2, Ty::Message(&NAMESPACE_SPEC), Always),
        field(
            "status",
            "Status",
            3,
            Ty::Message(&NAMESPACE_STATUS),
            Always,
        ),
    ],
};

/// `core/v1.NamespaceList`.
pub(crate) static NAMESPACE_LIST: Msg = Msg {
    name: "NamespaceList",
    fields: &[
        field("metadata", "ListMeta", 1, Ty::Message(&LIST_META), Always),
        field("items", "Items", 2, Ty::Messages(&NAMESPACE, None), Always),
    ],
};
