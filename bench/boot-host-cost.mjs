#!/usr/bin/env node
/**
 * `node bench/boot-host-cost.mjs [rounds] [--routes=80] [--types=25] [--visible=9]`: what the host's boot costs per
 * route and per content type, with no plugin code at all (the defaults are the plugin's counts).
 *
 * Boots the compiled playground without the plugin (`CMS_BAG_ENABLED=false`, the bench server's environment) and
 * adds, between `register()` and `bootstrap()` where Strapi adds `src/api/*`, an API of its own (`api::bootcost`)
 * with `--routes` routes (content API; every other one with a route middleware given a config object, as the
 * plugin's rate-limited routes have; handlers on one controller that answers 204) and `--types` collection types
 * (six plain attributes each, no draft and publish; past the first `--visible`, hidden from the Content Manager and the
 * Content-Type Builder as the plugin's internal types are). Six variants: the bare playground, the routes alone, the
 * types alone, both; the plugin's own content types, their schemas exactly (relations among them pointed at the API's
 * copies) without any of the plugin's code, so what the host spends on the data model the plugin declares; and the
 * plugin itself, enabled as a site enables it. Each variant gets a SQLite database of its own whose schema an
 * unmeasured first boot creates; then `rounds` boots of each (3 by default), in turn, and the medians of the CPU time
 * (user + system) until the server listens, and of RSS there. Run `npm run build` first (playground/dist is compiled
 * here).
 */
import fs from 'fs';
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv } from './lib/app.mjs';
import { pluginConfig } from './lib/server-process.mjs';

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

const PLUGIN_TYPES = path.join(ROOT, 'server', 'src', 'content-types');

/** The plugin's content types as an API's (`api::bootcost.<name>`): their schema.json, relations among them repointed. */
const pluginTypesApi = () => ({
  contentTypes: Object.fromEntries(
    fs
      .readdirSync(PLUGIN_TYPES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => {
        const text = fs.readFileSync(path.join(PLUGIN_TYPES, entry.name, 'schema.json'), 'utf8');
        const schema = JSON.parse(text.replaceAll('"plugin::cms-plugin-bag.', '"api::bootcost.'));
        return [schema.info.singularName, { schema }];
      }),
  ),
});

if (process.argv.includes('--child')) {
  const { createStrapi } = createRequire(import.meta.url)('@strapi/strapi');
  const strapi = createStrapi({ appDir: PLAYGROUND, distDir: path.join(PLAYGROUND, 'dist') });
  await strapi.register();
  const routes = Number(process.env.BOOTCOST_ROUTES);
  const types = Number(process.env.BOOTCOST_TYPES);
  if (process.env.BOOTCOST_PLUGIN_TYPES === 'true') strapi.get('apis').add('bootcost', pluginTypesApi());
  else if (routes + types > 0) {
    strapi.get('apis').add('bootcost', dummyApi(routes, types, Number(process.env.BOOTCOST_VISIBLE ?? types)));
  }
  await strapi.bootstrap();
  strapi.isLoaded = true;
  const { host, port } = strapi.config.get('server');
  await new Promise((resolve) => strapi.server.listen(port, host, resolve));
  const { user, system } = process.cpuUsage();
  process.send({ cpuMs: (user + system) / 1000, rssBytes: process.memoryUsage().rss });
  process.exit(0);
}

const require = createRequire(import.meta.url);
const rounds = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const ROUTES = arg('routes', 80);
const TYPES = arg('types', 25);
const VISIBLE = arg('visible', 9);
const variants = {
  bare: [0, 0],
  [`${ROUTES} routes`]: [ROUTES, 0],
  [`${TYPES} types (${VISIBLE} visible)`]: [0, TYPES],
  [`${ROUTES} routes + ${TYPES} types`]: [ROUTES, TYPES],
  "the plugin's content types (their schemas, none of its code)": [0, 0, 'types'],
  'the plugin itself': [0, 0, 'plugin'],
};
const dbOf = (name) => path.join('.tmp', `boot-host-cost-${name.replace(/\W+/g, '-')}.db`);

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
        DATABASE_CLIENT: 'sqlite',
        DATABASE_FILENAME: dbOf(name),
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

const removeDb = (name) => {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(path.join(PLAYGROUND, dbOf(name) + suffix), { force: true });
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const { compileStrapi } = require('@strapi/strapi');
await compileStrapi({ appDir: PLAYGROUND });
for (const name of Object.keys(variants)) {
  removeDb(name);
  await boot(name);
}
const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) for (const name of Object.keys(variants)) samples[name].push(await boot(name));
for (const name of Object.keys(variants)) removeDb(name);

const bare = median(samples.bare.map((s) => s.cpuMs));
const bareRss = median(samples.bare.map((s) => s.rssBytes));
console.log(`| variant | boot CPU ms (median of ${rounds}) | over bare | RSS MB | over bare | samples (CPU ms) |`);
console.log('|---|---:|---:|---:|---:|---|');
for (const [name, list] of Object.entries(samples)) {
  const cpu = median(list.map((s) => s.cpuMs));
  const rss = median(list.map((s) => s.rssBytes));
  console.log(
    `| ${name} | ${cpu.toFixed(0)} | ${name === 'bare' ? '' : `+${(cpu - bare).toFixed(0)}`} | ${(rss / 2 ** 20).toFixed(1)} | ${name === 'bare' ? '' : `+${((rss - bareRss) / 2 ** 20).toFixed(1)}`} | ${list.map((s) => s.cpuMs.toFixed(0)).join(', ')} |`,
  );
}
