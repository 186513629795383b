/**
 * Over HTTP: second-factor codes counted on `rateLimit.login` (per account and per client IP) on every
 * route that takes one, ten wrong in a row locking the second factor; the owner's mail on every credential change
 * (time, IP, User-Agent, no link); e-mail addresses compared after NFKC and lower-casing; any `mfaToken` that is not
 * a live challenge. The plugin's clock is the test's (TOTP steps, rate-limit windows, the lock).
 */
import { TOTP } from 'otpauth';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH, captureLogs, clientAddresses, expectRateLimited, plugin, setAdvanced, setSettings, startProxiedAuthApp } from '../helpers/auth';
import type { Mail, TestSmtp } from '../helpers/smtp';
import type { TestApp } from '../helpers/strapi';
import { softAuthenticator } from '../helpers/webauthn';

const USER_UID = 'plugin::users-permissions.user';
const SITE = 'https://shop.example.test';
const RP_ID = 'shop.example.test';
const UA = 'credential-alerts-test/2.0 (a browser)';
/** rateLimit.login's max here: below the lock's ten, so both show. */
const MAX = 5;
const WINDOW_MS = 61_000;
const LOCKED = 'Too many invalid two-factor codes, try again later';

type Res = { status: number; body: any; headers: Record<string, string> };
const expectError = (res: Res, status: number, message: string) => {
  expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
};
/** `value` with its first letter in its full-width form (`u` → `ｕ`): the same address once NFKC-normalized. */
const lookAlike = (value: string) => String.fromCodePoint(value.codePointAt(0)! + 0xfee0) + value.slice(1);

describe('credentials: codes counted, the owner told, identifiers normalized', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let now = Date.now();
  const newIp = clientAddresses(58);
  const totp = (secret: string, at = now) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
  const wrongCode = (secret: string) => (totp(secret) === '000000' ? '111111' : '000000');

  const call = (method: 'get' | 'post' | 'delete', path: string, { jwt, ip = newIp(), body }: { jwt?: string; ip?: string; body?: object } = {}) => {
    const req = app.request()[method](path.startsWith('/api/') ? path : `${AUTH}${path}`).set('X-Forwarded-For', ip).set('User-Agent', UA);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return body === undefined ? req : req.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };
  const login = async (user: TestUser, password = user.password) => (await call('post', '/login', { body: { identifier: user.email, password } }).expect(200)).body;
  /** Sends the notices under way, so a test can count what arrived. */
  const idle = () => plugin(app.strapi).service('credential-alerts').idle() as Promise<void>;
  /** The next mail to `address` with this subject (other notices may come in between). */
  const mailWith = async (address: string, subject: string): Promise<Mail> => {
    for (;;) {
      const mail = await smtp.nextMail(address);
      if (mail.subject === subject) return mail;
    }
  };
  const count = (address: string, subject: string) => smtp.mails.filter((mail) => mail.to.includes(address.toLowerCase()) && mail.subject === subject).length;
  /** A notice as §20 wants it: when (the plugin's clock), from which IP and User-Agent, and no link. */
  const expectNotice = (mail: Mail, ip: string, at = now) => {
    expect(mail.text).toContain(`Time: ${new Date(at).toISOString()}`);
    expect(mail.text).toContain(`IP address: ${ip}`);
    expect(mail.text).toContain(`Browser or app: ${UA}`);
    expect(mail.text).not.toMatch(/https?:|www\./);
    expect(mail.html).not.toMatch(/<a\b|https?:/);
  };

  /** A user with TOTP enabled: its secret, recovery codes and a jwt. */
  const enrolled = async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const setup = await call('post', '/mfa/totp/setup', { jwt, body: { password: user.password } }).expect(200);
    const secret: string = setup.body.secret;
    const enable = await call('post', '/mfa/totp/enable', { jwt, body: { code: totp(secret) } }).expect(200);
    now += 30_000;
    return { user, jwt, secret, recoveryCodes: enable.body.recoveryCodes as string[] };
  };
  const newRecoveryCodes = (jwt: string, mfaCode: string, ip?: string) => call('post', '/mfa/recovery-codes', { jwt, ip, body: { mfaCode } });

  beforeAll(async () => {
    ({ app, smtp } = await startProxiedAuthApp({
      register: { captcha: { enabled: false } },
      rateLimit: { login: { interval: '1m', max: MAX } },
      site: { url: SITE, title: 'Shop' },
    }));
    await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } }, register: { captcha: { enabled: false } } });
    await setAdvanced(app.strapi, { allow_register: true, email_confirmation: false, unique_email: true });
    jest.spyOn(plugin(app.strapi).service('clock'), 'now').mockImplementation(() => now);
  });
  // A fresh TOTP step and fresh rate-limit windows for every test.
  beforeEach(() => {
    now += WINDOW_MS;
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  describe('second-factor codes are counted', () => {
    it('300 wrong codes on /auth/mfa/recovery-codes: 429 past rateLimit.login, per account, whatever the client IP', async () => {
      const { jwt, secret } = await enrolled();
      const statuses: number[] = [];
      let last: Res | undefined;
      for (let i = 0; i < 300 && last?.status !== 429; i += 1) {
        last = await newRecoveryCodes(jwt, wrongCode(secret));
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...new Array(MAX).fill(400), 429]);
      expectRateLimited(last!);
      // The window's max is spent: a right code waits for the next window too.
      expectRateLimited(await newRecoveryCodes(jwt, totp(secret)));
      now += WINDOW_MS;
      expect((await newRecoveryCodes(jwt, totp(secret)).expect(200)).body.recoveryCodes).toHaveLength(10);
    });

    it('per client IP: wrong codes for several accounts from one address', async () => {
      const accounts = [await enrolled(), await enrolled(), await enrolled()];
      const ip = newIp();
      for (const { jwt, secret } of accounts.slice(0, 2)) {
        for (let i = 0; i < 2; i += 1) expectError(await newRecoveryCodes(jwt, wrongCode(secret), ip), 400, 'Invalid two-factor code');
      }
      const { jwt, secret } = accounts[2];
      expectError(await newRecoveryCodes(jwt, wrongCode(secret), ip), 400, 'Invalid two-factor code');
      expectRateLimited(await newRecoveryCodes(jwt, totp(secret), ip));
      // The account itself has room left: from another address its code works.
      await newRecoveryCodes(jwt, totp(secret)).expect(200);
    });

    it('every route that takes a code counts on the same counter as the login step', async () => {
      const { user, jwt, secret } = await enrolled();
      const wrong = wrongCode(secret);
      expectError(await newRecoveryCodes(jwt, wrong), 400, 'Invalid two-factor code');
      expectError(await call('post', '/mfa/disable', { jwt, body: { password: user.password, mfaCode: wrong } }), 400, 'Invalid two-factor code');
      const email = `moved-${user.id}@example.com`;
      expectError(await call('post', '/email', { jwt, body: { email, password: user.password, mfaCode: wrong } }), 400, 'Invalid two-factor code');
      expectError(await call('delete', '/me', { jwt, body: { password: user.password, mfaCode: wrong } }), 400, 'Invalid two-factor code');
      const { mfaToken } = await login(user);
      expectError(await call('post', '/login/mfa', { body: { mfaToken, code: wrong } }), 400, 'Invalid two-factor code');
      expectRateLimited(await call('post', '/login/mfa', { body: { mfaToken, code: totp(secret) } }));

      // Enabling counts too.
      const other = await createUser(app.strapi);
      const otherJwt = jwtFor(app.strapi, other);
      const pending = (await call('post', '/mfa/totp/setup', { jwt: otherJwt, body: { password: other.password } }).expect(200)).body.secret;
      for (let i = 0; i < MAX; i += 1) {
        expectError(await call('post', '/mfa/totp/enable', { jwt: otherJwt, body: { code: wrongCode(pending) } }), 400, 'Invalid two-factor code');
      }
      expectRateLimited(await call('post', '/mfa/totp/enable', { jwt: otherJwt, body: { code: totp(pending) } }));
      now += WINDOW_MS;
      await call('post', '/mfa/totp/enable', { jwt: otherJwt, body: { code: totp(pending) } }).expect(200);
    });

    /** `times` wrong codes on /auth/mfa/recovery-codes, a new rate-limit window whenever one is spent; the last answer. */
    const wrongCodes = async (jwt: string, secret: string, times: number) => {
      let last: Res | undefined;
      for (let i = 0; i < times; i += 1) {
        if (i > 0 && i % MAX === 0) now += WINDOW_MS;
        last = await newRecoveryCodes(jwt, wrongCode(secret));
        expectError(last, 400, 'Invalid two-factor code');
      }
      now += WINDOW_MS;
      return last!;
    };

    it('ten wrong codes in a row lock the second factor for 15 minutes, a right code included, and mail the owner', async () => {
      const { user, jwt, secret } = await enrolled();
      const lockedAt = now + WINDOW_MS;
      await wrongCodes(jwt, secret, 10);
      expectError(await newRecoveryCodes(jwt, totp(secret)), 400, LOCKED);
      // The login step of the same account is locked as well, and the lock is the database's (every instance).
      const { mfaToken } = await login(user);
      expectError(await call('post', '/login/mfa', { body: { mfaToken, code: totp(secret) } }), 400, LOCKED);
      const row = await app.strapi.db.connection('bag_mfa_factors').where('user_id', user.id).first();
      expect(Number(row.locked_until)).toBe(lockedAt + 15 * 60_000);

      const mail = await mailWith(user.email, 'Too many wrong two-factor codes');
      expect(mail.text).toContain('locked for 15 minutes');
      expect(mail.text).toContain(`Time: ${new Date(lockedAt).toISOString()}`);
      expect(mail.text).toContain(`Browser or app: ${UA}`);
      expect(mail.text).not.toMatch(/https?:/);

      now = lockedAt + 15 * 60_000 + 1000;
      await newRecoveryCodes(jwt, totp(secret)).expect(200);
      await idle();
      expect(count(user.email, 'Too many wrong two-factor codes')).toBe(1);
    });

    it('a right code ends the run of wrong ones', async () => {
      const { jwt, secret } = await enrolled();
      await wrongCodes(jwt, secret, 9);
      await newRecoveryCodes(jwt, totp(secret)).expect(200);
      now += WINDOW_MS;
      await wrongCodes(jwt, secret, 9);
      await newRecoveryCodes(jwt, totp(secret)).expect(200);
    });
  });

  describe('POST /auth/login/mfa', () => {
    it('any mfaToken that is not a live challenge is an invalid session: a jwt, strings of any length, a NUL', async () => {
      const user = await createUser(app.strapi);
      for (const mfaToken of [jwtFor(app.strapi, user), 'x', 'x'.repeat(129), 'y'.repeat(4096), 'z'.repeat(5000), 'x\u0000']) {
        expectError(await call('post', '/login/mfa', { body: { mfaToken, code: '123456' } }), 400, 'Invalid or expired two-factor session');
      }
      expectError(await call('post', '/login/mfa', { body: { mfaToken: '', code: '123456' } }), 400, 'mfaToken is a required field');
    });
  });

  describe('the owner hears of every credential change', () => {
    it('TOTP turned on, recovery codes renewed and used, TOTP turned off: a notice each, with time, IP and User-Agent, no link', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const secret = (await call('post', '/mfa/totp/setup', { jwt, body: { password: user.password } }).expect(200)).body.secret;
      let ip = newIp();
      await call('post', '/mfa/totp/enable', { jwt, ip, body: { code: totp(secret) } }).expect(200);
      expectNotice(await mailWith(user.email, 'Two-factor authentication was turned on'), ip);

      now += WINDOW_MS;
      ip = newIp();
      const codes = (await newRecoveryCodes(jwt, totp(secret), ip).expect(200)).body.recoveryCodes as string[];
      expectNotice(await mailWith(user.email, 'New recovery codes were made for your account'), ip);

      now += WINDOW_MS;
      ip = newIp();
      const { mfaToken } = await login(user);
      await call('post', '/login/mfa', { ip, body: { mfaToken, code: codes[0] } }).expect(200);
      const used = await mailWith(user.email, 'A recovery code was used');
      expectNotice(used, ip);
      expect(used.text).toContain('9 recovery codes are left.');
      expect(used.text).not.toContain(codes[0]);

      now += WINDOW_MS;
      ip = newIp();
      await call('post', '/mfa/disable', { jwt, ip, body: { password: user.password, mfaCode: totp(secret) } }).expect(200);
      const off = await mailWith(user.email, 'Two-factor authentication was turned off');
      expectNotice(off, ip);
      expect(off.text).not.toContain(secret);
    });

    it('a passkey added and removed', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const authenticator = softAuthenticator({ rpId: RP_ID, origin: SITE });
      const options = (await call('post', '/passkeys/register/options', { jwt, body: { password: user.password } }).expect(200)).body;
      let ip = newIp();
      const { id } = (await call('post', '/passkeys/register/verify', { jwt, ip, body: { response: authenticator.register(options), name: 'Key' } }).expect(200)).body;
      expectNotice(await mailWith(user.email, 'A passkey was added to your account'), ip);

      // Passkey login options by a look-alike of the address name the account's passkey.
      const byLookAlike = (await call('post', '/passkeys/login/options', { body: { identifier: lookAlike(user.email).toUpperCase() } }).expect(200)).body;
      expect(byLookAlike.options.allowCredentials.map((cred: { id: string }) => cred.id)).toContain(authenticator.id);

      now += WINDOW_MS;
      ip = newIp();
      await call('delete', `/passkeys/${id}`, { jwt, ip }).expect(200);
      expectNotice(await mailWith(user.email, 'A passkey was removed from your account'), ip);
    });

    it("the password changed through the host, reset through the plugin and through the host: one notice each", async () => {
      const user = await createUser(app.strapi);
      let ip = newIp();
      await call('post', '/api/auth/change-password', {
        jwt: jwtFor(app.strapi, user),
        ip,
        body: { currentPassword: user.password, password: 'Changed-password-1', passwordConfirmation: 'Changed-password-1' },
      }).expect(200);
      expectNotice(await mailWith(user.email, 'Your password was changed'), ip);

      now += WINDOW_MS;
      await call('post', '/send-code', { body: { identifier: user.email, purpose: 'reset' } }).expect(200);
      const code = await smtp.nextCode(user.email);
      ip = newIp();
      await call('post', '/reset-password', { ip, body: { identifier: user.email, code, password: 'Reset-password-2' } }).expect(200);
      expectNotice(await mailWith(user.email, 'Your password was reset'), ip);

      now += WINDOW_MS;
      await app.strapi.db.query(USER_UID).update({ where: { id: user.id }, data: { resetPasswordToken: `reset-${user.id}` } });
      ip = newIp();
      await call('post', '/api/auth/reset-password', {
        ip,
        body: { code: `reset-${user.id}`, password: 'Reset-password-3', passwordConfirmation: 'Reset-password-3' },
      }).expect(200);
      expectNotice(await mailWith(user.email, 'Your password was reset'), ip);

      await idle();
      expect([count(user.email, 'Your password was changed'), count(user.email, 'Your password was reset')]).toEqual([1, 2]);
    });

    it('the e-mail change notice to the old address says when and from where', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const email = `changed-${user.id}@example.com`;
      await call('post', '/email', { jwt, body: { email, password: user.password } }).expect(200);
      const code = await smtp.nextCode(email);
      const ip = newIp();
      await call('post', '/email/confirm', { jwt, ip, body: { code } }).expect(200);
      const notice = await mailWith(user.email, 'Your e-mail address was changed');
      expect(notice.text).toContain(`Time: ${new Date(now).toISOString()}`);
      expect(notice.text).toContain(`IP address: ${ip}`);
      expect(notice.text).toContain(`Browser or app: ${UA}`);
    });

    it('a mail server that refuses: the change still succeeds, and the log names no address', async () => {
      const { user, jwt, secret } = await enrolled();
      await idle();
      const logs = captureLogs(app.strapi);
      smtp.refuse(true);
      try {
        await call('post', '/mfa/disable', { jwt, body: { password: user.password, mfaCode: totp(secret) } }).expect(200);
        await idle();
      } finally {
        smtp.refuse(false);
        jest.restoreAllMocks();
        jest.spyOn(plugin(app.strapi).service('clock'), 'now').mockImplementation(() => now);
      }
      const failures = logs.filter((line) => line.includes('notice'));
      expect(failures.length).toBeGreaterThan(0);
      for (const line of failures) expect(line).not.toContain(user.email);
      expect(count(user.email, 'Two-factor authentication was turned off')).toBe(0);
    });
  });

  describe('identifiers: e-mail addresses compared after NFKC and lower-casing', () => {
    it('registration refuses a look-alike of an address; login, send-code and reset find the account by one', async () => {
      const user = await createUser(app.strapi);
      const alike = lookAlike(user.email);
      expect(alike).not.toBe(user.email);
      expect(alike.normalize('NFKC')).toBe(user.email);
      expectError(
        await call('post', '/register', { body: { username: `other${user.id}`, email: alike, password: 'Some-password-1' } }),
        400,
        'Email or Username are already taken',
      );
      // The host's own register (auth.hostRoutes 'guarded') gets the normalized address.
      expectError(
        await call('post', '/api/auth/local/register', { body: { username: `host${user.id}`, email: alike, password: 'Some-password-1' } }),
        400,
        'Email or Username are already taken',
      );
      expect((await call('post', '/login', { body: { identifier: alike.toUpperCase(), password: user.password } }).expect(200)).body.user.id).toBe(user.id);

      await call('post', '/send-code', { body: { identifier: alike, purpose: 'reset' } }).expect(200);
      const code = await smtp.nextCode(user.email);
      await call('post', '/reset-password', { body: { identifier: alike.toUpperCase(), code, password: 'Reset-by-alike-1' } }).expect(200);
      await login(user, 'Reset-by-alike-1');
    });

    it("an e-mail change refuses another account's username (any case) and a look-alike of its address", async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const victim = await createUser(app.strapi, { username: `Victim-${user.id}@Example.com` });
      for (const email of [victim.username.toLowerCase(), lookAlike(victim.email)]) {
        expectError(await call('post', '/email', { jwt, body: { email, password: user.password } }), 400, 'Email or Username are already taken');
      }
    });
  });
});
