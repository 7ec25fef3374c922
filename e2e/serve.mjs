// A tiny static file server for the built playground (dist/), loopback only.
// `make play` runs it in the foreground; e2e.mjs starts it in-process on a free port.
// Usage: node e2e/serve.mjs [--dir dist] [--port 8090] [--host 127.0.0.1]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves `dir` on host:port (port 0 picks a free one); resolves to { server, url }. */
export function serve(dir, { host = '127.0.0.1', port = 0 } = {}) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      res.writeHead(400).end('bad request\n');
      return;
    }
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(root, '.' + rel);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end('forbidden\n');
      return;
    }
    fs.readFile(file, (err, data) => {
      if (err) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      resolve({ server, url: `http://${host}:${p}/` });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
  };
  const dir = arg('dir', 'dist');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    console.error(`serve.mjs: ${dir}/index.html not found (run \`make build\` first)`);
    process.exit(1);
  }
  try {
    const { url } = await serve(dir, { host: arg('host', '127.0.0.1'), port: Number(arg('port', '8090')) });
    console.log(`\n  kubesim playground: ${url}\n\n  (serving ${path.resolve(dir)}; Ctrl+C to stop)\n`);
  } catch (e) {
    console.error(`serve.mjs: cannot listen: ${e.message} (choose another port: make play PORT=8091)`);
    process.exit(1);
  }
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
}
