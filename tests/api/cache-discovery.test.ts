/**
 * Feeds, the sitemap and search under the response cache (docs/caching.md, docs/discovery.md): each answers with an ETag and its own
 * content type, a matching If-None-Match gets 304, a feed is served from the cache and follows a publish at once, and
 * the streamed sitemap (not kept in memory) gets an ETag that changes with any write.
 */
import { adminToken, createDocument } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;

interface Stats {
  bytes: number;
  entries: number;
  types: { type: string; hits: number; misses: number }[];
}

describe('response cache: feeds, sitemap and search', () => {
  let app: TestApp;

  const get = (path: string, etag?: string) => {
    const req = app.request().get(`/api/bag${path}`);
    return etag ? req.set('If-None-Match', etag) : req;
  };
  const publish = (title: string, slug: string) => createDocument(app.strapi, ARTICLE, { title, slug, summary: `${title} summary` });

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: 'https://www.example.com' } } });
    await publish('Cached feed one', 'cached-feed-one');
  });
  afterAll(async () => {
    await app.stop();
  });

  it.each([
    ['/feeds/articles.rss', /^application\/rss\+xml; charset=utf-8$/],
    ['/feeds/articles.atom', /^application\/atom\+xml; charset=utf-8$/],
    ['/feeds/articles.json', /^application\/feed\+json; charset=utf-8$/],
  ])('%s: ETag, its content type from the cache too, 304 on If-None-Match, and the next publish shows at once', async (path, type) => {
    const first = await get(path).expect(200);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers['content-type']).toMatch(type);
    const hit = await get(path).expect(200);
    expect(hit.headers['content-type']).toMatch(type);
    expect(hit.text).toBe(first.text);
    const revalidated = await get(path, first.headers.etag).expect(304);
    expect(revalidated.text ?? '').toBe('');

    const slug = `fresh-${path.split('.').pop()}`;
    await publish(`Fresh ${slug}`, slug);
    const after = await get(path, first.headers.etag).expect(200);
    expect(after.text).toContain(slug);
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  const cacheStats = async () => {
    const admin = await adminToken(app);
    const res = await app.request().get('/cms-plugin-bag/cache').set('Authorization', `Bearer ${admin}`).expect(200);
    return res.body.data as Stats;
  };

  it('serves a feed from the cache (a hit in the stats of its type)', async () => {
    const feedHits = async () => (await cacheStats()).types.find((entry) => entry.type === 'feed')?.hits ?? 0;
    await get('/feeds/articles.rss').expect(200);
    const before = await feedHits();
    await get('/feeds/articles.rss').expect(200);
    expect(await feedHits()).toBe(before + 1);
  });

  it('the streamed sitemap: an ETag, 304 on If-None-Match with no body, a new ETag and the new URL after a publish', async () => {
    const first = await get('/sitemap.xml').expect(200);
    expect(first.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(first.headers.etag).toMatch(/^W\/"[^"]+"$/);
    const revalidated = await get('/sitemap.xml', first.headers.etag).expect(304);
    expect(revalidated.text ?? '').toBe('');

    await publish('Sitemap newcomer', 'sitemap-newcomer');
    const after = await get('/sitemap.xml', first.headers.etag).expect(200);
    expect(after.text).toContain('/articles/sitemap-newcomer');
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it("the sitemap's ETag stays when only a session ends (the sessions scope versions no answer)", async () => {
    const first = await get('/sitemap.xml').expect(200);
    await app.strapi.plugin('cms-plugin-bag').service('access-tokens').revoked();
    await get('/sitemap.xml', first.headers.etag).expect(304);
  });

  it('an unchanged sitemap is read from the database once, then served from its kept copy; a publish shows at once', async () => {
    const table = app.strapi.db.metadata.get(ARTICLE).tableName;
    const statements: string[] = [];
    const listener = (query: { sql: string }) => statements.push(query.sql);
    const knex = app.strapi.db.connection;
    const articleReads = () => statements.filter((sql) => sql.includes(table)).length;
    await publish('Kept sitemap', 'kept-sitemap');
    knex.on('query', listener);
    try {
      const first = await get('/sitemap.xml').expect(200);
      expect(first.text).toContain('/articles/kept-sitemap');
      expect(articleReads()).toBeGreaterThan(0);
      statements.length = 0;
      const again = await get('/sitemap.xml').expect(200);
      const gzipOnly = await cacheStats();
      const plain = await get('/sitemap.xml').set('Accept-Encoding', 'identity').expect(200);
      expect(articleReads()).toBe(0);
      expect(again.text).toBe(first.text);
      expect(plain.text).toBe(first.text);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(again.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(again.headers.etag).toBe(first.headers.etag);
      await get('/sitemap.xml', first.headers.etag).expect(304);
      expect(articleReads()).toBe(0);
      // The text the first client without gzip had decompressed is kept beside the copy, once, for the next one.
      const kept = await cacheStats();
      expect(kept.entries).toBe(gzipOnly.entries + 1);
      expect(kept.bytes - gzipOnly.bytes).toBeGreaterThanOrEqual(Buffer.byteLength(first.text));
      const plainAgain = await get('/sitemap.xml').set('Accept-Encoding', 'identity').expect(200);
      expect(plainAgain.text).toBe(first.text);
      expect(plainAgain.headers['content-encoding']).toBeUndefined();
      expect(plainAgain.headers.vary).toMatch(/Accept-Encoding/);
      expect(plainAgain.headers.etag).toBe(first.headers.etag);
      expect(await cacheStats()).toMatchObject({ bytes: kept.bytes, entries: kept.entries });

      await publish('Sitemap after kept', 'sitemap-after-kept');
      const after = await get('/sitemap.xml', first.headers.etag).expect(200);
      expect(after.text).toContain('/articles/sitemap-after-kept');
      expect(after.headers.etag).not.toBe(first.headers.etag);
      // Neither is the kept text served once the copy it came from is out of date.
      const plainAfter = await get('/sitemap.xml').set('Accept-Encoding', 'identity').expect(200);
      expect(plainAfter.text).toBe(after.text);
    } finally {
      knex.removeListener('query', listener);
    }
  });

  it('search: ETag and 304, and a publish shows in the next search at once', async () => {
    const first = await get('/search?q=zebra').expect(200);
    expect(first.body.data).toEqual([]);
    await get('/search?q=zebra', first.headers.etag).expect(304);
    await publish('Zebra crossing', 'zebra-crossing');
    const after = await get('/search?q=zebra', first.headers.etag).expect(200);
    expect(after.body.data.map((hit: { slug: string }) => hit.slug)).toEqual(['zebra-crossing']);
  });
});
