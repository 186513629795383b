/**
 * The blog starter (starter/, docs/starter.md) as a test runs it: its BUILT server (`npm run build -w starter` →
 * starter/dist/server/entry.mjs) on a free port, pointed at a test Strapi by STRAPI_URL, its own address as SITE_URL.
 */
import { spawn, type ChildProcess } from 'child_process';
import fs from 'fs';
import net from 'net';
import path from 'path';
import { ROOT } from './strapi';

export const STARTER_ENTRY = path.join(ROOT, 'starter', 'dist', 'server', 'entry.mjs');

export interface StarterServer {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** A free TCP port on 127.0.0.1 (to give Strapi the starter's address, SITE_URL, before the starter starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

export async function startStarter(strapiUrl: string, options: { port?: number } = {}): Promise<StarterServer> {
  if (!fs.existsSync(STARTER_ENTRY)) throw new Error(`${STARTER_ENTRY} not found: build the starter first (npm run build -w starter, part of npm test)`);
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [STARTER_ENTRY], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), STRAPI_URL: strapiUrl, SITE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  // Listening once robots.txt (a static file, no Strapi read) answers.
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the starter exited (${child.exitCode}):\n${log}`);
    const ok = await fetch(`${url}/robots.txt`).then((res) => res.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the starter did not answer on ${url} within 20 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, output: () => log, stop };
}

/** A starter test file's teardown: the starter (its log first with STARTER_LOG=1), the browser, Strapi, the SMTP server. */
export const stopStarterRun = async (run: {
  site?: { stop(): Promise<unknown>; output(): string };
  browser?: { close(): Promise<unknown> };
  app?: { stop(): Promise<unknown> };
  smtp?: { stop(): Promise<unknown> };
}) => {
  if (process.env.STARTER_LOG) console.log(run.site?.output());
  await run.site?.stop();
  await run.browser?.close();
  await run.app?.stop();
  await run.smtp?.stop();
};
