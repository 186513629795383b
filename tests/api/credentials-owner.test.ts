/**
 * Over HTTP, the owner's side of it: a passkey is added only with the second factor too (or an e-mailed
 * code sent for that), each e-mailed code serves only the route of its purpose, and undoing an e-mail change takes back
 * the passkeys, TOTP and recovery codes added since. The password re-check and user verification of passkeys:
 * tests/api/passkeys.test.ts.
 */
import { TOTP } from 'otpauth';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH, plugin, setSettings } from '../helpers/auth';
import { startSmtp, type Mail, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';
import { softAuthenticator } from '../helpers/webauthn';

const SITE = 'https://shop.example.test';
const RP_ID = 'shop.example.test';
const INVALID_CODE = 'Invalid or expired captcha code';

type Res = { status: number; body: any };
const expectError = (res: Res, status: number, message: string) => {
  expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
};

describe('credentials change only with their owner (§20)', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  /**
   * The plugin's clock runs ahead of real time by `offset`, which each code sent moves on past the resend interval
   * (one address gets several codes here); TOTP codes are computed at the same clock.
   */
  let offset = 0;
  const now = () => Date.now() + offset;
  const totp = (secret: string, at = now()) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
  /** A 6-digit code that is no TOTP code of the previous, this or the next time step. */
  const wrongTotp = (secret: string) => {
    const near = [-30_000, 0, 30_000].map((shift) => totp(secret, now() + shift));
    return ['000000', '111111', '222222', '333333'].find((code) => !near.includes(code))!;
  };

  const post = (path: string, body: object, jwt?: string) => {
    const req = app.request().post(`${AUTH}${path}`);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return req.send(body);
  };
  const get = (path: string, jwt: string) => app.request().get(`${AUTH}${path}`).set('Authorization', `Bearer ${jwt}`);
  const deleteMe = (jwt: string, body: object) =>
    app.request().delete(`${AUTH}/me`).set('Authorization', `Bearer ${jwt}`).set('Content-Type', 'application/json').send(JSON.stringify(body));

  /** The next code mail to `address` (recovery-code notices skipped), and the code in it. */
  const nextCodeMail = async (address: string): Promise<{ mail: Mail; code: string }> => {
    for (;;) {
      const mail = await smtp.nextMail(address);
      const match = /\b(\d{6})\b/.exec(mail.text);
      if (mail.subject.startsWith('Your verification code') && match) return { mail, code: match[1] };
    }
  };
  const sendCode = async (address: string, purpose?: string) => {
    offset += 2000;
    await post('/send-code', { identifier: address, ...(purpose ? { purpose } : {}) }).expect(200);
    return (await nextCodeMail(address)).code;
  };

  /** A user with TOTP on: its jwt, secret and recovery codes (the enable used this time step's code). */
  const enrolled = async (user?: TestUser) => {
    const owner = user ?? (await createUser(app.strapi));
    const jwt = jwtFor(app.strapi, owner);
    const { secret } = (await post('/mfa/totp/setup', { password: owner.password }, jwt).expect(200)).body;
    const { recoveryCodes } = (await post('/mfa/totp/enable', { code: totp(secret) }, jwt).expect(200)).body;
    return { user: owner, jwt, secret: secret as string, recoveryCodes: recoveryCodes as string[] };
  };

  /** Registration options for `body`'s proof, answered by a new software authenticator. */
  const addPasskey = async (jwt: string, body: object, name = 'Key') => {
    const authenticator = softAuthenticator({ rpId: RP_ID, origin: SITE });
    const options = (await post('/passkeys/register/options', body, jwt).expect(200)).body;
    const added = (await post('/passkeys/register/verify', { response: authenticator.register(options), name }, jwt).expect(200)).body;
    return { authenticator, added };
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      env: { ...smtp.env, PUBLIC_URL: 'https://api.example.test' },
      config: {
        site: { url: SITE, title: 'Shop' },
        register: { captcha: { enabled: false } },
        rateLimit: { enabled: false },
        captcha: { email: { resendInterval: 1 } },
        account: { signInAlerts: false },
      },
    });
    jest.spyOn(plugin(app.strapi).service('clock'), 'now').mockImplementation(now);
  });
  afterEach(async () => {
    await setSettings(app.strapi, {
      login: { captcha: { enabled: false } },
      register: { captcha: { enabled: false } },
      account: { passwordless: { enabled: false } },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  describe('adding a passkey', () => {
    it('needs the second factor with TOTP on: a stolen jwt with the password alone adds nothing', async () => {
      const { user, jwt, secret, recoveryCodes } = await enrolled();
      expectError(await post('/passkeys/register/options', { password: user.password }, jwt), 400, 'Two-factor code required');
      expectError(await post('/passkeys/register/options', { password: user.password, mfaCode: wrongTotp(secret) }, jwt), 400, 'Invalid two-factor code');
      expectError(await post('/passkeys/register/options', { password: 'wrong-pass', mfaCode: recoveryCodes[0] }, jwt), 400, 'Invalid password');
      expect((await get('/passkeys', jwt).expect(200)).body.data).toEqual([]);

      // The next time step's code (the enable used this one), or a recovery code.
      await addPasskey(jwt, { password: user.password, mfaCode: totp(secret, now() + 30_000) });
      const { authenticator } = await addPasskey(jwt, { password: user.password, mfaCode: recoveryCodes[1] });
      expect((await get('/passkeys', jwt).expect(200)).body.data).toHaveLength(2);
      const options = (await post('/passkeys/login/options', { identifier: user.email }).expect(200)).body;
      await post('/passkeys/login/verify', { key: options.key, response: authenticator.authenticate(options.options) }).expect(200);
    });

    it('takes an e-mailed code sent for add-passkey in place of the password, and no code of another purpose', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const unbound = await sendCode(user.email);
      expectError(await post('/passkeys/register/options', { code: unbound }, jwt), 400, INVALID_CODE);
      const forDeletion = await sendCode(user.email, 'delete');
      expectError(await post('/passkeys/register/options', { code: forDeletion }, jwt), 400, INVALID_CODE);
      const code = await sendCode(user.email, 'add-passkey');
      await addPasskey(jwt, { code });
      expectError(await post('/passkeys/register/options', { code }, jwt), 400, INVALID_CODE);

      const totpUser = await enrolled();
      const second = await sendCode(totpUser.user.email, 'add-passkey');
      expectError(await post('/passkeys/register/options', { code: second }, totpUser.jwt), 400, 'Two-factor code required');
      const third = await sendCode(totpUser.user.email, 'add-passkey');
      await addPasskey(totpUser.jwt, { code: third, mfaCode: totpUser.recoveryCodes[0] });
    });
  });

  describe('e-mailed codes have a purpose', () => {
    it('names the purpose in the subject and the text; no purpose keeps the plain mail; an unknown one is a ValidationError', async () => {
      const user = await createUser(app.strapi);
      await post('/send-code', { identifier: user.email, purpose: 'reset' }).expect(200);
      const { mail } = await nextCodeMail(user.email);
      expect(mail.subject).toBe('Your verification code (password reset)');
      expect(mail.text).toMatch(/^Your verification code to reset your password is \d{6}\. It expires in 10 minutes\./);

      const other = await createUser(app.strapi);
      await post('/send-code', { identifier: other.email }).expect(200);
      const plain = (await nextCodeMail(other.email)).mail;
      expect(plain.subject).toBe('Your verification code');
      expect(plain.text).toMatch(/^Your verification code is \d{6}\./);

      const before = smtp.mails.length;
      for (const purpose of ['unlock', '', 42, null]) {
        const res = await post('/send-code', { identifier: `p-${Date.now()}@example.com`, purpose });
        expect(res.status).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
        expect(res.body.error.details.errors[0].path).toEqual(['purpose']);
      }
      expect(smtp.mails.length).toBe(before);
    });

    it('a code sent without a purpose serves the login captcha, never a reset, a login by code, a deletion or a passkey', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } }, account: { passwordless: { enabled: true } } });
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const code = await sendCode(user.email);
      expectError(await post('/reset-password', { identifier: user.email, code, password: 'New-secret-pass-1' }), 400, INVALID_CODE);
      expectError(await post('/login-code', { identifier: user.email, code }), 400, INVALID_CODE);
      expectError(await deleteMe(jwt, { code }), 400, INVALID_CODE);
      expectError(await post('/passkeys/register/options', { code }, jwt), 400, INVALID_CODE);
      await post('/login', { identifier: user.email, password: user.password, code }).expect(200);
    });

    it('a reset code resets the password only; a login-code code signs in only; a delete code deletes only', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } }, account: { passwordless: { enabled: true } } });
      const resetting = await createUser(app.strapi);
      const reset = await sendCode(resetting.email, 'reset');
      expectError(await post('/login', { identifier: resetting.email, password: resetting.password, code: reset }), 400, INVALID_CODE);
      expectError(await post('/login-code', { identifier: resetting.email, code: reset }), 400, INVALID_CODE);
      expectError(await deleteMe(jwtFor(app.strapi, resetting), { code: reset }), 400, INVALID_CODE);
      expectError(await post('/passkeys/register/options', { code: reset }, jwtFor(app.strapi, resetting)), 400, INVALID_CODE);
      await post('/reset-password', { identifier: resetting.email, code: reset, password: 'New-secret-pass-1' }).expect(200);

      const signingIn = await createUser(app.strapi);
      const loginCode = await sendCode(signingIn.email, 'login-code');
      expectError(await post('/reset-password', { identifier: signingIn.email, code: loginCode, password: 'New-secret-pass-1' }), 400, INVALID_CODE);
      expectError(await post('/login', { identifier: signingIn.email, password: signingIn.password, code: loginCode }), 400, INVALID_CODE);
      await post('/login-code', { identifier: signingIn.email, code: loginCode }).expect(200);

      const leaving = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, leaving);
      const deletion = await sendCode(leaving.email, 'delete');
      expectError(await post('/passkeys/register/options', { code: deletion }, jwt), 400, INVALID_CODE);
      expectError(await post('/reset-password', { identifier: leaving.email, code: deletion, password: 'New-secret-pass-1' }), 400, INVALID_CODE);
      await deleteMe(jwt, { code: deletion }).expect(200);
    });

    it('registration takes a code sent for register (or none: auth-register.test.ts), not one for login or an e-mail change', async () => {
      await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'email' } } });
      const account = (name: string) => ({ username: `${name}${Date.now()}`, email: `${name}-${Date.now()}@example.com`, password: 'Secret-pass-1' });
      const first = account('purpose-reg');
      const forLogin = await sendCode(first.email, 'login');
      expectError(await post('/register', { ...first, code: forLogin }), 400, INVALID_CODE);
      await post('/register', { ...first, code: await sendCode(first.email, 'register') }).expect(200);

      // The e-mail change's own code (sent by /auth/email, for `email-change`) confirms the change and nothing else.
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const second = account('purpose-chg');
      await post('/email', { email: second.email, password: user.password }, jwt).expect(200);
      const { mail, code } = await nextCodeMail(second.email);
      expect(mail.subject).toBe('Your verification code (e-mail change)');
      expectError(await post('/register', { ...second, code }), 400, INVALID_CODE);
      await post('/email/confirm', { code }, jwt).expect(200);
    });
  });

  describe('undoing an e-mail change', () => {
    const changeEmail = async (user: TestUser, jwt: string, extra: object = {}) => {
      const email = `moved-${user.id}-${Date.now()}@example.com`;
      await post('/email', { email, password: user.password, ...extra }, jwt).expect(200);
      await post('/email/confirm', { code: (await nextCodeMail(email)).code }, jwt).expect(200);
      for (;;) {
        const mail = await smtp.nextMail(user.email);
        const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.text);
        if (token) return token[1];
      }
    };
    const mfaStatus = (userId: number) => plugin(app.strapi).service('mfa').status(userId);
    const revert = (token: string) => app.request().post(`${AUTH}/email/revert`).set('Accept', 'application/json').send({ token });

    it('removes the passkeys and the TOTP enrolment added after the change, and ends every session', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const { refreshToken } = (await post('/login', { identifier: user.email, password: user.password }).expect(200)).body;
      const { authenticator: ownersKey } = await addPasskey(jwt, { password: user.password }, 'Owner');

      const token = await changeEmail(user, jwt);
      // Whoever changed the address makes the account theirs: a passkey and TOTP.
      const { authenticator: takersKey } = await addPasskey(jwt, { password: user.password }, 'Taker');
      const { secret } = (await post('/mfa/totp/setup', { password: user.password }, jwt).expect(200)).body;
      await post('/mfa/totp/enable', { code: totp(secret) }, jwt).expect(200);
      expect((await get('/mfa', jwt).expect(200)).body).toMatchObject({ totp: true, recoveryCodesLeft: 10 });

      await revert(token).expect(200);
      // Read through the service: the jwt itself ends with the sessions.
      const status = await mfaStatus(user.id);
      expect(status).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
      expect(status.passkeys.map((passkey: { name: string }) => passkey.name)).toEqual(['Owner']);
      expect(await app.strapi.db.query('plugin::cms-plugin-bag.mfa-recovery-code').count({ where: { userId: user.id } })).toBe(0);
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');

      const options = (await post('/passkeys/login/options', {}).expect(200)).body;
      expectError(await post('/passkeys/login/verify', { key: options.key, response: takersKey.authenticate(options.options) }), 400, 'Passkey verification failed');
      const again = (await post('/passkeys/login/options', {}).expect(200)).body;
      await post('/passkeys/login/verify', { key: again.key, response: ownersKey.authenticate(again.options) }).expect(200);
      // Signed in with the password alone again: no second step left by the taker.
      expect((await post('/login', { identifier: user.email, password: user.password }).expect(200)).body).toHaveProperty('jwt');
    });

    it("keeps the owner's TOTP from before the change, and takes back the recovery codes renewed since", async () => {
      const { user, jwt, secret, recoveryCodes } = await enrolled();
      const token = await changeEmail(user, jwt, { mfaCode: recoveryCodes[0] });
      const renewed = (await post('/mfa/recovery-codes', { mfaCode: totp(secret, now() + 30_000) }, jwt).expect(200)).body.recoveryCodes;
      expect(renewed).toHaveLength(10);

      await revert(token).expect(200);
      expect(await mfaStatus(user.id)).toMatchObject({ totp: true, recoveryCodesLeft: 0 });
      const { mfaToken } = (await post('/login', { identifier: user.email, password: user.password }).expect(200)).body;
      expectError(await post('/login/mfa', { mfaToken, code: renewed[0] }), 400, 'Invalid two-factor code');
    });
  });
});
