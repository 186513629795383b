#!/usr/bin/env node
/**
 * `node bench/profile.mjs <path> [seconds]`: where one endpoint spends its CPU.
 *
 * Seeds the full benchmark data once (kept in playground/.tmp/bench-profile.db between runs; delete it to reseed),
 * boots the playground in production under `node --cpu-prof`, drives `<path>` with autocannon (10 connections) and
 * prints the functions with the most self time and the packages with the most time, from the written .cpuprofile
 * (also left in playground/.tmp/profiles/ for Chrome DevTools). Run `npm run build` first.
 */
import autocannon from 'autocannon';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv } from './lib/app.mjs';

const require = createRequire(import.meta.url);
const [target, seconds = '10'] = process.argv.slice(2);
if (!target) throw new Error('usage: node bench/profile.mjs <path> [seconds]');
const TMP = path.join(PLAYGROUND, '.tmp');
const PROFILES = path.join(TMP, 'profiles');
const DB = path.join('.tmp', 'bench-profile.db');
const FIXTURES = path.join(TMP, 'bench-profile-fixtures.json');
const env = {
  ...benchEnv(),
  DATABASE_FILENAME: DB,
  CMS_BAG_CONFIG: JSON.stringify({ rateLimit: { enabled: false } }),
};
const exited = (child) => new Promise((resolve) => child.once('exit', resolve));
const message = (child, type) => new Promise((resolve) => child.on('message', (m) => m.type === type && resolve(m)));

const { compileStrapi } = require('@strapi/strapi');
await compileStrapi({ appDir: PLAYGROUND });
if (!fs.existsSync(path.join(PLAYGROUND, DB))) {
  const seeder = fork(path.join(ROOT, 'bench', 'seed.mjs'), [], { env: { ...env, BENCH_SCALE: 'full', BENCH_FIXTURES: FIXTURES } });
  if ((await exited(seeder)) !== 0) throw new Error('seeding failed');
}
const fx = JSON.parse(fs.readFileSync(FIXTURES, 'utf8'));
const url = target.replace(/\{(\w+(?:\.\w+)*)\}/g, (_, key) => key.split('.').reduce((o, k) => o[k], fx));

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = s.address();
    s.close(() => resolve(free));
  });
});
fs.rmSync(PROFILES, { recursive: true, force: true });
const server = fork(path.join(ROOT, 'bench', 'server.mjs'), [], {
  env: { ...env, PORT: String(port), BENCH_HOST_API: 'true' },
  execArgv: ['--cpu-prof', `--cpu-prof-dir=${PROFILES}`],
});
await message(server, 'ready');
const headers = url.startsWith('/api/host') ? { authorization: `Bearer ${fx.hostToken}` } : {};
const options = { url: `http://127.0.0.1:${port}${url}`, headers, connections: 10 };
await autocannon({ ...options, amount: 20 });
const result = await autocannon({ ...options, duration: Number(seconds) });
console.log(`${url}: ${(result.requests.total / result.duration).toFixed(1)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);
server.send({ type: 'stop' });
await exited(server);

const file = fs.readdirSync(PROFILES).find((name) => name.endsWith('.cpuprofile'));
const profile = JSON.parse(fs.readFileSync(path.join(PROFILES, file), 'utf8'));
const ids = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const byPackage = new Map();
// Samples before the first request handled are the boot: left out.
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const inRequest = (id) => {
  for (let at = id; at !== undefined; at = parentOf.get(at)) if (ids.get(at).callFrame.url.includes('/koa-compose/')) return true;
  return false;
};
const firstRequest = profile.samples.findIndex(inRequest);
const samples = profile.samples.slice(Math.max(0, firstRequest));
const counts = new Map();
for (const sample of samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
const total = samples.length;
const where = (frame) => {
  const u = frame.url || '(native)';
  const m = u.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return m ? m[1] : u.includes('/dist/server/') ? 'cms-plugin-bag' : u.startsWith('node:') ? 'node' : u;
};
for (const [id, n] of counts) {
  const { callFrame } = ids.get(id);
  const key = `${callFrame.functionName || '(anonymous)'} ${where(callFrame)}:${callFrame.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + n);
  byPackage.set(where(callFrame), (byPackage.get(where(callFrame)) ?? 0) + n);
}
const top = (map, n) =>
  [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
console.log('\nself time by package:\n' + top(byPackage, 15).join('\n'));
console.log('\nself time by function:\n' + top(self, 40).join('\n'));
