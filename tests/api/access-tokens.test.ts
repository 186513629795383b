/**
 * An access token dies with its session (docs/accounts.md#access-tokens-end-with-their-session): after a session is revoked
 * (one, or the others), a logout, a password change (the host's route) or reset (the plugin's), or an e-mail revert, a
 * jwt of that session, or for the account-wide events any jwt issued before, is refused with the host's 401 on the
 * host's `/api/users/me`, the plugin's `/auth/me` and GraphQL, in both users-permissions `jwtManagement` modes.
 */
import jsonwebtoken from 'jsonwebtoken';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH, jwtPayload } from '../helpers/auth';
import { graphql } from '../helpers/graphql';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const EPOCH_UID = 'plugin::cms-plugin-bag.token-epoch';

interface Tokens {
  jwt: string;
  refreshToken: string;
}

/** What both modes' tests share: requests, a login, and the checks of a jwt on the three surfaces. */
const harness = (app: () => TestApp, smtp: () => TestSmtp | undefined) => {
  const post = (path: string, body: unknown, jwt?: string, ua = 'access-tokens/1') => {
    const req = app().request().post(path).set('User-Agent', ua);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return req.send(body as object);
  };
  const login = async (user: TestUser, ua = 'access-tokens/1'): Promise<Tokens> =>
    (await post(`${AUTH}/login`, { identifier: user.email, password: user.password }, undefined, ua).expect(200)).body;
  const hostMe = (jwt: string) => app().request().get('/api/users/me').set('Authorization', `Bearer ${jwt}`);
  const pluginMe = (jwt: string) => app().request().get(`${AUTH}/me`).set('Authorization', `Bearer ${jwt}`);

  /** The host's answer to a jwt it cannot verify: what a refused one must get too. */
  const invalidAnswer = async () => {
    const res = await hostMe('not.a.jwt');
    return { status: res.status, body: res.body };
  };
  const expectAccepted = async (jwt: string, userId: number) => {
    expect({ host: (await hostMe(jwt)).status, plugin: (await pluginMe(jwt)).status }).toEqual({ host: 200, plugin: 200 });
    expect((await pluginMe(jwt)).body.id).toBe(userId);
  };
  const expectRefused = async (jwt: string) => {
    const invalid = await invalidAnswer();
    expect(invalid.status).toBe(401);
    const host = await hostMe(jwt);
    const own = await pluginMe(jwt);
    expect({ status: host.status, body: host.body }).toEqual(invalid);
    expect({ status: own.status, body: own.body }).toEqual(invalid);
  };
  /** An e-mailed code for `address` (with the reset purpose where the build knows purposes). */
  const resetCode = async (address: string) => {
    const withPurpose = await post(`${AUTH}/send-code`, { identifier: address, purpose: 'reset' });
    if (withPurpose.status !== 200) await post(`${AUTH}/send-code`, { identifier: address }).expect(200);
    return smtp()!.nextCode(address);
  };
  return { post, login, hostMe, pluginMe, expectAccepted, expectRefused, resetCode };
};

describe('access tokens end with their session (legacy jwtManagement)', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  const h = harness(
    () => app,
    () => smtp,
  );

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      env: { ...smtp.env, GRAPHQL: 'after', PUBLIC_URL: 'https://api.example.test' },
      config: { rateLimit: { enabled: false }, account: { signInAlerts: false }, captcha: { email: { resendInterval: 1 } } },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  it('refuses the jwt of a session revoked by id, on the host, the plugin and GraphQL; the other session goes on', async () => {
    const user = await createUser(app.strapi);
    const a = await h.login(user, 'A/1');
    const b = await h.login(user, 'B/1');
    await h.expectAccepted(b.jwt, user.id);
    const me = await graphql(app, '{ me { id } }', {}, b.jwt);
    expect(me.data).toEqual({ me: { id: String(user.id) } });

    const list = await app.request().get(`${AUTH}/sessions`).set('Authorization', `Bearer ${a.jwt}`).expect(200);
    const target = list.body.data.find((session: { userAgent: string }) => session.userAgent === 'B/1');
    await app.request().delete(`${AUTH}/sessions/${target.id}`).set('Authorization', `Bearer ${a.jwt}`).expect(200);

    await h.expectRefused(b.jwt);
    const refused = await graphql(app, '{ me { id } }', {}, b.jwt);
    const invalid = await graphql(app, '{ me { id } }', {}, 'not.a.jwt');
    expect(refused).toEqual(invalid);
    expect(refused.status).toBe(401);
    await h.expectAccepted(a.jwt, user.id);
  });

  it('"sign out everywhere else" refuses the other sessions\' jwts and the host-issued ones; the current one stays', async () => {
    const user = await createUser(app.strapi);
    const a = await h.login(user, 'A/1');
    const b = await h.login(user, 'B/1');
    const host = jwtFor(app.strapi, user);
    await h.expectAccepted(host, user.id);
    const res = await app.request().delete(`${AUTH}/sessions`).set('Authorization', `Bearer ${a.jwt}`).expect(200);
    expect(res.body.revoked).toBe(1);
    await h.expectRefused(b.jwt);
    await h.expectRefused(host);
    await h.expectAccepted(a.jwt, user.id);
    // A jwt the host issues afterwards, in the same second, is not taken for an older one.
    await h.expectAccepted(jwtFor(app.strapi, user), user.id);
  });

  it('refuses the jwt of a session that logged out, and of one refreshed before it did', async () => {
    const user = await createUser(app.strapi);
    const { jwt, refreshToken } = await h.login(user);
    const refreshed = (await h.post(`${AUTH}/refresh-token`, { refreshToken }).expect(200)).body.jwt as string;
    await h.post(`${AUTH}/logout`, { refreshToken }).expect(200);
    await h.expectRefused(jwt);
    await h.expectRefused(refreshed);
  });

  it("a password change through the host's route refuses every earlier jwt; the one it answers with works", async () => {
    const user = await createUser(app.strapi);
    const session = await h.login(user);
    const host = jwtFor(app.strapi, user);
    const res = await h
      .post('/api/auth/change-password', { currentPassword: user.password, password: 'Changed-pass-1', passwordConfirmation: 'Changed-pass-1' }, host)
      .expect(200);
    await h.expectRefused(session.jwt);
    await h.expectRefused(host);
    await h.expectAccepted(res.body.jwt, user.id);
  });

  it("the plugin's password reset refuses every earlier jwt; a login right after it works", async () => {
    const user = await createUser(app.strapi);
    const session = await h.login(user);
    const host = jwtFor(app.strapi, user);
    const code = await h.resetCode(user.email);
    await h.post(`${AUTH}/reset-password`, { identifier: user.email, code, password: 'Reset-pass-12' }).expect(200);
    await h.expectRefused(session.jwt);
    await h.expectRefused(host);
    const again = await h.login({ ...user, password: 'Reset-pass-12' });
    await h.expectAccepted(again.jwt, user.id);
    await h.expectAccepted(jwtFor(app.strapi, user), user.id);
  });

  it('a block (by any path: here the query engine, as the Content Manager) refuses every earlier jwt, also after the unblock', async () => {
    const user = await createUser(app.strapi);
    const session = await h.login(user);
    const host = jwtFor(app.strapi, user);
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { blocked: true } });
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { blocked: false } });
    await h.expectRefused(session.jwt);
    await h.expectRefused(host);
    await h.expectAccepted((await h.login(user)).jwt, user.id);
  });

  it('a host jwt without the millisecond claim counts from the start of its iat second', async () => {
    const user = await createUser(app.strapi);
    await app.strapi.plugin('cms-plugin-bag').service('refresh-token').endAll(user.id);
    const { validAfter } = await app.strapi.db.query(EPOCH_UID).findOne({ where: { userId: user.id } });
    const second = Math.floor(Number(validAfter) / 1000);
    const secret = app.strapi.config.get('plugin::users-permissions.jwtSecret') as string;
    const signed = (iat: number) => jsonwebtoken.sign({ id: user.id, iat }, secret, { expiresIn: '1h' });
    // Issued in the event's second (before or after it, it cannot tell): refused; in the next second: accepted.
    await h.expectRefused(signed(second));
    await h.expectRefused(signed(second - 60));
    await h.expectAccepted(signed(second + 1), user.id);
    expect(jwtPayload(jwtFor(app.strapi, user))).toHaveProperty('bagIssuedAt');
  });

  it('reads a session or an account once per sessions version: later requests with the jwt read neither', async () => {
    const user = await createUser(app.strapi);
    const session = await h.login(user);
    const host = jwtFor(app.strapi, user);
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    const reads = async (jwt: string, table: string) => {
      statements.length = 0;
      await h.pluginMe(jwt).expect(200);
      return statements.filter((sql) => sql.includes(table)).length;
    };
    app.strapi.db.connection.on('query', record);
    try {
      expect([await reads(session.jwt, 'bag_refresh_tokens'), await reads(session.jwt, 'bag_refresh_tokens'), await reads(session.jwt, 'bag_refresh_tokens')]).toEqual([1, 0, 0]);
      expect([await reads(host, 'bag_token_epochs'), await reads(host, 'bag_token_epochs')]).toEqual([1, 0]);
      // Another account's session ends: every instance forgets what it knew, and reads again once.
      const other = await h.login(await createUser(app.strapi));
      await h.post(`${AUTH}/logout`, { refreshToken: other.refreshToken }).expect(200);
      expect([await reads(session.jwt, 'bag_refresh_tokens'), await reads(session.jwt, 'bag_refresh_tokens')]).toEqual([1, 0]);
    } finally {
      app.strapi.db.connection.off('query', record);
    }
  });

  it('the e-mail revert refuses every earlier jwt', async () => {
    const user = await createUser(app.strapi);
    const session = await h.login(user);
    const host = jwtFor(app.strapi, user);
    const newEmail = `moved-${Date.now()}@example.com`;
    await h.post(`${AUTH}/email`, { email: newEmail, password: user.password }, session.jwt).expect(200);
    const code = await smtp.nextCode(newEmail);
    await h.post(`${AUTH}/email/confirm`, { code }, session.jwt).expect(200);
    let token: string | undefined;
    while (!token) token = /revert\?token=([A-Za-z0-9_-]{43})/.exec((await smtp.nextMail(user.email)).text)?.[1];
    await h.expectAccepted(session.jwt, user.id);
    await app.request().post(`${AUTH}/email/revert`).set('Accept', 'application/json').send({ token }).expect(200);
    await h.expectRefused(session.jwt);
    await h.expectRefused(host);
  });
});

describe("access tokens end with their session (jwtManagement 'refresh')", () => {
  let app: TestApp;
  let smtp: TestSmtp;
  const h = harness(
    () => app,
    () => smtp,
  );
  /** A session of the host's own (its login route's): a refresh token and an access token of the Session Manager. */
  const hostSession = async (user: TestUser) => {
    const sessions = app.strapi.sessionManager('users-permissions');
    const refresh = await sessions.generateRefreshToken(String(user.id), undefined, { type: 'refresh' });
    const access = await sessions.generateAccessToken(refresh.token);
    if ('error' in access) throw new Error(access.error);
    return access.token;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      env: { ...smtp.env, JWT_MANAGEMENT: 'refresh' },
      config: { rateLimit: { enabled: false }, account: { signInAlerts: false }, captcha: { email: { resendInterval: 1 } } },
    });
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  it('refuses the access tokens of a revoked session, also those minted before its last refresh', async () => {
    const user = await createUser(app.strapi);
    const a = await h.login(user, 'A/1');
    const b = await h.login(user, 'B/1');
    const refreshed = (await h.post(`${AUTH}/refresh-token`, { refreshToken: b.refreshToken }).expect(200)).body.jwt as string;
    expect(jwtPayload(refreshed).sessionId).not.toBe(jwtPayload(b.jwt).sessionId);
    await h.expectAccepted(b.jwt, user.id);
    const list = await app.request().get(`${AUTH}/sessions`).set('Authorization', `Bearer ${a.jwt}`).expect(200);
    const target = list.body.data.find((session: { userAgent: string }) => session.userAgent === 'B/1');
    await app.request().delete(`${AUTH}/sessions/${target.id}`).set('Authorization', `Bearer ${a.jwt}`).expect(200);
    await h.expectRefused(refreshed);
    await h.expectRefused(b.jwt);
    await h.expectAccepted(a.jwt, user.id);
  });

  it('logout, and "sign out everywhere else" (the host\'s own sessions too) refuse their access tokens', async () => {
    const user = await createUser(app.strapi);
    const a = await h.login(user, 'A/1');
    const b = await h.login(user, 'B/1');
    const c = await h.login(user, 'C/1');
    const own = await hostSession(user);
    await h.post(`${AUTH}/logout`, { refreshToken: c.refreshToken }).expect(200);
    await h.expectRefused(c.jwt);
    await h.expectAccepted(own, user.id);
    await app.request().delete(`${AUTH}/sessions`).set('Authorization', `Bearer ${a.jwt}`).expect(200);
    await h.expectRefused(b.jwt);
    await h.expectRefused(own);
    await h.expectAccepted(a.jwt, user.id);
  });

  it("a password change through the host's route and the plugin's reset refuse every earlier access token", async () => {
    const user = await createUser(app.strapi);
    const session = await h.login(user);
    const own = await hostSession(user);
    const res = await h
      .post('/api/auth/change-password', { currentPassword: user.password, password: 'Changed-pass-1', passwordConfirmation: 'Changed-pass-1' }, own)
      .expect(200);
    await h.expectRefused(session.jwt);
    await h.expectRefused(own);
    await h.expectAccepted(res.body.jwt, user.id);

    const again = await h.login({ ...user, password: 'Changed-pass-1' });
    const code = await h.resetCode(user.email);
    await h.post(`${AUTH}/reset-password`, { identifier: user.email, code, password: 'Reset-pass-12' }).expect(200);
    await h.expectRefused(again.jwt);
    await h.expectRefused(res.body.jwt);
    await h.expectAccepted((await h.login({ ...user, password: 'Reset-pass-12' })).jwt, user.id);
  });
});
