/**
 * The run's template database. Most of a boot on a new database is the first start: the host creates every table and
 * index, its roles and default permissions, the default locale, and the plugin its indexes, search index, admin
 * actions and first-start grants (3.5–7 s; a boot on a database that has them takes under a second). The global
 * set-up (tests/global-setup.ts) does that once per Jest run in a playground process of its own, and setupStrapi
 * copies the result for each test file (SQLite: the file; PostgreSQL: `CREATE DATABASE … TEMPLATE`), unless the test
 * asks for a fresh database (`setupStrapi({ fresh: true })`: tests of what a first start does).
 *
 * What the first start writes does not depend on the plugin configuration, the secrets or the optional plugins a test
 * file boots with: the template is made with the playground's defaults and random secrets of its own.
 */
import { fork } from 'child_process';
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { copyDatabase, createDatabase, dropDatabase } from '../../scripts/lib/postgres-admin';

const PLAYGROUND = path.resolve(__dirname, '..', '..', 'playground');

/** The template's name (PostgreSQL) or file under playground/ (SQLite), as the global set-up made it for this run. */
const VARIABLE = 'CMS_BAG_TEST_TEMPLATE';

const isPostgres = () => process.env.DATABASE_CLIENT === 'postgres';

/** SQLite's write-ahead log beside the file: part of the database until it is checkpointed. */
const SQLITE_FILES = ['', '-wal'];

const secret = () => crypto.randomBytes(16).toString('base64');

/**
 * The environment of a playground process a test forks (`playground/scripts/start-instance.js`): this process's, the
 * test defaults (loopback, any port, no admin panel, no seed, quiet log), then `overrides`; an undefined value unsets.
 */
export function playgroundProcessEnv(overrides: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    SERVE_ADMIN: 'false',
    SEED: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    ...overrides,
  })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Boots the compiled playground once in a child process on `database` and stops it (SIGTERM: Strapi's destroy). */
async function firstStart(database: string): Promise<void> {
  const env = playgroundProcessEnv({
    ...(isPostgres() ? { DATABASE_NAME: database, DATABASE_URL: undefined } : { DATABASE_FILENAME: database }),
    // The playground as a test file boots it by default: this build of the plugin, its defaults, no optional plugin.
    CMS_BAG_CONFIG: '{}',
    CMS_BAG_PLUGIN_DIR: undefined,
    CMS_BAG_ENABLED: undefined,
    GRAPHQL: undefined,
    REST_CACHE: undefined,
    APP_KEYS: [secret(), secret()].join(','),
    API_TOKEN_SALT: secret(),
    ADMIN_JWT_SECRET: secret(),
    TRANSFER_TOKEN_SALT: secret(),
    ENCRYPTION_KEY: secret(),
    JWT_SECRET: secret(),
  });

  const child = fork(path.join(PLAYGROUND, 'scripts', 'start-instance.js'), [], {
    cwd: PLAYGROUND,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  try {
    const ready = await Promise.race([
      new Promise<true>((resolve) => child.on('message', (message: { type?: string }) => message.type === 'ready' && resolve(true))),
      exited.then(() => false),
    ]);
    if (!ready) throw new Error(`the template's first start failed:\n${output}`);
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`the template's playground exited with ${code}:\n${output}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Makes this run's template (global set-up) and announces it to the test files through the environment. */
export async function buildTemplate(): Promise<void> {
  const name = `template_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const database = isPostgres() ? name : path.join('.tmp', `${name}.db`);
  if (isPostgres()) await createDatabase(database);
  else fs.mkdirSync(path.join(PLAYGROUND, '.tmp'), { recursive: true });
  process.env[VARIABLE] = database;
  try {
    await firstStart(database);
  } catch (error) {
    // Jest runs no global teardown after a failed global set-up.
    await removeTemplate().catch(() => undefined);
    throw error;
  }
}

/** Deletes this run's template (global teardown). */
export async function removeTemplate(): Promise<void> {
  const database = process.env[VARIABLE];
  if (!database) return;
  delete process.env[VARIABLE];
  if (isPostgres()) await dropDatabase(database);
  else for (const suffix of [...SQLITE_FILES, '-shm']) fs.rmSync(path.join(PLAYGROUND, database + suffix), { force: true });
}

/**
 * A new database for a test file at `database` (SQLite file under playground/, or PostgreSQL name): a copy of the
 * run's template, or an empty one when `fresh` is asked or no template was made (a run without the global set-up).
 */
export async function newDatabase(database: string, { fresh = false } = {}): Promise<void> {
  const template = fresh ? undefined : process.env[VARIABLE];
  if (isPostgres()) {
    await (template ? copyDatabase(database, template) : createDatabase(database));
    return;
  }
  if (!template) return;
  for (const suffix of SQLITE_FILES) {
    const source = path.join(PLAYGROUND, template + suffix);
    if (fs.existsSync(source)) fs.copyFileSync(source, path.join(PLAYGROUND, database + suffix));
  }
}
