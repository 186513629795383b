#!/usr/bin/env node
/**
 * `node bench/locale-cpu.mjs [--rounds=<n>] [--seconds=<s>] [--keep-bodies]`: the server's user and system CPU time
 * per request of the article list's cache hits with `?locale=en` and `?locale=fr`, each against the list without
 * `locale`, and the same for their same-size floors (the host answering each hit's captured bytes from a Buffer,
 * docs/benchmark.md), with the load generator's own CPU time per answer beside them.
 *
 * As the locale rows are measured: one server with the cache on, the host API and rest-cache loaded (the benchmark's
 * first server), 10 connections, slices of `--seconds` (2 by default) alternating between a row and the list it is
 * judged against, `--rounds` (8 by default) times. CPU time from /proc, user and system apart: a gap in system time
 * would be the socket writes of the bytes, one in user time the process's own work. `--keep-bodies`: all of it
 * measured again after, with the load generator keeping the answers' bodies as autocannon does by default (the
 * benchmark does not: bench/lib/load-generator.mjs). Uses the SQLite database and
 * fixtures `node bench/run.mjs --only="articles list ?locale"` left (run that first; a PostgreSQL run drops its
 * database at the end).
 */
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import autocannon, { keepBodies } from './lib/load-generator.mjs';
import { cpuTimes } from './lib/cpu-compare.mjs';
import { capture, floorOf } from './lib/measure.mjs';
import { floorKey } from './lib/scenarios.mjs';
import * as server from './lib/server-process.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROUNDS = option('rounds', 8);
const SECONDS = option('seconds', 2);
// Bodies kept last: the strings they leave are collected over the slices after them.
const CLIENTS = process.argv.includes('--keep-bodies') ? [false, true] : [false];

if (!fs.existsSync(path.join(here, 'playground', '.tmp', 'bench-only-fixtures.json'))) {
  throw new Error('no bench-only fixtures: run `node bench/run.mjs --only="articles list ?locale"` first');
}
const db = server.database('bench-only');
if (db.kind !== 'sqlite') throw new Error('bench/locale-cpu.mjs reads the SQLite bench database only');

const LIST = '/api/bag/articles';
const booted = await server.bootServer({ db, withHostApi: true, restCache: true });
const totals = new Map();
try {
  const health = await capture(booted, { path: '/_health' });
  const floor = async (url) => (await floorOf(booted, floorKey(`locale cpu ${url}`), { path: url }, health)).path;
  // [row, the row it is judged against]
  const pairs = [];
  for (const locale of ['en', 'fr']) {
    const url = `${LIST}?locale=${locale}`;
    pairs.push([url, LIST], [`floor of ${url}`, `floor of ${LIST}`]);
  }
  const paths = new Map([LIST, `${LIST}?locale=en`, `${LIST}?locale=fr`].map((url) => [url, url]));
  for (const url of [...paths.keys()]) paths.set(`floor of ${url}`, await floor(url));
  for (const url of paths.values()) await autocannon({ url: booted.url + url, connections: 10, amount: 2000 });
  for (const keep of CLIENTS) {
    keepBodies(keep);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const pair of pairs) {
        for (const name of pair) {
          const before = cpuTimes(booted.child.pid);
          const client = process.cpuUsage();
          const result = await autocannon({ url: booted.url + paths.get(name), connections: 10, duration: SECONDS });
          if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} answers not 2xx`);
          const after = cpuTimes(booted.child.pid);
          const { user, system } = process.cpuUsage(client);
          const key = `${keep ? 'bodies kept' : 'no bodies'} | ${pair[0]} | ${name}`;
          const sum = totals.get(key) ?? { user: 0, system: 0, client: 0, requests: 0 };
          totals.set(key, {
            user: sum.user + after.user - before.user,
            system: sum.system + after.system - before.system,
            client: sum.client + (user + system) / 1000,
            requests: sum.requests + result.requests.total,
          });
        }
      }
    }
  }
} finally {
  await server.stopServer(booted);
}

const perRequest = (sum, field) => (sum[field] * 1000) / sum.requests;
console.log(
  `| load generator | row, in turns with (${ROUNDS} × ${SECONDS} s each) | server user µs / request | ` +
    'server system µs / request | load generator µs / answer | req/s |',
);
console.log('|---|---|---:|---:|---:|---:|');
for (const [key, sum] of totals) {
  const [client, row, name] = key.split(' | ');
  const label = row === name ? row : `… ${name}`;
  const cells = ['user', 'system', 'client'].map((field) => perRequest(sum, field).toFixed(1));
  console.log(`| ${client} | ${label} | ${cells.join(' | ')} | ${(sum.requests / (ROUNDS * SECONDS)).toFixed(0)} |`);
}
