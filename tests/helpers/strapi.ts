/**
 * Boots the playground app in-process against a throwaway database, once per test file, and gives the tests
 * HTTP access (supertest) and a few shortcuts that go through the host's own services.
 */
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import request from 'supertest';
import type { Core } from '@strapi/strapi';
import { dropDatabase } from '../../scripts/lib/postgres-admin';
import { newDatabase } from './template';

export const ROOT = path.resolve(__dirname, '..', '..');
export const PLAYGROUND = path.join(ROOT, 'playground');
export const PLUGIN = 'plugin::cms-plugin-bag';

export interface SetupOptions {
  /** Plugin configuration merged over the playground's (config/plugins.ts → cms-plugin-bag.config). */
  config?: Record<string, unknown>;
  /** Extra environment for this boot (SMTP_HOST, RSA_PRIVATE_KEY, …). */
  env?: Record<string, string | undefined>;
  /** Seed the playground's demo content (default false). */
  seed?: boolean;
  /** Reuse this database (SQLite file, or PostgreSQL database name) instead of a new one (restart tests). */
  databaseFile?: string;
  /**
   * A new, empty database, so this boot is a first start (schema creation, first-start grants), instead of a copy of
   * the run's template database (tests/helpers/template.ts), whose first start is already done. Default false.
   */
  fresh?: boolean;
  /** Serve the admin panel built by `npm run build:admin` (playground/dist/build); default false. */
  serveAdmin?: boolean;
}

export interface TestApp {
  strapi: Core.Strapi;
  /** The SQLite file, or on PostgreSQL the database name; pass it back as `databaseFile` to restart on it. */
  databaseFile: string;
  /** `http://127.0.0.1:<port>` of the listening server, for a browser. */
  url: string;
  request: () => ReturnType<typeof request>;
  /** Stops Strapi; `keepDatabase` leaves the database (file or PostgreSQL database) for a restart. */
  stop: (options?: { keepDatabase?: boolean }) => Promise<void>;
}

const secret = () => crypto.randomBytes(16).toString('base64');

/** Secrets shared by every boot of one test file, so a restart keeps tokens valid. */
const fileSecrets: Record<string, string> = {
  APP_KEYS: [secret(), secret()].join(','),
  API_TOKEN_SALT: secret(),
  ADMIN_JWT_SECRET: secret(),
  TRANSFER_TOKEN_SALT: secret(),
  ENCRYPTION_KEY: secret(),
  JWT_SECRET: secret(),
};

export const isPostgres = () => process.env.DATABASE_CLIENT === 'postgres';

/** The secrets every boot of this test file uses; child instances (tests/multi) get the same ones. */
export const sharedSecrets = (): Readonly<Record<string, string>> => fileSecrets;

/** A new database for one test file (or one multi-instance cluster): its PostgreSQL name or SQLite file. */
async function createTestDatabase(fresh: boolean): Promise<string> {
  const id = `${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const database = isPostgres() ? `test_${id}` : path.join('.tmp', `test-${id}.db`);
  await newDatabase(database, { fresh });
  return database;
}

export async function setupStrapi(options: SetupOptions = {}): Promise<TestApp> {
  const databaseFile = options.databaseFile ?? (await createTestDatabase(options.fresh ?? false));
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    SERVE_ADMIN: options.serveAdmin ? 'true' : 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    SEED: options.seed ? 'true' : 'false',
    ...(isPostgres() ? { DATABASE_NAME: databaseFile, DATABASE_URL: undefined } : { DATABASE_FILENAME: databaseFile }),
    CMS_BAG_CONFIG: JSON.stringify(options.config ?? {}),
    ...fileSecrets,
    ...options.env,
  };
  const previous: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) {
    previous[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }

  if (options.serveAdmin && !fs.existsSync(path.join(PLAYGROUND, 'dist', 'build', 'index.html'))) {
    throw new Error('The playground admin panel is not built: run `npm run build:admin` first (.ci/run does).');
  }

  const { createStrapi } = await import('@strapi/strapi');
  const strapi = createStrapi({ appDir: PLAYGROUND, distDir: path.join(PLAYGROUND, 'dist') });
  try {
    await strapi.load();
  } catch (error) {
    // A start-up that failed part-way may hold the database open: release it before reporting.
    await strapi.destroy().catch(() => undefined);
    if (!options.databaseFile) await removeDatabase(databaseFile).catch(() => undefined);
    throw error;
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  await new Promise<void>((resolve) => strapi.server.listen(0, '127.0.0.1', () => resolve()));

  const address = strapi.server.httpServer.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    strapi,
    databaseFile,
    url,
    request: () => asFrontEnd(request(strapi.server.httpServer)),
    async stop({ keepDatabase = false } = {}) {
      await strapi.destroy();
      if (!keepDatabase) await removeDatabase(databaseFile);
    },
  };
}

/**
 * supertest sends no User-Agent, and a detail read without one counts no view (docs/readers.md#what-counts): every
 * request says `node`, as a server-rendered front end's fetch does; a test's own `.set('User-Agent', …)` wins.
 */
export const TEST_USER_AGENT = 'node';
export const asFrontEnd = <Agent extends object>(agent: Agent): Agent => {
  for (const method of ['get', 'post', 'put', 'patch', 'delete', 'head', 'options']) {
    const original = (agent as Record<string, (...args: unknown[]) => { set(name: string, value: string): unknown }>)[method];
    if (typeof original !== 'function') continue;
    (agent as Record<string, unknown>)[method] = (...args: unknown[]) => original.apply(agent, args).set('User-Agent', TEST_USER_AGENT);
  }
  return agent;
};

/** Deletes a test database (SQLite file or PostgreSQL database) a restart test kept and did not reuse. */
export async function removeDatabase(databaseFile: string): Promise<void> {
  if (isPostgres()) {
    await dropDatabase(databaseFile);
    return;
  }
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    fs.rmSync(path.join(PLAYGROUND, databaseFile + suffix), { force: true });
  }
}

/** Boots Strapi expecting it to fail; returns the error it refused to start with. */
export async function expectStartupFailure(options: SetupOptions): Promise<Error> {
  try {
    const app = await setupStrapi(options);
    await app.stop();
  } catch (error) {
    return error as Error;
  }
  throw new Error('Strapi started although it should have refused to');
}

/** The plugin's internal tables' database models (server/src/models), as the host's model registry holds them. */
export const internalModels = (strapi: Core.Strapi) =>
  (strapi.get('models').get() as { uid: string; tableName: string }[]).filter((model) =>
    model.uid.startsWith(`${PLUGIN}.`)
  );

/**
 * Runs `run` with `sanitizer` added to the host's content-API output sanitizers (an app's own, as a project's
 * `register` would add it), and restores the registry after.
 */
export async function withOutputSanitizer<T>(
  strapi: Core.Strapi,
  sanitizer: unknown,
  run: () => Promise<T>
): Promise<T> {
  const registry = strapi.sanitizers;
  const before = [...registry.get('content-api.output')];
  registry.add('content-api.output', sanitizer as never);
  try {
    return await run();
  } finally {
    registry.set('content-api.output', before);
  }
}
