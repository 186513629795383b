/**
 * Two playground processes (A, B) on one PostgreSQL database, same secrets and RSA key, different ports, used
 * alternately: nothing the plugin does may depend on the memory of the process that answered before.
 * The test file's own in-process instance creates the schema first and does the setup through the host's services.
 */
import crypto from 'crypto';
import { createDocument, createUser, jwtFor, setPermission } from '../helpers/fixtures';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { rsaPrivateKeyPem } from '../helpers/rsa';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, type TestApp } from '../helpers/strapi';

const AUTH = '/api/cms-plugin-bag/auth';
const UTILS = '/api/cms-plugin-bag/utils';
const RSA_PRIVATE_KEY = rsaPrivateKeyPem();
const LOGIN_MAX = 6;
const CONFIG = {
  login: { captcha: { enabled: true, type: 'any' } },
  register: { captcha: { enabled: true, type: 'any' } },
  captcha: { email: { resendInterval: 1 } },
  rateLimit: { login: { interval: '1h', max: LOGIN_MAX }, register: { interval: '1h', max: 1000 } },
};

let ipCounter = 0;
/** A client address of its own per scenario (instances trust X-Forwarded-For), so per-IP counters do not mix. */
const nextIp = () => `198.51.100.${(ipCounter += 1)}`;
const rsaEncrypt = (publicKey: string, text: string) =>
  crypto
    .publicEncrypt({ key: publicKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text))
    .toString('base64');

describe('two instances on one PostgreSQL database', () => {
  let setup: TestApp;
  let smtp: TestSmtp;
  let a: Instance;
  let b: Instance;

  let instances: TwoInstances;

  beforeAll(async () => {
    smtp = await startSmtp();
    instances = await startTwoInstances({
      config: CONFIG,
      env: { RSA_PRIVATE_KEY, AES_SECRET: 'multi-instance-aes-secret', PROXY_TRUST: 'true', ...smtp.env },
      beforeInstances: (app) => setPermission(app.strapi, 'public', `${PLUGIN}.crypto.rsaDecrypt`),
    });
    ({ setup, a, b } = instances);
  }, 240_000);
  afterAll(async () => {
    await instances?.stop();
    await smtp?.stop();
  });

  const registerOn = async (instance: Instance, captchaFrom: Instance, ip = nextIp()) => {
    const captcha = await captchaFrom.request().get(`${AUTH}/captcha-image`).set('X-Forwarded-For', ip).expect(200);
    const code = await captchaFrom.nextCaptchaText();
    const id = crypto.randomBytes(4).toString('hex');
    const account = { username: `multi${id}`, email: `multi${id}@example.com`, password: `Pw-${id}-secret` };
    const res = await instance
      .request()
      .post(`${AUTH}/register`)
      .set('X-Forwarded-For', ip)
      .send({ ...account, key: captcha.body.key, code });
    return { res, account, captchaKey: captcha.body.key as string, code };
  };

  const loginWithEmailCode = async (sendOn: Instance, loginOn: Instance, account: { email: string; password: string }) => {
    const ip = nextIp();
    await sendOn.request().post(`${AUTH}/send-code`).set('X-Forwarded-For', ip).send({ identifier: account.email }).expect(200);
    const code = await smtp.nextCode(account.email);
    return loginOn
      .request()
      .post(`${AUTH}/login`)
      .set('X-Forwarded-For', ip)
      .send({ identifier: account.email, password: account.password, code });
  };

  it('serves the same RSA public key on both, and B decrypts what was encrypted with A’s key', async () => {
    const [keyA, keyB] = await Promise.all([a, b].map((i) => i.request().get(`${UTILS}/rsa/public-key`).expect(200)));
    expect(keyA.body.publicKey).toBe(keyB.body.publicKey);

    await b.request().post(`${UTILS}/rsa/decrypt`).send({ data: rsaEncrypt(keyA.body.publicKey, 'from A’s key') }).expect(200, { decrypted: 'from A’s key' });
    const { body } = await a.request().post(`${UTILS}/rsa/encrypt`).send({ data: 'encrypted on A' }).expect(200);
    await b.request().post(`${UTILS}/rsa/decrypt`).send({ data: body.encrypted }).expect(200, { decrypted: 'encrypted on A' });
  });

  it('accepts on B the image captcha drawn by A, once', async () => {
    const { res, account, captchaKey, code } = await registerOn(b, a);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: account.email });

    const again = await a
      .request()
      .post(`${AUTH}/register`)
      .set('X-Forwarded-For', nextIp())
      .send({ username: `${account.username}x`, email: `x${account.email}`, password: account.password, key: captchaKey, code });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('Invalid or expired captcha code');
  });

  it('logs in on B with the e-mail code sent by A; refreshes on B with A’s token; a logout on B stops A', async () => {
    const { res: registered, account } = await registerOn(a, b);
    expect(registered.status).toBe(200);

    const login = await loginWithEmailCode(a, b, account);
    expect(login.status).toBe(200);
    const { refreshToken } = login.body;
    expect(typeof refreshToken).toBe('string');

    const refreshed = await b.request().post(`${AUTH}/refresh-token`).send({ refreshToken }).expect(200);
    await a.request().get(`${AUTH}/me`).set('Authorization', `Bearer ${refreshed.body.jwt}`).expect(200);

    await b.request().post(`${AUTH}/logout`).send({ refreshToken }).expect(200);
    const refused = await a.request().post(`${AUTH}/refresh-token`).send({ refreshToken });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Invalid refresh token');
  });

  it('counts login attempts for one identifier on both instances together', async () => {
    const identifier = `nobody-${crypto.randomBytes(3).toString('hex')}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_MAX + 1; attempt += 1) {
      const instance = attempt % 2 === 0 ? a : b;
      const res = await instance
        .request()
        .post(`${AUTH}/login`)
        .set('X-Forwarded-For', nextIp())
        .send({ identifier, password: 'wrong-password' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LOGIN_MAX).every((status) => status === 400)).toBe(true);
    expect(statuses[LOGIN_MAX]).toBe(429);

    // And per client IP: one address spreading attempts over both instances and many identifiers.
    const ip = nextIp();
    const perIp: number[] = [];
    for (let attempt = 0; attempt < LOGIN_MAX + 1; attempt += 1) {
      const res = await (attempt % 2 === 0 ? b : a)
        .request()
        .post(`${AUTH}/login`)
        .set('X-Forwarded-For', ip)
        .send({ identifier: `someone${attempt}@example.com`, password: 'wrong-password' });
      perIp.push(res.status);
    }
    expect(perIp.slice(0, LOGIN_MAX).every((status) => status === 400)).toBe(true);
    expect(perIp[LOGIN_MAX]).toBe(429);
  });

  it('adds exactly 400 views for 400 detail requests split across both instances', async () => {
    const slug = `views-${crypto.randomBytes(3).toString('hex')}`;
    const article = await createDocument(setup.strapi, `${PLUGIN}.article`, { title: slug, slug });
    const REQUESTS = 400;
    const CONCURRENCY = 20;
    const statuses: number[] = [];
    for (let sent = 0; sent < REQUESTS; sent += CONCURRENCY) {
      const batch = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) => ((sent + i) % 2 === 0 ? a : b).request().get(`/api/bag/articles/${slug}`))
      );
      statuses.push(...batch.map((res) => res.status));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(REQUESTS);

    const rows = await setup.strapi.db.query(`${PLUGIN}.article`).findMany({ where: { documentId: article.documentId } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number(row.views)).toBe(REQUESTS);
  });

  it('shows on B a comment posted on A once it is approved', async () => {
    const slug = `commented-${crypto.randomBytes(3).toString('hex')}`;
    const article = await createDocument(setup.strapi, `${PLUGIN}.article`, { title: slug, slug });
    const user = await createUser(setup.strapi);
    const content = `posted on A ${crypto.randomBytes(3).toString('hex')}`;

    const posted = await a
      .request()
      .post('/api/bag/comments')
      .set('Authorization', `Bearer ${jwtFor(setup.strapi, user)}`)
      .set('X-Forwarded-For', nextIp())
      .send({ content, article: article.documentId })
      .expect(201);
    const listed = async () =>
      (await b.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200)).body.data.map(
        (node: { content: string }) => node.content
      );
    expect(await listed()).not.toContain(content);

    await setup.strapi.documents(`${PLUGIN}.comment` as never).update({
      documentId: posted.body.data.documentId,
      data: { status: 'approved' } as never,
    });
    expect(await listed()).toContain(content);
  });

  it('lets exactly one of two simultaneous uses of one captcha (on A and on B) succeed', async () => {
    const captcha = await a.request().get(`${AUTH}/captcha-image`).set('X-Forwarded-For', nextIp()).expect(200);
    const code = await a.nextCaptchaText();
    const attempt = (instance: Instance, n: number) => {
      const id = `${n}${crypto.randomBytes(4).toString('hex')}`;
      return instance
        .request()
        .post(`${AUTH}/register`)
        .set('X-Forwarded-For', nextIp())
        .send({ username: `race${id}`, email: `race${id}@example.com`, password: `Pw-${id}-secret`, key: captcha.body.key, code });
    };
    const results = await Promise.all([attempt(a, 1), attempt(b, 2)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(results.find((res) => res.status === 400)?.body.error.message).toBe('Invalid or expired captcha code');
  });

  it('lets exactly one of two simultaneous logins with one e-mail code (on A and on B) succeed', async () => {
    const { res: registered, account } = await registerOn(b, a);
    expect(registered.status).toBe(200);
    await b.request().post(`${AUTH}/send-code`).set('X-Forwarded-For', nextIp()).send({ identifier: account.email }).expect(200);
    const code = await smtp.nextCode(account.email);
    const login = (instance: Instance) =>
      instance
        .request()
        .post(`${AUTH}/login`)
        .set('X-Forwarded-For', nextIp())
        .send({ identifier: account.email, password: account.password, code });
    const results = await Promise.all([login(a), login(b)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(results.find((res) => res.status === 400)?.body.error.message).toBe('Invalid or expired captcha code');
  });
});
