/** Rate limits of the account endpoints: 429 + Retry-After once a counter passes its max. */
import { createUser } from '../helpers/fixtures';
import {
  AUTH,
  clientAddresses,
  expectRateLimited,
  fromIp,
  observeCaptchaTexts,
  restoreClock,
  setSettings,
  shiftClock,
  solvePowNonce,
  startProxiedAuthApp,
  type PowChallengeBody,
} from '../helpers/auth';
import type { TestSmtp } from '../helpers/smtp';
import type { TestApp } from '../helpers/strapi';

const MAX = 3;
const RATE_LIMIT_UID = 'plugin::cms-plugin-bag.rate-limit';
const limit = { interval: '1m', max: MAX };
// Small enough that a test solves a proof of work in about a millisecond.
const POW = { difficulty: 8 };

describe('account rate limits', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let texts: ReturnType<typeof observeCaptchaTexts>;

  beforeAll(async () => {
    ({ app, smtp, texts } = await startProxiedAuthApp({
      register: { captcha: { enabled: false } },
      captcha: { email: { resendInterval: 1 }, pow: POW },
      rateLimit: { login: limit, register: limit, sendCode: limit, captchaImage: limit, refreshToken: limit },
    }));
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  const newIp = clientAddresses(0);
  const from = (ip: string) => fromIp(app, ip, AUTH);
  const expectLimited = expectRateLimited;

  /** A fresh image captcha fetched with `get` (a client's own address) and its observed text. */
  const imageCaptcha = async (get: (path: string) => ReturnType<ReturnType<typeof from>['get']>) => {
    const res = await get('/captcha-image').expect(200);
    return { key: res.body.key as string, text: texts.last() };
  };

  it('captcha-image, per client IP', async () => {
    const ip = newIp();
    for (let i = 0; i < MAX; i += 1) await from(ip).get('/captcha-image').expect(200);
    expectLimited(await from(ip).get('/captcha-image'));
    await from(newIp()).get('/captcha-image').expect(200);
  });

  it('captcha-pow, per client IP, on the same counter as captcha-image', async () => {
    const ip = newIp();
    for (let i = 0; i < MAX - 1; i += 1) await from(ip).get('/captcha-pow').expect(200);
    await from(ip).get('/captcha-image').expect(200);
    expectLimited(await from(ip).get('/captcha-pow'));
    await from(newIp()).get('/captcha-pow').expect(200);
  });

  it('login, per client IP, counting refused attempts too', async () => {
    const user = await createUser(app.strapi);
    const ip = newIp();
    for (let i = 0; i < MAX; i += 1) await from(ip).post('/login', { identifier: `nobody${i}@example.com`, password: 'wrong' }).expect(400);
    expectLimited(await from(ip).post('/login', { identifier: user.email, password: user.password }));
    await from(newIp()).post('/login', { identifier: user.email, password: user.password }).expect(200);
  });

  it('login, per identifier across client IPs (case-insensitive): past the max, no login without a captcha', async () => {
    const user = await createUser(app.strapi);
    for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/login', { identifier: user.email.toUpperCase(), password: 'wrong' }).expect(400);
    const res = await from(newIp()).post('/login', { identifier: user.email, password: user.password });
    expectLimited(res);
    expect(res.body.error.details).toEqual({ captcha: 'required' });
  });

  it("login, one failure counter per account: its e-mail in any case and its username add up", async () => {
    const user = await createUser(app.strapi);
    for (const identifier of [user.email, user.username, user.email.toUpperCase()]) {
      await from(newIp()).post('/login', { identifier, password: 'wrong' }).expect(400);
    }
    for (const identifier of [user.username, user.email]) {
      const res = await from(newIp()).post('/login', { identifier, password: user.password });
      expectLimited(res);
      expect(res.body.error.details).toEqual({ captcha: 'required' });
    }
  });

  it('login, an identifier naming no account counts by the typed string, trimmed and in any case', async () => {
    const unknown = `Nobody-${Date.now()}@Example.com`;
    for (const identifier of [unknown, unknown.toLowerCase(), ` ${unknown.toUpperCase()} `]) {
      await from(newIp()).post('/login', { identifier, password: 'wrong' }).expect(400);
    }
    const res = await from(newIp()).post('/login', { identifier: unknown, password: 'wrong' });
    expectLimited(res);
    expect(res.body.error.details).toEqual({ captcha: 'required' });
  });

  describe('login lock-out: the account counter counts failures, and past its max asks for an e-mail code', () => {
    /** An attacker's wrong passwords, each from a new address, until the victim's account counter has tripped. */
    const tripIdentifier = async (identifier: string) => {
      for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/login', { identifier, password: 'wrong' }).expect(400);
      expectLimited(await from(newIp()).post('/login', { identifier, password: 'wrong' }));
    };
    const emailCode = async (address: string) => {
      await from(newIp()).post('/send-code', { identifier: address }).expect(200);
      return smtp.nextCode(address);
    };
    const solvedPow = async () => {
      const challenge = (await from(newIp()).get('/captcha-pow').expect(200)).body as PowChallengeBody;
      return { key: challenge.key, code: solvePowNonce(challenge) };
    };
    const expectError = (res: { status: number; body: any }, message: string) =>
      expect({ status: res.status, message: res.body.error?.message }).toEqual({ status: 400, message });

    it("lets the victim in from another address with the right password and a code sent to the account's address", async () => {
      const user = await createUser(app.strapi);
      await tripIdentifier(user.email);
      const denied = await from(newIp()).post('/login', { identifier: user.email, password: user.password });
      expectLimited(denied);
      expect(denied.body.error.details).toEqual({ captcha: 'required' });

      const res = await from(newIp()).post('/login', { identifier: user.email, password: user.password, code: await emailCode(user.email) });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
    });

    it("lets the victim in with an e-mail code sent to the account's address, also when logging in by username", async () => {
      const user = await createUser(app.strapi);
      await tripIdentifier(user.username);
      const code = await emailCode(user.email);
      const res = await from(newIp()).post('/login', { identifier: user.username, password: user.password, code });
      expect(res.status).toBe(200);
    });

    it('does not take a proof of work, nor by default an image captcha: a script pays for either with CPU alone', async () => {
      const user = await createUser(app.strapi);
      await tripIdentifier(user.email);
      const credentials = { identifier: user.email, password: user.password };
      expectError(await from(newIp()).post('/login', { ...credentials, ...(await solvedPow()) }), 'Invalid or expired captcha code');
      const image = await imageCaptcha(from(newIp()).get);
      expectError(await from(newIp()).post('/login', { ...credentials, key: image.key, code: image.text }), 'Invalid or expired captcha code');
      await from(newIp()).post('/login', { ...credentials, code: await emailCode(user.email) }).expect(200);
    });

    it('does not take a proof of work when it is the login captcha either: the e-mail code, stronger, replaces it', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'pow' } } });
      try {
        const user = await createUser(app.strapi);
        await from(newIp()).post('/login', { identifier: user.email, password: user.password, ...(await solvedPow()) }).expect(200);
        for (let i = 0; i < MAX; i += 1) {
          await from(newIp()).post('/login', { identifier: user.email, password: 'wrong', ...(await solvedPow()) }).expect(400);
        }
        const credentials = { identifier: user.email, password: user.password };
        expectError(await from(newIp()).post('/login', { ...credentials, ...(await solvedPow()) }), 'Invalid or expired captcha code');
        await from(newIp()).post('/login', { ...credentials, code: await emailCode(user.email) }).expect(200);
      } finally {
        await setSettings(app.strapi, { login: { captcha: { enabled: false } } });
      }
    });

    it('still refuses a wrong code or a wrong password in escalation', async () => {
      const user = await createUser(app.strapi);
      await tripIdentifier(user.email);
      const code = await emailCode(user.email);
      const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      expectError(await from(newIp()).post('/login', { identifier: user.email, password: user.password, code: wrongCode }), 'Invalid or expired captcha code');
      expectError(await from(newIp()).post('/login', { identifier: user.email, password: 'wrong', code }), 'Invalid identifier or password');
    });

    it('does not count successful logins', async () => {
      const user = await createUser(app.strapi);
      for (let i = 0; i < MAX + 2; i += 1) await from(newIp()).post('/login', { identifier: user.email, password: user.password }).expect(200);
      await from(newIp()).post('/login', { identifier: user.email, password: 'wrong' }).expect(400);
    });

    it('never writes the identifier counter for a request the IP counter refused (login and send-code)', async () => {
      const user = await createUser(app.strapi);
      const rows = () => app.strapi.db.query(RATE_LIMIT_UID).count();
      for (const [path, field] of [['/login', 'identifier'], ['/send-code', 'identifier']] as const) {
        const attacker = from(newIp());
        for (let i = 0; i < MAX; i += 1) await attacker.post(path, { [field]: `warm${i}-${path.slice(1)}@example.com`, password: 'wrong' });
        const before = await rows();
        for (let i = 0; i < MAX + 2; i += 1) expectLimited(await attacker.post(path, { [field]: `refused${i}-${path.slice(1)}@example.com`, password: 'wrong' }));
        for (let i = 0; i < MAX + 2; i += 1) expectLimited(await attacker.post(path, { [field]: user.email, password: 'wrong' }));
        expect(await rows()).toBe(before);
      }
      // The refused attempts on the victim's identifier left it alone: the right password needs no captcha.
      await from(newIp()).post('/login', { identifier: user.email, password: user.password }).expect(200);
    });
  });

  it('register, per client IP and per e-mail', async () => {
    const ip = newIp();
    for (let i = 0; i < MAX; i += 1) await from(ip).post('/register', { username: `rl${i}`, email: 'bad' }).expect(400);
    expectLimited(await from(ip).post('/register', { username: 'rlx', email: 'rlx@example.com', password: 'Pw-12345678' }));
    for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/register', { username: `rly${i}`, email: 'rly@example.com' }).expect(400);
    expectLimited(await from(newIp()).post('/register', { username: 'rly', email: 'rly@example.com', password: 'Pw-12345678' }));
  });

  it('send-code, per client IP and per address; a refused request sends nothing', async () => {
    const ip = newIp();
    for (let i = 0; i < MAX; i += 1) await from(ip).post('/send-code', { identifier: `rl${i}@example.com` }).expect(200);
    expectLimited(await from(ip).post('/send-code', { identifier: 'rl-last@example.com' }));
    expect(smtp.mails.some((mail) => mail.to.includes('rl-last@example.com'))).toBe(false);
    // Each send 2 s after the last: past the 1 s resend interval, inside the counter's 1 min window.
    try {
      for (let i = 0; i < MAX; i += 1) {
        shiftClock(app.strapi, 2000 * i);
        await from(newIp()).post('/send-code', { identifier: 'rl-same@example.com' }).expect(200);
      }
      shiftClock(app.strapi, 2000 * MAX);
      expectLimited(await from(newIp()).post('/send-code', { identifier: 'rl-same@example.com' }));
    } finally {
      restoreClock(app.strapi);
    }
  });

  it('refresh-token, per client IP', async () => {
    const ip = newIp();
    for (let i = 0; i < MAX; i += 1) await from(ip).post('/refresh-token', { refreshToken: 'x' }).expect(400);
    expectLimited(await from(ip).post('/refresh-token', { refreshToken: 'x' }));
  });
});

describe("login escalation with login.escalation.type 'image'", () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let texts: ReturnType<typeof observeCaptchaTexts>;
  const newIp = clientAddresses(2);
  const from = (ip: string) => fromIp(app, ip, AUTH);

  beforeAll(async () => {
    ({ app, smtp, texts } = await startProxiedAuthApp({
      login: { escalation: { type: 'image' } },
      captcha: { email: { resendInterval: 1 }, pow: POW },
      rateLimit: { login: limit },
    }));
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  it('lifts the escalation with an image captcha only: neither a proof of work nor an e-mail code', async () => {
    const user = await createUser(app.strapi);
    for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/login', { identifier: user.email, password: 'wrong' }).expect(400);
    const credentials = { identifier: user.email, password: user.password };
    expectRateLimited(await from(newIp()).post('/login', credentials));

    const challenge = (await from(newIp()).get('/captcha-pow').expect(200)).body as PowChallengeBody;
    const pow = await from(newIp()).post('/login', { ...credentials, key: challenge.key, code: solvePowNonce(challenge) });
    expect({ status: pow.status, message: pow.body.error.message }).toEqual({ status: 400, message: 'Invalid or expired captcha code' });
    await from(newIp()).post('/send-code', { identifier: user.email }).expect(200);
    const mailed = await from(newIp()).post('/login', { ...credentials, code: await smtp.nextCode(user.email) });
    expect({ status: mailed.status, message: mailed.body.error.message }).toEqual({ status: 400, message: 'Captcha code is required' });

    const image = await from(newIp()).get('/captcha-image').expect(200);
    await from(newIp()).post('/login', { ...credentials, key: image.body.key, code: texts.last() }).expect(200);
  });

  it('keeps the login captcha when it is stronger: an e-mail login captcha is not traded for an image', async () => {
    const user = await createUser(app.strapi);
    const credentials = { identifier: user.email, password: user.password };
    for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/login', { identifier: user.email, password: 'wrong' }).expect(400);
    await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } } });
    try {
      const image = await from(newIp()).get('/captcha-image').expect(200);
      const res = await from(newIp()).post('/login', { ...credentials, key: image.body.key, code: texts.last() });
      expect({ status: res.status, message: res.body.error.message }).toEqual({ status: 400, message: 'Invalid or expired captcha code' });
      await from(newIp()).post('/send-code', { identifier: user.email }).expect(200);
      await from(newIp()).post('/login', { ...credentials, code: await smtp.nextCode(user.email) }).expect(200);
    } finally {
      await setSettings(app.strapi, { login: { captcha: { enabled: false } } });
    }
  });
});
