//! Get and list: the read planner picks the source and revision, then one page is read
//! from it — `limit` objects from the continue position, filtered by the selectors — with
//! the continue token and `remainingItemCount` of what is left.

use serde_json::Value;

use super::continue_token::{encode_next_page, expired_token, ContinueToken};
use super::Registry;
use crate::cache::planner::Semantic;
use crate::codec::Object;
use crate::resources::meta::meta;
use crate::resources::status::{ApiError, ApiResult};
use crate::resources::ResourceInfo;
use crate::selectors::field::FieldSelector;
use crate::selectors::label::LabelSelector;
use crate::selectors::shard::ShardSelector;
use crate::store::StoreError;

/// A list's validated options.
#[derive(Debug, Clone)]
pub struct ListOptions {
    pub label: LabelSelector,
    pub field: FieldSelector,
    pub shard: Option<ShardSelector>,
    /// Page size (ignored by semantics that do not page).
    pub limit: Option<usize>,
    pub token: Option<ContinueToken>,
    pub semantic: Semantic,
}

impl ListOptions {
    /// A plain list of the most recent state: no selectors, no paging (what the
    /// controllers' own lists ask for).
    pub fn everything() -> Self {
        ListOptions {
            label: LabelSelector::default(),
            field: FieldSelector::default(),
            shard: None,
            limit: None,
            token: None,
            semantic: Semantic::MostRecent,
        }
    }

    /// Whether label or field selectors filter the list, which hides `remainingItemCount`
    /// (a shard selector does not).
    fn filtering(&self) -> bool {
        !self.label.is_empty() || !self.field.is_empty()
    }

    /// Whether any selector (label, field or shard) may leave an object out.
    fn selects(&self) -> bool {
        self.filtering() || self.shard.is_some()
    }

    /// Whether `obj` passes the label, field and shard selectors (decoded only when one of
    /// them looks at it).
    pub fn matches(&self, info: &ResourceInfo, obj: &Object) -> bool {
        if !self.selects() {
            return true;
        }
        // A custom resource is filtered as it reads (its defaults included), as a watch's.
        self.matches_value(info, &crate::resources::custom::reading::current(info, obj))
    }

    /// Whether the decoded `obj` passes the label, field and shard selectors.
    pub fn matches_value(&self, info: &ResourceInfo, obj: &Value) -> bool {
        self.label
            .matches(meta(obj).get("labels").and_then(Value::as_object))
            && self.field.matches(&|l| info.field_value(obj, l))
            && self
                .shard
                .as_ref()
                .is_none_or(|s| s.matches_value(&crate::cache::watchers::shard_value(s, obj)))
    }
}

/// One page of a list.
#[derive(Debug)]
pub struct ListResult {
    pub items: crate::cache::Items,
    /// The list's resourceVersion.
    pub rv: u64,
    /// The token for the next page, when more remain.
    pub continue_token: Option<String>,
    /// How many objects remain after this page (only for unfiltered lists).
    pub remaining: Option<usize>,
    /// The read planner's explanation (`X-Kubesim-Read`).
    pub explain: String,
}

/// The storage prefix of a resource, optionally within one namespace.
pub fn prefix(info: &ResourceInfo, namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) => format!("{}{}/", info.key_prefix(), ns),
        None => info.key_prefix(),
    }
}

impl Registry {
    /// The live objects of a kind (in `namespace`, or all), in key order, decoded (what the
    /// controllers' listers hand them).
    pub(crate) fn live(&self, info: &ResourceInfo, namespace: Option<&str>) -> Vec<Value> {
        let prefix = prefix(info, namespace);
        self.store()
            .range(&prefix, None, self.store().revision(), None, |_| true)
            .map(|p| p.items.iter().map(Object::decode).collect())
            .unwrap_or_default()
    }

    /// One object, read as `semantic` says; with the read's explanation.
    pub fn get(
        &self,
        info: &'static ResourceInfo,
        namespace: &str,
        name: &str,
        semantic: Semantic,
    ) -> ApiResult<(Object, String)> {
        let plan = self.sources().plan_get(semantic)?;
        let found = plan
            .view
            .get(&info.key(namespace, name))
            .map_err(|e| match e {
                StoreError::Corrupt(keys) => self.corrupt_read_error(&keys[0]),
                _ => ApiError::expired("The resourceVersion for the provided get is too old."),
            })?;
        match found {
            Some(obj) => Ok((obj, plan.explain())),
            None => Err(ApiError::not_found(info.group_resource(), name)),
        }
    }

    /// One page of a collection.
    pub fn list(
        &self,
        info: &'static ResourceInfo,
        namespace: Option<&str>,
        opts: &ListOptions,
    ) -> ApiResult<ListResult> {
        let prefix = prefix(info, namespace);
        let plan = self.sources().plan_list(opts.semantic)?;
        let token = opts.token.as_ref();
        let start = token.map(|t| format!("{prefix}{}", t.start));
        let limit = if opts.semantic.pages() {
            opts.limit
        } else {
            None
        };
        let page = plan
            .view
            .page(
                &prefix,
                start.as_deref(),
                limit,
                opts.selects()
                    .then_some(|obj: &Object| opts.matches(info, obj)),
            )
            .map_err(|e| match e {
                StoreError::Compacted { .. } => match token {
                    Some(t) => expired_token(t),
                    None => {
                        ApiError::expired("The resourceVersion for the provided list is too old.")
                    }
                },
                StoreError::FutureRevision { requested, .. } => {
                    self.too_large_resource_version(requested)
                }
                StoreError::Corrupt(keys) => self.corrupt_list_error(info, &keys),
            })?;
        let continue_token = page.last_key.as_ref().map(|last| {
            let rel = last.strip_prefix(&prefix).unwrap_or(last);
            encode_next_page(plan.rv as i64, rel)
        });
        let remaining = match (&page.last_key, opts.filtering()) {
            (Some(_), false) => page.remaining,
            _ => None,
        };
        Ok(ListResult {
            items: page.items,
            rv: plan.rv,
            continue_token,
            remaining,
            explain: plan.explain(),
        })
    }
}
