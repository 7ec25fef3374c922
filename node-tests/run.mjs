// kubesim's shim in Node 20, and a real, unmodified @kubernetes/client-node (1.4.0, pinned in
// package.json / package-lock.json) running against it: `make test-node`.
//
// The API classes talk to the simulator in-process through client-node's pluggable HTTP
// layer (`createConfiguration({ httpApi })`, see shim-http-library.mjs). Its `Watch` and
// informers hardwire node-fetch to the kubeconfig's server URL, so they reach the same
// simulator through a loopback HTTP bridge that calls `sim.fetch` (http-bridge.mjs).
// Prints `N passed, M failed`; exits non-zero on any failure.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { shimHttpLibrary } from './shim-http-library.mjs';
import { serveSimulator } from './http-bridge.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// The --target nodejs package (make shim-pkg builds it at the repo root).
const { Simulator } = require(process.env.KUBESIM_PKG || path.join(here, '..', 'pkg-node'));

const NS = 'default';
const CRS = `/apis/apps/v1/namespaces/${NS}/controllerrevisions`;
const revision = (name, extra = {}) => ({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data: { a: 1 }, revision: 1, ...extra,
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, cond, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
const jsonInit = (method, body) => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** client-node's API classes on the shim: configuration with our httpApi. */
function apis(sim) {
  const config = k8s.createConfiguration({
    baseServer: new k8s.ServerConfiguration('http://kubesim.invalid', {}),
    httpApi: shimHttpLibrary(sim),
  });
  return { core: new k8s.CoreV1Api(config), apps: new k8s.AppsV1Api(config) };
}

/** A kubeconfig for the bridge (plain HTTP needs skipTLSVerify in client-node). */
function kubeconfig(server) {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kubesim', server, skipTLSVerify: true }],
    users: [{ name: 'dev' }],
    contexts: [{ name: 'kubesim', cluster: 'kubesim', user: 'dev' }],
    currentContext: 'kubesim',
  });
  return kc;
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('shim: fetch answers with a real Response and the read explanation', async () => {
  const sim = new Simulator({});
  const r = await sim.fetch('http://kube/api/v1/namespaces');
  assert.ok(r instanceof Response);
  assert.equal(r.status, 200);
  assert.equal(r.statusText, 'OK');
  assert.match(r.headers.get('x-kubesim-read'), /semantic=/);
  const names = (await r.json()).items.map((n) => n.metadata.name).sort();
  assert.deepEqual(names, ['default', 'kube-public', 'kube-system']);
  const missing = await sim.fetch(`${CRS}/nope`);
  assert.equal(missing.status, 404);
  assert.equal(missing.statusText, 'Not Found');
  sim.free();
});

test('shim: a watch body streams one chunk per event while writes happen; abort ends it', async () => {
  const sim = new Simulator({ clock: 'manual' });
  const ctrl = new AbortController();
  const w = await sim.fetch(`${CRS}?watch=1`, { signal: ctrl.signal });
  const reader = w.body.getReader();
  const next = async () => JSON.parse(new TextDecoder().decode((await reader.read()).value));
  assert.equal(sim.watchCount(), 1);
  assert.equal((await sim.fetch(CRS, jsonInit('POST', revision('s1')))).status, 201);
  const ev = await next();
  assert.equal(ev.type, 'ADDED');
  assert.equal(ev.object.metadata.name, 's1');
  await sim.fetch(`${CRS}/s1`, { method: 'DELETE' });
  assert.equal((await next()).type, 'DELETED');
  ctrl.abort();
  assert.equal(sim.watchCount(), 0);
  await assert.rejects(reader.read(), { name: 'AbortError' });
});

test('shim: binary bodies (Buffer, Uint8Array, ArrayBuffer, Blob)', async () => {
  const sim = new Simulator({ clock: 'manual' });
  const enc = (n) => new TextEncoder().encode(JSON.stringify(revision(n)));
  const bodies = {
    buf: Buffer.from(enc('buf')),
    u8: enc('u8'),
    ab: enc('ab').buffer,
    blob: new Blob([enc('blob')]),
  };
  for (const [name, body] of Object.entries(bodies)) {
    const r = await sim.fetch(CRS, { method: 'POST', headers: [['Content-Type', 'application/json']], body });
    assert.equal(r.status, 201, name);
    assert.equal((await r.json()).metadata.name, name);
  }
});

test('shim: bodies arrive decoded, as fetch delivers them, even when gzip is asked for', async () => {
  const sim = new Simulator({ clock: 'manual' });
  const big = 'x'.repeat(1000);
  for (let i = 0; i < 200; i++) {
    await sim.fetch(CRS, jsonInit('POST', revision(`big-${i}`, { data: { big } })));
  }
  const r = await sim.fetch(CRS, { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(r.headers.get('content-encoding'), null);
  assert.equal((await r.json()).items.length, 200);
});

test('shim: exportState / importState give identical answers after a reload', async () => {
  const sim = new Simulator({ clock: 'manual', seed: 42 });
  await sim.fetch(CRS, jsonInit('POST', revision('x')));
  sim.advance(1234);
  const copy = new Simulator({ clock: 'manual', initialState: JSON.stringify(sim.exportState()) });
  assert.equal(copy.now(), sim.now());
  const gen = { ...revision(''), metadata: { generateName: 'g-' } };
  for (const [p, init] of [[CRS, undefined], [`${CRS}/x`, undefined], [CRS, jsonInit('POST', gen)]]) {
    assert.equal(await (await copy.fetch(p, init)).text(), await (await sim.fetch(p, init)).text(), p);
  }
  assert.equal(copy.objects().length, sim.objects().length);
});

test('shim: objects nest up to the host cap of 1,000 levels on every path; deeper is refused, never a stack overflow', async () => {
  // V8's stack holds about 2,000 levels of the engine's walks; past the cap the body is
  // refused with the decoder's own "exceeded max depth", where the real server's cap is 10,000.
  const sim = new Simulator({ clock: 'manual' });
  const nest = (n) => { let v = 1; for (let i = 0; i < n; i++) v = { a: v }; return v; };
  // 991 levels, and 997 in the managedFields that mirror them: what a patch's result may have.
  const deepest = revision('deep', { data: nest(990) });
  assert.equal((await sim.fetch(CRS, jsonInit('POST', deepest))).status, 201);
  const w = await sim.fetch(`${CRS}?watch=1&resourceVersion=0`);
  const event = JSON.parse(new TextDecoder().decode((await w.body.getReader().read()).value));
  assert.equal(event.object.metadata.name, 'deep');
  const yaml = await sim.fetch(`${CRS}/deep`, { headers: { accept: 'application/yaml' } });
  assert.equal(yaml.status, 200);
  const table = await sim.fetch(CRS, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
  assert.equal(table.status, 200);
  const merge = await sim.fetch(`${CRS}/deep`, {
    method: 'PATCH', headers: { 'content-type': 'application/strategic-merge-patch+json' },
    body: JSON.stringify({ metadata: { labels: { deep: 'yes' } } }),
  });
  assert.equal(merge.status, 200, (await merge.clone().text()).slice(0, 600));
  const apply = await sim.fetch(`${CRS}/deep?fieldManager=deep&force=true`, {
    method: 'PATCH', headers: { 'content-type': 'application/apply-patch+yaml' },
    // (Flow-style YAML nests at most 255 levels here, so the applied config is shallow: the
    // field manager still walks the whole live object.)
    body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'deep', labels: { applied: 'yes' } } }),
  });
  assert.equal(apply.status, 200, (await apply.clone().text()).slice(0, 400));
  // A JSON patch that doubles the depth is refused when its result is decoded.
  const doubled = await sim.fetch(`${CRS}/deep`, {
    method: 'PATCH', headers: { 'content-type': 'application/json-patch+json' },
    body: JSON.stringify([{ op: 'replace', path: '/data' + '/a'.repeat(990), value: nest(990) }]),
  });
  assert.equal(doubled.status, 422);
  assert.match((await doubled.json()).message, /exceeded max depth/);
  const deeper = await sim.fetch(CRS, jsonInit('POST', revision('deeper', { data: nest(1000) })));
  assert.equal(deeper.status, 400);
  assert.match((await deeper.json()).message, /exceeded max depth/);
  // Block-style YAML nests two bytes a level: refused at the same cap, before it is converted.
  const yamlBody = 'apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: deep-yaml\n'
    + 'revision: 1\ndata:\n  a:\n    ' + '- '.repeat(1000) + '1\n';
  const deepYaml = await sim.fetch(CRS, { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: yamlBody });
  assert.equal(deepYaml.status, 400);
  assert.match((await deepYaml.json()).message, /exceeded max depth of 1000/);
  const copy = new Simulator({ clock: 'manual', initialState: JSON.stringify(sim.exportState()) });
  const read = async (s) => (await s.fetch(`${CRS}/deep`)).text();
  assert.equal(await read(copy), await read(sim));
  assert.equal((await sim.fetch('/api/v1/namespaces/default')).status, 200);
});

test('shim: install routes the global fetch for its base URL only', async () => {
  const original = globalThis.fetch;
  const seen = [];
  globalThis.fetch = async (input) => { seen.push(String(input)); return new Response('elsewhere'); };
  const sim = new Simulator({ clock: 'manual' });
  try {
    sim.install({ baseUrl: 'https://cluster.example:6443/k8s' });
    const r = await fetch('https://cluster.example:6443/k8s/api/v1/namespaces/default');
    assert.equal((await r.json()).metadata.name, 'default');
    assert.equal(await (await fetch('https://cluster.example:6443/other')).text(), 'elsewhere');
    assert.deepEqual(seen, ['https://cluster.example:6443/other']);
    assert.equal(sim.uninstall(), true);
    assert.equal(await (await fetch('https://cluster.example:6443/k8s/api')).text(), 'elsewhere');
  } finally {
    sim.uninstall();
    globalThis.fetch = original;
  }
});

test('client-node: CoreV1Api lists namespaces through httpApi', async () => {
  const sim = new Simulator({});
  const { core } = apis(sim);
  const list = await core.listNamespace();
  assert.deepEqual(list.items.map((n) => n.metadata.name).sort(), ['default', 'kube-public', 'kube-system']);
  assert.ok(list.items[0].metadata.creationTimestamp instanceof Date);
});

test('client-node: AppsV1Api creates, lists, reads, patches, replaces and deletes ControllerRevisions', async () => {
  const sim = new Simulator({});
  const { apps } = apis(sim);
  const created = await apps.createNamespacedControllerRevision({ namespace: NS, body: revision('r1') });
  assert.equal(created.metadata.name, 'r1');
  assert.equal(created.revision, 1);
  assert.ok(created.metadata.uid);
  await apps.createNamespacedControllerRevision({ namespace: NS, body: revision('r2', { revision: 2 }) });
  const list = await apps.listNamespacedControllerRevision({ namespace: NS });
  assert.deepEqual(list.items.map((i) => i.metadata.name), ['r1', 'r2']);
  assert.ok(Number(list.metadata.resourceVersion) >= 2);
  const page = await apps.listNamespacedControllerRevision({ namespace: NS, limit: 1 });
  assert.equal(page.items.length, 1);
  assert.ok(page.metadata._continue);
  const read = await apps.readNamespacedControllerRevision({ name: 'r1', namespace: NS });
  assert.deepEqual(read.data, { a: 1 });
  const patched = await apps.patchNamespacedControllerRevision({
    name: 'r1', namespace: NS, body: [{ op: 'add', path: '/metadata/labels', value: { tier: 'web' } }],
  });
  assert.equal(patched.metadata.labels.tier, 'web');
  patched.revision = 3;
  const replaced = await apps.replaceNamespacedControllerRevision({ name: 'r1', namespace: NS, body: patched });
  assert.equal(replaced.revision, 3);
  const selected = await apps.listNamespacedControllerRevision({ namespace: NS, labelSelector: 'tier=web' });
  assert.deepEqual(selected.items.map((i) => i.metadata.name), ['r1']);
  await assert.rejects(apps.createNamespacedControllerRevision({ namespace: NS, body: revision('r2') }),
    (e) => e.code === 409 && JSON.parse(e.body).reason === 'AlreadyExists');
  const status = await apps.deleteNamespacedControllerRevision({ name: 'r1', namespace: NS });
  assert.equal(status.status, 'Success');
  await assert.rejects(apps.readNamespacedControllerRevision({ name: 'r1', namespace: NS }),
    (e) => e.code === 404 && JSON.parse(e.body).reason === 'NotFound');
  assert.equal(sim.objects().filter((o) => o.kind === 'ControllerRevision').length, 1);
});

test('client-node: server-side apply creates, conflicts with another manager, and force takes over', async () => {
  const sim = new Simulator({});
  const { core } = apis(sim);
  const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
  const body = (mode) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { mode } });
  const made = await core.patchNamespacedConfigMap({ name: 'app', namespace: NS, body: body('fast'), fieldManager: 'ctrl-a' }, apply);
  assert.equal(made.data.mode, 'fast');
  assert.deepEqual(made.metadata.managedFields.map((e) => `${e.manager}/${e.operation}`), ['ctrl-a/Apply']);
  await assert.rejects(
    core.patchNamespacedConfigMap({ name: 'app', namespace: NS, body: body('slow'), fieldManager: 'ctrl-b' }, apply),
    (err) => err.code === 409 && (typeof err.body === 'string' ? JSON.parse(err.body) : err.body).message === 'Apply failed with 1 conflict: conflict with "ctrl-a": .data.mode',
  );
  const forced = await core.patchNamespacedConfigMap({ name: 'app', namespace: NS, body: body('slow'), fieldManager: 'ctrl-b', force: true }, apply);
  assert.equal(forced.data.mode, 'slow');
  assert.deepEqual(forced.metadata.managedFields.map((e) => e.manager), ['ctrl-b']);
});

test('client-node: Watch sees ControllerRevisions added, modified and deleted; abort ends the watch', async () => {
  const sim = new Simulator({});
  const bridge = await serveSimulator(sim);
  try {
    const { apps } = apis(sim);
    const events = [];
    const watch = new k8s.Watch(kubeconfig(bridge.url));
    let doneErr;
    const ctrl = await watch.watch(CRS, { allowWatchBookmarks: true },
      (type, obj) => events.push(`${type} ${obj.metadata.name ?? ''}`.trim()),
      (err) => { doneErr = err ?? null; });
    await until('the watch to open', () => sim.watchCount() === 1);
    await apps.createNamespacedControllerRevision({ namespace: NS, body: revision('w1') });
    await until('ADDED', () => events.includes('ADDED w1'));
    await apps.patchNamespacedControllerRevision({
      name: 'w1', namespace: NS, body: [{ op: 'add', path: '/metadata/labels', value: { v: '2' } }],
    });
    await apps.deleteNamespacedControllerRevision({ name: 'w1', namespace: NS });
    await until('DELETED', () => events.includes('DELETED w1'));
    assert.deepEqual(events.filter((e) => !e.startsWith('BOOKMARK')), ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    ctrl.abort();
    await until('the watch to end inside the simulator', () => sim.watchCount() === 0);
    await until('done()', () => doneErr !== undefined);
  } finally {
    await bridge.close();
  }
});

test('client-node: an informer lists then watches ControllerRevisions', async () => {
  const sim = new Simulator({});
  const bridge = await serveSimulator(sim);
  try {
    const { apps } = apis(sim);
    await apps.createNamespacedControllerRevision({ namespace: NS, body: revision('before') });
    const informer = k8s.makeInformer(kubeconfig(bridge.url), CRS,
      () => apps.listNamespacedControllerRevision({ namespace: NS }));
    const added = [];
    const deleted = [];
    informer.on('add', (o) => added.push(o.metadata.name));
    informer.on('delete', (o) => deleted.push(o.metadata.name));
    await informer.start();
    await until('the initial list', () => added.includes('before'));
    await apps.createNamespacedControllerRevision({ namespace: NS, body: revision('after') });
    await until('the watched add', () => added.includes('after'));
    await apps.deleteNamespacedControllerRevision({ name: 'before', namespace: NS });
    await until('the watched delete', () => deleted.includes('before'));
    assert.deepEqual(informer.list(NS).map((o) => o.metadata.name), ['after']);
    await informer.stop();
    await until('the informer watch to end', () => sim.watchCount() === 0);
  } finally {
    await bridge.close();
  }
});

let passed = 0;
let failed = 0;
for (const t of tests) {
  const started = Date.now();
  try {
    await Promise.race([t.fn(), sleep(20000).then(() => { throw new Error('timed out after 20 s'); })]);
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}\n     ${String(e?.stack || e).split('\n').join('\n     ')}`);
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
