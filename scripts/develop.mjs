#!/usr/bin/env node
/**
 * `npm run develop`: the playground (Strapi with the plugin, demo content on the first start) and the blog starter
 * (starter/, Astro's dev server) together, each one's output prefixed, and where each one is. Ctrl-C stops both.
 * The playground's `site.url` is the starter's address, so feeds, the sitemap and old-slug redirects lead to its
 * pages (playground/config/plugins.ts).
 *
 * Env: STRAPI_PORT (1337), STARTER_PORT (4321). `--no-build`: skip the plugin build (`npm run build`).
 */
import { spawn, spawnSync } from 'node:child_process';

const strapiPort = process.env.STRAPI_PORT ?? process.env.PORT ?? '1337';
const starterPort = process.env.STARTER_PORT ?? '4321';
const strapiUrl = `http://localhost:${strapiPort}`;
const siteUrl = `http://localhost:${starterPort}`;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!process.argv.includes('--no-build')) {
  const build = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const children = [];
function start(name, args, env) {
  // A process group of its own: stopping it stops npm and what npm started (Strapi, Astro) together.
  const child = spawn(npm, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code) => {
    console.log(`[${name}] exited (${code ?? 'signal'}); stopping the other one`);
    stopAll(code ?? 0);
  });
  children.push(child);
}

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

start('strapi', ['run', 'develop', '-w', 'playground'], { PORT: strapiPort, SITE_URL: process.env.SITE_URL ?? siteUrl });
start('site', ['run', 'dev', '-w', 'starter', '--', '--port', starterPort, '--host', 'localhost'], { STRAPI_URL: strapiUrl, SITE_URL: process.env.SITE_URL ?? siteUrl });

console.log(`
  Strapi admin  ${strapiUrl}/admin   (create the first admin user there)
  API           ${strapiUrl}/api/bag/articles
  Blog starter  ${siteUrl}   (starter/, docs/starter.md)
`);
