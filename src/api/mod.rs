//! The HTTP face of the server: routing, parameters, negotiation, thin verb handlers over
//! the `Registry`, discovery and Status errors. `serve` turns one request into one
//! response.

pub mod body;
pub(crate) mod compress;
pub(crate) mod discovery;
pub mod encode;
pub mod handlers;
pub mod negotiation;
pub(crate) mod openapi;
pub(crate) mod path;
pub mod predecode;
pub(crate) mod query;
pub(crate) mod response;
pub(crate) mod route;
pub mod transform;

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Response};
use serde_json::Value;

use crate::codec::Object;
use std::sync::Arc;

use crate::auth::AuthConfig;
use crate::registry::Registry;
use crate::resources::rbac::UserInfo;
use crate::resources::status::{self, ApiError, ApiResult};
use crate::resources::Kinds;
use body::Body;
use negotiation::{Encoding, Negotiated, Restrictions};
use query::Query;
use route::{NonResource, ResourceRequest, Route, Verb};

/// One parsed request, as the handlers see it.
#[derive(Debug)]
pub struct Request<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub query: Query,
    pub headers: &'a HeaderMap,
    pub body: &'a Bytes,
    /// The encodings this server serves (feature gates decide CBOR).
    pub served: Vec<Encoding>,
    /// The negotiated response representation (resource requests; JSON otherwise).
    pub output: Negotiated,
    /// The kinds served when the request arrived.
    pub kinds: Arc<Kinds>,
    /// The user the request runs as (after impersonation); `None` until authenticated.
    pub user: Option<UserInfo>,
    /// The body as the host decoded it before entering the engine, if it did.
    pub predecoded: Option<predecode::Predecoded>,
}

impl Request<'_> {
    /// A header's value as text (empty when absent or not text).
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

/// A successful handler result: status code, body, `Warning` texts and extra headers.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub code: u16,
    pub body: Value,
    pub warnings: Vec<String>,
    /// Overrides `application/json` (aggregated discovery has its own media type).
    pub content_type: Option<&'static str>,
    /// Extra response headers (ETag, Vary, Location...).
    pub headers: Vec<(&'static str, String)>,
    /// For typed lists: the stored items, written one by one without `kind`/`apiVersion`
    /// after `body` (which then holds `kind`, `apiVersion` and `metadata` only).
    pub items: Option<crate::cache::Items>,
    /// The list is a custom resource's (`UnstructuredList`): its keys are sorted and its
    /// items keep their `kind` and `apiVersion`.
    pub unstructured: bool,
    /// For a GET: the stored object itself (`body` is then null), written from its JSON as
    /// encoded once for every reader; a transform or another encoding reads its value.
    pub stored: Option<Object>,
    /// Not an answer yet: the read waits for the watch cache.
    pub wait: Option<Wait>,
    /// What the answer does not need (a write's object, once encoded, the decoded version
    /// it was made against, a write prepared against a version no longer live): the
    /// response carries it out of the engine.
    pub leftovers: Leftovers,
}

/// What a response carries out of the engine only to be freed (an `http` extension): a
/// concurrent host drops it with the response, after releasing the engine's lock, so that
/// freeing a 3 MiB object's trees holds up no other request.
#[derive(Clone, Default)]
pub struct Leftovers(Vec<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl Leftovers {
    /// Hands `t` out with the response.
    pub fn push<T: std::any::Any + Send + Sync>(&mut self, t: T) {
        self.0.push(std::sync::Arc::new(t));
    }

    /// Hands `t` out first: a write's own value before what it replaced.
    fn push_first<T: std::any::Any + Send + Sync>(&mut self, t: T) {
        self.0.insert(0, std::sync::Arc::new(t));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many there are, of any type.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The leftovers of type `T`, in the order they were handed out.
    pub fn of<T: std::any::Any>(&self) -> impl Iterator<Item = &T> {
        self.0.iter().filter_map(|l| l.downcast_ref::<T>())
    }
}

impl std::fmt::Debug for Leftovers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Leftovers({})", self.0.len())
    }
}

/// Leftovers are no part of an answer: replies that differ only in them are equal.
impl PartialEq for Leftovers {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Reply {
    /// A JSON reply with no warnings.
    pub fn new(code: u16, body: Value) -> Self {
        Reply {
            code,
            body,
            warnings: Vec::new(),
            content_type: None,
            headers: Vec::new(),
            items: None,
            unstructured: false,
            stored: None,
            wait: None,
            leftovers: Leftovers::default(),
        }
    }

    /// A reply that is one stored object.
    pub fn stored(code: u16, obj: Object) -> Self {
        Reply {
            stored: Some(obj),
            ..Reply::new(code, Value::Null)
        }
    }

    /// A write's reply (create, update, patch, apply): the value written, and the stored
    /// version when it was stored (not for a dry run, a virtual kind's answer, an update that
    /// changed nothing), whose JSON compact JSON copies; other encodings and transforms use
    /// the value rather than decode the stored version again. The value leaves with the
    /// response's leftovers once encoded.
    pub fn written(code: u16, w: crate::registry::Written) -> Self {
        let mut reply = Reply {
            stored: w.stored,
            ..Reply::new(code, w.value)
        };
        if let Some(replaced) = w.replaced {
            reply.leftovers.push(replaced);
        }
        reply
    }

    /// A read that waits for the watch cache.
    pub fn waiting(wait: Wait) -> Self {
        Reply {
            wait: Some(wait),
            ..Reply::new(200, Value::Null)
        }
    }
}

use crate::auth::impersonation::Memory;
use crate::cache::planner::Wait;
use response::CacheWait;

/// Serves one request against the engine: kube-apiserver's filters first (request info,
/// authentication, impersonation, authorization: 500/401/400/403 before routing), then the
/// route. `path`: the request's path with its escapes decoded (`path::unescape`, once, by
/// the engine). `resume`: a read that waited for the watch cache, served now as the user the
/// filters admitted then and as of its arrival (the filters do not run again).
pub fn serve(
    reg: &mut Registry,
    auth: &AuthConfig,
    memory: &mut Memory,
    server_address: &str,
    req: &http::Request<Bytes>,
    path: &str,
    resume: Option<&CacheWait>,
) -> Response<Body> {
    reg.set_arrival(resume.map(|r| r.wait.arrival));
    let mut resp = serve_authenticated(reg, auth, memory, server_address, req, path, resume);
    reg.set_arrival(None);
    // Warnings the filters recorded go on whatever answer the request gets.
    if let Some(text) = crate::auth::credential_warning(req.headers()) {
        if let Ok(v) = http::HeaderValue::from_str(&response::warning_header(text)) {
            resp.headers_mut().append("warning", v);
        }
    }
    resp
}

fn serve_authenticated(
    reg: &mut Registry,
    auth: &AuthConfig,
    memory: &mut Memory,
    server_address: &str,
    req: &http::Request<Bytes>,
    path: &str,
    resume: Option<&CacheWait>,
) -> Response<Body> {
    let query = Query::parse(req.uri().query().unwrap_or(""));
    let uri = req.uri().path_and_query().map_or(path, |p| p.as_str());
    let info_query =
        crate::auth::request_info::InfoQuery::new(query.flag("watch").unwrap_or(false), |k| {
            query.get(k)
        });
    let attrs =
        match crate::auth::request_info::attributes(req.method().as_str(), path, uri, info_query) {
            Ok(attrs) => attrs,
            Err(e) => {
                return response::filter_internal_error(
                    uri,
                    &format!("failed to create RequestInfo: {e}"),
                )
            }
        };
    let mut request = Request {
        method: req.method(),
        path,
        query,
        headers: req.headers(),
        body: req.body(),
        served: negotiation::served(reg.feature_gates()),
        output: Negotiated::JSON,
        kinds: reg.kinds().clone(),
        user: None,
        predecoded: req.extensions().get::<predecode::Predecoded>().cloned(),
    };
    let pretty = response::wants_pretty(&request);
    let admitted = match resume.and_then(|r| r.user.clone()) {
        Some(user) => Ok(user),
        None => crate::auth::admit(reg, auth, memory, &attrs, req.headers()),
    };
    match admitted {
        Ok(user) => request.user = Some(user),
        Err(e) => return response::filter_error(&e, &request, pretty, gzip_for(reg, &request)),
    }
    let watch = request.query.flag("watch").unwrap_or(false);
    let result = match route::route(reg.kinds(), request.method.as_str(), request.path, watch) {
        Route::PageNotFound => return response::page_not_found(),
        Route::ResourceNotFound => Err(resource_not_found()),
        Route::ObjectNotFound(info, name) => Err(ApiError::not_found(info.group_resource(), &name)),
        Route::MethodNotAllowed => Err(ApiError::method_not_allowed_route()),
        Route::NonResource(nr) => {
            let reply = serve_non_resource(reg, server_address, &request, &nr);
            if let (Ok(r), true) = (&reply, nr.is_legacy_discovery()) {
                if let Some(resp) = negotiated_discovery(r, &request, pretty) {
                    return resp;
                }
            }
            reply
        }
        Route::Resource(rr) => return serve_resource(reg, &mut request, &rr, pretty),
    };
    match result {
        Ok(reply) => response::reply(&reply, pretty),
        Err(err) => response::error(&err, pretty),
    }
}

/// A resource request, with a deprecated custom version's warning on whatever it answers:
/// the CRD handler adds it before serving, so errors (404, 406, 422) and watches carry it
/// too, first among the warnings.
fn serve_resource(
    reg: &mut Registry,
    request: &mut Request<'_>,
    rr: &ResourceRequest,
    pretty: bool,
) -> Response<Body> {
    let mut resp = serve_resource_version(reg, request, rr, pretty);
    if let Some(w) = rr.resource.custom.and_then(|c| c.deprecation.as_ref()) {
        if let Ok(first) = HeaderValue::from_str(&response::warning_header(w)) {
            let headers = resp.headers_mut();
            let rest: Vec<HeaderValue> = headers.get_all("warning").iter().cloned().collect();
            headers.remove("warning");
            headers.append("warning", first);
            for v in rest {
                headers.append("warning", v);
            }
        }
    }
    resp
}

/// A resource request: the router's `Accept` check, output negotiation, the request body's
/// media type (create/update), the verb, then the negotiated transform and encoding.
fn serve_resource_version(
    reg: &mut Registry,
    request: &mut Request<'_>,
    rr: &ResourceRequest,
    pretty: bool,
) -> Response<Body> {
    let gzip = gzip_for(reg, request);
    let fail =
        |e: &ApiError, request: &Request<'_>| response::negotiated_error(e, request, pretty, gzip);
    let accept = request.header("accept").to_string();
    let streams = matches!(rr.verb, Verb::List | Verb::Watch);
    let produces = negotiation::produces(&request.served, streams);
    if let Err(e) = negotiation::route_accepts(&accept, &produces) {
        return fail(&e, request);
    }
    let Some(negotiated) = negotiation::negotiate(&accept, &request.served, Restrictions::Resource)
    else {
        return fail(&negotiation::not_acceptable(&request.served), request);
    };
    request.output = negotiated;
    if matches!(rr.verb, Verb::Create | Verb::Update) {
        if let Err(e) = negotiation::input_encoding(request.header("content-type"), &request.served)
        {
            return fail(&e, request);
        }
    }
    if rr.verb == Verb::Watch {
        return match handlers::watch::watch(reg, request, rr) {
            Ok(resp) => resp,
            Err(e) => fail(&e, request),
        };
    }
    let now_ms = reg.clock().now_ms();
    let mut result = handlers::dispatch(reg, request, rr);
    if let (Ok(reply), Some(kind)) = (&mut result, rr.resource.custom) {
        read_through_schema(rr.resource, kind, reply);
    }
    if let Ok(Reply {
        wait: Some(wait), ..
    }) = &result
    {
        return response::waiting(*wait, request);
    }
    let result = result
        .and_then(|reply| transform::apply(rr.resource, request, negotiated.target, now_ms, reply));
    let out = response::Output {
        negotiated,
        pretty,
        gzip,
    };
    match result {
        Ok(mut reply) => {
            let mut resp = response::resource_reply(&reply, &out, request);
            let mut leftovers = std::mem::take(&mut reply.leftovers);
            // A write's value (stored beside its version, or alone: a dry run, a write that
            // changed nothing) is encoded by now: it leaves with the rest.
            let written = reply.stored.is_some() || !leftovers.is_empty();
            if written && reply.body.is_object() {
                leftovers.push_first(std::mem::take(&mut reply.body));
            }
            if !leftovers.is_empty() {
                resp.extensions_mut().insert(leftovers);
            }
            resp
        }
        Err(e) => fail(&e, request),
    }
}

/// A custom resource's reply: every stored object in it as a read through the version asked
/// for gives it (pruned and defaulted by the schema, in that version). A value never stored
/// (a dry run's) only takes the version.
fn read_through_schema(
    info: &'static crate::resources::ResourceInfo,
    kind: &crate::resources::custom::CustomKind,
    reply: &mut Reply,
) {
    use crate::resources::custom::conversion::value_to_served;
    use crate::resources::custom::reading::{read, read_decoded};
    match reply.stored.take() {
        Some(stored) => match read_decoded(kind, &stored) {
            None => reply.stored = Some(stored),
            Some(read) => {
                reply.body = read;
                reply.leftovers.push(stored);
            }
        },
        None => value_to_served(info, &mut reply.body),
    }
    if let Some(items) = &mut reply.items {
        for item in items.make_owned().iter_mut() {
            if let Some(read) = read(kind, item) {
                *item = read;
            }
        }
    }
}

/// Whether the response may be gzipped (`APIResponseCompression` and the client accepts it).
fn gzip_for(reg: &Registry, request: &Request<'_>) -> bool {
    reg.feature_gates().enabled("APIResponseCompression")
        && compress::accepts_gzip(request.header("accept-encoding"))
}

/// The Status kube-apiserver sends for an unknown resource inside a served group version.
fn resource_not_found() -> ApiError {
    let mut e = ApiError::untyped(404, "the server could not find the requested resource");
    e.reason = "NotFound";
    e.details = Some(Box::new(status::Details::default()));
    e
}

/// Whether the client asked for aggregated discovery (`as=APIGroupDiscoveryList`, v2).
fn wants_aggregated(req: &Request<'_>) -> bool {
    req.header("accept").split(',').any(|range| {
        let params: Vec<&str> = range.split(';').map(str::trim).collect();
        params.contains(&"as=APIGroupDiscoveryList")
            && params.contains(&"g=apidiscovery.k8s.io")
            && params.contains(&"v=v2")
    })
}

/// A legacy discovery document as the discovery handlers write it (`WriteObjectNegotiated`):
/// the route's `Accept` check and the negotiation's 406s, then the negotiated encoding
/// (Protobuf and YAML included); `None` when plain JSON is the answer.
fn negotiated_discovery(
    reply: &Reply,
    request: &Request<'_>,
    pretty: bool,
) -> Option<Response<Body>> {
    if reply.code != 200 || reply.content_type.is_some() {
        return None;
    }
    let accept = request.header("accept");
    let fail = |e: ApiError| Some(response::negotiated_error(&e, request, pretty, false));
    let produces = negotiation::produces(&request.served, false);
    if let Err(e) = negotiation::route_accepts(accept, &produces) {
        return fail(e);
    }
    let Some(n) = negotiation::negotiate(accept, &request.served, Restrictions::Default) else {
        return fail(negotiation::not_acceptable(&request.served));
    };
    if n.encoding == Encoding::Json {
        return None;
    }
    let out = response::Output {
        negotiated: n,
        pretty,
        gzip: false,
    };
    Some(response::resource_reply(reply, &out, request))
}

fn serve_non_resource(
    reg: &Registry,
    server_address: &str,
    req: &Request<'_>,
    nr: &NonResource,
) -> ApiResult<Reply> {
    let gates = reg.feature_gates();
    let body = match nr {
        NonResource::CoreVersions | NonResource::Groups if wants_aggregated(req) => {
            let doc = discovery::aggregated_discovery(
                reg.kinds(),
                matches!(nr, NonResource::CoreVersions),
            );
            let etag = discovery::aggregated_discovery_etag(&doc);
            let not_modified = req.header("if-none-match") == etag;
            let mut reply = Reply::new(if not_modified { 304 } else { 200 }, doc);
            reply.content_type = Some(discovery::AGGREGATED_CONTENT_TYPE);
            reply.headers = vec![
                ("etag", etag),
                ("vary", "Accept".into()),
                ("cache-control", "public".into()),
            ];
            if not_modified {
                reply.body = Value::Null;
            }
            return Ok(reply);
        }
        NonResource::Version => Some(discovery::version_info()),
        NonResource::CoreVersions => Some(discovery::api_versions(server_address)),
        NonResource::Groups => Some(discovery::api_group_list(reg.kinds())),
        NonResource::Group(g) => discovery::api_group(reg.kinds(), g),
        NonResource::ResourceList { group, version } => {
            discovery::api_resource_list(reg.kinds(), group, version)
        }
        NonResource::OpenApiIndex => Some(openapi::index_with(reg.kinds(), gates)),
        NonResource::OpenApiDocument(key) => {
            let Some((doc, hash)) = openapi::document_with(reg.kinds(), key, gates) else {
                return Err(resource_not_found());
            };
            // kube-openapi's `HandleGroupVersion`: a stale `?hash=` is redirected to the
            // current document, the current one may be cached for a year, and
            // `http.ServeContent` answers a matching `If-None-Match` with 304.
            let etag = format!("\"{hash}\"");
            let mut headers = vec![("vary", "Accept".to_string()), ("etag", etag.clone())];
            if let Some(h) = req.query.get("hash") {
                if h != hash {
                    let mut reply = Reply::new(301, Value::Null);
                    reply.headers = vec![("location", format!("/openapi/v3/{key}?hash={hash}"))];
                    return Ok(reply);
                }
                let now = reg.clock().now_ms().div_euclid(1000);
                headers.push(("cache-control", "public, immutable".into()));
                headers.push((
                    "expires",
                    crate::codec::rfc3339::format_rfc1123_next_year(now),
                ));
            }
            let mut reply = match req.header("if-none-match") == etag {
                true => Reply::new(304, Value::Null),
                false => Reply::stored(200, doc),
            };
            reply.headers = headers;
            return Ok(reply);
        }
        NonResource::Health => return Ok(Reply::new(200, Value::String("ok".into()))),
    };
    body.map(|b| Reply::new(200, b))
        .ok_or_else(resource_not_found)
}
