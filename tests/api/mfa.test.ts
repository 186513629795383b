/**
 * Second factors: TOTP enrolment, recovery codes, the login challenge, and the host's routes that must not get around
 * it (REST and GraphQL), over HTTP. TOTP codes are computed here from the secret the setup answers (RFC 6238 through
 * `otpauth`), at the plugin's clock, which the tests move in 30-second steps.
 */
import { TOTP } from 'otpauth';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH, plugin, setAdvanced, setSettings } from '../helpers/auth';
import { graphql } from '../helpers/graphql';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const USER_UID = 'plugin::users-permissions.user';

type Res = { status: number; body: any };
const expectError = (res: Res, status: number, message: string) => {
  expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
};

describe('second factors: TOTP, recovery codes and the login challenge', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  /** The plugin's clock: every test starts at a fresh 30-second step. */
  let now = Date.now();
  const nextStep = () => {
    now += 30_000;
  };
  const totp = (secret: string, at = now) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

  const bearer = (method: 'get' | 'post', path: string, jwt: string | undefined, body?: object) => {
    const req = app.request()[method](`${AUTH}${path}`);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return body === undefined ? req : req.send(body);
  };
  const login = (user: TestUser, password = user.password) => app.request().post(`${AUTH}/login`).send({ identifier: user.email, password });
  const finish = (mfaToken: string, code: string) => app.request().post(`${AUTH}/login/mfa`).send({ mfaToken, code });

  /** A user with TOTP enabled: its secret, recovery codes and a jwt. */
  const enrolled = async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const setup = await bearer('post', '/mfa/totp/setup', jwt, { password: user.password }).expect(200);
    const secret: string = setup.body.secret;
    const enable = await bearer('post', '/mfa/totp/enable', jwt, { code: totp(secret) }).expect(200);
    nextStep();
    return { user, jwt, secret, recoveryCodes: enable.body.recoveryCodes as string[] };
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({ env: { ...smtp.env, GRAPHQL: 'after' }, config: { rateLimit: { enabled: false } } });
    await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } } });
    await setAdvanced(app.strapi, { email_confirmation: false });
    jest.spyOn(plugin(app.strapi).service('clock'), 'now').mockImplementation(() => now);
  });
  beforeEach(() => nextStep());
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  describe('enrolment', () => {
    it('needs a Bearer token (401) and the right password', async () => {
      const user = await createUser(app.strapi);
      for (const path of ['/mfa/totp/setup', '/mfa/totp/enable', '/mfa/recovery-codes', '/mfa/disable']) {
        expect((await bearer('post', path, undefined, {})).status).toBe(401);
      }
      expect((await bearer('get', '/mfa', undefined)).status).toBe(401);
      expectError(await bearer('post', '/mfa/totp/setup', jwtFor(app.strapi, user), { password: 'wrong' }), 400, 'Invalid password');
    });

    it('answers the secret, the otpauth URL and its QR code; nothing is active until enabled', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const res = await bearer('post', '/mfa/totp/setup', jwt, { password: user.password }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['otpauthUrl', 'qrSvg', 'secret']);
      expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(res.body.otpauthUrl).toBe(
        `otpauth://totp/Strapi:${encodeURIComponent(user.email)}?secret=${res.body.secret}&issuer=Strapi&algorithm=SHA1&digits=6&period=30`,
      );
      expect(res.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
      expect((await bearer('get', '/mfa', jwt).expect(200)).body).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [] });
      expect((await login(user).expect(200)).body).toHaveProperty('jwt');
    });

    it('a new setup replaces an unconfirmed one; enable takes a current code of the latest secret only', async () => {
      const user = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, user);
      const first = (await bearer('post', '/mfa/totp/setup', jwt, { password: user.password }).expect(200)).body.secret;
      const second = (await bearer('post', '/mfa/totp/setup', jwt, { password: user.password }).expect(200)).body.secret;
      expect(second).not.toBe(first);
      expectError(await bearer('post', '/mfa/totp/enable', jwt, { code: totp(first) }), 400, 'Invalid two-factor code');
      expectError(await bearer('post', '/mfa/totp/enable', jwt, { code: totp(second, now - 120_000) }), 400, 'Invalid two-factor code');
      const res = await bearer('post', '/mfa/totp/enable', jwt, { code: totp(second) }).expect(200);
      expect(res.body.recoveryCodes).toHaveLength(10);
      expect(new Set(res.body.recoveryCodes).size).toBe(10);
      expect((await bearer('get', '/mfa', jwt).expect(200)).body).toEqual({ totp: true, recoveryCodesLeft: 10, passkeys: [] });
      expectError(await bearer('post', '/mfa/totp/setup', jwt, { password: user.password }), 400, 'Two-factor authentication is already enabled');
    });

    it('keeps the secret encrypted and the recovery codes hashed in the database', async () => {
      const { user, secret, recoveryCodes } = await enrolled();
      const knex = app.strapi.db.connection;
      const rows = JSON.stringify([
        ...(await knex('bag_mfa_factors').where('user_id', user.id).select('*')),
        ...(await knex('bag_mfa_recovery_codes').where('user_id', user.id).select('*')),
      ]);
      expect(rows).not.toContain(secret);
      for (const code of recoveryCodes) {
        expect(rows).not.toContain(code);
        expect(rows).not.toContain(code.replace('-', ''));
      }
      expect(await knex('bag_mfa_recovery_codes').where('user_id', user.id).select('id')).toHaveLength(10);
    });
  });

  describe('the login challenge', () => {
    it('answers mfaRequired and an mfaToken, no token; the code then gives the tokens, once', async () => {
      const { user, secret } = await enrolled();
      const res = await login(user).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['methods', 'mfaRequired', 'mfaToken']);
      expect(res.body).toMatchObject({ mfaRequired: true, methods: ['totp', 'recovery'] });
      expectError(await finish(res.body.mfaToken, '000000' === totp(secret) ? '111111' : '000000'), 400, 'Invalid two-factor code');
      const done = await finish(res.body.mfaToken, totp(secret)).expect(200);
      expect(Object.keys(done.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
      expect(done.body.user).toMatchObject({ id: user.id, email: user.email });
      await bearer('get', '/me', done.body.jwt).expect(200);
      nextStep();
      expectError(await finish(res.body.mfaToken, totp(secret)), 400, 'Invalid or expired two-factor session');
    });

    it('accepts each TOTP code once, and one step of drift either way', async () => {
      const { user, secret } = await enrolled();
      const code = totp(secret);
      await finish((await login(user).expect(200)).body.mfaToken, code).expect(200);
      expectError(await finish((await login(user).expect(200)).body.mfaToken, code), 400, 'Invalid two-factor code');
      nextStep();
      nextStep();
      await finish((await login(user).expect(200)).body.mfaToken, totp(secret, now + 30_000)).expect(200);
      nextStep();
      nextStep();
      nextStep();
      await finish((await login(user).expect(200)).body.mfaToken, totp(secret, now - 30_000)).expect(200);
      nextStep();
      expectError(await finish((await login(user).expect(200)).body.mfaToken, totp(secret, now - 60_000)), 400, 'Invalid two-factor code');
    });

    it('voids the mfaToken after 5 wrong codes, and after 5 minutes', async () => {
      const { user, secret } = await enrolled();
      const { mfaToken } = (await login(user).expect(200)).body;
      const wrong = totp(secret) === '123456' ? '654321' : '123456';
      for (let i = 0; i < 5; i += 1) expectError(await finish(mfaToken, wrong), 400, 'Invalid two-factor code');
      expectError(await finish(mfaToken, totp(secret)), 400, 'Invalid or expired two-factor session');

      const late = (await login(user).expect(200)).body.mfaToken;
      now += 5 * 60_000 + 1000;
      expectError(await finish(late, totp(secret)), 400, 'Invalid or expired two-factor session');
      expectError(await finish('not-a-token', totp(secret)), 400, 'Invalid or expired two-factor session');
    });

    it('takes a recovery code once (any case, without its dash) and mails a notice', async () => {
      const { user, recoveryCodes } = await enrolled();
      const [code] = recoveryCodes;
      await finish((await login(user).expect(200)).body.mfaToken, code.toUpperCase().replace('-', '')).expect(200);
      let notice = await smtp.nextMail(user.email);
      // Other notices (TOTP turned on) come first.
      while (notice.subject !== 'A recovery code was used') notice = await smtp.nextMail(user.email);
      expect(notice.text).not.toContain(code);
      expectError(await finish((await login(user).expect(200)).body.mfaToken, code), 400, 'Invalid two-factor code');
      expect((await bearer('get', '/mfa', jwtFor(app.strapi, user)).expect(200)).body.recoveryCodesLeft).toBe(9);
    });

    it('refuses bad bodies with a 400', async () => {
      expectError(await app.request().post(`${AUTH}/login/mfa`).send({ code: '123456' }), 400, 'mfaToken is a required field');
      expectError(await app.request().post(`${AUTH}/login/mfa`).send({ mfaToken: 'x', code: 5 }), 400, 'code must be a `string` type, but the final value was: `5`.');
      // Any string that is not a live challenge, a NUL in it included, is the session error.
      expectError(await app.request().post(`${AUTH}/login/mfa`).send({ mfaToken: 'x\u0000', code: '123456' }), 400, 'Invalid or expired two-factor session');
    });
  });

  describe('codes asked by security changes', () => {
    it('new recovery codes need the second factor; the old ones stop working', async () => {
      const { user, jwt, secret, recoveryCodes } = await enrolled();
      expectError(await bearer('post', '/mfa/recovery-codes', jwt, {}), 400, 'Two-factor code required');
      expectError(await bearer('post', '/mfa/recovery-codes', jwt, { mfaCode: '' }), 400, 'Two-factor code required');
      expectError(await bearer('post', '/mfa/recovery-codes', jwt, { mfaCode: 'aaaaa-bbbbb' }), 400, 'Invalid two-factor code');
      const res = await bearer('post', '/mfa/recovery-codes', jwt, { mfaCode: totp(secret) }).expect(200);
      expect(res.body.recoveryCodes).toHaveLength(10);
      expectError(await finish((await login(user).expect(200)).body.mfaToken, recoveryCodes[1]), 400, 'Invalid two-factor code');
      await finish((await login(user).expect(200)).body.mfaToken, res.body.recoveryCodes[0]).expect(200);
    });

    it('disable needs the password and a code; then the login answers tokens again', async () => {
      const { user, jwt, secret, recoveryCodes } = await enrolled();
      expectError(await bearer('post', '/mfa/disable', jwt, { password: user.password }), 400, 'Two-factor code required');
      expectError(await bearer('post', '/mfa/disable', jwt, { password: 'wrong', mfaCode: totp(secret) }), 400, 'Invalid password');
      expect((await bearer('post', '/mfa/disable', jwt, { password: user.password, mfaCode: recoveryCodes[0] }).expect(200)).body).toEqual({
        message: 'Two-factor authentication disabled',
      });
      expect((await login(user).expect(200)).body).toHaveProperty('jwt');
      expect((await bearer('get', '/mfa', jwt).expect(200)).body).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [] });
      expect(await app.strapi.db.connection('bag_mfa_recovery_codes').where('user_id', user.id).first()).toBeUndefined();
    });

    it("a deleted account's second factor goes with it", async () => {
      const { user } = await enrolled();
      await app.strapi.db.query(USER_UID).delete({ where: { id: user.id } });
      expect(await app.strapi.db.connection('bag_mfa_factors').where('user_id', user.id).first()).toBeUndefined();
      expect(await app.strapi.db.connection('bag_mfa_recovery_codes').where('user_id', user.id).first()).toBeUndefined();
    });
  });

  describe("the account's own routes", () => {
    it('the login by e-mailed code answers the challenge, then the second factor gives the tokens', async () => {
      await setSettings(app.strapi, { account: { passwordless: { enabled: true } } });
      try {
        const { user, secret } = await enrolled();
        await app.request().post(`${AUTH}/send-code`).send({ identifier: user.email, purpose: 'login-code' }).expect(200);
        const code = await smtp.nextCode(user.email);
        const res = await app.request().post(`${AUTH}/login-code`).send({ identifier: user.email, code }).expect(200);
        expect(Object.keys(res.body).sort()).toEqual(['methods', 'mfaRequired', 'mfaToken']);
        expect((await finish(res.body.mfaToken, totp(secret)).expect(200)).body).toHaveProperty('jwt');
      } finally {
        await setSettings(app.strapi, { account: { passwordless: { enabled: false } } });
      }
    });

    it('e-mail change and account deletion ask for the second factor', async () => {
      const { user, jwt, secret } = await enrolled();
      const email = `new-${user.id}@example.com`;
      expectError(await bearer('post', '/email', jwt, { email, password: user.password }), 400, 'Two-factor code required');
      expectError(await bearer('post', '/email', jwt, { email, password: user.password, mfaCode: '000000' === totp(secret) ? '111111' : '000000' }), 400, 'Invalid two-factor code');
      await bearer('post', '/email', jwt, { email, password: user.password, mfaCode: totp(secret) }).expect(200);
      nextStep();
      const del = (body: object) => app.request().delete(`${AUTH}/me`).set('Authorization', `Bearer ${jwt}`).send(body);
      expectError(await del({ password: user.password }), 400, 'Two-factor code required');
      await del({ password: user.password, mfaCode: totp(secret) }).expect(200);
      expect(await app.strapi.db.connection('bag_mfa_factors').where('user_id', user.id).first()).toBeUndefined();
    });
  });

  describe("the host's routes give an enrolled account no jwt (auth.hostRoutes 'guarded')", () => {
    it('POST /api/auth/local: 400 Two-factor authentication required, only for the right password', async () => {
      const { user } = await enrolled();
      expectError(
        await app.request().post('/api/auth/local').send({ identifier: user.email, password: user.password }),
        400,
        'Two-factor authentication required',
      );
      expectError(await app.request().post('/api/auth/local').send({ identifier: user.email, password: 'wrong' }), 400, 'Invalid identifier or password');
      const plain = await createUser(app.strapi);
      expect((await app.request().post('/api/auth/local').send({ identifier: plain.email, password: plain.password }).expect(200)).body).toHaveProperty('jwt');
    });

    it('GraphQL login: Two-factor authentication required', async () => {
      const { user } = await enrolled();
      const res = await graphql(app, 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }', {
        input: { identifier: user.email, password: user.password },
      });
      expect(res.errors?.[0]?.message).toBe('Two-factor authentication required');
      expect(res.data?.login ?? null).toBeNull();
    });

    it('POST /api/auth/reset-password changes the password, answers no jwt', async () => {
      const { user } = await enrolled();
      await app.strapi.db.query(USER_UID).update({ where: { id: user.id }, data: { resetPasswordToken: `reset-${user.id}` } });
      const password = 'A-new-password-1';
      const res = await app.request().post('/api/auth/reset-password').send({ code: `reset-${user.id}`, password, passwordConfirmation: password }).expect(200);
      expect(res.body).not.toHaveProperty('jwt');
      expect(res.body).not.toHaveProperty('refreshToken');
      expect(res.body.user).toMatchObject({ id: user.id });
      expect((await login(user, password).expect(200)).body).toMatchObject({ mfaRequired: true });

      const plain = await createUser(app.strapi);
      await app.strapi.db.query(USER_UID).update({ where: { id: plain.id }, data: { resetPasswordToken: `reset-${plain.id}` } });
      const other = await app.request().post('/api/auth/reset-password').send({ code: `reset-${plain.id}`, password, passwordConfirmation: password });
      expect(other.body).toHaveProperty('jwt');
    });

    it('GraphQL resetPassword and emailConfirmation answer a null jwt', async () => {
      const { user } = await enrolled();
      await app.strapi.db.query(USER_UID).update({ where: { id: user.id }, data: { resetPasswordToken: `gql-${user.id}`, confirmationToken: `confirm-${user.id}` } });
      const password = 'A-new-password-2';
      const reset = await graphql<{ resetPassword: { jwt: string | null; user: { id: string } } }>(
        app,
        'mutation($code: String!, $p: String!) { resetPassword(code: $code, password: $p, passwordConfirmation: $p) { jwt user { id } } }',
        { code: `gql-${user.id}`, p: password },
      );
      expect(reset.errors).toBeUndefined();
      expect(reset.data?.resetPassword).toEqual({ jwt: null, user: { id: String(user.id) } });
      const confirmed = await graphql<{ emailConfirmation: { jwt: string | null } }>(
        app,
        'mutation($t: String!) { emailConfirmation(confirmation: $t) { jwt } }',
        { t: `confirm-${user.id}` },
      );
      expect(confirmed.errors).toBeUndefined();
      expect(confirmed.data?.emailConfirmation).toEqual({ jwt: null });
    });
  });
});
