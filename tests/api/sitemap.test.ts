/**
 * The sitemap (docs/discovery.md#sitemap): every published article, page, category and tag version in every locale, with absolute
 * `loc`, W3C `lastmod` (the published version's), article covers as `image:image`, hreflang alternates per published
 * locale (itself included; `x-default` on categories and tags); streamed; over `sitemap.pageSize` URLs a
 * `sitemapindex` of `/api/bag/sitemaps/{n}.xml` pages (absolute from the host's `server.url`), 404 beyond the last.
 */
import { localizedDocument, parseXml, text, type Doc } from '../helpers/discovery';
import { createDocument } from '../helpers/fixtures';
import { addLocales, EXTRA_LOCALES } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const CATEGORY = `${PLUGIN}.category`;
const TAG = `${PLUGIN}.tag`;

const SITE = 'https://www.example.com';
const HOST = 'https://cms.example.com';
const W3C = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

interface Url {
  loc: string;
  lastmod: string;
  images: string[];
  alternates: Record<string, string>;
}

const urlsOf = (xml: string): Url[] =>
  (parseXml(xml).urlset.url ?? []).map((url: any) => ({
    loc: text(url.loc),
    lastmod: text(url.lastmod),
    images: (url['image:image'] ?? []).map((image: any) => text(image['image:loc'])),
    alternates: Object.fromEntries((url['xhtml:link'] ?? []).map((link: any) => [link['@hreflang'], link['@href']])),
  }));

describe('sitemap', () => {
  let app: TestApp;
  const docs: Record<string, Doc> = {};
  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const sitemap = async (query = '') => {
    const res = await get(`/sitemap.xml${query}`);
    expect(res.status).toBe(200);
    return urlsOf(res.text);
  };
  const byLoc = (urls: Url[], loc: string) => urls.find((url) => url.loc === `${SITE}${loc}`);

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE } }, env: { PUBLIC_URL: HOST } });
    const { strapi } = app;
    await addLocales(strapi, EXTRA_LOCALES.filter((locale) => locale.code !== 'es'));
    const cover = await strapi.db.query('plugin::upload.file').create({
      data: { name: 'cover.png', hash: 'cover_hash', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/cover.png', provider: 'local' },
    });
    docs.article = await localizedDocument(
      strapi,
      ARTICLE,
      { en: { title: 'Hello', slug: 'hello', cover: cover.id }, fr: { title: 'Bonjour', slug: 'bonjour' }, de: { title: 'Hallo', slug: 'hallo' } },
      ['de']
    );
    docs.draft = (await createDocument(strapi, ARTICLE, { title: 'Draft', slug: 'draft-only' }, { publish: false })) as Doc;
    docs.gone = (await createDocument(strapi, ARTICLE, { title: 'Gone', slug: 'gone' })) as Doc;
    await strapi.documents(ARTICLE as never).unpublish({ documentId: docs.gone.documentId } as never);
    docs.page = (await createDocument(strapi, PAGE, { title: 'About', slug: 'about' })) as Doc;
    docs.category = await localizedDocument(strapi, CATEGORY, { en: { title: 'Tech', slug: 'tech' }, fr: { title: 'Technique', slug: 'technique' } });
    docs.tag = (await createDocument(strapi, TAG, { title: 'News & <Views>', slug: 'news' })) as Doc;

    // The published English version was last changed at a known time; the draft changes later.
    await strapi.db.query(ARTICLE as never).updateMany({
      where: { documentId: docs.article.documentId, locale: 'en', publishedAt: { $notNull: true } },
      data: { updatedAt: new Date('2024-02-03T04:05:06.789Z') },
    });
    await strapi.documents(ARTICLE as never).update({ documentId: docs.article.documentId, locale: 'en', data: { title: 'Hello, draft' } } as never);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('is a streamed sitemaps.org urlset of every published version in every locale', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    // Written as a stream: no length known in advance.
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    const doc = parseXml(res.text);
    expect(doc.urlset['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(urlsOf(res.text).map((url) => url.loc)).toEqual(
      ['/articles/hello', '/articles/bonjour', '/about', '/categories/tech', '/categories/technique', '/tags/news'].map((path) => `${SITE}${path}`)
    );
  });

  it('never lists drafts or unpublished documents', async () => {
    const locs = (await sitemap()).map((url) => url.loc);
    expect(locs).not.toContain(`${SITE}/articles/hallo`);
    expect(locs).not.toContain(`${SITE}/articles/draft-only`);
    expect(locs).not.toContain(`${SITE}/articles/gone`);
  });

  it("lastmod is the published version's updatedAt in W3C format", async () => {
    const urls = await sitemap();
    for (const url of urls) expect(url.lastmod).toMatch(W3C);
    expect(byLoc(urls, '/articles/hello')!.lastmod).toBe('2024-02-03T04:05:06Z');
  });

  it('carries article covers as absolute image:image locations', async () => {
    const urls = await sitemap();
    expect(byLoc(urls, '/articles/hello')!.images).toEqual([`${HOST}/uploads/cover.png`]);
    expect(byLoc(urls, '/articles/bonjour')!.images).toEqual([]);
  });

  it('has one hreflang alternate per published locale, itself included (a draft-only locale has none)', async () => {
    const urls = await sitemap();
    const article = { en: `${SITE}/articles/hello`, fr: `${SITE}/articles/bonjour` };
    expect(byLoc(urls, '/articles/hello')!.alternates).toEqual(article);
    expect(byLoc(urls, '/articles/bonjour')!.alternates).toEqual(article);
    expect(byLoc(urls, '/about')!.alternates).toEqual({ en: `${SITE}/about` });
  });

  it('gives categories and tags x-default (the default locale) besides their alternates', async () => {
    const urls = await sitemap();
    const category = { en: `${SITE}/categories/tech`, fr: `${SITE}/categories/technique`, 'x-default': `${SITE}/categories/tech` };
    expect(byLoc(urls, '/categories/tech')!.alternates).toEqual(category);
    expect(byLoc(urls, '/categories/technique')!.alternates).toEqual(category);
    expect(byLoc(urls, '/tags/news')!.alternates).toEqual({ en: `${SITE}/tags/news`, 'x-default': `${SITE}/tags/news` });
  });

  it('lists every locale whatever locale is asked; an unknown locale is 400', async () => {
    const all = await get('/sitemap.xml');
    const fr = await get('/sitemap.xml?locale=fr');
    expect(fr.status).toBe(200);
    expect(fr.text).toBe(all.text);
    const res = await get('/sitemap.xml?locale=xx');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'Unknown locale supplied' });
  });

  it('follows a publish and an unpublish at once', async () => {
    await app.strapi.documents(ARTICLE as never).publish({ documentId: docs.gone.documentId } as never);
    expect(byLoc(await sitemap(), '/articles/gone')).toBeDefined();
    await app.strapi.documents(ARTICLE as never).unpublish({ documentId: docs.gone.documentId } as never);
    expect(byLoc(await sitemap(), '/articles/gone')).toBeUndefined();
  });

  it('serves everything as page 1 when it fits one page; page 2 is 404', async () => {
    const page = await get('/sitemaps/1.xml');
    expect(page.status).toBe(200);
    expect(page.text).toBe((await get('/sitemap.xml')).text);
    const beyond = await get('/sitemaps/2.xml');
    expect(beyond.status).toBe(404);
    expect(beyond.body).toEqual({ data: null, error: expect.objectContaining({ status: 404, name: 'NotFoundError', message: 'Sitemap page not found' }) });
  });

  it("shows the published version's cover when the draft, among the rows listed, has another", async () => {
    const { strapi } = app;
    const files = strapi.db.query('plugin::upload.file');
    const cover = await files.findOne({ where: { hash: 'cover_hash' } });
    const other = await files.create({
      data: { name: 'other.png', hash: 'other_hash', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/other.png', provider: 'local' },
    });
    const doc = (await createDocument(strapi, ARTICLE, { title: 'Covered', slug: 'covered', cover: cover.id })) as Doc;
    await strapi.documents(ARTICLE as never).update({ documentId: doc.documentId, locale: 'en', data: { cover: other.id } } as never);
    // The draft row's id lies between published ones, so a read of covers by id range meets it.
    const rows = await strapi.db.query(ARTICLE as never).findMany({ where: { documentId: doc.documentId }, populate: ['cover'] });
    const draft = rows.find((row: any) => row.publishedAt === null);
    expect(draft.cover.url).toBe('/uploads/other.png');
    const [firstPublished] = await strapi.db.query(ARTICLE as never).findMany({ where: { publishedAt: { $notNull: true } }, orderBy: { id: 'asc' }, limit: 1 });
    expect(draft.id).toBeGreaterThan(firstPublished.id);
    expect(draft.id).toBeLessThan(rows.find((row: any) => row.publishedAt !== null).id);

    expect(byLoc(await sitemap(), '/articles/covered')!.images).toEqual([`${HOST}/uploads/cover.png`]);
  });
});

describe('sitemap index (sitemap.pageSize 2)', () => {
  let app: TestApp;
  const get = (path: string) => app.request().get(`/api/bag${path}`);

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE }, sitemap: { pageSize: 2 } }, env: { PUBLIC_URL: `${HOST}/` } });
    for (const slug of ['one', 'two', 'three']) await createDocument(app.strapi, ARTICLE, { title: slug, slug });
    await createDocument(app.strapi, PAGE, { title: 'About', slug: 'about' });
    await createDocument(app.strapi, TAG, { title: 'News', slug: 'news' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('is a sitemapindex of absolute page locations on the host', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const { sitemapindex } = parseXml(res.text);
    expect(sitemapindex['@xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(sitemapindex.sitemap.map((entry: any) => text(entry.loc))).toEqual([1, 2, 3].map((n) => `${HOST}/api/bag/sitemaps/${n}.xml`));
  });

  it('pages hold pageSize URLs each, in order, across content types, and together every URL once', async () => {
    const pages = [];
    for (const n of [1, 2, 3]) {
      const res = await get(`/sitemaps/${n}.xml`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
      pages.push(urlsOf(res.text).map((url) => url.loc.slice(SITE.length)));
    }
    expect(pages).toEqual([['/articles/one', '/articles/two'], ['/articles/three', '/about'], ['/tags/news']]);
  });

  it.each(['/sitemaps/4.xml', '/sitemaps/0.xml', '/sitemaps/1', '/sitemaps/x.xml'])('%s is 404', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ status: 404, message: 'Sitemap page not found' });
  });
});

describe('sitemap pages read from where the page before ended (sitemap.pageSize 3, response cache off)', () => {
  let app: TestApp;
  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const articles: Record<string, Doc> = {};

  /** Every page of the index, as paths, and the statements each page ran on the content tables. */
  const readAll = async () => {
    const index = await get('/sitemap.xml').expect(200);
    const count = parseXml(index.text).sitemapindex.sitemap.length as number;
    const pages: string[][] = [];
    const statements: string[][] = [];
    for (let n = 1; n <= count; n += 1) {
      const seen: string[] = [];
      const listener = (query: { sql: string }) => {
        if (/bag_(articles|pages|categories|tags)\b/.test(query.sql)) seen.push(query.sql);
      };
      app.strapi.db.connection.on('query', listener);
      try {
        const res = await get(`/sitemaps/${n}.xml`).expect(200);
        pages.push(urlsOf(res.text).map((url) => url.loc.slice(SITE.length)));
      } finally {
        app.strapi.db.connection.removeListener('query', listener);
      }
      statements.push(seen);
    }
    return { pages, statements };
  };

  const split = (paths: string[]) => Array.from({ length: Math.ceil(paths.length / 3) }, (_, i) => paths.slice(i * 3, i * 3 + 3));

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE }, sitemap: { pageSize: 3 }, cache: { enabled: false } }, env: { PUBLIC_URL: `${HOST}/` } });
    for (let n = 1; n <= 7; n += 1) articles[n] = (await createDocument(app.strapi, ARTICLE, { title: `A${n}`, slug: `a${n}` })) as Doc;
    await createDocument(app.strapi, PAGE, { title: 'About', slug: 'about' });
    await createDocument(app.strapi, TAG, { title: 'News', slug: 'news' });
    await createDocument(app.strapi, TAG, { title: 'Sport', slug: 'sport' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('pages hold the same URLs as an offset would give, and no page after the first skips rows with OFFSET', async () => {
    const { pages, statements } = await readAll();
    expect(pages).toEqual(split([...[1, 2, 3, 4, 5, 6, 7].map((n) => `/articles/a${n}`), '/about', '/tags/news', '/tags/sport']));
    for (const seen of statements) {
      expect(seen.length).toBeGreaterThan(0);
      for (const sql of seen) expect(sql).not.toMatch(/\boffset\b/i);
    }
  });

  it("reads each chunk's rows and their documents' published versions in one statement", async () => {
    const { statements } = await readAll();
    // The statements that read URLs select slugs (the counts and the page boundaries do not): one per type a page
    // reaches (page 3: the last article, the page, no category, the first tag), where the alternates used to be a
    // second statement over the chunk's document ids.
    const urlReads = statements.map((seen) => seen.filter((sql) => /\bslug\b/.test(sql)));
    expect(urlReads.map((reads) => reads.length)).toEqual([1, 1, 4, 1]);
    for (const sql of urlReads.flat()) expect(sql).not.toMatch(/document_id["`]? in \(/i);
  });

  it('follows an unpublish, a publish, a delete and a Query Engine write between the pages at once', async () => {
    await readAll();
    const documents = app.strapi.documents(ARTICLE as never);
    await documents.unpublish({ documentId: articles[2].documentId } as never);
    await createDocument(app.strapi, ARTICLE, { title: 'A8', slug: 'a8' });
    await documents.delete({ documentId: articles[5].documentId } as never);
    let { pages } = await readAll();
    expect(pages).toEqual(split([1, 3, 4, 6, 7, 8].map((n) => `/articles/a${n}`).concat(['/about', '/tags/news', '/tags/sport'])));

    // A write that is not the Document Service's, through the Query Engine: the published row of a7 leaves the list.
    await app.strapi.db.query(ARTICLE as never).deleteMany({ where: { documentId: articles[7].documentId, publishedAt: { $notNull: true } } });
    ({ pages } = await readAll());
    expect(pages).toEqual(split([1, 3, 4, 6, 8].map((n) => `/articles/a${n}`).concat(['/about', '/tags/news', '/tags/sport'])));
  });
});

describe('site.paths with {localePrefix}: the default locale unprefixed', () => {
  let app: TestApp;
  const paths = { article: '{localePrefix}/articles/{slug}', page: '{localePrefix}/{slug}', category: '{localePrefix}/categories/{slug}', tag: '{localePrefix}/tags/{slug}' };

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE, paths } }, env: { PUBLIC_URL: HOST } });
    await addLocales(app.strapi, EXTRA_LOCALES.filter((locale) => locale.code === 'fr'));
    await localizedDocument(app.strapi, ARTICLE, { en: { title: 'Hello', slug: 'hello' }, fr: { title: 'Bonjour', slug: 'bonjour' } });
    await createDocument(app.strapi, PAGE, { title: 'About', slug: 'about' });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
  });

  it('links the default locale without a prefix and every other locale under /<locale>', async () => {
    const res = await app.request().get('/api/bag/sitemap.xml');
    expect(res.status).toBe(200);
    const urls = urlsOf(res.text);
    expect(urls.map((url) => url.loc)).toEqual([`${SITE}/articles/hello`, `${SITE}/fr/articles/bonjour`, `${SITE}/about`]);
    expect(urls[0].alternates).toEqual({ en: `${SITE}/articles/hello`, fr: `${SITE}/fr/articles/bonjour` });
  });

  it('does the same in the feeds', async () => {
    const en = await app.request().get('/api/bag/feeds/articles.json');
    const fr = await app.request().get('/api/bag/feeds/articles.json?locale=fr');
    expect(en.status).toBe(200);
    expect(en.body.items.map((item: { url: string }) => item.url)).toEqual([`${SITE}/articles/hello`]);
    expect(fr.body.items.map((item: { url: string }) => item.url)).toEqual([`${SITE}/fr/articles/bonjour`]);
  });
});
