//! What keeps one client from holding the native server: the timeouts, connection cap and
//! accept back-off of kube-apiserver's HTTP server (k8s.io/apiserver `secure_serving.go` on
//! Go's `net/http`), so that stalled, half-open or idle connections are closed and running
//! out of file descriptors slows the accept loop instead of spinning it.

use std::time::Duration;

use bytes::Bytes;

use crate::engine::Body;
use crate::resources::status::ApiError;

/// The server's limits; [`Limits::default`] is kube-apiserver's.
#[derive(Debug, Clone)]
pub struct Limits {
    /// `ReadHeaderTimeout` (32 s): a TLS handshake, and a request's head (from the first
    /// bytes of the next request on a kept-alive connection), must arrive within it, or the
    /// connection is closed.
    pub read_header: Duration,
    /// `IdleTimeout` (90 s): a kept-alive connection silent this long after a response is
    /// closed.
    pub idle: Duration,
    /// `--request-timeout` (60 s): a request whose body has not arrived by then is answered
    /// 504 by the timeout filter.
    pub request: Duration,
    /// Connections served at once; past it the server stops accepting until one closes.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            read_header: Duration::from_secs(32),
            idle: Duration::from_secs(90),
            request: Duration::from_secs(60),
            max_connections: 8192,
        }
    }
}

/// Go's `Server.Serve` after a temporary accept error (such as running out of file
/// descriptors): wait 5 ms, doubling up to 1 s, until an accept succeeds.
#[derive(Debug, Default)]
pub(super) struct AcceptBackoff {
    delay: Option<Duration>,
}

impl AcceptBackoff {
    /// How long to wait after another failure.
    pub(super) fn failed(&mut self) -> Duration {
        let next = match self.delay {
            None => Duration::from_millis(5),
            Some(d) => (d * 2).min(Duration::from_secs(1)),
        };
        self.delay = Some(next);
        next
    }

    pub(super) fn succeeded(&mut self) {
        self.delay = None;
    }
}

/// The timeout filter's answer (`WithTimeoutForNonLongRunningRequests`): the Status written
/// with a plain `json.Encoder`, so without kind and apiVersion, under the content type Go
/// sniffs for it.
pub(super) fn timed_out() -> http::Response<Body> {
    let mut status =
        ApiError::timeout("request did not complete within the allotted timeout").to_status();
    // The timeout filter writes its Status without kind or apiVersion.
    if let serde_json::Value::Object(m) = &mut status {
        // `shift_remove` keeps the order of the rest (`remove` swaps the last field in).
        m.shift_remove("kind");
        m.shift_remove("apiVersion");
    }
    let text = crate::codec::json::to_vec(&status);
    let mut resp = http::Response::new(Body::Full(Bytes::from(text)));
    *resp.status_mut() = http::StatusCode::GATEWAY_TIMEOUT;
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    resp
}

/// Raises the soft limit on open files to the hard limit, as Go's runtime does at start,
/// and returns the connections the server can hold with it (some descriptors kept back).
pub fn raise_open_files_limit(wanted: usize) -> usize {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct passed; no other state.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
                if lim.rlim_cur < lim.rlim_max {
                    let raised = libc::rlimit {
                        rlim_cur: lim.rlim_max,
                        rlim_max: lim.rlim_max,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                        lim.rlim_cur = lim.rlim_max;
                    }
                }
                let usable = (lim.rlim_cur as usize).saturating_sub(64).max(16);
                return wanted.min(usable);
            }
        }
    }
    wanted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_back_off_doubles_from_5ms_to_1s_and_resets() {
        let mut b = AcceptBackoff::default();
        let waits: Vec<u64> = (0..10).map(|_| b.failed().as_millis() as u64).collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
        b.succeeded();
        assert_eq!(b.failed(), Duration::from_millis(5));
    }

    #[test]
    fn the_timeout_answer_is_the_filters_status_without_type_meta() {
        let resp = timed_out();
        assert_eq!(resp.status(), 504);
        let Body::Full(body) = resp.into_body() else {
            panic!("a full body")
        };
        assert_eq!(
            std::str::from_utf8(&body).unwrap(),
            concat!(
                r#"{"metadata":{},"status":"Failure","message":"Timeout: request did not "#,
                r#"complete within the allotted timeout","reason":"Timeout","details":{},"#,
                "\"code\":504}\n"
            )
        );
    }
}
