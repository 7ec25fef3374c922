//! The kubeconfig `kubesim serve --kubeconfig FILE` writes, so `kubectl --kubeconfig FILE`
//! talks to the simulator with no other set-up.

/// A kubeconfig for a plain-HTTP server at `server_url` (token auth is accepted as is).
pub fn render(server_url: &str) -> String {
    format!(
        "apiVersion: v1\n\
kind: Config\n\
clusters:\n\
- name: kubesim\n  cluster:\n    server: {server_url}\n\
contexts:\n\
- name: kubesim\n  context:\n    cluster: kubesim\n    user: kubesim\n    namespace: default\n\
current-context: kubesim\n\
users:\n\
- name: kubesim\n  user:\n    token: kubesim\n\
preferences: {{}}\n"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn points_at_the_server() {
        let k = super::render("http://127.0.0.1:8080");
        assert!(k.contains("server: http://127.0.0.1:8080"));
        assert!(k.contains("current-context: kubesim"));
    }
}
