/**
 * Passkeys over HTTP with a software authenticator (tests/helpers/webauthn.ts): register (after the password), list,
 * remove, sign in with and without an identifier, and the error rows (replayed challenge, foreign origin, counter going
 * backwards, another account's credential, no user verification, no site URL); login options that do not tell which
 * identifiers have passkeys. Second factors and e-mailed codes before a passkey: tests/api/credentials-owner.test.ts.
 */
import crypto from 'crypto';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { AUTH } from '../helpers/auth';
import { setupStrapi, type TestApp } from '../helpers/strapi';
import { softAuthenticator } from '../helpers/webauthn';

const SITE = 'https://shop.example.test';
const RP_ID = 'shop.example.test';
const CHALLENGE_UID = 'plugin::cms-plugin-bag.webauthn-challenge';

type Res = { status: number; body: any };
const expectError = (res: Res, status: number, message: string) => {
  expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message });
};

describe('passkeys', () => {
  let app: TestApp;

  const call = (method: 'get' | 'post' | 'put' | 'delete', path: string, jwt?: string, body?: object) => {
    const req = app.request()[method](`${AUTH}${path}`);
    if (jwt) req.set('Authorization', `Bearer ${jwt}`);
    return body === undefined ? req : req.send(body);
  };

  /** A user with one registered passkey. */
  const withPasskey = async (name = 'Laptop') => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const authenticator = softAuthenticator({ rpId: RP_ID, origin: SITE });
    const options = (await call('post', '/passkeys/register/options', jwt, { password: user.password }).expect(200)).body;
    const registered = (await call('post', '/passkeys/register/verify', jwt, { response: authenticator.register(options), name }).expect(200)).body;
    return { user, jwt, authenticator, registered };
  };
  const loginOptions = async (identifier?: string) =>
    (await call('post', '/passkeys/login/options', undefined, identifier === undefined ? {} : { identifier }).expect(200)).body;

  beforeAll(async () => {
    app = await setupStrapi({ config: { rateLimit: { enabled: false }, site: { url: SITE, title: 'Shop' } } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('register options follow the WebAuthn JSON shape, with the account and its passkeys', async () => {
    const { user, jwt, authenticator } = await withPasskey();
    const options = (await call('post', '/passkeys/register/options', jwt, { password: user.password }).expect(200)).body;
    expect(options.rp).toEqual({ id: RP_ID, name: 'Shop' });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options.pubKeyCredParams.map((param: { alg: number }) => param.alg)).toEqual([-7, -257]);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'preferred', userVerification: 'required' });
    expect(options.excludeCredentials.map((cred: { id: string }) => cred.id)).toEqual([authenticator.id]);
    expect(options.user).toEqual(expect.objectContaining({ id: expect.any(String), name: expect.any(String), displayName: expect.any(String) }));
    expect(options.attestation).toBe('none');
  });

  it('registers, lists and removes; another account cannot remove it', async () => {
    const { user, jwt, registered } = await withPasskey('Phone');
    expect(Object.keys(registered).sort()).toEqual(['createdAt', 'id', 'name']);
    expect(registered.name).toBe('Phone');
    const list = (await call('get', '/passkeys', jwt).expect(200)).body;
    expect(list).toEqual({ data: [{ id: registered.id, name: 'Phone', createdAt: registered.createdAt, lastUsedAt: null }] });
    expect((await call('get', '/mfa', jwt).expect(200)).body.passkeys).toEqual(list.data);

    const other = await createUser(app.strapi);
    expectError(await call('delete', `/passkeys/${registered.id}`, jwtFor(app.strapi, other)), 404, 'Passkey not found');
    expectError(await call('delete', '/passkeys/unknown', jwt), 404, 'Passkey not found');
    expect((await call('delete', `/passkeys/${registered.id}`, jwt).expect(200)).body).toEqual({ message: 'Passkey removed' });
    expect((await call('get', '/passkeys', jwt).expect(200)).body).toEqual({ data: [] });
    expect(user.id).toBeGreaterThan(0);
  });

  it('renames one of its own passkeys (docs/accounts.md#passkeys); another account gets a 404, a blank name a 400', async () => {
    const { jwt, registered } = await withPasskey('Phone');
    const other = jwtFor(app.strapi, await createUser(app.strapi));
    expectError(await call('put', `/passkeys/${registered.id}`, other, { name: 'Mine now' }), 404, 'Passkey not found');
    expectError(await call('put', '/passkeys/unknown', jwt, { name: 'Work laptop' }), 404, 'Passkey not found');
    expect((await call('put', `/passkeys/${registered.id}`, jwt, { name: '   ' })).status).toBe(400);
    expect((await call('put', `/passkeys/${registered.id}`, jwt, { name: 'x'.repeat(101) })).status).toBe(400);
    const renamed = (await call('put', `/passkeys/${registered.id}`, jwt, { name: '  Work laptop ' }).expect(200)).body;
    expect(renamed).toEqual({ id: registered.id, name: 'Work laptop', createdAt: registered.createdAt, lastUsedAt: null });
    expect((await call('get', '/passkeys', jwt).expect(200)).body.data.map((p: { name: string }) => p.name)).toEqual(['Work laptop']);
    expect((await call('put', `/passkeys/${registered.id}`, undefined, { name: 'x' })).status).toBe(401);
  });

  it('needs a Bearer token for register, list and remove', async () => {
    expect((await call('post', '/passkeys/register/options')).status).toBe(401);
    expect((await call('post', '/passkeys/register/verify', undefined, {})).status).toBe(401);
    expect((await call('get', '/passkeys')).status).toBe(401);
    expect((await call('delete', '/passkeys/x')).status).toBe(401);
  });

  it('refuses a replayed registration, a foreign origin and a challenge of another account', async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const authenticator = softAuthenticator({ rpId: RP_ID, origin: SITE });
    const owner = { password: user.password };
    const foreign = (await call('post', '/passkeys/register/options', jwt, owner).expect(200)).body;
    expectError(
      await call('post', '/passkeys/register/verify', jwt, { response: authenticator.register(foreign, { origin: 'https://evil.example' }) }),
      400,
      'Passkey verification failed',
    );
    const options = (await call('post', '/passkeys/register/options', jwt, owner).expect(200)).body;
    const response = authenticator.register(options);
    const other = await createUser(app.strapi);
    expectError(await call('post', '/passkeys/register/verify', jwtFor(app.strapi, other), { response }), 400, 'Passkey verification failed');
    const again = (await call('post', '/passkeys/register/options', jwt, owner).expect(200)).body;
    const good = authenticator.register(again);
    await call('post', '/passkeys/register/verify', jwt, { response: good }).expect(200);
    expectError(await call('post', '/passkeys/register/verify', jwt, { response: good }), 400, 'Passkey verification failed');
  });

  it('signs in with an identifier (allowCredentials) and without one (discoverable), both factors at once', async () => {
    const { user, authenticator } = await withPasskey();
    const named = await loginOptions(user.email);
    expect(Object.keys(named).sort()).toEqual(['key', 'options']);
    expect(named.options.allowCredentials.map((cred: { id: string }) => cred.id)).toEqual([authenticator.id]);
    expect(named.options.rpId).toBe(RP_ID);
    const res = await call('post', '/passkeys/login/verify', undefined, { key: named.key, response: authenticator.authenticate(named.options) }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    expect(res.body.user).toMatchObject({ id: user.id });
    await call('get', '/me', res.body.jwt).expect(200);

    const anonymous = await loginOptions();
    expect(anonymous.options.allowCredentials ?? []).toEqual([]);
    await call('post', '/passkeys/login/verify', undefined, { key: anonymous.key, response: authenticator.authenticate(anonymous.options) }).expect(200);
    const unknown = await loginOptions('nobody@example.com');
    expect(Object.keys(unknown).sort()).toEqual(['key', 'options']);
    // Made-up credentials, not an empty list: the answer does not tell which identifiers have passkeys (§20).
    expect(unknown.options.allowCredentials).toHaveLength(1);
    expect((await call('get', '/passkeys', jwtFor(app.strapi, user)).expect(200)).body.data[0].lastUsedAt).toEqual(expect.any(String));
  });

  it('refuses a replayed challenge, a foreign origin, a counter going backwards and an unknown credential', async () => {
    const { authenticator } = await withPasskey();
    const first = await loginOptions();
    const response = authenticator.authenticate(first.options);
    await call('post', '/passkeys/login/verify', undefined, { key: first.key, response }).expect(200);
    expectError(await call('post', '/passkeys/login/verify', undefined, { key: first.key, response }), 400, 'Passkey verification failed');

    const foreign = await loginOptions();
    expectError(
      await call('post', '/passkeys/login/verify', undefined, { key: foreign.key, response: authenticator.authenticate(foreign.options, { origin: 'https://evil.example' }) }),
      400,
      'Passkey verification failed',
    );

    const backwards = await loginOptions();
    expectError(
      await call('post', '/passkeys/login/verify', undefined, { key: backwards.key, response: authenticator.authenticate(backwards.options, { counter: 1 }) }),
      400,
      'Passkey verification failed',
    );

    const stranger = softAuthenticator({ rpId: RP_ID, origin: SITE });
    const unknown = await loginOptions();
    expectError(
      await call('post', '/passkeys/login/verify', undefined, { key: unknown.key, response: stranger.authenticate(unknown.options) }),
      400,
      'Passkey verification failed',
    );
  });

  it("refuses another account's credential for options naming an account, and bad bodies with a 400", async () => {
    const a = await withPasskey();
    const b = await withPasskey();
    const options = await loginOptions(a.user.email);
    expectError(
      await call('post', '/passkeys/login/verify', undefined, { key: options.key, response: b.authenticator.authenticate(options.options) }),
      400,
      'Passkey verification failed',
    );
    expectError(await call('post', '/passkeys/login/verify', undefined, { key: 'x' }), 400, 'response must be a PublicKeyCredential in its JSON form');
    expectError(await call('post', '/passkeys/login/verify', undefined, { key: 'x', response: 'y' }), 400, 'response must be a PublicKeyCredential in its JSON form');
  });

  it('adds a passkey only after the password: a jwt alone, no password or a wrong one get no options (§20)', async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const bare = await call('post', '/passkeys/register/options', jwt);
    expect(bare.status).toBe(400);
    expect(bare.body.error.name).toBe('ValidationError');
    expect(bare.body.error.details.errors[0].path).toEqual(['password']);
    expect((await call('post', '/passkeys/register/options', jwt, {})).body.error.details.errors[0].path).toEqual(['password']);
    expectError(await call('post', '/passkeys/register/options', jwt, { password: 'wrong-pass' }), 400, 'Invalid password');
    expectError(await call('post', '/passkeys/register/options', jwt, { code: '123456' }), 400, 'Invalid or expired captcha code');
    expect(await app.strapi.db.query(CHALLENGE_UID).count({ where: { userId: user.id } })).toBe(0);
  });

  it('refuses a challenge issued without re-authentication (an older register row) and one issued to another account', async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const authenticator = softAuthenticator({ rpId: RP_ID, origin: SITE });
    // What options issued on the jwt alone stored: the row's purpose says no owner proved anything.
    const challenge = crypto.randomBytes(32).toString('base64url');
    const lookup = `register:${crypto.createHash('sha256').update(challenge).digest('hex')}`;
    await app.strapi.db.query(CHALLENGE_UID).create({ data: { lookup, purpose: 'register', challenge, userId: user.id, expiresAt: Date.now() + 60_000 } });
    expectError(await call('post', '/passkeys/register/verify', jwt, { response: authenticator.register({ challenge }) }), 400, 'Passkey verification failed');

    const owner = await createUser(app.strapi);
    const options = (await call('post', '/passkeys/register/options', jwtFor(app.strapi, owner), { password: owner.password }).expect(200)).body;
    expectError(await call('post', '/passkeys/register/verify', jwt, { response: authenticator.register(options) }), 400, 'Passkey verification failed');
    expect((await call('get', '/passkeys', jwt).expect(200)).body.data).toEqual([]);
  });

  it('is both factors only with user verification: UV=0 is refused at login and at registration', async () => {
    const { user, jwt, authenticator } = await withPasskey();
    const named = await loginOptions(user.email);
    const presenceOnly = authenticator.authenticate(named.options, { userVerified: false });
    expectError(await call('post', '/passkeys/login/verify', undefined, { key: named.key, response: presenceOnly }), 400, 'Passkey verification failed');
    expect(named.options.userVerification).toBe('required');
    const anonymous = await loginOptions();
    expectError(
      await call('post', '/passkeys/login/verify', undefined, { key: anonymous.key, response: authenticator.authenticate(anonymous.options, { userVerified: false }) }),
      400,
      'Passkey verification failed',
    );
    const again = await loginOptions(user.email);
    await call('post', '/passkeys/login/verify', undefined, { key: again.key, response: authenticator.authenticate(again.options) }).expect(200);

    const options = (await call('post', '/passkeys/register/options', jwt, { password: user.password }).expect(200)).body;
    const second = softAuthenticator({ rpId: RP_ID, origin: SITE });
    expectError(
      await call('post', '/passkeys/register/verify', jwt, { response: second.register(options, { userVerified: false }) }),
      400,
      'Passkey verification failed',
    );
  });

  it('answers login options for identifiers without passkeys with made-up credentials, stable and shaped as real ones', async () => {
    const { user, authenticator } = await withPasskey();
    const real = (await loginOptions(user.email)).options.allowCredentials;
    expect(real).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['hybrid', 'internal'] }]);

    const without = await createUser(app.strapi);
    const nobody = `nobody-${Date.now()}@example.com`;
    for (const identifier of [without.email, without.username, nobody]) {
      const first = (await loginOptions(identifier)).options;
      const second = (await loginOptions(identifier)).options;
      expect(first.allowCredentials).toEqual(second.allowCredentials);
      expect(first.challenge).not.toBe(second.challenge);
      expect(first.allowCredentials).toHaveLength(real.length);
      const [decoy] = first.allowCredentials;
      expect(Object.keys(decoy).sort()).toEqual(Object.keys(real[0]).sort());
      expect(decoy.id).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decoy.id).toHaveLength(real[0].id.length);
      expect(decoy.transports).toEqual(real[0].transports);
      expect(Object.keys(first).sort()).toEqual(Object.keys((await loginOptions(user.email)).options).sort());
    }
    // Per identifier (in any case), and never stored.
    const upper = (await loginOptions(nobody.toUpperCase())).options.allowCredentials;
    expect(upper).toEqual((await loginOptions(nobody)).options.allowCredentials);
    expect((await loginOptions(`other-${nobody}`)).options.allowCredentials).not.toEqual(upper);
    expect(await app.strapi.db.query('plugin::cms-plugin-bag.passkey').count({ where: { credentialId: upper[0].id } })).toBe(0);

    // A passkey of one's own does not tell an unknown identifier from an account without passkeys either.
    for (const identifier of [without.email, nobody]) {
      const options = await loginOptions(identifier);
      expectError(
        await call('post', '/passkeys/login/verify', undefined, { key: options.key, response: authenticator.authenticate(options.options) }),
        400,
        'Passkey verification failed',
      );
    }
  });

  it('a deleted account takes its passkeys with it', async () => {
    const { user } = await withPasskey();
    await app.strapi.db.query('plugin::users-permissions.user').delete({ where: { id: user.id } });
    expect(await app.strapi.db.connection('bag_passkeys').where('user_id', user.id).first()).toBeUndefined();
  });
});

describe('passkeys without a site URL', () => {
  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await setupStrapi({ env: { SITE_URL: '' }, config: { rateLimit: { enabled: false } } });
    user = await createUser(app.strapi);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('answers 503 Site URL is not configured for options and verify; listing still works', async () => {
    const jwt = jwtFor(app.strapi, user);
    for (const path of ['/passkeys/register/options', '/passkeys/login/options']) {
      const res = await app.request().post(`${AUTH}${path}`).set('Authorization', `Bearer ${jwt}`).send({});
      expectError(res, 503, 'Site URL is not configured');
    }
    await app.request().get(`${AUTH}/passkeys`).set('Authorization', `Bearer ${jwt}`).expect(200, { data: [] });
  });
});

describe('relying party, issuer and the second-factor switch from the configuration', () => {
  let app: TestApp;
  const ORIGIN = 'https://app.example.test';
  beforeAll(async () => {
    app = await setupStrapi({
      env: { SITE_URL: '' },
      config: {
        rateLimit: { enabled: false },
        account: { mfa: { issuer: 'My Shop' }, passkeys: { rpId: 'example.test', origins: [ORIGIN] } },
      },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });
  const post = (path: string, jwt: string, body: object = {}) => app.request().post(`${AUTH}${path}`).set('Authorization', `Bearer ${jwt}`).send(body);

  it('takes rpId and origins from account.passkeys without a site URL, and the issuer from account.mfa.issuer', async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    const options = (await post('/passkeys/register/options', jwt, { password: user.password }).expect(200)).body;
    expect(options.rp.id).toBe('example.test');
    const authenticator = softAuthenticator({ rpId: 'example.test', origin: ORIGIN });
    await post('/passkeys/register/verify', jwt, { response: authenticator.register(options) }).expect(200);
    const setup = (await post('/mfa/totp/setup', jwt, { password: user.password }).expect(200)).body;
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\/My%20Shop:.*&issuer=My%20Shop&/);
  });

  it('refuses new enrolments while account.mfa.enabled is off (403)', async () => {
    const user = await createUser(app.strapi);
    const jwt = jwtFor(app.strapi, user);
    await app.strapi.plugin('cms-plugin-bag').service('settings').update({ account: { mfa: { enabled: false } } });
    try {
      for (const path of ['/mfa/totp/setup', '/passkeys/register/options']) {
        expectError(await post(path, jwt, { password: user.password }), 403, 'Two-factor authentication is disabled');
      }
    } finally {
      await app.strapi.plugin('cms-plugin-bag').service('settings').update({ account: { mfa: { enabled: true } } });
    }
    await post('/passkeys/register/options', jwt, { password: user.password }).expect(200);
  });
});
