// In a Service Worker (the kubesim repository's www/kubesim-sw.js is a complete one):
importScripts('kubesim.js');                     // defines wasm_bindgen
await wasm_bindgen({ module_or_path: 'kubesim_bg.wasm' });
const sim = new wasm_bindgen.Simulator({ clock: 'wall' });
self.addEventListener('fetch', (e) => e.respondWith(sim.fetch(e.request)));
