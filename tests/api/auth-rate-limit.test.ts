/** Rate limits of the account endpoints: 429 + Retry-After once a counter passes its max. */
import { createUser } from '../helpers/fixtures';
import { AUTH, restoreClock, shiftClock } from '../helpers/auth';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const MAX = 3;
const limit = { interval: '1m', max: MAX };

describe('account rate limits', () => {
  let app: TestApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    // Trusting X-Forwarded-For (the host's proxy setting) lets one test client stand for several client IPs.
    app = await setupStrapi({
      env: { ...smtp.env, PROXY_TRUST: 'true' },
      config: {
        register: { captcha: { enabled: false } },
        captcha: { email: { resendInterval: 1 } },
        rateLimit: { login: limit, register: limit, sendCode: limit, captchaImage: limit, refreshToken: limit },
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  let lastIp = 0;
  const newIp = () => `10.0.${Math.floor((lastIp += 1) / 250)}.${lastIp % 250}`;
  const from = (ip: string) => ({
    get: (path: string) => app.request().get(`${AUTH}${path}`).set('X-Forwarded-For', ip),
    post: (path: string, body: object) => app.request().post(`${AUTH}${path}`).set('X-Forwarded-For', ip).send(body),
  });

  const expectLimited = (res: { status: number; body: any; headers: Record<string, string> }) => {
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe('Too many requests, please try again later.');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
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

  it('login, per identifier across client IPs (case-insensitive)', async () => {
    const user = await createUser(app.strapi);
    for (let i = 0; i < MAX; i += 1) await from(newIp()).post('/login', { identifier: user.email.toUpperCase(), password: 'wrong' }).expect(400);
    expectLimited(await from(newIp()).post('/login', { identifier: user.email, password: user.password }));
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
