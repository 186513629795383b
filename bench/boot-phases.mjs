#!/usr/bin/env node
/**
 * `node bench/boot-phases.mjs [rounds] [--db=postgres] [--against-types]`: the CPU time of each phase of a boot, with
 * and without the plugin.
 *
 * Boots the compiled playground (run `npm run build` first; playground/dist is compiled here) with and without the
 * plugin (`CMS_BAG_ENABLED`), each on a database of its own (SQLite, or with `--db=postgres` one on the server
 * scripts/postgres.sh runs, as the benchmark does) whose schema an unmeasured first boot created,
 * `rounds` times each (5 by default), alternating, with the bench server's environment and the plugin's configuration
 * as the bench servers have it. Each boot measures
 * `process.cpuUsage()` around Strapi's `register()` and `bootstrap()` and around the steps of `bootstrap()`: the
 * database's init and schema sync and the content-type hooks around it, the routes compiled into the router, the
 * content-API actions registered, the admin's and each plugin's own `bootstrap()`. Prints the medians, side by side.
 * With `--against-types` the side without the plugin has its content types (their schemas as an API's, none of its
 * code: bench/lib/app.mjs `pluginTypesApi`), so the difference is what the plugin's code adds to them.
 */
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv, pluginTypesApi } from './lib/app.mjs';
import { database, pluginConfig } from './lib/server-process.mjs';

const require = createRequire(import.meta.url);
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

if (process.argv.includes('--child')) {
  const spent = {};
  const add = (label, ms) => (spent[label] = (spent[label] ?? 0) + ms);
  const timed = (object, key, label) => {
    const original = object[key];
    object[key] = function (...args) {
      const began = cpu();
      const result = original.apply(this, args);
      if (result && typeof result.then === 'function') return result.finally(() => add(label, cpu() - began));
      add(label, cpu() - began);
      return result;
    };
  };
  const { createStrapi } = require('@strapi/strapi');
  spent['before createStrapi (Node, Strapi modules)'] = cpu();
  const strapi = createStrapi({ appDir: PLAYGROUND, distDir: path.join(PLAYGROUND, 'dist') });
  let began = cpu();
  await strapi.register();
  if (process.env.BOOT_PHASES_TYPES === 'true') strapi.get('apis').add('bootphases', pluginTypesApi('bootphases'));
  spent['register() (plugins loaded, their register())'] = cpu() - began;
  const init = strapi.db.init;
  strapi.db.init = async function (...args) {
    const began = cpu();
    const result = await init.apply(this, args);
    add('database init', cpu() - began);
    timed(strapi.db.schema, 'sync', 'database schema sync');
    return result;
  };
  const hook = strapi.hook.bind(strapi);
  const hooked = new Set();
  strapi.hook = (name) => {
    const found = hook(name);
    if (found?.call && !hooked.has(name)) {
      hooked.add(name);
      timed(found, 'call', `hook ${name}`);
    }
    return found;
  };
  timed(strapi.server, 'initRouting', 'routes compiled into the router');
  timed(strapi.contentAPI.permissions, 'registerActions', 'content-API actions registered');
  if (strapi.admin?.bootstrap) timed(strapi.admin, 'bootstrap', 'bootstrap: admin');
  for (const [name, module] of Object.entries(strapi.get('modules').getAll())) timed(module, 'bootstrap', `bootstrap: ${name}`);
  began = cpu();
  await strapi.bootstrap();
  spent['bootstrap() (all of it)'] = cpu() - began;
  const { host, port } = strapi.config.get('server');
  await new Promise((resolve) => strapi.server.listen(port, host, resolve));
  spent['boot until listening'] = cpu();
  process.send(spent);
  process.exit(0);
}

const rounds = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5);
const sides = { with: 'true', without: 'false' };
const againstTypes = process.argv.includes('--against-types');
const databases = { with: database('boot_phases_with'), without: database('boot_phases_without') };
const boot = (side) =>
  new Promise((resolve, reject) => {
    const child = fork(path.join(ROOT, 'bench', 'boot-phases.mjs'), ['--child'], {
      env: {
        ...benchEnv(),
        CMS_BAG_CONFIG: pluginConfig(),
        PORT: '0',
        CMS_BAG_ENABLED: sides[side],
        BOOT_PHASES_TYPES: String(side === 'without' && againstTypes),
        ...databases[side].env,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let spent;
    child.on('message', (message) => (spent = message));
    child.once('exit', (code) => (code === 0 && spent ? resolve(spent) : reject(new Error(`${side}: exited with ${code}`))));
  });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { compileStrapi } = require('@strapi/strapi');
await compileStrapi({ appDir: PLAYGROUND });
for (const side of Object.keys(sides)) {
  await databases[side].reset();
  await boot(side);
}
const samples = { with: [], without: [] };
for (let round = 0; round < rounds; round += 1) for (const side of Object.keys(sides)) samples[side].push(await boot(side));
for (const side of Object.keys(sides)) await databases[side].drop();

const labels = [...new Set([...samples.with, ...samples.without].flatMap((spent) => Object.keys(spent)))];
const without = againstTypes ? 'its content types, none of its code' : 'without';
console.log(`| phase (CPU ms, median of ${rounds}) | with the plugin | ${without} | difference |`);
console.log('|---|---:|---:|---:|');
for (const label of labels) {
  const w = median(samples.with.map((spent) => spent[label] ?? 0));
  const wo = median(samples.without.map((spent) => spent[label] ?? 0));
  if (w + wo < 2) continue;
  console.log(`| ${label} | ${w.toFixed(0)} | ${wo.toFixed(0)} | ${w - wo >= 0 ? '+' : ''}${(w - wo).toFixed(0)} |`);
}
