//! The kubeconfig `kubesim serve` writes (to `--kubeconfig FILE`, or to a file it names on
//! start), so `kubectl --kubeconfig FILE` talks to the simulator with no other set-up.

use base64::Engine as _;

/// A kubeconfig for the server at `server_url`, authenticating with the admin token
/// ([`crate::auth::ADMIN_TOKEN`]: user `kubesim-admin` in `system:masters`). `ca_pem` is the
/// serving certificate to trust (HTTPS); without it (plain HTTP) client-go sends no
/// credentials at all and every request is anonymous.
pub fn render(server_url: &str, ca_pem: Option<&str>) -> String {
    let token = crate::auth::ADMIN_TOKEN;
    let ca = match ca_pem {
        Some(pem) => format!(
            "    certificate-authority-data: {}\n",
            base64::engine::general_purpose::STANDARD.encode(pem)
        ),
        None => String::new(),
    };
    format!(
        "apiVersion: v1\n\
kind: Config\n\
clusters:\n\
- name: kubesim\n  cluster:\n{ca}    server: {server_url}\n\
contexts:\n\
- name: kubesim\n  context:\n    cluster: kubesim\n    user: kubesim\n    namespace: default\n\
current-context: kubesim\n\
users:\n\
- name: kubesim\n  user:\n    token: {token}\n\
preferences: {{}}\n"
    )
}

/// Writes a kubeconfig readable by its owner alone, as client tools write theirs (it holds a
/// credential), replacing `path` atomically and never writing through a symlink: the default
/// path is in the shared temporary folder. The state file's save does exactly this.
pub fn write(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    super::state_file::save(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    #[test]
    fn points_at_the_server() {
        let k = super::render("https://127.0.0.1:8080", Some("PEM"));
        assert!(k.contains("server: https://127.0.0.1:8080"));
        assert!(k.contains("certificate-authority-data: UEVN\n"));
        assert!(k.contains("current-context: kubesim"));
        assert!(k.contains("token: kubesim"));
        assert!(!super::render("http://x", None).contains("certificate-authority"));
    }
}
