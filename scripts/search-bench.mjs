#!/usr/bin/env node
/**
 * Search benchmark (docs/search.md#benchmark), run by `npm run bench` for its discovery rows and runnable alone: seeds N published English articles
 * (default 100,000; each a draft row and a published row, about 2 KB of text) into a fresh playground database with
 * raw inserts (bench/lib/bulk-seed.mjs), then measures
 *   1. the index build for all of them (the start-up build, `search.ensureIndex()`, from an empty index),
 *   2. `GET /api/bag/search?q=<word>` against the host's REST doing what users do today
 *      (`/api/host/articles?filters[$or]` of `$containsi` on title, summary and content: the core controller over the
 *      plugin's article type, from bench/lib/host-api.mjs), over HTTP with C concurrent clients: req/s, p50, p99.
 *      The plugin for SEARCH_BENCH_SECONDS, after a warm-up of a fifth of that, not measured; the host, whose every
 *      request scans all the articles (seconds each; under 1 req/s on PostgreSQL), by count: SEARCH_BENCH_HOST_REQUESTS
 *      requests in all (default C, one per client), which is enough for its req/s. A request that fails or outlasts
 *      SEARCH_BENCH_TIMEOUT_MS is counted as an error of its row (the first error's message kept); a row none of whose
 *      requests succeeded is reported `failed`, and the script still writes its figures: a slow or failing comparator
 *      is a row's result, never the script's exit.
 *
 * The server runs in this process, so on SQLite (better-sqlite3 is synchronous) the host's scans block the event loop
 * for seconds, several of them in one turn of the loop: longer than Node's `server.keepAliveTimeout` (5 s), whose timer
 * then fires before the next request already waiting on a kept-alive socket is read, and the server resets that
 * connection (ECONNRESET). The bench's server keeps idle connections for as long as a request may take instead.
 *
 * Usage: npm run build && npm run build -w playground, then
 *   node scripts/search-bench.mjs                      (SQLite, a temporary file)
 *   (eval "$(PGPORT=… scripts/postgres.sh env)" && node scripts/search-bench.mjs)   (PostgreSQL: a new database)
 * Env: SEARCH_BENCH_ARTICLES (100000), SEARCH_BENCH_SECONDS (10, the plugin's window), SEARCH_BENCH_CONCURRENCY (8),
 * SEARCH_BENCH_HOST_REQUESTS (the concurrency), SEARCH_BENCH_TIMEOUT_MS (180000, per request);
 * BENCH_JSON: a file to write the figures to (bench/run.mjs runs this script for its discovery rows).
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { performance } from 'perf_hooks';
import { benchEnv, loadApp, ROOT } from '../bench/lib/app.mjs';
import { insertArticles, searchableArticle, seededRandom, VOCABULARY, wordsOf } from '../bench/lib/bulk-seed.mjs';
import { createDatabase, dropDatabase } from './lib/postgres-admin.js';

const ARTICLES = Number(process.env.SEARCH_BENCH_ARTICLES ?? 100_000);
const SECONDS = Number(process.env.SEARCH_BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.SEARCH_BENCH_CONCURRENCY ?? 8);
const HOST_REQUESTS = Number(process.env.SEARCH_BENCH_HOST_REQUESTS ?? CONCURRENCY);
const TIMEOUT_MS = Number(process.env.SEARCH_BENCH_TIMEOUT_MS ?? 180_000);
const postgres = process.env.DATABASE_CLIENT === 'postgres';
const P = 'plugin::cms-plugin-bag';

// The response cache off: every query is a new search (a cached answer would time the cache, not the index).
Object.assign(process.env, benchEnv(), {
  PORT: String(20000 + Math.floor(Math.random() * 20000)),
  CMS_BAG_CONFIG: JSON.stringify({ cache: { enabled: false } }),
});
if (postgres) {
  process.env.DATABASE_NAME = `search_bench_${Date.now()}`;
  await createDatabase(process.env.DATABASE_NAME);
} else {
  process.env.DATABASE_FILENAME = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-')), 'data.db');
}

/** Deterministic words: the shared 5,000-word made-up vocabulary, each article using some of them. */
const random = seededRandom(7);
const words = wordsOf(random);

const strapi = await loadApp({ withHostApi: true });
const knex = strapi.db.connection;
const table = strapi.db.metadata.get(`${P}.article`).tableName;
const log = (...args) => console.log(`[search-bench ${postgres ? 'postgres' : 'sqlite'}]`, ...args);

// Seed without the triggers (as a database written before the index existed), then build the index.
if (postgres) await knex.raw(`DROP TRIGGER IF EXISTS bag_search_sync ON ${table}`);
else for (const name of ['bag_search_ai', 'bag_search_au', 'bag_search_ad']) await knex.raw(`DROP TRIGGER IF EXISTS ${name}`);

let seeded = performance.now();
await insertArticles(strapi, {
  count: ARTICLES,
  fields: searchableArticle(words),
});
seeded = performance.now() - seeded;
log(`seeded ${ARTICLES} published articles (${ARTICLES * 2} rows) in ${(seeded / 1000).toFixed(1)} s`);

const search = strapi.plugin('cms-plugin-bag').service('search');
let built = performance.now();
const { background } = await search.ensureIndex();
const bootstrapReturned = performance.now() - built;
await background;
built = performance.now() - built;
log(`index build: ${(built / 1000).toFixed(1)} s for ${ARTICLES} articles (ensureIndex returned after ${bootstrapReturned.toFixed(0)} ms)`);

// PostgreSQL: a live database has long been vacuumed and analyzed by autovacuum when it is searched; one bulk-written
// and read at once is not (the first reads set every row's hint bits, writing pages). Done here, not in the plugin.
if (postgres) {
  const vacuumed = performance.now();
  for (const name of [table, 'bag_search_index']) await knex.raw(`VACUUM (ANALYZE) ??`, [name]);
  log(`VACUUM (ANALYZE) of ${table} and bag_search_index: ${((performance.now() - vacuumed) / 1000).toFixed(1)} s`);
}

// The index's size: the FTS and vocabulary tables (SQLite: dbstat of their shadow tables), or the tables with their indexes.
const indexBytes = postgres
  ? Number((await knex.raw(`SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c WHERE c.relname IN ('bag_search_index', 'bag_search_words', 'bag_search_pages') AND c.relkind = 'r'`)).rows[0].bytes)
  : await knex
      .raw(`SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'bag_search_%'`)
      .then((rows) => Number(rows[0].bytes))
      .catch(() => null);
log(`index size: ${indexBytes === null ? 'unknown' : `${(indexBytes / 2 ** 20).toFixed(1)} MB`}`);

// Grant the host comparator's find to Public.
const publicRole = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
await strapi.db.query('plugin::users-permissions.permission').create({ data: { action: 'api::bench.article.find', role: publicRole.id } });

const { host, port } = strapi.config.get('server');
// Idle keep-alive connections kept for as long as a request may take (see the header: a loop blocked past the
// default 5 s resets them).
strapi.server.httpServer.keepAliveTimeout = TIMEOUT_MS;
await new Promise((resolve) => strapi.server.listen(port, host, resolve));
const base = `http://${host}:${port}`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
/** An error's message with its cause's code (fetch reports a reset as `fetch failed`, caused by ECONNRESET). */
const describe = (error) =>
  error?.name === 'TimeoutError'
    ? `no answer in ${TIMEOUT_MS} ms`
    : [error?.message, error?.cause?.code ?? error?.cause?.message].filter(Boolean).join(': ');
/** C clients, each issuing the next request when the previous one answered: the answered ones' times and the errors. */
const run = async (url, { seconds, requests }) => {
  const times = [];
  let errors = 0;
  let firstError = null;
  let sent = 0;
  const end = performance.now() + (seconds ?? 0) * 1000;
  const more = () => (requests ? sent < requests : performance.now() < end);
  const client = async () => {
    while (more()) {
      sent += 1;
      const started = performance.now();
      try {
        const res = await fetch(url(), { signal: AbortSignal.timeout(TIMEOUT_MS) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        times.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= describe(error);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  return { times, errors, firstError };
};

/**
 * One row: C clients for `seconds`, or until `requests` have been sent. Failed requests are counted, not thrown;
 * req/s, p50 and p99 are those of the answered ones. A timed row is first warmed up for a fifth of its window, not
 * measured, as every row of bench/run.mjs is. Without it the first C requests, which open the database pool's
 * connections (on PostgreSQL a server process each, with empty caches), were the row's slowest, 2–3.5× its p50
 * there, and set its p99.
 */
const measure = async (name, url, { seconds, requests }) => {
  if (seconds) await run(url, { seconds: seconds / 5 });
  const started = performance.now();
  const { times, errors, firstError } = await run(url, { seconds, requests });
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const row = times.length
    ? {
        name,
        requests: times.length,
        errors,
        ...(firstError ? { firstError } : {}),
        byCount: Boolean(requests),
        rps: Number((times.length / elapsed).toFixed(2)),
        p50: Number(percentile(times, 50).toFixed(1)),
        p95: Number(percentile(times, 95).toFixed(1)),
        p99: Number(percentile(times, 99).toFixed(1)),
      }
    : { name, failed: `all ${errors} requests failed, the first: ${firstError}` };
  log(JSON.stringify(row));
  return row;
};

const query = () => VOCABULARY[Math.floor(random() * VOCABULARY.length)];
const check = await (await fetch(`${base}/api/bag/search?q=${VOCABULARY[10]}`)).json();
log(`sample: q=${VOCABULARY[10]} → ${check.meta?.pagination?.total} matches; first: ${JSON.stringify(check.data?.[0]?.highlight)}`);
const plugin = await measure('plugin search', () => `${base}/api/bag/search?q=${encodeURIComponent(query())}`, { seconds: SECONDS });
// docs/search.md#typos: the same words of 5+ characters spelt right and with one typo each (a letter in the middle
// replaced), with and without facets, and the suggest route on their first three letters.
const LONG = VOCABULARY.filter((word) => word.length >= 5);
const long = () => LONG[Math.floor(random() * LONG.length)];
const misspelt = (word) => {
  const at = Math.floor(word.length / 2);
  return word.slice(0, at) + (word[at] === 'z' ? 'y' : 'z') + word.slice(at + 1);
};
const searchOf = (extra) => () => `${base}/api/bag/search?q=${encodeURIComponent(extra.q())}${extra.params ?? ''}`;
const typoRows = {
  spelt: await measure('plugin search, words of 5+ characters', searchOf({ q: long }), { seconds: SECONDS }),
  typo: await measure('plugin search, the same with a typo', searchOf({ q: () => misspelt(long()) }), { seconds: SECONDS }),
  facets: await measure('plugin search, with facets=category,tag,locale', searchOf({ q: long, params: '&facets=category,tag,locale' }), { seconds: SECONDS }),
  suggest: await measure('suggest, first 3 letters', () => `${base}/api/bag/search/suggest?q=${encodeURIComponent(long().slice(0, 3))}`, { seconds: SECONDS }),
};
const ratio = (a, b) => (a && b && !a.failed && !b.failed ? Number((a / b).toFixed(2)) : null);
const typoRatios = {
  typoP95OverSpelt: ratio(typoRows.typo.p95, typoRows.spelt.p95),
  facetsP95OverPlain: ratio(typoRows.facets.p95, typoRows.spelt.p95),
  suggestRpsOverSearch: ratio(typoRows.suggest.rps, plugin.rps),
};
log(`typo p95 / spelt p95 = ${typoRatios.typoP95OverSpelt} (target <= 2); facets p95 / without = ${typoRatios.facetsP95OverPlain} (<= 1.5); suggest req/s / search req/s = ${typoRatios.suggestRpsOverSearch} (>= 5)`);
const hostUrl = () => {
  const q = encodeURIComponent(query());
  return (
    `${base}/api/host/articles?status=published&locale=en&pagination[pageSize]=10` +
    `&filters[$or][0][title][$containsi]=${q}&filters[$or][1][summary][$containsi]=${q}&filters[$or][2][content][$containsi]=${q}`
  );
};
const hostRow = await measure('host REST $containsi', hostUrl, { requests: HOST_REQUESTS });
if (!plugin.failed && !hostRow.failed) {
  log(`speed-up: ${(plugin.rps / hostRow.rps).toFixed(1)}x req/s; plugin p99/p50 = ${(plugin.p99 / plugin.p50).toFixed(2)}`);
}
if (process.env.BENCH_JSON) {
  const sample = { q: VOCABULARY[10], total: check.meta?.pagination?.total ?? null };
  const summary = {
    articles: ARTICLES,
    seconds: SECONDS,
    concurrency: CONCURRENCY,
    hostRequests: HOST_REQUESTS,
    seededMs: seeded,
    indexBuildMs: built,
    ensureIndexReturnedMs: bootstrapReturned,
    sample,
    plugin,
    host: hostRow,
    typos: { ...typoRows, ...typoRatios },
    indexBytes,
  };
  fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(summary, null, 2));
}

await strapi.destroy();
if (postgres) await dropDatabase(process.env.DATABASE_NAME);
else fs.rmSync(path.dirname(process.env.DATABASE_FILENAME), { recursive: true, force: true });
process.exit(0);
