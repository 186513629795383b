#!/usr/bin/env node
/**
 * `node bench/boot-profile.mjs [rounds] [--keep] [--host-types=<n>] [--db=postgres]`: where the plugin's boot cost
 * goes.
 *
 * Boots the compiled playground (run `npm run build` first; playground/dist is compiled here) with and without the
 * plugin (`CMS_BAG_ENABLED`), each on a database of its own (SQLite, or PostgreSQL with `--db=postgres`) whose schema
 * a first, unprofiled boot created,
 * `rounds` times each (3 by default), alternating, under `node --cpu-prof` with the bench server's environment
 * (production, no admin panel). Each profiled process loads the app, listens and exits, so a profile is its boot
 * and nothing after. Prints, as the median over the rounds in milliseconds of samples: the boot's busy time,
 * self time by package and the difference between the sides, the inclusive time of the boot's phases (the plugin's
 * bundle load, its register() and bootstrap(), and the host's work each phase does), and the functions whose
 * inclusive time grows most with the plugin. `--keep` leaves the profiles in playground/.tmp/boot-profiles/.
 * `--host-types=<n>` compares the bare playground with and without `n` content types of no plugin at all instead
 * (bench/boot-host-cost.mjs's API, no routes): what the host's boot does per content type.
 */
import fs from 'fs';
import path from 'path';
import { fork } from 'child_process';
import { createRequire } from 'module';
import { ROOT, PLAYGROUND, benchEnv, loadApp } from './lib/app.mjs';
import { frameKey, profileTree, where } from './lib/cpu-profile.mjs';
import { database } from './lib/server-process.mjs';

if (process.argv.includes('--child')) {
  const strapi = await loadApp({ withHostApi: false });
  const { host, port } = strapi.config.get('server');
  await new Promise((resolve) => strapi.server.listen(port, host, resolve));
  // --cpu-prof writes the profile on exit: it ends where the server listens.
  process.exit(0);
}

const require = createRequire(import.meta.url);
const rounds = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 3);
const keep = process.argv.includes('--keep');
const TMP = path.join(PLAYGROUND, '.tmp');
const PROFILES = path.join(TMP, 'boot-profiles');
const env = { ...benchEnv(), PORT: '0' };
const hostTypes = process.argv.find((arg) => arg.startsWith('--host-types='))?.split('=')[1];
const databases = { with: database('boot_profile_with'), without: database('boot_profile_without') };
const sides = hostTypes
  ? {
      with: { CMS_BAG_ENABLED: 'false', BOOTCOST_ROUTES: '0', BOOTCOST_TYPES: hostTypes, ...databases.with.env },
      without: { CMS_BAG_ENABLED: 'false', BOOTCOST_ROUTES: '0', BOOTCOST_TYPES: '0', ...databases.without.env },
    }
  : {
      with: { CMS_BAG_ENABLED: 'true', ...databases.with.env },
      without: { CMS_BAG_ENABLED: 'false', ...databases.without.env },
    };

const boot = (side, profileDir) =>
  new Promise((resolve, reject) => {
    const child = fork(path.join(ROOT, 'bench', hostTypes ? 'boot-host-cost.mjs' : 'boot-profile.mjs'), ['--child'], {
      env: { ...env, ...sides[side] },
      execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${side} boot exited with ${code}`))));
  });

const { compileStrapi } = require('@strapi/strapi');
await compileStrapi({ appDir: PLAYGROUND });
fs.rmSync(PROFILES, { recursive: true, force: true });
for (const side of Object.keys(sides)) {
  await databases[side].reset();
  await boot(side);
}
for (let round = 0; round < rounds; round += 1) {
  for (const side of Object.keys(sides)) await boot(side, path.join(PROFILES, side, String(round)));
}

/**
 * The phases of a boot, each a test on a sample's stack (root first); a sample counts for every phase it is in.
 * `plugin` frames are the built plugin's (dist/server).
 */
const PHASES = [
  ['plugin bundle load (module top level)', (s) => s.some((f) => f.pkg === 'cms-plugin-bag' && f.name === '' && f.line === 0)],
  ['plugin register()', (s) => s.some((f) => f.pkg === 'cms-plugin-bag' && f.name === 'register')],
  ['plugin bootstrap()', (s) => s.some((f) => f.pkg === 'cms-plugin-bag' && f.name === 'bootstrap')],
  ['plugin code, anywhere', (s) => s.some((f) => f.pkg === 'cms-plugin-bag')],
  ['zod, anywhere', (s) => s.some((f) => f.pkg === 'zod')],
  ['host: strapi.register()', (s) => s.some((f) => f.pkg === '@strapi/core' && f.name === 'register' && /Strapi/.test(f.file))],
  ['host: strapi.bootstrap()', (s) => s.some((f) => f.pkg === '@strapi/core' && f.name === 'bootstrap' && /Strapi/.test(f.file))],
  ['host: routes added to the router', (s) => s.some((f) => f.name === 'addRoutes' || f.name === 'registerAllRoutes' || f.name === 'initRouting')],
  ['host: route validation (yup)', (s) => s.some((f) => f.pkg === 'yup')],
  ['host: content-manager', (s) => s.some((f) => f.pkg === '@strapi/content-manager')],
  ['host: users-permissions', (s) => s.some((f) => f.pkg === '@strapi/plugin-users-permissions')],
  ['host: admin', (s) => s.some((f) => f.pkg === '@strapi/admin')],
  ['host: database (knex, drivers, schema sync)', (s) => s.some((f) => ['knex', 'better-sqlite3', 'pg', '@strapi/database'].includes(f.pkg))],
  ['garbage collector', (s) => s.at(-1).name === '(garbage collector)'],
  ['module loading (require/compile)', (s) => s.some((f) => f.name === 'Module._load' || f.name === 'compileFunction' || f.name === 'wrapSafe')],
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One profile's figures in ms: busy time, self time by package, phases and inclusive time by function. */
const analyse = (file) => {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { ids, parentOf } = profileTree(profile);
  const stacks = new Map();
  const stackOf = (id) => {
    if (stacks.has(id)) return stacks.get(id);
    const { callFrame } = ids.get(id);
    const frame = {
      name: callFrame.functionName,
      pkg: where(callFrame),
      file: callFrame.url,
      line: callFrame.lineNumber,
      key: frameKey(callFrame),
    };
    const parent = parentOf.get(id);
    const stack = parent === undefined ? [frame] : [...stackOf(parent), frame];
    stacks.set(id, stack);
    return stack;
  };
  const ms = [];
  for (let i = 0; i < profile.samples.length; i += 1) ms.push((profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000);
  let busy = 0;
  const byPackage = new Map();
  const phases = new Map();
  const inclusive = new Map();
  const add = (map, key, value) => map.set(key, (map.get(key) ?? 0) + value);
  profile.samples.forEach((id, i) => {
    const stack = stackOf(id);
    const leaf = stack.at(-1);
    if (leaf.name === '(idle)' || leaf.name === '(program)') return;
    busy += ms[i];
    add(byPackage, leaf.pkg, ms[i]);
    for (const [name, test] of PHASES) if (test(stack)) add(phases, name, ms[i]);
    for (const key of new Set(stack.map((frame) => frame.key))) add(inclusive, key, ms[i]);
  });
  return { busy, byPackage, phases, inclusive };
};

const results = Object.fromEntries(
  Object.keys(sides).map((side) => {
    const dir = path.join(PROFILES, side);
    const runs = fs.readdirSync(dir).map((round) => {
      const [file] = fs.readdirSync(path.join(dir, round)).filter((name) => name.endsWith('.cpuprofile'));
      return analyse(path.join(dir, round, file));
    });
    const medianOf = (pick) => {
      const keys = new Set(runs.flatMap((run) => [...pick(run).keys()]));
      return new Map([...keys].map((key) => [key, median(runs.map((run) => pick(run).get(key) ?? 0))]));
    };
    return [side, { busy: median(runs.map((run) => run.busy)), busyAll: runs.map((run) => run.busy), byPackage: medianOf((r) => r.byPackage), phases: medianOf((r) => r.phases), inclusive: medianOf((r) => r.inclusive) }];
  }),
);

const fmt = (value) => value.toFixed(0).padStart(6);
const { with: w, without: wo } = results;
console.log(`busy ms (median of ${rounds}): with ${w.busy.toFixed(0)} [${w.busyAll.map((v) => v.toFixed(0)).join(', ')}], without ${wo.busy.toFixed(0)} [${wo.busyAll.map((v) => v.toFixed(0)).join(', ')}], difference ${(w.busy - wo.busy).toFixed(0)}`);
const diffTable = (title, a, b, n, order = 'delta') => {
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys].map((key) => [key, a.get(key) ?? 0, b.get(key) ?? 0]);
  if (order === 'delta') rows.sort((x, y) => y[1] - y[2] - (x[1] - x[2]));
  console.log(`\n${title}\n  with  without  delta`);
  for (const [key, x, y] of rows.slice(0, n)) console.log(`${fmt(x)} ${fmt(y)} ${fmt(x - y)}  ${key}`);
};
diffTable('self time by package', w.byPackage, wo.byPackage, 20);
console.log('\nphases (inclusive; a sample counts in every phase it is in)\n  with  without  delta');
for (const [name] of PHASES) console.log(`${fmt(w.phases.get(name) ?? 0)} ${fmt(wo.phases.get(name) ?? 0)} ${fmt((w.phases.get(name) ?? 0) - (wo.phases.get(name) ?? 0))}  ${name}`);
diffTable('inclusive time by function, largest growth with the plugin', w.inclusive, wo.inclusive, 60);
if (!keep) fs.rmSync(PROFILES, { recursive: true, force: true });
for (const side of Object.keys(sides)) await databases[side].drop();
