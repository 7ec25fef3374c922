// End-to-end test of the playground's features in headless Chromium (playwright-core driving
// Debian's /usr/bin/chromium; nothing is downloaded): the builder, watches, a lesson, the
// clock expiring a continue token, the semantics table, links, history, themes and a narrow
// window. Serves ../dist itself unless APP_URL is set. One screenshot per step goes to
// e2e/artifacts/ (pg-NN-*.png). Prints "N passed, M failed" last; exits non-zero on failure.
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
// Screenshots of earlier runs would mix with this run's (the step list changes over time).
for (const f of fs.readdirSync(artifacts)) if (/^pg-\d+-.*\.png$/.test(f)) fs.rmSync(path.join(artifacts, f));

const CR_PATH = '/apis/apps/v1/namespaces/default/controllerrevisions';
const crBody = (name) => JSON.stringify({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, data: { a: 1 }, revision: 1,
}, null, 2);

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-pg-'));
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let passed = 0;
let failed = 0;
let shot = 0;
const assert = (cond, msg) => { if (!cond) throw new Error(msg); };

const ctx = await chromium.launchPersistentContext(userDataDir, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args,
  timeout: 60000,
  viewport: { width: 1366, height: 768 },
  colorScheme: 'light',
});
try {
  const page = ctx.pages()[0] || await ctx.newPage();
  page.setDefaultTimeout(20000);
  const pageErrors = [];
  const consoleErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });

  const status = () => page.textContent('#status');
  const body = () => page.textContent('#resp-body');
  let lastSeq = 0;
  // Waits for an answer newer than the last one seen whose status starts with `code`.
  const waitStatus = async (code) => {
    await page.waitForFunction(([c, after]) => {
      const el = document.querySelector('#status');
      return el && Number(el.dataset.seq) > after && (el.textContent || '').startsWith(c);
    }, [String(code), lastSeq]);
    lastSeq = Number(await page.getAttribute('#status', 'data-seq'));
  };
  const send = async (method, p, b = '', headers = '') => {
    await page.selectOption('#method', method);
    await page.fill('#path', p);
    await page.fill('#headers', headers);
    await page.fill('#body', b);
    await page.click('#send');
  };
  const openTab = (id) => page.click(`#tab-${id}`);

  // A fresh page on the playground, once its first answer is in, and a function that sends a
  // request from its builder and waits for the answer.
  const senderOn = async (pg) => {
    await pg.goto(url);
    await pg.waitForFunction(() => document.querySelector('#status')?.dataset.seq > 0);
    let seq = Number(await pg.getAttribute('#status', 'data-seq'));
    return async (method, p, b = '') => {
      await pg.selectOption('#method', method);
      await pg.fill('#path', p);
      await pg.fill('#headers', '');
      await pg.fill('#body', b);
      await pg.click('#send');
      seq++;
      await pg.waitForFunction((n) => Number(document.querySelector('#status')?.dataset.seq) >= n, seq);
    };
  };

  async function step(name, fn, { fullPage = true } = {}) {
    const t0 = Date.now();
    try {
      await fn();
      passed++;
      console.log(`ok   ${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${process.env.E2E_VERBOSE ? e.message : e.message.split('\n')[0]}`);
    }
    shot++;
    const file = `pg-${String(shot).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 60)}.png`;
    if (fullPage) await page.evaluate(() => window.scrollTo(0, 0)).catch(() => {});
    await page.screenshot({ path: path.join(artifacts, file), fullPage }).catch(() => {});
  }

  await step('page loads on a laptop screen', async () => {
    await page.goto(url, { waitUntil: 'load' });
    await waitStatus(200);
    assert(await page.isVisible('#send'), 'Send is visible');
    assert(await page.isVisible('#tab-lessons'), 'tabs are visible');
    const badge = await page.textContent('#read-badge');
    assert(/Most Recent/.test(badge), `read badge: ${badge}`);
    // Every form control has an accessible name.
    const unnamed = await page.$$eval('input, select, textarea', (els) => els
      .filter((e) => e.type !== 'hidden' && !e.labels?.length && !e.getAttribute('aria-label'))
      .map((e) => e.id || e.outerHTML.slice(0, 60)));
    assert(unnamed.length === 0, `unlabelled controls: ${unnamed.join(', ')}`);
  }, { fullPage: false });

  let startRev = 0;
  await step('create a ControllerRevision through the builder: 201', async () => {
    await page.selectOption('#body-template', 'ControllerRevision');
    assert((await page.inputValue('#method')) === 'POST', 'template sets POST');
    assert((await page.inputValue('#path')) === CR_PATH, 'template sets the collection path');
    await page.click('#send');
    await waitStatus(201);
    assert((await status()) === '201 Created', `status ${await status()}`);
    assert((await body()).includes('"name": "r1"'), 'object echoed');
    // The cluster's starting revision (its namespaces and RBAC bootstrap policy) is the one
    // before this write; later steps count from it rather than naming a number.
    startRev = Number(JSON.parse(await body()).metadata.resourceVersion) - 1;
  });

  await step('open a watch from the builder', async () => {
    await send('GET', CR_PATH);
    await waitStatus(200);
    await page.click('details.params > summary');
    await page.selectOption('#param-watch', 'true');
    assert((await page.inputValue('#path')) === `${CR_PATH}?watch=true`, `path ${await page.inputValue('#path')}`);
    await page.click('#send');
    await waitStatus(200);
    await page.waitForSelector('#watch-1.open');
    // A plain watch starts with the current state: ADDED r1, then the initial-events-end bookmark
    // only when asked for bookmarks.
    await page.waitForSelector('#watch-1 li[data-type="ADDED"]');
    assert((await page.textContent('#watch-1')).includes('default/r1'), 'initial ADDED r1');
  });

  await step('create another and see ADDED arrive in the panel', async () => {
    await send('POST', CR_PATH, crBody('r2'));
    await waitStatus(201);
    await page.waitForFunction(() => [...document.querySelectorAll('#watch-1 li[data-type="ADDED"]')]
      .some((li) => li.textContent.includes('default/r2')));
    const rows = await page.$$eval('#watch-1 li[data-type]', (els) => els.map((e) => e.textContent));
    assert(rows.length === 2 && rows[1].includes(`rv ${startRev + 2}`), `rows: ${rows.join(' | ')}`);
  });

  await step('a second watch with bookmarks, then stop the first', async () => {
    await send('GET', `${CR_PATH}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    await waitStatus(200);
    await page.waitForSelector('#watch-2 li.initial-end[data-type="BOOKMARK"]');
    await page.click('#watch-1 button.stop');
    await page.waitForSelector('#watch-1.stopped');
    assert(await page.isVisible('#watch-2.open'), 'second watch still open');
  });

  await step('copy as curl, kubectl and fetch', async () => {
    await send('POST', CR_PATH, crBody('r3'));
    await waitStatus(201);
    await page.click('#copy-curl');
    const curl = await page.textContent('#copy-text');
    assert(curl.startsWith('curl -sS -X POST') && curl.includes("-H 'Content-Type: application/json'"), curl);
    await page.click('#copy-kubectl');
    assert((await page.textContent('#copy-text')).startsWith(`kubectl create --raw '${CR_PATH}'`), 'kubectl');
    await page.click('#copy-fetch');
    assert((await page.textContent('#copy-text')).includes('await fetch("http://127.0.0.1:8080'), 'fetch');
  });

  await step('run a lesson to its end', async () => {
    await openTab('lessons');
    await page.click('#lesson-conflict');
    // The cluster was changed by hand: the lesson asks before setting it aside.
    await page.waitForSelector('#lesson-confirm');
    await page.click('#lesson-fresh');
    assert(await page.isVisible('#lesson-undo'), 'the set-aside cluster can be brought back');
    const steps = await page.$$eval('.steps li', (els) => els.length);
    assert(steps === 5, `conflict has 5 steps, saw ${steps}`);
    for (let i = 0; i < steps; i++) {
      // Step 3 asks for a prediction first: 409 Conflict.
      if (await page.locator('#step-predict').count()) await page.check('#step-predict-1');
      // Every other step by keyboard: Ctrl+Enter sends from anywhere (focus is on Next).
      if (i % 2) await page.keyboard.press('Control+Enter');
      else await page.click('#step-run');
      await page.waitForSelector('#step-result');
      const verdict = await page.textContent('#step-result');
      assert(verdict.startsWith('✓'), `step ${i + 1}: ${verdict}`);
      if (i === 2) {
        assert((await status()).startsWith('409'), 'step 3 is the 409');
        assert((await page.textContent('#step-predict-result')).startsWith('✓ You predicted “409 Conflict”'), 'the prediction is checked');
      }
      if (i + 1 < steps) await page.click('#step-next');
    }
    await page.waitForSelector('#lesson-done');
    assert(/lesson=conflict&step=5/.test(page.url()), `URL names the step: ${page.url()}`);
    // Starting the lesson reset the cluster: the watches ended, marked as the old cluster's.
    assert(await page.isVisible('#watch-2.ended'), 'watches end when the cluster is rebuilt');
    assert((await page.textContent('#watch-2')).includes('previous cluster'), 'marked as the previous cluster\'s');
  });

  await step('advance the clock 5 minutes: the continue token expires with 410', async () => {
    await page.click('#lesson-exit');
    await send('GET', '/api/v1/namespaces?limit=1');
    await waitStatus(200);
    const token = JSON.parse(await body()).metadata.continue;
    assert(token, 'a continue token');
    await send('POST', CR_PATH, crBody('later'));  // a write after the list
    await waitStatus(201);
    const before = await page.textContent('#clock-now');
    await page.click('#advance-5m');
    await page.waitForFunction((b) => document.querySelector('#clock-now').textContent !== b, before);
    assert((await page.textContent('#clock-now')).includes('00:05:00'), await page.textContent('#clock-now'));
    await send('GET', `/api/v1/namespaces?limit=1&continue=${token}`);
    await waitStatus(410);
    assert((await status()) === '410 Gone', `status ${await status()}`);
    const b = JSON.parse(await body());
    assert(b.reason === 'Expired' && b.metadata.continue, 'Expired with an inconsistent-continuation token');
  });

  await step('the store tab shows the compacted range on the timeline', async () => {
    await openTab('store');
    const summary = await page.textContent('#timeline-summary');
    assert(/compacted up to [1-9]/.test(summary), summary);
    assert(await page.locator('#timeline-svg rect.tl-compacted').count() > 0, 'compacted slots drawn');
    assert((await page.textContent('.inspector')).includes('later'), 'objects listed');
  });

  await step('the semantics table runs a cell and highlights the semantic', async () => {
    await openTab('semantics');
    await page.click('#cell-list-1-2');   // limit=n, rv other value: Exact
    await page.waitForSelector('#cell-list-1-2 .cell-result.match');
    assert((await page.textContent('#cell-list-1-2 .cell-result')).includes('Exact'), 'Exact');
    assert((await page.textContent('table.meanings tr.applied th')) === 'Exact', 'Meanings highlights Exact');
    await page.click('#cell-list-2-2');   // continue + rv: 400
    await page.waitForSelector('#cell-list-2-2 .cell-result');
    assert((await page.textContent('#cell-list-2-2 .cell-result')).startsWith('400'), 'Invalid, HTTP 400');
  });

  await step('the tables rerun under each condition and mark the cells it changed', async () => {
    await openTab('semantics');
    const want = {
      'cache-behind': '#cell-list-0-1', compacted: '#cell-list-3-2', 'future-rv': '#cell-get-0-2',
      'token-expired': '#cell-list-2-0', 'no-cache-snapshot': '#cell-list-3-2',
    };
    for (const [id, cell] of Object.entries(want)) {
      await page.click(`#cond-${id}`);
      await page.waitForFunction((i) => document.querySelector(`#cond-${i}`)?.getAttribute('aria-pressed') === 'true', id);
      const summary = await page.textContent('#cond-summary');
      assert(/, [1-9]\d* of \d+ cells answer differently/.test(summary), `${id}: ${summary}`);
      assert(await page.locator(`td.changed ${cell}`).count() === 1, `${id}: ${cell} is marked changed`);
      if (id === 'token-expired') {
        const expired = await page.textContent('td.changed #cell-list-2-0 .cond-result');
        assert(expired.includes('→ 410 Expired'), `the expired continuation: ${expired}`);
      }
    }
  });

  await step('the time & chaos tab: cache lag makes rv=0 stale', async () => {
    // A watch on this cluster, whose events the timeline marks too.
    await send('GET', `${CR_PATH}?watch=1`);
    await waitStatus(200);
    await openTab('chaos');
    await page.fill('#lag-ms', '10000');
    await page.press('#lag-ms', 'Enter');
    await page.waitForSelector('#store-rev .lagging', { state: 'detached' }).catch(() => {});
    await send('POST', CR_PATH, crBody('slow'));
    await waitStatus(201);
    await page.waitForSelector('#store-rev .lagging');
    await send('GET', `${CR_PATH}?resourceVersion=0`);
    await waitStatus(200);
    assert(!(await body()).includes('"slow"'), 'rv=0 list is stale');
    assert(/may be stale/.test(await page.textContent('#read-badge')), 'badge says may be stale');
    // The timeline marks that answer at the revision it reflects, behind the store.
    await openTab('store');
    assert(await page.locator('#timeline-svg polygon.tl-read-stale').count() > 0, 'a stale answer is marked');
    const reads = await page.textContent('#timeline-reads');
    assert(/GET \/apis\/apps\/v1\/namespaces\/default\/controllerrevisions\?resourceVersion=0 reflects revision \d+ \(watch-cache\): the store was at \d+, so it is 1 behind/.test(reads), `reads: ${reads}`);
    assert(await page.locator('#timeline-svg circle.tl-event').count() > 0, 'watch events are marked');
    await openTab('chaos');
    await page.click('#chaos-advance-10s');
    await page.waitForSelector('#store-rev .lagging', { state: 'detached' });
  });

  await step('a Protobuf answer is shown as hex beside its decoded form', async () => {
    await send('GET', '/api/v1/namespaces/default');
    await waitStatus(200);
    await page.selectOption('#accept-preset', 'Protobuf');
    assert((await page.inputValue('#headers')).startsWith('Accept: application/vnd.kubernetes.protobuf'), 'preset sets Accept');
    await page.click('#send');
    await waitStatus(200);
    const hex = await page.textContent('#resp-body');
    assert(hex.startsWith('00000000  6b 38 73 00'), `hex dump of the k8s\\0 envelope: ${hex.slice(0, 40)}`);
    const decoded = JSON.parse(await page.textContent('#resp-decoded'));
    assert(decoded.kind === 'Namespace' && decoded.metadata.name === 'default', 'decoded beside it');
    await page.selectOption('#accept-preset', '');
  });

  await step('export the cluster, reset it, import it back', async () => {
    await openTab('chaos');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const file = path.join(os.tmpdir(), `kubesim-state-${process.pid}.json`);
    await download.saveAs(file);
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert(state.kind === 'KubesimState', 'an exported state');
    await page.click('#reset');
    await page.waitForFunction((r) => document.querySelector('#store-rev').textContent.startsWith(`rev ${r}`),
      startRev);
    await page.setInputFiles('#import', file);
    await page.waitForFunction((r) => document.querySelector('#store-rev').textContent.startsWith(`rev ${r}`),
      state.store.revision);
    fs.rmSync(file, { force: true });
    await openTab('store');
    assert((await page.textContent('.inspector')).includes('slow'), 'objects are back');
  });

  await step('follow the wall clock, then simulated time again', async () => {
    await openTab('chaos');
    await page.check('#wall-clock');
    await page.waitForFunction(() => document.querySelector('#clock-now').textContent.includes('wall'));
    const year = new Date().getUTCFullYear();
    assert((await page.textContent('#clock-now')).includes(String(year)), 'shows the real time');
    await page.uncheck('#wall-clock');
    await page.waitForFunction(() => document.querySelector('#clock-now').textContent.includes('sim'));
    await openTab('store');
    assert((await page.textContent('.inspector')).includes('slow'), 'the cluster survived both switches');
  });

  await step('keyboard: arrow keys move between tabs', async () => {
    await page.focus('#tab-chaos');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#tab-history[aria-selected="true"]');
    assert(await page.evaluate(() => document.activeElement.id) === 'tab-history', 'focus follows');
    assert((await page.textContent('#history-list')).includes('/api/v1/namespaces?limit=1'), 'history lists requests');
  });

  await step('a link reproduces a request, history survives a reload', async () => {
    await send('GET', '/api/v1/namespaces/kube-system');
    await waitStatus(200);
    const link = page.url();
    assert(link.includes('#method=GET&path=/api/v1/namespaces/kube-system'), link);
    const other = await ctx.newPage();
    await other.goto(link);
    await other.waitForFunction(() => (document.querySelector('#status')?.textContent || '').startsWith('200'));
    assert((await other.inputValue('#path')) === '/api/v1/namespaces/kube-system', 'path from the link');
    await other.click('#tab-history');
    assert((await other.textContent('#history-list')).includes('/api/v1/namespaces/kube-system'), 'history kept');
    await other.close();
  });

  await step('a lesson link replays the earlier steps', async () => {
    const other = await ctx.newPage();
    await other.goto(`${url}#lesson=paging&step=6`);
    await other.waitForSelector('#lesson-step');
    assert((await other.textContent('#lesson-step h4')).startsWith('Step 6 of 7'), 'step 6 shown');
    assert((await other.inputValue('#path')).includes('continue=ey'), 'token filled in from step 4');
    await other.click('#step-run');
    await other.waitForSelector('#step-result');
    assert((await other.textContent('#step-result')).startsWith('✓'), await other.textContent('#step-result'));
    const items = JSON.parse(await other.textContent('#resp-body')).items.map((i) => i.metadata.name);
    assert(items.join() === 'c', `one snapshot: ${items}`);
    await other.close();
  });

  await step('the apply lesson: a forced apply moves a field to its new owner', async () => {
    const other = await ctx.newPage();
    await other.goto(`${url}#lesson=apply&step=3`);
    await other.waitForSelector('#lesson-step');
    assert((await other.inputValue('#method')) === 'PATCH', 'the form shows PATCH');
    assert((await other.inputValue('#headers')).includes('application/apply-patch+yaml'), 'apply content type');
    await other.click('#step-run');
    await other.waitForSelector('#step-result');
    assert((await other.textContent('#step-result')).startsWith('✓'), await other.textContent('#step-result'));
    await other.waitForSelector('#ownership');
    const heads = await other.$$eval('#ownership thead th', (els) => els.map((e) => e.textContent));
    assert(heads.join('|') === 'Field|alice (Apply)|bob (Apply)', `owners: ${heads}`);
    const team = await other.$$eval('#ownership tbody tr', (rows) => rows
      .map((r) => [...r.children].map((c) => c.textContent.trim()))
      .find((cells) => cells[0] === '.metadata.labels.team'));
    assert(team && team[1] === '' && team[2] === '●', `team is bob's alone: ${team}`);
    await other.screenshot({ path: path.join(artifacts, 'apply-ownership.png'), fullPage: true });
    await other.close();
  });

  await step('the cascade lesson: the store tab shows what a foreground deletion waits for', async () => {
    const other = await ctx.newPage();
    await other.goto(`${url}#lesson=cascade&step=5`);
    await other.waitForSelector('#lesson-step');
    await other.click('#tab-store');
    await other.waitForSelector('.objects .why');
    const why = await other.$$eval('.objects .why', (els) => els.map((e) => e.textContent));
    assert(why.some((w) => w.includes('waiting for dependents with blockOwnerDeletion: ConfigMap/app-config')), `why: ${why}`);
    const links = await other.$$eval('.objects td.links', (els) => els.map((e) => e.textContent).join('|'));
    assert(links.includes('↓ ConfigMap/app-config (blocks)') && links.includes('↑ ConfigMap/app'), `links: ${links}`);
    await other.screenshot({ path: path.join(artifacts, 'cascade-store.png'), fullPage: true });
    await other.close();
  });

  await step('predict, then check: a wrong prediction says what the server answered and why, a right one says so', async () => {
    const other = await ctx.newPage();
    await other.goto(`${url}#lesson=stale-cache&step=3`);
    await other.waitForSelector('#step-predict');
    assert(await other.isDisabled('#step-run'), 'the step waits for a prediction');
    await other.check('#step-predict-0');   // 200 OK: wrong, the lagging cache has not seen the create
    await other.click('#step-run');
    await other.waitForSelector('#step-predict-result');
    const wrong = await other.textContent('#step-predict-result');
    assert(wrong.startsWith('✗ You predicted “200 OK”; the server answered “404 Not Found”. Get table'), wrong);
    await other.goto(`${url}#lesson=stale-cache&step=5`);
    await other.waitForSelector('#step-predict');
    await other.check('#step-predict-1');   // may be stale
    await other.click('#step-run');
    await other.waitForSelector('#step-predict-result');
    const right = await other.textContent('#step-predict-result');
    assert(right.startsWith('✓ You predicted “may be stale: the watch cache\'s”, and so it was.'), right);
    await other.close();
  });

  await step('a foreground delete\'s response says what the terminating owner waits for', async () => {
    const other = await ctx.newPage();
    await other.goto(`${url}#lesson=cascade&step=4`);
    await other.waitForSelector('#lesson-step');
    assert((await other.inputValue('#method')) === 'DELETE', 'the form shows DELETE');
    await other.click('#step-run');
    await other.waitForSelector('#still-there');
    const text = await other.textContent('#still-there');
    assert(text.includes('Terminating since') && text.includes('waiting for dependents with blockOwnerDeletion: ConfigMap/app-config'), `still there: ${text}`);
    await other.click('#still-there button');
    await other.waitForSelector('.objects .why');
    await other.close();
  });

  await step('the chaos panel corrupts an object: reads from storage answer 500', async () => {
    const other = await ctx.newPage();
    await other.goto(url, { waitUntil: 'load' });
    await other.waitForSelector('#status');
    await other.click('#tab-chaos');
    await other.fill('#corrupt-path', '/api/v1/namespaces/kube-public');
    await other.selectOption('#corrupt-as', 'undecryptable');
    await other.click('#corrupt-now');
    await other.waitForFunction(() => (document.querySelector('#resp-body')?.textContent || '').includes('corrupted'));
    await other.selectOption('#method', 'GET');
    await other.fill('#path', '/api/v1/namespaces/kube-public');
    await other.click('#send');
    await other.waitForFunction(() => document.querySelector('#status')?.textContent.startsWith('500'));
    await other.waitForFunction(() => (document.querySelector('#resp-body')?.textContent || '').includes('no matching prefix found'));
    await other.close();
  });

  await step('the user switcher: alice with no grants is forbidden, a custom admin is not', async () => {
    const other = await ctx.newPage();
    await other.goto(url, { waitUntil: 'load' });
    await other.waitForSelector('#status');
    await other.selectOption('#identity', 'no-grants');
    await other.click('#send');
    await other.waitForFunction(() => document.querySelector('#status')?.textContent.startsWith('403'));
    assert((await other.textContent('#resp-body')).includes('User \\"alice\\" cannot list'), 'alice is forbidden');
    await other.selectOption('#identity', 'custom');
    await other.fill('#identity-name', 'root');
    await other.fill('#identity-groups', 'system:masters');
    await other.press('#identity-groups', 'Tab');
    await other.click('#send');
    await other.waitForFunction(() => document.querySelector('#status')?.textContent.startsWith('200'));
    await other.screenshot({ path: path.join(artifacts, 'identity.png'), fullPage: false });
    await other.close();
  });

  await step('the form shows each lesson step\'s request after choices made by hand; a failed watch says so', async () => {
    const other = await ctx.newPage();
    await other.goto(url, { waitUntil: 'load' });
    await other.waitForSelector('#method');
    // A resource discovery does not list: the 404 says what is served instead; the body's
    // placeholder follows the path's kind.
    await other.fill('#path', '/api/v1/namespaces/default/pods');
    await other.click('#send');
    await other.waitForSelector('#unserved');
    const unserved = await other.textContent('#unserved');
    assert(/does not serve "pods"/.test(unserved) && /ControllerRevision/.test(unserved), unserved);
    await other.fill('#path', CR_PATH);
    const placeholder = await other.getAttribute('#body', 'placeholder');
    assert(/"kind": "ControllerRevision"/.test(placeholder), placeholder);
    // Choices made by hand before the lesson, and again in its middle.
    await other.selectOption('#method', 'POST');
    await other.selectOption('#ct-preset', 'YAML');
    await other.click('#tab-lessons');
    await other.click('#lesson-streaming-list');
    const methods = ['POST', 'POST', 'GET', 'GET', 'PUT', 'POST', 'GET', 'PUT', 'POST', 'GET', 'PUT'];
    const shownPreset = async () => {
      const line = (await other.inputValue('#headers')).split('\n').find((l) => /^content-type:/i.test(l));
      const value = line ? line.split(':').slice(1).join(':').trim() : '';
      return { value, preset: await other.inputValue('#ct-preset') };
    };
    for (let i = 0; i < methods.length; i++) {
      await other.waitForFunction((n) => (document.querySelector('#lesson-step h4')?.textContent || '').startsWith(`Step ${n} `), i + 1);
      const method = await other.inputValue('#method');
      assert(method === methods[i], `step ${i + 1}: the form shows ${method}, the step sends ${methods[i]}`);
      const { value, preset } = await shownPreset();
      assert(value === '' ? preset === '' : preset !== '', `step ${i + 1}: Content-Type ${value || '(none)'} shown as preset ${preset || '(none)'}`);
      if (i === 2) {
        // By hand: another method, then the step's own again.
        await other.selectOption('#method', 'DELETE');
        await other.selectOption('#method', 'GET');
      }
      await other.click('#step-run');
      await other.waitForSelector('#step-result');
      const verdict = await other.textContent('#step-result');
      assert(verdict.startsWith('✓'), `step ${i + 1}: ${verdict}`);
      if (i === 9) {
        // The 504 inside the watch's 200: no success look, and the reason is given.
        await other.waitForSelector('#watch-failed');
        assert(/504/.test(await other.textContent('#watch-failed')), await other.textContent('#watch-failed'));
        assert(await other.getAttribute('#status', 'class').then((c) => /error/.test(c)), 'the status line is not green');
        assert(await other.isVisible('.watch .chip.failed'), 'the panel is marked failed');
      }
      if (i + 1 < methods.length) await other.click('#step-next');
    }
    await other.close();
  });

  await step('a lesson sets a changed cluster aside, and Undo brings it back', async () => {
    const other = await ctx.newPage();
    await other.goto(url, { waitUntil: 'load' });
    await other.waitForSelector('#method');
    await other.selectOption('#method', 'POST');
    await other.fill('#path', CR_PATH);
    await other.fill('#body', crBody('mine'));
    await other.click('#send');
    await other.waitForFunction(() => (document.querySelector('#status')?.textContent || '').startsWith('201'));
    await other.click('#tab-lessons');
    await other.click('#lesson-get-rv');
    await other.waitForSelector('#lesson-confirm');
    await other.click('#lesson-cancel');
    assert(!(await other.isVisible('#lesson-step')), 'Cancel starts nothing');
    await other.click('#lesson-get-rv');
    await other.click('#lesson-fresh');
    await other.waitForSelector('#lesson-step');
    await other.click('#lesson-undo');
    await other.waitForSelector('.lesson-list');
    await other.selectOption('#method', 'GET');
    await other.fill('#path', `${CR_PATH}/mine`);
    await other.fill('#body', '');
    await other.click('#send');
    await other.waitForFunction(() => /^(200|404)/.test(document.querySelector('#status')?.textContent || '') && document.querySelector('#status').dataset.seq > 1);
    assert((await other.textContent('#status')).startsWith('200'), `the object is back: ${await other.textContent('#status')}`);
    await other.close();
  });

  await step('keyboard and layout: a lesson started with Enter keeps focus and stays in view beside watches', async () => {
    const other = await ctx.newPage();
    const warnings = [];
    other.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
    await other.setViewportSize({ width: 1400, height: 900 });
    await other.goto(url);
    await other.waitForFunction(() => document.querySelector('#status')?.dataset.seq > 0);
    assert(!(await other.textContent('#status')).includes('…'), 'no pending ellipsis');
    for (let i = 1; i <= 3; i++) {
      await other.selectOption('#method', 'GET');
      await other.fill('#path', `${CR_PATH}?watch=1`);
      await other.fill('#body', '');
      await other.click('#send');
      await other.waitForFunction((n) => document.querySelectorAll('.watch-list .watch').length >= n, i);
    }
    await other.click('#tab-lessons');
    await other.focus('#lesson-finalizer');
    await other.keyboard.press('Enter');
    if (await other.isVisible('#lesson-confirm')) await other.click('#lesson-fresh');
    await other.waitForSelector('#lesson-step');
    await other.waitForFunction(() => document.activeElement?.id === 'step-run');
    const y0 = await other.evaluate(() => window.scrollY);
    await other.keyboard.press('Control+Enter');
    await other.waitForSelector('#step-result');
    assert((await other.evaluate(() => window.scrollY)) === y0, 'running the step does not move the page');
    const bottom = await other.$eval('#step-next', (el) => el.getBoundingClientRect().bottom);
    assert(bottom <= 900, `Next step is in view (its bottom at ${bottom}px)`);
    await other.setViewportSize({ width: 390, height: 844 });
    const first = await other.evaluate(() => document.querySelector('#lesson-step').getBoundingClientRect().top
      < document.querySelector('#method').getBoundingClientRect().top);
    assert(first, 'on a phone-sized window the lesson comes before the builder');
    await other.selectOption('#method', 'GET');
    await other.fill('#path', `${CR_PATH}?limit=abc`);
    await other.waitForFunction(() => document.querySelector('#param-limit')?.value === 'abc');
    assert(!warnings.some((w) => /cannot be parsed|out of range/.test(w)), `console warnings: ${warnings.join(' | ')}`);
    await other.close();
  });

  await step('the informer: in sync, a forced 410 and a relist; watching from the wrong rv misses a write', async () => {
    const other = await ctx.newPage();
    const sendOn = await senderOn(other);
    const state = (re) => other.waitForFunction((src) => new RegExp(src).test(document.querySelector('#inf-state')?.textContent || ''), re.source);
    await other.click('#tab-store');
    await other.click('#inf-list');
    await other.click('#inf-watch');
    await sendOn('POST', CR_PATH, crBody('inf-a'));
    await state(/^In sync with the store: 1 object/);
    await other.click('#inf-disconnect');
    await sendOn('POST', CR_PATH, crBody('inf-b'));
    await state(/^Diverged/);
    assert((await other.textContent('#inf-diverged')).includes('inf-b: in the store at rv'), 'b is missed while down');
    await sendOn('POST', '/kubesim/v1/clock/advance?seconds=360');
    await sendOn('POST', '/kubesim/v1/compact');
    await other.click('#inf-reconnect');
    await state(/^In sync with the store: 2 object/);
    const log = await other.textContent('#inf-log');
    assert(log.includes('ERROR 410 Expired') && log.includes('lists again'), `log: ${log}`);
    await other.click('#inf-list');
    await sendOn('POST', CR_PATH, crBody('inf-c'));
    await other.click('#inf-watch-wrong');
    await sendOn('POST', CR_PATH, crBody('inf-d'));
    await state(/^Diverged from the store in 1 object/);
    assert((await other.textContent('#inf-diverged')).includes('inf-c: in the store at rv'), 'c was written between the list and the watch');
    await other.screenshot({ path: path.join(artifacts, 'informer.png'), fullPage: true });
    await other.close();
  });

  await step('challenges: a lagging cache graded wrong, then right; a dropped watch resumed from its last event', async () => {
    const other = await ctx.newPage();
    const sendOn = await senderOn(other);
    const check = async () => {
      await other.click('#challenge-check');
      await other.waitForSelector('#challenge-verdict');
      return other.textContent('#challenge-verdict');
    };
    await other.click('#tab-lessons');
    await other.click('#challenge-lagging-cache');
    await other.waitForSelector('#challenge-goal');
    await sendOn('POST', CR_PATH, crBody('mine'));
    await sendOn('GET', `${CR_PATH}/mine?resourceVersion=0`);
    let v = await check();
    assert(v.includes('does not show mine (stale)') && v.includes('✗'), `stale read graded: ${v}`);
    await sendOn('GET', `${CR_PATH}/mine`);
    v = await check();
    assert(v.includes('✓ Your last read shows your own write'), `consistent read graded: ${v}`);
    await other.click('#challenge-exit');
    await other.click('#challenge-dropped-watch');
    await other.waitForSelector('#challenge-goal');
    await sendOn('GET', CR_PATH);
    const rv = Number(JSON.parse(await other.textContent('#resp-body')).metadata.resourceVersion);
    await sendOn('GET', `${CR_PATH}?watch=1&resourceVersion=${rv}`);
    // The simulator wrote once (rv + 1, delivered), dropped the watch, and wrote again.
    await sendOn('GET', `${CR_PATH}?watch=1&resourceVersion=${rv + 1}`);
    v = await check();
    assert(v.includes('✓ Your view is complete up to rv'), `resumed watch graded: ${v}`);
    await other.screenshot({ path: path.join(artifacts, 'challenge.png'), fullPage: true });
    await other.close();
  });

  await step('the terminal: kubectl output, get -w live, Ctrl+C, history, Tab, explain, edit in the editor pane, a -v=8 request opened in the builder', async () => {
    await openTab('terminal');
    const run = async (line) => {
      const before = await page.$$eval('.term-entry', (els) => els.length);
      await page.fill('#term-input', line);
      await page.press('#term-input', 'Enter');
      await page.waitForFunction((n) => document.querySelectorAll('.term-entry').length > n, before);
      return page.$eval('.term-entry:last-child .term-out', (e) => e.textContent);
    };
    const ns = await run('kubectl get ns');
    assert(/^NAME\s+STATUS\s+AGE\n/.test(ns) && ns.includes('kube-system'), `get ns: ${ns}`);
    await run('kubectl get cm -n default -w');
    assert(await page.isVisible('#term-stop'), 'a running watch can be stopped');
    await send('POST', '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'term-live' }, data: { a: '1' } }));
    // The watch cache may lag here (an earlier step set a lag): time moves it along.
    await page.click('#advance-10s');
    await page.click('#advance-10s');
    await page.waitForFunction(() => document.querySelector('.term-entry:last-child .term-out').textContent.includes('term-live'));
    const live = await page.$eval('.term-entry:last-child .term-out', (e) => e.textContent);
    assert(/term-live\s+1\s+\d+s/.test(live), `the -w row: ${live}`);
    await page.focus('#term-input');
    await page.keyboard.press('Control+c');
    await page.waitForFunction(() => document.querySelector('.term-entry:last-child .term-out').textContent.endsWith('^C\n'));
    await page.fill('#term-input', '');
    await page.press('#term-input', 'ArrowUp');
    assert((await page.inputValue('#term-input')) === 'kubectl get cm -n default -w', 'ArrowUp gives the last command');
    await page.fill('#term-input', 'kubectl get configm');
    await page.press('#term-input', 'Tab');
    assert((await page.inputValue('#term-input')) === 'kubectl get configmaps ', `Tab: ${await page.inputValue('#term-input')}`);
    const missing = await run('kubectl get cm nope');
    assert(missing.includes('Error from server (NotFound): configmaps "nope" not found'), missing);
    const explained = await run('kubectl explain cm.data');
    assert(explained.includes('FIELD: data <map[string]string>'), `explain: ${explained}`);
    await run('kubectl edit cm term-live');
    await page.waitForSelector('#term-edit-text');
    const file = await page.inputValue('#term-edit-text');
    assert(file.startsWith('# Please edit the object below.') && file.includes('  a: "1"'), `the editor: ${file}`);
    await page.fill('#term-edit-text', file.replace('  a: "1"', '  a: "2"'));
    await page.screenshot({ path: path.join(artifacts, 'term-edit.png') });
    await page.click('#term-edit-save');
    await page.waitForFunction(() => document.querySelector('.term-entry:last-child .term-out').textContent.includes('configmap/term-live edited'));
    assert(!(await page.isVisible('#term-edit-text')), 'the editor closed on save');
    const described = await run('kubectl describe cm term-live');
    assert(/a:\n----\n2\n/.test(described), `describe after the edit: ${described}`);
    await run('kubectl get cm term-live -v=8');
    const links = await page.$$('.term-entry:last-child .term-req');
    assert(links.length >= 1, 'request lines are links');
    assert(await page.isVisible('.term-entry:last-child .term-badge'), 'the read badge beside the response');
    await links[links.length - 1].click();
    assert((await page.inputValue('#path')) === '/api/v1/namespaces/default/configmaps/term-live', `builder path: ${await page.inputValue('#path')}`);
    assert((await page.inputValue('#headers')).includes('as=Table'), 'the Accept header came along');
  });

  await step('the kubectl lesson: a terminal step runs in the terminal and shows what it printed', async () => {
    await openTab('lessons');
    await page.click('#lesson-kubectl');
    if (await page.isVisible('#lesson-confirm')) await page.click('#lesson-fresh');
    await page.waitForSelector('#step-command');
    await page.click('#step-run');
    await page.waitForSelector('#step-result.ok');
    const printed = await page.textContent('#step-terminal');
    assert(printed.includes('configmap/app-3 created'), `step output: ${printed}`);
    await page.click('#step-next');
    await page.click('#step-run');
    await page.waitForSelector('#step-result.ok');
    assert((await page.textContent('#step-terminal')).includes('continue='), 'the chunked list shows its continue requests');
    await page.click('#lesson-exit');
  });

  await step('dark theme', async () => {
    await openTab('lessons');
    for (let i = 0; i < 3 && (await page.getAttribute('html', 'data-theme')) !== 'dark'; i++) await page.click('#theme');
    assert((await page.getAttribute('html', 'data-theme')) === 'dark', 'dark theme');
    await page.click('#lesson-finalizer');
    if (await page.isVisible('#lesson-confirm')) await page.click('#lesson-fresh');
    for (let i = 0; i < 3; i++) { await page.click('#step-run'); await page.waitForSelector('#step-result'); await page.click('#step-next'); }
    await openTab('store');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert(bg === 'rgb(13, 17, 23)', `dark background: ${bg}`);
    assert((await page.textContent('.inspector')).includes('terminating'), 'terminating badge');
  });

  await step('narrow window', async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    await openTab('lessons');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `no horizontal scrolling (${overflow}px too wide)`);
    for (let i = 0; i < 3 && (await page.getAttribute('html', 'data-theme')) !== 'light'; i++) await page.click('#theme');
  });

  await step('no page or console errors', async () => {
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join(' | ')}`);
    assert(consoleErrors.length === 0, `console errors: ${consoleErrors.join(' | ')}`);
  }, { fullPage: false });
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
