/** Settings → CMS Bag over HTTP: read, partial update, validation, permissions, and no key material in answers. */
import crypto from 'crypto';
import { adminToken } from '../helpers/fixtures';
import { adminLogin, createAdminWithRole, createRoleWith } from '../helpers/admin';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const RSA_KEY = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const AES_SECRET = 'admin-settings-test-aes-secret';

describe('admin settings API', () => {
  let app: TestApp;
  let token: string;
  let editorToken: string;

  beforeAll(async () => {
    app = await setupStrapi({ config: { comments: { autoApprove: false } }, env: { RSA_PRIVATE_KEY: RSA_KEY, AES_SECRET } });
    token = await adminToken(app);
    editorToken = await adminLogin(app, await createAdminWithRole(app, 'strapi-editor', 'editor-settings@example.com'));
  });
  afterAll(async () => {
    await app.stop();
  });

  const get = (bearer = token) => app.request().get('/cms-plugin-bag/settings').set('Authorization', `Bearer ${bearer}`);
  const put = (body: unknown, bearer = token) =>
    app.request().put('/cms-plugin-bag/settings').set('Authorization', `Bearer ${bearer}`).send(body as object);

  it('reads the admin keys of the effective configuration with the file defaults', async () => {
    const res = await get().expect(200);
    expect(res.body.data.settings).toEqual({
      login: { captcha: { enabled: false, type: 'image' } },
      register: { captcha: { enabled: true, type: 'email' } },
      auth: { refreshToken: { expiresIn: 30 * 86400 }, requireEncryptedPassword: false },
      comments: { autoApprove: false, moderation: { blockedWords: [], holdWords: [], maxLinks: 2, trustApproved: false } },
      account: { passwordless: { enabled: false }, deletion: { enabled: true }, signInAlerts: true, mfa: { enabled: true } },
      newsletters: { enabled: true, doubleOptIn: true },
    });
    expect(res.body.data.defaults).toEqual(res.body.data.settings);
    expect(res.body.data.overrides).toEqual({});
  });

  it('describes the key material without sending it', async () => {
    const res = await get().expect(200);
    const expectedFingerprint = crypto
      .createHash('sha256')
      .update(crypto.createPublicKey(RSA_KEY).export({ type: 'spki', format: 'der' }))
      .digest('hex')
      .match(/.{2}/g)!
      .join(':');
    expect(res.body.data.crypto).toEqual({
      rsaPrivateKeyConfigured: true,
      aesSecretConfigured: true,
      publicKeyFingerprint: expectedFingerprint,
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain(RSA_KEY.split('\n')[1]);
    expect(text).not.toContain(AES_SECRET);
  });

  it('updates only the given keys, applies them at once and keeps the rest', async () => {
    const res = await put({ login: { captcha: { enabled: true } }, auth: { refreshToken: { expiresIn: '7d' } } }).expect(200);
    expect(res.body.data.settings.login.captcha).toEqual({ enabled: true, type: 'image' });
    expect(res.body.data.settings.auth.refreshToken.expiresIn).toBe(7 * 86400);
    expect(res.body.data.settings.register.captcha).toEqual({ enabled: true, type: 'email' });
    expect(res.body.data.overrides).toEqual({ login: { captcha: { enabled: true } }, auth: { refreshToken: { expiresIn: 7 * 86400 } } });
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');

    const effective = await app.strapi.plugin('cms-plugin-bag').service('settings').get();
    expect(effective.login.captcha.enabled).toBe(true);
    expect((await get().expect(200)).body.data.settings.login.captcha.enabled).toBe(true);

    await put({ login: { captcha: { enabled: false } } }).expect(200);
    expect((await get().expect(200)).body.data.settings.login.captcha.enabled).toBe(false);
  });

  it.each([
    [{ login: { captcha: { type: 'sms' } } }, ['login', 'captcha', 'type']],
    [{ auth: { refreshToken: { expiresIn: 'forever' } } }, ['auth', 'refreshToken', 'expiresIn']],
    [{ comments: { autoApprove: 'yes' } }, ['comments', 'autoApprove']],
    [{ crypto: { aes: { secret: 'x' } } }, []],
    [{ auth: { accessToken: { expiresIn: '1h' } } }, ['auth']],
  ])('refuses %j with a 400 naming the key and stores nothing', async (body, path) => {
    const before = (await get().expect(200)).body.data;
    const res = await put(body).expect(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.details.errors[0].path).toEqual(path);
    expect((await get().expect(200)).body.data).toEqual(before);
  });

  it('answers 403 to an admin role without the plugin permissions, and 401 without a token', async () => {
    await get(editorToken).expect(403);
    await put({ comments: { autoApprove: true } }, editorToken).expect(403);
    await app.request().get('/cms-plugin-bag/settings').expect(401);
    expect((await get().expect(200)).body.data.settings.comments.autoApprove).toBe(false);
  });

  it('lets a role with settings.read read but not update', async () => {
    const roleId = await createRoleWith(app, 'Settings reader', ['plugin::cms-plugin-bag.settings.read']);
    const readerToken = await adminLogin(app, await createAdminWithRole(app, roleId, 'reader-settings@example.com'));
    await get(readerToken).expect(200);
    await put({ comments: { autoApprove: true } }, readerToken).expect(403);
  });
});
