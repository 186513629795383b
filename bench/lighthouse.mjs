#!/usr/bin/env node
/**
 * `npm run bench -- --only=lighthouse` or `node bench/lighthouse.mjs [--no-build] [--runs=1]`: Lighthouse 12.2.3 on
 * the blog starter (starter/, docs/starter.md) driving the installed Chromium (/usr/bin/chromium, or CHROMIUM_PATH;
 * never a downloaded browser), on the home page, an article and a search, with the mobile and the desktop presets.
 *
 * Boots the playground in production mode with its demo content on a fresh SQLite file (a child process), the
 * starter's built server beside it (`node starter/dist/server/entry.mjs`), then prints the four category scores
 * (performance, accessibility, best practices, SEO) per page and preset and the bytes each page loads (HTML, CSS, JS),
 * and writes them to bench/results/lighthouse.{md,json}. `--runs=N`: the median of N runs per row.
 */
import fs from 'fs';
import net from 'net';
import path from 'path';
import { spawn, spawnSync } from 'child_process';
import { fileURLToPath } from 'url';
import { createRequire } from 'module';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TMP = path.join(ROOT, '.tmp');
const RESULTS = path.join(ROOT, 'bench', 'results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const RUNS = Number(arg('runs', '1'));
const NO_BUILD = process.argv.includes('--no-build');
const log = (...args) => console.log('[lighthouse]', ...args);

const PAGES = [
  ['home', '/'],
  ['article', '/articles/demo-article-1'],
  ['search', '/search?q=demo'],
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

async function waitFor(url, child, name) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode})`);
    if (await fetch(url).then((res) => res.status < 500, () => false)) return;
    if (Date.now() > deadline) throw new Error(`${name} did not answer ${url} in 180 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const secret = () => require('crypto').randomBytes(16).toString('base64');

async function main() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
  fs.mkdirSync(TMP, { recursive: true });
  if (!NO_BUILD) {
    for (const args of [['run', 'build'], ['run', 'build:starter']]) {
      const run = spawnSync('npm', args, { cwd: ROOT, stdio: 'inherit' });
      if (run.status !== 0) throw new Error(`npm ${args.join(' ')} failed`);
    }
    const { compileStrapi } = require('@strapi/strapi');
    await compileStrapi({ appDir: path.join(ROOT, 'playground') });
  }

  const [strapiPort, sitePort] = await Promise.all([freePort(), freePort()]);
  const strapiUrl = `http://127.0.0.1:${strapiPort}`;
  const siteUrl = `http://127.0.0.1:${sitePort}`;
  // The playground resolves DATABASE_FILENAME from its own folder (playground/config/database.ts).
  const dbFile = path.join(ROOT, 'playground', '.tmp', 'lighthouse.db');
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) fs.rmSync(file, { force: true });

  const boot = `
    const { loadApp } = await import(${JSON.stringify(path.join(ROOT, 'bench', 'lib', 'app.mjs'))});
    const strapi = await loadApp({ withHostApi: false });
    await new Promise((resolve) => strapi.server.listen(${strapiPort}, '127.0.0.1', resolve));
  `;
  const strapi = spawn(process.execPath, ['--input-type=module', '-e', boot], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env, NODE_ENV: 'production', SERVE_ADMIN: 'false', SEED: 'true', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(strapiPort),
      DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: '.tmp/lighthouse.db', SITE_URL: siteUrl, PUBLIC_URL: strapiUrl,
      APP_KEYS: `${secret()},${secret()}`, API_TOKEN_SALT: secret(), ADMIN_JWT_SECRET: secret(), TRANSFER_TOKEN_SALT: secret(),
      ENCRYPTION_KEY: secret(), JWT_SECRET: secret(), AES_SECRET: secret(),
    },
  });
  const site = spawn(process.execPath, [path.join(ROOT, 'starter', 'dist', 'server', 'entry.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(sitePort), STRAPI_URL: strapiUrl, SITE_URL: siteUrl },
  });
  const stop = () => [strapi, site].forEach((child) => child.exitCode === null && child.kill('SIGTERM'));
  process.on('exit', stop);

  try {
    log(`playground ${strapiUrl}, starter ${siteUrl}: waiting`);
    await waitFor(`${strapiUrl}/api/bag/articles`, strapi, 'the playground');
    await waitFor(`${siteUrl}/`, site, 'the starter');
    const rows = await audit(siteUrl);
    report(rows);
  } finally {
    stop();
  }
}

async function audit(siteUrl) {
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const rows = [];
  try {
    for (const [name, pagePath] of PAGES) {
      for (const preset of ['mobile', 'desktop']) {
        const runs = [];
        for (let run = 0; run < RUNS; run += 1) {
          const result = await lighthouse(`${siteUrl}${pagePath}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }, preset === 'desktop' ? desktopConfig : undefined);
          runs.push(result.lhr);
        }
        const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
        const lhr = runs[0];
        const scores = Object.fromEntries(CATEGORIES.map((id) => [id, median(runs.map((r) => Math.round((r.categories[id]?.score ?? 0) * 100)))]));
        const bytes = { html: 0, css: 0, js: 0, other: 0 };
        for (const item of lhr.audits['network-requests']?.details?.items ?? []) {
          const kind = item.resourceType === 'Document' ? 'html' : item.resourceType === 'Stylesheet' ? 'css' : item.resourceType === 'Script' ? 'js' : 'other';
          bytes[kind] += item.transferSize ?? 0;
        }
        const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual').map((a) => a.id);
        rows.push({ page: name, path: pagePath, preset, ...scores, bytes, failing });
        log(`${name} ${preset}: ${CATEGORIES.map((id) => `${id} ${scores[id]}`).join(', ')}${failing.length ? `; below 0.9: ${failing.join(', ')}` : ''}`);
      }
    }
  } finally {
    await chrome.kill();
  }
  return rows;
}

function report(rows) {
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  const lines = [
    `Lighthouse ${require('lighthouse/package.json').version}, ${new Date().toISOString().slice(0, 10)}, Chromium ${CHROMIUM}; \`node bench/lighthouse.mjs\` (median of ${RUNS} run${RUNS > 1 ? 's' : ''}). Bytes: transferred, per page load.`,
    '',
    '| page | preset | performance | accessibility | best practices | SEO | HTML | CSS | JS |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.page} (\`${r.path}\`) | ${r.preset} | ${r.performance} | ${r.accessibility} | ${r['best-practices']} | ${r.seo} | ${kb(r.bytes.html)} | ${kb(r.bytes.css)} | ${kb(r.bytes.js)} |`),
  ];
  const table = lines.join('\n');
  console.log(`\n${table}\n`);
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'lighthouse.md'), `${table}\n`);
  fs.writeFileSync(path.join(RESULTS, 'lighthouse.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
  const low = rows.filter((r) => CATEGORIES.some((id) => r[id] < 95));
  if (low.length) {
    console.log(`below 95: ${low.map((r) => `${r.page} ${r.preset}`).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
