//! Runs the `kubesim` binary as a real server for client tests, and stops it on drop.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A running `kubesim serve` on a free loopback port, with a kubeconfig pointing at it.
pub struct Server {
    child: Child,
    pub url: String,
    pub kubeconfig: PathBuf,
    pub dir: tempfile::TempDir,
}

/// Reads the server's start-up lines up to its ready line, `kubesim serving on URL`; the URL.
pub fn ready_url(out: &mut impl BufRead) -> String {
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let n = out.read_line(&mut line).expect("read the start-up lines");
        assert!(n > 0, "the server stopped before it was ready: {seen:?}");
        if let Some(url) = line.trim().strip_prefix("kubesim serving on ") {
            return url.to_string();
        }
        seen.push_str(&line);
    }
}

/// Runs `kubesim serve --port 0 --tls false` with `args`, which must stop the start: it
/// exits unsuccessfully before printing anything; what it said on stderr.
pub fn start_refused(args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kubesim"))
        .args(["serve", "--port", "0", "--tls", "false"])
        .args(args)
        .output()
        .expect("run kubesim");
    assert!(!out.status.success(), "started with {args:?}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

impl Server {
    /// Starts the server and waits until it listens.
    pub fn start(extra_args: &[&str]) -> Server {
        let dir = tempfile::tempdir().expect("tempdir");
        let kubeconfig = dir.path().join("kubeconfig");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kubesim"))
            .args(["serve", "--port", "0", "--kubeconfig"])
            .arg(&kubeconfig)
            .args(extra_args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start kubesim");
        let stdout = child.stdout.take().expect("stdout");
        let url = ready_url(&mut BufReader::new(stdout));
        Server {
            child,
            url,
            kubeconfig,
            dir,
        }
    }

    /// The server's process id (for its memory use).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGINT (Ctrl-C) and waits up to `secs` for the process to exit; its status.
    pub fn interrupt(&mut self, secs: u64) -> Option<std::process::ExitStatus> {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-INT", &pid]).status();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        None
    }

    /// Runs kubectl against this server; returns (success, stdout, stderr).
    pub fn kubectl(&self, args: &[&str]) -> (bool, String, String) {
        let out = Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(&self.kubeconfig)
            .arg("--cache-dir")
            .arg(self.dir.path().join("cache"))
            .args(args)
            .env("HOME", self.dir.path())
            .output()
            .expect("run kubectl");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Runs kubectl and asserts success, returning stdout.
    pub fn kubectl_ok(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.kubectl(args);
        assert!(ok, "kubectl {args:?} failed:\nstdout: {out}\nstderr: {err}");
        out
    }

    /// Writes a file into the server's temp dir and returns its path.
    pub fn write(&self, name: &str, text: &str) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, text).expect("write file");
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 exchange on its own connection: status code, response head and body (chunks
/// left in).
pub fn exchange_with_head(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut conn = std::net::TcpStream::connect(addr).expect("connect");
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Authorization: Bearer {}\r\nContent-Length: {}\r\n",
        kubesim::auth::ADMIN_TOKEN,
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    conn.write_all(req.as_bytes()).expect("send head");
    conn.write_all(body.as_bytes()).expect("send body");
    let mut raw = Vec::new();
    conn.read_to_end(&mut raw).expect("receive");
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, head.to_string(), body.to_string())
}

/// [`exchange_with_head`]'s status code and body.
pub fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let (code, _, body) = exchange_with_head(addr, method, path, headers, body);
    (code, body)
}
