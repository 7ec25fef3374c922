//! A small Kubernetes client for the browser, written with gloo-net: the kind of code a
//! kubesim user tests. It lists (following continue tokens), creates and watches, reading a
//! watch's body as it streams.

use futures::StreamExt;
use gloo_net::http::Request;
use serde_json::Value;
use wasm_bindgen::JsCast;

/// What went wrong talking to the API server.
#[derive(Debug)]
pub enum Error {
    Http(gloo_net::Error),
    /// The server answered with a Status (its code and reason).
    Status {
        code: u16,
        reason: String,
    },
    Stream(String),
}

impl From<gloo_net::Error> for Error {
    fn from(e: gloo_net::Error) -> Self {
        Error::Http(e)
    }
}

/// A client for the API server at `base` (`https://kube.example`).
pub struct Client {
    base: String,
}

/// One page of a list, and the list's resourceVersion.
pub struct Listed {
    pub items: Vec<Value>,
    pub resource_version: String,
    pub pages: usize,
}

impl Client {
    pub fn new(base: &str) -> Self {
        Client {
            base: base.trim_end_matches('/').to_string(),
        }
    }

    async fn json(&self, resp: gloo_net::http::Response) -> Result<Value, Error> {
        let status = resp.status();
        let body: Value = resp.json().await?;
        if !(200..300).contains(&status) {
            return Err(Error::Status {
                code: status,
                reason: body["reason"].as_str().unwrap_or_default().to_string(),
            });
        }
        Ok(body)
    }

    /// GET `path` (with its query), as JSON.
    pub async fn get(&self, path: &str) -> Result<Value, Error> {
        let resp = Request::get(&format!("{}{path}", self.base)).send().await?;
        self.json(resp).await
    }

    /// POST `object` to the collection at `path`; the created object.
    pub async fn create(&self, path: &str, object: &Value) -> Result<Value, Error> {
        let resp = Request::post(&format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(object.to_string())?
            .send()
            .await?;
        self.json(resp).await
    }

    /// Every item of the collection at `path`, `limit` a page, following continue tokens.
    pub async fn list_all(&self, path: &str, limit: usize) -> Result<Listed, Error> {
        let mut items = Vec::new();
        let mut pages = 0;
        let mut token = String::new();
        loop {
            let mut url = format!("{path}?limit={limit}");
            if !token.is_empty() {
                let token = String::from(js_sys::encode_uri_component(&token));
                url.push_str(&format!("&continue={token}"));
            }
            let page = self.get(&url).await?;
            pages += 1;
            items.extend(page["items"].as_array().cloned().unwrap_or_default());
            token = page["metadata"]["continue"]
                .as_str()
                .unwrap_or("")
                .to_string();
            if token.is_empty() {
                let resource_version = page["metadata"]["resourceVersion"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                return Ok(Listed {
                    items,
                    resource_version,
                    pages,
                });
            }
        }
    }

    /// Watches the collection at `path` from `resource_version`; its events as they stream.
    pub async fn watch(&self, path: &str, resource_version: &str) -> Result<Watch, Error> {
        let url = format!(
            "{}{path}?watch=1&allowWatchBookmarks=false&resourceVersion={resource_version}",
            self.base
        );
        let resp = Request::get(&url).send().await?;
        if resp.status() != 200 {
            return Err(Error::Status {
                code: resp.status(),
                reason: String::new(),
            });
        }
        let body = resp
            .body()
            .ok_or_else(|| Error::Stream("a watch without a body".into()))?;
        Ok(Watch {
            chunks: wasm_streams::ReadableStream::from_raw(body).into_stream(),
            buffered: Vec::new(),
        })
    }
}

/// A watch's events, one JSON object a line, read from the streaming body.
pub struct Watch {
    chunks: wasm_streams::readable::IntoStream<'static>,
    buffered: Vec<u8>,
}

impl Watch {
    /// The next event (`{"type": ..., "object": ...}`), or `None` when the watch ends.
    pub async fn next(&mut self) -> Result<Option<Value>, Error> {
        loop {
            if let Some(end) = self.buffered.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffered.drain(..=end).collect();
                return serde_json::from_slice(&line)
                    .map(Some)
                    .map_err(|e| Error::Stream(e.to_string()));
            }
            match self.chunks.next().await {
                None => return Ok(None),
                Some(Err(e)) => return Err(Error::Stream(format!("{e:?}"))),
                Some(Ok(chunk)) => {
                    let bytes = chunk
                        .dyn_into::<js_sys::Uint8Array>()
                        .map_err(|_| Error::Stream("a chunk that is not bytes".into()))?;
                    self.buffered.extend(bytes.to_vec());
                }
            }
        }
    }
}
