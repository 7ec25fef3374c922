import init, { Simulator } from 'kubesim';
await init();                                    // loads kubesim_bg.wasm beside kubesim.js
const sim = new Simulator({ clock: 'manual' });
sim.install({ baseUrl: 'https://kube.example' }); // the page's fetch reaches it there
const r = await fetch('https://kube.example/api/v1/namespaces');
