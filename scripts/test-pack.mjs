#!/usr/bin/env node
/**
 * Proves the published package works as a user installs it: `npm pack` (which builds first), a fresh Strapi 5.54
 * app outside this repository, `npm install ./cms-plugin-bag-*.tgz`, `config/plugins.js` with the plugin enabled and
 * nothing else, then boot it and check over HTTP that the plugin answers and its content types are in the admin.
 * `--no-build` packs what `npm run build` left in dist/ (CI has just built it) instead of building again.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-plugin-bag-pack-'));
const app = path.join(work, 'app');
const started = Date.now();
/** A step's heading, with the seconds the test has taken so far. */
const step = (what) => console.log(`==> [${Math.round((Date.now() - started) / 1000)}s] ${what}`);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env, CI: 'true' } });
const write = (file, text) => {
  fs.mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
  fs.writeFileSync(path.join(app, file), text);
};

step(`npm pack into ${work}`);
const noBuild = process.argv.includes('--no-build');
if (noBuild && !fs.existsSync(path.join(root, 'dist', 'server', 'index.js'))) throw new Error('--no-build: run `npm run build` first');
run('npm', ['pack', '--pack-destination', work, ...(noBuild ? ['--ignore-scripts'] : [])], root);
const tarball = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
const listing = execFileSync('tar', ['-tzf', path.join(work, tarball)], { encoding: 'utf8' });
for (const required of ['package/dist/server/index.js', 'package/dist/admin/index.mjs', 'package/bin/cms-plugin-bag.js', 'package/package.json']) {
  if (!listing.includes(required)) throw new Error(`${tarball} does not contain ${required}`);
}

step('a fresh Strapi 5.54 app');
const hostVersion = pkg.devDependencies['@strapi/strapi'];
write(
  'package.json',
  JSON.stringify(
    {
      name: 'pack-test-app',
      private: true,
      dependencies: {
        '@strapi/strapi': hostVersion,
        '@strapi/plugin-users-permissions': hostVersion,
        'better-sqlite3': '12.9.0',
        react: '18.3.1',
        'react-dom': '18.3.1',
        'react-router-dom': '6.30.3',
        'styled-components': '6.1.19',
        // As `npm install ./cms-plugin-bag-<version>.tgz` writes it, so one install resolves the host and the plugin.
        'cms-plugin-bag': `file:../${tarball}`,
      },
      allowScripts: { 'better-sqlite3': true, esbuild: true },
    },
    null,
    2
  )
);
write('config/server.js', "module.exports = ({ env }) => ({ host: '127.0.0.1', port: env.int('PORT', 0), app: { keys: ['k1', 'k2'] } });\n");
write('config/database.js', "module.exports = () => ({ connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' }, useNullAsDefault: true } });\n");
write(
  'config/admin.js',
  "module.exports = () => ({ auth: { secret: 'pack-admin-secret' }, apiToken: { salt: 'pack-salt' }, transfer: { token: { salt: 'pack-transfer' } }, secrets: { encryptionKey: 'pack-encryption-key' }, serveAdminPanel: false });\n"
);
write('config/plugins.js', "module.exports = () => ({\n  'cms-plugin-bag': { enabled: true },\n  'users-permissions': { config: { jwtSecret: 'pack-jwt-secret' } },\n});\n");
write(
  'config/middlewares.js',
  "module.exports = ['strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public'];\n"
);
write('src/index.js', 'module.exports = { register() {}, bootstrap() {} };\n');
write('public/uploads/.gitkeep', '');
write(
  'boot.js',
  `const { createStrapi } = require('@strapi/strapi');
(async () => {
  const strapi = createStrapi({ appDir: __dirname, distDir: __dirname });
  await strapi.load();
  await new Promise((resolve) => strapi.server.listen(0, '127.0.0.1', resolve));
  const base = 'http://127.0.0.1:' + strapi.server.httpServer.address().port;
  const check = (ok, what) => { if (!ok) throw new Error('pack test: ' + what); console.log('ok - ' + what); };
  const key = await fetch(base + '/api/cms-plugin-bag/utils/rsa/public-key').then((r) => r.json());
  check(String(key.publicKey).startsWith('-----BEGIN PUBLIC KEY-----'), 'the plugin answers on /api/cms-plugin-bag');
  const reg = await fetch(base + '/admin/register-admin', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'Admin-password-1', firstname: 'A', lastname: 'B' }) }).then((r) => r.json());
  const token = reg.data.token || reg.data.accessToken;
  const types = await fetch(base + '/content-manager/content-types', { headers: { authorization: 'Bearer ' + token } }).then((r) => r.json());
  const shown = types.data.filter((t) => t.isDisplayed).map((t) => t.uid);
  for (const name of ['article', 'category', 'tag', 'comment', 'menu', 'menu-item', 'page', 'banner']) {
    check(shown.includes('plugin::cms-plugin-bag.' + name), name + ' is shown in the Content Manager');
  }
  check(!shown.includes('plugin::cms-plugin-bag.refresh-token'), 'internal types stay hidden');
  await strapi.destroy();
  process.exit(0);
})().catch((error) => { console.error(error); process.exit(1); });
`
);

step('npm install the tarball');
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);

step('the typed client\'s declarations resolve from the installed package');
write(
  'client-types.ts',
  `import { createClient, type Article, type SearchResult } from 'cms-plugin-bag/client';
const client = createClient({ baseUrl: 'http://127.0.0.1:1337' });
export const titles = async (): Promise<string[]> => (await client.articles.list()).data.map((article: Article) => article.title);
export const hits = async (): Promise<SearchResult['data']> => (await client.search('strapi')).data;
// @ts-expect-error an article's title is a string
export const wrong = (article: Article): number => article.title;
// The inputs are the server's request shapes: with TOTP on, the e-mail change and the deletion take mfaCode.
export const change = () => client.changeEmail({ email: 'new@example.com', password: 'secret', mfaCode: '123456' });
export const remove = () => client.deleteAccount({ code: '730214', mfaCode: '123456' });
// @ts-expect-error a field the route's shape does not have
export const unknown = () => client.changeEmail({ email: 'new@example.com', password: 'secret', mfaToken: '123456' });
`
);
write(
  'tsconfig.types.json',
  JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false }, files: ['client-types.ts'] })
);
run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.types.json'], app);
console.log('ok - cms-plugin-bag/client type-checks in a consumer');
// The client imports the server's shapes for their types only: no zod (nor any server code) in its bundle.
for (const file of ['index.js', 'index.mjs']) {
  const bundle = fs.readFileSync(path.join(app, 'node_modules', 'cms-plugin-bag', 'dist', 'client', file), 'utf8');
  if (/\bzod\b|server\/src/.test(bundle)) throw new Error(`dist/client/${file} has zod or server code in it`);
}
console.log('ok - the client bundle has no zod in it');

step('boot');
run('node', ['boot.js'], app);

step('the command line in the app\'s folder: a dry run of WordPress\'s theme unit test export (docs/import.md)');
const fixture = path.join(root, 'tests', 'fixtures', 'import', 'themeunittestdata.wordpress.xml');
const printed = execFileSync('npx', ['--no-install', 'cms-plugin-bag', 'import', fixture, '--dry-run'], { cwd: app, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
if (!/^ {2}articles: 58$/m.test(printed) || !/^Done: /m.test(printed)) throw new Error(`npx cms-plugin-bag import printed:\n${printed}`);
console.log('ok - npx cms-plugin-bag import runs in the app');
fs.rmSync(work, { recursive: true, force: true });
console.log('pack test passed');
