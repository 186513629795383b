/**
 * The account's self-service routes over HTTP (docs/accounts.md#your-own-account): password reset and login by
 * e-mailed code, e-mail change with its revert link, sessions (both jwtManagement modes), sign-in alerts, deleting and
 * exporting the account, with their error and non-enumeration rows.
 */
import { TOTP } from 'otpauth';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH, captureLogs, restoreClock, setSettings, shiftClock } from '../helpers/auth';
import { COMMENT, createArticle } from '../helpers/comments';
import { startSmtp, type Mail, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const USER_UID = 'plugin::users-permissions.user';
const TOKEN_UID = 'plugin::cms-plugin-bag.refresh-token';
const CAPTCHA_UID = 'plugin::cms-plugin-bag.captcha';
const DEVICE_UID = 'plugin::cms-plugin-bag.sign-in-device';
const CHANGE_UID = 'plugin::cms-plugin-bag.email-change';

type Res = { status: number; body: any; headers: Record<string, string>; text?: string };

const expectError = (res: Res, status: number, message: string) => {
  expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
};

let ipCounter = 0;
/** A fresh client address in its own /24, so each test's sign-ins are new devices unless it says otherwise. */
const freshIp = () => `10.77.${(ipCounter += 1)}.10`;

describe('the account, self-service', () => {
  let app: TestApp;
  let smtp: TestSmtp;

  const post = (path: string, body: unknown, { jwt, ip = '10.1.1.1', ua = 'account-test/1.0' }: { jwt?: string; ip?: string; ua?: string } = {}) => {
    const req = app.request().post(`${AUTH}${path}`).set('X-Forwarded-For', ip).set('User-Agent', ua);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return req.send(body as object);
  };
  const get = (path: string, jwt?: string) => {
    const req = app.request().get(`${AUTH}${path}`).set('X-Forwarded-For', '10.1.1.1');
    return jwt ? req.set('Authorization', `Bearer ${jwt}`) : req;
  };
  const del = (path: string, jwt?: string, body?: unknown) => {
    const req = app.request().delete(`${AUTH}${path}`).set('X-Forwarded-For', '10.1.1.1');
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return body === undefined ? req : req.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };
  /** The next mail to `address` whose subject is (or starts with) this one (sign-in alerts may come in between). */
  const nextMail = async (address: string, subject: string): Promise<Mail> => {
    for (;;) {
      const mail = await smtp.nextMail(address);
      if (mail.subject === subject || mail.subject.startsWith(`${subject} (`)) return mail;
    }
  };
  const nextCode = async (address: string) => /\b(\d{6})\b/.exec((await nextMail(address, 'Your verification code')).text)![1];
  /** A code for `purpose` (§20: each route takes only codes of its own purpose). */
  const sendCode = async (address: string, purpose?: string) => {
    await post('/send-code', { identifier: address, ...(purpose ? { purpose } : {}) }, { ip: freshIp() }).expect(200);
    return nextCode(address);
  };
  const login = async (user: TestUser, opts: { ip?: string; ua?: string } = {}) =>
    (await post('/login', { identifier: user.email, password: user.password }, { ip: opts.ip ?? freshIp(), ...opts }).expect(200)).body as {
      jwt: string;
      refreshToken: string;
    };
  const refresh = (refreshToken: string) => post('/refresh-token', { refreshToken });
  const mailsTo = (address: string, subject: string) => smtp.mails.filter((mail) => mail.to.includes(address.toLowerCase()) && mail.subject === subject);

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      env: { ...smtp.env, PROXY_TRUST: 'true', PUBLIC_URL: 'https://api.example.test' },
      config: {
        register: { captcha: { enabled: false } },
        comments: { autoApprove: true },
        captcha: { email: { resendInterval: 1 } },
        rateLimit: { login: { interval: '1m', max: 1000 }, sendCode: { interval: '1h', max: 1000 } },
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });
  afterEach(async () => {
    restoreClock(app.strapi);
    await setSettings(app.strapi, { account: { passwordless: { enabled: false }, deletion: { enabled: true }, signInAlerts: true } });
  });

  describe('Bearer routes', () => {
    it.each([
      ['get', '/sessions'],
      ['delete', '/sessions'],
      ['delete', '/sessions/1'],
      ['delete', '/me'],
      ['get', '/me/export'],
      ['post', '/email'],
      ['post', '/email/confirm'],
    ])('%s %s without a token → 401', async (method, path) => {
      const req = method === 'get' ? get(path) : method === 'delete' ? del(path) : post(path, {});
      expect((await req).status).toBe(401);
    });
  });

  describe('password reset by e-mailed code', () => {
    it('changes the password with the host hashing, ends every session, returns no token', async () => {
      const user = await createUser(app.strapi);
      const { refreshToken } = await login(user);
      const code = await sendCode(user.email, 'reset');
      const res = await post('/reset-password', { identifier: user.email.toUpperCase(), code, password: 'New-secret-pass-1' }).expect(200);
      expect(res.body).toEqual({ message: 'Password changed' });
      expectError(await refresh(refreshToken), 400, 'Invalid refresh token');
      expectError(await post('/login', { identifier: user.email, password: user.password }), 400, 'Invalid identifier or password');
      await post('/login', { identifier: user.email, password: 'New-secret-pass-1' }).expect(200);
      const row = await app.strapi.db.query(USER_UID).findOne({ where: { id: user.id } });
      expect(row.password).toMatch(/^\$2[aby]\$/);
    });

    it('refuses a wrong code, and a right code for an address with no account in the same words (the code is used up)', async () => {
      const user = await createUser(app.strapi);
      await sendCode(user.email, 'reset');
      expectError(await post('/reset-password', { identifier: user.email, code: '000000x', password: 'New-secret-pass-1' }), 400, 'Invalid or expired captcha code');
      const nobody = `nobody-${Date.now()}@example.com`;
      const code = await sendCode(nobody, 'reset');
      expectError(await post('/reset-password', { identifier: nobody, code, password: 'New-secret-pass-1' }), 400, 'Invalid or expired captcha code');
      const left = await app.strapi.db.query(CAPTCHA_UID).count({ where: { kind: 'email' } });
      expectError(await post('/reset-password', { identifier: nobody, code, password: 'New-secret-pass-1' }), 400, 'Invalid or expired captcha code');
      expect(await app.strapi.db.query(CAPTCHA_UID).count({ where: { kind: 'email' } })).toBe(left);
    });

    it('applies the host password rules before using the code, and refuses a blocked account', async () => {
      const user = await createUser(app.strapi);
      const code = await sendCode(user.email, 'reset');
      const long = await post('/reset-password', { identifier: user.email, code, password: 'x'.repeat(80) });
      expectError(long, 400, 'Password must be less than 73 bytes');
      // The code was not used by the refused attempt.
      await app.strapi.db.query(USER_UID).update({ where: { id: user.id }, data: { blocked: true } });
      expectError(await post('/reset-password', { identifier: user.email, code, password: 'New-secret-pass-1' }), 400, 'Your account has been blocked by an administrator');
    });

    it('answers a malformed body with a ValidationError naming the field', async () => {
      const res = await post('/reset-password', { identifier: 'not-an-email', code: '123456', password: 'x' });
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual(['identifier']);
    });
  });

  describe('passwordless login by code', () => {
    it('is off by default: 403', async () => {
      expectError(await post('/login-code', { identifier: 'a@example.com', code: '123456' }), 403, 'Passwordless login is disabled');
    });

    it('logs in with a code alone when on; unknown addresses and wrong codes get the same 400', async () => {
      await setSettings(app.strapi, { account: { passwordless: { enabled: true } } });
      const user = await createUser(app.strapi);
      const code = await sendCode(user.email, 'login-code');
      const res = await post('/login-code', { identifier: user.email, code }, { ip: freshIp() }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
      expect(res.body.user).toMatchObject({ id: user.id, email: user.email });
      expect(res.body.user).not.toHaveProperty('password');
      expectError(await post('/login-code', { identifier: user.email, code }), 400, 'Invalid or expired captcha code');
      const nobody = `nobody-lc-${Date.now()}@example.com`;
      const other = await sendCode(nobody, 'login-code');
      expectError(await post('/login-code', { identifier: nobody, code: other }), 400, 'Invalid or expired captcha code');
    });

    it('counts in login rate limits: failures per account, 429 with captcha required past the max', async () => {
      await setSettings(app.strapi, { account: { passwordless: { enabled: true } } });
      const user = await createUser(app.strapi);
      const limiter = app.strapi.plugin('cms-plugin-bag').service('rate-limit');
      const config = await app.strapi.plugin('cms-plugin-bag').service('settings').get();
      for (let i = 0; i < config.rateLimit.login.max; i += 1) await limiter.check('login', `user:${user.id}`, config);
      const res = await post('/login-code', { identifier: user.email }, { ip: freshIp() });
      expect(res.status).toBe(429);
      expect(res.body.error.details).toEqual({ captcha: 'required' });
    });
  });

  describe('e-mail change confirmed by both addresses', () => {
    it('mails a code to the new address, confirms, notifies the old one with a revert link that GET shows and POST applies', async () => {
      const user = await createUser(app.strapi);
      const { jwt, refreshToken } = await login(user);
      const newEmail = `new-${Date.now()}@example.com`;
      const logs = captureLogs(app.strapi);
      const sent = await post('/email', { email: newEmail, password: user.password }, { jwt }).set('Host', 'evil.example').expect(200);
      expect(sent.body).toEqual({ message: 'Verification code sent', expiresIn: 600 });
      const code = await nextCode(newEmail);
      expect((await app.strapi.db.query(USER_UID).findOne({ where: { id: user.id } })).email).toBe(user.email);

      expectError(await post('/email/confirm', { code: code === '000000' ? '111111' : '000000' }, { jwt }), 400, 'Invalid or expired captcha code');
      const confirmed = await post('/email/confirm', { code }, { jwt }).set('Host', 'evil.example').expect(200);
      expect(confirmed.body).toMatchObject({ id: user.id, email: newEmail });
      expect(confirmed.body).not.toHaveProperty('password');

      const notice = await nextMail(user.email, 'Your e-mail address was changed');
      expect(notice.subject).toBe('Your e-mail address was changed');
      expect(notice.text).toContain(newEmail);
      const link = /(http\S+\/api\/cms-plugin-bag\/auth\/email\/revert\?token=([A-Za-z0-9_-]{43}))/.exec(notice.text);
      expect(link).not.toBeNull();
      // The origin is the configured server URL, whatever Host the request carried.
      expect(link![1].startsWith('https://api.example.test/api/cms-plugin-bag/auth/email/revert?token=')).toBe(true);
      expect(notice.html).toContain(`href="${link![1]}"`);
      expect(link![1]).not.toContain('evil.example');
      const token = link![2];
      const row = await app.strapi.db.query(CHANGE_UID).findOne({ where: { userId: user.id, stage: 'done' } });
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(token);

      const page = await app.request().get(`${AUTH}/email/revert?token=${token}`).expect(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.text).toContain('<form method="post">');
      expect((await app.strapi.db.query(USER_UID).findOne({ where: { id: user.id } })).email).toBe(newEmail);

      const reverted = await app.request().post(`${AUTH}/email/revert?token=${token}`).set('Accept', 'application/json').expect(200);
      expect(reverted.body.message).toMatch(/back/);
      expect((await app.strapi.db.query(USER_UID).findOne({ where: { id: user.id } })).email).toBe(user.email);
      expectError(await refresh(refreshToken), 400, 'Invalid refresh token');
      expectError(await post('/email/revert', { token }), 400, 'Invalid or expired link');
      expect(logs.join('\n')).not.toContain(token);
    });

    it('refuses a wrong password (as a failed login of the account), a taken address, and a forged or expired link', async () => {
      const user = await createUser(app.strapi);
      const other = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      expectError(await post('/email', { email: `x-${Date.now()}@example.com`, password: 'wrong-pass' }, { jwt }), 400, 'Invalid password');
      expectError(await post('/email', { email: other.email.toUpperCase(), password: user.password }, { jwt }), 400, 'Email or Username are already taken');
      expectError(await post('/email/revert', { token: 'A'.repeat(43) }), 400, 'Invalid or expired link');
      expectError(await post('/email/revert', {}), 400, 'Invalid or expired link');
      expect((await app.request().get(`${AUTH}/email/revert?token=nope`)).status).toBe(400);

      const newEmail = `exp-${Date.now()}@example.com`;
      await post('/email', { email: newEmail, password: user.password }, { jwt }).expect(200);
      await post('/email/confirm', { code: await nextCode(newEmail) }, { jwt }).expect(200);
      const token = /token=([A-Za-z0-9_-]{43})/.exec((await nextMail(user.email, 'Your e-mail address was changed')).text)![1];
      shiftClock(app.strapi, 7 * 86_400_000 + 1000);
      expectError(await post('/email/revert', { token }), 400, 'Invalid or expired link');
    });

    it('a wrong password counts on the account failed-login counter', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const limiter = app.strapi.plugin('cms-plugin-bag').service('rate-limit');
      const config = await app.strapi.plugin('cms-plugin-bag').service('settings').get();
      for (let i = 0; i < config.rateLimit.login.max - 1; i += 1) await limiter.check('login', `user:${user.id}`, config);
      expectError(await post('/email', { email: `y-${Date.now()}@example.com`, password: 'wrong-pass' }, { jwt }), 400, 'Invalid password');
      const res = await post('/email', { email: `z-${Date.now()}@example.com`, password: user.password }, { jwt });
      expect(res.status).toBe(429);
      expect(res.body.error.details).toEqual({ captcha: 'required' });
    });

    it('wrong two-factor codes at the second step of a login count on the same counter', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const ip = freshIp();
      const totp = (secret: string, at: number) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
      const { secret } = (await post('/mfa/totp/setup', { password: user.password }, { jwt, ip }).expect(200)).body;
      await post('/mfa/totp/enable', { code: totp(secret, Date.now()) }, { jwt, ip }).expect(200);
      const { mfaToken } = (await post('/login', { identifier: user.email, password: user.password }, { ip }).expect(200)).body;
      const limiter = app.strapi.plugin('cms-plugin-bag').service('rate-limit');
      const config = await app.strapi.plugin('cms-plugin-bag').service('settings').get();
      for (let i = 0; i < config.rateLimit.login.max - 1; i += 1) await limiter.check('login', `user:${user.id}`, config);
      // The next step's code (the enable used this step's, and each code works once).
      const right = totp(secret, Date.now() + 30_000);
      const wrong = right.replace(/.$/, (digit) => String((Number(digit) + 1) % 10));
      expectError(await post('/login/mfa', { mfaToken, code: wrong }, { ip }), 400, 'Invalid two-factor code');
      expect((await post('/login/mfa', { mfaToken, code: right }, { ip })).status).toBe(429);
    });

    it("a wrong password on the second factor's setup counts on the same counter", async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const limiter = app.strapi.plugin('cms-plugin-bag').service('rate-limit');
      const config = await app.strapi.plugin('cms-plugin-bag').service('settings').get();
      for (let i = 0; i < config.rateLimit.login.max - 1; i += 1) await limiter.check('login', `user:${user.id}`, config);
      expectError(await post('/mfa/totp/setup', { password: 'wrong-pass' }, { jwt }), 400, 'Invalid password');
      const res = await post('/mfa/totp/setup', { password: user.password }, { jwt });
      expect(res.status).toBe(429);
      expect(res.body.error.details).toEqual({ captcha: 'required' });
    });
  });

  describe('sessions', () => {
    it('lists live sessions newest first with the current one flagged; lastUsedAt follows refreshes', async () => {
      const user = await createUser(app.strapi);
      const first = await login(user, { ua: 'Browser-A/1' });
      const second = await login(user, { ua: 'Browser-B/2' });
      const list = await get('/sessions', second.jwt).expect(200);
      expect(list.body.data).toHaveLength(2);
      expect(list.body.data.map((s: any) => [s.userAgent, s.current])).toEqual([
        ['Browser-B/2', true],
        ['Browser-A/1', false],
      ]);
      for (const session of list.body.data) {
        expect(Object.keys(session).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id', 'ip', 'lastUsedAt', 'userAgent']);
        expect(session.ip).toMatch(/^10\.77\./);
      }
      shiftClock(app.strapi, 60_000);
      const refreshed = (await refresh(first.refreshToken).expect(200)).body.jwt;
      restoreClock(app.strapi);
      const after = await get('/sessions', refreshed).expect(200);
      const a = after.body.data.find((s: any) => s.userAgent === 'Browser-A/1');
      expect(a.current).toBe(true);
      expect(Date.parse(a.lastUsedAt)).toBeGreaterThan(Date.parse(a.createdAt) + 30_000);
      // A jwt of the host's own login names none of them.
      const host = await get('/sessions', jwtFor(app.strapi, user)).expect(200);
      expect(host.body.data.every((s: any) => s.current === false)).toBe(true);
    });

    it('ends one session by id (404 for unknown or another account), and every other one', async () => {
      const user = await createUser(app.strapi);
      const other = await createUser(app.strapi);
      const a = await login(user);
      const b = await login(user);
      const c = await login(user);
      const theirs = await login(other);
      const ids = (await get('/sessions', a.jwt).expect(200)).body.data.map((s: any) => s.id);
      const otherId = (await get('/sessions', theirs.jwt).expect(200)).body.data[0].id;
      expectError(await del(`/sessions/${otherId}`, a.jwt), 404, 'Session not found');
      expectError(await del('/sessions/999999999', a.jwt), 404, 'Session not found');
      expectError(await del('/sessions/abc', a.jwt), 404, 'Session not found');
      await refresh(theirs.refreshToken).expect(200);

      const bId = ids[1];
      expect((await del(`/sessions/${bId}`, a.jwt).expect(200)).body).toEqual({ message: 'Session ended' });
      expectError(await refresh(b.refreshToken), 400, 'Invalid refresh token');
      const res = await del('/sessions', a.jwt).expect(200);
      expect(res.body).toEqual({ message: 'Other sessions ended', revoked: 1 });
      expectError(await refresh(c.refreshToken), 400, 'Invalid refresh token');
      await refresh(a.refreshToken).expect(200);
      expect(await app.strapi.db.query(TOKEN_UID).count({ where: { userId: user.id } })).toBe(1);
    });
  });

  describe('sign-in alerts', () => {
    it('mails once per new device (User-Agent + /24), not for a known one, not at registration', async () => {
      const user = await createUser(app.strapi);
      const ip = freshIp();
      await login(user, { ip, ua: 'Alert-UA/1' });
      const alert = await smtp.nextMail(user.email);
      expect(alert.subject).toBe('New sign-in to your account');
      expect(alert.text).toContain(ip);
      expect(alert.text).toContain('Alert-UA/1');
      // Same /24, same User-Agent: known.
      await login(user, { ip: ip.replace(/\.10$/, '.99'), ua: 'Alert-UA/1' });
      // Another browser: new.
      await login(user, { ip, ua: 'Alert-UA/2' });
      await smtp.nextMail(user.email);
      expect(mailsTo(user.email, 'New sign-in to your account')).toHaveLength(2);
      const rows = await app.strapi.db.query(DEVICE_UID).findMany({ where: { userId: user.id } });
      expect(rows).toHaveLength(2);
      expect(JSON.stringify(rows)).not.toContain('Alert-UA');

      // 90 days later the device is new again.
      shiftClock(app.strapi, 91 * 86_400_000);
      await login(user, { ip, ua: 'Alert-UA/1' });
      await smtp.nextMail(user.email);
      restoreClock(app.strapi);

      const email = `reg-${Date.now()}@example.com`;
      await post('/register', { username: `reg${Date.now()}`, email, password: 'Secret-pass-1' }, { ip: freshIp() }).expect(200);
      await post('/login', { identifier: email, password: 'Secret-pass-1' }, { ip: freshIp(), ua: 'account-test/1.0' }).expect(200);
      await smtp.nextMail(email);
      expect(mailsTo(email, 'New sign-in to your account')).toHaveLength(1);
    });

    it("counts a sign-in through the host's own /api/auth/local: a new device mails, a known one does not", async () => {
      const user = await createUser(app.strapi);
      const ip = freshIp();
      const hostLogin = () =>
        app
          .request()
          .post('/api/auth/local')
          .set('X-Forwarded-For', ip)
          .set('User-Agent', 'Host-UA/1')
          .send({ identifier: user.email, password: user.password })
          .expect(200);
      await hostLogin();
      const alert = await smtp.nextMail(user.email);
      expect(alert.subject).toBe('New sign-in to your account');
      expect(alert.text).toContain('Host-UA/1');
      await hostLogin();
      expect(await app.strapi.db.query(DEVICE_UID).count({ where: { userId: user.id } })).toBe(1);
      expect(mailsTo(user.email, 'New sign-in to your account')).toHaveLength(1);
    });

    it('sends nothing when account.signInAlerts is off', async () => {
      await setSettings(app.strapi, { account: { signInAlerts: false } });
      const user = await createUser(app.strapi);
      await login(user);
      const code = await sendCode(user.email);
      expect(code).toMatch(/^\d{6}$/);
      expect(mailsTo(user.email, 'New sign-in to your account')).toHaveLength(0);
    });
  });

  describe('delete my account', () => {
    const comment = (jwt: string, article: string, content: string, parent?: string) =>
      app
        .request()
        .post('/api/bag/comments')
        .set('Authorization', `Bearer ${jwt}`)
        .set('X-Forwarded-For', '10.9.9.9')
        .send({ content, article, ...(parent ? { parent } : {}) })
        .expect(201);

    it('is refused when off (403), and with a wrong password (400, the account stays)', async () => {
      const user = await createUser(app.strapi);
      const { jwt } = await login(user);
      await setSettings(app.strapi, { account: { deletion: { enabled: false } } });
      expectError(await del('/me', jwt, { password: user.password }), 403, 'Account deletion is disabled');
      await setSettings(app.strapi, { account: { deletion: { enabled: true } } });
      expectError(await del('/me', jwt, { password: 'wrong-pass' }), 400, 'Invalid password');
      expectError(await del('/me', jwt, { code: '123456' }), 400, 'Invalid or expired captcha code');
      expect(await app.strapi.db.query(USER_UID).count({ where: { id: user.id } })).toBe(1);
    });

    it('anonymizes comments by default: no author, IP or User-Agent; sessions, likes, followed threads and devices go', async () => {
      const user = await createUser(app.strapi);
      const other = await createUser(app.strapi);
      const { jwt, refreshToken } = await login(user);
      const article = await createArticle(app.strapi);
      const mine = (await comment(jwt, article.documentId, 'mine')).body.data;
      const theirs = (await comment(jwtFor(app.strapi, other), article.documentId, 'theirs')).body.data;
      await app.request().post(`/api/bag/comments/${theirs.documentId}/like`).set('Authorization', `Bearer ${jwt}`).expect(200);
      await app.request().post(`/api/bag/articles/${article.documentId}/subscription`).set('Authorization', `Bearer ${jwt}`).expect(200);
      const SUBSCRIPTION = 'plugin::cms-plugin-bag.comment-subscription';
      expect(await app.strapi.db.query(SUBSCRIPTION).count({ where: { subscriberId: user.id } })).toBe(1);

      expect((await del('/me', jwt, { password: user.password }).expect(200)).body).toEqual({ message: 'Account deleted' });
      expect(await app.strapi.db.query(SUBSCRIPTION).count({ where: { subscriberId: user.id } })).toBe(0);
      expect(await app.strapi.db.query(USER_UID).count({ where: { id: user.id } })).toBe(0);
      const kept = await app.strapi.db.query(COMMENT).findOne({ where: { documentId: mine.documentId }, populate: ['author'] });
      expect(kept).toMatchObject({ content: 'mine', ip: null, userAgent: null, author: null });
      const liked = await app.strapi.db.query(COMMENT).findOne({ where: { documentId: theirs.documentId } });
      expect(Number(liked.likes)).toBe(0);
      expectError(await refresh(refreshToken), 400, 'Invalid refresh token');
      expect(await app.strapi.db.query(DEVICE_UID).count({ where: { userId: user.id } })).toBe(0);
    });

    it("with 'delete', removes the comments and moves replies by others up; an e-mail code re-authenticates", async () => {
      await app.strapi.db.query(COMMENT).count();
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      const file = settings.file();
      const spy = jest.spyOn(settings, 'get').mockImplementation(async () => ({ ...file, account: { ...file.account, deletion: { enabled: true, comments: 'delete' } } }));
      try {
        const user = await createUser(app.strapi);
        const other = await createUser(app.strapi);
        const jwt = jwtFor(app.strapi, user);
        const article = await createArticle(app.strapi);
        const root = (await comment(jwtFor(app.strapi, other), article.documentId, 'root')).body.data;
        const mine = (await comment(jwt, article.documentId, 'mine', root.documentId)).body.data;
        const reply = (await comment(jwtFor(app.strapi, other), article.documentId, 'reply', mine.documentId)).body.data;
        const code = await sendCode(user.email, 'delete');
        await del('/me', jwt, { code }).expect(200);
        expect(await app.strapi.db.query(COMMENT).count({ where: { documentId: mine.documentId } })).toBe(0);
        const moved = await app.strapi.db.query(COMMENT).findOne({ where: { documentId: reply.documentId }, populate: ['parent'] });
        expect(moved.parent.documentId).toBe(root.documentId);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('export my data', () => {
    it('answers one JSON attachment with the account, its comments, likes and sessions, and no secret', async () => {
      const user = await createUser(app.strapi);
      const { jwt, refreshToken } = await login(user, { ua: 'Export-UA/1' });
      const article = await createArticle(app.strapi);
      await app
        .request()
        .post('/api/bag/comments')
        .set('Authorization', `Bearer ${jwt}`)
        .set('X-Forwarded-For', '10.8.8.8')
        .set('User-Agent', 'Comment-UA/1')
        .send({ content: 'exported', article: article.documentId })
        .expect(201);
      await app.request().post(`/api/bag/articles/${article.documentId}/subscription`).set('Authorization', `Bearer ${jwt}`).expect(200);
      const res = await get('/me/export', jwt).expect(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="account-${user.documentId}.json"`);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const data = JSON.parse(res.text ?? JSON.stringify(res.body));
      expect(Object.keys(data).sort()).toEqual(['comments', 'exportedAt', 'likes', 'mfa', 'reports', 'sessions', 'subscriptions', 'user']);
      expect(data.user).toMatchObject({ id: user.id, email: user.email });
      expect(data.comments).toEqual([
        expect.objectContaining({ content: 'exported', status: 'approved', ip: '10.8.8.8', userAgent: 'Comment-UA/1', article: { documentId: article.documentId, title: expect.any(String) } }),
      ]);
      expect(data.sessions).toEqual([expect.objectContaining({ userAgent: 'Export-UA/1' })]);
      expect(data.subscriptions).toEqual([{ article: { documentId: article.documentId, title: expect.any(String) } }]);
      expect(data.mfa).toEqual({ totp: false, passkeys: [] });
      const text = JSON.stringify(data);
      const row = await app.strapi.db.query(USER_UID).findOne({ where: { id: user.id } });
      for (const secret of [row.password, refreshToken, user.password]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/tokenHash|hostToken|password/);
    });
  });
});

describe("sessions with users-permissions jwtManagement 'refresh'", () => {
  let app: TestApp;
  const post = (path: string, body: unknown, ua = 'refresh-mode/1') => app.request().post(`${AUTH}${path}`).set('User-Agent', ua).send(body as object);

  beforeAll(async () => {
    app = await setupStrapi({ env: { JWT_MANAGEMENT: 'refresh' }, config: { rateLimit: { enabled: false }, account: { signInAlerts: false } } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('flags the session the host access token names, and ends the others with their host sessions', async () => {
    const user = await createUser(app.strapi);
    const a = (await post('/login', { identifier: user.email, password: user.password }, 'A/1').expect(200)).body;
    const b = (await post('/login', { identifier: user.email, password: user.password }, 'B/1').expect(200)).body;
    const list = await app.request().get(`${AUTH}/sessions`).set('Authorization', `Bearer ${a.jwt}`).expect(200);
    expect(list.body.data.map((s: any) => [s.userAgent, s.current])).toEqual([
      ['B/1', false],
      ['A/1', true],
    ]);
    // After a refresh (the host session rotates) the new access token still names its session.
    const refreshed = (await post('/refresh-token', { refreshToken: b.refreshToken }).expect(200)).body.jwt;
    const after = await app.request().get(`${AUTH}/sessions`).set('Authorization', `Bearer ${refreshed}`).expect(200);
    expect(after.body.data.find((s: any) => s.current).userAgent).toBe('B/1');

    const res = await app.request().delete(`${AUTH}/sessions`).set('Authorization', `Bearer ${refreshed}`).expect(200);
    expect(res.body.revoked).toBe(1);
    expect((await post('/refresh-token', { refreshToken: a.refreshToken })).status).toBe(400);
    await post('/refresh-token', { refreshToken: b.refreshToken }).expect(200);
  });
});
