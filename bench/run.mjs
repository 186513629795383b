#!/usr/bin/env node
/**
 * `npm run bench [-- --quick] [-- --no-build] [-- --duration=10] [-- --connections=10] [-- --db=postgres]`
 * `npm run bench -- --scale[=10000,100000,1000000]`: the scale run instead (bench/lib/scale.mjs)
 * (`-- --only=boot`: the boot comparison alone; `-- --only=lighthouse`: Lighthouse on the blog starter, bench/lighthouse.mjs)
 *
 * Builds the plugin, compiles the playground, seeds a fresh database (bench/seed.mjs; SQLite, or PostgreSQL with
 * `--db=postgres`), then boots the playground in production mode in child processes (bench/server.mjs) and drives
 * them from this process with autocannon:
 *   1. the plugin as configured by default (response cache on) beside the host's own REST API over the same
 *      content types (bench/lib/host-api.mjs) and that API behind @strapi-community/plugin-rest-cache: the pairs,
 *      the rest-cache hits, the locale rows, the floor and absolute rows, 304 revalidations, cache misses;
 *   2. the same data with the cache off, the host's REST API beside it: the uncached path of every pair in turns with
 *      the host's read (as Public, then both with the host's API token), the locale rows, the paged threads, the
 *      deepest allowed list query;
 *   3. two fresh servers, cache off and a small cache.maxBytes: RSS after many distinct URLs;
 *   4. discovery at scale: full-text search against the host's `$containsi` and the whole sitemap, on a
 *      database of their own with 100,000 published articles (`--quick`: 2,000), by scripts/search-bench.mjs and
 *      scripts/discovery-sitemap-memory.mjs;
 * then boots the playground with and without the plugin to compare boot time and memory. Prints the table and
 * writes bench/results/latest.{md,json} (PostgreSQL: latest-postgres.*; `--quick`: 1 s per endpoint, small data,
 * quick.* / quick-postgres.*).
 *
 * An endpoint that answers an error is a failed row, not a crash. The exit code is non-zero only when the harness
 * itself is broken: seeding, booting, `/_health`, a host or rest-cache comparator failing.
 *
 * The parts live in bench/lib/: options.mjs (the command line), server-process.mjs (child processes, booting and
 * stopping a server, the boot-time comparison), scenarios.mjs (the rows), measure.mjs (probe and load),
 * query-plans.mjs (the index EXPLAINs) and report.mjs (targets and the Markdown table); this file runs them in order.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { spawnSync } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND } from './lib/app.mjs';
import {
  BOOT_ONLY,
  CONNECTIONS,
  DB,
  DISCOVERY_ARTICLES,
  DISCOVERY_SECONDS,
  DURATION,
  flag,
  log,
  ONLY,
  QUICK,
  RESULT_NAME,
  RESULTS,
  RSS_MAX_BYTES,
  RSS_URLS,
  SCALE,
  selected,
  SMALL_MAX_BYTES,
  SMALL_URLS,
  TMP,
} from './lib/options.mjs';
import { ask, baseEnv, bootServer, database, exited, measureBoot, start, stopServer } from './lib/server-process.mjs';
import {
  cachedReads,
  floorKey,
  json,
  localeRows,
  misses,
  pairs,
  repeats,
  revalidations,
  rssRequest,
  singles,
  smallEntryRequest,
  threads,
} from './lib/scenarios.mjs';
import { cannon, capture, deepestAllowedQuery, floorOf, measure, measureInTurns, probe, revalidation as revalidationOf } from './lib/measure.mjs';
import { queryPlans } from './lib/query-plans.mjs';
import { scaleRun } from './lib/scale.mjs';
import { bootMarkdown, evaluate, evaluateBoot, fmt, markdown } from './lib/report.mjs';
import { percentiles, withLoadGeneratorHeap } from './lib/load-generator.mjs';

// autocannon runs in this process: with a heap its size (bench/lib/load-generator.mjs).
withLoadGeneratorHeap();

const require = createRequire(import.meta.url);

/**
 * RSS of a fresh server after `RSS_URLS` distinct article-list URLs, against its RSS after a warm-up on one URL (both
 * after a full garbage collection, once RSS has settled: bench/server.mjs); `config`: the plugin configuration of
 * that server.
 */
async function memoryAfterDistinctUrls(db, config, request = rssRequest(), urls = RSS_URLS) {
  const server = await bootServer({ db, config });
  try {
    const first = await probe(server, request);
    if (!first.ok) return { path: request.path, failed: first.error };
    await cannon(server, { path: request.path.replace('<n>', 'warm') }, { amount: 200 });
    const before = await ask(server, { type: 'memory', gc: true });
    const result = await cannon(server, request, { amount: urls });
    await ask(server, { type: 'idle' });
    const after = await ask(server, { type: 'memory', gc: true });
    return {
      path: request.path,
      urls,
      bytes: first.bytes,
      rps: result.requests.total / result.duration,
      ...percentiles(result.latenciesMs),
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      beforeBytes: before.rssBytes,
      afterBytes: after.rssBytes,
      growthBytes: after.rssBytes - before.rssBytes,
      heapUsedBeforeBytes: before.heapUsedBytes,
      heapUsedAfterBytes: after.heapUsedBytes,
      retainedGrowthBytes: after.retainedBytes - before.retainedBytes,
      // Where RSS is: V8's resident heap, malloc's main arena, and array buffers' bytes (the cache's region among them).
      parts: Object.fromEntries(
        ['v8HeapBytes', 'mallocHeapBytes', 'anonymousBytes', 'fileBytes', 'arrayBuffersBytes'].map((name) => [name, { before: before[name], after: after[name] }]),
      ),
      // V8's heap by space (committed, used and resident bytes), before and after.
      heapSpaces: { before: before.heapSpaces, after: after.heapSpaces },
    };
  } finally {
    await stopServer(server);
  }
}

/**
 * The memory bound: the same distinct URLs on a server with `cache.maxBytes` = RSS_MAX_BYTES and on one with the
 * cache off, each fresh. What the cache holds is the difference of their RSS afterwards: a process's RSS also grows
 * with what serving that many requests leaves (V8's committed heap, the allocator's arenas, the database's pages),
 * which the cache-off server shows alone.
 */
async function memoryRow(db) {
  const off = await memoryAfterDistinctUrls(db, { cache: { enabled: false } });
  const on = await memoryAfterDistinctUrls(db, { cache: { maxBytes: RSS_MAX_BYTES } });
  const failed = on.failed ?? off.failed;
  return {
    ...on,
    maxBytes: RSS_MAX_BYTES,
    off,
    ...(failed ? { failed } : { overOffBytes: on.afterBytes - off.afterBytes }),
  };
}

/**
 * The bound with small entries, where what an entry costs besides its key and body matters most: distinct small
 * answers filling `cache.maxBytes` = SMALL_MAX_BYTES one and a half times over, against the same on a server with the
 * cache off; the difference of their RSS is what the cache holds.
 */
async function smallEntriesRow(db) {
  const off = await memoryAfterDistinctUrls(db, { cache: { enabled: false } }, smallEntryRequest(), SMALL_URLS);
  const on = await memoryAfterDistinctUrls(db, { cache: { maxBytes: SMALL_MAX_BYTES } }, smallEntryRequest(), SMALL_URLS);
  const failed = on.failed ?? off.failed;
  return { ...on, maxBytes: SMALL_MAX_BYTES, off, ...(failed ? { failed } : { overOffBytes: on.afterBytes - off.afterBytes }) };
}

/**
 * Runs one discovery script (scripts/search-bench.mjs, scripts/discovery-sitemap-memory.mjs) as a child process on
 * the run's database server (the script makes and removes its own database there) and returns the figures it
 * writes to BENCH_JSON, or `{ failed }`.
 */
function discoveryScript(db, script, args, env) {
  const output = path.join(TMP, `bench-${RESULT_NAME}-${path.basename(script, '.mjs')}.json`);
  fs.rmSync(output, { force: true });
  const run = spawnSync(process.execPath, [...args, path.join(ROOT, 'scripts', script), String(DISCOVERY_ARTICLES)], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...baseEnv, ...db.env, ...env, BENCH_JSON: output },
    maxBuffer: 64 * 2 ** 20,
  });
  for (const line of `${run.stdout}`.split('\n').filter((l) => /^\[search-bench|^\/api|^index and|^seeded/.test(l))) log(line);
  if (run.status !== 0 || !fs.existsSync(output)) {
    return { failed: `${script} exited ${run.status}: ${`${run.stderr}`.trim().split('\n').slice(-3).join(' / ')}` };
  }
  return JSON.parse(fs.readFileSync(output, 'utf8'));
}

function discoveryRows(db) {
  log(`discovery: search and sitemap on ${DISCOVERY_ARTICLES} published articles (their own database)`);
  const search = discoveryScript(db, 'search-bench.mjs', [], {
    SEARCH_BENCH_ARTICLES: String(DISCOVERY_ARTICLES),
    SEARCH_BENCH_SECONDS: String(DISCOVERY_SECONDS),
    SEARCH_BENCH_CONCURRENCY: String(CONNECTIONS),
  });
  const sitemap = discoveryScript(db, 'discovery-sitemap-memory.mjs', ['--expose-gc'], {});
  return { articles: DISCOVERY_ARTICLES, search, sitemap };
}

/** `--only=boot`: the boot comparison alone, on databases of its own (nothing seeded), written to boot.*. */
async function bootComparison(began, machine) {
  log('measuring boot time and RSS with and without the plugin');
  const results = { date: new Date().toISOString(), quick: QUICK, database: DB, machine, boot: await measureBoot() };
  evaluateBoot(results);
  writeResults(results, began, bootMarkdown);
}

/** Writes bench/results/<RESULT_NAME>.md (from `toMarkdown`) and .json, and prints the Markdown. */
function writeResults(results, began, toMarkdown) {
  results.totalS = (Date.now() - began) / 1000;
  const md = toMarkdown(results);
  fs.writeFileSync(path.join(RESULTS, `${RESULT_NAME}.md`), md);
  fs.writeFileSync(path.join(RESULTS, `${RESULT_NAME}.json`), JSON.stringify(results, null, 2) + '\n');
  console.log(`\n${md}`);
  log(`done in ${results.totalS.toFixed(0)} s; wrote bench/results/${RESULT_NAME}.md and .json`);
}

async function main() {
  const began = Date.now();
  fs.mkdirSync(TMP, { recursive: true });
  fs.mkdirSync(RESULTS, { recursive: true });
  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };

  if (!flag('no-build')) {
    log('building the plugin');
    const build = spawnSync('npm', ['run', 'build'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  log('compiling the playground');
  const { compileStrapi } = require('@strapi/strapi');
  await compileStrapi({ appDir: PLAYGROUND });
  // `--scale`: how cost grows with the number of articles, a run of its own (bench/lib/scale.mjs).
  if (SCALE) return scaleRun();
  if (BOOT_ONLY) return bootComparison(began, machine);
  // `--only=lighthouse`: Lighthouse on the blog starter (bench/lighthouse.mjs; not part of `--quick`), its own run.
  if (ONLY === 'lighthouse') {
    if (!flag('no-build') && spawnSync('npm', ['run', 'build:starter'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('npm run build:starter failed');
    const run = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'lighthouse.mjs'), '--no-build'], { cwd: ROOT, stdio: 'inherit' });
    process.exitCode = run.status ?? 1;
    return;
  }

  const db = database(`bench-${RESULT_NAME}`);
  const fixturesFile = path.join(TMP, `bench-${RESULT_NAME}-fixtures.json`);
  await db.reset();
  log(`seeding ${db.label} (${QUICK ? 'quick' : 'full'} data)`);
  const seeder = start('seed.mjs', {
    ...baseEnv,
    ...db.env,
    BENCH_SCALE: QUICK ? 'quick' : 'full',
    BENCH_FIXTURES: fixturesFile,
  });
  if ((await exited(seeder)) !== 0) throw new Error(`seeding failed:\n${seeder.output()}`);
  const fx = JSON.parse(fs.readFileSync(fixturesFile, 'utf8'));
  log(`seeded in ${(fx.seedMs / 1000).toFixed(1)} s: ${JSON.stringify(fx.counts)}`);

  const results = {
    date: new Date().toISOString(),
    quick: QUICK,
    database: DB,
    machine,
    connections: CONNECTIONS,
    durationS: DURATION,
    counts: fx.counts,
    seedMs: fx.seedMs,
    pairs: [],
    locales: [],
    revalidations: [],
    misses: [],
    cachedReads: [],
    repeats: [],
    threads: [],
    singles: [],
  };
  const row = async (server, name, request, options) => {
    const measured = { name, ...(await measure(server, request, options)) };
    log(`${name}${options?.label ? ` (${options.label})` : ''}: ${measured.failed ?? `${fmt(measured.rps)} req/s`}`);
    return measured;
  };
  // A row judged against another, the two measured in turns (bench/lib/measure.mjs): `reference` holds the other's.
  const rowInTurns = async (server, name, request, reference, options) => {
    const { referenceServer, stalls, beforeTurn } = options ?? {};
    const measured = { name, ...(await measureInTurns(server, request, reference, { referenceServer, stalls, beforeTurn })) };
    log(
      `${name}${options?.label ? ` (${options.label})` : ''}: ${
        measured.failed ?? `${fmt(measured.rps)} req/s, in turns with ${reference.path}: ${fmt(measured.reference.rps)} req/s`
      }`,
    );
    return measured;
  };
  // The same-size floor of a cached read, measured right after it: its answer (a hit by then) captured and served
  // again by the host from a Buffer, with the same autocannon settings.
  let health;
  const floorRow = async (server, name, request, measuredRow) => {
    if (!measuredRow || measuredRow.failed) return { name: `${name}: same-size floor`, failed: 'its row failed' };
    health ??= await capture(server, { path: '/_health' });
    const floor = await floorOf(server, floorKey(name), request, health);
    if (floor.failed) return { name: `${name}: same-size floor`, failed: floor.failed };
    const measured = await row(server, `${name}: same-size floor`, floor);
    // A detail's body carries its view count, a few digits that grow while it is measured.
    return measured.failed || Math.abs(measured.bytes - measuredRow.bytes) <= 16
      ? measured
      : { ...measured, failed: `${measured.bytes} bytes, the row sends ${measuredRow.bytes}` };
  };
  // A locale row is measured with the row it is judged against (so `--only=locale` measures both), a 304 with the
  // floor.
  const chosenLocales = localeRows(fx).filter((l) => selected(l.name) || selected(l.base));
  // A cached read is measured with its floor (so `--only=same-size floor` measures every cached read and its floor).
  const withFloor = (name) => selected(name) || selected(`${name}: same-size floor`);
  const pairsToMeasure = pairs(fx).filter((p) => withFloor(p.name) || chosenLocales.some((l) => l.base === p.name));

  // 1. The plugin as configured by default (response cache on), the host's REST API and rest-cache beside it.
  const server = await bootServer({ db, withHostApi: true, restCache: true });
  log(`server (cache on, host API, rest-cache) up at ${server.url} in ${server.bootMs.toFixed(0)} ms`);
  try {
    if (DB === 'sqlite' && !ONLY) results.plans = await queryPlans(server, fx, db);
    for (const pair of pairsToMeasure) {
      const bag = await row(server, pair.name, pair.bag, { stalls: true, label: 'cache on' });
      const floor = await floorRow(server, pair.name, pair.bag, bag);
      // The locale rows right after the row they are judged against, so that both see the same load.
      for (const locale of chosenLocales.filter((l) => l.base === pair.name)) {
        results.locales.push({
          base: locale.base,
          cache: 'on',
          ...(await rowInTurns(server, locale.name, locale, pair.bag, { label: 'cache on' })),
        });
      }
      const host = await row(server, `${pair.name}: host`, pair.host);
      let restCache;
      if (pair.restCache) {
        // Its first answer fills its cache; every later one must be a hit.
        await probe(server, pair.restCache);
        restCache = await row(server, `${pair.name}: rest-cache hits`, {
          ...pair.restCache,
          check: (body, headers) => (headers['x-cache'] === 'HIT' ? null : `X-Cache: ${headers['x-cache']}, not HIT`),
        });
      }
      results.pairs.push({
        name: pair.name,
        target: pair.target,
        cachedTarget: pair.cachedTarget,
        restCacheTarget: pair.restCacheTarget,
        stallMs: pair.stallMs,
        cachedStallMs: pair.cachedStallMs,
        bag,
        floor,
        host,
        restCache,
      });
    }
    for (const read of cachedReads(fx).filter((r) => withFloor(r.name))) {
      const bag = await row(server, read.name, read, { label: 'cache on' });
      results.cachedReads.push({ name: read.name, path: read.path, bag, floor: await floorRow(server, read.name, read, bag) });
    }
    const floorNeeded = revalidations(fx).some((r) => selected(r.name));
    for (const single of singles(fx).filter((s) => selected(s.name) || (s.floor && floorNeeded))) {
      let request = single;
      if (single.needsRefreshToken) {
        const login = await probe(server, singles(fx).at(-1));
        const refreshToken = login.body?.refreshToken ?? null;
        if (!refreshToken) {
          results.singles.push({
            name: single.name,
            path: single.path,
            method: 'POST',
            failed: `no refresh token: login ${login.error ?? 'gave none'}`,
          });
          continue;
        }
        request = { ...single, ...json({ refreshToken }) };
      }
      results.singles.push({ floor: single.floor, ...(await row(server, single.name, request)) });
    }
    for (const revalidation of revalidations(fx).filter((r) => selected(r.name))) {
      const request = await revalidationOf(server, revalidation);
      const measured = request.failed
        ? { name: revalidation.name, path: revalidation.path, method: 'GET', failed: request.failed }
        : await rowInTurns(server, revalidation.name, request, { path: '/_health' });
      results.revalidations.push({ ...measured, path: revalidation.path });
      if (request.failed) log(`${revalidation.name}: ${request.failed}`);
    }
    // A miss in turns with the same sequence on a server with the cache off (booted for it, same database).
    const chosenMisses = misses().filter((m) => selected(m.name));
    if (chosenMisses.length > 0) {
      const off = await bootServer({ db, config: { cache: { enabled: false } } });
      try {
        for (const miss of chosenMisses) {
          const measured = await rowInTurns(server, miss.name, miss, miss, { label: 'cache on', referenceServer: off });
          results.misses.push({ name: miss.name, path: miss.path, miss: measured, off: measured.reference });
        }
      } finally {
        await stopServer(off);
      }
    }
    for (const repeat of repeats().filter((r) => selected(r.name))) {
      const on = await row(server, repeat.name, repeat, { label: 'cache on' });
      const floor = await floorRow(server, repeat.name, repeat, on);
      results.repeats.push({ name: repeat.name, path: repeat.path, on, floor });
    }
  } finally {
    await stopServer(server);
  }

  // 2. The uncached path: the same rows with the response cache off (a second boot, same data), each in turns with the
  // host's read on this server, authenticated alike: as Public, then both with the host comparator's API token.
  const uncached = await bootServer({ db, withHostApi: true, config: { cache: { enabled: false } } });
  log(`server (cache off, host API) up at ${uncached.url} in ${uncached.bootMs.toFixed(0)} ms`);
  try {
    for (const pair of pairsToMeasure) {
      const { bag, host } = pairs(fx).find((p) => p.name === pair.name);
      const result = results.pairs.find((p) => p.name === pair.name);
      const hostAsPublic = { ...host, headers: undefined };
      result.uncached = await rowInTurns(uncached, pair.name, bag, hostAsPublic, { stalls: true, label: 'cache off, as Public' });
      // With the token neither side pays the Public role's permission read and ability (the host's users-permissions
      // builds them on every request), so this pair compares the reads alone.
      const bagWithToken = { ...bag, headers: { ...bag.headers, ...host.headers } };
      result.uncachedSameAuth = await rowInTurns(uncached, pair.name, bagWithToken, host, { label: "cache off, host's token" });
      // The list's 2× is judged against the host without the plugin's indexes: the plugin's read in turns with the
      // host's, on both authentications, the indexes dropped before each of the host's turns and put back before the
      // plugin's.
      if (pair.targetWithoutIndexes) {
        const beforeTurn = (side) => ask(uncached, { type: 'indexes', drop: side === 'reference' });
        try {
          result.uncachedWithoutIndexes = await rowInTurns(uncached, pair.name, bag, hostAsPublic, {
            label: "cache off, as Public, the host without the plugin's indexes",
            beforeTurn,
          });
          result.uncachedSameAuthWithoutIndexes = await rowInTurns(uncached, pair.name, bagWithToken, host, {
            label: "cache off, host's token, the host without the plugin's indexes",
            beforeTurn,
          });
        } finally {
          await ask(uncached, { type: 'indexes', drop: false });
        }
      }
      for (const locale of chosenLocales.filter((l) => l.base === pair.name)) {
        results.locales.push({
          base: locale.base,
          cache: 'off',
          ...(await rowInTurns(uncached, locale.name, locale, bag, { label: 'cache off' })),
        });
      }
    }
    for (const repeat of repeats().filter((r) => selected(r.name))) {
      results.repeats.find((r) => r.name === repeat.name).off = await row(uncached, repeat.name, repeat, { label: 'cache off' });
    }
    for (const thread of threads(fx).filter((t) => selected(t.name))) {
      results.threads.push(await row(uncached, thread.name, thread, { stalls: true, label: 'cache off' }));
    }
    // One request at a time, the same URL 50 times (then the host's REST the same query as many): with the cache on
    // it would time the cache.
    if (selected('deepest allowed list query')) {
      results.deepQuery = await deepestAllowedQuery(uncached);
      const { failed, p50, database, host } = results.deepQuery;
      const sides = (side) => `${fmt(side.p50, 1)} ms, its SELECTs alone ${fmt(side.database.ms, 1)} ms`;
      log(`deepest allowed list query: ${failed ?? `p50 ${sides({ p50, database })} (host: ${host.failed ?? sides(host)})`}`);
    }
  } finally {
    await stopServer(uncached);
  }

  // 3. Memory: distinct URLs on a server whose cache may hold RSS_MAX_BYTES.
  if (!ONLY || selected('memory')) {
    log(`memory: ${RSS_URLS} distinct URLs with cache.maxBytes ${RSS_MAX_BYTES / 2 ** 20} MiB`);
    results.memory = await memoryRow(db);
    const m = results.memory;
    log(
      `memory: ${m.failed ?? `RSS ${fmt(m.afterBytes / 2 ** 20, 1)} MB (cache off: ${fmt(m.off.afterBytes / 2 ** 20, 1)} MB)`}`,
    );
  }

  if (!ONLY || selected('small entries')) {
    log(`small entries: ${SMALL_URLS} distinct small answers with cache.maxBytes ${SMALL_MAX_BYTES / 2 ** 20} MiB`);
    results.smallEntries = await smallEntriesRow(db);
    const m = results.smallEntries;
    log(`small entries: ${m.failed ?? `RSS ${fmt(m.afterBytes / 2 ** 20, 1)} MB (cache off: ${fmt(m.off.afterBytes / 2 ** 20, 1)} MB)`}`);
  }

  if (DB === 'postgres') await db.drop();
  // 4. Discovery at scale: search and the sitemap on a database of their own (DISCOVERY_ARTICLES articles).
  if (!ONLY || selected('search') || selected('sitemap')) results.discovery = discoveryRows(db);
  if (!ONLY) {
    log('measuring boot time and RSS with and without the plugin');
    results.boot = await measureBoot();
  }
  evaluate(results);
  writeResults(results, began, markdown);

  const broken = [
    ...results.pairs.filter((p) => p.host.failed).map((p) => `host comparator for ${p.name}: ${p.host.failed}`),
    ...results.pairs
      .filter((p) => p.restCache?.failed)
      .map((p) => `rest-cache comparator for ${p.name}: ${p.restCache.failed}`),
    ...results.singles.filter((s) => s.floor && s.failed).map((s) => `${s.name}: ${s.failed}`),
  ];
  if (broken.length > 0) {
    console.error(`[bench] harness broken:\n  ${broken.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(`[bench] ${error.stack ?? error}`);
  process.exit(1);
});
