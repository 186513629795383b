/**
 * `auth.hostRoutes`: with 'guarded' (the default) the host's own `/api/auth/local`, `/api/auth/local/register` and
 * `/api/auth/forgot-password` take the plugin's captcha and rate limits (shared counters with the plugin's routes);
 * with 'open' they are as the host made them.
 */
import { createUser } from '../helpers/fixtures';
import {
  AUTH,
  clientAddresses,
  expectRateLimited,
  fromIp,
  observeCaptchaTexts,
  setSettings,
  solvePowNonce,
  startProxiedAuthApp,
  type PowChallengeBody,
} from '../helpers/auth';
import type { TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const MAX = 3;
const limit = { interval: '1m', max: MAX };

type Res = { status: number; body: any; headers: Record<string, string> };
const expectError = (res: Res, status: number, message: string) => {
  expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
};

const newIp = clientAddresses(1);

describe("auth.hostRoutes 'guarded' (default)", () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let texts: ReturnType<typeof observeCaptchaTexts>;

  beforeAll(async () => {
    ({ app, smtp, texts } = await startProxiedAuthApp({
      // A proof of work small enough for a test to solve in about a millisecond.
      captcha: { email: { resendInterval: 1 }, pow: { difficulty: 8 } },
      rateLimit: { login: limit, register: limit, sendCode: limit },
    }));
  });
  beforeEach(async () => {
    await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } }, register: { captcha: { enabled: true, type: 'email' } } });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  const from = (ip: string) => fromIp(app, ip);
  const imageCaptcha = async () => {
    const res = await from(newIp()).get(`${AUTH}/captcha-image`).expect(200);
    return { key: res.body.key as string, code: texts.last() };
  };
  const emailCode = async (address: string) => {
    await from(newIp()).post(`${AUTH}/send-code`, { identifier: address }).expect(200);
    return smtp.nextCode(address);
  };
  const expectLimited = expectRateLimited;

  describe('register (register.captcha)', () => {
    it('needs the captcha, and says an e-mail is taken only to a request carrying a code sent to that address', async () => {
      const taken = await createUser(app.strapi);
      const fresh = { username: `host-reg-${Date.now()}`, email: `host-reg-${Date.now()}@example.com`, password: 'Pw-12345678' };
      expectError(await from(newIp()).post('/api/auth/local/register', fresh), 400, 'Captcha code is required');
      expectError(await from(newIp()).post('/api/auth/local/register', { ...fresh, email: taken.email }), 400, 'Captcha code is required');
      expectError(await from(newIp()).post('/api/auth/local/register', { ...fresh, email: taken.email, code: '000000' }), 400, 'Invalid or expired captcha code');

      const res = await from(newIp()).post('/api/auth/local/register', { ...fresh, code: await emailCode(fresh.email) });
      expect(res.status).toBe(200);
      expect(res.body.user).toMatchObject({ username: fresh.username, email: fresh.email });
      expect(typeof res.body.jwt).toBe('string');
      const again = { ...fresh, username: `${fresh.username}-2`, code: await emailCode(fresh.email) };
      expectError(await from(newIp()).post('/api/auth/local/register', again), 400, 'Email or Username are already taken');
    });

    it('takes an image captcha when register.captcha.type is image', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'image' } } });
      const body = { username: `host-img-${Date.now()}`, email: `host-img-${Date.now()}@example.com`, password: 'Pw-12345678' };
      expectError(await from(newIp()).post('/api/auth/local/register', { ...body, code: 'abcd' }), 400, 'Captcha code is required');
      await from(newIp()).post('/api/auth/local/register', { ...body, ...(await imageCaptcha()) }).expect(200);
    });

    it('counts per client IP and per e-mail with rateLimit.register', async () => {
      const ip = newIp();
      for (let i = 0; i < MAX; i += 1) await from(ip).post('/api/auth/local/register', { username: `rl${i}`, email: `host-rl${i}@example.com` }).expect(400);
      expectLimited(await from(ip).post('/api/auth/local/register', { username: 'rlx', email: 'host-rlx@example.com' }));
      for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/api/auth/local/register', { username: `rly${i}`, email: 'host-rly@example.com' }).expect(400);
      expectLimited(await from(newIp()).post('/api/auth/local/register', { username: 'rly', email: 'host-rly@example.com' }));
    });

    it('answers a malformed captcha field with a ValidationError naming it', async () => {
      const res = await from(newIp()).post('/api/auth/local/register', { username: 'x', email: 'x@example.com', password: 'Pw-12345678', code: 123456 });
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors[0].path).toEqual(['code']);
    });
  });

  describe('login (login.captcha)', () => {
    it('needs the login captcha when it is on', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } } });
      const user = await createUser(app.strapi);
      const credentials = { identifier: user.email, password: user.password };
      expectError(await from(newIp()).post('/api/auth/local', credentials), 400, 'Captcha code is required');
      const res = await from(newIp()).post('/api/auth/local', { ...credentials, ...(await imageCaptcha()) });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(user.id);
    });

    it("takes an e-mail code sent to the account's address, also when logging in by username", async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } } });
      const user = await createUser(app.strapi);
      const other = await createUser(app.strapi);
      const credentials = { identifier: user.username, password: user.password };
      expectError(await from(newIp()).post('/api/auth/local', credentials), 400, 'Captcha code is required');
      expectError(await from(newIp()).post('/api/auth/local', { ...credentials, code: await emailCode(other.email) }), 400, 'Invalid or expired captcha code');
      await from(newIp()).post('/api/auth/local', { ...credentials, code: await emailCode(user.email) }).expect(200);
    });

    it("shares the plugin's login counters: per client IP, and per identifier with the captcha escalation", async () => {
      const user = await createUser(app.strapi);
      const ip = newIp();
      for (let i = 0; i < MAX; i += 1) await from(ip).post('/api/auth/local', { identifier: `host-nobody${i}@example.com`, password: 'wrong' }).expect(400);
      expectLimited(await from(ip).post(`${AUTH}/login`, { identifier: user.email, password: user.password }));

      for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/api/auth/local', { identifier: user.email, password: 'wrong' }).expect(400);
      const denied = await from(newIp()).post('/api/auth/local', { identifier: user.email, password: user.password });
      expectLimited(denied);
      expect(denied.body.error.details).toEqual({ captcha: 'required' });
      expectLimited(await from(newIp()).post(`${AUTH}/login`, { identifier: user.email, password: user.password }));
      await from(newIp()).post('/api/auth/local', { identifier: user.email, password: user.password, code: await emailCode(user.email) }).expect(200);
    });

    it("counts failures per account on both routes: the username on the host's, the e-mail on the plugin's", async () => {
      const user = await createUser(app.strapi);
      await from(newIp()).post('/api/auth/local', { identifier: user.username, password: 'wrong' }).expect(400);
      await from(newIp()).post(`${AUTH}/login`, { identifier: user.email.toUpperCase(), password: 'wrong' }).expect(400);
      await from(newIp()).post('/api/auth/local', { identifier: user.email, password: 'wrong' }).expect(400);
      for (const [path, identifier] of [['/api/auth/local', user.username], [`${AUTH}/login`, user.username], ['/api/auth/local', user.email]]) {
        const denied = await from(newIp()).post(path, { identifier, password: user.password });
        expectLimited(denied);
        expect(denied.body.error.details).toEqual({ captcha: 'required' });
      }
    });

    it('does not lift the escalation with a proof of work', async () => {
      const user = await createUser(app.strapi);
      for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/api/auth/local', { identifier: user.email, password: 'wrong' }).expect(400);
      const challenge = (await from(newIp()).get(`${AUTH}/captcha-pow`).expect(200)).body as PowChallengeBody;
      const res = await from(newIp()).post('/api/auth/local', { identifier: user.email, password: user.password, key: challenge.key, code: solvePowNonce(challenge) });
      expectError(res, 400, 'Invalid or expired captcha code');
    });

    it('answers an identifier no column can hold (a NUL character, over 255 characters) with a 400, not a 500', async () => {
      for (const identifier of ['a\u0000b@example.com', `${'x'.repeat(300)}@example.com`]) {
        expectError(await from(newIp()).post('/api/auth/local', { identifier, password: 'wrong' }), 400, 'Invalid identifier or password');
      }
    });

    it('compares the password against a dummy hash for an unknown identifier, as the plugin login does', async () => {
      const validatePassword = jest.spyOn(app.strapi.plugin('users-permissions').service('user'), 'validatePassword');
      expectError(await from(newIp()).post('/api/auth/local', { identifier: 'host-nobody@example.com', password: 'pw' }), 400, 'Invalid identifier or password');
      expect(validatePassword).toHaveBeenCalledTimes(1);
      expect(validatePassword.mock.calls[0][0]).toBe('pw');
      validatePassword.mockRestore();
    });
  });

  describe('forgot-password (login.captcha, rateLimit.sendCode)', () => {
    it('needs the login captcha when it is on, then sends the host reset mail', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } } });
      const user = await createUser(app.strapi);
      expectError(await from(newIp()).post('/api/auth/forgot-password', { email: user.email }), 400, 'Captcha code is required');
      expect(smtp.mails.some((mail) => mail.to.includes(user.email))).toBe(false);
      await from(newIp()).post('/api/auth/forgot-password', { email: user.email, ...(await imageCaptcha()) }).expect(200);
      await smtp.nextMail(user.email);
    });

    it('counts per client IP and per address with rateLimit.sendCode', async () => {
      const ip = newIp();
      for (let i = 0; i < MAX; i += 1) await from(ip).post('/api/auth/forgot-password', { email: `host-fp${i}@example.com` }).expect(200);
      expectLimited(await from(ip).post('/api/auth/forgot-password', { email: 'host-fpx@example.com' }));
      for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/api/auth/forgot-password', { email: 'host-fpy@example.com' }).expect(200);
      expectLimited(await from(newIp()).post('/api/auth/forgot-password', { email: 'host-fpy@example.com' }));
    });
  });
});

describe("auth.hostRoutes 'open'", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ config: { auth: { hostRoutes: 'open' }, rateLimit: { login: limit } } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("leaves the host's routes as the host made them: no captcha, no plugin counters", async () => {
    const body = { username: `open-${Date.now()}`, email: `open-${Date.now()}@example.com`, password: 'Pw-12345678' };
    const res = await app.request().post('/api/auth/local/register').send(body);
    expect(res.status).toBe(200);
    for (let i = 0; i < MAX + 1; i += 1) await app.request().post('/api/auth/local').send({ identifier: body.email, password: 'wrong' }).expect(400);
    await app.request().post('/api/auth/local').send({ identifier: body.email, password: body.password }).expect(200);
  });
});
