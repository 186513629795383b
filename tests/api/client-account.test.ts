/** The typed client's account calls against the real playground over HTTP (docs/client.md). */
import { CmsBagError, createClient, isMfaChallenge, memoryStorage } from 'cms-plugin-bag/client';
import { TOTP } from 'otpauth';
import { plugin } from '../helpers/auth';
import { createUser } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

describe('typed client: the account', () => {
  let app: TestApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      env: smtp.env,
      config: {
        account: { passwordless: { enabled: true }, signInAlerts: false },
        captcha: { email: { resendInterval: 1 } },
        rateLimit: { enabled: false },
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  const client = () => createClient({ baseUrl: app.url, storage: memoryStorage() });

  it('lists sessions, ends one and the others, changes the e-mail, exports and deletes the account', async () => {
    const user = await createUser(app.strapi);
    const mine = client();
    const other = client();
    const third = client();
    await mine.login({ identifier: user.email, password: user.password });
    await other.login({ identifier: user.email, password: user.password });
    await third.login({ identifier: user.email, password: user.password });

    const sessions = await mine.sessions();
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const otherId = (await other.sessions()).find((s) => s.current)!.id;
    expect(await mine.revokeSession(otherId)).toEqual({ message: 'Session ended' });
    expect(await other.refresh()).toBe(false);
    expect((await mine.revokeOtherSessions()).revoked).toBe(1);
    expect(await mine.sessions()).toHaveLength(1);

    const newEmail = `client-new-${Date.now()}@example.com`;
    expect((await mine.changeEmail({ email: newEmail, password: user.password, encrypt: true })).expiresIn).toBe(600);
    const changed = await mine.confirmEmailChange(await smtp.nextCode(newEmail));
    expect(changed.email).toBe(newEmail);

    const exported = await mine.exportAccount();
    expect(exported.user.email).toBe(newEmail);
    expect(exported.sessions).toHaveLength(1);

    await expect(mine.deleteAccount({ password: 'wrong-pass' })).rejects.toMatchObject({ status: 400, message: 'Invalid password' });
    expect(await mine.deleteAccount({ password: user.password })).toEqual({ message: 'Account deleted' });
    expect(await mine.isLoggedIn()).toBe(false);
  });

  it('resets a password and logs in with a code', async () => {
    const user = await createUser(app.strapi);
    const c = client();
    await c.sendCode(user.email, 'reset');
    expect(await c.resetPassword({ identifier: user.email, code: await smtp.nextCode(user.email), password: 'Client-new-pass-1' })).toEqual({
      message: 'Password changed',
    });
    await c.sendCode(user.email, 'login-code');
    const auth = await c.loginWithCode(user.email, await smtp.nextCode(user.email));
    expect(isMfaChallenge(auth) ? null : auth.user.id).toBe(user.id);
    expect(await c.isLoggedIn()).toBe(true);
    const error = await c.loginWithCode(user.email, '000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CmsBagError);
  });

  // docs/accounts.md#second-factors-totp-and-recovery-codes: with TOTP on, the e-mail change and the deletion take `mfaCode`;
  // the client's input types are the server's request shapes (docs/client.md).
  describe('an account with TOTP on', () => {
    /** The plugin's clock, moved in 30-second steps so that no TOTP code is used twice. */
    let now = Date.now();
    const step = () => (now += 30_000);
    const totp = (secret: string) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: now });
    beforeEach(() => jest.spyOn(plugin(app.strapi).service('clock'), 'now').mockImplementation(() => now));
    afterEach(() => jest.restoreAllMocks());

    /** A signed-in client whose account has TOTP on (enrolled through the client), and the TOTP secret. */
    const enrolled = async () => {
      const user = await createUser(app.strapi);
      const c = client();
      await c.login({ identifier: user.email, password: user.password });
      const { secret } = await c.mfa.setup({ password: user.password });
      expect((await c.mfa.enable(totp(secret))).recoveryCodes).toHaveLength(10);
      step();
      return { user, c, secret };
    };

    it('changes the e-mail with mfaCode, then deletes the account with an e-mailed code and mfaCode', async () => {
      const { user, c, secret } = await enrolled();
      const newEmail = `client-totp-${Date.now()}@example.com`;
      await expect(c.changeEmail({ email: newEmail, password: user.password })).rejects.toMatchObject({
        status: 400,
        message: 'Two-factor code required',
      });
      expect((await c.changeEmail({ email: newEmail, password: user.password, mfaCode: totp(secret) })).expiresIn).toBe(600);
      expect((await c.confirmEmailChange(await smtp.nextCode(newEmail))).email).toBe(newEmail);
      step();

      await c.sendCode(newEmail, 'delete');
      expect(await c.deleteAccount({ code: await smtp.nextCode(newEmail), mfaCode: totp(secret) })).toEqual({ message: 'Account deleted' });
      expect(await c.isLoggedIn()).toBe(false);
      expect(await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: user.id } })).toBeNull();
    });

    it('deletes the account with the password, encrypted, and mfaCode', async () => {
      const { user, c, secret } = await enrolled();
      await expect(c.deleteAccount({ password: user.password, encrypt: true })).rejects.toMatchObject({ status: 400, message: 'Two-factor code required' });
      expect(await c.deleteAccount({ password: user.password, encrypt: true, mfaCode: totp(secret) })).toEqual({ message: 'Account deleted' });
      expect(await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: user.id } })).toBeNull();
    });
  });
});
