// The browser package as a user gets it: `npm pack`'s tarball of pkg-web (make shim-pack)
// installed into a scratch site, imported by a page from node_modules in headless Chromium,
// installed as the page's fetch, with a list, a write and a watch that streams. Run by
// `make test-sw`. Prints "N passed, M failed" as its last line; exits non-zero on a failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launchChromium } from './shim-site.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const tarball = path.join(root, 'target', 'npm', 'web', 'kubesim-0.1.0.tgz');
if (!fs.existsSync(tarball)) throw new Error(`${tarball} missing: run \`make shim-pack\``);
const site = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-web-user-'));
fs.writeFileSync(path.join(site, 'package.json'), JSON.stringify({ name: 'web-user', private: true }));
execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball],
  { cwd: site, stdio: 'inherit' });
// The user's page: the package's ES module, straight from node_modules.
fs.writeFileSync(path.join(site, 'index.html'), `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>kubesim user</title></head><body>
<script type="module">
import init, { Simulator } from './node_modules/kubesim/kubesim.js';
await init();
window.Simulator = Simulator;
window.ready = true;
</script></body></html>
`);

const { server, url } = await serve(site);
const { context, page, userDataDir } = await launchChromium();
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));

let passed = 0;
let failed = 0;
async function step(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n     ${String(e?.stack || e).split('\n').join('\n     ')}`);
  }
}
function check(cond, what) {
  if (!cond) throw new Error(what);
}

try {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.ready === true, null, { timeout: 30000 });
  await step('the installed package loads in a page and answers through the global fetch', async () => {
    const got = await page.evaluate(async () => {
      const sim = new window.Simulator({ clock: 'manual', seed: 1 });
      sim.install({ baseUrl: 'https://kube.example' });
      const r = await fetch('https://kube.example/api/v1/namespaces');
      return { status: r.status, items: (await r.json()).items.length };
    });
    check(got.status === 200 && got.items === 3, JSON.stringify(got));
  });
  await step('a watch streams the events of later writes', async () => {
    const got = await page.evaluate(async () => {
      const sim = new window.Simulator({ clock: 'manual' });
      const base = '/api/v1/namespaces';
      const w = await sim.fetch(`${base}?watch=1&resourceVersion=0`);
      const reader = w.body.getReader();
      const names = [];
      const decoder = new TextDecoder();
      let text = '';
      await sim.fetch(base, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'late' } }),
      });
      const deadline = Date.now() + 10000;
      while (!names.includes('late')) {
        if (Date.now() > deadline) throw new Error(`no 'late' event in 10 s: ${names}`);
        const timeout = new Promise((_, fail) => setTimeout(() => fail(new Error('no chunk in 10 s')), 10000));
        const { value, done } = await Promise.race([reader.read(), timeout]);
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const lines = text.split('\n');
        text = lines.pop();
        for (const l of lines) names.push(JSON.parse(l).object.metadata.name);
      }
      await reader.cancel();
      return names;
    });
    check(got.includes('default') && got.includes('late'), JSON.stringify(got));
  });
  await step('no page errors', async () => check(errors.length === 0, errors.join('\n')));
} finally {
  await context.close();
  server.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });
  fs.rmSync(site, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
