#!/usr/bin/env node
/**
 * `npm run bench [-- --quick] [-- --no-build] [-- --duration=10] [-- --connections=10]`
 *
 * Builds the plugin, compiles the playground, seeds a fresh SQLite database (bench/seed.mjs), boots the playground
 * in production mode in a child process (bench/server.mjs) with the host's own REST API over the same content types
 * (bench/lib/host-api.mjs), drives every endpoint from this process with autocannon, then boots the playground
 * with and without the plugin to compare boot time and memory. Prints the table and writes
 * bench/results/latest.{md,json} (`--quick`: 1 s per endpoint, small data, bench/results/quick.{md,json}).
 *
 * An endpoint that answers an error is a failed row, not a crash. The exit code is non-zero only when the harness
 * itself is broken: seeding, booting, `/_health` or a host comparator failing.
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
import { CONNECTIONS, DURATION, flag, log, ONLY, QUICK, RESULT_NAME, RESULTS, selected, TMP } from './lib/options.mjs';
import {
  ask,
  baseEnv,
  bootServer,
  dbFile,
  exited,
  measureBoot,
  removeDb,
  start,
  stopServer,
} from './lib/server-process.mjs';
import { json, pairs, singles, threads } from './lib/scenarios.mjs';
import { deepestAllowedQuery, measure, probe } from './lib/measure.mjs';
import { queryPlans } from './lib/query-plans.mjs';
import { evaluate, fmt, markdown } from './lib/report.mjs';

const require = createRequire(import.meta.url);

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

  const db = dbFile(`bench-${RESULT_NAME}.db`);
  const fixturesFile = path.join(TMP, `bench-${RESULT_NAME}-fixtures.json`);
  removeDb(db);
  log(`seeding ${db.abs} (${QUICK ? 'quick' : 'full'} data)`);
  const seeder = start('seed.mjs', {
    ...baseEnv,
    DATABASE_FILENAME: db.env,
    BENCH_SCALE: QUICK ? 'quick' : 'full',
    BENCH_FIXTURES: fixturesFile,
  });
  if ((await exited(seeder)) !== 0) throw new Error(`seeding failed:\n${seeder.output()}`);
  const fx = JSON.parse(fs.readFileSync(fixturesFile, 'utf8'));
  log(`seeded in ${(fx.seedMs / 1000).toFixed(1)} s: ${JSON.stringify(fx.counts)}`);

  const server = await bootServer({ db, withHostApi: true });
  log(`server up at ${server.url} in ${server.bootMs.toFixed(0)} ms`);
  const results = {
    date: new Date().toISOString(),
    quick: QUICK,
    machine,
    connections: CONNECTIONS,
    durationS: DURATION,
    counts: fx.counts,
    seedMs: fx.seedMs,
    pairs: [],
    threads: [],
    singles: [],
  };
  try {
    results.plans = await queryPlans(server, fx, db);
    for (const pair of pairs(fx).filter((p) => selected(p.name))) {
      const bag = await measure(server, pair.bag, { stalls: true });
      const host = await measure(server, pair.host);
      let hostWithoutIndexes;
      if (pair.targetWithoutIndexes) {
        await ask(server, { type: 'indexes', drop: true });
        try {
          hostWithoutIndexes = await measure(server, pair.host);
        } finally {
          await ask(server, { type: 'indexes', drop: false });
        }
      }
      results.pairs.push({ name: pair.name, target: pair.target, bag, host, hostWithoutIndexes });
      log(
        `${pair.name}: bag ${bag.failed ?? `${fmt(bag.rps)} req/s`} · host ${host.failed ?? `${fmt(host.rps)} req/s`}`,
      );
    }
    for (const thread of threads(fx).filter((t) => selected(t.name))) {
      const row = { name: thread.name, ...(await measure(server, thread, { stalls: true })) };
      results.threads.push(row);
      log(`${thread.name}: ${row.failed ?? `${fmt(row.rps)} req/s`}`);
    }
    if (!ONLY) {
      results.deepQuery = await deepestAllowedQuery(server);
      log(`deepest allowed list query: ${results.deepQuery.failed ?? `p50 ${fmt(results.deepQuery.p50, 1)} ms`}`);
    }
    let refreshToken = null;
    for (const single of singles(fx).filter((s) => selected(s.name))) {
      let request = single;
      if (single.needsRefreshToken) {
        const login = await probe(server, singles(fx).at(-1));
        refreshToken = login.body?.refreshToken ?? null;
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
      const row = {
        name: single.name,
        floor: single.floor,
        ...(await measure(server, request)),
      };
      results.singles.push(row);
      log(`${single.name}: ${row.failed ?? `${fmt(row.rps)} req/s`}`);
    }
  } finally {
    await stopServer(server);
  }

  if (!ONLY) {
    log('measuring boot time and RSS with and without the plugin');
    results.boot = await measureBoot();
  }
  evaluate(results);
  results.totalS = (Date.now() - began) / 1000;

  const md = markdown(results);
  fs.writeFileSync(path.join(RESULTS, `${RESULT_NAME}.md`), md);
  fs.writeFileSync(path.join(RESULTS, `${RESULT_NAME}.json`), JSON.stringify(results, null, 2) + '\n');
  console.log(`\n${md}`);
  log(`done in ${results.totalS.toFixed(0)} s; wrote bench/results/${RESULT_NAME}.md and .json`);

  const broken = [
    ...results.pairs.filter((p) => p.host.failed).map((p) => `host comparator for ${p.name}: ${p.host.failed}`),
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
