/** The typed client's account calls against the real playground over HTTP (docs/client.md). */
import { CmsBagError, createClient, memoryStorage } from 'cms-plugin-bag/client';
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
    expect(auth.user.id).toBe(user.id);
    expect(await c.isLoggedIn()).toBe(true);
    const error = await c.loginWithCode(user.email, '000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CmsBagError);
  });
});
