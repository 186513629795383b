#!/usr/bin/env node
/**
 * `node bench/boot-host-cost.mjs [rounds] [--routes=80] [--types=9] [--visible=9] [--db=postgres] [--plugin-split]`:
 * what the host's boot costs per route and per content type, with no plugin code at all (the defaults are the
 * plugin's counts).
 *
 * Boots the compiled playground without the plugin (`CMS_BAG_ENABLED=false`, the bench server's environment) and adds,
 * between `register()` and `bootstrap()` where Strapi adds `src/api/*`, an API of its own (`api::bootcost`) with
 * `--routes` routes (content API; every other one with a route middleware given a config object, as the plugin's
 * rate-limited routes have; handlers on one controller that answers 204) and `--types` collection types (six plain
 * attributes each, no draft and publish; past the first `--visible`, hidden from the Content Manager and the
 * Content-Type Builder, as the plugin's internal tables were before they became database models). Six variants: the
 * bare playground, the routes alone, the types alone, both; the plugin's own content types, their schemas exactly
 * (relations among them pointed at the API's copies) without any of the plugin's code or its internal tables, so what
 * the host spends on the content types the plugin declares; and the plugin itself, enabled as a site enables it.
 * `--plugin-split` boots only the bare playground and the last two. Each variant gets a database of its own (SQLite, or
 * with `--db=postgres` one on the server scripts/postgres.sh runs, as the benchmark does) whose schema an unmeasured
 * first boot creates; then `rounds` boots of each (3 by default), in turn, each round starting one variant later than
 * the round before. Prints the medians of the CPU time (user + system, every thread) until the server listens and of
 * RSS there, and the medians of each round's difference to the bare boot of the same round: in that CPU time, and in
 * the main thread's alone (Linux's `/proc/self/task/<pid>/schedstat`; the rest is V8's and libuv's helper threads:
 * concurrent garbage collection and compilation, file reads). Run `npm run build` first (playground/dist is compiled
 * here).
 */
import fs from 'fs';
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv, pluginTypesApi } from './lib/app.mjs';
import { database, pluginConfig } from './lib/server-process.mjs';

const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

/** The API: `routes` routes and `types` content types. */
const dummyApi = (routes, types, visible) => ({
  controllers: { dummy: { answer: (ctx) => { ctx.status = 204; } } },
  middlewares: { noop: (config) => (ctx, next) => next(config) },
  contentTypes: Object.fromEntries(
    Array.from({ length: types }, (_, i) => [
      `type-${i}`,
      {
        schema: {
          kind: 'collectionType',
          collectionName: `bootcost_type_${i}`,
          info: { singularName: `type-${i}`, pluralName: `type-${i}s`, displayName: `Type ${i}` },
          options: { draftAndPublish: false },
          ...(i < visible ? {} : { pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } } }),
          attributes: {
            title: { type: 'string', required: true },
            summary: { type: 'text' },
            count: { type: 'integer', default: 0 },
            enabled: { type: 'boolean', default: true },
            happenedAt: { type: 'datetime' },
            payload: { type: 'json' },
          },
        },
      },
    ]),
  ),
  routes: {
    bootcost: {
      type: 'content-api',
      prefix: '/bootcost',
      routes: Array.from({ length: routes }, (_, i) => ({
        method: i % 3 === 0 ? 'POST' : 'GET',
        path: `/route-${i}/:id`,
        handler: 'dummy.answer',
        ...(i % 2 === 0 ? { config: { middlewares: [{ name: 'api::bootcost.noop', config: { limit: `limit-${i}` } }] } } : {}),
      })),
    },
  },
});

if (process.argv.includes('--child')) {
  const { createStrapi } = createRequire(import.meta.url)('@strapi/strapi');
  const strapi = createStrapi({ appDir: PLAYGROUND, distDir: path.join(PLAYGROUND, 'dist') });
  await strapi.register();
  const routes = Number(process.env.BOOTCOST_ROUTES);
  const types = Number(process.env.BOOTCOST_TYPES);
  if (process.env.BOOTCOST_PLUGIN_TYPES === 'true') strapi.get('apis').add('bootcost', pluginTypesApi('bootcost'));
  else if (routes + types > 0) {
    strapi.get('apis').add('bootcost', dummyApi(routes, types, Number(process.env.BOOTCOST_VISIBLE ?? types)));
  }
  await strapi.bootstrap();
  strapi.isLoaded = true;
  const { host, port } = strapi.config.get('server');
  await new Promise((resolve) => strapi.server.listen(port, host, resolve));
  const { user, system } = process.cpuUsage();
  // The main thread's own time on the CPU (Linux), apart from V8's and libuv's helper threads.
  const mainNs = Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
  process.send({ cpuMs: (user + system) / 1000, mainMs: mainNs / 1e6, rssBytes: process.memoryUsage().rss });
  process.exit(0);
}

const require = createRequire(import.meta.url);
const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const ROUTES = arg('routes', 80);
const TYPES = arg('types', 9);
const VISIBLE = arg('visible', 9);
const variants = {
  bare: [0, 0],
  [`${ROUTES} routes`]: [ROUTES, 0],
  [`${TYPES} types (${VISIBLE} visible)`]: [0, TYPES],
  [`${ROUTES} routes + ${TYPES} types`]: [ROUTES, TYPES],
  "the plugin's content types (their schemas, none of its code)": [0, 0, 'types'],
  'the plugin itself': [0, 0, 'plugin'],
};
if (process.argv.includes('--plugin-split')) {
  for (const name of Object.keys(variants)) if (name !== 'bare' && !variants[name][2]) delete variants[name];
}
const names = Object.keys(variants);
const databases = Object.fromEntries(
  names.map((name, i) => [name, database(`boot_cost_${i}_${name.replace(/\W+/g, '_')}`.slice(0, 40))]),
);

const boot = (name) =>
  new Promise((resolve, reject) => {
    const [routes, types, plugin] = variants[name];
    const child = fork(path.join(ROOT, 'bench', 'boot-host-cost.mjs'), ['--child'], {
      env: {
        ...benchEnv(),
        // The plugin's configuration as the benchmark's servers have it.
        CMS_BAG_CONFIG: pluginConfig(),
        PORT: '0',
        CMS_BAG_ENABLED: String(plugin === 'plugin'),
        ...databases[name].env,
        BOOTCOST_ROUTES: String(routes),
        BOOTCOST_TYPES: String(types),
        BOOTCOST_VISIBLE: String(VISIBLE),
        BOOTCOST_PLUGIN_TYPES: String(plugin === 'types'),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let figures;
    child.on('message', (message) => (figures = message));
    child.once('exit', (code) => (code === 0 && figures ? resolve(figures) : reject(new Error(`${name}: exited with ${code}`))));
  });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { compileStrapi } = require('@strapi/strapi');
await compileStrapi({ appDir: PLAYGROUND });
for (const name of names) {
  await databases[name].reset();
  await boot(name);
}
const samples = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  for (let i = 0; i < names.length; i += 1) {
    const name = names[(round + i) % names.length];
    samples[name].push(await boot(name));
  }
}
for (const name of names) await databases[name].drop();

const bare = median(samples.bare.map((s) => s.cpuMs));
const bareRss = median(samples.bare.map((s) => s.rssBytes));
const signed = (value, digits = 0) => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
const columns = ['boot CPU ms (median)', 'over bare', "the rounds' differences", 'main thread', 'RSS MB', 'over bare'];
console.log(`| variant (${rounds} rounds) | ${columns.join(' | ')} | samples (CPU ms) |`);
console.log('|---|---:|---:|---:|---:|---:|---:|---|');
for (const [name, list] of Object.entries(samples)) {
  const cpu = median(list.map((s) => s.cpuMs));
  const rss = median(list.map((s) => s.rssBytes));
  const paired = (key) => median(list.map((s, round) => s[key] - samples.bare[round][key]));
  const over = (value, digits) => (name === 'bare' ? '' : signed(value, digits));
  const rssMb = (bytes) => bytes / 2 ** 20;
  const cells = [cpu.toFixed(0), over(cpu - bare), over(paired('cpuMs')), over(paired('mainMs'))];
  cells.push(rssMb(rss).toFixed(1), over(rssMb(rss - bareRss), 1));
  console.log(`| ${name} | ${cells.join(' | ')} | ${list.map((s) => s.cpuMs.toFixed(0)).join(', ')} |`);
}
