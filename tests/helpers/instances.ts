/**
 * Separate playground processes on one PostgreSQL database (tests/multi): each is `playground/scripts/start-instance.js`
 * forked with the same secrets as the test file's in-process instance, on its own port. `startTwoInstances` is the
 * usual set-up: the in-process instance (which makes the database) and two processes A and B on it.
 */
import { fork, type ChildProcess } from 'child_process';
import path from 'path';
import request from 'supertest';
import { PLAYGROUND, asFrontEnd, setupStrapi, sharedSecrets, type TestApp } from './strapi';
import { playgroundProcessEnv } from './template';

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
  /** SIGKILL: the process dies where it is, nothing of its shutdown runs (a crash). */
  kill: () => Promise<void>;
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
  const childEnv = playgroundProcessEnv({
    DATABASE_CLIENT: 'postgres',
    DATABASE_NAME: databaseName,
    DATABASE_URL: undefined,
    CMS_BAG_CONFIG: JSON.stringify(config ?? {}),
    ...sharedSecrets(),
    ...env,
  });

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
    // Says `node`, as the single-instance helper's requests do (a detail read without a User-Agent counts no view).
    request: () => asFrontEnd(request(`http://127.0.0.1:${port}`)),
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
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface TwoInstances {
  /** The test file's in-process instance: it made the database; seed and inspect through it. */
  setup: TestApp;
  a: Instance;
  b: Instance;
  /** Stops A and B, then the in-process instance (dropping the database). */
  stop: () => Promise<void>;
}

export interface TwoInstancesOptions {
  config?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  /** Runs on the in-process instance before A and B boot (a permission or token they must find at start-up). */
  beforeInstances?: (setup: TestApp) => Promise<void>;
}

/** Boots the in-process instance, then A and B at once on its database, all with the same config and env. */
export async function startTwoInstances({ config, env, beforeInstances }: TwoInstancesOptions = {}): Promise<TwoInstances> {
  const setup = await setupStrapi({ config, env });
  const started: Instance[] = [];
  const stop = async () => {
    await Promise.all(started.map((instance) => instance.stop()));
    await setup.stop();
  };
  try {
    await beforeInstances?.(setup);
    const boots = await Promise.allSettled(
      ['A', 'B'].map((name) => startInstance({ name, databaseName: setup.databaseFile, config, env })),
    );
    for (const boot of boots) if (boot.status === 'fulfilled') started.push(boot.value);
    const failed = boots.find((boot): boot is PromiseRejectedResult => boot.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await stop();
    throw error;
  }
  const [a, b] = started;
  return { setup, a, b, stop };
}
