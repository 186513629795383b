#!/usr/bin/env node
/**
 * `node bench/stall-profile.mjs <path> [--samples=<n>] [--connections=<n>] [--seconds=<s>] [--cache] [--run=<name>]
 * [--db=postgres]`: what the event loop's long turns of one endpoint are made of, the ones behind the benchmark's
 * "max stall" column, and with `--connections` the ones requests wait through under load (the p99 column).
 *
 * Boots a server on the SQLite database `node bench/run.mjs` left (`--run=<name>`: that of bench/results/<name>.json's
 * run; `latest` by default; with `--db=postgres`, the PostgreSQL database of that name, which a run drops at its end
 * and `bench/seed.mjs` can seed), with the response cache off (`--cache`: on) and the host's comparator API, under
 * `node --cpu-prof` and with bench/lib/turn-ticker.cjs preloaded. Sends `<path>` ten times to warm up, then
 * `--samples` times (5, as the benchmark) one at a time, and prints the longest event-loop delay of those as the
 * benchmark reads it, then each turn longer than 8 ms in that window with the functions the profile sampled in it
 * (self time, then the frames the turn spent most time under). With `--connections=<n>` (n > 1), `n` clients send it
 * for `--seconds` (8) instead, each its next request when the last is answered, as the benchmark's load does; it
 * prints their p50 and p99, how many requests the server finished in the turn they began in, the turns over 8 ms by
 * how many requests they finished, and the three longest turns' functions. Run `npm run build` first.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { fileURLToPath } from 'url';
import { frameKey, profileTree } from './lib/cpu-profile.mjs';
import { percentiles } from './lib/load-generator.mjs';
import * as server from './lib/server-process.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SAMPLES = Number(option('samples', 5));
const CONNECTIONS = Number(option('connections', 1));
const SECONDS = Number(option('seconds', 8));
const RUN = option('run', 'latest');
const [target] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!target) {
  throw new Error(
    'usage: node bench/stall-profile.mjs <path> [--samples=<n>] [--connections=<n>] [--seconds=<s>] [--cache] ' +
      '[--run=<name>] [--db=postgres]',
  );
}

const db = server.database(`bench-${RUN}`);
if (db.kind === 'sqlite' && !fs.existsSync(db.abs)) {
  throw new Error(`no database of the run "${RUN}": run \`node bench/run.mjs\` first`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-stalls-'));
const booted = await server.bootServer({
  db,
  withHostApi: true,
  config: process.argv.includes('--cache') ? undefined : { cache: { enabled: false } },
  execArgv: [
    `--require=${path.join(here, 'bench', 'lib', 'turn-ticker.cjs')}`,
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    '--cpu-prof-interval=200',
  ],
});
const get = async () => {
  const response = await fetch(booted.url + target);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${target}: HTTP ${response.status}`);
};
const timedGet = async (times) => {
  const began = performance.now();
  await get();
  times.push(performance.now() - began);
};
const turnsFile = path.join(os.tmpdir(), `bench-turns-${booted.child.pid}.json`);
let from;
let maxStall;
const load = { times: [] };
try {
  for (let i = 0; i < 10; i += 1) await get();
  from = Number(process.hrtime.bigint() / 1000n);
  await server.ask(booted, { type: 'eld', reset: true });
  if (CONNECTIONS > 1) {
    load.before = await server.ask(booted, { type: 'turns' });
    const until = performance.now() + SECONDS * 1000;
    const client = async () => {
      while (performance.now() < until) await timedGet(load.times);
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, client));
    load.after = await server.ask(booted, { type: 'turns' });
  } else {
    for (let i = 0; i < SAMPLES; i += 1) await get();
  }
  maxStall = (await server.ask(booted, { type: 'eld', reset: true })).maxMs;
} finally {
  await server.stopServer(booted);
}

// The profile is written as the server exits.
const profileFile = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (!profileFile) throw new Error(`no CPU profile in ${dir}`);
const profile = JSON.parse(fs.readFileSync(path.join(dir, profileFile), 'utf8'));
const { turns = [] } = fs.existsSync(turnsFile) ? JSON.parse(fs.readFileSync(turnsFile, 'utf8')) : {};
fs.rmSync(dir, { recursive: true, force: true });
fs.rmSync(turnsFile, { force: true });

const { ids, parentOf } = profileTree(profile);
const name = (id) => frameKey(ids.get(id).callFrame);
const timed = [];
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i];
  timed.push({ at, id, us: profile.timeDeltas[i] });
});
const ms = (us) => (us / 1000).toFixed(1);
const list = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `${ms(us)} ${key}`);

const long = turns.filter(([start]) => start >= from).sort((a, b) => b[1] - b[0] - (a[1] - a[0]));
const cache = process.argv.includes('--cache') ? 'on' : 'off';
if (CONNECTIONS > 1) {
  const { p50, p99 } = percentiles(load.times);
  const requests = load.after.requests - load.before.requests;
  const sameTurn = load.after.sameTurn - load.before.sameTurn;
  const byFinished = new Map();
  for (const [, , , finished] of long) byFinished.set(finished, (byFinished.get(finished) ?? 0) + 1);
  const spread = (p99 / p50).toFixed(1);
  console.log(`${target}, cache ${cache}, ${CONNECTIONS} clients for ${SECONDS} s`);
  console.log(`${load.times.length} requests: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${spread}×)`);
  console.log(`finished by the server in the turn they began in: ${sameTurn} of ${requests}`);
  console.log(`max stall (the benchmark's event-loop delay): ${maxStall.toFixed(1)} ms`);
  console.log(
    `turns over 8 ms: ${long.length}; by requests finished in them: ${[...byFinished]
      .sort((a, b) => a[0] - b[0])
      .map(([finished, count]) => `${finished}: ${count}`)
      .join(', ')}`,
  );
  console.log(
    `longest: ${long
      .slice(0, 8)
      .map(([start, end, began, finished]) => `${ms(end - start)} ms (${began} began, ${finished} finished)`)
      .join(', ')}`,
  );
} else {
  console.log(`${target}, cache ${cache}, ${SAMPLES} requests one at a time`);
  console.log(`max stall (the benchmark's event-loop delay): ${maxStall.toFixed(1)} ms`);
  console.log(`turns over 8 ms: ${long.map(([start, end]) => ms(end - start)).join(', ') || 'none'}`);
}
for (const [start, end] of CONNECTIONS > 1 ? long.slice(0, 3) : long) {
  const self = new Map();
  const under = new Map();
  for (const sample of timed.filter((s) => s.at >= start && s.at <= end)) {
    self.set(name(sample.id), (self.get(name(sample.id)) ?? 0) + sample.us);
    const seen = new Set();
    for (let node = sample.id; node !== undefined; node = parentOf.get(node)) {
      const key = name(node);
      if (seen.has(key)) continue;
      seen.add(key);
      under.set(key, (under.get(key) ?? 0) + sample.us);
    }
  }
  console.log(`\nturn of ${ms(end - start)} ms`);
  console.log(`  self: ${list(self, 6).join(' | ')}`);
  console.log(`  under: ${list(under, 14).join(' | ')}`);
}
