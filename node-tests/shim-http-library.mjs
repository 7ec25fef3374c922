// client-node's supported HTTP extension point, backed by the kubesim shim.
//
// @kubernetes/client-node 1.x generates its API classes (CoreV1Api, AppsV1Api, ...) on top of
// a pluggable `HttpLibrary`: `createConfiguration({ httpApi })`. `wrapHttpLibrary` turns a
// promise-returning `{ send(RequestContext) }` into one. This adapter hands each request to
// `sim.fetch` and each `Response` back as the library's `ResponseContext`: no socket, no
// server, nothing of the library patched.
import { wrapHttpLibrary, ResponseContext } from '@kubernetes/client-node';

/** An `HttpLibrary` whose requests `sim` (a kubesim `Simulator`) answers. */
export function shimHttpLibrary(sim) {
  return wrapHttpLibrary({
    async send(request) {
      const response = await sim.fetch(request.getUrl(), {
        method: request.getHttpMethod().toString(),
        headers: request.getHeaders(),
        body: request.getBody(),
        signal: request.getSignal(),
      });
      const headers = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return new ResponseContext(response.status, headers, {
        text: () => response.text(),
        binary: async () => Buffer.from(await response.arrayBuffer()),
      });
    },
  });
}
