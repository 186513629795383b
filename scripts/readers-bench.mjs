#!/usr/bin/env node
/**
 * Readers benchmark (docs/readers.md#measured), SQLite, runnable alone (not part of `npm run bench`): seeds N published
 * English articles (default 100,000; bench/lib/bulk-seed.mjs, a draft and a published row each), each linked to two
 * of 50 tags and one of 10 categories, and D daily view rows (default 1,000,000, in `bag_view_days`, spread over 400
 * days) into a fresh playground database, boots it in this process with the response cache off, and measures with C
 * concurrent clients (req/s, p50, p95, p99; each row warmed up for a fifth of its window first):
 *   1. `POST /api/bag/views` (a browser's User-Agent, a random article) against `/_health`: target ≥ 0.3× its req/s,
 *      and the counts exact: the views total and today's day rows each grew by the number of `{ counted: true }`;
 *   2. `GET /api/bag/articles/popular` (7d, then 30d) over the day rows against the uncached article list: p95 ≤ its;
 *   3. `GET /api/bag/articles/<random>/related` against the uncached article detail of random articles: p95 ≤ its.
 * Writes bench/results/readers.md (and .json); a missed target is reported, never the script's exit.
 *
 * Usage: npm run build && npm run build -w playground, then `node scripts/readers-bench.mjs`.
 * Env: READERS_BENCH_ARTICLES (100000), READERS_BENCH_DAY_ROWS (1000000), READERS_BENCH_SECONDS (5),
 * READERS_BENCH_CONCURRENCY (10).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { performance } from 'perf_hooks';
import { benchEnv, loadApp, ROOT } from '../bench/lib/app.mjs';
import { bulkWriter, insertArticles, searchableArticle, seededRandom, wordsOf } from '../bench/lib/bulk-seed.mjs';

const ARTICLES = Number(process.env.READERS_BENCH_ARTICLES ?? 100_000);
const DAY_ROWS = Number(process.env.READERS_BENCH_DAY_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.READERS_BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.READERS_BENCH_CONCURRENCY ?? 10);
const DAYS = 400;
const DAY_MS = 86_400_000;
const P = 'plugin::cms-plugin-bag';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// The response cache off (every read is computed); the beacon's rate limit out of the way of one client address; a
// site address, so details build their JSON-LD as a configured site's do.
Object.assign(process.env, benchEnv(), {
  PORT: String(20000 + Math.floor(Math.random() * 20000)),
  CMS_BAG_CONFIG: JSON.stringify({
    cache: { enabled: false },
    site: { url: 'https://www.example.com' },
    rateLimit: { views: { interval: '1m', max: 100_000_000 } },
  }),
  DATABASE_FILENAME: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'readers-bench-')), 'data.db'),
});

const random = seededRandom(5);
const words = wordsOf(random);
const strapi = await loadApp({ withHostApi: false });
const writer = bulkWriter(strapi);
const { knex } = writer;
const log = (...args) => console.log('[readers-bench sqlite]', ...args);

// Without the search triggers (this bench is not about the index): the seed is then a plain bulk write.
for (const name of ['bag_search_ai', 'bag_search_au', 'bag_search_ad']) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);
const tags = [];
for (let i = 0; i < 50; i += 1) tags.push(await strapi.documents(`${P}.tag`).create({ data: { title: `Tag ${i}`, slug: `tag-${i}` } }));
const categories = [];
for (let i = 0; i < 10; i += 1) categories.push(await strapi.documents(`${P}.category`).create({ data: { title: `Category ${i}`, slug: `category-${i}` } }));

let seeded = performance.now();
const documents = [];
const now = Date.now();
await insertArticles(strapi, {
  count: ARTICLES,
  fields: searchableArticle(words),
  publishedAt: (n) => now - (ARTICLES - n) * 60_000,
  onBatch: async (rows) => {
    const tagPairs = [];
    const categoryPairs = [];
    for (const row of rows) {
      const n = Number(row.slug.slice('article-'.length));
      if (row.published_at !== null) documents.push(row.document_id);
      tagPairs.push([row.id, tags[n % 50].id], [row.id, tags[(n * 7 + 3) % 50].id]);
      categoryPairs.push([row.id, categories[n % 10].id]);
    }
    await writer.link('article', 'tags', tagPairs);
    await writer.link('article', 'category', categoryPairs);
  },
});
const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);
// D day rows: DAY_ROWS / DAYS articles read on each of the last DAYS days (a different slice each day).
const perDay = Math.ceil(DAY_ROWS / DAYS);
for (let day = 0, written = 0; day < DAYS && written < DAY_ROWS; day += 1) {
  const rows = [];
  for (let i = 0; i < perDay && written < DAY_ROWS; i += 1, written += 1) {
    rows.push({ kind: 'article', document: documents[(day * 997 + i) % documents.length], locale: 'en', day: dayOf(now - day * DAY_MS), views: 1 + Math.floor(random() * 50) });
  }
  await writer.insert('bag_view_days', rows);
}
seeded = performance.now() - seeded;
log(`seeded ${ARTICLES} articles, their tags and categories, and ${DAY_ROWS} day rows in ${(seeded / 1000).toFixed(1)} s`);
for (const name of ['bag_view_days', writer.table('article')]) await knex.raw('ANALYZE ??', [name]);

const { host, port } = strapi.config.get('server');
await new Promise((resolve) => strapi.server.listen(port, host, resolve));
const base = `http://${host}:${port}`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const slugOf = () => `article-${Math.floor(random() * ARTICLES)}`;
let counted = 0;

/** C clients for `seconds`, each sending the next request when the previous one answered. */
const run = async (request, seconds) => {
  const times = [];
  let errors = 0;
  let firstError = null;
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      try {
        const { url, init } = request();
        const res = await fetch(url, init);
        const body = await res.text();
        if (res.status < 200 || res.status > 204) throw new Error(`HTTP ${res.status}: ${body.slice(0, 200)}`);
        if (res.status === 202 && JSON.parse(body).counted) counted += 1;
        times.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= error.message;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { times, errors, firstError };
};

const measure = async (name, request) => {
  await run(request, SECONDS / 5);
  const started = performance.now();
  const { times, errors, firstError } = await run(request, SECONDS);
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const row = {
    name,
    requests: times.length,
    errors,
    ...(firstError ? { firstError } : {}),
    rps: Number((times.length / elapsed).toFixed(1)),
    p50: Number((percentile(times, 50) ?? NaN).toFixed(1)),
    p95: Number((percentile(times, 95) ?? NaN).toFixed(1)),
    p99: Number((percentile(times, 99) ?? NaN).toFixed(1)),
  };
  log(JSON.stringify(row));
  return row;
};
const get = (pathOf) => () => ({ url: `${base}${pathOf()}`, init: { headers: { 'user-agent': BROWSER } } });

const articleTable = writer.table('article');
const totals = async () => ({
  views: Number((await knex(articleTable).whereNotNull('published_at').sum({ n: 'views' }))[0].n ?? 0),
  today: Number((await knex('bag_view_days').where({ day: dayOf(Date.now()) }).sum({ n: 'views' }))[0].n ?? 0),
});

const health = await measure('/_health', get(() => '/_health'));
const before = await totals();
const beacon = await measure('POST /api/bag/views', () => ({
  url: `${base}/api/bag/views`,
  init: { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': BROWSER }, body: JSON.stringify({ type: 'article', slug: slugOf() }) },
}));
const after = await totals();
// Counted over the warm-up and the measured window alike; the day may not turn during the run.
const exact = { counted, totalAdded: after.views - before.views, todayAdded: after.today - before.today };
exact.ok = exact.totalAdded === counted && exact.todayAdded === counted;
log(`beacon counts: ${JSON.stringify(exact)}`);

const list = await measure('uncached article list', get(() => '/api/bag/articles'));
const popular7 = await measure('popular 7d', get(() => '/api/bag/articles/popular?period=7d'));
const popular30 = await measure('popular 30d', get(() => '/api/bag/articles/popular?period=30d'));
const detail = await measure('uncached article detail (random)', get(() => `/api/bag/articles/${slugOf()}`));
const related = await measure('related (random)', get(() => `/api/bag/articles/${slugOf()}/related`));

const ratio = (a, b) => Number((a / b).toFixed(2));
const targets = [
  { row: 'beacon req/s / /_health req/s', value: ratio(beacon.rps, health.rps), target: '≥ 0.3, counts exact', met: beacon.rps / health.rps >= 0.3 && exact.ok && beacon.errors === 0 },
  { row: 'popular 7d p95 / uncached list p95', value: ratio(popular7.p95, list.p95), target: '≤ 1', met: popular7.p95 <= list.p95 },
  { row: 'popular 30d p95 / uncached list p95', value: ratio(popular30.p95, list.p95), target: '≤ 1', met: popular30.p95 <= list.p95 },
  { row: 'related p95 / uncached detail p95', value: ratio(related.p95, detail.p95), target: '≤ 1', met: related.p95 <= detail.p95 },
];
for (const target of targets) log(`${target.row}: ${target.value} (target ${target.target}) ${target.met ? 'met' : 'MISSED'}`);

const rows = [health, beacon, list, popular7, popular30, detail, related];
const results = path.join(ROOT, 'bench', 'results');
fs.mkdirSync(results, { recursive: true });
const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
fs.writeFileSync(path.join(results, 'readers.json'), JSON.stringify({ when, articles: ARTICLES, dayRows: DAY_ROWS, seconds: SECONDS, concurrency: CONCURRENCY, seededMs: seeded, rows, exact, targets }, null, 2));
fs.writeFileSync(
  path.join(results, 'readers.md'),
  [
    `# Readers benchmark (SQLite, ${when})`,
    '',
    `\`node scripts/readers-bench.mjs\`: ${ARTICLES.toLocaleString('en')} published articles (two of 50 tags and one of 10 categories each), ` +
      `${DAY_ROWS.toLocaleString('en')} daily view rows over ${DAYS} days, response cache off, ${CONCURRENCY} clients, ${SECONDS} s a row ` +
      `after a ${SECONDS / 5} s warm-up; one server in the script's process, on the machine the run used (docs/readers.md#measured).`,
    '',
    '| row | req/s | p50 ms | p95 ms | p99 ms | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.name} | ${row.rps} | ${row.p50} | ${row.p95} | ${row.p99} | ${row.errors} |`),
    '',
    `Beacon counts: ${exact.counted} answered \`{ counted: true }\`; the published rows' views total grew by ${exact.totalAdded}, today's day rows by ${exact.todayAdded} (${exact.ok ? 'exact' : 'NOT exact'}).`,
    '',
    '| target | measured | wanted | |',
    '|---|---:|---|---|',
    ...targets.map((target) => `| ${target.row} | ${target.value} | ${target.target} | ${target.met ? 'met' : '**missed**'} |`),
    '',
  ].join('\n'),
);

await strapi.destroy();
fs.rmSync(path.dirname(process.env.DATABASE_FILENAME), { recursive: true, force: true });
process.exit(0);
