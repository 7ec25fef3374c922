// www/kubesim-sw.js in headless Chromium: a Service Worker hosting a simulator under /kube,
// reached by plain URLs from ordinary page code (fetch and XMLHttpRequest), with streaming
// watches, cancel and abort, pass-through of every other URL, the controls, and the cluster
// surviving a worker restart. Run by `make test-sw` (after `make shim-pkg`).
// Prints "N passed, M failed" as its last line and exits non-zero on any failure.
import { openSite } from './shim-site.mjs';

const site = await openSite();
const { page } = site;
let passed = 0;
let failed = 0;
async function step(name, fn) {
  const started = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e?.stack || e).split('\n').join('\n     ')}`);
  }
}
function check(cond, what) {
  if (!cond) throw new Error(what);
}
const CRS = '/kube/apis/apps/v1/namespaces/default/controllerrevisions';
const cr = (name) => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data: { a: 1 }, revision: 1 });

try {
  await step('the Service Worker registers and takes control of the page', async () => {
    const controlled = await page.evaluate(async () => {
      const changed = new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r));
      await navigator.serviceWorker.register('/kubesim-sw.js?base=/kube&clock=manual', { scope: '/' });
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await changed;
      return !!navigator.serviceWorker.controller;
    });
    check(controlled, 'page not controlled');
  });

  await step('plain fetch and XMLHttpRequest reach the simulator by URL', async () => {
    const r = await page.evaluate(async () => {
      const res = await fetch('/kube/api/v1/namespaces');
      const xhr = await new Promise((resolve) => {
        const x = new XMLHttpRequest();
        x.open('GET', '/kube/version');
        x.onload = () => resolve({ status: x.status, body: JSON.parse(x.responseText) });
        x.send();
      });
      return {
        status: res.status, statusText: res.statusText, read: res.headers.get('x-kubesim-read'),
        names: (await res.json()).items.map((n) => n.metadata.name), xhr,
      };
    });
    check(r.status === 200 && r.statusText === 'OK', JSON.stringify(r));
    check(/semantic=/.test(r.read || ''), `x-kubesim-read: ${r.read}`);
    check(r.names.includes('kube-system'), JSON.stringify(r.names));
    check(r.xhr.status === 200 && r.xhr.body.major, JSON.stringify(r.xhr));
  });

  await step('create, read and 404 through the worker', async () => {
    const r = await page.evaluate(async ([CRS, body]) => {
      const post = await fetch(CRS, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const get = await fetch(`${CRS}/sw1`);
      const miss = await fetch(`${CRS}/nope`);
      return { post: post.status, get: get.status, name: (await get.json()).metadata.name, miss: [miss.status, miss.statusText] };
    }, [CRS, JSON.stringify(cr('sw1'))]);
    check(r.post === 201 && r.get === 200 && r.name === 'sw1', JSON.stringify(r));
    check(r.miss[0] === 404 && r.miss[1] === 'Not Found', JSON.stringify(r.miss));
  });

  await step('a watch streams chunk by chunk while writes happen; cancel ends it in the worker', async () => {
    const r = await page.evaluate(async ([CRS, body]) => {
      const watches = async () => (await (await fetch('/kube/kubesim/v1/state')).json()).watches;
      const res = await fetch(CRS + '?watch=1');
      const reader = res.body.getReader();
      const next = async () => JSON.parse(new TextDecoder().decode((await reader.read()).value));
      const open = await watches();
      const initial = await next(); // the existing sw1, as a synthetic ADDED
      await fetch(CRS, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const chunk = await next();
      await reader.cancel();
      let after = await watches();
      for (let i = 0; i < 50 && after !== 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        after = await watches();
      }
      return { open, initial: initial.object.metadata.name, type: chunk.type, name: chunk.object.metadata.name, after };
    }, [CRS, JSON.stringify(cr('sw2'))]);
    check(r.open === 1, `open watches: ${r.open}`);
    check(r.initial === 'sw1' && r.type === 'ADDED' && r.name === 'sw2', JSON.stringify(r));
    check(r.after === 0, `watches after cancel: ${r.after}`);
  });

  await step('aborting the page\'s signal ends the watch in the worker', async () => {
    const r = await page.evaluate(async (CRS) => {
      const watches = async () => (await (await fetch('/kube/kubesim/v1/state')).json()).watches;
      const ctrl = new AbortController();
      const res = await fetch(`${CRS}?watch=1`, { signal: ctrl.signal });
      const reader = res.body.getReader();
      const open = await watches();
      ctrl.abort();
      let error = null;
      try { await reader.read(); } catch (e) { error = e.name; }
      let after = await watches();
      for (let i = 0; i < 50 && after !== 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        after = await watches();
      }
      return { open, error, after };
    }, CRS);
    check(r.open === 1 && r.error === 'AbortError' && r.after === 0, JSON.stringify(r));
  });

  await step('other URLs pass through to the network untouched', async () => {
    const r = await page.evaluate(async () => {
      const other = await fetch('/kubernetes/api');        // not under /kube
      const sw = await fetch('/kubesim-sw.js');
      return { other: [other.status, await other.text()], sw: sw.status };
    });
    check(r.other[0] === 404 && r.other[1] === 'not found\n', JSON.stringify(r));
    check(r.sw === 200, JSON.stringify(r));
  });

  await step('controls under the prefix move the simulated clock', async () => {
    const r = await page.evaluate(async () => {
      const before = (await (await fetch('/kube/kubesim/v1/clock')).json()).nowMs;
      const after = (await (await fetch('/kube/kubesim/v1/clock/advance?ms=60000', { method: 'POST' })).json()).nowMs;
      return { before, after };
    });
    check(r.after - r.before === 60000, JSON.stringify(r));
  });

  await step('the cluster survives the browser stopping the worker', async () => {
    await new Promise((r) => setTimeout(r, 300)); // let the debounced save land
    const cdp = await site.context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    const r = await page.evaluate(async (CRS) => {
      const list = await (await fetch(CRS)).json();
      const clock = await (await fetch('/kube/kubesim/v1/clock')).json();
      return { names: list.items.map((i) => i.metadata.name), clock: clock.nowMs };
    }, CRS);
    check(JSON.stringify(r.names) === '["sw1","sw2"]', JSON.stringify(r));
    check(r.clock === 1767225600000 + 60000, `clock ${r.clock}`);
  });

  await step('no page errors', async () => {
    check(site.errors.length === 0, site.errors.join('\n'));
  });
} finally {
  await site.close();
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
