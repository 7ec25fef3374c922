// A kubesim Simulator served over plain HTTP from Node, for code that can only be given a
// URL.
//
// client-node 1.4.0's `Watch` (and so its informers) does not use the pluggable `httpApi`:
// dist/watch.js imports `node-fetch` itself and requests `cluster.server + path`. The one
// supported way to point it somewhere is the kubeconfig's server URL, so this bridge listens on
// 127.0.0.1 and moves bytes between node:http and `sim.fetch`: the request as fetch arguments,
// the `Response` (status, reason phrase, headers, streamed body) back. A watch body streams
// chunk by chunk; when the client hangs up, the fetch's signal aborts and the watch ends
// inside the simulator.
import http from 'node:http';

/** Serves `sim` on 127.0.0.1 (a free port); resolves to { url, close }. */
export function serveSimulator(sim) {
  const server = http.createServer(async (req, res) => {
    const aborter = new AbortController();
    res.on('close', () => aborter.abort());
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const headers = Object.entries(req.headers).flatMap(([k, v]) =>
        Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]);
      const method = req.method;
      const response = await sim.fetch(`http://bridge${req.url}`, {
        method,
        headers: headers.filter(([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)),
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
        signal: aborter.signal,
      });
      const out = {};
      response.headers.forEach((v, k) => { out[k] = v; });
      res.writeHead(response.status, response.statusText, out);
      if (!response.body) return res.end();
      // A watch may have nothing to say for a while; the client needs its headers now (the
      // API server flushes them at once too).
      res.flushHeaders();
      const reader = response.body.getReader();
      res.on('close', () => reader.cancel().catch(() => {}));
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(aborter.signal.aborted ? undefined : `kubesim bridge: ${e}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
}
