// End-to-end test of the playground page in headless Chromium (playwright-core driving
// Debian's /usr/bin/chromium; nothing is downloaded). It tests the page at APP_URL, or, when
// APP_URL is unset, serves ../dist (built by `make build`) itself on a free
// loopback port for the duration of the run.
// Prints "N passed, M failed" as its last line and exits non-zero on any failure.
// A screenshot per step goes to e2e/artifacts/.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
let server = null;
let url = process.env.APP_URL;
if (!url) {
  const dist = path.join(here, '..', 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.log(`FAIL harness: ${dist}/index.html missing; run \`make build\` first`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  ({ server, url } = await serve(dist));
  console.log(`serving ${dist} at ${url}`);
}
const artifacts = path.join(here, 'artifacts');
fs.mkdirSync(artifacts, { recursive: true });

const CR_PATH = '/apis/apps/v1/namespaces/default/controllerrevisions';
const CR_BODY = JSON.stringify({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r1' }, data: { a: 1 }, revision: 1,
}, null, 2);

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-e2e-'));
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let passed = 0;
let failed = 0;
let shot = 0;

function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

const ctx = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args,
  timeout: 60000,
  viewport: { width: 1100, height: 900 },
});
try {
  const page = ctx.pages()[0] || await ctx.newPage();
  page.setDefaultTimeout(30000);
  const pageErrors = [];
  const consoleErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });

  const status = () => page.textContent('#status');
  const body = () => page.textContent('#resp-body');
  // #status carries data-seq, the number of sends so far: each step waits for an answer newer
  // than the one before it (so a step repeating the previous code cannot pass on stale text),
  // then for #status to start with `code`.
  const seq = async () => Number(await page.getAttribute('#status', 'data-seq'));
  let lastSeq = 0;
  const waitStatus = async (code) => {
    await page.waitForFunction(([c, after]) => {
      const el = document.querySelector('#status');
      return el && Number(el.dataset.seq) > after && (el.textContent || '').startsWith(c);
    }, [String(code), lastSeq]);
    lastSeq = await seq();
  };

  async function step(name, fn) {
    const t0 = Date.now();
    try {
      await fn();
      passed++;
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${e.message.split('\n')[0]}`);
    }
    shot++;
    const file = `${String(shot).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`;
    await page.screenshot({ path: path.join(artifacts, file), fullPage: true }).catch(() => {});
  }

  await step('page loads and lists namespaces', async () => {
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#send');
    await waitStatus(200);
    assert((await status()) === '200 OK', `status is ${await status()}`);
    assert((await page.inputValue('#path')) === '/api/v1/namespaces', 'default path');
    const b = await body();
    for (const ns of ['default', 'kube-system', 'kube-public']) assert(b.includes(`"${ns}"`), `body lacks ${ns}`);
    assert((await page.textContent('#resp-headers')).includes('content-type: application/json'), 'content-type header shown');
    for (const id of ['method', 'path', 'headers', 'body']) {
      assert(await page.locator(`label[for="${id}"]`).count() === 1, `#${id} has a label`);
    }
  });

  await step('POST a ControllerRevision gives 201', async () => {
    await page.selectOption('#method', 'POST');
    await page.fill('#path', CR_PATH);
    await page.fill('#body', CR_BODY);
    await page.click('#send');
    await waitStatus(201);
    assert((await status()) === '201 Created', `status is ${await status()}`);
    const b = await body();
    assert(b.includes('"name": "r1"') && b.includes('"resourceVersion"'), 'created object echoed');
  });

  await step('GET it back (Ctrl+Enter) gives 200 with revision 1', async () => {
    await page.selectOption('#method', 'GET');
    await page.fill('#body', '');
    await page.fill('#path', `${CR_PATH}/r1`);
    await page.focus('#path');
    await page.keyboard.press('Control+Enter');
    await waitStatus(200);
    const b = await body();
    assert(b.includes('"revision": 1'), 'body has "revision": 1');
    assert(b.includes('"kind": "ControllerRevision"'), 'body is a ControllerRevision');
  });

  await step('GET a missing object gives 404 NotFound', async () => {
    await page.fill('#path', `${CR_PATH}/missing`);
    await page.click('#send');
    await waitStatus(404);
    assert((await status()) === '404 Not Found', `status is ${await status()}`);
    const b = await body();
    assert(b.includes('"reason": "NotFound"'), 'body has reason NotFound');
    assert(b.includes('"kind": "Status"'), 'body is a Status');
  });

  await step('no page or console errors', async () => {
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join(' | ')}`);
    assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  });
} catch (e) {
  failed++;
  console.log(`FAIL harness: ${e.message}`);
} finally {
  await ctx.close().catch(() => {});
  fs.rmSync(userDataDir, { recursive: true, force: true });
  if (server) server.close();
}
console.log(`screenshots: ${artifacts}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
