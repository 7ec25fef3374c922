//! What a command's handler works with ([`Ctx`]): its flags, the client, the session, and
//! the builder's look-ups every command shares (one object by name, a type's list, discovery
//! with its invalidation, a Status reported as `cmdutil.CheckErr` reports it).

use super::client::{self, Client};
use super::mapper::{self, Discovery};
use super::{flags, server_error, Kubectl, Output};

/// What a command's handler gets: the parsed flags and the session.
pub struct Ctx<'a, 't> {
    pub flags: flags::Parsed,
    pub client: Client<'t>,
    pub session: &'a mut Kubectl,
    pub stdin: Option<String>,
    /// `-n`, else the context's namespace.
    pub namespace: String,
    /// The OpenAPI v3 root document and the group versions fetched by this command.
    pub openapi: Option<(serde_json::Value, Vec<(String, serde_json::Value)>)>,
}

impl Ctx<'_, '_> {
    /// The builder's `Info.Get`: one object by name; when it is not found in a namespace
    /// other than `default`, the namespace is asked for too, and its NotFound, if it is
    /// missing, is the error.
    pub fn get_named(
        &mut self,
        out: &mut Output,
        resource: &mapper::Resource,
        name: &str,
        accept: &'static str,
    ) -> client::Reply {
        let ns = resource.namespaced.then(|| self.namespace.clone());
        let mut call = client::Call::get(
            format!("{}/{name}", resource.collection(ns.as_deref())),
            accept,
        );
        call.caller = "helper.go:105";
        let reply = self.client.send(out, call);
        if let (404, Some(ns)) = (reply.status, ns) {
            if ns != "default" {
                let mut call = client::Call::get(format!("/api/v1/namespaces/{ns}"), accept);
                call.caller = "visitor.go:104";
                let namespace = self.client.send(out, call);
                if namespace.status == 404 {
                    return namespace;
                }
            }
        }
        reply
    }

    /// The builder's list of a type: in this namespace unless `-A`, `-l` and
    /// `--field-selector` as selectors, in chunks of `--chunk-size` (500) followed to the end when `chunked`; each
    /// item with the list's apiVersion and kind, as the unstructured list decoder sets them.
    pub fn list_all(
        &mut self,
        out: &mut Output,
        r: &mapper::Resource,
        chunked: bool,
    ) -> Result<Vec<serde_json::Value>, serde_json::Value> {
        let ns = (!self.flags.on("all-namespaces")).then(|| self.namespace.clone());
        let chunk = match chunked {
            true => self.flags.get("chunk-size").unwrap_or("500").to_string(),
            false => "0".to_string(),
        };
        let selector = self.flags.get("selector").map(str::to_string);
        let fields = self.flags.get("field-selector").map(str::to_string);
        let mut found = Vec::new();
        let mut next: Option<String> = None;
        loop {
            let mut query = Vec::new();
            if let Some(l) = &selector {
                query.push(("labelSelector", l.clone()));
            }
            if let Some(f) = &fields {
                query.push(("fieldSelector", f.clone()));
            }
            if let Some(c) = next.take() {
                query.push(("continue", c));
            }
            if chunk != "0" {
                query.push(("limit", chunk.clone()));
            }
            let path = client::with_query(r.collection(ns.as_deref()), query);
            let reply = self
                .client
                .send(out, client::Call::get(path, "application/json"));
            let page = reply.json();
            if !reply.ok() {
                return Err(page);
            }
            let cont = page["metadata"]["continue"].as_str().map(str::to_string);
            found.extend(r.items_of(page));
            match cont {
                Some(c) if !c.is_empty() => next = Some(c),
                _ => return Ok(found),
            }
        }
    }

    /// Reports a Status the server answered, as `cmdutil.CheckErr` does: from `-v=4` on, the
    /// REST client's debug line with the whole Status first.
    pub fn report(&self, out: &mut Output, status: &serde_json::Value) -> String {
        if self.client.verbosity >= 4 {
            let pretty = crate::codec::json::to_pretty_vec(status);
            self.client.log(
                out,
                "helpers.go:246",
                &format!(
                    "server response object: %s[{}]",
                    String::from_utf8_lossy(&pretty)
                ),
            );
        }
        server_error(status)
    }

    /// Discovery, fetched on first use and cached for the session.
    pub fn discovery(&mut self, out: &mut Output) -> &Discovery {
        if self.session.discovery.is_none() {
            self.session.discovery = Some(Discovery::fetch(&mut self.client, out));
        }
        self.session.discovery.as_ref().expect("just fetched")
    }

    /// The resource `arg` names; asks discovery again once when the cache does not know it
    /// (kubectl's "Invalidating discovery information").
    pub fn resolve(&mut self, arg: &str, out: &mut Output) -> Option<mapper::Resource> {
        if let Some(r) = self.discovery(out).resolve(arg) {
            return Some(r.clone());
        }
        self.invalidate(out);
        self.discovery(out).resolve(arg).cloned()
    }

    /// The deferred RESTMapper's reset: discovery thrown away and asked again.
    pub fn invalidate(&mut self, out: &mut Output) {
        if self.client.verbosity >= 6 {
            self.client.log(
                out,
                "discovery.go:214",
                "Invalidating discovery information",
            );
        }
        self.session.discovery = Some(Discovery::fetch(&mut self.client, out));
    }
}
