// kubesim in a Service Worker: a simulated Kubernetes API server that answers every request
// the page makes under one URL prefix, so any code in the page — fetch, XMLHttpRequest,
// unmodified client libraries given a server URL — reaches it by plain URL. Nothing leaves
// the browser.
//
// Build and serve (see README "The fetch shim"):
//   make shim-pkg                     # pkg-sw/: scripts/build-wasm.sh shim (wasm-bindgen --target no-modules)
//   site/kubesim-sw.js                <- www/kubesim-sw.js
//   site/kubesim-sw/kubesim.js        <- pkg-sw/kubesim.js
//   site/kubesim-sw/kubesim_bg.wasm   <- pkg-sw/kubesim_bg.wasm
// Register it from a page *inside its scope* (a Service Worker only sees the requests of the
// pages it controls; the scope decides which pages, `base` which requests it answers):
//   await navigator.serviceWorker.register('/kubesim-sw.js?base=/kube&clock=manual', { scope: '/' });
//   await navigator.serviceWorker.ready;   // and, on a first visit, wait for `controllerchange`
//   await fetch('/kube/api/v1/namespaces');
//
// Query parameters of the script URL:
//   base          URL prefix the simulator answers (default /kube; absolute URLs allowed). It is
//                 removed before the engine sees the path, as behind a path-prefix proxy.
//   pkg           where the no-modules package lives (default ./kubesim-sw/)
//   clock         wall (default) | manual        featureGates  Name=true,Other=false
//   seed          number                         cacheLagMs    number
//   persist       1 (default) | 0: keep the cluster in Cache Storage across worker restarts
//                 (browsers stop idle workers after ~30 s; without this the cluster would reset)
// Every other request passes through to the network untouched. Controls are the engine's own
// endpoints under the prefix, e.g. POST /kube/kubesim/v1/clock/advance?ms=60000.
/* global wasm_bindgen */
'use strict';

const params = new URL(self.location.href).searchParams;
const pkg = new URL(params.get('pkg') || './kubesim-sw/', self.location.href);
const base = new URL(params.get('base') || '/kube', self.location.href);
const basePath = base.pathname.replace(/\/+$/, '');
const persist = params.get('persist') !== '0';
const STATE_CACHE = 'kubesim-sw-state';
const STATE_KEY = new URL(`${basePath}/__kubesim_state__`, base.origin).href;

importScripts(new URL('kubesim.js', pkg).href);

const options = { serverAddress: base.host };
if (params.has('clock')) options.clock = params.get('clock');
if (params.has('featureGates')) options.featureGates = params.get('featureGates');
if (params.has('seed')) options.seed = params.get('seed');
if (params.has('cacheLagMs')) options.cacheLagMs = Number(params.get('cacheLagMs'));

let simulator;
/** The simulator, created once per worker start (restored from Cache Storage if saved). */
function sim() {
  simulator ??= (async () => {
    await wasm_bindgen({ module_or_path: new URL('kubesim_bg.wasm', pkg) });
    const saved = persist ? await loadState() : undefined;
    if (saved) {
      try {
        return new wasm_bindgen.Simulator({ ...options, initialState: saved });
      } catch (e) {
        console.warn('kubesim-sw: ignoring an unreadable saved state:', e);
      }
    }
    return new wasm_bindgen.Simulator(options);
  })();
  return simulator;
}

async function loadState() {
  const saved = await (await caches.open(STATE_CACHE)).match(STATE_KEY);
  return saved ? saved.text() : undefined;
}

let saving;
/** Saves the cluster soon (writes in a burst share one save). */
function scheduleSave(s) {
  saving ??= new Promise((r) => setTimeout(r, 100)).then(async () => {
    saving = undefined;
    const body = JSON.stringify(s.exportState());
    await (await caches.open(STATE_CACHE)).put(STATE_KEY,
      new Response(body, { headers: { 'content-type': 'application/json' } }));
  });
  return saving;
}

function ours(url) {
  return url.origin === base.origin
    && (basePath === '' || url.pathname === basePath || url.pathname.startsWith(`${basePath}/`));
}

self.addEventListener('install', (event) => {
  event.waitUntil(sim().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.pathname === `${basePath}/__kubesim_state__` || !ours(url)) return; // the network's
  event.respondWith(answer(event, url));
});

async function answer(event, url) {
  const s = await sim();
  const req = event.request;
  const method = req.method;
  const body = method === 'GET' || method === 'HEAD' ? undefined : await req.arrayBuffer();
  const path = url.pathname.slice(basePath.length) || '/';
  const response = await s.fetch(path + url.search, {
    method,
    headers: req.headers,
    body,
    signal: req.signal,
    // The simulator follows redirects itself; for `manual`/`error` the browser applies the
    // page's mode to the 3xx returned here.
    redirect: req.redirect === 'follow' ? 'follow' : 'manual',
  });
  const location = response.headers.get('location');
  if (location && location.startsWith('/')) response.headers.set('location', basePath + location);
  if (persist && method !== 'GET' && method !== 'HEAD') event.waitUntil(scheduleSave(s));
  return response;
}
