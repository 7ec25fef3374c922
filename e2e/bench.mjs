// `make bench`: the playground's download size (raw and gzip -9, per file and in total) and
// its time to interactive in headless Chromium (playwright-core + /usr/bin/chromium).
//
// Time to interactive is measured in the page, from navigation start to the first answer the
// engine renders (`#status` shows "200 OK" for the namespaces list the page sends on load):
// by then the wasm is compiled and instantiated, the engine is built and Yew has rendered and
// handled an event. A send (click Send -> engine -> new status rendered, timed inside the page)
// is measured too.
// Median of RUNS cold loads (a fresh browser context each, nothing cached).
// Writes e2e/artifacts/bench.json as well.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const RUNS = Number(process.env.RUNS || 5);
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`bench: ${dist}/index.html missing; run \`make build\` first`);
  process.exit(1);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const files = fs.readdirSync(dist).filter((f) => /\.(wasm|js|css|html)$/.test(f)).sort();
const sizes = files.map((f) => {
  const data = fs.readFileSync(path.join(dist, f));
  return { file: f, raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
});
const total = sizes.reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip }), { raw: 0, gzip: 0 });
console.log('size (dist/):');
for (const s of sizes) console.log(`  ${s.file.padEnd(40)} ${kb(s.raw).padStart(11)} raw ${kb(s.gzip).padStart(11)} gzip -9`);
console.log(`  ${'total'.padEnd(40)} ${kb(total.raw).padStart(11)} raw ${kb(total.gzip).padStart(11)} gzip -9`);

const { server, url } = await serve(dist);
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args });
const runs = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => (document.querySelector('#status')?.textContent || '') === '200 OK', null, { timeout: 60000 });
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'));
      return { tti: performance.now(), dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, wasm: wasm ? wasm.responseEnd : 0 };
    });
    // A send measured inside the page (click -> engine -> rendered), median of 10.
    t.send = await page.evaluate(async () => {
      const times = [];
      for (let i = 0; i < 10; i++) {
        const seq = Number(document.querySelector('#status').dataset.seq);
        const t0 = performance.now();
        document.querySelector('#send').click();
        while (Number(document.querySelector('#status').dataset.seq) === seq) await new Promise((r) => setTimeout(r, 0));
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b)[5];
    });
    runs.push(t);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
const median = (k) => {
  const v = runs.map((r) => r[k]).sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
console.log(`time to interactive (median of ${RUNS} cold loads, headless Chromium, loopback):`);
console.log(`  wasm downloaded        ${median('wasm').toFixed(0).padStart(6)} ms`);
console.log(`  DOMContentLoaded       ${median('dcl').toFixed(0).padStart(6)} ms`);
console.log(`  first answer rendered  ${median('tti').toFixed(0).padStart(6)} ms   (time to interactive)`);
console.log(`  Send -> answer shown   ${median('send').toFixed(1).padStart(6)} ms`);
const out = { sizes, total, runs, median: { tti: median('tti'), dcl: median('dcl'), wasm: median('wasm'), send: median('send') } };
fs.mkdirSync(path.join(here, 'artifacts'), { recursive: true });
fs.writeFileSync(path.join(here, 'artifacts', 'bench.json'), JSON.stringify(out, null, 2));
