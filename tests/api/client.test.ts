/** `cms-plugin-bag/client` in Node 20 (global fetch, WebCrypto) against the real playground over HTTP. */
import http from 'http';
import type { AddressInfo } from 'net';
import { TOTP } from 'otpauth';
import { CmsBagError, createClient, isMfaChallenge, memoryStorage, solvePow, toQueryString, type LoginResult } from 'cms-plugin-bag/client';
import { powBits, setSettings, solvePowNonce } from '../helpers/auth';
import { createDocument, createUser, jwtFor, setPermission, type TestUser } from '../helpers/fixtures';
import { addLocales, EXTRA_LOCALES } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

/** The tokens of a login that must not have asked for a second factor. */
const signedIn = (result: LoginResult) => {
  if (isMfaChallenge(result)) throw new Error('the login asked for a second factor');
  return result;
};

describe('typed client', () => {
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    // More logins than the default per-IP login limit come from this one test client.
    app = await setupStrapi({
      config: { login: { captcha: { enabled: false } }, captcha: { pow: { difficulty: 10 } }, rateLimit: { login: { interval: '1m', max: 50 } } },
    });
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
    const auth = signedIn(await client.login({ identifier: user.email, password: user.password }));
    expect(auth.user.username).toBe(user.username);
    expect(await client.storage.get('jwt')).toBe(auth.jwt);
    expect(await client.storage.get('refreshToken')).toBe(auth.refreshToken);
    expect((await client.me()).email).toBe(user.email);
  });

  it('enrols TOTP, then logs in through the challenge with finishLogin; recovery codes and disable', async () => {
    const owner = await createUser(app.strapi);
    const { client } = recordingClient();
    await client.storage.set('jwt', jwtFor(app.strapi, owner));
    expect(await client.mfa.status()).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [] });
    const setup = await client.mfa.setup({ password: owner.password, encrypt: true });
    expect(setup.qrSvg).toMatch(/^<svg/);
    const code = (offset = 0) =>
      new TOTP({ secret: setup.secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset });
    const { recoveryCodes } = await client.mfa.enable(code());
    expect(recoveryCodes).toHaveLength(10);

    const other = recordingClient().client;
    const challenge = await other.login({ identifier: owner.email, password: owner.password });
    expect(isMfaChallenge(challenge)).toBe(true);
    expect(await other.isLoggedIn()).toBe(false);
    if (!isMfaChallenge(challenge)) return;
    await expect(other.finishLogin(challenge.mfaToken, 'zzzzz-zzzzz')).rejects.toMatchObject({ status: 400, message: 'Invalid two-factor code' });
    const auth = await other.finishLogin(challenge.mfaToken, recoveryCodes[0]);
    expect(await other.storage.get('jwt')).toBe(auth.jwt);
    expect((await other.me()).email).toBe(owner.email);

    const renewed = await other.mfa.recoveryCodes(recoveryCodes[1]);
    expect(renewed.recoveryCodes).toHaveLength(10);
    expect(await other.mfa.status()).toEqual({ totp: true, recoveryCodesLeft: 10, passkeys: [] });
    await other.mfa.disable({ password: owner.password, mfaCode: renewed.recoveryCodes[0] });
    expect(await client.mfa.status()).toEqual({ totp: false, recoveryCodesLeft: 0, passkeys: [] });
  });

  it('logs in with an encrypted password', async () => {
    const { client, calls } = recordingClient();
    const auth = signedIn(await client.login({ identifier: user.username, password: user.password, encrypt: true }));
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
        const auth = signedIn(await client.login({ identifier: user.email, password: user.password, ...(await client.powCaptcha()) }));
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

  describe('locales', () => {
    /** One article, page and menu with an `en` and a `fr` version, and an approved comment on the article. */
    let article: { documentId: string };
    let commentId: string;

    beforeAll(async () => {
      await addLocales(app.strapi, EXTRA_LOCALES.slice(0, 1));
      const documents = (uid: string) => app.strapi.documents(`${PLUGIN}.${uid}` as never);
      article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Client hello', slug: 'client-hello' });
      await documents('article').update({ documentId: article.documentId, locale: 'fr', data: { title: 'Client bonjour', slug: 'client-bonjour' } as never });
      await documents('article').publish({ documentId: article.documentId, locale: 'fr' });
      const page = await createDocument(app.strapi, `${PLUGIN}.page`, { title: 'Client about', slug: 'client-about' });
      await documents('page').update({ documentId: page.documentId, locale: 'fr', data: { title: 'Client à propos', slug: 'client-a-propos' } as never });
      await documents('page').publish({ documentId: page.documentId, locale: 'fr' });
      const menu = await createDocument(app.strapi, `${PLUGIN}.menu`, { title: 'Client menu', slug: 'client-menu' });
      await documents('menu').update({ documentId: menu.documentId, locale: 'fr', data: { title: 'Menu du client', slug: 'client-menu' } as never });
      await documents('menu-item').create({ data: { title: 'Home', url: '/', menu: menu.documentId } as never });
      await documents('menu-item').create({ locale: 'fr', data: { title: 'Accueil', url: '/fr', menu: menu.documentId } as never });
      const comment = await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'Read in any locale', status: 'approved', article: article.documentId });
      commentId = comment.documentId;
    });

    /** A client whose requests are recorded as path and query string. */
    const urlRecordingClient = (options: { locale?: string } = {}) => {
      const urls: string[] = [];
      const client = createClient({
        baseUrl: app.url,
        storage: memoryStorage(),
        ...options,
        fetch: (input, init) => {
          const url = new URL(String(input));
          urls.push(`${url.pathname}${url.search}`);
          return fetch(input, init);
        },
      });
      return { client, urls };
    };

    /** Every read under `/api/bag` that takes `locale`, content and comments, called with the given options. */
    const everyRead = (client: ReturnType<typeof createClient>, options: { locale?: string | null } = {}) => [
      () => client.articles.list({ pagination: { pageSize: 5 }, ...options }),
      () => client.articles.get('client-hello', options),
      () => client.pages.list(options),
      () => client.pages.get('client-about', options),
      () => client.banners.list(undefined, options),
      () => client.banners.list('home', options),
      () => client.categories.list(options),
      () => client.tags.list(options),
      () => client.menus.get('client-menu', options),
      () => client.comments.list(article.documentId, options),
      () => client.comments.page(article.documentId, { pageSize: 5, ...options }),
      () => client.comments.replies(commentId, options),
      () => client.comments.counts([article.documentId], options),
    ];
    const localeOf = (url: string) => new URLSearchParams(url.split('?')[1] ?? '').get('locale');

    it('sends the client-level locale on every content and comment read; a call overrides it, and null sends none', async () => {
      const { client, urls } = urlRecordingClient({ locale: 'en' });
      for (const read of everyRead(client)) await read();
      expect(urls).toHaveLength(13);
      expect(urls.map(localeOf)).toEqual(urls.map(() => 'en'));
      // The other query parameters are kept beside it.
      expect(urls[0]).toBe('/api/bag/articles?pagination%5BpageSize%5D=5&locale=en');

      urls.length = 0;
      for (const read of everyRead(client, { locale: 'fr' })) await read().catch(() => undefined);
      expect(urls.map(localeOf)).toEqual(urls.map(() => 'fr'));

      urls.length = 0;
      for (const read of everyRead(client, { locale: null })) await read();
      expect(urls.map(localeOf)).toEqual(urls.map(() => null));
      expect(urls[2]).toBe('/api/bag/pages');
    });

    it('sends no locale when neither the client nor the call gives one', async () => {
      const { client, urls } = urlRecordingClient();
      for (const read of everyRead(client)) await read();
      expect(urls.map(localeOf)).toEqual(urls.map(() => null));
    });

    it('turns a locale the host does not have into a CmsBagError 400 "Unknown locale supplied" on every content read', async () => {
      const { client } = urlRecordingClient({ locale: 'xx' });
      for (const read of everyRead(client).slice(0, 9)) {
        const error = await read().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(CmsBagError);
        expect(error).toMatchObject({ status: 400, message: 'Unknown locale supplied' });
      }
    });

    it('reads the fr versions of an article, a page and a menu, with their locale and other locales', async () => {
      const { client } = urlRecordingClient({ locale: 'fr' });
      const { data: detail } = await client.articles.get('client-bonjour');
      expect(detail).toMatchObject({ documentId: article.documentId, title: 'Client bonjour', locale: 'fr' });
      expect(detail.localizations).toEqual([{ locale: 'en', slug: 'client-hello' }]);

      const titles = (await client.articles.list({ pagination: { pageSize: 100 } })).data.map((entry) => entry.title);
      expect(titles).toContain('Client bonjour');
      expect(titles).not.toContain('Client hello');
      const english = (await client.articles.list({ locale: 'en', pagination: { pageSize: 100 } })).data.map((entry) => entry.title);
      expect(english).toContain('Client hello');
      expect(english).not.toContain('Client bonjour');

      const { data: page } = await client.pages.get('client-a-propos');
      expect(page).toMatchObject({ title: 'Client à propos', locale: 'fr', localizations: [{ locale: 'en', slug: 'client-about' }] });

      const { data: menu } = await client.menus.get('client-menu');
      expect(menu).toMatchObject({ title: 'Menu du client', locale: 'fr' });
      expect(menu.items.map((item) => item.title)).toEqual(['Accueil']);
    });

    it('reads the same comment thread whatever locale it is asked in', async () => {
      const { client } = urlRecordingClient();
      const plain = await client.comments.list(article.documentId);
      expect(plain.data.map((node) => node.content)).toEqual(['Read in any locale']);
      expect(await client.comments.list(article.documentId, { locale: 'fr' })).toEqual(plain);
      expect(await client.comments.counts([article.documentId], { locale: 'fr' })).toEqual(await client.comments.counts([article.documentId]));
    });
  });

  it("follows and leaves an article's thread, and builds the comment feed URL", async () => {
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Followed thread', slug: `followed-${Date.now()}` });
    const { client, calls } = recordingClient();
    await expect(client.comments.subscription(article.documentId)).rejects.toMatchObject({ status: 401 });
    await client.login({ identifier: user.email, password: user.password });
    expect(await client.comments.subscription(article.documentId)).toEqual({ subscribed: false });
    expect(await client.comments.subscribe(article.documentId)).toEqual({ subscribed: true });
    expect(await client.comments.subscription(article.documentId)).toEqual({ subscribed: true });
    expect(await client.comments.unsubscribe(article.documentId)).toEqual({ subscribed: false });
    expect(calls.filter((call) => call.endsWith('/subscription'))).toEqual([
      `GET /api/bag/articles/${article.documentId}/subscription`,
      `GET /api/bag/articles/${article.documentId}/subscription`,
      `POST /api/bag/articles/${article.documentId}/subscription`,
      `GET /api/bag/articles/${article.documentId}/subscription`,
      `DELETE /api/bag/articles/${article.documentId}/subscription`,
    ]);
    const feedUrl = client.comments.commentFeedUrl(article.documentId);
    expect(feedUrl).toBe(`${app.url}/api/bag/articles/${article.documentId}/comments.rss`);
    const feed = await fetch(feedUrl);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(client.comments.commentFeedUrl('a b', { locale: 'fr' })).toBe(`${app.url}/api/bag/articles/a%20b/comments.rss?locale=fr`);
  });

  it("edits and takes back one's own comment, and lists one's comments with their status", async () => {
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Own comments', slug: `own-comments-${Date.now()}` });
    const { client, calls } = recordingClient();
    await client.login({ identifier: user.email, password: user.password });
    const { data: posted } = await client.comments.create({ content: 'First words', article: article.documentId });

    const { data: edited } = await client.comments.update(posted.documentId, 'Better words');
    expect(edited).toMatchObject({ documentId: posted.documentId, content: 'Better words', status: 'pending' });
    expect(edited.editedAt).toEqual(expect.any(String));

    const mine = await client.comments.mine({ pageSize: 5 });
    expect(mine.data[0]).toMatchObject({
      documentId: posted.documentId,
      content: 'Better words',
      status: 'pending',
      article: { documentId: article.documentId, slug: article.slug, title: 'Own comments' },
    });
    expect(mine.meta.pagination).toMatchObject({ page: 1, pageSize: 5 });

    expect(await client.comments.remove(posted.documentId)).toEqual({ message: expect.any(String) });
    expect((await client.comments.mine()).data.map((comment) => comment.documentId)).not.toContain(posted.documentId);
    expect(calls.filter((call) => call.includes('/api/bag/comments/'))).toEqual([
      `PUT /api/bag/comments/${posted.documentId}`,
      'GET /api/bag/comments/mine',
      `DELETE /api/bag/comments/${posted.documentId}`,
      'GET /api/bag/comments/mine',
    ]);
    await expect(client.comments.update(posted.documentId, 'Gone')).rejects.toMatchObject({ status: 404, message: 'Comment not found' });
  });

  it('logs out: the refresh token is revoked on the server and the storage is cleared', async () => {
    const { client } = recordingClient();
    const { refreshToken } = signedIn(await client.login({ identifier: user.email, password: user.password }));
    await client.logout();
    expect(await client.storage.get('jwt')).toBeNull();
    expect(await client.storage.get('refreshToken')).toBeNull();
    const res = await app.request().post('/api/cms-plugin-bag/auth/refresh-token').send({ refreshToken }).expect(400);
    expect(res.body.error.message).toBe('Invalid refresh token');
  });
});

describe('typed client: search, feed and sitemap URLs', () => {
  const SITE = 'https://www.example.com';
  let app: TestApp;
  let tech: { documentId: string };

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE } } });
    await addLocales(app.strapi, EXTRA_LOCALES.slice(0, 1));
    const documents = (uid: string) => app.strapi.documents(`${PLUGIN}.${uid}` as never);
    tech = await documents('category').create({ data: { title: 'Tech', slug: 'tech' } as never });
    await createDocument(app.strapi, `${PLUGIN}.article`, {
      title: 'Quokka <b>habits</b>',
      slug: 'quokka-habits',
      summary: 'An animal small and happy.',
      category: tech.documentId,
    });
    await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Island diary', slug: 'island-diary', summary: 'A day out.', content: 'We met a quokka on the way.' });
    const both = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Wombat notes', slug: 'wombat-notes', summary: 'Burrows.' });
    await documents('article').update({ documentId: both.documentId, locale: EXTRA_LOCALES[0].code, data: { title: 'Notes sur le wombat', slug: 'notes-wombat' } as never });
    await documents('article').publish({ documentId: both.documentId, locale: EXTRA_LOCALES[0].code });
  });
  afterAll(async () => {
    await app.stop();
  });

  /** A client on the app whose requests are recorded as path and query string. */
  const urlRecordingClient = (options: { locale?: string } = {}) => {
    const urls: string[] = [];
    const client = createClient({
      baseUrl: app.url,
      ...options,
      fetch: (input, init) => {
        const url = new URL(String(input));
        urls.push(`${url.pathname}${url.search}`);
        return fetch(input, init);
      },
    });
    return { client, urls };
  };

  it('searches: title matches rank first, highlights escape the text and mark the matches', async () => {
    const { client, urls } = urlRecordingClient();
    const result = await client.search('quokka');
    expect(urls).toEqual(['/api/bag/search?q=quokka']);
    expect(result.data.map((hit) => hit.slug)).toEqual(['quokka-habits', 'island-diary']);
    expect(result.meta.pagination).toMatchObject({ page: 1, total: 2 });
    expect(result.data[0].title).toBe('Quokka <b>habits</b>');
    expect(result.data[0].highlight.title).toBe('<mark>Quokka</mark> &lt;b&gt;habits&lt;/b&gt;');
    expect(result.data[1].highlight.excerpt).toContain('<mark>quokka</mark>');
  });

  it('sends filters and pagination, and the client-level locale unless the call gives its own', async () => {
    const { client, urls } = urlRecordingClient({ locale: EXTRA_LOCALES[0].code });
    const french = await client.search('wombat');
    expect(french.data.map((hit) => hit.title)).toEqual(['Notes sur le wombat']);
    const english = await client.search('wombat', { locale: 'en' });
    expect(english.data.map((hit) => hit.title)).toEqual(['Wombat notes']);
    const filtered = await client.search('quokka', { locale: null, category: 'tech', page: 1, pageSize: 1 });
    expect(filtered.data.map((hit) => hit.slug)).toEqual(['quokka-habits']);
    expect(filtered.meta.pagination).toMatchObject({ page: 1, pageSize: 1, total: 1 });
    expect(urls).toEqual([
      `/api/bag/search?q=wombat&locale=${EXTRA_LOCALES[0].code}`,
      '/api/bag/search?q=wombat&locale=en',
      '/api/bag/search?q=quokka&category=tech&pagination%5Bpage%5D=1&pagination%5BpageSize%5D=1',
    ]);
  });

  it('throws a CmsBagError 400 naming q for an empty or too long query, and 404 for an unknown category', async () => {
    const { client } = urlRecordingClient();
    for (const q of ['', '   ', 'x'.repeat(201)]) {
      const error = await client.search(q).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CmsBagError);
      expect(error).toMatchObject({ status: 400, errorName: 'ValidationError' });
      expect((error as CmsBagError).details).toMatchObject({ errors: [{ path: ['q'] }] });
    }
    const missing = await client.search('quokka', { category: 'no-such-category' }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, message: 'Category not found' });
  });

  it('builds absolute feed and sitemap URLs from baseUrl, with the locale, category and tag', () => {
    const client = createClient({ baseUrl: 'https://cms.example.com/' });
    expect(client.feedUrl('rss')).toBe('https://cms.example.com/api/bag/feeds/articles.rss');
    expect(client.feedUrl('atom', { category: 'tech', tag: 'a b' })).toBe('https://cms.example.com/api/bag/feeds/articles.atom?category=tech&tag=a%20b');
    expect(client.sitemapUrl()).toBe('https://cms.example.com/api/bag/sitemap.xml');
    expect(client.sitemapUrl(2)).toBe('https://cms.example.com/api/bag/sitemaps/2.xml');
    expect(() => client.sitemapUrl(0)).toThrow(RangeError);
    expect(() => client.feedUrl('xml' as never)).toThrow(TypeError);

    const french = createClient({ baseUrl: 'https://cms.example.com/sub', locale: 'fr' });
    expect(french.feedUrl('json', { tag: 'js' })).toBe('https://cms.example.com/sub/api/bag/feeds/articles.json?locale=fr&tag=js');
    expect(french.feedUrl('json', { locale: null })).toBe('https://cms.example.com/sub/api/bag/feeds/articles.json');
    expect(french.feedUrl('rss', { locale: 'en' })).toBe('https://cms.example.com/sub/api/bag/feeds/articles.rss?locale=en');
  });

  it('gives feed and sitemap URLs that the server answers', async () => {
    const client = createClient({ baseUrl: app.url, locale: EXTRA_LOCALES[0].code });
    const expected = [
      [client.feedUrl('rss'), 'application/rss+xml', 'Notes sur le wombat'],
      [client.feedUrl('atom', { locale: 'en', category: 'tech' }), 'application/atom+xml', 'Quokka'],
      [client.feedUrl('json', { locale: 'en' }), 'application/feed+json', 'Island diary'],
      [client.sitemapUrl(), 'application/xml', `${SITE}/`],
      [client.sitemapUrl(1), 'application/xml', `${SITE}/`],
    ];
    for (const [url, type, text] of expected) {
      expect(url.startsWith(`${app.url}/api/bag/`)).toBe(true);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      expect(await res.text()).toContain(text);
    }
    const techFeed = await (await fetch(client.feedUrl('atom', { locale: 'en', category: 'tech' }))).text();
    expect(techFeed).not.toContain('Island diary');
  });
});
