/**
 * Separate playground processes on one PostgreSQL database (tests/multi): each is `playground/scripts/start-instance.js`
 * forked with the same secrets as the test file's in-process instance, on its own port.
 */
import { fork, type ChildProcess } from 'child_process';
import path from 'path';
import request from 'supertest';
import { PLAYGROUND, sharedSecrets } from './strapi';

export interface Instance {
  name: string;
  port: number;
  /** supertest against this instance (`http://127.0.0.1:<port>`). */
  request: () => ReturnType<typeof request>;
  /** Resolves with the text of the next image captcha this instance draws (test seam over IPC). */
  nextCaptchaText: () => Promise<string>;
  /** Everything the process wrote to stdout/stderr, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

export interface InstanceOptions {
  name: string;
  databaseName: string;
  config?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  /** How long to wait for the instance to listen. */
  timeoutMs?: number;
}

const SCRIPT = path.join(PLAYGROUND, 'scripts', 'start-instance.js');

export async function startInstance({ name, databaseName, config, env, timeoutMs = 120_000 }: InstanceOptions): Promise<Instance> {
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    SERVE_ADMIN: 'false',
    SEED: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    DATABASE_CLIENT: 'postgres',
    DATABASE_NAME: databaseName,
    DATABASE_URL: undefined,
    CMS_BAG_CONFIG: JSON.stringify(config ?? {}),
    ...sharedSecrets(),
    ...env,
  })) {
    if (value !== undefined) childEnv[key] = value;
  }

  const child: ChildProcess = fork(SCRIPT, [], { cwd: PLAYGROUND, env: childEnv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));

  const captchaTexts: string[] = [];
  const captchaWaiters: Array<(text: string) => void> = [];
  child.on('message', (message: { type?: string; text?: string }) => {
    if (message.type !== 'captcha' || typeof message.text !== 'string') return;
    const waiter = captchaWaiters.shift();
    if (waiter) waiter(message.text);
    else captchaTexts.push(message.text);
  });

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'ready' && message.port) {
        clearTimeout(timer);
        resolve(message.port);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited with ${code} before listening:\n${output}`));
    });
  });

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    port,
    request: () => request(`http://127.0.0.1:${port}`),
    nextCaptchaText: () =>
      new Promise<string>((resolve, reject) => {
        const ready = captchaTexts.shift();
        if (ready !== undefined) return resolve(ready);
        const timer = setTimeout(() => reject(new Error(`instance ${name} drew no captcha`)), 10_000);
        captchaWaiters.push((text) => {
          clearTimeout(timer);
          resolve(text);
        });
      }),
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
