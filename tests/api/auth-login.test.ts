/** Login in every captcha mode, refresh / logout / me, refresh-token revocation and jwtManagement 'refresh', over HTTP. */
import crypto from 'crypto';
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH, holdDeletesUntil, imageCaptcha, jwtPayload, observeCaptchaTexts, restoreClock, setAdvanced, setSettings, shiftClock } from '../helpers/auth';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const USER_UID = 'plugin::users-permissions.user';
const TOKEN_UID = 'plugin::cms-plugin-bag.refresh-token';

describe('login, tokens and the current user', () => {
  let app: TestApp;
  let smtp: TestSmtp;
  let texts: ReturnType<typeof observeCaptchaTexts>;

  const post = (path: string, body: unknown) => app.request().post(`${AUTH}${path}`).set('User-Agent', 'auth-test/1.0').send(body as object);
  const login = (body: Record<string, unknown>) => post('/login', body);
  const me = (jwt?: string) => {
    const req = app.request().get(`${AUTH}/me`);
    return jwt === undefined ? req : req.set('Authorization', `Bearer ${jwt}`);
  };
  const expectError = (res: { status: number; body: any }, status: number, message: string) => {
    expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
  };
  const loggedIn = async (user: TestUser) => (await login({ identifier: user.email, password: user.password }).expect(200)).body;
  const tokensOf = (userId: number) => app.strapi.db.query(TOKEN_UID).count({ where: { userId } });

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({ env: smtp.env, config: { rateLimit: { enabled: false } } });
    texts = observeCaptchaTexts(app.strapi);
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });
  beforeEach(async () => {
    await setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } } });
    await setAdvanced(app.strapi, { email_confirmation: false });
  });
  afterEach(() => restoreClock(app.strapi));

  describe('login without captcha', () => {
    it('logs in with the e-mail (any case) or the username and returns { jwt, refreshToken, user }', async () => {
      const user = await createUser(app.strapi);
      for (const identifier of [user.email, user.email.toUpperCase(), user.username]) {
        const res = await login({ identifier, password: user.password }).expect(200);
        expect(Object.keys(res.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
        expect(res.body.user).toMatchObject({ id: user.id, documentId: user.documentId, username: user.username, email: user.email });
        for (const field of ['password', 'resetPasswordToken', 'confirmationToken']) expect(res.body.user).not.toHaveProperty(field);
        expect(res.body.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      }
    });

    it('issues a jwt the host accepts, living auth.accessToken.expiresIn', async () => {
      const user = await createUser(app.strapi);
      const { jwt } = await loggedIn(user);
      const payload = jwtPayload(jwt);
      expect(payload.id).toBe(user.id);
      expect(payload.exp - payload.iat).toBe(3600);
      const host = await app.request().get('/api/users/me').set('Authorization', `Bearer ${jwt}`).expect(200);
      expect(host.body.id).toBe(user.id);
    });

    it('records the refresh token with user, expiry, IP and User-Agent', async () => {
      const user = await createUser(app.strapi);
      await loggedIn(user);
      const row = await app.strapi.db.query(TOKEN_UID).findOne({ where: { userId: user.id } });
      expect(row.userAgent).toBe('auth-test/1.0');
      expect(row.ip).toMatch(/127\.0\.0\.1/);
      expect(Number(row.expiresAt) - Date.now()).toBeGreaterThan(30 * 86400 * 1000 - 60_000);
      expect(Number(row.expiresAt) - Date.now()).toBeLessThanOrEqual(30 * 86400 * 1000);
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('refuses a wrong password or an unknown identifier', async () => {
      const user = await createUser(app.strapi);
      expectError(await login({ identifier: user.email, password: 'wrong-password' }), 400, 'Invalid identifier or password');
      expectError(await login({ identifier: 'nobody@example.com', password: user.password }), 400, 'Invalid identifier or password');
    });

    it('checks a password against a hash of the host cost also for an unknown identifier (same time to refuse)', async () => {
      const user = await createUser(app.strapi);
      const stored = (await app.strapi.db.query(USER_UID).findOne({ where: { id: user.id } })).password as string;
      const validatePassword = jest.spyOn(app.strapi.plugin('users-permissions').service('user'), 'validatePassword');
      try {
        expectError(await login({ identifier: 'nobody-timing@example.com', password: 'some-password' }), 400, 'Invalid identifier or password');
        expect(validatePassword).toHaveBeenCalledTimes(1);
        const [password, hash] = validatePassword.mock.calls[0] as [string, string];
        expect(password).toBe('some-password');
        // Same algorithm and cost as the host's own hashes (`$2a$10$…`), so the comparison costs the same.
        expect(hash.slice(0, 7)).toBe(stored.slice(0, 7));
        expect(hash).not.toBe(stored);
      } finally {
        validatePassword.mockRestore();
      }
    });

    it('refuses a blocked user', async () => {
      const user = await createUser(app.strapi, { blocked: true });
      expectError(await login({ identifier: user.email, password: user.password }), 400, 'Your account has been blocked by an administrator');
    });

    it('refuses an unconfirmed user when e-mail confirmation is on', async () => {
      const user = await createUser(app.strapi, { confirmed: false });
      await setAdvanced(app.strapi, { email_confirmation: true });
      expectError(await login({ identifier: user.email, password: user.password }), 400, 'Your account email is not confirmed');
      await setAdvanced(app.strapi, { email_confirmation: false });
      await login({ identifier: user.email, password: user.password }).expect(200);
    });

    it('answers 400, never 500, to malformed bodies', async () => {
      const user = await createUser(app.strapi);
      const bodies: unknown[] = [
        {},
        { identifier: user.email },
        { password: user.password },
        { identifier: 42, password: user.password },
        { identifier: { $ne: '' }, password: user.password },
        { identifier: user.email, password: ['x'] },
        { identifier: user.email, password: user.password, code: 1234 },
        'identifier',
        [user.email, user.password],
      ];
      for (const body of bodies) {
        const res = await login(body as Record<string, unknown>);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
      }
      const missing = await login({ identifier: user.email });
      expect(missing.body.error.name).toBe('ValidationError');
      expect(missing.body.error.details.errors[0].path).toEqual(['password']);
      const raw = await app
        .request()
        .post(`${AUTH}/login`)
        .set('Content-Type', 'application/json')
        .send(`{"__proto__": {"identifier": "${user.email}", "password": "${user.password}"}}`);
      expect(raw.status).toBe(400);
    });
  });

  describe('login with a captcha', () => {
    it('image: requires key and code, refuses a wrong one, accepts the right one', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'image' } } });
      const user = await createUser(app.strapi);
      const credentials = { identifier: user.username, password: user.password };
      expectError(await login(credentials), 400, 'Captcha code is required');
      const first = await imageCaptcha(app, texts);
      expectError(await login({ ...credentials, code: first.text }), 400, 'Captcha code is required');
      expectError(await login({ ...credentials, key: first.key, code: `${first.text}z` }), 400, 'Invalid or expired captcha code');
      const second = await imageCaptcha(app, texts);
      await login({ ...credentials, key: second.key, code: second.text.toUpperCase() }).expect(200);
      // The captcha is checked before the password.
      const third = await imageCaptcha(app, texts);
      expectError(await login({ ...credentials, password: 'wrong', key: third.key, code: 'nope' }), 400, 'Invalid or expired captcha code');
    });

    it("email: the code must have been sent to the account's own address, even when logging in by username", async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } } });
      const user = await createUser(app.strapi);
      const other = await createUser(app.strapi);
      const credentials = { identifier: user.username, password: user.password };
      expectError(await login(credentials), 400, 'Captcha code is required');

      await post('/send-code', { identifier: other.email }).expect(200);
      const foreign = await smtp.nextCode(other.email);
      expectError(await login({ ...credentials, code: foreign }), 400, 'Invalid or expired captcha code');

      await post('/send-code', { identifier: user.email }).expect(200);
      const code = await smtp.nextCode(user.email);
      await login({ ...credentials, code }).expect(200);
      expectError(await login({ ...credentials, code }), 400, 'Invalid or expired captcha code');
    });

    it('email: of two concurrent logins with one code exactly one succeeds', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } } });
      const user = await createUser(app.strapi);
      await post('/send-code', { identifier: user.email }).expect(200);
      const code = await smtp.nextCode(user.email);
      const release = holdDeletesUntil(app.strapi, 'plugin::cms-plugin-bag.captcha', 2);
      try {
        const results = await Promise.all([1, 2].map(() => login({ identifier: user.email, password: user.password, code })));
        expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
      } finally {
        release();
      }
    });

    it('any: the image captcha with a key, the e-mail code without', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'any' } } });
      const user = await createUser(app.strapi);
      const credentials = { identifier: user.email, password: user.password };
      expectError(await login(credentials), 400, 'Captcha code is required');
      const { key, text } = await imageCaptcha(app, texts);
      await login({ ...credentials, key, code: text }).expect(200);
      await post('/send-code', { identifier: user.email }).expect(200);
      const code = await smtp.nextCode(user.email);
      await login({ ...credentials, code }).expect(200);
    });
  });

  describe('refresh, logout and me', () => {
    it('refresh returns only a new jwt, which works; the refresh token keeps working', async () => {
      const user = await createUser(app.strapi);
      const { refreshToken } = await loggedIn(user);
      for (let i = 0; i < 2; i += 1) {
        const res = await post('/refresh-token', { refreshToken }).expect(200);
        expect(Object.keys(res.body)).toEqual(['jwt']);
        expect(jwtPayload(res.body.jwt).id).toBe(user.id);
        const current = await me(res.body.jwt).expect(200);
        expect(current.body.id).toBe(user.id);
      }
    });

    it('refresh: missing, malformed, unknown and expired tokens', async () => {
      expectError(await post('/refresh-token', {}), 400, 'Missing refresh token');
      expectError(await post('/refresh-token', { refreshToken: '' }), 400, 'Missing refresh token');
      expectError(await post('/refresh-token', { refreshToken: 42 }), 400, 'Invalid refresh token');
      expectError(await post('/refresh-token', { refreshToken: 'short' }), 400, 'Invalid refresh token');
      expectError(await post('/refresh-token', { refreshToken: 'A'.repeat(43) }), 400, 'Invalid refresh token');

      const user = await createUser(app.strapi);
      const { refreshToken } = await loggedIn(user);
      shiftClock(app.strapi, 30 * 86400 * 1000 + 1000);
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Refresh token expired');
      restoreClock(app.strapi);
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
    });

    it('logout destroys the token (idempotent), and the jwt of its session with it', async () => {
      const user = await createUser(app.strapi);
      const { jwt, refreshToken } = await loggedIn(user);
      const res = await post('/logout', { refreshToken }).expect(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
      await post('/logout', { refreshToken }).expect(200);
      await post('/logout', { refreshToken: 'unknown-token' }).expect(200);
      expectError(await post('/logout', {}), 400, 'Missing refresh token');
      expect((await me(jwt)).status).toBe(401);
    });

    it('me: 401 without, with a bad and with an expired token; the flat sanitized user otherwise', async () => {
      expect((await me()).status).toBe(401);
      expect((await me('not.a.jwt')).status).toBe(401);
      const user = await createUser(app.strapi);
      const expired = app.strapi.plugin('users-permissions').service('jwt').issue({ id: user.id }, { expiresIn: -10 });
      expect((await me(expired)).status).toBe(401);
      const anon = await me();
      expect(anon.body).toMatchObject({ data: null, error: { status: 401 } });

      const res = await me(jwtFor(app.strapi, user)).expect(200);
      expect(res.body).toMatchObject({ id: user.id, documentId: user.documentId, username: user.username, email: user.email, provider: 'local', confirmed: true, blocked: false });
      expect(res.body).toHaveProperty('createdAt');
      expect(res.body).toHaveProperty('updatedAt');
      for (const field of ['password', 'resetPasswordToken', 'confirmationToken']) expect(res.body).not.toHaveProperty(field);
      const host = await app.request().get('/api/users/me').set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).expect(200);
      expect(res.body).toEqual(host.body);
    });
  });

  describe('revocation', () => {
    it('a user blocked behind the lifecycles is refused at refresh with the blocked message, and the token dies', async () => {
      const user = await createUser(app.strapi);
      const { refreshToken } = await loggedIn(user);
      const table = app.strapi.db.metadata.get(USER_UID).tableName;
      // Straight SQL: a change the plugin's lifecycle hook does not see, so the refresh itself must notice the block.
      await app.strapi.db.connection(table).where({ id: user.id }).update({ blocked: true });
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Your account has been blocked by an administrator');
      await app.strapi.db.connection(table).where({ id: user.id }).update({ blocked: false });
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
    });

    it('blocking in the admin panel revokes every refresh token of the user; login is refused', async () => {
      const user = await createUser(app.strapi);
      const tokens = [(await loggedIn(user)).refreshToken, (await loggedIn(user)).refreshToken];
      const bystander = await createUser(app.strapi);
      await loggedIn(bystander);
      expect(await tokensOf(user.id)).toBe(2);

      const token = await adminToken(app);
      await app
        .request()
        .put(`/content-manager/collection-types/${USER_UID}/${user.documentId}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ blocked: true })
        .expect(200);
      expect(await tokensOf(user.id)).toBe(0);
      expect(await tokensOf(bystander.id)).toBe(1);
      for (const refreshToken of tokens) expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
      expectError(await login({ identifier: user.email, password: user.password }), 400, 'Your account has been blocked by an administrator');
    });

    it("a password change through the host's endpoint revokes the user's refresh tokens", async () => {
      const user = await createUser(app.strapi);
      const { jwt, refreshToken } = await loggedIn(user);
      await app
        .request()
        .post('/api/auth/change-password')
        .set('Authorization', `Bearer ${jwt}`)
        .send({ currentPassword: user.password, password: 'New-password-123', passwordConfirmation: 'New-password-123' })
        .expect(200);
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
      await login({ identifier: user.email, password: 'New-password-123' }).expect(200);
    });

    it('an edit that changes neither password nor blocked keeps the tokens', async () => {
      const user = await createUser(app.strapi);
      const { refreshToken } = await loggedIn(user);
      await app.strapi.db.query(USER_UID).update({ where: { id: user.id }, data: { confirmed: true } });
      await post('/refresh-token', { refreshToken }).expect(200);
    });

    it('deleting the user revokes its refresh tokens', async () => {
      const user = await createUser(app.strapi);
      const { refreshToken } = await loggedIn(user);
      await app.strapi.plugin('users-permissions').service('user').remove({ id: user.id });
      expect(await tokensOf(user.id)).toBe(0);
      expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
    });

    it('purges expired refresh tokens when new ones are issued', async () => {
      const user = await createUser(app.strapi);
      shiftClock(app.strapi, -31 * 86400 * 1000);
      await loggedIn(user);
      restoreClock(app.strapi);
      expect(await tokensOf(user.id)).toBe(1);
      const other = await createUser(app.strapi);
      await loggedIn(other);
      expect(await tokensOf(user.id)).toBe(0);
    });
  });
});

describe("users-permissions jwtManagement 'refresh': each refresh token backed by a host session", () => {
  let app: TestApp;

  const post = (path: string, body: unknown) => app.request().post(`${AUTH}${path}`).send(body as object);
  const expectError = (res: { status: number; body: any }, status: number, message: string) => {
    expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
  };
  const loggedIn = async (user: TestUser) => (await post('/login', { identifier: user.email, password: user.password }).expect(200)).body;
  const hostSessions = (userId: number) => app.strapi.sessionManager('users-permissions').listSessions(String(userId));
  const hostAccepts = (jwt: string) => app.request().get('/api/users/me').set('Authorization', `Bearer ${jwt}`);

  beforeAll(async () => {
    app = await setupStrapi({
      env: { JWT_MANAGEMENT: 'refresh' },
      config: { rateLimit: { enabled: false }, register: { captcha: { enabled: false } } },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('issues host session access tokens at login and register, accepted by the host and by /auth/me', async () => {
    const user = await createUser(app.strapi);
    const { jwt, refreshToken, user: shown } = await loggedIn(user);
    expect(shown).toMatchObject({ id: user.id, email: user.email });
    expect(refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(jwtPayload(jwt)).toMatchObject({ userId: String(user.id), type: 'access' });
    await hostAccepts(jwt).expect(200);
    await app.request().get(`${AUTH}/me`).set('Authorization', `Bearer ${jwt}`).expect(200);
    expect(await hostSessions(user.id)).toHaveLength(1);

    const registered = await post('/register', { username: 'session-user', email: 'session-user@example.com', password: 'Session-password-1' }).expect(200);
    expect(jwtPayload(registered.body.jwt)).toMatchObject({ userId: String(registered.body.user.id), type: 'access' });
    await hostAccepts(registered.body.jwt).expect(200);
  });

  it('refreshes through the host session (rotated, still one live session) and logout ends it', async () => {
    const user = await createUser(app.strapi);
    const { refreshToken } = await loggedIn(user);
    const [session] = await hostSessions(user.id);

    for (let round = 0; round < 2; round += 1) {
      const refreshed = await post('/refresh-token', { refreshToken }).expect(200);
      expect(Object.keys(refreshed.body)).toEqual(['jwt']);
      await hostAccepts(refreshed.body.jwt).expect(200);
    }
    const live = await hostSessions(user.id);
    expect(live).toHaveLength(1);
    expect(live[0].sessionId).not.toBe(session.sessionId);

    await post('/logout', { refreshToken }).expect(200);
    expect(await hostSessions(user.id)).toHaveLength(0);
    expectError(await post('/refresh-token', { refreshToken }), 400, 'Invalid refresh token');
  });

  it('of two concurrent refreshes with one token both succeed and leave one live session', async () => {
    const user = await createUser(app.strapi);
    const { refreshToken } = await loggedIn(user);
    const results = await Promise.all([post('/refresh-token', { refreshToken }), post('/refresh-token', { refreshToken })]);
    expect(results.map((res) => res.status)).toEqual([200, 200]);
    // Exactly one live host session whichever way the two interleaved (no orphan left active), and both answers work.
    expect(await hostSessions(user.id)).toHaveLength(1);
    for (const res of results) await hostAccepts(res.body.jwt).expect(200);
    await post('/refresh-token', { refreshToken }).expect(200);
  });

  it('keeps the host refresh token only sealed under a key the database does not hold', async () => {
    const user = await createUser(app.strapi);
    await loggedIn(user);
    const [row] = await app.strapi.db.query(TOKEN_UID).findMany({ where: { userId: user.id } });
    expect(row.sessionId).toBe((await hostSessions(user.id))[0].sessionId);
    expect(typeof row.hostToken).toBe('string');
    const stored = `${row.hostToken} ${Buffer.from(row.hostToken, 'base64').toString('latin1')}`;
    expect(stored).not.toContain('eyJ');
  });

  it('refuses a refresh once the host ended the session, and revokes both when the user is blocked', async () => {
    const user = await createUser(app.strapi);
    const first = await loggedIn(user);
    await app.strapi.sessionManager('users-permissions').invalidateRefreshToken(String(user.id));
    expectError(await post('/refresh-token', { refreshToken: first.refreshToken }), 400, 'Invalid refresh token');
    expect(await app.strapi.db.query(TOKEN_UID).count({ where: { userId: user.id } })).toBe(0);

    const second = await loggedIn(user);
    expect(await hostSessions(user.id)).toHaveLength(1);
    await app.strapi.db.query(USER_UID).update({ where: { id: user.id }, data: { blocked: true } });
    expect(await hostSessions(user.id)).toHaveLength(0);
    expectError(await post('/refresh-token', { refreshToken: second.refreshToken }), 400, 'Invalid refresh token');
  });

  it('ends the host session of a refresh token purged at its expiry', async () => {
    const user = await createUser(app.strapi);
    shiftClock(app.strapi, -31 * 86400 * 1000);
    await loggedIn(user);
    restoreClock(app.strapi);
    expect(await hostSessions(user.id)).toHaveLength(1);
    await loggedIn(await createUser(app.strapi));
    expect(await app.strapi.db.query(TOKEN_UID).count({ where: { userId: user.id } })).toBe(0);
    expect(await hostSessions(user.id)).toHaveLength(0);
  });

  it('refuses a refresh token issued in legacy mode, which has no host session behind it', async () => {
    const user = await createUser(app.strapi);
    const legacy = 'a'.repeat(43);
    await app.strapi.db.query(TOKEN_UID).create({
      data: { tokenHash: crypto.createHash('sha256').update(legacy).digest('hex'), userId: user.id, expiresAt: Date.now() + 60_000 },
    });
    expectError(await post('/refresh-token', { refreshToken: legacy }), 400, 'Invalid refresh token');
  });
});
