#!/usr/bin/env node
/**
 * `node bench/uncached-cpu.mjs [--rows=<pair>,<pair>] [--rounds=<n>] [--count=<n>] [--run=latest]`: the uncached pairs'
 * server CPU time per request, the plugin's read and the host's, each as Public and with the host comparator's API
 * token, on one server with the response cache off and the host comparator API loaded (rounds alternating).
 *
 * CPU time of the server process (user + system, from /proc) over sequential requests, as bench/list-cpu.mjs measures
 * it: it tells what each read costs the server, where req/s at 10 connections on two cores also carries the load
 * generator's share. Uses the SQLite database and fixtures `node bench/run.mjs` left (`--run=<name>`: those of
 * bench/results/<name>.json's run; `latest` by default). Rows: pair names of bench/lib/scenarios.mjs (default: the
 * article and page details).
 */
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { cpuMs, median } from './lib/cpu-compare.mjs';
import { pairs } from './lib/scenarios.mjs';
import * as server from './lib/server-process.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const ROUNDS = Number(argument('rounds', 5));
const COUNT = Number(argument('count', 200));
const RUN = argument('run', 'latest');
const ROWS = argument('rows', 'article detail,page detail').split(',');

const fixtures = path.join(here, 'playground', '.tmp', `bench-${RUN}-fixtures.json`);
if (!fs.existsSync(fixtures)) throw new Error(`no fixtures of the run "${RUN}": run \`node bench/run.mjs\` first`);
const fx = JSON.parse(fs.readFileSync(fixtures, 'utf8'));
const db = server.database(`bench-${RUN}`);
if (db.kind !== 'sqlite') throw new Error('bench/uncached-cpu.mjs reads a SQLite bench database only');
await server.renewHostToken(db, fx.hostToken);

const token = { authorization: `Bearer ${fx.hostToken}` };
const rows = pairs(fx)
  .filter((pair) => ROWS.includes(pair.name))
  .flatMap((pair) => [
    [`${pair.name}: plugin as Public`, pair.bag.path, {}],
    [`${pair.name}: host as Public`, pair.host.path, {}],
    [`${pair.name}: plugin with the token`, pair.bag.path, token],
    [`${pair.name}: host with the token`, pair.host.path, token],
  ]);
if (rows.length === 0) throw new Error(`no pair named ${ROWS.join(' or ')}`);

const booted = await server.bootServer({ db, withHostApi: true, config: { cache: { enabled: false } } });
const samples = new Map();
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, url, headers] of rows) {
      const get = async () => {
        const res = await fetch(booted.url + url, { headers });
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
        await res.arrayBuffer();
      };
      for (let i = 0; i < 5; i += 1) await get();
      const before = cpuMs(booted.child.pid);
      for (let i = 0; i < COUNT; i += 1) await get();
      samples.set(name, [...(samples.get(name) ?? []), (cpuMs(booted.child.pid) - before) / COUNT]);
    }
  }
} finally {
  await server.stopServer(booted);
}
console.log(`| row (server CPU ms per request, median of ${ROUNDS} × ${COUNT}) | ms |`);
console.log('|---|---:|');
for (const [name, values] of samples) console.log(`| ${name} | ${median(values).toFixed(2)} |`);
