// `make bench`: the shim's cost as JavaScript sees it. Never run by `make test`.
//   - round trips per second of `await sim.fetch(...)` in headless Chromium (the ES-module
//     package pkg-web), for a GET of one object, a GET of a 100-item list and a POST, and of
//     a plain page `fetch` through the Service Worker (www/kubesim-sw.js, pkg-sw);
//   - the same GET in Node 20 (pkg-node);
//   - the size of each package's wasm, raw and gzip -9.
// Needs `make shim-pkg`. Prints one line per figure.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { openSite, root } from './shim-site.mjs';

const MS = Number(process.env.BENCH_MS || 1500);

for (const pkg of ['pkg-web', 'pkg-node', 'pkg-sw']) {
  const wasm = fs.readFileSync(path.join(root, pkg, 'kubesim_bg.wasm'));
  const gz = zlib.gzipSync(wasm, { level: 9 }).length;
  console.log(`${pkg}/kubesim_bg.wasm: ${wasm.length} bytes raw, ${gz} bytes gzip -9 (${(gz / 1024).toFixed(0)} KiB)`);
}

// The measuring loop, run in the page (as a string) and in Node alike.
const loop = `async (sim, fetchFn, ms) => {
  const CRS = '/apis/apps/v1/namespaces/default/controllerrevisions';
  const cr = (n) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: { name: n }, data: { a: 1 }, revision: 1 });
  const post = (n) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: cr(n) });
  for (let i = 0; i < 100; i++) await (await fetchFn(CRS, post('seed-' + i))).arrayBuffer();
  async function rate(make) {
    for (let i = 0; i < 50; i++) await (await make(i)).arrayBuffer();   // warm up
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < ms) { await (await make(n)).arrayBuffer(); n++; }
    return Math.round(n / ((performance.now() - start) / 1000));
  }
  return {
    get: await rate(() => fetchFn(CRS + '/seed-1')),
    list100: await rate(() => fetchFn(CRS)),
    post: await rate((i) => fetchFn(CRS, post('b-' + i + '-' + Math.random().toString(36).slice(2, 7)))),
  };
}`;

const site = await openSite();
try {
  const direct = await site.page.evaluate(async ([loopSrc, ms]) => {
    const mod = await import('/kubesim-web/kubesim.js');
    await mod.default({ module_or_path: '/kubesim-web/kubesim_bg.wasm' });
    const sim = new mod.Simulator({ clock: 'manual' });
    return (0, eval)(loopSrc)(sim, (u, i) => sim.fetch(u, i), ms);
  }, [loop, MS]);
  console.log(`chromium sim.fetch: GET object ${direct.get}/s, GET list of 100 ${direct.list100}/s, POST ${direct.post}/s`);

  const viaSw = await site.page.evaluate(async ([loopSrc, ms]) => {
    const changed = new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
    await navigator.serviceWorker.register('/kubesim-sw.js?base=/kube&clock=manual&persist=0', { scope: '/' });
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await changed;
    return (0, eval)(loopSrc)(null, (u, i) => fetch('/kube' + u, i), ms);
  }, [loop, MS]);
  console.log(`chromium page fetch via Service Worker: GET object ${viaSw.get}/s, GET list of 100 ${viaSw.list100}/s, POST ${viaSw.post}/s`);
} finally {
  await site.close();
}

const { Simulator } = createRequire(import.meta.url)(path.join(root, 'pkg-node'));
const sim = new Simulator({ clock: 'manual' });
const node = await (0, eval)(loop)(sim, (u, i) => sim.fetch(u, i), MS);
console.log(`node ${process.version} sim.fetch: GET object ${node.get}/s, GET list of 100 ${node.list100}/s, POST ${node.post}/s`);
