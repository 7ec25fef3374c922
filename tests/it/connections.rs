//! The native server's connection limits (kube-apiserver's HTTP server settings): stalled
//! headers and idle connections are closed, a body that never arrives is the timeout filter's
//! 504, and past the connection cap the server waits for a connection to close before taking
//! another. Each test runs the server in-process with short limits.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kubesim::server::Limits;
use kubesim::{Config, Engine};

/// Starts a plain-HTTP server with `limits` on its own runtime thread; its address.
fn serve(limits: Limits) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let engine = Arc::new(Mutex::new(Engine::new(Config::default())));
            let (listener, addr) = kubesim::server::bind("127.0.0.1:0".parse().unwrap())
                .await
                .unwrap();
            tx.send(addr.to_string()).unwrap();
            let _ = kubesim::server::run_with(
                engine,
                listener,
                None,
                limits,
                std::future::pending::<()>(),
            )
            .await;
        });
    });
    rx.recv().unwrap()
}

fn short() -> Limits {
    Limits {
        read_header: Duration::from_millis(300),
        idle: Duration::from_millis(600),
        request: Duration::from_millis(300),
        max_connections: 64,
    }
}

fn get_request(addr: &str, close: bool) -> String {
    format!(
        "GET /api/v1/namespaces/default HTTP/1.1\r\nHost: {addr}\r\n{}\
         Authorization: Bearer {}\r\n\r\n",
        if close { "Connection: close\r\n" } else { "" },
        kubesim::auth::ADMIN_TOKEN
    )
}

/// Reads until the peer closes (or 10 s pass): what arrived and how long it took.
fn read_until_closed(conn: &mut TcpStream) -> (String, Duration) {
    let start = Instant::now();
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match conn.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
    (String::from_utf8_lossy(&out).into_owned(), start.elapsed())
}

#[test]
fn headers_that_never_finish_close_the_connection() {
    let addr = serve(short());
    let mut conn = TcpStream::connect(&addr).unwrap();
    conn.write_all(b"GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let (_, took) = read_until_closed(&mut conn);
    assert!(took < Duration::from_secs(5), "closed after {took:?}");
    // A connection that says nothing at all is closed too.
    let mut silent = TcpStream::connect(&addr).unwrap();
    let (text, took) = read_until_closed(&mut silent);
    assert!(took < Duration::from_secs(5), "closed after {took:?}");
    assert_eq!(text, "");
}

#[test]
fn an_idle_keep_alive_connection_is_closed() {
    let addr = serve(short());
    let mut conn = TcpStream::connect(&addr).unwrap();
    conn.write_all(get_request(&addr, false).as_bytes())
        .unwrap();
    let (text, took) = read_until_closed(&mut conn);
    assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
    assert!(took < Duration::from_secs(5), "closed after {took:?}");
}

/// Reads one response with a Content-Length from a connection kept open; its head and body.
fn read_response(conn: &mut TcpStream) -> String {
    conn.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&out).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length: "))
                .expect("a sized response")
                .parse::<usize>()
                .unwrap();
            if body.len() >= length {
                return text;
            }
        }
        let n = conn.read(&mut buf).expect("the response arrives");
        assert!(n > 0, "closed mid-response: {text}");
        out.extend_from_slice(&buf[..n]);
    }
}

/// Go waits `IdleTimeout` (90 s) for a kept-alive connection's next request, and only then
/// the header timeout for its head: silence longer than the header timeout between requests
/// does not close it (hyper's own header timer would).
#[test]
fn a_kept_alive_connection_waits_the_idle_timeout_not_the_header_timeout() {
    let mut limits = short();
    limits.idle = Duration::from_secs(3);
    let addr = serve(limits);
    let mut conn = TcpStream::connect(&addr).unwrap();
    for _ in 0..2 {
        conn.write_all(get_request(&addr, false).as_bytes())
            .unwrap();
        let text = read_response(&mut conn);
        assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
        // Past the 300 ms header timeout, within the idle one.
        std::thread::sleep(Duration::from_millis(900));
    }
    let (text, took) = read_until_closed(&mut conn);
    assert_eq!(text, "");
    assert!(took < Duration::from_secs(8), "closed after {took:?}");
}

/// Once the next request's first bytes arrive, its head has the header timeout, however long
/// the idle timeout is.
#[test]
fn the_next_head_has_the_header_timeout_from_its_first_bytes() {
    let mut limits = short();
    limits.idle = Duration::from_secs(60);
    let addr = serve(limits);
    let mut conn = TcpStream::connect(&addr).unwrap();
    conn.write_all(get_request(&addr, false).as_bytes())
        .unwrap();
    let text = read_response(&mut conn);
    assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
    conn.write_all(b"GET /api/v1/namespaces HTTP/1.1\r\n")
        .unwrap();
    let (text, took) = read_until_closed(&mut conn);
    assert!(took < Duration::from_secs(8), "closed after {took:?}");
    assert!(!text.contains("200 OK"), "{text}");
}

#[test]
fn a_body_that_never_arrives_is_a_504() {
    let addr = serve(short());
    let mut conn = TcpStream::connect(&addr).unwrap();
    let head = format!(
        "POST /api/v1/namespaces HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"apiVersion\"",
        kubesim::auth::ADMIN_TOKEN
    );
    conn.write_all(head.as_bytes()).unwrap();
    let (text, _) = read_until_closed(&mut conn);
    assert!(text.starts_with("HTTP/1.1 504 "), "{text}");
    let body = text.split_once("\r\n\r\n").unwrap().1;
    assert_eq!(
        body,
        "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"Timeout: request did not complete \
         within the allotted timeout\",\"reason\":\"Timeout\",\"details\":{},\"code\":504}\n"
    );
    assert!(
        text.contains("content-type: text/plain; charset=utf-8"),
        "{text}"
    );
}

#[test]
fn past_the_connection_cap_the_server_waits_for_a_slot() {
    let mut limits = short();
    limits.read_header = Duration::from_secs(30);
    limits.max_connections = 2;
    let addr = serve(limits);
    let first = TcpStream::connect(&addr).unwrap();
    let second = TcpStream::connect(&addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let mut third = TcpStream::connect(&addr).unwrap();
    third
        .write_all(get_request(&addr, true).as_bytes())
        .unwrap();
    third
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let mut buf = [0u8; 64];
    assert!(third.read(&mut buf).is_err(), "served past the cap");
    drop(first);
    let (text, _) = read_until_closed(&mut third);
    assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
    drop(second);
}

/// The header timeout is for requests not yet read: a watch streams past it.
#[test]
fn a_watch_outlives_the_header_timeout() {
    let addr = serve(short());
    let mut conn = TcpStream::connect(&addr).unwrap();
    let watch = format!(
        "GET /api/v1/namespaces?watch=1&resourceVersion=0 HTTP/1.1\r\n\
         Host: {addr}\r\nAuthorization: Bearer {}\r\n\r\n",
        kubesim::auth::ADMIN_TOKEN
    );
    conn.write_all(watch.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    let mut writer = TcpStream::connect(&addr).unwrap();
    let body = r#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"late"}}"#;
    let post = format!(
        "POST /api/v1/namespaces HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Bearer {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        kubesim::auth::ADMIN_TOKEN,
        body.len()
    );
    writer.write_all(post.as_bytes()).unwrap();
    let (created, _) = read_until_closed(&mut writer);
    assert!(created.starts_with("HTTP/1.1 201 "), "{created}");
    // (The engine's clock is simulated here, so the watch's own timeout never comes.)
    conn.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&seen).contains(r#""name":"late""#) {
        let n = conn.read(&mut buf).expect("the watch is still streaming");
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
}
