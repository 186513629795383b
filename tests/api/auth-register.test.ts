/** Image captcha, e-mail codes and registration in every captcha mode, over HTTP, with a real SMTP server. */
import crypto from 'crypto';
import { createUser } from '../helpers/fixtures';
import { AUTH, captureLogs, holdDeletesUntil, imageCaptcha, observeCaptchaTexts, restoreClock, setAdvanced, setSettings, shiftClock } from '../helpers/auth';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const AMBIGUOUS = /[0oO1ilI]/;
const CAPTCHA_UID = 'plugin::cms-plugin-bag.captcha';

describe('captcha, e-mail codes and registration', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let texts: ReturnType<typeof observeCaptchaTexts>;
  let logs: string[];
  const codes = new Set<string>();
  let counter = 0;
  const fresh = () => {
    counter += 1;
    const id = `${Date.now().toString(36)}${counter}`;
    return { username: `reg${id}`, email: `reg${id}@example.com`, password: `Pw-${id}-secret` };
  };

  const post = (path: string, body: unknown) => app.request().post(`${AUTH}${path}`).send(body as object);
  const register = (body: Record<string, unknown>) => post('/register', body);
  const sendCode = async (address: string) => {
    await post('/send-code', { identifier: address }).expect(200);
    const code = await smtp.nextCode(address);
    codes.add(code);
    return code;
  };
  const expectError = (res: { status: number; body: any }, status: number, message: string) => {
    expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
    expect(res.body.data).toBeNull();
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({ env: smtp.env, config: { rateLimit: { enabled: false } } });
    texts = observeCaptchaTexts(app.strapi);
    logs = captureLogs(app.strapi);
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });
  beforeEach(async () => {
    await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'email' } }, auth: { requireEncryptedPassword: false } });
    await setAdvanced(app.strapi, { allow_register: true, email_confirmation: false, unique_email: true });
  });
  afterEach(() => restoreClock(app.strapi));

  describe('image captcha', () => {
    it('returns { key, svg } and draws 4 characters without ambiguous ones', async () => {
      const res = await app.request().get(`${AUTH}/captcha-image`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['key', 'svg']);
      expect(res.body.svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
      expect(res.body.key).toMatch(/^[0-9a-f]{32}$/);
      expect(texts.last()).toHaveLength(4);
      expect(res.body.svg).not.toContain(texts.last());
    });

    it('never uses 0 o O 1 i l I, at any configured size', () => {
      const service = app.strapi.plugin('cms-plugin-bag').service('captcha');
      const drawn = Array.from({ length: 300 }, () => service.generateText(8)).join('');
      expect(drawn).toHaveLength(2400);
      expect(drawn).not.toMatch(AMBIGUOUS);
    });
  });

  describe('register with an e-mail code (mode A)', () => {
    it('sends a 6-digit code by mail and registers with it', async () => {
      const user = fresh();
      const res = await post('/send-code', { identifier: user.email.toUpperCase() }).expect(200);
      expect(res.body).toEqual({ message: expect.any(String), expiresIn: 600 });
      const mail = await smtp.nextMail(user.email);
      expect(mail.subject).toBe('Your verification code');
      expect(mail.text).toMatch(/\b\d{6}\b/);
      expect(mail.text).toContain('10 minutes');
      const code = /\b(\d{6})\b/.exec(mail.text)![1];
      codes.add(code);
      expect(JSON.stringify(res.body)).not.toContain(code);

      const reg = await register({ ...user, code }).expect(200);
      expect(Object.keys(reg.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
      expect(reg.body.user).toMatchObject({ username: user.username, email: user.email, provider: 'local', confirmed: true, blocked: false });
      for (const field of ['password', 'resetPasswordToken', 'confirmationToken']) expect(reg.body.user).not.toHaveProperty(field);

      const me = await app.request().get('/api/users/me').set('Authorization', `Bearer ${reg.body.jwt}`).expect(200);
      expect(me.body.id).toBe(reg.body.user.id);
      const stored = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: reg.body.user.id }, populate: ['role'] });
      expect(stored.role.type).toBe('authenticated');
      expect(stored.password).not.toBe(user.password);

      // The code was consumed.
      expectError(await register({ ...fresh(), email: user.email, code }), 400, 'Invalid or expired captcha code');
    });

    it('refuses a code sent to another address', async () => {
      const other = fresh();
      const code = await sendCode(other.email);
      expectError(await register({ ...fresh(), code }), 400, 'Invalid or expired captcha code');
      // The other address's code still works for that address.
      await register({ ...other, code }).expect(200);
    });

    it('requires the code', async () => {
      expectError(await register(fresh()), 400, 'Captcha code is required');
      expectError(await register({ ...fresh(), code: '' }), 400, 'Captcha code is required');
    });

    it('voids the code after maxAttempts wrong tries', async () => {
      const user = fresh();
      const code = await sendCode(user.email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i += 1) expectError(await register({ ...user, code: wrong }), 400, 'Invalid or expired captcha code');
      expectError(await register({ ...user, code }), 400, 'Invalid or expired captcha code');
    });

    it('refuses an expired code', async () => {
      const user = fresh();
      const code = await sendCode(user.email);
      shiftClock(app.strapi, 10 * 60 * 1000 + 1000);
      expectError(await register({ ...user, code }), 400, 'Invalid or expired captcha code');
    });

    it('refuses a resend inside the interval with 429 + Retry-After; after it a newer code replaces the older', async () => {
      const user = fresh();
      const first = await sendCode(user.email);
      const again = await post('/send-code', { identifier: user.email }).expect(429);
      expectError(again, 429, 'Too many requests, please try again later.');
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60);

      shiftClock(app.strapi, 61_000);
      const second = await sendCode(user.email);
      if (second !== first) expectError(await register({ ...user, code: first }), 400, 'Invalid or expired captcha code');
      await register({ ...user, code: second }).expect(200);
    });

    it('never asks for a wait longer than the resend interval when the last send came from a clock ahead of ours', async () => {
      const user = fresh();
      await sendCode(user.email);
      // This instance's clock lags the one that sent the code by 5 s.
      shiftClock(app.strapi, -5_000);
      const again = await post('/send-code', { identifier: user.email }).expect(429);
      expect(Number(again.headers['retry-after'])).toBe(60);
    });

    it('answers 503 when the mail cannot be delivered, leaves no code and lets an immediate retry through', async () => {
      const user = fresh();
      const emailRows = () => app.strapi.db.query('plugin::cms-plugin-bag.captcha').count({ where: { kind: 'email' } });
      const before = await emailRows();
      await smtp.stop();
      try {
        const res = await post('/send-code', { identifier: user.email });
        expectError(res, 503, 'Email delivery failed, please try again later');
        expect(await emailRows()).toBe(before);
        expectError(await register({ ...user, code: '123456' }), 400, 'Invalid or expired captcha code');
      } finally {
        await smtp.start();
      }
      const code = await sendCode(user.email);
      await register({ ...user, code }).expect(200);
    });

    it('lets exactly one of two concurrent registrations use one code', async () => {
      const user = fresh();
      const code = await sendCode(user.email);
      const release = holdDeletesUntil(app.strapi, CAPTCHA_UID, 2);
      try {
        const results = await Promise.all(['a', 'b'].map((suffix) => register({ ...user, username: `${user.username}${suffix}`, code })));
        expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
        expect(results.find((res) => res.status === 400)!.body.error.message).toBe('Invalid or expired captcha code');
      } finally {
        release();
      }
    });

    it('rejects send-code bodies that are not { identifier: e-mail }', async () => {
      for (const body of [{}, { identifier: 'not-an-email' }, { identifier: 12345 }, { identifier: ['a@b.co'] }, [1, 2]]) {
        const res = await post('/send-code', body);
        expect(res.status).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
      }
      const res = await post('/send-code', { identifier: 42 });
      expect(res.body.error.details.errors[0].path).toEqual(['identifier']);
    });
  });

  describe('register with an image captcha (mode B)', () => {
    beforeEach(async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'image' } } });
    });

    it('registers with key and text, case-insensitively', async () => {
      const { key, text } = await imageCaptcha(app, texts);
      const swapped = [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
      const res = await register({ ...fresh(), key, code: swapped }).expect(200);
      expect(res.body.jwt).toEqual(expect.any(String));
      // Single use.
      expectError(await register({ ...fresh(), key, code: text }), 400, 'Invalid or expired captcha code');
    });

    it('is consumed by a wrong attempt', async () => {
      const { key, text } = await imageCaptcha(app, texts);
      expectError(await register({ ...fresh(), key, code: `${text}x` }), 400, 'Invalid or expired captcha code');
      expectError(await register({ ...fresh(), key, code: text }), 400, 'Invalid or expired captcha code');
    });

    it('requires both key and code', async () => {
      const { key, text } = await imageCaptcha(app, texts);
      expectError(await register({ ...fresh(), code: text }), 400, 'Captcha code is required');
      expectError(await register({ ...fresh(), key }), 400, 'Captcha code is required');
      expectError(await register({ ...fresh(), key: '', code: text }), 400, 'Captcha code is required');
    });

    it('refuses an unknown key and an expired captcha', async () => {
      expectError(await register({ ...fresh(), key: 'f'.repeat(32), code: 'abcd' }), 400, 'Invalid or expired captcha code');
      const { key, text } = await imageCaptcha(app, texts);
      shiftClock(app.strapi, 5 * 60 * 1000 + 1000);
      expectError(await register({ ...fresh(), key, code: text }), 400, 'Invalid or expired captcha code');
    });

    it('purges expired captchas when new ones are drawn', async () => {
      shiftClock(app.strapi, -6 * 60 * 1000);
      const { key } = await imageCaptcha(app, texts);
      restoreClock(app.strapi);
      const rows = () => app.strapi.db.query(CAPTCHA_UID).count({ where: { lookup: key } });
      expect(await rows()).toBe(1);
      await imageCaptcha(app, texts);
      expect(await rows()).toBe(0);
    });

    it('lets exactly one of two concurrent uses of one captcha through', async () => {
      const { key, text } = await imageCaptcha(app, texts);
      const release = holdDeletesUntil(app.strapi, CAPTCHA_UID, 2);
      try {
        const results = await Promise.all([register({ ...fresh(), key, code: text }), register({ ...fresh(), key, code: text })]);
        expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
      } finally {
        release();
      }
    });
  });

  describe('register with type any, and without captcha', () => {
    it('any: uses the image captcha when key is present, the e-mail code otherwise', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'any' } } });
      const { key, text } = await imageCaptcha(app, texts);
      await register({ ...fresh(), key, code: text }).expect(200);
      const user = fresh();
      const code = await sendCode(user.email);
      await register({ ...user, code }).expect(200);
      const { key: key2 } = await imageCaptcha(app, texts);
      // With a key the code is checked as the image text, so a valid e-mail code does not pass.
      const other = fresh();
      const otherCode = await sendCode(other.email);
      expectError(await register({ ...other, key: key2, code: otherCode }), 400, 'Invalid or expired captcha code');
    });

    it('registers without any captcha when register.captcha.enabled is false', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: false } } });
      const res = await register(fresh()).expect(200);
      expect(res.body.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  });

  describe('the host rules and the order of checks', () => {
    it('refuses when registration is disabled, before looking at the captcha', async () => {
      await setAdvanced(app.strapi, { allow_register: false });
      expectError(await register({ ...fresh(), code: '000000' }), 400, 'Register action is currently disabled');
      // A malformed body is reported first.
      const res = await register({ username: 'x', email: 'nope', password: 'Pw-123456' });
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual(['email']);
    });

    it('reports a wrong code before a duplicate, and a duplicate with a right code', async () => {
      const existing = await createUser(app.strapi);
      expectError(await register({ username: `new${existing.username}`, email: existing.email, password: 'Pw-12345678', code: '000000' }), 400, 'Invalid or expired captcha code');
      const code = await sendCode(existing.email);
      expectError(await register({ username: `new${existing.username}`, email: existing.email, password: 'Pw-12345678', code }), 400, 'Email or Username are already taken');
      const user = fresh();
      const code2 = await sendCode(user.email);
      expectError(await register({ ...user, username: existing.username, code: code2 }), 400, 'Email or Username are already taken');
    });

    it('gives new accounts the default role of the advanced settings', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: false } } });
      await setAdvanced(app.strapi, { default_role: 'public' });
      try {
        const res = await register(fresh()).expect(200);
        const stored = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: res.body.user.id }, populate: ['role'] });
        expect(stored.role.type).toBe('public');
      } finally {
        await setAdvanced(app.strapi, { default_role: 'authenticated' });
      }
    });

    it('with e-mail confirmation on, creates an unconfirmed user and issues no tokens', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: false } } });
      await setAdvanced(app.strapi, { email_confirmation: true });
      const user = fresh();
      const res = await register(user).expect(200);
      expect(res.body).not.toHaveProperty('jwt');
      expect(res.body).not.toHaveProperty('refreshToken');
      expect(res.body.user).toMatchObject({ email: user.email, confirmed: false });
      expect(res.body.user).not.toHaveProperty('confirmationToken');
      await smtp.nextMail(user.email);
    });

    it('answers 400, never 500, to malformed bodies', async () => {
      const user = fresh();
      const bodies: unknown[] = [
        {},
        { email: user.email, password: user.password },
        { username: user.username, password: user.password },
        { username: user.username, email: user.email },
        { username: 123, email: user.email, password: user.password },
        { username: user.username, email: user.email, password: { $gt: '' } },
        { username: user.username, email: 'not-an-email', password: user.password },
        { ...user, code: 123456 },
        { ...user, key: ['a'] },
        { ...user, role: 1 },
        { ...user, confirmed: true },
        [user],
      ];
      for (const body of bodies) {
        const res = await register(body as Record<string, unknown>);
        expect({ body, status: res.status, name: res.body?.error?.name }).toEqual({ body, status: 400, name: 'ValidationError' });
      }
      for (const raw of [
        `{"__proto__": {"username": "${user.username}", "email": "${user.email}", "password": "x"}}`,
        `{"username": "${user.username}", "email": "${user.email}", "password": "Pw-1234567", "__proto__": {"role": 1}}`,
        `{"constructor": {"prototype": {"confirmed": true}}, "username": "${user.username}"}`,
      ]) {
        const res = await app.request().post(`${AUTH}/register`).set('Content-Type', 'application/json').send(raw);
        expect(res.status).toBe(400);
      }
      expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { username: user.username } })).toBe(0);
      expect(({} as Record<string, unknown>).role).toBeUndefined();
    });
  });

  describe('encrypted passwords', () => {
    beforeEach(async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: false } } });
    });
    const encrypt = async (text: string) => {
      const { body } = await app.request().get('/api/cms-plugin-bag/utils/rsa/public-key').expect(200);
      return crypto
        .publicEncrypt({ key: body.publicKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text))
        .toString('base64');
    };

    it('accepts encryptedPassword in place of password; the clear one logs in', async () => {
      const { password, ...user } = fresh();
      await register({ ...user, encryptedPassword: await encrypt(password) }).expect(200);
      await post('/login', { identifier: user.email, password }).expect(200);
    });

    it('answers Decryption failed to a ciphertext that does not decrypt', async () => {
      const { password: _password, ...user } = fresh();
      expectError(await register({ ...user, encryptedPassword: Buffer.from('garbage').toString('base64') }), 400, 'Decryption failed');
    });

    it('refuses a plain password when auth.requireEncryptedPassword is on', async () => {
      await setSettings(app.strapi, { auth: { requireEncryptedPassword: true } });
      const user = fresh();
      expectError(await register(user), 400, 'Encrypted password required');
      expectError(await post('/login', { identifier: user.email, password: user.password }), 400, 'Encrypted password required');
      const { password, ...rest } = user;
      await register({ ...rest, encryptedPassword: await encrypt(password) }).expect(200);
    });
  });

  describe('secrets at rest and in logs', () => {
    it('keeps no clear-text code, captcha text, address or refresh token in the database', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: false } } });
      const user = fresh();
      const code = await sendCode(user.email);
      const captchas = await Promise.all([imageCaptcha(app, texts), imageCaptcha(app, texts)]);
      const { body } = await register(fresh()).expect(200);

      const knex = app.strapi.db.connection;
      const rows = [
        ...(await knex('bag_captchas').select('*')),
        ...(await knex('bag_refresh_tokens').select('*')),
      ];
      expect(rows.length).toBeGreaterThanOrEqual(4);
      const dump = JSON.stringify(rows).toLowerCase();
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(user.email.toLowerCase());
      expect(dump).not.toContain(body.refreshToken.toLowerCase());
      for (const { key, text } of captchas) {
        const row = rows.find((r) => r.lookup === key);
        expect(row).toBeDefined();
        expect(Object.values(row).map((value) => String(value).toLowerCase())).not.toContain(text.toLowerCase());
      }
    });

    it('logs a refused delivery with neither the address nor the code, though the server quotes the address', async () => {
      const user = fresh();
      const draws = jest.spyOn(app.strapi.plugin('cms-plugin-bag').service('clock'), 'randomInt');
      const from = logs.length;
      let code: string;
      smtp.refuse(true);
      try {
        expectError(await post('/send-code', { identifier: user.email }), 503, 'Email delivery failed, please try again later');
        code = String(draws.mock.results[draws.mock.results.length - 1].value).padStart(6, '0');
      } finally {
        smtp.refuse(false);
        draws.mockRestore();
      }
      const logged = logs.slice(from).join('\n');
      expect(logged).toContain('verification e-mail delivery failed');
      expect(logged).toContain('SMTP 550');
      expect(logged.toLowerCase()).not.toContain(user.email.split('@')[0].toLowerCase());
      expect(logged).not.toContain(code);
    });

    it('never writes a code to the log', async () => {
      expect(codes.size).toBeGreaterThan(5);
      const joined = logs.join('\n');
      // The capture works: the failed delivery above was logged (without its code).
      expect(joined).toContain('verification e-mail delivery failed');
      for (const code of codes) expect(joined).not.toContain(code);
    });
  });
});
