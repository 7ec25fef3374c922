//! The HTTP face of the engine: routing, parameters, verb handlers, discovery and Status
//! errors. [`serve`] turns one request into one response; everything it needs from the rest
//! of the engine goes through [`crate::engine::Engine`].

pub mod discovery;
pub mod handlers;
pub mod openapi;
pub mod query;
pub mod response;
pub mod route;
pub mod selectors;
pub mod status;

use bytes::Bytes;
use http::{HeaderMap, Method, Response};
use serde_json::Value;

use crate::engine::{Body, Engine};
use query::Query;
use route::{NonResource, Route};
use status::{ApiError, ApiResult};

/// One parsed request, as the handlers see it.
#[derive(Debug)]
pub struct Request<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub query: Query,
    pub headers: &'a HeaderMap,
    pub body: &'a Bytes,
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

/// A successful handler result: status code, body and `Warning` header texts.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub code: u16,
    pub body: Value,
    pub warnings: Vec<String>,
}

impl Reply {
    /// A reply with no warnings.
    pub fn new(code: u16, body: Value) -> Self {
        Reply {
            code,
            body,
            warnings: Vec::new(),
        }
    }
}

/// Serves one request against the engine.
pub fn serve(engine: &mut Engine, req: &http::Request<Bytes>) -> Response<Body> {
    let query = Query::parse(req.uri().query().unwrap_or(""));
    let request = Request {
        method: req.method(),
        path: req.uri().path(),
        query,
        headers: req.headers(),
        body: req.body(),
    };
    let pretty = response::wants_pretty(&request);
    let watch = request.query.flag("watch").unwrap_or(false);
    let result = match route::route(request.method.as_str(), request.path, watch) {
        Route::PageNotFound => return response::page_not_found(),
        Route::ResourceNotFound => Err(resource_not_found()),
        Route::MethodNotAllowed => Err(ApiError::method_not_allowed_route()),
        Route::NonResource(nr) => serve_non_resource(engine, &nr),
        Route::Resource(rr) => match response::check_accept(&request) {
            Ok(()) => handlers::dispatch(engine, &request, &rr),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(reply) => response::reply(&reply, pretty),
        Err(err) => response::error(&err, pretty),
    }
}

/// The Status kube-apiserver sends for an unknown resource inside a served group version.
fn resource_not_found() -> ApiError {
    let mut e = ApiError::untyped(404, "the server could not find the requested resource");
    e.reason = "NotFound";
    e.details = Some(Box::new(status::Details::default()));
    e
}

fn serve_non_resource(engine: &Engine, nr: &NonResource) -> ApiResult<Reply> {
    let body = match nr {
        NonResource::Version => Some(discovery::version_info()),
        NonResource::CoreVersions => Some(discovery::api_versions(engine.server_address())),
        NonResource::Groups => Some(discovery::api_group_list()),
        NonResource::Group(g) => discovery::api_group(g),
        NonResource::ResourceList { group, version } => {
            discovery::api_resource_list(group, version)
        }
        NonResource::OpenApiIndex => Some(openapi::index()),
        NonResource::OpenApiDocument(key) => openapi::group_version_document(key),
        NonResource::Health => return Ok(Reply::new(200, Value::String("ok".into()))),
    };
    body.map(|b| Reply::new(200, b))
        .ok_or_else(resource_not_found)
}
