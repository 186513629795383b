/**
 * Boots the playground (compiled into playground/dist) in this process, optionally with the host comparator API:
 * shared by the seeding child and the server child of the benchmark. Also the bench servers' environment, and the
 * plugin's content types as an API's for the boot tools.
 */
import crypto from 'crypto';
import fs from 'fs';
import path from 'path';
import { createRequire } from 'module';
import { fileURLToPath } from 'url';
import { grantPublicReads, hostApi } from './host-api.mjs';

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PLAYGROUND = path.join(ROOT, 'playground');

/**
 * `load()` is `register()` + `bootstrap()`; the comparator API is added in between, where Strapi's own loader adds
 * `src/api/*`, so its routes and Users & Permissions actions are registered like any API of the app's; the Public
 * role may then read it too (bench/lib/host-api.mjs `grantPublicReads`). `withPluginTypes`: the plugin's content types
 * as an API of the app's, none of its code (`pluginTypesApi`; the boot comparison's third side).
 */
export async function loadApp({ withHostApi, withPluginTypes = false }) {
  const { createStrapi } = require('@strapi/strapi');
  const strapi = createStrapi({
    appDir: PLAYGROUND,
    distDir: path.join(PLAYGROUND, 'dist'),
  });
  await strapi.register();
  if (withHostApi) strapi.get('apis').add('bench', hostApi(strapi));
  if (withPluginTypes) strapi.get('apis').add('plugintypes', pluginTypesApi('plugintypes'));
  await strapi.bootstrap();
  if (withHostApi) await grantPublicReads(strapi);
  strapi.isLoaded = true;
  return strapi;
}

const PLUGIN_TYPES = path.join(ROOT, 'server', 'src', 'content-types');

/**
 * The plugin's content types as an API's (`api::<name>.<type>`): their schema.json exactly, relations among them
 * repointed; none of the plugin's code. What the host spends on the data model the plugin declares
 * (bench/boot-host-cost.mjs, bench/boot-phases.mjs `--against-types`).
 */
export const pluginTypesApi = (name) => ({
  contentTypes: Object.fromEntries(
    fs
      .readdirSync(PLUGIN_TYPES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => {
        const text = fs.readFileSync(path.join(PLUGIN_TYPES, entry.name, 'schema.json'), 'utf8');
        const schema = JSON.parse(text.replaceAll('"plugin::cms-plugin-bag.', `"api::${name}.`));
        return [schema.info.singularName, { schema }];
      }),
  ),
});

const secret = () => crypto.randomBytes(16).toString('base64');

/** The environment of a benchmark playground: production mode, no admin panel or seed, fresh secrets. */
export const benchEnv = () => ({
  ...process.env,
  NODE_ENV: 'production',
  SERVE_ADMIN: 'false',
  SEED: 'false',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  API_MAX_LIMIT: '20000',
  APP_KEYS: `${secret()},${secret()}`,
  API_TOKEN_SALT: secret(),
  ADMIN_JWT_SECRET: secret(),
  TRANSFER_TOKEN_SALT: secret(),
  ENCRYPTION_KEY: secret(),
  JWT_SECRET: secret(),
  AES_SECRET: secret(),
});
