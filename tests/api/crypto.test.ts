import crypto from 'crypto';
import { captureLogs } from '../helpers/auth';
import { createUser, jwtFor, setPermission } from '../helpers/fixtures';
import { rsaPrivateKeyPem } from '../helpers/rsa';
import { expectStartupFailure, setupStrapi, type TestApp } from '../helpers/strapi';

const BASE = '/api/cms-plugin-bag/utils';
const AES_SECRET = 'test-aes-secret-for-crypto-tests';
const RSA_PRIVATE_KEY = rsaPrivateKeyPem();

const subtle = globalThis.crypto.subtle;
const pemToDer = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
const webEncrypt = async (publicKeyPem: string, text: string) => {
  const key = await subtle.importKey('spki', pemToDer(publicKeyPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  return Buffer.from(await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(text))).toString('base64');
};
const aesKey = crypto.scryptSync(AES_SECRET, 'salt', 32);
const independentAesEncrypt = (text: string) => {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', aesKey, iv);
  const ciphertext = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([ciphertext, cipher.getAuthTag(), iv]).toString('base64');
};
const independentAesDecrypt = (b64: string) => {
  const raw = Buffer.from(b64, 'base64');
  const iv = raw.subarray(raw.length - 12);
  const tag = raw.subarray(raw.length - 28, raw.length - 12);
  const decipher = crypto.createDecipheriv('aes-256-gcm', aesKey, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(raw.subarray(0, raw.length - 28)), decipher.final()]).toString('utf8');
};

describe('crypto endpoints', () => {
  let app: TestApp;
  let jwt: string;
  const env = { AES_SECRET, RSA_PRIVATE_KEY };

  beforeAll(async () => {
    app = await setupStrapi({ env });
    for (const action of ['rsaDecrypt', 'aesEncrypt', 'aesDecrypt']) {
      await setPermission(app.strapi, 'authenticated', `plugin::cms-plugin-bag.crypto.${action}`);
    }
    jwt = jwtFor(app.strapi, await createUser(app.strapi));
  });
  afterAll(async () => {
    await app.stop();
  });

  const post = (path: string, body: unknown, auth = true) => {
    const req = app.request().post(`${BASE}${path}`);
    if (auth) req.set('Authorization', `Bearer ${jwt}`);
    return req.send(body as object);
  };

  describe('RSA-OAEP', () => {
    it('serves an SPKI PEM public key to anyone', async () => {
      const res = await app.request().get(`${BASE}/rsa/public-key`).expect(200);
      expect(res.body.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
      expect(res.body.publicKey).toBe(crypto.createPublicKey(RSA_PRIVATE_KEY).export({ type: 'spki', format: 'pem' }));
      expect(JSON.stringify(res.body)).not.toContain('PRIVATE');
    });

    it('decrypts what WebCrypto encrypted with the public key', async () => {
      const { body } = await app.request().get(`${BASE}/rsa/public-key`);
      const encrypted = await webEncrypt(body.publicKey, 'pässwörd 🔑');
      const res = await post('/rsa/decrypt', { data: encrypted }).expect(200);
      expect(res.body).toEqual({ decrypted: 'pässwörd 🔑' });
    });

    it('decrypts what it encrypted itself, and what it encrypts decrypts with the private key', async () => {
      const { body } = await post('/rsa/encrypt', { data: 'round trip' }, false).expect(200);
      const direct = crypto.privateDecrypt(
        { key: RSA_PRIVATE_KEY, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(body.encrypted, 'base64')
      );
      expect(direct.toString()).toBe('round trip');
      await post('/rsa/decrypt', { data: body.encrypted }).expect(200, { decrypted: 'round trip' });
    });

    it('accepts 190 bytes and refuses 191', async () => {
      await post('/rsa/encrypt', { data: 'é'.repeat(95) }, false).expect(200);
      const res = await post('/rsa/encrypt', { data: 'a'.repeat(191) }, false).expect(400);
      expect(res.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Data too long for RSA encryption' });
    });

    it.each([
      ['not base64', '%%%not-base64%%%'],
      ['random bytes', crypto.randomBytes(256).toString('base64')],
      ['truncated', 'AAAA'],
      ['empty', ''],
    ])('refuses %s with 400 Decryption failed', async (_, data) => {
      const res = await post('/rsa/decrypt', { data }).expect(400);
      expect(res.body).toMatchObject({ data: null, error: { status: 400, message: 'Decryption failed' } });
    });

    it.each([[{}], [{ data: 42 }], [{ data: null }]])('answers Missing data to %j', async (body) => {
      const res = await post('/rsa/encrypt', body, false).expect(400);
      expect(res.body.error.message).toBe('Missing data');
      expect((await post('/rsa/decrypt', body).expect(400)).body.error.message).toBe('Missing data');
    });
  });

  describe('AES-256-GCM', () => {
    it('decrypts ciphertext made independently from the documented layout', async () => {
      await post('/aes/decrypt', { data: independentAesEncrypt('hello 世界') }).expect(200, { decrypted: 'hello 世界' });
    });

    it('produces ciphertext that decrypts independently, with a fresh IV each call', async () => {
      const a = (await post('/aes/encrypt', { data: 'same' }).expect(200)).body.encrypted;
      const b = (await post('/aes/encrypt', { data: 'same' }).expect(200)).body.encrypted;
      expect(a).not.toBe(b);
      expect(Buffer.from(a, 'base64')).toHaveLength(4 + 16 + 12);
      expect(independentAesDecrypt(a)).toBe('same');
    });

    it('refuses any tampered byte, short input and malformed Base64 with 400', async () => {
      const good = Buffer.from(independentAesEncrypt('integrity'), 'base64');
      for (let i = 0; i < good.length; i += 1) {
        const bad = Buffer.from(good);
        bad[i] ^= 0x01;
        const res = await post('/aes/decrypt', { data: bad.toString('base64') });
        expect([res.status, res.body.error?.message]).toEqual([400, 'Decryption failed']);
      }
      for (const data of [crypto.randomBytes(27).toString('base64'), '!!!!', 'abc']) {
        const res = await post('/aes/decrypt', { data }).expect(400);
        expect(res.body.error.message).toBe('Decryption failed');
      }
    });
  });

  describe('permissions', () => {
    it.each(['/rsa/decrypt', '/aes/encrypt', '/aes/decrypt'])('refuses %s to anonymous callers with 403', async (path) => {
      const res = await post(path, { data: 'x' }, false).expect(403);
      expect(res.body.error.name).toBe('ForbiddenError');
    });

    it('refuses the authenticated role until an administrator grants the action', async () => {
      const action = 'plugin::cms-plugin-bag.crypto.aesEncrypt';
      await setPermission(app.strapi, 'authenticated', action, false);
      await post('/aes/encrypt', { data: 'x' }).expect(403);
      await setPermission(app.strapi, 'authenticated', action, true);
      await post('/aes/encrypt', { data: 'x' }).expect(200);
    });
  });

  describe('across a restart', () => {
    it('keeps the public key and AES key when they are configured', async () => {
      const publicKey = (await app.request().get(`${BASE}/rsa/public-key`)).body.publicKey;
      const rsa = (await post('/rsa/encrypt', { data: 'kept' }, false)).body.encrypted;
      const aes = (await post('/aes/encrypt', { data: 'kept' })).body.encrypted;
      await app.stop({ keepDatabase: true });
      app = await setupStrapi({ env, databaseFile: app.databaseFile });
      expect((await app.request().get(`${BASE}/rsa/public-key`)).body.publicKey).toBe(publicKey);
      await post('/rsa/decrypt', { data: rsa }).expect(200, { decrypted: 'kept' });
      await post('/aes/decrypt', { data: aes }).expect(200, { decrypted: 'kept' });
    });
  });
});

describe('crypto key configuration', () => {
  it('refuses a short or malformed configured key at start-up', async () => {
    const error = await expectStartupFailure({ env: { RSA_PRIVATE_KEY: rsaPrivateKeyPem(1024) } });
    expect(error.message).toContain('cms-plugin-bag: crypto.rsa.privateKey must be an RSA private key of at least 2048 bits');
    const garbage = await expectStartupFailure({ env: { RSA_PRIVATE_KEY: 'not a key' } });
    expect(garbage.message).toContain('cms-plugin-bag: crypto.rsa.privateKey is not a valid PEM private key');
  });

  it('warns when AES has no secret and uses a key of its own for the life of the process', async () => {
    const app = await setupStrapi({ env: { AES_SECRET: undefined } });
    try {
      const logs = captureLogs(app.strapi);
      app.strapi.plugin('cms-plugin-bag').service('crypto').init();
      expect(logs.join('\n')).toContain('using a temporary AES key');
      for (const action of ['aesEncrypt', 'aesDecrypt']) {
        await setPermission(app.strapi, 'public', `plugin::cms-plugin-bag.crypto.${action}`);
      }
      const { body } = await app.request().post(`${BASE}/aes/encrypt`).send({ data: 'ephemeral' }).expect(200);
      expect(() => independentAesDecrypt(body.encrypted)).toThrow();
      await app.request().post(`${BASE}/aes/decrypt`).send({ data: body.encrypted }).expect(200, { decrypted: 'ephemeral' });
    } finally {
      await app.stop();
    }
  });
});
