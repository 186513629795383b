#!/usr/bin/env node
/**
 * `node bench/access-token-cost.mjs [--seconds=5] [--rounds=3] [--connections=10] [--refresh]` (after `npm run build`
 * and a compiled playground, e.g. one jest run): what the access tokens' check (docs/accounts.md#access-tokens-end-
 * with-their-session) costs an authenticated request. On a fresh SQLite database (`--refresh`: users-permissions
 * `jwtManagement: 'refresh'`), autocannon against the plugin's `/auth/me` with the plugin's jwt and the host's
 * `/api/users/me` with the host's jwt (legacy mode) or the plugin's (refresh mode), in rounds that alternate the check
 * on and off (off: the check's service answers yes without reading anything), so both sides share the machine's load.
 * Prints the SQL statements per request (100 sequential requests per side) and req/s (median over the rounds) per
 * route and side.
 */
import autocannon from 'autocannon';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { PLAYGROUND, benchEnv, loadApp } from './lib/app.mjs';

const option = (name, fallback) => {
  const found = process.argv.slice(2).find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const SECONDS = option('seconds', 5);
const ROUNDS = option('rounds', 3);
const CONNECTIONS = option('connections', 10);
const REFRESH = process.argv.includes('--refresh');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const dbName = `token-cost-${process.pid}-${crypto.randomBytes(3).toString('hex')}.db`;
Object.assign(process.env, benchEnv(), {
  PORT: '0',
  DATABASE_FILENAME: path.join('.tmp', dbName),
  ...(REFRESH ? { JWT_MANAGEMENT: 'refresh' } : {}),
  CMS_BAG_CONFIG: JSON.stringify({ rateLimit: { enabled: false }, account: { signInAlerts: false } }),
});
const strapi = await loadApp({ withHostApi: false });
await new Promise((resolve) => strapi.server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${strapi.server.httpServer.address().port}`;

try {
  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  await strapi.plugin('users-permissions').service('user').add({
    username: 'cost', email: 'cost@example.com', password: 'Cost-pass-1', provider: 'local', confirmed: true, role: role.id,
  });
  const login = await fetch(`${url}/api/cms-plugin-bag/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'cost@example.com', password: 'Cost-pass-1' }),
  });
  const { jwt } = await login.json();
  if (!jwt) throw new Error(`login failed: ${login.status}`);
  const user = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { email: 'cost@example.com' } });
  const hostJwt = REFRESH ? jwt : strapi.plugin('users-permissions').service('jwt').issue({ id: user.id });

  const service = strapi.plugin('cms-plugin-bag').service('access-tokens');
  const accepts = service.accepts.bind(service);
  const setCheck = (on) => {
    service.accepts = on ? accepts : async () => true;
  };

  const run = (route, token) =>
    new Promise((resolve, reject) => {
      autocannon(
        { url: url + route, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${token}` } },
        (error, result) => {
          if (error) return reject(error);
          if (result.non2xx > 0) return reject(new Error(`${route}: ${result.non2xx} answers were not 2xx`));
          resolve(result.requests.average);
        },
      );
    });

  const routes = [
    ['plugin /auth/me (plugin jwt)', '/api/cms-plugin-bag/auth/me', jwt],
    [`host /api/users/me (${REFRESH ? 'plugin' : 'host'} jwt)`, '/api/users/me', hostJwt],
  ];
  // Warm-up: the first requests compile and fill what each side keeps.
  for (const [, route, token] of routes) for (const on of [true, false]) (setCheck(on), await run(route, token));
  // Statements per request, sequential requests (each its own turn: the versions SELECT is not shared here).
  let statements = 0;
  const count = () => (statements += 1);
  strapi.db.connection.on('query', count);
  // The versions SELECT is a prepared statement past knex (server/src/platform/prepared.ts): counted by its reads.
  const versions = strapi.plugin('cms-plugin-bag').service('cache-versions');
  const read = versions.read.bind(versions);
  let versionReads = 0;
  versions.read = () => ((versionReads += 1), read());
  const perRequest = async (route, token, n = 100) => {
    statements = 0;
    versionReads = 0;
    for (let i = 0; i < n; i += 1) {
      const res = await fetch(url + route, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${route}: ${res.status}`);
      await res.arrayBuffer();
    }
    return { knex: statements / n, versions: versionReads / n };
  };
  const statementsPerRequest = [];
  for (const [name, route, token] of routes) {
    setCheck(false);
    const off = await perRequest(route, token);
    setCheck(true);
    const on = await perRequest(route, token);
    statementsPerRequest.push({ route: name, checkOff: off, checkOn: on });
  }
  strapi.db.connection.off('query', count);
  versions.read = read;

  const results = [];
  for (const [name, route, token] of routes) {
    const sides = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const on of round % 2 ? [false, true] : [true, false]) {
        setCheck(on);
        sides[on ? 'on' : 'off'].push(await run(route, token));
      }
    }
    const on = median(sides.on);
    const off = median(sides.off);
    results.push({ route: name, checkOff: Math.round(off), checkOn: Math.round(on), ratio: Number((on / off).toFixed(3)), rounds: sides });
  }
  setCheck(true);
  console.log(JSON.stringify({ mode: REFRESH ? 'refresh' : 'legacy-support', seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, statementsPerRequest, results }, null, 2));
} finally {
  await strapi.destroy();
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(path.join(PLAYGROUND, '.tmp', dbName + suffix), { force: true });
}
