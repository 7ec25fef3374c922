const { Simulator } = require('kubesim');      // or: import { Simulator } from 'kubesim'
const sim = new Simulator({ clock: 'manual', seed: 1 });
const r = await sim.fetch('/api/v1/namespaces');
console.log(r.status, (await r.json()).items.length); // 200 3
sim.advance(60_000);                                   // simulated time moves only on request
