//! apps/v1 messages (`k8s.io.api.apps.v1`): ControllerRevision and its list.
//!
//! `data` is a non-pointer `runtime.RawExtension` whose `raw` holds the JSON bytes of the
//! revision's state (reference §5.2, §5.3); with no data the message is empty and JSON says
//! `"data":null`. `revision` has no `omitempty`, so it is always written on both sides.

use super::meta_v1::{LIST_META, OBJECT_META};
use super::schema::{field, Msg, Rule, Ty};

/// `apps/v1.ControllerRevision`: metadata = 1, data = 2, revision = 3.
pub(crate) static CONTROLLER_REVISION: Msg = Msg {
    name: "ControllerRevision",
    fields: &[
        field(
            "metadata",
            "ObjectMeta",
            1,
            Ty::Message(&OBJECT_META),
            Rule::Always,
        ),
        field("data", "Data", 2, Ty::RawJson, Rule::Always),
        field("revision", "Revision", 3, Ty::Int64, Rule::Always),
    ],
};

/// `apps/v1.ControllerRevisionList`: items are embedded messages without per-item envelope.
pub(crate) static CONTROLLER_REVISION_LIST: Msg = Msg {
    name: "ControllerRevisionList",
    fields: &[
        field(
            "metadata",
            "ListMeta",
            1,
            Ty::Message(&LIST_META),
            Rule::Always,
        ),
        field(
            "items",
            "Items",
            2,
            Ty::Messages(&CONTROLLER_REVISION, None),
            Rule::Always,
        ),
    ],
};
