#!/usr/bin/env node
/**
 * `node bench/profile.mjs <path> [seconds] [--svg=<file>]`: where one endpoint spends its CPU.
 *
 * Seeds the full benchmark data once (kept in playground/.tmp/bench-profile.db between runs; delete it to reseed),
 * boots the playground in production under `node --cpu-prof`, drives `<path>` with autocannon (10 connections) and
 * prints the functions with the most self time and the packages with the most time, from the written .cpuprofile
 * (also left in playground/.tmp/profiles/ for Chrome DevTools); `--svg=<file>` also writes an icicle graph of it
 * (bench/lib/cpu-profile.mjs; `node bench/flame.mjs <file.cpuprofile> <out.svg>` does the same for any profile);
 * `--revalidate` sends the first answer's ETag as If-None-Match (the 304 path).
 * `CMS_BAG_CONFIG` in the environment is merged over the profile's plugin configuration:
 * `CMS_BAG_CONFIG='{"cache":{"enabled":false}}'` profiles the uncached path. Run `npm run build` first.
 */
import autocannon from './lib/load-generator.mjs';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv } from './lib/app.mjs';
import { flameSvg, selfTimes, top } from './lib/cpu-profile.mjs';

const require = createRequire(import.meta.url);
const revalidate = process.argv.includes('--revalidate');
const svg = process.argv.find((arg) => arg.startsWith('--svg='))?.slice('--svg='.length);
const [target, seconds = '10'] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!target) throw new Error('usage: node bench/profile.mjs <path> [seconds] [--svg=<file>]');
const TMP = path.join(PLAYGROUND, '.tmp');
const PROFILES = path.join(TMP, 'profiles');
const DB = path.join('.tmp', 'bench-profile.db');
const FIXTURES = path.join(TMP, 'bench-profile-fixtures.json');
const env = {
  ...benchEnv(),
  DATABASE_FILENAME: DB,
  // The caller's CMS_BAG_CONFIG is merged over the profile's (e.g. '{"cache":{"enabled":false}}' profiles the uncached path).
  CMS_BAG_CONFIG: JSON.stringify({ rateLimit: { enabled: false }, ...JSON.parse(process.env.CMS_BAG_CONFIG || '{}') }),
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
// One request alone first: with the response cache on it fills the entry, so the concurrent warm-up and the profile
// are hits, not ten misses computing the same answer at once.
const first = await fetch(options.url, { headers });
await first.arrayBuffer();
if (revalidate) options.headers = { ...headers, 'if-none-match': first.headers.get('etag') };
await autocannon({ ...options, amount: 20 });
const result = await autocannon({ ...options, duration: Number(seconds) });
console.log(`${url}: ${(result.requests.total / result.duration).toFixed(1)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, ${JSON.stringify(result.statusCodeStats)}`);
server.send({ type: 'stop' });
await exited(server);

const file = fs.readdirSync(PROFILES).find((name) => name.endsWith('.cpuprofile'));
const profile = JSON.parse(fs.readFileSync(path.join(PROFILES, file), 'utf8'));
const { byFunction, byPackage, total } = selfTimes(profile);
const lines = (map, n) => top(map, total, n).map(([key, share]) => `${share.toFixed(1).padStart(5)}%  ${key}`);
console.log('\nself time by package:\n' + lines(byPackage, 15).join('\n'));
console.log('\nself time by function:\n' + lines(byFunction, 40).join('\n'));
if (svg) {
  fs.mkdirSync(path.dirname(svg), { recursive: true });
  fs.writeFileSync(svg, flameSvg(profile, { title: `${target}: CPU of the server while it answers` }));
  console.log(`\nwrote ${svg}`);
}
