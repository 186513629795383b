/**
 * The response cache of anonymous GETs under /api/bag (docs/caching.md): ETag and 304, Cache-Control,
 * hits, invalidation by every kind of write, permissions first, tokens never served from or into the cache, views
 * exact, the byte bound, and the admin stats and clear routes.
 */
import http from 'http';
import { COMMENT, adminTokenWithRole, createArticle, seedComments } from '../helpers/comments';
import { adminToken, createDocument, createUser, jwtFor, setPermission } from '../helpers/fixtures';
import { EXTRA_LOCALES, addLocales } from '../helpers/locales';
import { forRequests } from '../helpers/statements';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const MAX_BYTES = 60_000;

interface Stats {
  bytes: number;
  entries: number;
  maxBytes: number;
  types: { type: string; hits: number; misses: number; hitRatio: number }[];
}

describe('response cache (cache on, Cache-Control configured)', () => {
  let app: TestApp;
  let admin: string;

  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const stats = async (): Promise<Stats> => (await app.request().get('/cms-plugin-bag/cache').set('Authorization', `Bearer ${admin}`).expect(200)).body.data;
  const typeStats = async (type: string) => (await stats()).types.find((entry) => entry.type === type) ?? { hits: 0, misses: 0 };
  const clear = () => app.request().post('/cms-plugin-bag/cache/clear').set('Authorization', `Bearer ${admin}`).send({}).expect(200);
  const titles = (body: { data: { title: string }[] }) => body.data.map((article) => article.title);
  const viewsInDb = async (uid: string, documentId: string) => {
    const rows = await app.strapi.db.query(uid as never).findMany({ where: { documentId }, select: ['views'] });
    return Math.max(...rows.map((row: { views: number }) => Number(row.views)));
  };
  const article = (title: string, slug: string, data: Record<string, unknown> = {}) =>
    createDocument(app.strapi, ARTICLE, { title, slug, ...data }) as Promise<{ id: number; documentId: string }>;

  beforeAll(async () => {
    app = await setupStrapi({
      env: { PROXY_TRUST: 'true' },
      config: {
        cache: { maxBytes: MAX_BYTES, http: { maxAge: 60, sMaxAge: '2m', staleWhileRevalidate: 30 } },
        rateLimit: { comment: { interval: '1h', max: 1000 } },
      },
    });
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  it('a list: ETag and the configured Cache-Control; If-None-Match → 304 without a body; the second read is a hit', async () => {
    await article('Etag one', 'etag-one');
    await clear();
    const first = await get('/articles').expect(200);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60, s-maxage=120, stale-while-revalidate=30');
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers.vary).toMatch(/\bAuthorization\b/);
    const second = await get('/articles').expect(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(await typeStats('article')).toMatchObject({ hits: 1, misses: 1 });

    const revalidated = await get('/articles').set('If-None-Match', first.headers.etag).expect(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.headers.etag).toBe(first.headers.etag);
    expect(revalidated.headers['cache-control']).toBe('public, max-age=60, s-maxage=120, stale-while-revalidate=30');
    await get('/articles').set('If-None-Match', '"something else"').expect(200);
  });

  it("a list's ETag follows the view counts it shows: a read elsewhere changes it, the old one no longer gives 304", async () => {
    await article('Etag counted', 'etag-counted');
    await clear();
    const first = await get('/articles').expect(200);
    const hit = await get('/articles').expect(200);
    expect(hit.headers.etag).toBe(first.headers.etag);
    const viewsOf = (body: { data: { slug: string; views: number }[] }) => body.data.find((a) => a.slug === 'etag-counted')?.views;

    await get('/articles/etag-counted').expect(200);
    const after = await get('/articles').expect(200);
    expect(viewsOf(after.body)).toBe(viewsOf(first.body)! + 1);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    await get('/articles').set('If-None-Match', first.headers.etag).expect(200);
    await get('/articles').set('If-None-Match', after.headers.etag).expect(304);
    // The list stayed cached throughout (the detail was the other miss): only its counts were read again.
    expect(await typeStats('article')).toMatchObject({ hits: 4, misses: 2 });
  });

  it('query parameters in another order are the same entry; another locale is another entry', async () => {
    await clear();
    await get('/articles?pagination[pageSize]=5&sort=title:asc').expect(200);
    await get('/articles?sort=title:asc&pagination[pageSize]=5').expect(200);
    expect(await typeStats('article')).toMatchObject({ hits: 1, misses: 1 });
    await get('/articles?sort=title:asc&pagination[pageSize]=5&locale=en').expect(200);
    expect(await typeStats('article')).toMatchObject({ hits: 1, misses: 2 });
  });

  it('a detail: weak ETag that ignores views, each read counted and shown (hits and 304s too)', async () => {
    const doc = await article('Detail', 'detail-views');
    await clear();
    const before = await viewsInDb(ARTICLE, doc.documentId);
    const first = await get('/articles/detail-views').expect(200);
    expect(first.headers.etag).toMatch(/^W\/"[^"]+"$/);
    expect(first.body.data.views).toBe(before + 1);
    const second = await get('/articles/detail-views').expect(200);
    expect(second.body.data.views).toBe(before + 2);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(await typeStats('article')).toMatchObject({ hits: 1, misses: 1 });
    await get('/articles/detail-views').set('If-None-Match', first.headers.etag).expect(304);
    expect(await viewsInDb(ARTICLE, doc.documentId)).toBe(before + 3);

    await Promise.all(Array.from({ length: 20 }, () => get('/articles/detail-views').expect(200)));
    expect(await viewsInDb(ARTICLE, doc.documentId)).toBe(before + 23);
    const after = await get('/articles/detail-views').expect(200);
    expect(after.body.data.views).toBe(before + 24);

    // A list from the cache shows the rows' current counts.
    const list = await get('/articles?filters[slug][$eq]=detail-views').expect(200);
    await get('/articles/detail-views').expect(200);
    const listAgain = await get('/articles?filters[slug][$eq]=detail-views').expect(200);
    expect(listAgain.body.data[0].views).toBe(list.body.data[0].views + 1);
  });

  it("a list hit whose counts grew a digit is the same bytes and ETag as the list computed anew; unmoved counts, the same answer", async () => {
    const one = await article('Digits one', 'digits-one');
    const two = await article('Digits two', 'digits-two');
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: one.documentId }, data: { views: 9 } });
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: two.documentId }, data: { views: 99 } });
    const path = '/articles?filters[slug][$startsWith]=digits-&sort=slug:asc';
    await clear();
    const first = await get(path).expect(200);
    expect(first.body.data.map((a: { views: number }) => a.views)).toEqual([9, 99]);
    const again = await get(path).expect(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(first.headers.etag);

    await get('/articles/digits-one').expect(200);
    await get('/articles/digits-two').expect(200);
    const hit = await get(path).expect(200);
    expect(hit.body.data.map((a: { views: number }) => a.views)).toEqual([10, 100]);
    expect(await typeStats('article')).toMatchObject({ hits: 2 });
    await clear();
    const computed = await get(path).expect(200);
    expect(hit.text).toBe(computed.text);
    expect(hit.headers.etag).toBe(computed.headers.etag);
  });

  it('a hit and a 304 run their statements past knex (prepared once), and still count every read', async () => {
    const doc = await article('Prepared', 'prepared-views');
    await clear();
    await get('/articles?filters[slug][$eq]=prepared-views').expect(200);
    const detail = await get('/articles/prepared-views').expect(200);
    // The first hit after a clear reads the Public role's actions (a Query Engine call, once per permissions version).
    const list = await get('/articles?filters[slug][$eq]=prepared-views').expect(200);
    const built: string[] = [];
    const listener = forRequests((query: { sql: string }) => built.push(query.sql));
    app.strapi.db.connection.on('query', listener);
    try {
      await get('/articles?filters[slug][$eq]=prepared-views').expect(200);
      await get('/articles?filters[slug][$eq]=prepared-views').set('If-None-Match', list.headers.etag).expect(304);
      const hit = await get('/articles/prepared-views').expect(200);
      expect(hit.body.data.views).toBe(detail.body.data.views + 1);
      await get('/articles/prepared-views').set('If-None-Match', detail.headers.etag).expect(304);
    } finally {
      app.strapi.db.connection.removeListener('query', listener);
    }
    expect(built).toEqual([]);
    expect(await typeStats('article')).toMatchObject({ hits: 5, misses: 2 });
    expect(await viewsInDb(ARTICLE, doc.documentId)).toBe(detail.body.data.views + 2);
  });

  it('concurrent hits of one list share the reads of the version stamps and of the view counts', async () => {
    await article('Shared one', 'shared-reads-one', { views: 4 });
    await article('Shared two', 'shared-reads-two', { views: 9 });
    const path = '/api/bag/articles?filters[slug][$startsWith]=shared-reads-&sort=slug';
    await clear();
    await app.request().get(path).expect(200);
    const list = await app.request().get(path).expect(200);
    // Requests on open keep-alive connections, sent at once: the server reads them in one or a few turns.
    const REQUESTS = 20;
    const agent = new http.Agent({ keepAlive: true, maxSockets: REQUESTS });
    const send = (headers: Record<string, string> = {}) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        http
          .get(`${app.url}${path}`, { agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          })
          .on('error', reject);
      });
    const revalidates = (i: number) => i % 2 === 1;
    const burst = () =>
      Promise.all(Array.from({ length: REQUESTS }, (_, i) => send(revalidates(i) ? { 'If-None-Match': list.headers.etag } : {})));
    const client = app.strapi.db.connection.client as { acquireConnection: () => Promise<unknown> };
    const acquire = client.acquireConnection;
    let acquired = 0;
    try {
      await burst(); // opens the connections
      client.acquireConnection = function counted(this: unknown) {
        acquired += 1;
        return acquire.call(this);
      };
      const answers = await burst();
      expect(answers.map((answer) => answer.status)).toEqual(answers.map((_, i) => (revalidates(i) ? 304 : 200)));
      for (const answer of answers.filter((a) => a.status === 200)) expect(answer.text).toBe(list.text);
    } finally {
      client.acquireConnection = acquire;
      agent.destroy();
    }
    // Each hit needs both: read one by one, that is two connections a request.
    expect(acquired).toBeLessThan(REQUESTS);
  });

  it('a page detail: weak ETag, a 304 counts the read', async () => {
    const page = (await createDocument(app.strapi, PAGE, { title: 'About', slug: 'cache-about' })) as { documentId: string };
    const first = await get('/pages/cache-about').expect(200);
    expect(first.headers.etag).toMatch(/^W\//);
    await get('/pages/cache-about').set('If-None-Match', first.headers.etag).expect(304);
    expect(await viewsInDb(PAGE, page.documentId)).toBe(first.body.data.views + 1);
  });

  it('a request with a token: ETag, private no-cache, never read from nor written into the cache', async () => {
    const user = await createUser(app.strapi);
    const auth = `Bearer ${jwtFor(app.strapi, user)}`;
    await clear();
    const res = await get('/categories').set('Authorization', auth).expect(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers.etag).toMatch(/^"/);
    await get('/categories').set('Authorization', auth).set('If-None-Match', res.headers.etag).expect(304);
    expect((await stats()).entries).toBe(0);
    await get('/categories').expect(200);
    await get('/categories').set('Authorization', auth).expect(200);
    expect(await typeStats('category')).toMatchObject({ hits: 0, misses: 1 });
    // A blocked user's token gets nothing, cached URL or not.
    const blocked = await createUser(app.strapi, { blocked: true });
    await get('/categories').set('Authorization', `Bearer ${jwtFor(app.strapi, blocked)}`).expect(401);
  });

  it('Document Service update + publish, unpublish and delete are seen by the next read', async () => {
    const doc = await article('DS before', 'ds-write');
    expect(titles((await get('/articles?filters[slug][$eq]=ds-write').expect(200)).body)).toEqual(['DS before']);
    const documents = app.strapi.documents(ARTICLE as never);
    await documents.update({ documentId: doc.documentId, data: { title: 'DS draft' } as never });
    expect(titles((await get('/articles?filters[slug][$eq]=ds-write').expect(200)).body)).toEqual(['DS before']);
    await documents.publish({ documentId: doc.documentId });
    expect(titles((await get('/articles?filters[slug][$eq]=ds-write').expect(200)).body)).toEqual(['DS draft']);
    expect((await get('/articles/ds-write').expect(200)).body.data.title).toBe('DS draft');
    await documents.unpublish({ documentId: doc.documentId });
    await get('/articles/ds-write').expect(404);
    expect(titles((await get('/articles?filters[slug][$eq]=ds-write').expect(200)).body)).toEqual([]);
    await documents.publish({ documentId: doc.documentId });
    expect((await get('/articles/ds-write').expect(200)).body.data.title).toBe('DS draft');
    await documents.delete({ documentId: doc.documentId });
    await get('/articles/ds-write').expect(404);
  });

  it('a Query Engine update and a Content Manager save and publish are seen by the next read', async () => {
    const doc = await article('QE before', 'qe-write');
    expect((await get('/articles/qe-write').expect(200)).body.data.title).toBe('QE before');
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: doc.documentId }, data: { title: 'QE after' } });
    expect((await get('/articles/qe-write').expect(200)).body.data.title).toBe('QE after');

    const cm = `/content-manager/collection-types/${ARTICLE}/${doc.documentId}`;
    await app.request().put(cm).set('Authorization', `Bearer ${admin}`).send({ title: 'CM after' }).expect(200);
    await app.request().post(`${cm}/actions/publish`).set('Authorization', `Bearer ${admin}`).send({}).expect(200);
    expect((await get('/articles/qe-write').expect(200)).body.data.title).toBe('CM after');
  });

  it('a write a Document Service call left running (a background job) is seen by the next read after it lands', async () => {
    const doc = await article('Job before', 'job-write');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let job: Promise<unknown> | undefined;
    // Innermost of the Document Service middlewares: the job starts inside the plugin's, and writes after it returned.
    // `use` returns the function that removes it again (its declared type is the Document Service's).
    const unregister = app.strapi.documents.use(async (context, next) => {
      const result = await next();
      if (context.action === 'update' && (context.params as { documentId?: string }).documentId === doc.documentId) {
        const where = { documentId: doc.documentId };
        job = gate.then(() => app.strapi.db.query(ARTICLE as never).updateMany({ where, data: { title: 'Job after' } }));
      }
      return result;
    }) as unknown as () => void;
    try {
      const documents = app.strapi.documents(ARTICLE as never);
      await documents.update({ documentId: doc.documentId, data: { summary: 'draft' } as never });
      // Cached under the versions the update raised, before the job writes.
      expect((await get('/articles/job-write').expect(200)).body.data.title).toBe('Job before');
      release();
      await job;
      expect((await get('/articles/job-write').expect(200)).body.data.title).toBe('Job after');
    } finally {
      unregister();
    }
  });

  it('media and author changes are seen by the next read', async () => {
    const user = await createUser(app.strapi);
    await article('With author', 'with-author', { author: user.documentId });
    const before = (await get('/articles/with-author').expect(200)).body.data.author;
    expect(before.username).toBe(user.username);
    await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: user.id }, data: { username: `${user.username}x` } });
    expect((await get('/articles/with-author').expect(200)).body.data.author.username).toBe(`${user.username}x`);
  });

  it('comments: a new comment approved by moderation, and a like, are seen by the next read', async () => {
    const art = await createArticle(app.strapi);
    const thread = `/articles/${art.documentId}/comments`;
    const counts = `/comments/counts?articles=${art.documentId}`;
    expect((await get(thread).expect(200)).body.data).toEqual([]);
    expect((await get(counts).expect(200)).body.data).toEqual({ [art.documentId]: 0 });

    const created = await app
      .request()
      .post('/api/bag/comments')
      .set('X-Forwarded-For', '198.51.100.7')
      .send({ content: 'Hello cache', article: art.documentId })
      .expect(201);
    expect((await get(thread).expect(200)).body.data).toEqual([]);
    const moderator = await adminTokenWithRole(app, 'strapi-super-admin');
    await app
      .request()
      .put('/cms-plugin-bag/comments/status')
      .set('Authorization', `Bearer ${moderator}`)
      .send({ documentIds: [created.body.data.documentId], status: 'approved' })
      .expect(200);
    const approved = (await get(thread).expect(200)).body.data;
    expect(approved.map((node: { content: string }) => node.content)).toEqual(['Hello cache']);
    expect((await get(counts).expect(200)).body.data).toEqual({ [art.documentId]: 1 });

    const page = `${thread}?pagination[pageSize]=10`;
    expect((await get(page).expect(200)).body.data[0].likes).toBe(0);
    const user = await createUser(app.strapi);
    await app
      .request()
      .post(`/api/bag/comments/${approved[0].id}/like`)
      .set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`)
      .set('X-Forwarded-For', '198.51.100.8')
      .expect(200);
    expect((await get(page).expect(200)).body.data[0].likes).toBe(1);
  });

  it('a seeded comment tree is cached and a Query Engine status change shows at once', async () => {
    const art = await createArticle(app.strapi);
    const [id] = await seedComments(app.strapi, art.documentId, [{ content: 'seeded', status: 'approved', parentIndex: null }]);
    const thread = `/articles/${art.documentId}/comments`;
    expect((await get(thread).expect(200)).body.data).toHaveLength(1);
    await app.strapi.db.query(COMMENT as never).update({ where: { id }, data: { status: 'rejected' } });
    expect((await get(thread).expect(200)).body.data).toHaveLength(0);
  });

  it('a revoked public action answers 403 for a cached URL, and a grant serves it again', async () => {
    await get('/tags').expect(200);
    await get('/tags').expect(200);
    await setPermission(app.strapi, 'public', `${PLUGIN}.tag.find`, false);
    try {
      await get('/tags').expect(403);
    } finally {
      await setPermission(app.strapi, 'public', `${PLUGIN}.tag.find`, true);
    }
    await get('/tags').expect(200);
  });

  it('stays within cache.maxBytes, least recently used out first', async () => {
    await clear();
    await get('/articles?pagination[pageSize]=1').expect(200);
    for (let size = 2; size <= 60; size += 1) {
      await get(`/articles?pagination[pageSize]=${size}`).expect(200);
      const now = await stats();
      expect(now.bytes).toBeLessThanOrEqual(MAX_BYTES);
    }
    const filled = await stats();
    expect(filled.entries).toBeLessThan(60);
    expect(filled.bytes).toBeGreaterThan(MAX_BYTES / 2);
    const { misses } = await typeStats('article');
    await get('/articles?pagination[pageSize]=1').expect(200);
    expect((await typeStats('article')).misses).toBe(misses + 1);
  });

  it('counts what a small entry really costs: its key, ETag and body, and its slot in the entries\' table', async () => {
    await clear();
    const n = 40;
    let keyAndBody = 0;
    for (let i = 0; i < n; i += 1) {
      const path = `/tags?x=${i}`;
      const res = await get(path).expect(200);
      keyAndBody += Buffer.byteLength(res.text) + Buffer.byteLength(`/api/bag${path}`);
    }
    const filled = await stats();
    expect(filled.entries).toBe(n);
    // Besides its key and body, a small entry costs its ETag (in the region with them) and its slot in the entries'
    // table, 128 bytes counted (scripts/cache-entry-cost.mjs measures both).
    expect(filled.bytes - keyAndBody).toBeGreaterThanOrEqual(n * (128 + '"'.length * 2 + 27));

    // Filling the bound with such entries keeps as many as their real cost allows, least recently used out first.
    const perEntry = filled.bytes / n;
    for (let i = n; i < 400; i += 1) await get(`/tags?x=${i}`).expect(200);
    const full = await stats();
    expect(full.bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(full.entries).toBeLessThanOrEqual(Math.ceil(MAX_BYTES / (perEntry - 16)));
    const { misses } = await typeStats('tag');
    await get('/tags?x=0').expect(200);
    expect((await typeStats('tag')).misses).toBe(misses + 1);
  });

  it('two URLs whose parsed queries differ are two entries, however their raw names sort', async () => {
    const low = await article('Order low', 'order-a-low');
    const high = await article('Order high', 'order-b-high');
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: high.documentId }, data: { views: 50 } });
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: low.documentId }, data: { views: 1 } });
    await clear();
    const filter = 'filters[slug][$startsWith]=order-';
    const slugs = (body: { data: { slug: string }[] }) => body.data.map((a) => a.slug);
    // The host decodes `sort%5B%5D` to `sort[]`: the first asks views first, the second slug first.
    const viewsFirst = await get(`/articles?sort%5B%5D=views:desc&sort[]=slug:asc&${filter}`).expect(200);
    const slugFirst = await get(`/articles?sort[]=slug:asc&sort%5B%5D=views:desc&${filter}`).expect(200);
    expect(slugs(viewsFirst.body)).toEqual(['order-b-high', 'order-a-low']);
    expect(slugs(slugFirst.body)).toEqual(['order-a-low', 'order-b-high']);
    // Twice each: served from the cache, each its own order.
    expect(slugs((await get(`/articles?sort%5B%5D=views:desc&sort[]=slug:asc&${filter}`).expect(200)).body)).toEqual(['order-b-high', 'order-a-low']);
    expect(slugs((await get(`/articles?${filter}&sort[]=slug:asc&sort%5B%5D=views:desc`).expect(200)).body)).toEqual(['order-a-low', 'order-b-high']);
    expect(await typeStats('article')).toMatchObject({ hits: 2, misses: 2 });
  });

  it('the admin routes are guarded: stats need settings.read, clearing settings.update', async () => {
    await app.request().get('/cms-plugin-bag/cache').expect(401);
    await app.request().post('/cms-plugin-bag/cache/clear').send({}).expect(401);
    const author = await adminTokenWithRole(app, 'strapi-author');
    await app.request().get('/cms-plugin-bag/cache').set('Authorization', `Bearer ${author}`).expect(403);
    await app.request().post('/cms-plugin-bag/cache/clear').set('Authorization', `Bearer ${author}`).send({}).expect(403);
    await get('/categories').expect(200);
    expect((await stats()).entries).toBeGreaterThan(0);
    const cleared = (await clear()).body.data;
    expect(cleared).toMatchObject({ entries: 0, bytes: 0, maxBytes: MAX_BYTES, enabled: true });
  });

  it('views: one counter per document across locales, a detail shows the highest row plus this read, hit or miss', async () => {
    await addLocales(app.strapi, [EXTRA_LOCALES[0]]);
    const doc = await article('Localized', 'localized-views');
    const documents = app.strapi.documents(ARTICLE as never);
    await documents.update({ documentId: doc.documentId, locale: 'fr', data: { title: 'Localisé', slug: 'localise-views' } as never } as never);
    await documents.publish({ documentId: doc.documentId, locale: 'fr' } as never);
    // The French rows counted more than the English ones (e.g. a locale that was there first).
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: doc.documentId, locale: 'fr' }, data: { views: 10 } });
    expect((await get('/articles/localized-views').expect(200)).body.data.views).toBe(11);
    expect((await get('/articles/localized-views').expect(200)).body.data.views).toBe(12);
    expect(await viewsInDb(ARTICLE, doc.documentId)).toBe(12);
  });
});

describe('response cache off, Cache-Control by default', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await setupStrapi({ config: { cache: { enabled: false } } });
    admin = await adminToken(app);
    await createDocument(app.strapi, ARTICLE, { title: 'Off', slug: 'cache-off' });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('ETag, 304 and `public, no-cache` without the server cache; nothing is stored', async () => {
    const first = await app.request().get('/api/bag/articles').expect(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    await app.request().get('/api/bag/articles').set('If-None-Match', first.headers.etag).expect(304);
    const detail = await app.request().get('/api/bag/articles/cache-off').expect(200);
    expect(detail.headers.etag).toMatch(/^W\//);
    const again = await app.request().get('/api/bag/articles/cache-off').set('If-None-Match', detail.headers.etag).expect(304);
    expect(again.headers.etag).toBe(detail.headers.etag);
    const stats = (await app.request().get('/cms-plugin-bag/cache').set('Authorization', `Bearer ${admin}`).expect(200)).body.data;
    expect(stats).toMatchObject({ enabled: false, entries: 0 });
  });
});
