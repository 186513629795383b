/**
 * Server lifecycle: the SQLite files of a run, forking the bench scripts (seed.mjs, server.mjs) as child processes,
 * booting and stopping a playground server, the IPC messages it answers, and the boot-time comparison with and
 * without the plugin.
 */
import crypto from 'crypto';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { fork, spawnSync } from 'child_process';
import { createDatabase, dropDatabase } from '../../scripts/lib/postgres-admin.js';
import { ROOT, benchEnv } from './app.mjs';
import { LOAD_GENERATOR_HEAP } from './load-generator.mjs';
import { BOOT_ROUNDS, DB, TMP } from './options.mjs';

/**
 * A database of the run: `env` is what the playground reads to use it (config/database.ts), `reset()` makes it fresh
 * and empty, `drop()` removes it. SQLite: a file in playground/.tmp (the playground resolves DATABASE_FILENAME
 * against its own directory). PostgreSQL (`--db=postgres`): a database of its own on the server scripts/postgres.sh
 * runs (its connection from the environment, else from `scripts/postgres.sh env`).
 */
export const database = (name) => (DB === 'postgres' ? postgresDatabase(name) : sqliteDatabase(name));

const sqliteDatabase = (name) => {
  const abs = path.join(TMP, `${name}.db`);
  const remove = async () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(abs + suffix, { force: true });
  };
  return {
    kind: 'sqlite',
    label: abs,
    abs,
    env: { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: path.join('.tmp', `${name}.db`) },
    reset: remove,
    drop: remove,
  };
};

let postgresConnection;
/** DATABASE_* of the PostgreSQL server: from this process's environment, else from `scripts/postgres.sh env`. */
const postgresEnv = () => {
  if (postgresConnection) return postgresConnection;
  if (process.env.DATABASE_CLIENT === 'postgres') {
    postgresConnection = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('DATABASE_')));
  } else {
    const script = spawnSync(path.join(ROOT, 'scripts', 'postgres.sh'), ['env'], { encoding: 'utf8' });
    if (script.status !== 0) throw new Error(`scripts/postgres.sh env failed: ${script.stderr}`);
    postgresConnection = Object.fromEntries(
      [...script.stdout.matchAll(/^export (DATABASE_\w+)=(.*)$/gm)].map(([, key, value]) => [key, value]),
    );
  }
  delete postgresConnection.DATABASE_URL;
  return postgresConnection;
};

const postgresDatabase = (name) => {
  const dbName = name.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
  const drop = () => dropDatabase(dbName, postgresEnv());
  return {
    kind: 'postgres',
    get label() {
      const env = postgresEnv();
      return `PostgreSQL ${env.DATABASE_HOST}:${env.DATABASE_PORT}/${dbName}`;
    },
    get env() {
      return { ...postgresEnv(), DATABASE_CLIENT: 'postgres', DATABASE_NAME: dbName };
    },
    reset: async () => {
      await drop();
      await createDatabase(dbName, postgresEnv());
    },
    drop,
  };
};

/** The plugin configuration of a bench server: `extra` (e.g. `{ cache: { enabled: false } }`) merged in. */
export const pluginConfig = (extra = {}) =>
  JSON.stringify({
    // Limits high enough never to refuse the load, still counted: their cost is part of the measured endpoints.
    rateLimit: Object.fromEntries(
      ['login', 'captchaImage', 'refreshToken'].map((name) => [name, { interval: '1h', max: 1_000_000_000 }]),
    ),
    // Feeds and the sitemap answer 503 without the site's public address (`site.url`).
    site: { url: 'https://www.example.com' },
    ...extra,
  });

export const baseEnv = { ...benchEnv(), CMS_BAG_CONFIG: pluginConfig() };

/**
 * Stores the hash of the seed's API token (`token`, the fixtures' `hostToken`) made with this process's salt, in a
 * SQLite bench database a run left: the seed hashed it with its own run's salt, and the servers booted here get a new
 * one. For the tools that boot a server on an earlier run's database (bench/list-cpu.mjs, bench/uncached-cpu.mjs).
 */
export async function renewHostToken(db, token) {
  const accessKey = crypto.createHmac('sha512', baseEnv.API_TOKEN_SALT).update(token).digest('hex');
  const { default: Database } = await import('better-sqlite3');
  const sqlite = new Database(db.abs);
  try {
    sqlite.prepare('UPDATE strapi_api_tokens SET access_key = ?').run(accessKey);
  } finally {
    sqlite.close();
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Forks a bench script; resolves with the child and a buffer of its stderr for error reports. */
export const start = (script, env, execArgv = []) => {
  const child = fork(path.join(ROOT, 'bench', script), [], {
    env,
    // The server can collect garbage on request before it reports its memory (the cache's RSS row). The load
    // generator's heap is not the server's.
    execArgv: [...process.execArgv.filter((arg) => arg !== LOAD_GENERATOR_HEAP), '--expose-gc', ...execArgv],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  child.output = () => Buffer.concat(output).toString().slice(-4000);
  return child;
};

const nextMessage = (child, type, timeoutMs = 180_000) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no '${type}' from ${child.spawnfile} in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (message) => {
      if (message.type !== type) return;
      cleanup();
      resolve(message);
    };
    const onExit = (code) => {
      cleanup();
      reject(new Error(`child exited with ${code} before '${type}':\n${child.output()}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });

export const exited = (child) =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));

/**
 * `config`: plugin configuration merged into the bench's (CMS_BAG_CONFIG); `restCache`: load
 * @strapi-community/plugin-rest-cache (REST_CACHE=1, with the host API: its comparator routes).
 */
export async function bootServer({
  db,
  withPlugin = true,
  withPluginTypes = false,
  withHostApi = false,
  restCache = false,
  config,
  execArgv,
}) {
  const port = await freePort();
  const child = start('server.mjs', {
    ...baseEnv,
    ...db.env,
    ...(config ? { CMS_BAG_CONFIG: pluginConfig(config) } : {}),
    PORT: String(port),
    CMS_BAG_ENABLED: String(withPlugin),
    BENCH_HOST_API: String(withHostApi),
    BENCH_PLUGIN_TYPES: String(withPluginTypes),
    REST_CACHE: String(restCache),
  }, execArgv);
  const ready = await nextMessage(child, 'ready');
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    bootMs: ready.bootMs,
    cpuMs: ready.cpuMs,
    rssBytes: ready.rssBytes,
  };
}

export async function stopServer(server) {
  server.child.send({ type: 'stop' });
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited(server.child);
  clearTimeout(timer);
}

export const ask = async (server, message, reply) => {
  const answer = nextMessage(server.child, reply ?? message.type, 120_000);
  server.child.send(message);
  return answer;
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The boot comparison: `BOOT_ROUNDS` rounds, each booting the bare playground (`without`), the playground with the
 * plugin (`with`), and the bare playground with the plugin's content types as an API of its own, none of the plugin's
 * code (`types`: what the host spends on the data model the plugin declares), each on a database of its own.
 */
export async function measureBoot() {
  const variants = {
    with: database('bench-boot-with'),
    without: database('bench-boot-without'),
    types: database('bench-boot-types'),
  };
  const boot = (name, db) => bootServer({ db, withPlugin: name === 'with', withPluginTypes: name === 'types' });
  const samples = { with: [], without: [], types: [] };
  for (const [name, db] of Object.entries(variants)) {
    await db.reset();
    // The first boot creates the schema; what is compared is a restart against an up-to-date database.
    await stopServer(await boot(name, db));
  }
  for (let round = 0; round < BOOT_ROUNDS; round += 1) {
    // Each round starts one side later than the round before, so no side always follows another.
    const entries = Object.entries(variants);
    const order = entries.map((_, i) => entries[(i + round) % entries.length]);
    for (const [name, db] of order) {
      const server = await boot(name, db);
      samples[name].push({
        bootMs: server.bootMs,
        cpuMs: server.cpuMs,
        rssBytes: server.rssBytes,
      });
      await stopServer(server);
    }
  }
  for (const db of Object.values(variants)) await db.drop();
  const summarize = (list) => ({
    bootMs: median(list.map((s) => s.bootMs)),
    cpuMs: median(list.map((s) => s.cpuMs)),
    rssBytes: median(list.map((s) => s.rssBytes)),
    samples: list,
  });
  return { with: summarize(samples.with), without: summarize(samples.without), types: summarize(samples.types) };
}
