#!/usr/bin/env node
/**
 * `node bench/miss-cpu.mjs [--rounds=<n>] [--count=<n>] [--connections=<n>] [--cpu-prof]`: what a cache miss costs
 * over the same request with the cache off, in server CPU time per request (as bench/list-cpu.mjs measures it;
 * steadier than req/s on a busy machine).
 * Two servers on the SQLite database `node bench/run.mjs --only="articles list"` seeded (run that first), one with the
 * response cache on and one with it off, are sent the bench's miss row in turns: the article list with a filter whose
 * value is new on every request, so every request on the first server is a miss that is then kept; one after another,
 * or `--connections` at once as the bench sends them. With `--cpu-prof`, both servers also write a .cpuprofile to
 * playground/.tmp/profiles/miss-<on|off>/.
 */
import autocannon from './lib/load-generator.mjs';
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { cpuMs, median } from './lib/cpu-compare.mjs';
import * as server from './lib/server-process.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROUNDS = option('rounds', 5);
const COUNT = option('count', 200);
const PROFILE = process.argv.includes('--cpu-prof');
/** Requests sent at once (autocannon, as the bench's rows are); 1: one after another with fetch. */
const CONNECTIONS = option('connections', 1);

const db = server.database('bench-only');
if (db.kind !== 'sqlite') throw new Error('bench/miss-cpu.mjs reads the SQLite bench database only');
const profiles = (name) => path.join(here, 'playground', '.tmp', 'profiles', `miss-${name}`);
const boot = async (name, config) => {
  if (PROFILE) fs.rmSync(profiles(name), { recursive: true, force: true });
  return server.bootServer({ db, config, execArgv: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profiles(name)}`] : [] });
};
const servers = { on: await boot('on', { cache: { enabled: true } }), off: await boot('off', { cache: { enabled: false } }) };
let n = 0;
const samples = { on: [], off: [] };
const run = async (name) => {
  const booted = servers[name];
  const next = () => {
    n += 1;
    return `/api/bag/articles?filters[title][$ne]=miss-${process.pid}-${n}`;
  };
  const get = async () => {
    const res = await fetch(booted.url + next());
    if (res.status !== 200) throw new Error(`${res.status}`);
    await res.arrayBuffer();
  };
  const load = async (amount) => {
    if (CONNECTIONS === 1) {
      for (let i = 0; i < amount; i += 1) await get();
      return;
    }
    const result = await autocannon({
      url: booted.url,
      connections: CONNECTIONS,
      amount,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: next() }) }],
    });
    if (result.non2xx || result.errors) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  };
  await load(CONNECTIONS * 5);
  const before = cpuMs(booted.child.pid);
  await load(COUNT);
  samples[name].push((cpuMs(booted.child.pid) - before) / COUNT);
};
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    await run('on');
    await run('off');
  }
} finally {
  await server.stopServer(servers.on);
  await server.stopServer(servers.off);
}
console.log(`| server CPU ms per request (median of ${ROUNDS} × ${COUNT}) | ms | samples |`);
console.log('|---|---:|---|');
for (const name of ['on', 'off']) console.log(`| cache ${name} | ${median(samples[name]).toFixed(2)} | ${samples[name].map((v) => v.toFixed(2)).join(', ')} |`);
console.log(`\nmiss / uncached: ${(median(samples.on) / median(samples.off)).toFixed(3)}×`);
if (PROFILE) console.log(`profiles: ${profiles('on')}, ${profiles('off')}`);
