#!/usr/bin/env node
/**
 * `node bench/comment-cpu.mjs [checkout …]`: the comment rows' server CPU time per request, in this checkout and
 * any others given (e.g. a worktree of an earlier commit, built), rounds alternating between them.
 *
 * CPU time of the server process (user + system, from /proc) over sequential requests, not throughput: on a
 * machine busy with other work it moves far less than req/s, so two checkouts can be compared within a few percent.
 * Each checkout uses the database its own `node bench/run.mjs --only=comments` seeded (run that first in each); the
 * server is booted with the cache off (every request builds its answer) and on (every request a hit).
 * `--rounds=<n>` (3), `--only=<text>` (rows whose name contains it), `--cache=off|on` (one of the two servers).
 */
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';
import { compareCheckouts, cpuMs } from './lib/cpu-compare.mjs';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const checkouts = [here, ...process.argv.slice(2).filter((arg) => !arg.startsWith('--')).map((dir) => path.resolve(dir))];
const ROUNDS = Number(process.argv.find((arg) => arg.startsWith('--rounds='))?.slice('--rounds='.length) ?? 3);
/** `--only=<text>`: the rows whose name contains the text (e.g. `replies`); `--cache=off` or `on`: one server only. */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '';
const CACHE = process.argv.find((arg) => arg.startsWith('--cache='))?.slice('--cache='.length);


async function measure(checkout) {
  const server = await import(path.join(checkout, 'bench', 'lib', 'server-process.mjs'));
  const fx = JSON.parse(fs.readFileSync(path.join(checkout, 'playground', '.tmp', 'bench-only-fixtures.json'), 'utf8'));
  const db = server.database('bench-only');
  const rows = [
    ['comments tree', `/api/bag/articles/${fx.article.documentId}/comments`, 20],
    ['comments page (20 roots)', `/api/bag/articles/${fx.article.documentId}/comments?pagination[pageSize]=20`, 200],
    ['comments replies', `/api/bag/comments/${fx.thread.root.documentId}/replies`, 200],
  ].filter(([name]) => name.includes(ONLY));
  const result = {};
  const servers = [['cache off', { cache: { enabled: false } }], ['cache on', {}]].filter(([label]) => !CACHE || label === `cache ${CACHE}`);
  for (const [label, config] of servers) {
    const booted = await server.bootServer({ db, config });
    try {
      for (const [name, url, uncachedCount] of rows) {
        const count = label === 'cache on' ? 1000 : uncachedCount;
        const get = async () => {
          const res = await fetch(booted.url + url);
          if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
          await res.arrayBuffer();
        };
        for (let i = 0; i < 5; i += 1) await get();
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

await compareCheckouts(checkouts, ROUNDS, measure, 2);
