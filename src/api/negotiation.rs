//! Content negotiation, as kube-apiserver does it in two layers.
//!
//! 1. The go-restful router matches each `Accept` range (parameters dropped, compared as
//!    written) against the route's `Produces` list; `*/*` always passes. Nothing matching is a
//!    406 `406: Not Acceptable\n\nAvailable representations: ...` before any handler runs
//!    (so `application/*` is refused here).
//! 2. The handler negotiates a serializer (`negotiation.NegotiateOutputMediaType`): the
//!    `Accept` clauses are sorted by q (goautoneg), every clause is tried against every served
//!    serializer in order, a clause's parameters must be acceptable (`as`/`g`/`v` name a
//!    transform the endpoint allows — Table only as JSON or YAML, PartialObjectMetadata(List)
//!    in any encoding; `stream=watch` only for stream-capable encodings), and a serializer
//!    whose most specific clause has `q=0` is rejected. Nothing acceptable is a 406
//!    `only the following media types are accepted: ...`.
//!
//! Request bodies are matched by `Content-Type` (empty means JSON); an unknown type is a 415.
//! The spec's neutral `application/vnd.platform.protobuf` is read as
//! `application/vnd.kubernetes.protobuf` everywhere.
//!
//! The served encodings come from [`served`]: JSON, YAML and Protobuf, plus CBOR with
//! `CBORServingAndStorage`; every list in a 406/415 message is derived from it. Codecs are
//! reached through [`crate::api::encode`].

use crate::features::FeatureGates;
use crate::resources::status::{ApiError, Details};

/// A wire encoding of API objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    Json,
    Yaml,
    Protobuf,
    Cbor,
}

impl Encoding {
    /// The serializer's media type (also the response `Content-Type`).
    pub fn media_type(self) -> &'static str {
        match self {
            Encoding::Json => "application/json",
            Encoding::Yaml => "application/yaml",
            Encoding::Protobuf => "application/vnd.kubernetes.protobuf",
            Encoding::Cbor => "application/cbor",
        }
    }

    fn split(self) -> (&'static str, &'static str) {
        self.media_type()
            .split_once('/')
            .expect("media types have a slash")
    }

    /// The name of this encoding's watch stream in 406 texts (`MediaTypesForSerializer`);
    /// `None` when it cannot stream (YAML).
    pub fn stream_name(self) -> Option<&'static str> {
        match self {
            Encoding::Json => Some("application/json;stream=watch"),
            Encoding::Yaml => None,
            Encoding::Protobuf => Some("application/vnd.kubernetes.protobuf;stream=watch"),
            Encoding::Cbor => Some("application/cbor-seq"),
        }
    }

    /// The `Content-Type` of a watch response (JSON keeps its plain type).
    pub fn watch_content_type(self) -> &'static str {
        match self {
            Encoding::Json => "application/json",
            Encoding::Yaml => "application/yaml",
            Encoding::Protobuf => "application/vnd.kubernetes.protobuf;stream=watch",
            Encoding::Cbor => "application/cbor-seq",
        }
    }
}

/// The encodings served, in the order the server's codec factory lists them.
pub fn served(gates: &FeatureGates) -> Vec<Encoding> {
    let mut v = vec![Encoding::Json, Encoding::Yaml];
    if crate::api::encode::codec_ready(Encoding::Protobuf) {
        v.push(Encoding::Protobuf);
    }
    if gates.enabled("CBORServingAndStorage") && crate::api::encode::codec_ready(Encoding::Cbor) {
        v.push(Encoding::Cbor);
    }
    v
}

/// The `meta.k8s.io` version a transform was asked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetaVersion {
    V1,
    V1beta1,
}

impl MetaVersion {
    /// `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`.
    pub fn api_version(self) -> &'static str {
        match self {
            MetaVersion::V1 => "meta.k8s.io/v1",
            MetaVersion::V1beta1 => "meta.k8s.io/v1beta1",
        }
    }
}

/// A representation other than the object itself (`as=...;g=meta.k8s.io;v=...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Table(MetaVersion),
    PartialObjectMetadata(MetaVersion),
    PartialObjectMetadataList(MetaVersion),
}

/// The outcome of output negotiation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Negotiated {
    pub encoding: Encoding,
    pub target: Option<Target>,
    /// `pretty=1` was a media-type parameter.
    pub pretty: bool,
}

impl Negotiated {
    /// Plain JSON, as for an empty `Accept`.
    pub const JSON: Negotiated = Negotiated {
        encoding: Encoding::Json,
        target: None,
        pretty: false,
    };
}

/// Which transforms an endpoint allows (`AllowsMediaTypeTransform`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restrictions {
    /// A resource endpoint (`RequestScope`): Table and PartialObjectMetadata(List).
    Resource,
    /// Errors and other responses (`DefaultEndpointRestrictions`): no transforms.
    Default,
}

/// One clause of an `Accept` header (goautoneg's `Accept`).
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    pub ty: String,
    pub sub: String,
    pub q: f64,
    pub params: Vec<(String, String)>,
}

/// goautoneg's `ParseAccept`: clauses split on `,` and `;`, only spaces trimmed, `q` parsed
/// as Go's `ParseFloat` (a bad value is 0), then Go's `sort.Sort` (an insertion sort for
/// headers of up to 12 clauses) with goautoneg's `Less`.
pub fn parse_accept(header: &str) -> Vec<Clause> {
    let mut out = Vec::new();
    for part in header.split(',') {
        let part = part.trim_matches(' ');
        let mut pieces = part.split(';');
        let range = pieces.next().unwrap_or("");
        let sp: Vec<&str> = range.split('/').collect();
        let ty = sp[0].trim_matches(' ');
        let sub = match sp.len() {
            1 if ty == "*" => "*",
            2 => sp[1].trim_matches(' '),
            _ => continue,
        };
        let (ty, sub) = normalize(ty, sub);
        let mut clause = Clause {
            ty: ty.to_string(),
            sub: sub.to_string(),
            q: 1.0,
            params: Vec::new(),
        };
        for param in pieces {
            let Some((k, v)) = param.split_once('=') else {
                continue;
            };
            let k = k.trim_matches(' ');
            if k == "q" {
                clause.q = parse_q(v);
            } else {
                clause
                    .params
                    .push((k.to_string(), v.trim_matches(' ').to_string()));
            }
        }
        out.push(clause);
    }
    let less = |a: &Clause, b: &Clause| {
        a.q > b.q || (a.ty != "*" && b.ty == "*") || (a.sub != "*" && b.sub == "*")
    };
    for i in 1..out.len() {
        let mut j = i;
        while j > 0 && less(&out[j], &out[j - 1]) {
            out.swap(j, j - 1);
            j -= 1;
        }
    }
    out
}

/// goautoneg's `strconv.ParseFloat(v, 32)` with the error dropped: a syntax error is 0, an
/// overflow is infinite, and nothing is trimmed (`q= 0.5` is 0).
fn parse_q(v: &str) -> f64 {
    v.parse::<f32>().map(f64::from).unwrap_or(0.0)
}

/// Reads the spec's neutral protobuf name as Kubernetes's.
fn normalize<'a>(ty: &'a str, sub: &'a str) -> (&'a str, &'a str) {
    if ty == "application" && sub == "vnd.platform.protobuf" {
        ("application", "vnd.kubernetes.protobuf")
    } else {
        (ty, sub)
    }
}

/// 2 for an exact match, 1 for `type/*`, 0 for `*/*`, -1 for none (`clauseSpecificity`).
fn specificity(c: &Clause, enc: Encoding) -> i32 {
    let (ty, sub) = enc.split();
    match (c.ty == ty, c.sub == sub, c.ty == "*" && c.sub == "*") {
        (true, true, _) => 2,
        (true, false, _) if c.sub == "*" => 1,
        (_, _, true) => 0,
        _ => -1,
    }
}

/// `acceptMediaTypeOptions`: the clause's parameters applied to a serializer, or `None` when
/// they rule it out.
fn accept_options(c: &Clause, enc: Encoding, r: Restrictions) -> Option<Negotiated> {
    let (mut kind, mut group, mut version) = (None, None, None);
    let mut pretty = false;
    for (k, v) in &c.params {
        match k.as_str() {
            "as" => kind = Some(v.as_str()),
            "g" => group = Some(v.as_str()),
            "v" => version = Some(v.as_str()),
            "stream" if !v.is_empty() && (enc.stream_name().is_none() || v != "watch") => {
                return None
            }
            "sv" if !v.is_empty() && (r == Restrictions::Default || v != "v1") => return None,
            "pretty" => pretty = v == "1",
            _ => {}
        }
    }
    let convert = kind.is_some() || group.is_some() || version.is_some();
    let target = if convert {
        if r == Restrictions::Default || group != Some("meta.k8s.io") {
            return None;
        }
        let mv = match version {
            Some("v1") => MetaVersion::V1,
            Some("v1beta1") => MetaVersion::V1beta1,
            _ => return None,
        };
        Some(match kind {
            Some("Table") if matches!(enc, Encoding::Json | Encoding::Yaml) => Target::Table(mv),
            Some("PartialObjectMetadata") => Target::PartialObjectMetadata(mv),
            Some("PartialObjectMetadataList") => Target::PartialObjectMetadataList(mv),
            _ => return None,
        })
    } else {
        None
    };
    Some(Negotiated {
        encoding: enc,
        target,
        pretty,
    })
}

/// `NegotiateMediaTypeOptions` over the served encodings; `None` means 406.
pub fn negotiate(header: &str, served: &[Encoding], r: Restrictions) -> Option<Negotiated> {
    if header.is_empty() {
        return served.first().map(|e| Negotiated {
            encoding: *e,
            target: None,
            pretty: false,
        });
    }
    let clauses = parse_accept(header);
    let rejected: Vec<bool> = served
        .iter()
        .map(|enc| {
            let mut best = -1;
            let mut rejected = false;
            for c in &clauses {
                let s = specificity(c, *enc);
                if s > best {
                    best = s;
                    rejected = c.q <= 0.0;
                }
            }
            rejected
        })
        .collect();
    for c in &clauses {
        if c.q <= 0.0 {
            continue;
        }
        for (i, enc) in served.iter().enumerate() {
            if rejected[i] || specificity(c, *enc) < 0 {
                continue;
            }
            if let Some(n) = accept_options(c, *enc, r) {
                return Some(n);
            }
        }
    }
    None
}

/// The 406 a handler answers when negotiation fails.
pub fn not_acceptable(served: &[Encoding]) -> ApiError {
    let list: Vec<&str> = served.iter().map(|e| e.media_type()).collect();
    ApiError::not_acceptable(format!(
        "only the following media types are accepted: {}",
        list.join(", ")
    ))
}

/// The 406 of a watch whose negotiated encoding cannot stream.
pub fn not_acceptable_stream(served: &[Encoding]) -> ApiError {
    let list: Vec<&str> = served.iter().filter_map(|e| e.stream_name()).collect();
    ApiError::not_acceptable(format!(
        "only the following media types are accepted: {}",
        list.join(", ")
    ))
}

/// A route's `Produces` list: the served media types, plus the stream types on list/watch
/// routes.
pub fn produces(served: &[Encoding], streams: bool) -> Vec<&'static str> {
    let mut v: Vec<&str> = served.iter().map(|e| e.media_type()).collect();
    if streams {
        v.extend(served.iter().filter_map(|e| e.stream_name()));
    }
    v
}

/// go-restful's `Route.matchesAccept` plus its 406 (`details` is an empty object, as
/// `NewGenericServerResponse` builds it).
pub fn route_accepts(header: &str, produces: &[&str]) -> Result<(), ApiError> {
    if header.is_empty() {
        return Ok(());
    }
    for range in header.split(',') {
        let mime = range.split(';').next().unwrap_or("").trim_matches(' ');
        let mime = if mime == "application/vnd.platform.protobuf" {
            "application/vnd.kubernetes.protobuf"
        } else {
            mime
        };
        if mime == "*/*" || produces.contains(&mime) {
            return Ok(());
        }
    }
    let mut e = ApiError::not_acceptable(format!(
        "406: Not Acceptable\n\nAvailable representations: {}",
        produces.join(", ")
    ));
    e.details = Some(Box::new(Details::default()));
    Err(e)
}

/// `NegotiateInputSerializer`: the encoding of a request body from its `Content-Type` (empty
/// is the first served, JSON), else 415 with the served list.
pub fn input_encoding(content_type: &str, served: &[Encoding]) -> Result<Encoding, ApiError> {
    if content_type.is_empty() {
        return Ok(served[0]);
    }
    if let Some(media) = parse_media_type(content_type) {
        let media = if media == "application/vnd.platform.protobuf" {
            "application/vnd.kubernetes.protobuf".to_string()
        } else {
            media
        };
        if let Some(e) = served.iter().find(|e| e.media_type() == media) {
            return Ok(*e);
        }
    }
    let list: Vec<&str> = served.iter().map(|e| e.media_type()).collect();
    Err(ApiError::unsupported_media_type(format!(
        "the body of the request was in an unknown format - accepted media types include: {}",
        list.join(", ")
    )))
}

fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?=".contains(&b))
}

/// Go's `mime.ParseMediaType`, reduced to what decides acceptance: a lower-cased
/// `type/subtype` of tokens and well-formed `key=value` parameters (a trailing `;` is fine).
pub fn parse_media_type(v: &str) -> Option<String> {
    let (base, params) = match v.split_once(';') {
        Some((b, p)) => (b, Some(p)),
        None => (v, None),
    };
    let base = base.trim();
    let (ty, sub) = base.split_once('/')?;
    if !is_token(ty) || !is_token(sub) {
        return None;
    }
    if let Some(params) = params {
        for p in params.split(';') {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            let (k, val) = p.split_once('=')?;
            let val = val.trim();
            let quoted = val.len() >= 2 && val.starts_with('"') && val.ends_with('"');
            if !is_token(k.trim()) || !(quoted || is_token(val)) {
                return None;
            }
        }
    }
    Some(base.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SERVED: &[Encoding] = &[Encoding::Json, Encoding::Yaml];

    #[test]
    fn clauses_sort_as_goautoneg() {
        let c = parse_accept("text/*;q=0.5, */*;q=0.1, application/json, a/b;q=x");
        let names: Vec<String> = c
            .iter()
            .map(|c| format!("{}/{};{}", c.ty, c.sub, c.q as f32))
            .collect();
        // goautoneg's `Less` prefers a concrete subtype even over a higher q, so the
        // insertion sort moves `a/b;q=0` (an unparsable q is 0) ahead of `text/*`.
        assert_eq!(
            names,
            ["application/json;1", "a/b;0", "text/*;0.5", "*/*;0.1"]
        );
    }

    #[test]
    fn negotiation_outcomes() {
        let n = |h: &str| negotiate(h, SERVED, Restrictions::Resource);
        assert_eq!(n("").unwrap().encoding, Encoding::Json);
        assert_eq!(n("*/*").unwrap().encoding, Encoding::Json);
        assert_eq!(n("application/*").unwrap().encoding, Encoding::Json);
        assert_eq!(n("application/yaml").unwrap().encoding, Encoding::Yaml);
        assert_eq!(
            n("application/json;q=0, */*"),
            Some(Negotiated {
                encoding: Encoding::Yaml,
                target: None,
                pretty: false
            })
        );
        assert!(n("application/json;q=0").is_none());
        assert!(n("application/json;as=Table;g=meta.k8s.io;v=v2").is_none());
        assert_eq!(
            n("application/yaml;as=Table;g=meta.k8s.io;v=v1beta1")
                .unwrap()
                .target,
            Some(Target::Table(MetaVersion::V1beta1))
        );
        assert!(negotiate(
            "application/json;as=Table;g=meta.k8s.io;v=v1",
            SERVED,
            Restrictions::Default
        )
        .is_none());
        assert!(n("application/yaml;stream=watch").is_none());
        assert!(n("application/json;pretty=1").unwrap().pretty);
    }

    #[test]
    fn media_type_syntax() {
        assert_eq!(
            parse_media_type("Application/JSON; charset=utf-8").as_deref(),
            Some("application/json")
        );
        assert_eq!(
            parse_media_type("application/json;").as_deref(),
            Some("application/json")
        );
        assert_eq!(parse_media_type("application/json; foo"), None);
        assert_eq!(parse_media_type("json"), None);
    }
}
