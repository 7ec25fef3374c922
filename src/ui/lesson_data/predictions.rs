//! The predictions the lessons ask for ([`crate::ui::predict`]), each with the spec's reason
//! for the answer; which choice is right is read off the answer when the step runs.

use crate::ui::predict::{About, Predict};

pub(super) const FUTURE_RV: Predict = Predict {
    question: "What does a get at a revision the server has not reached answer?",
    about: About::Status,
    choices: &["200 OK", "404 Not Found", "410 Gone", "504 Gateway Timeout"],
    why: "Get table, resourceVersion set to a revision not yet reached: the server waits up to 3 s for its cache, then answers 504 \"Too large resource version\".",
};
pub(super) const UNSEEN_WRITE: Predict = Predict {
    question: "The create succeeded. What does a get with resourceVersion=0 answer while the cache lags?",
    about: About::Status,
    choices: &["200 OK", "404 Not Found", "504 Gateway Timeout"],
    why: "Get table, resourceVersion=\"0\" (Any): the watch cache answers with what it holds, and it has not seen the write yet.",
};
pub(super) const ANY_LIST: Predict = Predict {
    question: "Is a list with resourceVersion=0 the store's latest?",
    about: About::Freshness,
    choices: &["fresh: the store's latest", "may be stale: the watch cache's"],
    why: "List table, resourceVersion=\"0\" without limit (Any): served from the watch cache at whatever revision it has reached, older than the store here.",
};
pub(super) const OLD_TOKEN: Predict = Predict {
    question: "The history behind this continue token was compacted. What does the next page answer?",
    about: About::Status,
    choices: &["200 OK", "400 Bad Request", "410 Gone"],
    why: "List table, continue token whose revision is compacted: 410 Expired, with a new token for an inconsistent continuation.",
};
pub(super) const TOO_OLD_WATCH: Predict = Predict {
    question: "Revision 143 has left the watch cache's window. What does the watch show?",
    about: About::Events,
    choices: &["no events", "ADDED", "ERROR"],
    why: "Watch table, resourceVersion older than the cache's window: 200 first, then one ERROR event, 410 Expired; the client must relist.",
};
pub(super) const STALE_UPDATE: Predict = Predict {
    question: "Bob updates with the resourceVersion he read before Alice's write. What happens?",
    about: About::Status,
    choices: &["200 OK", "409 Conflict", "412 Precondition Failed"],
    why: "Updates are conditional on metadata.resourceVersion: one that is not the stored version is refused with 409 Conflict, so no write is lost.",
};
