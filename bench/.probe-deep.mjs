// scratch (not committed): seeds once, boots a server, times candidate queries
import fs from 'fs';
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv } from './lib/app.mjs';
const require = createRequire(import.meta.url);
const env = { ...benchEnv(), DATABASE_FILENAME: '.tmp/bench-probe.db', CMS_BAG_CONFIG: process.env.CMS_BAG_CONFIG ?? '{}' };
const fixtures = path.join(PLAYGROUND, '.tmp', 'bench-probe-fixtures.json');
if (!fs.existsSync(path.join(PLAYGROUND, '.tmp', 'bench-probe.db'))) {
  const { compileStrapi } = require('@strapi/strapi');
  await compileStrapi({ appDir: PLAYGROUND });
  const s = fork(path.join(ROOT, 'bench', 'seed.mjs'), [], { env: { ...env, BENCH_SCALE: 'full', BENCH_FIXTURES: fixtures } });
  await new Promise((r) => s.on('exit', r));
}
const port = 41000 + Math.floor(Math.random() * 1000);
const child = fork(path.join(ROOT, 'bench', 'server.mjs'), [], { env: { ...env, PORT: String(port), CMS_BAG_ENABLED: 'true', BENCH_HOST_API: 'false' } });
await new Promise((r) => child.on('message', (m) => m.type === 'ready' && r()));
const queries = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
for (const q of queries) {
  const times = []; let bytes = 0; let status = 0; let rows = 0; let msg = '';
  for (let i = 0; i < 8; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(`http://127.0.0.1:${port}${q}`);
    const text = await res.text();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    bytes = text.length; status = res.status;
    try { const b = JSON.parse(text); rows = b.data?.length; msg = b.error?.message ?? ''; } catch {}
    if (status >= 300) break;
  }
  times.sort((a, b) => a - b);
  console.log(`${status} p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms ${bytes} B rows ${rows} ${msg.slice(0, 100)}\n   ${q}`);
}
child.send({ type: 'stop' });
