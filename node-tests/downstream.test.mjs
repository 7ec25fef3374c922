// The Node package as a user gets it: `npm pack`'s tarball (make shim-pack) installed into a
// scratch project, then used from CommonJS, from an ES module and from TypeScript, whose
// checks show the declarations are typed (no `any` where a user would notice). Run with
// Node's own test runner: `node --test node-tests/downstream.test.mjs` (make test-node).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tarball = process.env.KUBESIM_NODE_TARBALL
  || path.join(here, '..', 'target', 'npm', 'node', 'kubesim-0.1.0.tgz');
let project;

const run = (file) => execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8' });

before(() => {
  assert.ok(fs.existsSync(tarball), `${tarball} missing: run \`make shim-pack\``);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-user-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user', private: true }));
  // A local tarball without dependencies installs offline.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball],
    { cwd: project, stdio: 'inherit' });
});

after(() => fs.rmSync(project, { recursive: true, force: true }));

test('the tarball holds the module, the wasm, the types and a README, and nothing else', () => {
  const pkg = path.join(project, 'node_modules', 'kubesim');
  assert.deepEqual(fs.readdirSync(pkg).sort(),
    ['README.md', 'kubesim.d.ts', 'kubesim.js', 'kubesim_bg.wasm', 'package.json']);
  assert.match(fs.readFileSync(path.join(pkg, 'README.md'), 'utf8'), /require\('kubesim'\)/);
});

test('require: a simulated cluster answers, and its time moves only when asked', () => {
  fs.writeFileSync(path.join(project, 'use.cjs'), `
const { Simulator } = require('kubesim');
(async () => {
  const sim = new Simulator({ clock: 'manual', seed: 1 });
  const r = await sim.fetch('/api/v1/namespaces');
  const before = sim.now();
  sim.advance(60000);
  console.log(JSON.stringify({ status: r.status, items: (await r.json()).items.length, moved: sim.now() - before }));
})();
`);
  assert.deepEqual(JSON.parse(run('use.cjs')), { status: 200, items: 3, moved: 60000 });
});

test('import: an ES module gets the same exports', () => {
  fs.writeFileSync(path.join(project, 'use.mjs'), `
import { Simulator } from 'kubesim';
const sim = new Simulator({ clock: 'manual' });
const created = await sim.fetch('/api/v1/namespaces', {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mine' } }),
});
console.log(created.status, sim.objects().some((o) => o.metadata.name === 'mine'));
`);
  assert.equal(run('use.mjs').trim(), '201 true');
});

test('TypeScript: options, controls and results are typed', () => {
  fs.writeFileSync(path.join(project, 'use.ts'), `
import { Simulator, type KubesimState, type KubernetesObject } from 'kubesim';
const sim = new Simulator({ clock: 'manual', seed: 1, user: { name: 'alice', groups: ['dev'] } });
const state: KubesimState = sim.exportState();
const again = new Simulator({ initialState: state });
again.importState(JSON.stringify(state));
const names: string[] = sim.objects().map((o: KubernetesObject) => o.metadata.name);
const at: number = sim.advance(1000);
sim.setUser(null);
sim.corrupt('/api/v1/namespaces/default', 'undecodable');
const response: Promise<Response> = sim.fetch('/api/v1/namespaces');
// @ts-expect-error a clock is "wall" or "manual"
new Simulator({ clock: 'sundial' });
// @ts-expect-error exportState is a KubesimState, not a number
const wrong: number = sim.exportState();
// @ts-expect-error an object's metadata.name is a string
const count: number = sim.objects()[0].metadata.name;
// @ts-expect-error a user has a name
sim.setUser({ groups: ['dev'] });
// @ts-expect-error corruption is "undecryptable" or "undecodable"
sim.corrupt('/api/v1/namespaces/default', 'melted');
// @ts-expect-error importState takes a state or its JSON text
sim.importState(42);
export { again, names, at, response, wrong, count };
`);
  const tsc = path.join(here, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '--noEmit', '--strict', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom,esnext.disposable', 'use.ts'];
  try {
    execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc:\n${e.stdout}${e.stderr}`);
  }
});
