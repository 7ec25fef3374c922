// Shared by shim-sw.mjs (test), bench-shim.mjs (bench) and downstream-web.mjs (its Chromium): a throwaway site holding the
// shim's browser packages, served on a free loopback port, and a headless Chromium on it.
//
//   /index.html                 an empty page (tests drive it with page.evaluate)
//   /kubesim-sw.js              www/kubesim-sw.js
//   /kubesim-sw/                pkg-sw/  (wasm-bindgen --target no-modules)
//   /kubesim-web/               pkg-web/ (wasm-bindgen --target web, an ES module), when built
// http://127.0.0.1 is a secure context, so Service Workers are allowed on it.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function copyDir(from, to, optional = false) {
  if (!fs.existsSync(path.join(from, 'kubesim_bg.wasm'))) {
    if (optional) return;
    throw new Error(`${from}/kubesim_bg.wasm missing: run \`make shim-pkg\` first`);
  }
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

/** Debian's headless Chromium with a throwaway profile: { context, page, userDataDir }. */
export async function launchChromium() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-chromium-'));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
    '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  const context = await chromium.launchPersistentContext(userDataDir,
    { executablePath: '/usr/bin/chromium', headless: true, args, timeout: 60000 });
  const page = context.pages()[0] || await context.newPage();
  return { context, page, userDataDir };
}

/** Builds the site, serves it and opens a page; returns { page, context, url, close }. */
export async function openSite() {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-shim-site-'));
  fs.writeFileSync(path.join(site, 'index.html'),
    '<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">'
    + '<title>kubesim shim</title></head><body></body></html>\n');
  fs.copyFileSync(path.join(root, 'www', 'kubesim-sw.js'), path.join(site, 'kubesim-sw.js'));
  copyDir(path.join(root, 'pkg-sw'), path.join(site, 'kubesim-sw'));
  copyDir(path.join(root, 'pkg-web'), path.join(site, 'kubesim-web'), true); // bench only
  const { server, url } = await serve(site);
  const { context, page, userDataDir } = await launchChromium();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url, { waitUntil: 'load' });
  return {
    page, context, url, errors,
    async close() {
      await context.close();
      server.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
      fs.rmSync(site, { recursive: true, force: true });
    },
  };
}
