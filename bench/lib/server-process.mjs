/**
 * Server lifecycle: the SQLite files of a run, forking the bench scripts (seed.mjs, server.mjs) as child processes,
 * booting and stopping a playground server, the IPC messages it answers, and the boot-time comparison with and
 * without the plugin.
 */
import fs from 'fs';
import net from 'net';
import path from 'path';
import { fork } from 'child_process';
import { ROOT, benchEnv } from './app.mjs';
import { BOOT_ROUNDS, TMP } from './options.mjs';

/** The playground resolves DATABASE_FILENAME against its own directory. */
export const dbFile = (name) => ({
  env: path.join('.tmp', name),
  abs: path.join(TMP, name),
});
export const removeDb = (file) => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file.abs + suffix, { force: true });
};

export const baseEnv = {
  ...benchEnv(),
  // Limits high enough never to refuse the load, still counted: their cost is part of the measured endpoints.
  CMS_BAG_CONFIG: JSON.stringify({
    rateLimit: Object.fromEntries(
      ['login', 'captchaImage', 'refreshToken'].map((name) => [name, { interval: '1h', max: 1_000_000_000 }]),
    ),
  }),
};

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
export const start = (script, env) => {
  const child = fork(path.join(ROOT, 'bench', script), [], {
    env,
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

export async function bootServer({ db, withPlugin = true, withHostApi = false }) {
  const port = await freePort();
  const child = start('server.mjs', {
    ...baseEnv,
    PORT: String(port),
    DATABASE_FILENAME: db.env,
    CMS_BAG_ENABLED: String(withPlugin),
    BENCH_HOST_API: String(withHostApi),
  });
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

export async function measureBoot() {
  const variants = {
    with: dbFile('bench-boot-with.db'),
    without: dbFile('bench-boot-without.db'),
  };
  const samples = { with: [], without: [] };
  for (const [name, db] of Object.entries(variants)) {
    removeDb(db);
    // The first boot creates the schema; what is compared is a restart against an up-to-date database.
    await stopServer(await bootServer({ db, withPlugin: name === 'with' }));
  }
  for (let round = 0; round < BOOT_ROUNDS; round += 1) {
    for (const [name, db] of Object.entries(variants)) {
      const server = await bootServer({ db, withPlugin: name === 'with' });
      samples[name].push({
        bootMs: server.bootMs,
        cpuMs: server.cpuMs,
        rssBytes: server.rssBytes,
      });
      await stopServer(server);
    }
  }
  for (const db of Object.values(variants)) removeDb(db);
  const summarize = (list) => ({
    bootMs: median(list.map((s) => s.bootMs)),
    cpuMs: median(list.map((s) => s.cpuMs)),
    rssBytes: median(list.map((s) => s.rssBytes)),
    samples: list,
  });
  return { with: summarize(samples.with), without: summarize(samples.without) };
}
