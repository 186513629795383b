#!/usr/bin/env node
/**
 * Measures the streamed sitemap (docs/discovery.md#streaming-and-memory) on 100,000 published articles: boots the playground (built:
 * `npm run build && npm run build -w playground`) on a fresh SQLite file (or PostgreSQL with `DATABASE_CLIENT=postgres`
 * and the `scripts/postgres.sh env` variables, on a new database), bulk-inserts the articles as the Document Service
 * lays them out (bench/lib/bulk-seed.mjs: a draft and a published row per document; every tenth with a cover), then fetches `/sitemap.xml`
 * (an index: 50,000 URLs per page at most) and every page it lists, sampling the process's RSS every 10 ms.
 * Prints the time per request, the bytes served and the peak RSS growth over the resting footprint.
 *
 * Usage: node --expose-gc scripts/discovery-sitemap-memory.mjs [articles=100000]
 * BENCH_JSON: a file to write the figures to (`npm run bench` runs this script for its sitemap row).
 */
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import { performance } from 'perf_hooks';
import { benchEnv, loadApp, ROOT } from '../bench/lib/app.mjs';
import { insertArticles } from '../bench/lib/bulk-seed.mjs';
import { createDatabase, dropDatabase } from './lib/postgres-admin.js';

const ARTICLES = Number(process.argv[2] ?? 100_000);
const isPostgres = process.env.DATABASE_CLIENT === 'postgres';
const P = 'plugin::cms-plugin-bag';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bag-sitemap-'));
let databaseName;
if (isPostgres) {
  databaseName = `sitemap_${process.pid}`;
  await createDatabase(databaseName);
}
Object.assign(process.env, {
  ...benchEnv(),
  PORT: '0',
  ...(isPostgres ? { DATABASE_NAME: databaseName, DATABASE_URL: '' } : { DATABASE_FILENAME: path.relative(ROOT, path.join(tmp, 'data.db')) }),
  CMS_BAG_CONFIG: JSON.stringify({ site: { url: 'https://www.example.com' }, cache: { enabled: false } }),
});
if (isPostgres) delete process.env.DATABASE_URL;

const strapi = await loadApp({ withHostApi: false });
const { host } = strapi.config.get('server');
await new Promise((resolve) => strapi.server.listen(0, host, resolve));
const { port } = strapi.server.httpServer.address();

// Seed.
const knex = strapi.db.connection;
const date = (ms) => (isPostgres ? new Date(ms) : ms);
const file = strapi.db.metadata.get('plugin::upload.file');
const [cover] = await knex(file.tableName)
  .insert({ document_id: 'cover0000000000000000000', name: 'cover.png', hash: 'cover', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/cover.png', provider: 'local', created_at: date(Date.now()), updated_at: date(Date.now()) })
  .returning('id');
const coverId = typeof cover === 'object' ? cover.id : cover;
const { joinTable } = file.attributes.related;
const seedStart = Date.now();
// Published one second apart, newest first; the published row of every tenth article has the cover.
await insertArticles(strapi, {
  count: ARTICLES,
  fields: (i) => ({ title: `Article ${i}`, slug: `article-${i}`, summary: `Summary of article ${i}` }),
  publishedAt: (i) => seedStart - i * 1000,
  onBatch: async (rows) => {
    const covers = rows.filter((row, index) => index % 2 === 1 && ((row.id - 2) / 2) % 10 === 0);
    if (covers.length === 0) return;
    await knex(joinTable.name).insert(
      covers.map((row) => ({
        [joinTable.joinColumn.name]: coverId,
        [joinTable.morphColumn.idColumn.name]: row.id,
        [joinTable.morphColumn.typeColumn.name]: `${P}.article`,
        field: 'cover',
        order: 1,
      })),
    );
  },
});
console.log(`seeded ${ARTICLES} published articles (${ARTICLES * 2} rows) in ${Date.now() - seedStart} ms`);

// Measure.
const fetch = (urlPath) =>
  new Promise((resolve, reject) => {
    const began = Date.now();
    http
      .get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
        let bytes = 0;
        let head = '';
        res.on('data', (chunk) => {
          bytes += chunk.length;
          if (head.length < 4000) head += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode, bytes, ms: Date.now() - began, head, chunked: res.headers['transfer-encoding'] === 'chunked' }));
      })
      .on('error', reject);
  });

// Time spent in the database per statement shape, while measuring.
const started = new Map();
const spent = new Map();
let timing = false;
knex.on('query', (query) => timing && started.set(query.__knexQueryUid, { at: performance.now(), sql: query.sql.replace(/\(\?(, \?)*\)/g, '(…)').replace(/\$\d+/g, '?').slice(0, 90) }));
knex.on('query-response', (_, query) => {
  const start = started.get(query.__knexQueryUid);
  if (!start) return;
  started.delete(query.__knexQueryUid);
  const entry = spent.get(start.sql) ?? { count: 0, ms: 0 };
  spent.set(start.sql, { count: entry.count + 1, ms: entry.ms + performance.now() - start.at });
});

global.gc?.();
await new Promise((resolve) => setTimeout(resolve, 500));
const rest = process.memoryUsage().rss;
let peak = rest;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);

timing = true;
const began = Date.now();
const index = await fetch('/api/bag/sitemap.xml');
const pages = [...index.head.matchAll(/<loc>[^<]*\/api\/bag\/sitemaps\/(\d+)\.xml<\/loc>/g)].map((match) => match[1]);
const results = [{ path: '/api/bag/sitemap.xml', ...index }];
for (const n of pages) results.push({ path: `/api/bag/sitemaps/${n}.xml`, ...(await fetch(`/api/bag/sitemaps/${n}.xml`)) });
const total = Date.now() - began;
clearInterval(sampler);
timing = false;

for (const { path: urlPath, status, bytes, ms, chunked } of results) {
  console.log(`${urlPath}: ${status}, ${(bytes / 1e6).toFixed(1)} MB in ${ms} ms${chunked ? ' (chunked)' : ''}`);
}
console.log(`index and ${pages.length} pages in ${total} ms; RSS at rest ${(rest / 1e6).toFixed(0)} MB, peak growth ${((peak - rest) / 1e6).toFixed(1)} MB`);

if (process.env.BENCH_JSON) {
  const summary = {
    articles: ARTICLES,
    totalMs: total,
    pages: pages.length,
    bytes: results.reduce((sum, r) => sum + r.bytes, 0),
    statuses: results.map((r) => r.status),
    chunked: results.every((r) => r.chunked),
    restBytes: rest,
    peakGrowthBytes: peak - rest,
    gc: typeof global.gc === 'function',
  };
  fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(summary, null, 2));
}

for (const [sql, { count, ms }] of [...spent].sort((a, b) => b[1].ms - a[1].ms).slice(0, 6)) {
  console.log(`  db ${ms.toFixed(0).padStart(6)} ms in ${String(count).padStart(4)} × ${sql}`);
}
await strapi.destroy();
fs.rmSync(tmp, { recursive: true, force: true });
if (isPostgres) await dropDatabase(databaseName);
process.exit(0);
