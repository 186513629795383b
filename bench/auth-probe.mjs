#!/usr/bin/env node
/**
 * `node bench/auth-probe.mjs [--logins=50] [--flood=1000]` (after `npm run build` and a compiled playground, e.g.
 * one jest run): two figures of the account hardening, on a fresh SQLite database each.
 *
 * - Login timing: the median time of `--logins` refused logins with a known identifier and a wrong password, and
 *   as many with an unknown identifier, interleaved, on the plugin's `/auth/login` and the host's `/api/auth/local`
 *   (rate limits raised out of the way). Equal medians: the answer time does not tell which accounts exist.
 * - Counter rows: rows in `bag_rate_limits` after `--flood` logins with random identifiers from one client IP, with
 *   the default limits (1 min / 10): the identifier counter is written only for requests the IP counter let through.
 */
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { performance } from 'perf_hooks';
import { PLAYGROUND, benchEnv, loadApp } from './lib/app.mjs';

const option = (name, fallback) => {
  const found = process.argv.slice(2).find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const LOGINS = option('logins', 50);
const FLOOD = option('flood', 1000);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** Boots the playground on a fresh database with `config` for the plugin; runs `work(strapi, url)`; cleans up. */
async function withApp(config, work) {
  const dbName = `auth-probe-${process.pid}-${crypto.randomBytes(3).toString('hex')}.db`;
  Object.assign(process.env, benchEnv(), {
    PORT: '0',
    DATABASE_FILENAME: path.join('.tmp', dbName),
    // X-Forwarded-For trusted: each timed login comes from its own address, out of the host's in-memory limiter.
    PROXY_TRUST: 'true',
    CMS_BAG_CONFIG: JSON.stringify(config),
  });
  const strapi = await loadApp({ withHostApi: false });
  await new Promise((resolve) => strapi.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${strapi.server.httpServer.address().port}`;
  try {
    return await work(strapi, url);
  } finally {
    await strapi.destroy();
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(path.join(PLAYGROUND, '.tmp', dbName + suffix), { force: true });
  }
}

const post = async (url, body, ip = '192.0.2.1') => {
  const started = performance.now();
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip };
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
};

const high = { interval: '1h', max: 1_000_000 };
const timing = await withApp({ rateLimit: { login: high } }, async (strapi, url) => {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  const user = await strapi.plugin('users-permissions').service('user').add({
    username: 'probe', email: 'probe@example.com', password: 'Probe-pass-1', provider: 'local', confirmed: true, role: role.id,
  });
  const rows = [];
  for (const [route, path] of [['plugin /auth/login', '/api/cms-plugin-bag/auth/login'], ['host /api/auth/local', '/api/auth/local']]) {
    const known = [];
    const unknown = [];
    const address = (n) => `198.51.${Math.floor(n / 250)}.${n % 250}`;
    for (let i = 0; i < 5; i += 1) await post(url + path, { identifier: `warm${i}@example.com`, password: 'wrong' }, address(i));
    for (let i = 0; i < LOGINS; i += 1) {
      const a = await post(url + path, { identifier: user.email, password: `wrong-${i}` }, address(1000 + 2 * i));
      const b = await post(url + path, { identifier: `nobody-${i}@example.com`, password: `wrong-${i}` }, address(1001 + 2 * i));
      if (a.status !== 400 || b.status !== 400) throw new Error(`${route}: expected 400s, got ${a.status} / ${b.status}`);
      known.push(a.ms);
      unknown.push(b.ms);
    }
    rows.push({ route, knownMs: median(known), unknownMs: median(unknown) });
  }
  return rows;
});

const flood = await withApp({}, async (strapi, url) => {
  const statuses = {};
  for (let i = 0; i < FLOOD; i += 1) {
    const { status } = await post(`${url}/api/cms-plugin-bag/auth/login`, { identifier: `${crypto.randomUUID()}@example.com`, password: 'wrong' });
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return { statuses, rows: await strapi.db.query('plugin::cms-plugin-bag.rate-limit').count() };
});

console.log(`Login timing, median of ${LOGINS} refused logins each (ms):`);
for (const row of timing) {
  console.log(`  ${row.route.padEnd(22)} known identifier, wrong password ${row.knownMs.toFixed(1)}   unknown identifier ${row.unknownMs.toFixed(1)}   gap ${(row.knownMs - row.unknownMs).toFixed(1)}`);
}
console.log(`bag_rate_limits after ${FLOOD} logins with random identifiers from one IP: ${flood.rows} rows (answers: ${JSON.stringify(flood.statuses)})`);
process.exit(0);
