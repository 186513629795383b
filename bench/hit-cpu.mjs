#!/usr/bin/env node
/**
 * `node bench/hit-cpu.mjs [checkout …] [--rounds=<n>] [--count=<n>]`: the server CPU time per request of the response
 * cache's hits, its 304s and the uncached details, in this checkout and any others given (e.g. an earlier commit,
 * built), rounds alternating between them.
 *
 * CPU time of the server process (user + system, from /proc) over sequential requests, as bench/comment-cpu.mjs does:
 * on a machine busy with other work it moves far less than req/s. `/_health` (no body) is the reference a 304 is
 * judged against; a cached read's same-size floor costs about `/_health` plus the socket write of its bytes. Each
 * checkout uses the database its own `node bench/run.mjs --only=<row>` seeded (run that first in each). The server
 * is booted with the cache on (every cached read a hit after its first request), then off (the uncached details, which
 * pay the view count's UPDATE; the host's own detail needs the API token of the run that seeded, so it is not here).
 */
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { compareCheckouts, cpuMs, median } from './lib/cpu-compare.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const checkouts = [here, ...args.filter((arg) => !arg.startsWith('--')).map((dir) => path.resolve(dir))];
const option = (name, fallback) => Number(args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROUNDS = option('rounds', 3);
const COUNT = option('count', 2000);


async function measure(checkout) {
  const server = await import(path.join(checkout, 'bench', 'lib', 'server-process.mjs'));
  const { pairs, cachedReads, floorKey } = await import(path.join(here, 'bench', 'lib', 'scenarios.mjs'));
  const { capture, floorOf } = await import(path.join(here, 'bench', 'lib', 'measure.mjs'));
  const fx = JSON.parse(fs.readFileSync(path.join(checkout, 'playground', '.tmp', 'bench-only-fixtures.json'), 'utf8'));
  const db = server.database('bench-only');
  const all = pairs(fx);
  const bag = (name) => all.find((pair) => pair.name === name).bag.path;
  const cached = [
    ['/_health', { path: '/_health', status: 204 }],
    ...['articles list', 'article detail', 'page detail', 'menu', 'banners/home', 'feed (RSS 2.0)'].map((name) => [name, { path: bag(name), floor: true }]),
    ...cachedReads(fx).map(({ name, path: url }) => [name, { path: url, floor: true }]),
    ['304 articles list', { path: bag('articles list'), revalidate: true }],
    ['304 article detail', { path: bag('article detail'), revalidate: true }],
  ];
  const uncached = [
    ['article detail', { path: bag('article detail') }],
    ['page detail', { path: bag('page detail') }],
  ];
  const result = {};
  for (const [label, config, rows, count] of [
    ['cache on', {}, cached, COUNT],
    ['cache off', { cache: { enabled: false } }, uncached, Math.ceil(COUNT / 4)],
  ]) {
    const booted = await server.bootServer({ db, config, withHostApi: true });
    try {
      const health = await capture(booted, { path: '/_health' });
      const withFloors = rows.flatMap(([name, row]) => (row.floor ? [[name, row], [`${name}: same-size floor`, { ...row, floorOf: name }]] : [[name, row]]));
      for (const [name, found] of withFloors) {
        // A cached read's floor: its answer (a hit by then) served by the host from one Buffer (docs/benchmark.md).
        const row = found.floorOf ? { path: (await floorOf(booted, floorKey(found.floorOf), { path: found.path }, health)).path } : found;
        const headers = {};
        const first = await fetch(booted.url + row.path, { headers });
        await first.arrayBuffer();
        if (row.revalidate) headers['if-none-match'] = first.headers.get('etag');
        const want = row.revalidate ? 304 : (row.status ?? 200);
        const get = async () => {
          const res = await fetch(booted.url + row.path, { headers });
          if (res.status !== want) throw new Error(`${row.path}: ${res.status}, want ${want}`);
          await res.arrayBuffer();
        };
        for (let i = 0; i < 200; i += 1) await get();
        const before = cpuMs(booted.child.pid);
        for (let i = 0; i < count; i += 1) await get();
        result[`${name}, ${label}`] = (cpuMs(booted.child.pid) - before) / count;
      }
    } finally {
      await server.stopServer(booted);
    }
  }
  return result;
}

const runs = await compareCheckouts(checkouts, ROUNDS, measure, 3);
const names = Object.keys(runs.get(checkouts[0])[0]);
// Throughput follows CPU per request when the server is the bottleneck: a row's ratio to its floor (or a 304's to
// `/_health`) is the floor's CPU over the row's.
console.log(`\n| ratio (floor CPU / row CPU) | ${checkouts.map((c) => path.basename(c)).join(' | ')} |`);
console.log(`|---|${checkouts.map(() => '---:').join('|')}|`);
const reference = (name) => (name.startsWith('304') ? '/_health, cache on' : name.replace(', cache on', ': same-size floor, cache on'));
for (const name of names.filter((n) => n.endsWith(', cache on') && !n.includes('floor') && !n.includes('host') && n !== '/_health, cache on')) {
  const cells = checkouts.map((checkout) => {
    const of = (row) => median(runs.get(checkout).map((r) => r[row]));
    return `${(of(reference(name)) / of(name)).toFixed(2)}×`;
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
