/** `cms-plugin-bag/client` in Node 20 (global fetch, WebCrypto) against the real playground over HTTP. */
import http from 'http';
import type { AddressInfo } from 'net';
import { CmsBagError, createClient, memoryStorage, solvePow, toQueryString } from 'cms-plugin-bag/client';
import { powBits, setSettings, solvePowNonce } from '../helpers/auth';
import { createUser, setPermission, type TestUser } from '../helpers/fixtures';
import { setupStrapi, type TestApp } from '../helpers/strapi';

describe('typed client', () => {
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await setupStrapi({ config: { login: { captcha: { enabled: false } }, captcha: { pow: { difficulty: 10 } } } });
    user = await createUser(app.strapi);
  });
  afterAll(async () => {
    await app.stop();
  });

  /** A client whose requests are recorded (method and path), so the tests can count refresh calls. */
  const recordingClient = () => {
    const calls: string[] = [];
    const client = createClient({
      baseUrl: app.url,
      storage: memoryStorage(),
      fetch: (input, init) => {
        calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    const refreshCalls = () => calls.filter((call) => call.endsWith('/auth/refresh-token')).length;
    return { client, calls, refreshCalls };
  };

  it('encrypts a password with WebCrypto so that the server decrypts it', async () => {
    await setPermission(app.strapi, 'public', 'plugin::cms-plugin-bag.crypto.rsaDecrypt');
    try {
      const { client } = recordingClient();
      const secret = 'pässwörd-🔑-' + 'x'.repeat(150);
      const encrypted = await client.encryptPassword(secret);
      expect(encrypted).toMatch(/^[A-Za-z0-9+/]+=*$/);
      const res = await app.request().post('/api/cms-plugin-bag/utils/rsa/decrypt').send({ data: encrypted }).expect(200);
      expect(res.body.decrypted).toBe(secret);
    } finally {
      await setPermission(app.strapi, 'public', 'plugin::cms-plugin-bag.crypto.rsaDecrypt', false);
    }
  });

  it('fetches the public key once for many encryptions', async () => {
    const { client, calls } = recordingClient();
    await Promise.all([client.encryptPassword('a'), client.encryptPassword('b')]);
    await client.encryptPassword('c');
    expect(calls.filter((call) => call.endsWith('/utils/rsa/public-key'))).toHaveLength(1);
  });

  it('serializes nested query parameters the way Strapi parses them', () => {
    expect(toQueryString({ pagination: { page: 2, pageSize: 5 }, filters: { title: { $contains: 'a b' } }, sort: ['isTop:desc', 'id'] })).toBe(
      'pagination%5Bpage%5D=2&pagination%5BpageSize%5D=5&filters%5Btitle%5D%5B%24contains%5D=a%20b&sort%5B0%5D=isTop%3Adesc&sort%5B1%5D=id'
    );
  });

  it('turns an error answer into a CmsBagError with the host status and message', async () => {
    const { client } = recordingClient();
    const error = await client.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CmsBagError);
    expect((error as CmsBagError).status).toBe(401);
  });

  it('logs in, stores both tokens and sends the jwt', async () => {
    const { client } = recordingClient();
    const auth = await client.login({ identifier: user.email, password: user.password });
    expect(auth.user.username).toBe(user.username);
    expect(await client.storage.get('jwt')).toBe(auth.jwt);
    expect(await client.storage.get('refreshToken')).toBe(auth.refreshToken);
    expect((await client.me()).email).toBe(user.email);
  });

  it('logs in with an encrypted password', async () => {
    const { client, calls } = recordingClient();
    const auth = await client.login({ identifier: user.username, password: user.password, encrypt: true });
    expect(auth.user.email).toBe(user.email);
    expect(calls).toContain('GET /api/cms-plugin-bag/utils/rsa/public-key');
  });

  it('on a 401 refreshes the jwt once and the retried call succeeds', async () => {
    const { client, refreshCalls, calls } = recordingClient();
    await client.login({ identifier: user.email, password: user.password });
    await client.storage.set('jwt', 'not-a-valid-jwt');

    const me = await client.me();
    expect(me.id).toBe(user.id);
    expect(refreshCalls()).toBe(1);
    expect(calls.filter((call) => call === 'GET /api/cms-plugin-bag/auth/me')).toHaveLength(2);
    const jwt = await client.storage.get('jwt');
    expect(jwt).not.toBe('not-a-valid-jwt');
    await app.request().get('/api/cms-plugin-bag/auth/me').set('Authorization', `Bearer ${jwt}`).expect(200);
  });

  it('shares one refresh between concurrent requests that get a 401', async () => {
    const { client, refreshCalls } = recordingClient();
    await client.login({ identifier: user.email, password: user.password });
    await client.storage.set('jwt', 'not-a-valid-jwt');
    const results = await Promise.all([client.me(), client.me(), client.me()]);
    expect(results.map((r) => r.id)).toEqual([user.id, user.id, user.id]);
    expect(refreshCalls()).toBe(1);
  });

  it('clears the stored tokens when the refresh fails, without retrying again', async () => {
    const { client, refreshCalls } = recordingClient();
    await client.login({ identifier: user.email, password: user.password });
    await client.storage.set('jwt', 'not-a-valid-jwt');
    await client.storage.set('refreshToken', 'revoked-or-unknown');

    const error = await client.me().catch((e: unknown) => e);
    expect((error as CmsBagError).status).toBe(401);
    expect(refreshCalls()).toBe(1);
    expect(await client.storage.get('jwt')).toBeNull();
    expect(await client.storage.get('refreshToken')).toBeNull();
    expect(await client.isLoggedIn()).toBe(false);
  });

  describe('sends the jwt to its own server only', () => {
    /** A second local server that records the Authorization header of each request; `/401` answers 401. */
    let recorder: http.Server;
    let recorderUrl: string;
    const seen: { path: string; authorization?: string }[] = [];
    const authorizationAt = (path: string) => seen.filter((request) => request.path === path).map((request) => request.authorization ?? null);

    beforeAll(async () => {
      recorder = http.createServer((req, res) => {
        seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
        res.writeHead(req.url === '/401' ? 401 : 200, { 'Content-Type': 'application/json' }).end('{}');
      });
      await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
      recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => recorder.close(resolve));
    });

    it('keeps the jwt from an absolute URL on another origin, and does not refresh on its 401', async () => {
      const { client, refreshCalls } = recordingClient();
      await client.login({ identifier: user.email, password: user.password });
      expect((await client.fetch(`${recorderUrl}/elsewhere`)).status).toBe(200);
      expect((await client.fetch(`${recorderUrl}/401`)).status).toBe(401);
      expect(authorizationAt('/elsewhere')).toEqual([null]);
      expect(authorizationAt('/401')).toEqual([null]);
      expect(refreshCalls()).toBe(0);
      expect((await client.fetch(`${app.url}/api/cms-plugin-bag/auth/me`)).status).toBe(200);
    });

    it('sends it under the path of baseUrl only, not elsewhere on the same origin', async () => {
      const client = createClient({ baseUrl: `${recorderUrl}/cms/`, storage: memoryStorage() });
      await client.storage.set('jwt', 'the-jwt');
      for (const target of ['/api/inside', `${recorderUrl}/cms/absolute`, `${recorderUrl}/cms`, `${recorderUrl}/cms-other`, `${recorderUrl}/outside`, `${recorderUrl}/cms/../outside-dots`]) {
        await client.fetch(target);
      }
      expect(authorizationAt('/cms/api/inside')).toEqual(['Bearer the-jwt']);
      expect(authorizationAt('/cms/absolute')).toEqual(['Bearer the-jwt']);
      expect(authorizationAt('/cms')).toEqual(['Bearer the-jwt']);
      expect(authorizationAt('/cms-other')).toEqual([null]);
      expect(authorizationAt('/outside')).toEqual([null]);
      expect(authorizationAt('/outside-dots')).toEqual([null]);
    });
  });

  describe('proof-of-work captcha', () => {
    it('solves a challenge with WebCrypto and logs in with the answer', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'pow' } } });
      try {
        const { client, calls } = recordingClient();
        const auth = await client.login({ identifier: user.email, password: user.password, ...(await client.powCaptcha()) });
        expect(auth.user.email).toBe(user.email);
        expect(calls).toEqual(['GET /api/cms-plugin-bag/auth/captcha-pow', 'POST /api/cms-plugin-bag/auth/login']);
      } finally {
        await setSettings(app.strapi, { login: { captcha: { enabled: false } } });
      }
    });

    it('finds the smallest nonce whose SHA-256 has the leading zero bits', async () => {
      const { client } = recordingClient();
      const challenge = await client.getPowChallenge();
      const answer = await solvePow(challenge);
      expect(answer).toEqual({ key: challenge.key, code: solvePowNonce(challenge) });
      expect(powBits(challenge.challenge, answer.code)).toBeGreaterThanOrEqual(challenge.difficulty);
    });

    it('refuses an unknown algorithm or difficulty, and stops when its signal aborts', async () => {
      const challenge = await recordingClient().client.getPowChallenge();
      await expect(solvePow({ ...challenge, algorithm: 'MD5' as 'SHA-256' })).rejects.toThrow('Unsupported proof-of-work algorithm: MD5');
      await expect(solvePow({ ...challenge, difficulty: 257 })).rejects.toThrow(RangeError);
      const controller = new AbortController();
      // 32 bits would take hours: the search is still running when the signal aborts.
      const solving = solvePow({ ...challenge, difficulty: 32 }, { signal: controller.signal });
      controller.abort(new Error('left the form'));
      await expect(solving).rejects.toThrow('left the form');
    });
  });

  it('logs out: the refresh token is revoked on the server and the storage is cleared', async () => {
    const { client } = recordingClient();
    const { refreshToken } = await client.login({ identifier: user.email, password: user.password });
    await client.logout();
    expect(await client.storage.get('jwt')).toBeNull();
    expect(await client.storage.get('refreshToken')).toBeNull();
    const res = await app.request().post('/api/cms-plugin-bag/auth/refresh-token').send({ refreshToken }).expect(400);
    expect(res.body.error.message).toBe('Invalid refresh token');
  });
});
