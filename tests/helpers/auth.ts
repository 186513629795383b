/** Shortcuts for the account tests: the plugin's services, the captcha text seam, captured log lines. */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { startSmtp } from './smtp';
import { setupStrapi, type TestApp } from './strapi';

export const AUTH = '/api/cms-plugin-bag/auth';
export const plugin = (strapi: Core.Strapi) => strapi.plugin('cms-plugin-bag');

/** Observes the text of every image captcha the plugin draws (through its generator seam). */
export function observeCaptchaTexts(strapi: Core.Strapi) {
  const spy = jest.spyOn(plugin(strapi).service('captcha'), 'generateText');
  return {
    /** The text of the captcha drawn last. */
    last: (): string => {
      const result = spy.mock.results[spy.mock.results.length - 1];
      if (!result || result.type !== 'return') throw new Error('no captcha drawn yet');
      return result.value as string;
    },
    all: (): string[] => spy.mock.results.map((result) => result.value as string),
  };
}

/**
 * The playground with a real SMTP server, trusting X-Forwarded-For (the host's proxy setting) so one test client
 * stands for several client IPs, and the captcha texts it draws.
 */
export async function startProxiedAuthApp(config: Record<string, unknown>) {
  const smtp = await startSmtp();
  const app = await setupStrapi({ env: { ...smtp.env, PROXY_TRUST: 'true' }, config });
  return { app, smtp, texts: observeCaptchaTexts(app.strapi) };
}

/** A fresh image captcha: its key and (observed) text. */
export async function imageCaptcha(app: TestApp, texts: ReturnType<typeof observeCaptchaTexts>) {
  const res = await app.request().get(`${AUTH}/captcha-image`);
  if (res.status !== 200) throw new Error(`captcha-image failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { key: res.body.key as string, text: texts.last(), svg: res.body.svg as string };
}

export interface PowChallengeBody {
  key: string;
  challenge: string;
  difficulty: number;
}

/** Leading zero bits of SHA-256(`${challenge}:${nonce}`), counted over the bytes (the server counts hex digits). */
export const powBits = (challenge: string, nonce: string): number => {
  let bits = 0;
  for (const byte of crypto.createHash('sha256').update(`${challenge}:${nonce}`).digest()) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
};

/**
 * The first decimal nonce solving `challenge` that `also` accepts (to pick one that fails another challenge).
 * Gives up after 2^(difficulty + 8) tries, so a search that cannot succeed fails the test instead of hanging it.
 */
export function solvePowNonce({ challenge, difficulty }: PowChallengeBody, also: (nonce: string) => boolean = () => true): string {
  for (let i = 0; i < 2 ** (difficulty + 8); i += 1) {
    const nonce = String(i);
    if (powBits(challenge, nonce) >= difficulty && also(nonce)) return nonce;
  }
  throw new Error(`no nonce found for challenge ${challenge}`);
}

/** A fresh proof-of-work challenge from the plugin's route. */
export async function powChallenge(app: TestApp): Promise<PowChallengeBody> {
  const res = await app.request().get(`${AUTH}/captcha-pow`);
  if (res.status !== 200) throw new Error(`captcha-pow failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as PowChallengeBody;
}

/** Collects every line written through strapi.log, whatever the configured level. */
export function captureLogs(strapi: Core.Strapi): string[] {
  const lines: string[] = [];
  const log = strapi.log as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const level of ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly', 'log']) {
    if (typeof log[level] !== 'function') continue;
    const original = log[level].bind(strapi.log);
    jest.spyOn(log, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
      return original(...args);
    });
  }
  return lines;
}

/** Sets the plugin's admin settings (as Settings → CMS Bag would). */
export const setSettings = (strapi: Core.Strapi, settings: Record<string, unknown>) => plugin(strapi).service('settings').update(settings);

/** Sets users-permissions advanced settings (allow_register, email_confirmation, …), keeping the others. */
export async function setAdvanced(strapi: Core.Strapi, values: Record<string, unknown>) {
  const store = strapi.store({ type: 'plugin', name: 'users-permissions' });
  const current = ((await store.get({ key: 'advanced' })) as Record<string, unknown>) ?? {};
  await store.set({ key: 'advanced', value: { ...current, ...values } });
}

/**
 * Moves the plugin's clock by `ms` (captcha, code and refresh-token expiry; resend interval) until restoreClock().
 */
export const shiftClock = (strapi: Core.Strapi, ms: number) => {
  const clock = plugin(strapi).service('clock');
  const real = Date.now;
  return jest.spyOn(clock, 'now').mockImplementation(() => real() + ms);
};

/** Puts the plugin's clock back to real time. */
export const restoreClock = (strapi: Core.Strapi) => {
  const now = plugin(strapi).service('clock').now as jest.Mock | (() => number);
  if ('mockRestore' in now) now.mockRestore();
};

/** The payload of a jwt, without verifying it. */
export const jwtPayload = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));

/**
 * Makes concurrent requests really overlap: every DELETE on `uid` waits (through the host's database lifecycles)
 * until `parties` of them are waiting, or `timeoutMs` passed, so each request has read the row before any deletes it.
 * Returns the function that removes the hold.
 */
export function holdDeletesUntil(strapi: Core.Strapi, uid: string, parties: number, timeoutMs = 3000): () => void {
  const waiting: (() => void)[] = [];
  return strapi.db.lifecycles.subscribe({
    models: [uid],
    async beforeDeleteMany() {
      await new Promise<void>((resolve) => {
        // Cleared on release, so no timer outlives the test and keeps Jest from exiting.
        const timer = setTimeout(resolve, timeoutMs);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
        if (waiting.length >= parties) waiting.splice(0).forEach((release) => release());
      });
    },
  });
}

/** A source of distinct client addresses `10.<block>.x.y` (one block per test file), for apps trusting the proxy. */
export const clientAddresses = (block: number) => {
  let last = 0;
  return () => `10.${block}.${Math.floor((last += 1) / 250)}.${last % 250}`;
};

/**
 * Requests from client `ip` under `base` (e.g. AUTH): the app must trust X-Forwarded-For (PROXY_TRUST, the host's
 * proxy setting), so one test client stands for several client IPs.
 */
export const fromIp = (app: TestApp, ip: string, base = '') => ({
  get: (path: string) => app.request().get(`${base}${path}`).set('X-Forwarded-For', ip),
  post: (path: string, body: object) => app.request().post(`${base}${path}`).set('X-Forwarded-For', ip).send(body),
});

/** A 429 in the words of docs/accounts.md#errors, with a Retry-After inside a 1-minute window. */
export const expectRateLimited = (res: { status: number; body: any; headers: Record<string, string> }) => {
  expect(res.status).toBe(429);
  expect(res.body.error.message).toBe('Too many requests, please try again later.');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
};
