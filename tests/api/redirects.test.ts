/**
 * Redirects (docs/redirects.md): an article or page published with a new slug in a locale keeps its old slug as a
 * 301 to the current one (the same route, query kept; body `{ data: null, redirect: { slug, locale, path } }`),
 * chains collapse, a slug taken again belongs to its new document, no view is counted, the cache turns a kept answer
 * into the 301 on the next read; editors' redirects (Content Manager) and old slugs are listed by
 * `GET /api/bag/redirects` (cached, revalidated); the sitemap never lists a redirected path; the typed client follows.
 */
import { createClient } from 'cms-plugin-bag/client';
import { parseXml, text } from '../helpers/discovery';
import { adminToken, createDocument } from '../helpers/fixtures';
import { addLocales } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const REDIRECT = `${PLUGIN}.redirect`;
const SITE = 'https://www.example.com';

type Doc = { id: number; documentId: string };

describe('redirects', () => {
  let app: TestApp;
  let admin: string;
  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const documents = (uid: string) => app.strapi.documents(uid as never);
  const article = (slug: string, data: Record<string, unknown> = {}) =>
    createDocument(app.strapi, ARTICLE, { title: `Title ${slug}`, slug, ...data }) as Promise<Doc>;
  /** Publishes `slug` as the document's slug in `locale` (update + publish, as an editor does). */
  const moveTo = async (uid: string, documentId: string, slug: string, locale = 'en') => {
    await documents(uid).update({ documentId, locale, data: { slug } } as never);
    await documents(uid).publish({ documentId, locale } as never);
  };
  const viewsInDb = async (uid: string, documentId: string) => {
    const rows = await app.strapi.db.query(uid as never).findMany({ where: { documentId }, select: ['views'] });
    return Math.max(...rows.map((row: { views: number }) => Number(row.views)));
  };
  const sitemapLocs = async () => {
    const res = await get('/sitemap.xml').expect(200);
    return (parseXml(res.text).urlset.url ?? []).map((url: any) => ({
      loc: text(url.loc),
      alternates: (url['xhtml:link'] ?? []).map((link: any) => link['@href'] as string),
    })) as { loc: string; alternates: string[] }[];
  };

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: SITE, paths: { page: '/{locale}/{slug}' } } } });
    await addLocales(app.strapi, [{ code: 'fr', name: 'French (fr)' }]);
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  it('an old slug answers 301 to the current one, query kept, with the redirect in the body; no view is counted', async () => {
    const doc = await article('first-slug');
    await get('/articles/first-slug').expect(200);
    await moveTo(ARTICLE, doc.documentId, 'second-slug');
    const views = await viewsInDb(ARTICLE, doc.documentId);

    const moved = await get('/articles/first-slug?locale=en&populate=*').expect(301);
    expect(moved.headers.location).toBe('/api/bag/articles/second-slug?locale=en&populate=*');
    expect(moved.body).toEqual({ data: null, redirect: { slug: 'second-slug', locale: 'en', path: '/articles/second-slug' } });
    expect(moved.headers['cache-control']).toBe('public, no-cache');
    expect(await viewsInDb(ARTICLE, doc.documentId)).toBe(views);

    const current = await get('/articles/second-slug').expect(200);
    expect(current.body.data.documentId).toBe(doc.documentId);
    expect(current.body.data.views).toBe(views + 1);
  });

  it('chains collapse: a → b → c answers c from a and from b', async () => {
    const doc = await article('chain-a');
    await moveTo(ARTICLE, doc.documentId, 'chain-b');
    await moveTo(ARTICLE, doc.documentId, 'chain-c');
    for (const old of ['chain-a', 'chain-b']) {
      const res = await get(`/articles/${old}`).expect(301);
      expect(res.headers.location).toBe('/api/bag/articles/chain-c');
      expect(res.body.redirect.slug).toBe('chain-c');
    }
    // Back to an old slug: it is the live one again, and the one it left redirects.
    await moveTo(ARTICLE, doc.documentId, 'chain-a');
    expect((await get('/articles/chain-a').expect(200)).body.data.documentId).toBe(doc.documentId);
    expect((await get('/articles/chain-c').expect(301)).body.redirect.slug).toBe('chain-a');
  });

  it('a slug taken again by another published document is that document’s', async () => {
    const first = await article('reused');
    await moveTo(ARTICLE, first.documentId, 'reused-moved');
    expect((await get('/articles/reused').expect(301)).body.redirect.slug).toBe('reused-moved');
    const second = await article('reused');
    expect((await get('/articles/reused').expect(200)).body.data.documentId).toBe(second.documentId);
    const list = (await get('/redirects').expect(200)).body.data as { from: string }[];
    expect(list.map((entry) => entry.from)).not.toContain('/articles/reused');
    // The second document moves on too: the old slug is now its old slug.
    await moveTo(ARTICLE, second.documentId, 'reused-second');
    expect((await get('/articles/reused').expect(301)).body.redirect.slug).toBe('reused-second');
  });

  it('per locale: a French slug change redirects in French only; pages use their own path', async () => {
    const doc = await article('locale-en');
    await documents(ARTICLE).update({ documentId: doc.documentId, locale: 'fr', data: { title: 'Titre', slug: 'locale-fr' } } as never);
    await documents(ARTICLE).publish({ documentId: doc.documentId, locale: 'fr' } as never);
    await moveTo(ARTICLE, doc.documentId, 'locale-fr-2', 'fr');

    const moved = await get('/articles/locale-fr?locale=fr').expect(301);
    expect(moved.headers.location).toBe('/api/bag/articles/locale-fr-2?locale=fr');
    expect(moved.body.redirect).toEqual({ slug: 'locale-fr-2', locale: 'fr', path: '/articles/locale-fr-2' });
    await get('/articles/locale-fr').expect(404);
    await get('/articles/locale-en?locale=fr').expect(404);
    await get('/articles/locale-en').expect(200);

    const page = (await createDocument(app.strapi, PAGE, { title: 'About', slug: 'about' })) as Doc;
    await moveTo(PAGE, page.documentId, 'about-us');
    const res = await get('/pages/about').expect(301);
    expect(res.headers.location).toBe('/api/bag/pages/about-us');
    expect(res.body).toEqual({ data: null, redirect: { slug: 'about-us', locale: 'en', path: '/en/about-us' } });
  });

  it('an unpublished document: its old and current slugs are 404; published again with a new slug, both redirect', async () => {
    const doc = await article('gone-1');
    await documents(ARTICLE).unpublish({ documentId: doc.documentId } as never);
    await get('/articles/gone-1').expect(404);
    await moveTo(ARTICLE, doc.documentId, 'gone-2');
    expect((await get('/articles/gone-1').expect(301)).body.redirect.slug).toBe('gone-2');
  });

  it('the Content Manager: a slug changed and published through the admin API redirects', async () => {
    const doc = await article('cm-old');
    const cm = `/content-manager/collection-types/${ARTICLE}/${doc.documentId}`;
    const auth = { Authorization: `Bearer ${admin}` };
    await app.request().put(`${cm}?locale=en`).set(auth).send({ title: 'CM', slug: 'cm-new' }).expect(200);
    // A draft slug does not move the published one.
    await get('/articles/cm-old').expect(200);
    await app.request().post(`${cm}/actions/publish?locale=en`).set(auth).send({}).expect(200);
    expect((await get('/articles/cm-old').expect(301)).body.redirect.slug).toBe('cm-new');
  });

  it('the cache: a kept old-slug detail turns into the 301 on the next read after the publish', async () => {
    const doc = await article('cached-old');
    const first = await get('/articles/cached-old').expect(200);
    const kept = await get('/articles/cached-old').set('If-None-Match', first.headers.etag).expect(304);
    expect(kept.headers.etag).toBe(first.headers.etag);
    await moveTo(ARTICLE, doc.documentId, 'cached-new');
    const views = await viewsInDb(ARTICLE, doc.documentId);
    await get('/articles/cached-old').set('If-None-Match', first.headers.etag).expect(301);
    await get('/articles/cached-old').expect(301);
    expect(await viewsInDb(ARTICLE, doc.documentId)).toBe(views);
  });

  it('GET /redirects lists editors’ redirects and old slugs as front-end paths; cached and revalidated; coherent', async () => {
    const doc = await article('listed-old');
    await moveTo(ARTICLE, doc.documentId, 'listed-new');
    await documents(REDIRECT).create({ data: { from: '/old-blog', to: 'https://blog.example.com/', statusCode: 308 }, status: 'published' } as never);
    await documents(REDIRECT).create({ data: { from: '/removed', statusCode: 410 }, status: 'published' } as never);

    const first = await get('/redirects').expect(200);
    expect(first.body.data).toEqual(
      expect.arrayContaining([
        { from: '/old-blog', to: 'https://blog.example.com/', status: 308 },
        { from: '/removed', to: null, status: 410 },
        { from: '/articles/listed-old', to: '/articles/listed-new', status: 301 },
        { from: '/en/about', to: '/en/about-us', status: 301 },
        { from: '/articles/locale-fr', to: '/articles/locale-fr-2', status: 301 },
        { from: '/articles/chain-b', to: '/articles/chain-a', status: 301 },
      ]),
    );
    // The live slug of a document never appears as a `from`.
    const froms = (first.body.data as { from: string }[]).map((entry) => entry.from);
    expect(froms).not.toContain('/articles/chain-a');
    expect(first.headers.etag).toBeDefined();
    await get('/redirects').set('If-None-Match', first.headers.etag).expect(304);

    // An editor's redirect saved in the Content Manager is a draft: it answers once published, on the next read (and
    // the old ETag no longer matches).
    const saved = await app
      .request()
      .post(`/content-manager/collection-types/${REDIRECT}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ from: '/promo', to: '/articles/listed-new', statusCode: 302 })
      .expect(201);
    await get('/redirects').set('If-None-Match', first.headers.etag).expect(304);
    await app
      .request()
      .post(`/content-manager/collection-types/${REDIRECT}/${saved.body.data.documentId}/actions/publish`)
      .set('Authorization', `Bearer ${admin}`)
      .send({})
      .expect(200);
    const after = await get('/redirects').set('If-None-Match', first.headers.etag).expect(200);
    expect(after.body.data).toContainEqual({ from: '/promo', to: '/articles/listed-new', status: 302 });
  });

  it('editors’ redirects are checked: a bad status, a `from` that is not a path, a missing `to` are 400s', async () => {
    const create = (body: Record<string, unknown>) =>
      app.request().post(`/content-manager/collection-types/${REDIRECT}`).set('Authorization', `Bearer ${admin}`).send(body);
    const bad = await create({ from: '/x', to: '/y', statusCode: 303 }).expect(400);
    expect(bad.body.error.message).toBe('statusCode must be one of 301, 302, 307, 308, 410');
    expect((await create({ from: 'x', to: '/y', statusCode: 301 }).expect(400)).body.error.message).toBe('from must be a path starting with a single /');
    expect((await create({ from: '/x', statusCode: 301 }).expect(400)).body.error.message).toBe('to is required unless statusCode is 410');
    expect((await create({ from: '/x', to: 'javascript:alert(1)', statusCode: 301 }).expect(400)).body.error.message).toBe(
      'to must be a path starting with / or an absolute http(s) URL',
    );
  });

  it('the sitemap never lists a redirected path, nor links one as an alternate', async () => {
    const doc = await article('mapped');
    await documents(ARTICLE).update({ documentId: doc.documentId, locale: 'fr', data: { title: 'Carte', slug: 'carte' } } as never);
    await documents(ARTICLE).publish({ documentId: doc.documentId, locale: 'fr' } as never);
    let urls = await sitemapLocs();
    expect(urls.map((url) => url.loc)).toEqual(expect.arrayContaining([`${SITE}/articles/mapped`, `${SITE}/articles/carte`]));

    await documents(REDIRECT).create({ data: { from: '/articles/carte/', to: '/articles/mapped', statusCode: 301 }, status: 'published' } as never);
    urls = await sitemapLocs();
    const locs = urls.map((url) => url.loc);
    expect(locs).toContain(`${SITE}/articles/mapped`);
    expect(locs).not.toContain(`${SITE}/articles/carte`);
    expect(urls.flatMap((url) => url.alternates)).not.toContain(`${SITE}/articles/carte`);
    // Old slugs are not listed either (they have no published version).
    expect(locs).not.toContain(`${SITE}/articles/listed-old`);
  });

  it('the typed client follows a redirect and says so; `redirects()` lists them', async () => {
    const client = createClient({ baseUrl: app.url });
    const moved = await client.articles.get('listed-old');
    expect(moved.data.slug).toBe('listed-new');
    expect(moved.redirect).toEqual({ from: 'listed-old', slug: 'listed-new', locale: 'en' });
    const direct = await client.articles.get('listed-new');
    expect(direct.redirect).toBeUndefined();
    const page = await client.pages.get('about');
    expect(page.redirect).toEqual({ from: 'about', slug: 'about-us', locale: 'en' });
    const { data } = await client.redirects();
    expect(data).toContainEqual({ from: '/articles/listed-old', to: '/articles/listed-new', status: 301 });
  });
});

describe('redirects.enabled: false', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await setupStrapi({ config: { redirects: { enabled: false } } });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('old slugs are 404 and not listed; editors’ redirects still are', async () => {
    const doc = (await createDocument(app.strapi, ARTICLE, { title: 'Off', slug: 'off-old' })) as Doc;
    await app.strapi.documents(ARTICLE as never).update({ documentId: doc.documentId, data: { slug: 'off-new' } } as never);
    await app.strapi.documents(ARTICLE as never).publish({ documentId: doc.documentId } as never);
    await app.strapi.documents(REDIRECT as never).create({ data: { from: '/kept', to: '/elsewhere', statusCode: 301 }, status: 'published' } as never);
    await app.request().get('/api/bag/articles/off-old').expect(404);
    expect((await app.request().get('/api/bag/redirects').expect(200)).body).toEqual({ data: [{ from: '/kept', to: '/elsewhere', status: 301 }] });
  });
});
