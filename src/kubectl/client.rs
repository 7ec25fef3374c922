//! kubectl's REST client: the requests a command sends, with kubectl's headers, each one
//! recorded (for the terminal's links into the request builder) and logged as client-go logs
//! it at `-v=6` (one line per request), `-v=7` (request headers, response status) and `-v=8`
//! (response headers and bodies, truncated at 1,024 characters as client-go truncates them).
//! The log lines are klog's: `I1203 13:25:06.683312       1 round_trippers.go:560] ...`,
//! stamped with the engine's clock.

use bytes::Bytes;

use super::Output;
use crate::engine::{Body, Engine, WatchStream};

/// What kubectl 1.32 calls itself; kube-apiserver derives a field manager from it.
pub const USER_AGENT: &str = "kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07";
/// The Accept header of a read printed as a table.
pub const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
/// The Accept header of aggregated discovery.
pub const DISCOVERY_ACCEPT: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

/// Where kubectl's requests go: the engine in the tab, or any other server.
pub trait Transport {
    fn send(&mut self, req: http::Request<Bytes>) -> http::Response<Body>;
    /// The engine's clock, for the log lines' time stamps (milliseconds since the epoch).
    fn now_ms(&self) -> i64;
}

impl Transport for Engine {
    fn send(&mut self, req: http::Request<Bytes>) -> http::Response<Body> {
        self.handle(req)
    }
    fn now_ms(&self) -> i64 {
        self.clock().now_ms()
    }
}

/// One request a command sent and what came back (what the terminal's link opens).
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    pub method: String,
    /// Path and query, as sent.
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub status: u16,
    pub response_headers: Vec<(String, String)>,
    /// The response body (empty for a watch).
    pub response: String,
    /// The response's `x-kubesim-read` explanation, for the badge beside it.
    pub read: Option<String>,
}

/// A response: its status, headers and body.
pub struct Reply {
    pub status: u16,
    pub body: Bytes,
    pub stream: Option<WatchStream>,
}

impl Reply {
    /// The body as JSON: parsed, or decoded from Protobuf (a typed client's answer).
    pub fn json(&self) -> serde_json::Value {
        decoded(&self.body).unwrap_or(serde_json::Value::Null)
    }
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Where client-go logs a request's `-v=8` body lines from (the function that made it:
/// `helper.go:113` for a list, `helper.go:202` for a delete, `discovery_client.go:253`, ...).
pub type Caller = &'static str;

/// What a typed client (client-go's clientset) asks for: Protobuf, else JSON.
pub const PROTOBUF_ACCEPT: &str = "application/vnd.kubernetes.protobuf,application/json";

/// A body as JSON: JSON parsed, Protobuf (`k8s\0...`) decoded with the built-in kinds, the
/// types kubectl is compiled with.
fn decoded(body: &[u8]) -> Option<serde_json::Value> {
    if body.starts_with(b"k8s\0") {
        crate::codec::protobuf::decode(body, &crate::resources::SCHEME).ok()
    } else {
        serde_json::from_slice(body).ok()
    }
}

/// One request to send.
pub struct Call<'a> {
    pub method: &'a str,
    pub path: String,
    pub accept: &'a str,
    pub content_type: Option<&'a str>,
    pub body: Vec<u8>,
    pub caller: Caller,
}

impl<'a> Call<'a> {
    /// A request with a body, answered in JSON.
    pub fn with_body(
        method: &'a str,
        path: String,
        content_type: &'a str,
        body: Vec<u8>,
        caller: Caller,
    ) -> Call<'a> {
        Call {
            method,
            path,
            accept: "application/json",
            content_type: Some(content_type),
            body,
            caller,
        }
    }

    /// A typed client's GET: Protobuf asked for first.
    pub fn typed_get(path: String, caller: Caller) -> Call<'a> {
        Call {
            caller,
            ..Call::get(path, PROTOBUF_ACCEPT)
        }
    }

    /// A typed client's write: the object sent in Protobuf (JSON when its kind has no
    /// Protobuf form), Protobuf asked for back.
    pub fn typed_write(
        method: &'a str,
        path: String,
        obj: &serde_json::Value,
        caller: Caller,
    ) -> Call<'a> {
        let (content_type, body) =
            match crate::codec::protobuf::encode(obj, &crate::resources::SCHEME) {
                Ok(bytes) => (crate::codec::protobuf::MEDIA_TYPE, bytes),
                Err(_) => (
                    "application/json",
                    crate::codec::json::to_compact_string(obj).into_bytes(),
                ),
            };
        Call {
            method,
            path,
            accept: PROTOBUF_ACCEPT,
            content_type: Some(content_type),
            body,
            caller,
        }
    }

    pub fn get(path: String, accept: &'a str) -> Call<'a> {
        Call {
            method: "GET",
            path,
            accept,
            content_type: None,
            body: Vec::new(),
            caller: "helper.go:113",
        }
    }
}

/// The base URL the log lines print (a terminal in the tab has no host; the parity tests
/// set the native server's).
pub struct Client<'t> {
    pub transport: &'t mut dyn Transport,
    pub server: String,
    pub verbosity: u8,
    pub impersonate: Option<String>,
    pub impersonate_groups: Vec<String>,
    pub impersonate_uid: Option<String>,
    /// `--request-timeout`, as Go prints the duration: every request's `timeout` parameter.
    pub timeout: Option<String>,
    /// The server's warnings printed so far (each once, as kubectl's warning writer
    /// deduplicates them).
    pub warnings: Vec<String>,
    /// A raw request's answer goes out whole, its body not logged.
    pub raw: bool,
}

fn status_text(code: u16) -> String {
    let reason = http::StatusCode::from_u16(code)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    format!("{code} {reason}")
}

/// client-go's `-v=8` body line (`logBody`): the first 1024 bytes, quoted, or klog's
/// multi-line form when the text has a newline; a body with a byte below `\n` (Protobuf) as
/// `hex.Dump` prints it.
fn body_line(what: &str, body: &[u8]) -> String {
    // The text is cut after the dump, so a Protobuf body's dump is what gets cut.
    let text = if body.iter().any(|b| *b < b'\n') {
        hex_dump(body).into_bytes()
    } else {
        body.to_vec()
    };
    const MAX: usize = 1024;
    let mut shown = text[..text.len().min(MAX)].to_vec();
    if text.len() > MAX {
        shown.extend_from_slice(format!(" [truncated {} chars]", text.len() - MAX).as_bytes());
    }
    let text = String::from_utf8_lossy(&shown).into_owned();
    if text.contains('\n') {
        let mut out = format!("\"{what}\" body=<\n");
        for line in text.trim_end_matches('\n').split('\n') {
            out.push('\t');
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(" >");
        out
    } else {
        format!("\"{what}\" body={}", crate::codec::goquote::go_quote(&text))
    }
}

/// Go's `hex.Dump`: 16 bytes a line, an offset, the bytes in hex (a gap after the eighth),
/// and the printable ones between bars.
fn hex_dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (line, chunk) in bytes.chunks(16).enumerate() {
        out.push_str(&format!("{:08x}  ", line * 16));
        for i in 0..16 {
            match chunk.get(i) {
                Some(b) => out.push_str(&format!("{b:02x} ")),
                None => out.push_str("   "),
            }
            if i == 7 {
                out.push(' ');
            }
        }
        out.push_str(" |");
        out.extend(chunk.iter().map(|&b| {
            if (32..=126).contains(&b) {
                b as char
            } else {
                '.'
            }
        }));
        out.push_str("|\n");
    }
    out
}

impl Client<'_> {
    /// klog's header for a line logged now from `file:line`.
    pub fn log(&self, out: &mut Output, at: &str, msg: &str) {
        // klog ends a line with a newline unless the message has its own.
        let end = if msg.ends_with('\n') { "" } else { "\n" };
        out.err(&format!("{}{msg}{end}", self.log_header(at)));
    }

    /// klog's header of an info line logged now from `file:line`:
    /// `I1203 13:25:06.000000       1 file:line] `.
    pub fn log_header(&self, at: &str) -> String {
        let ms = self.transport.now_ms();
        let secs = ms.div_euclid(1000);
        let micros = ms.rem_euclid(1000) * 1000;
        let stamp = crate::codec::rfc3339::format(secs); // 2026-12-03T13:25:06Z
        let (date, time) = stamp.split_once('T').unwrap_or((&stamp, ""));
        let month_day: String = date.get(5..).unwrap_or("").replace('-', "");
        let time = time.trim_end_matches('Z');
        format!("I{month_day} {time}.{micros:06} {:>7} {at}] ", 1)
    }

    /// Sends `call` as `rawhttp` does: its response body streamed out, never logged.
    pub fn send_raw(&mut self, out: &mut Output, call: Call<'_>) -> Reply {
        self.raw = true;
        let reply = self.send(out, call);
        self.raw = false;
        reply
    }

    /// Sends `call`, logging and recording it.
    pub fn send(&mut self, out: &mut Output, mut call: Call<'_>) -> Reply {
        if let Some(t) = &self.timeout {
            call.path = with_param(&call.path, "timeout", t);
        }
        let mut headers: Vec<(String, String)> = vec![
            ("Accept".into(), call.accept.to_string()),
            ("User-Agent".into(), USER_AGENT.into()),
        ];
        if let Some(ct) = call.content_type {
            headers.insert(0, ("Content-Type".into(), ct.into()));
        }
        if let Some(user) = &self.impersonate {
            headers.push(("Impersonate-User".into(), user.clone()));
        }
        if let Some(uid) = &self.impersonate_uid {
            headers.push(("Impersonate-Uid".into(), uid.clone()));
        }
        for g in &self.impersonate_groups {
            headers.push(("Impersonate-Group".into(), g.clone()));
        }
        let url = format!("{}{}", self.server, call.path);
        if self.verbosity >= 8 {
            self.log(out, call.caller, &body_line("Request Body", &call.body));
        }
        let body_text = text_of(&call.body);
        if self.verbosity >= 7 {
            self.log(
                out,
                "round_trippers.go:470",
                &format!("{} {url}", call.method),
            );
            self.log(out, "round_trippers.go:476", "Request Headers:");
            for (k, v) in &headers {
                self.log(out, "round_trippers.go:480", &format!("    {k}: {v}"));
            }
        }
        let mut req = http::Request::builder()
            .method(call.method)
            .uri(call.path.as_str());
        for (k, v) in &headers {
            req = req.header(k.as_str(), v.as_str());
        }
        let req = req
            .body(Bytes::from(call.body))
            .expect("kubectl builds valid requests");
        let resp = self.transport.send(req);
        let status = resp.status().as_u16();
        let response_headers: Vec<(String, String)> = resp
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    canonical_header(k.as_str()),
                    v.to_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        // `Warning: 299 - "text"` headers, printed after the response's log lines.
        let warnings: Vec<String> = resp
            .headers()
            .get_all("warning")
            .iter()
            .map(|w| {
                let raw = w.to_str().unwrap_or("");
                let quoted = raw.split_once(" - ").map_or(raw, |(_, t)| t);
                let inner = quoted
                    .strip_prefix('"')
                    .and_then(|t| t.strip_suffix('"'))
                    .unwrap_or(quoted);
                inner.replace("\\\"", "\"").replace("\\\\", "\\")
            })
            .collect();
        let read = resp
            .headers()
            .get("x-kubesim-read")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let (body, stream) = match resp.into_body() {
            Body::Full(b) => (b, None),
            Body::Watch(w) => (Bytes::new(), Some(w)),
        };
        let text = text_of(&body);
        if self.verbosity == 6 {
            self.log(
                out,
                "round_trippers.go:560",
                &format!(
                    "{} {url} {} in 0 milliseconds",
                    call.method,
                    status_text(status)
                ),
            );
        }
        if self.verbosity >= 7 {
            self.log(
                out,
                "round_trippers.go:581",
                &format!("Response Status: {} in 0 milliseconds", status_text(status)),
            );
        }
        if self.verbosity >= 8 {
            self.log(out, "round_trippers.go:584", "Response Headers:");
            for (k, v) in &response_headers {
                self.log(out, "round_trippers.go:587", &format!("    {k}: {v}"));
            }
            if stream.is_none() && !self.raw {
                self.log(out, call.caller, &body_line("Response Body", &body));
            }
        }
        // As kubectl's warning writer prints them: each text once per command.
        for text in warnings {
            if !self.warnings.contains(&text) {
                out.err(&format!("Warning: {text}\n"));
                self.warnings.push(text);
            }
        }
        out.sent.push(Sent {
            method: call.method.to_string(),
            path: call.path,
            headers,
            body: body_text,
            status,
            response_headers,
            response: text,
            read,
        });
        Reply {
            status,
            body,
            stream,
        }
    }
}

/// A body as the terminal's records keep it: text, or a Protobuf body as its JSON.
fn text_of(body: &[u8]) -> String {
    if body.starts_with(b"k8s\0") {
        if let Some(v) = decoded(body) {
            return crate::codec::json::to_compact_string(&v);
        }
    }
    String::from_utf8_lossy(body).into_owned()
}

/// Go's canonical MIME header key (`content-type` → `Content-Type`), as client-go prints them.
fn canonical_header(name: &str) -> String {
    name.split('-')
        .map(|part| {
            let mut c = part.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("-")
}

/// Go's `url.QueryEscape`.
pub fn query_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `url.Values.Encode`: keys sorted.
pub fn encode_query(mut params: Vec<(&str, String)>) -> String {
    crate::sort::sort_by(&mut params, |a, b| a.0.cmp(b.0));
    params
        .iter()
        .map(|(k, v)| format!("{k}={}", query_escape(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// `path?query`, or `path` with no parameters.
pub fn with_query(path: String, params: Vec<(&str, String)>) -> String {
    if params.is_empty() {
        path
    } else {
        format!("{path}?{}", encode_query(params))
    }
}

/// `path` with `key=value` set in its query (replacing any earlier value), the parameters
/// in key order as `url.Values.Encode` writes them.
fn with_param(path: &str, key: &str, value: &str) -> String {
    let (base, query) = path.split_once('?').unwrap_or((path, ""));
    let mut params: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty() && p.split('=').next() != Some(key))
        .map(str::to_string)
        .collect();
    params.push(format!("{key}={}", query_escape(value)));
    crate::sort::sort_by(&mut params, |a, b| {
        let key = |p: &String| p.split('=').next().unwrap_or("").to_string();
        key(a).cmp(&key(b))
    });
    format!("{base}?{}", params.join("&"))
}

/// Go's `Duration.String()`: `5s`, `1m30s`, `1h0m0s`, `1.5s`, `500ms`.
pub fn go_duration(ns: i64) -> String {
    if ns == 0 {
        return "0s".into();
    }
    let sign = if ns < 0 { "-" } else { "" };
    let u = ns.unsigned_abs();
    // The fraction of `v / 10^prec`, trailing zeros (and a bare point) left out.
    let frac = |v: u64, prec: u32| -> (u64, String) {
        let p = 10u64.pow(prec);
        let digits = format!("{:0width$}", v % p, width = prec as usize);
        let digits = digits.trim_end_matches('0');
        let text = if digits.is_empty() {
            String::new()
        } else {
            format!(".{digits}")
        };
        (v / p, text)
    };
    if u < 1_000_000_000 {
        let (unit, prec) = match u {
            0..=999 => ("ns", 0),
            1_000..=999_999 => ("µs", 3),
            _ => ("ms", 6),
        };
        let (whole, f) = frac(u, prec);
        return format!("{sign}{whole}{f}{unit}");
    }
    let (secs, f) = frac(u, 9);
    let mut text = format!("{}{f}s", secs % 60);
    let minutes = secs / 60;
    if minutes > 0 {
        text = format!("{}m{text}", minutes % 60);
        let hours = minutes / 60;
        if hours > 0 {
            text = format!("{hours}h{text}");
        }
    }
    format!("{sign}{text}")
}
