//! The serving certificate: a self-signed certificate for the listen address, `localhost`
//! and `127.0.0.1`, made at start. The kubeconfig carries it as the cluster's
//! `certificate-authority-data`, so kubectl verifies the server and sends its credentials
//! (client-go sends tokens and impersonation headers only over TLS).

use std::sync::Arc;

use tokio_rustls::TlsAcceptor;

/// A TLS acceptor and the certificate clients should trust (PEM).
pub struct Tls {
    pub acceptor: TlsAcceptor,
    pub ca_pem: String,
}

/// A self-signed serving certificate for `hosts` (names or IP addresses).
pub fn self_signed(hosts: &[String]) -> Result<Tls, String> {
    let mut names: Vec<String> = vec!["localhost".into(), "127.0.0.1".into()];
    for h in hosts {
        if !names.contains(h) {
            names.push(h.clone());
        }
    }
    let certified = rcgen::generate_simple_self_signed(names).map_err(|e| e.to_string())?;
    let cert_der = certified.cert.der().clone();
    let key_der =
        rustls::pki_types::PrivateKeyDer::Pkcs8(certified.key_pair.serialize_der().into());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(vec![cert_der], key_der)
        .map_err(|e| e.to_string())?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Tls {
        acceptor: TlsAcceptor::from(Arc::new(config)),
        ca_pem: certified.cert.pem(),
    })
}
