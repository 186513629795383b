#!/usr/bin/env node
/**
 * Measures what one response-cache entry really costs in memory, against what `cache.maxBytes` counts for it
 * (docs/caching.md, "Bound"). Boots the playground (built: `npm run build`, and the playground compiled, as
 * `npm run bench` or a test run leaves it) on a fresh SQLite file with a bound far above what the run fills, sends
 * `entries` anonymous requests for distinct small URLs (a search with no match and an unknown parameter `x=<n>`, so
 * every request is a new entry), and reads V8's heap and the memory outside it (`external`: the bodies' buffers)
 * after a full garbage collection: once filled, once after the cache is cleared. Their difference per entry, plus the
 * bytes its body holds in the cache's region (allocated once, so in `external` both times), is the entry's real cost;
 * the cache's own `bytes` per entry is what it counts.
 *
 * Usage: node --expose-gc scripts/cache-entry-cost.mjs [entries=20000]
 * BENCH_JSON: a file to write the figures to.
 */
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { benchEnv, loadApp, ROOT } from '../bench/lib/app.mjs';

const ENTRIES = Number(process.argv[2] ?? 20_000);
if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bag-cache-cost-'));
Object.assign(process.env, {
  ...benchEnv(),
  PORT: '0',
  DATABASE_CLIENT: 'sqlite',
  DATABASE_FILENAME: path.relative(ROOT, path.join(tmp, 'data.db')),
  CMS_BAG_CONFIG: JSON.stringify({ cache: { maxBytes: 2 ** 30 } }),
});

const strapi = await loadApp({ withHostApi: false });
const { host } = strapi.config.get('server');
await new Promise((resolve) => strapi.server.listen(0, host, resolve));
const { port } = strapi.server.httpServer.address();
const cache = strapi.plugin('cms-plugin-bag').service('response-cache');
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

const fetch = (urlPath) =>
  new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      })
      .on('error', reject);
  });

const settle = async () => {
  for (let i = 0; i < 4; i += 1) {
    global.gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsed, external, rss } = process.memoryUsage();
  return { heapUsed, external, rss };
};

const url = (n) => `/api/bag/search?q=zz&x=${n}`;
// Warm-up: routes, statements and the allocator see the same traffic once.
for (let n = 0; n < 500; n += 1) await fetch(url(`w${n}`));
cache.clear();
const before = await settle();

let next = 0;
const worker = async () => {
  while (next < ENTRIES) {
    const n = next;
    next += 1;
    const status = await fetch(url(n));
    if (status !== 200) throw new Error(`${url(n)}: ${status}`);
  }
};
await Promise.all(Array.from({ length: 8 }, worker));
const filled = await settle();
const stats = cache.stats();
const region = cache.regionBytes() / stats.entries;
cache.clear();
const cleared = await settle();

const perEntry = (a, b, key) => (a[key] - b[key]) / stats.entries;
const heap = perEntry(filled, cleared, 'heapUsed');
const external = perEntry(filled, cleared, 'external');
const summary = {
  entries: stats.entries,
  countedBytesPerEntry: stats.bytes / stats.entries,
  heapBytesPerEntry: heap,
  externalBytesPerEntry: external,
  regionBytesPerEntry: region,
  realBytesPerEntry: heap + external + region,
  rssGrowthBytes: filled.rss - before.rss,
};
console.log(
  `${stats.entries} entries: counted ${summary.countedBytesPerEntry.toFixed(0)} B each; ` +
    `real ${summary.realBytesPerEntry.toFixed(0)} B each (heap ${heap.toFixed(0)}, outside the heap ${external.toFixed(0)}, ` +
    `body in the region ${region.toFixed(0)}); ` +
    `RSS +${(summary.rssGrowthBytes / 2 ** 20).toFixed(1)} MiB`
);
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(summary, null, 2));

agent.destroy();
await strapi.destroy();
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(0);
