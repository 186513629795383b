#!/usr/bin/env node
/**
 * `node bench/list-cpu.mjs [--rounds=<n>] [--count=<n>]`: the uncached article list's server CPU time per request
 * against the host's list, measured in one server (the response cache off, the host comparator API loaded).
 *
 * CPU time of the server process (user + system, from /proc) over sequential requests, as bench/comment-cpu.mjs
 * measures it: on a machine busy with other work it moves far less than req/s. Rows, alternating in each round: the
 * plugin's list (its default populate, read by features/content/relation-reads.ts), the same list with that populate
 * asked for explicitly (read by the host's Document Service populate, as every list was before), and the host's
 * list with the same populate and sort, with the plugin's indexes and (after the rounds with them) without them.
 * Uses the SQLite database `node bench/run.mjs --only="articles list"` seeded (run that first; a PostgreSQL run drops
 * its database at the end, so this is SQLite only).
 */
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import * as server from './lib/server-process.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const ROUNDS = option('rounds', 3);
const COUNT = option('count', 100);

const cpuMs = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
};

const fixtures = path.join(here, 'playground', '.tmp', 'bench-only-fixtures.json');
if (!fs.existsSync(fixtures)) throw new Error('no bench-only fixtures: run `node bench/run.mjs --only="articles list"` first');
const fx = JSON.parse(fs.readFileSync(fixtures, 'utf8'));
const POPULATE = 'populate[category]=true&populate[tags]=true&populate[cover]=true&populate[author]=true';
const rows = [
  ['plugin list', '/api/bag/articles', {}],
  ['plugin list, populate asked for (host populate)', `/api/bag/articles?${POPULATE}`, {}],
  ['host list', `/api/host/articles?${POPULATE}&sort=isTop:desc,publishedAt:desc`, { authorization: `Bearer ${fx.hostToken}` }],
];

const db = server.database('bench-only');
if (db.kind !== 'sqlite') throw new Error('bench/list-cpu.mjs reads the SQLite bench database only');
await server.renewHostToken(db, fx.hostToken);
const booted = await server.bootServer({ db, withHostApi: true, config: { cache: { enabled: false } } });
const samples = new Map();
const measure = async (name, url, headers) => {
  const get = async () => {
    const res = await fetch(booted.url + url, { headers });
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  };
  for (let i = 0; i < 5; i += 1) await get();
  const before = cpuMs(booted.child.pid);
  for (let i = 0; i < COUNT; i += 1) await get();
  samples.set(name, [...(samples.get(name) ?? []), (cpuMs(booted.child.pid) - before) / COUNT]);
};
try {
  for (let round = 0; round < ROUNDS; round += 1) for (const row of rows) await measure(...row);
  await server.ask(booted, { type: 'indexes', drop: true });
  for (let round = 0; round < ROUNDS; round += 1) await measure('host list without the plugin\'s indexes', rows[2][1], rows[2][2]);
  await server.ask(booted, { type: 'indexes', drop: false });
} finally {
  await server.stopServer(booted);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const plugin = median(samples.get('plugin list'));
console.log(`| row (server CPU ms per request, median of ${ROUNDS} × ${COUNT}) | ms | plugin list's ratio |`);
console.log('|---|---:|---:|');
for (const [name, values] of samples) console.log(`| ${name} | ${median(values).toFixed(2)} | ${(median(values) / plugin).toFixed(2)}× |`);
