/**
 * Locales (docs/content.md#locales) for articles, pages, banners, categories, tags and comments, over REST and the plugin's GraphQL
 * queries, on a host with `en` (default), `fr` and `de`, and `es` added after the content exists: lists strictly per
 * locale, details per locale with `localizations` (published ones only), 404 or the default locale's version
 * (`content.localeFallback`), 400 for an unknown code on every route, one `views` counter per document, comments
 * per article document, relations between versions of the same locale.
 */
import type { Core, UID } from '@strapi/strapi';
import { createDocument, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { graphql, type GraphqlResponse } from '../helpers/graphql';
import { addLocales, defaultLocale, EXTRA_LOCALES } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const BANNER = `${PLUGIN}.banner`;
const CATEGORY = `${PLUGIN}.category`;
const TAG = `${PLUGIN}.tag`;
const [FR, DE, ES] = EXTRA_LOCALES;

type Doc = { id: number; documentId: string };
type Row = Record<string, unknown> & { id: number; documentId: string; slug?: string; locale?: string };

const UNKNOWN = { status: 400, name: 'ValidationError', message: 'Unknown locale supplied' };

const ARTICLE_QUERY = `query Article($slug: String!, $locale: String) {
  bagArticle(slug: $slug, locale: $locale) {
    id documentId title slug summary content isTop views commentCount locale localizations { locale slug } createdAt updatedAt publishedAt
    category { id documentId title slug description locale createdAt updatedAt publishedAt }
    tags { id documentId title slug description locale createdAt updatedAt publishedAt }
    author { id documentId username }
  }
}`;
const PAGE_QUERY = `query Page($slug: String!, $locale: String) {
  bagPage(slug: $slug, locale: $locale) {
    id documentId title slug content seoTitle seoKeywords seoDescription views locale localizations { locale slug } createdAt updatedAt publishedAt
  }
}`;
const THREAD_QUERY = `query Thread($article: ID!, $locale: String) {
  bagCommentThread(article: $article, locale: $locale) { data { content } meta { total } }
}`;

/** REST bodies omit keys the GraphQL answer lists with null. */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
};

/** Adds a version of the document in `locale` (as the Content Manager's locale switcher does), published unless told. */
async function translate(strapi: Core.Strapi, uid: string, documentId: string, locale: string, data: Record<string, unknown>, publish = true) {
  const documents = strapi.documents(uid as never);
  await documents.update({ documentId, locale, data } as never);
  if (publish && strapi.getModel(uid as UID.ContentType)?.options?.draftAndPublish) await documents.publish({ documentId, locale } as never);
}

/** Every row (locale × draft/published) of the document: its locale, whether published, its views. */
const viewRows = async (strapi: Core.Strapi, uid: string, documentId: string) =>
  (
    (await strapi.db.query(uid as never).findMany({ select: ['locale', 'publishedAt', 'views'], where: { documentId } })) as {
      locale: string;
      publishedAt: unknown;
      views: number;
    }[]
  ).map((row) => row.views);

describe('locales of the content under /api/bag (en default, fr, de, es added later)', () => {
  let app: TestApp;
  let author: TestUser;
  let tech: Doc;
  let ts: Doc;
  let hello: Doc;
  let frOnly: Doc;
  let about: Doc;

  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const slugs = (body: { data: Row[] }) => body.data.map((row) => row.slug).sort();
  const locales = (body: { data: Row[] }) => [...new Set(body.data.map((row) => row.locale))];

  beforeAll(async () => {
    app = await setupStrapi({ env: { GRAPHQL: 'after' }, config: { comments: { autoApprove: true }, rateLimit: { comment: { interval: '1m', max: 50 } } } });
    const { strapi } = app;
    expect(await defaultLocale(strapi)).toBe('en');
    expect(await addLocales(strapi, [FR, DE])).toEqual(['de', 'en', 'fr']);
    author = await createUser(strapi);

    tech = (await createDocument(strapi, CATEGORY, { title: 'Tech', slug: 'tech' })) as Doc;
    await translate(strapi, CATEGORY, tech.documentId, FR.code, { title: 'Technique', slug: 'technique' });
    ts = (await createDocument(strapi, TAG, { title: 'TypeScript', slug: 'ts' })) as Doc;
    await translate(strapi, TAG, ts.documentId, FR.code, { title: 'TypeScript (fr)', slug: 'ts-fr' });
    await createDocument(strapi, TAG, { title: 'English tag', slug: 'english-tag' });

    hello = (await createDocument(strapi, ARTICLE, {
      title: 'Hello',
      slug: 'hello',
      author: author.documentId,
      category: tech.documentId,
      tags: [ts.documentId],
    })) as Doc;
    await translate(strapi, ARTICLE, hello.documentId, FR.code, {
      title: 'Bonjour',
      slug: 'bonjour',
      author: author.documentId,
      category: tech.documentId,
      tags: [ts.documentId],
    });
    // A draft-only German version: never listed, never in `localizations`.
    await translate(strapi, ARTICLE, hello.documentId, DE.code, { title: 'Hallo', slug: 'hallo' }, false);
    await createDocument(strapi, ARTICLE, { title: 'English only', slug: 'english-only' });
    const created = await strapi.documents(ARTICLE as never).create({ locale: FR.code, data: { title: 'Seulement', slug: 'seulement' } } as never);
    await strapi.documents(ARTICLE as never).publish({ documentId: created.documentId, locale: FR.code } as never);
    frOnly = created as Doc;

    about = (await createDocument(strapi, PAGE, { title: 'About', slug: 'about' })) as Doc;
    await translate(strapi, PAGE, about.documentId, FR.code, { title: 'À propos', slug: 'a-propos' });

    const banner = await createDocument(strapi, BANNER, { title: 'Welcome', group: 'home', order: 1, isVisible: true });
    await translate(strapi, BANNER, banner.documentId, FR.code, { title: 'Bienvenue' });
  });
  afterAll(async () => {
    await app.stop();
  });

  describe('lists', () => {
    it('hold the requested locale’s published versions only, the default locale without `locale`', async () => {
      const en = (await get('/articles').expect(200)).body;
      expect(slugs(en)).toEqual(['english-only', 'hello']);
      expect(locales(en)).toEqual(['en']);
      expect(en.meta.pagination.total).toBe(2);
      expect(slugs((await get('/articles?locale=en').expect(200)).body)).toEqual(['english-only', 'hello']);
      const fr = (await get('/articles?locale=fr').expect(200)).body;
      expect(slugs(fr)).toEqual(['bonjour', 'seulement']);
      expect(locales(fr)).toEqual(['fr']);
      expect(fr.meta.pagination.total).toBe(2);
      // The German version is a draft: nothing, and no fallback to the default locale.
      const de = (await get('/articles?locale=de').expect(200)).body;
      expect(de.data).toEqual([]);
      expect(de.meta.pagination.total).toBe(0);
    });

    it('follow a default locale changed in the admin at the next read, read past knex (a prepared statement)', async () => {
      const i18n = app.strapi.plugin('i18n').service('locales');
      const statements: string[] = [];
      const listener = (query: { sql: string; bindings: unknown[] }) => statements.push(`${query.sql} ${JSON.stringify(query.bindings)}`);
      try {
        await i18n.setDefaultLocale({ code: FR.code });
        // With a token: past the response cache, so the read is computed.
        const fr = (await get('/articles').set('Authorization', `Bearer ${jwtFor(app.strapi, author)}`).expect(200)).body;
        expect(slugs(fr)).toEqual(['bonjour', 'seulement']);
        await i18n.setDefaultLocale({ code: 'en' });
        app.strapi.db.connection.on('query', listener);
        const en = (await get('/articles').set('Authorization', `Bearer ${jwtFor(app.strapi, author)}`).expect(200)).body;
        expect(slugs(en)).toEqual(['english-only', 'hello']);
      } finally {
        app.strapi.db.connection.removeListener('query', listener);
        await i18n.setDefaultLocale({ code: 'en' });
      }
      expect(statements.length).toBeGreaterThan(0);
      // (Users & Permissions reads its own settings from the same table to authenticate the token.)
      expect(statements.filter((sql) => sql.includes('plugin_i18n_default_locale'))).toEqual([]);
    });

    it('of pages, banners, categories and tags are per locale too', async () => {
      expect(slugs((await get('/pages').expect(200)).body)).toEqual(['about']);
      expect(slugs((await get('/pages?locale=fr').expect(200)).body)).toEqual(['a-propos']);
      expect((await get('/pages?locale=de').expect(200)).body.data).toEqual([]);

      for (const path of ['/banners', '/banners/home']) {
        const en = (await get(path).expect(200)).body.data as Row[];
        expect(en.map((row) => [row.title, row.locale, row.group, row.order])).toEqual([['Welcome', 'en', 'home', 1]]);
        const fr = (await get(`${path}?locale=fr`).expect(200)).body.data as Row[];
        // group, order and isVisible are shared: the French version has them without being given them.
        expect(fr.map((row) => [row.title, row.locale, row.group, row.order])).toEqual([['Bienvenue', 'fr', 'home', 1]]);
        expect((await get(`${path}?locale=de`).expect(200)).body.data).toEqual([]);
      }

      const categories = (locale: string) => get(`/categories?locale=${locale}`).expect(200);
      expect(((await get('/categories').expect(200)).body.data as Row[]).map((row) => [row.title, row.locale])).toEqual([['Tech', 'en']]);
      expect(((await categories('fr')).body.data as Row[]).map((row) => [row.title, row.locale])).toEqual([['Technique', 'fr']]);
      expect((await categories('de')).body.data).toEqual([]);

      expect(slugs((await get('/tags').expect(200)).body)).toEqual(['english-tag', 'ts']);
      expect(slugs((await get('/tags?locale=fr').expect(200)).body)).toEqual(['ts-fr']);
      expect((await get('/tags?locale=de').expect(200)).body.data).toEqual([]);
    });
  });

  describe('details', () => {
    it('look the slug up in the requested locale, with `locale` and the other published locales', async () => {
      const en = (await get('/articles/hello').expect(200)).body.data;
      expect(en).toMatchObject({ documentId: hello.documentId, title: 'Hello', locale: 'en', localizations: [{ locale: 'fr', slug: 'bonjour' }] });
      const fr = (await get('/articles/bonjour?locale=fr').expect(200)).body.data;
      expect(fr).toMatchObject({ documentId: hello.documentId, title: 'Bonjour', locale: 'fr', localizations: [{ locale: 'en', slug: 'hello' }] });
      const only = (await get('/articles/seulement?locale=fr').expect(200)).body.data;
      expect(only).toMatchObject({ documentId: frOnly.documentId, locale: 'fr', localizations: [] });

      const page = (await get('/pages/a-propos?locale=fr').expect(200)).body.data;
      expect(page).toMatchObject({ documentId: about.documentId, title: 'À propos', locale: 'fr', localizations: [{ locale: 'en', slug: 'about' }] });
      expect((await get('/pages/about').expect(200)).body.data).toMatchObject({ locale: 'en', localizations: [{ locale: 'fr', slug: 'a-propos' }] });
    });

    it('answer the usual 404 for a slug the locale does not have (no fallback by default), a draft-only version included', async () => {
      for (const path of ['/articles/bonjour', '/articles/hello?locale=fr', '/articles/hallo?locale=de', '/articles/hello?locale=de', '/articles/seulement']) {
        expect((await get(path).expect(404)).body.error.message).toBe('Article not found');
      }
      for (const path of ['/pages/a-propos', '/pages/about?locale=fr', '/pages/about?locale=de']) {
        expect((await get(path).expect(404)).body.error.message).toBe('Page not found');
      }
    });

    it('populate the same locale’s category and tags', async () => {
      const fr = (await get('/articles/bonjour?locale=fr').expect(200)).body.data;
      expect(fr.category).toMatchObject({ documentId: tech.documentId, title: 'Technique', locale: 'fr' });
      expect(fr.tags.map((tag: Row) => [tag.documentId, tag.slug, tag.locale])).toEqual([[ts.documentId, 'ts-fr', 'fr']]);
      const en = (await get('/articles/hello').expect(200)).body.data;
      expect(en.category).toMatchObject({ documentId: tech.documentId, title: 'Tech', locale: 'en' });
      expect(en.tags.map((tag: Row) => [tag.slug, tag.locale])).toEqual([['ts', 'en']]);
      expect(en.author).toEqual({ id: author.id, documentId: author.documentId, username: author.username });
      // Lists populate the same way.
      const list = (await get('/articles?locale=fr').expect(200)).body.data as Row[];
      expect((list.find((row) => row.slug === 'bonjour')!.category as Row).title).toBe('Technique');
    });
  });

  it('refuses an unknown locale with 400 `Unknown locale supplied` on every content and comment route', async () => {
    const paths = [
      '/articles',
      '/articles/hello',
      '/pages',
      '/pages/about',
      '/banners',
      '/banners/home',
      '/categories',
      '/tags',
      `/articles/${hello.documentId}/comments`,
      `/articles/${hello.documentId}/comments?pagination[pageSize]=5`,
      `/comments/counts?articles=${hello.documentId}`,
      '/comments/1/replies',
    ];
    for (const path of paths) {
      for (const locale of ['xx', 'EN-us', 'fr&locale=de']) {
        const res = await get(`${path}${path.includes('?') ? '&' : '?'}locale=${locale}`);
        expect([path, locale, res.status]).toEqual([path, locale, 400]);
        expect(res.body.error).toMatchObject(UNKNOWN);
      }
    }
    const post = await app.request().post('/api/bag/comments?locale=xx').send({ content: 'never', article: hello.documentId }).expect(400);
    expect(post.body.error).toMatchObject(UNKNOWN);
    expect((await get(`/comments/counts?articles=${hello.documentId}`).expect(200)).body.data[hello.documentId]).toBe(0);
  });

  describe('views', () => {
    const views = async (path: string) => (await get(path).expect(200)).body.data.views as number;

    it('are one counter per document: a read in any locale adds one, every locale shows it', async () => {
      const before = await views('/articles/hello');
      expect(await views('/articles/bonjour?locale=fr')).toBe(before + 1);
      expect(await views('/articles/hello?locale=en')).toBe(before + 2);
      expect(new Set(await viewRows(app.strapi, ARTICLE, hello.documentId))).toEqual(new Set([before + 2]));
      const list = (await get('/articles?locale=fr').expect(200)).body.data as Row[];
      expect(list.find((row) => row.slug === 'bonjour')!.views).toBe(before + 2);
    });

    it('are exact under concurrency: 200 parallel reads split over en and fr add exactly 200, none fails', async () => {
      // Every read updates the document's four rows; on PostgreSQL they are locked in one order, so no two reads
      // deadlock (one of them would answer an error after deadlock_timeout).
      const before = await views('/articles/hello');
      const paths = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? '/articles/hello' : '/articles/bonjour?locale=fr'));
      const seen = await Promise.all(paths.map((path) => views(path)));
      // Each read saw its own count: before+1 … before+200, once each.
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => before + 1 + i));
      expect(await views('/articles/hello')).toBe(before + 201);
      expect(await views('/articles/bonjour?locale=fr')).toBe(before + 202);
      expect(new Set(await viewRows(app.strapi, ARTICLE, hello.documentId))).toEqual(new Set([before + 202]));
    });

    it('are kept when an editor saves and re-publishes the French version (even sending views: 0)', async () => {
      const before = await views('/articles/bonjour?locale=fr');
      const documents = app.strapi.documents(ARTICLE as never);
      await documents.update({ documentId: hello.documentId, locale: FR.code, data: { title: 'Bonjour !', views: 0 } } as never);
      await documents.publish({ documentId: hello.documentId, locale: FR.code } as never);
      const fr = (await get('/articles/bonjour?locale=fr').expect(200)).body.data;
      expect([fr.title, fr.views]).toEqual(['Bonjour !', before + 1]);
      expect(await views('/articles/hello')).toBe(before + 2);
      // Pages count the same way.
      const page = await views('/pages/about');
      expect(await views('/pages/a-propos?locale=fr')).toBe(page + 1);
    });
  });

  it('serves a locale added after the content exists: empty lists, 404 details, and a version created then starts at the document’s count', async () => {
    expect(await addLocales(app.strapi, [ES])).toEqual(['de', 'en', 'es', 'fr']);
    expect((await get('/articles?locale=es').expect(200)).body.data).toEqual([]);
    expect((await get('/banners?locale=es').expect(200)).body.data).toEqual([]);
    expect((await get('/articles/hello?locale=es').expect(404)).body.error.message).toBe('Article not found');

    const before = (await get('/articles/hello').expect(200)).body.data.views as number;
    await translate(app.strapi, ARTICLE, hello.documentId, ES.code, { title: 'Hola', slug: 'hola', views: 0 });
    const es = (await get('/articles/hola?locale=es').expect(200)).body.data;
    expect(es).toMatchObject({ title: 'Hola', locale: 'es', views: before + 1 });
    expect(es.localizations).toEqual([
      { locale: 'en', slug: 'hello' },
      { locale: 'fr', slug: 'bonjour' },
    ]);
    expect(new Set(await viewRows(app.strapi, ARTICLE, hello.documentId))).toEqual(new Set([before + 1]));
    expect(slugs((await get('/articles?locale=es').expect(200)).body)).toEqual(['hola']);
  });

  describe('comments', () => {
    it('are one thread per article document, whatever locale they are posted or read in', async () => {
      const frRow = (await app.strapi.db.query(ARTICLE as never).findOne({
        select: ['id'],
        where: { documentId: hello.documentId, locale: FR.code, publishedAt: { $notNull: true } },
      })) as { id: number };
      const post = (locale: string, article: string | number, content: string) =>
        app.request().post(`/api/bag/comments?locale=${locale}`).send({ content, article }).expect(201);
      const fromFr = (await post('fr', hello.documentId, 'posted while reading fr')).body.data;
      expect(fromFr.article.documentId).toBe(hello.documentId);
      // The numeric id of the French published row names the same document.
      await post('fr', frRow.id, 'posted with the fr row id');
      await post('en', hello.documentId, 'posted while reading en');

      const tree = (await get(`/articles/${hello.documentId}/comments`).expect(200)).body;
      const contents = (tree.data as { content: string }[]).map((node) => node.content).sort();
      expect(contents).toEqual(['posted while reading en', 'posted while reading fr', 'posted with the fr row id']);
      for (const locale of ['en', 'fr', 'de', 'es']) {
        expect((await get(`/articles/${hello.documentId}/comments?locale=${locale}`).expect(200)).body).toEqual(tree);
        const page = (await get(`/articles/${hello.documentId}/comments?locale=${locale}&pagination[pageSize]=10`).expect(200)).body;
        expect(page.meta.total).toBe(3);
        expect((await get(`/comments/counts?articles=${hello.documentId},${frRow.id}&locale=${locale}`).expect(200)).body.data).toEqual({
          [hello.documentId]: 3,
          [frRow.id]: 3,
        });
      }
      const replies = await get(`/comments/${fromFr.documentId}/replies?locale=fr`).expect(200);
      expect(replies.body.data).toEqual([]);
    });

    it('work on an article that has no version in the default locale', async () => {
      const created = await app.request().post('/api/bag/comments?locale=fr').send({ content: 'sur un article français', article: frOnly.documentId }).expect(201);
      expect(created.body.data.article.documentId).toBe(frOnly.documentId);
      for (const query of ['', '?locale=fr', '?locale=en']) {
        const tree = (await get(`/articles/${frOnly.documentId}/comments${query}`).expect(200)).body;
        expect(tree.data.map((node: { content: string }) => node.content)).toEqual(['sur un article français']);
      }
      const page = (await get(`/articles/${frOnly.documentId}/comments?pagination[pageSize]=5`).expect(200)).body;
      expect(page.meta.total).toBe(1);
      expect((await get(`/comments/counts?articles=${frOnly.documentId}`).expect(200)).body.data).toEqual({ [frOnly.documentId]: 1 });
    });
  });

  describe('GraphQL', () => {
    const rest = async (path: string) => (await get(path).expect(200)).body.data;

    it('bagArticle and bagPage answer what REST answers for the locale', async () => {
      const gql = (await graphql<{ bagArticle: Row }>(app, ARTICLE_QUERY, { slug: 'bonjour', locale: 'fr' })).data!.bagArticle;
      const body = await rest('/articles/bonjour?locale=fr');
      expect(body.views).toBe((gql.views as number) + 1);
      expect(withoutNulls({ ...gql, views: body.views })).toEqual(withoutNulls(body));
      expect(gql).toMatchObject({ locale: 'fr', localizations: [{ locale: 'en', slug: 'hello' }, { locale: 'es', slug: 'hola' }] });
      expect((gql.category as Row).locale).toBe('fr');

      const page = (await graphql<{ bagPage: Row }>(app, PAGE_QUERY, { slug: 'a-propos', locale: 'fr' })).data!.bagPage;
      const pageBody = await rest('/pages/a-propos?locale=fr');
      expect(withoutNulls({ ...page, views: pageBody.views })).toEqual(withoutNulls(pageBody));
      expect(page).toMatchObject({ locale: 'fr', localizations: [{ locale: 'en', slug: 'about' }] });

      const absent = await graphql(app, ARTICLE_QUERY, { slug: 'hello', locale: 'fr' });
      expect(absent.errors![0]).toMatchObject({ message: 'Article not found', extensions: { code: 'STRAPI_NOT_FOUND_ERROR' } });
    });

    it('refuses an unknown locale as REST does, on the content and the comment queries', async () => {
      const expectUnknown = (res: GraphqlResponse) => {
        expect(res.errors).toHaveLength(1);
        expect(res.errors![0]).toMatchObject({ message: 'Unknown locale supplied', extensions: { code: 'BAD_USER_INPUT' } });
      };
      expectUnknown(await graphql(app, ARTICLE_QUERY, { slug: 'hello', locale: 'xx' }));
      expectUnknown(await graphql(app, PAGE_QUERY, { slug: 'about', locale: 'xx' }));
      expectUnknown(await graphql(app, THREAD_QUERY, { article: hello.documentId, locale: 'xx' }));
      const thread = await graphql<{ bagCommentThread: { meta: { total: number } } }>(app, THREAD_QUERY, { article: hello.documentId, locale: 'fr' });
      expect(thread.data!.bagCommentThread.meta.total).toBe(3);
    });
  });
});

describe('locales with content.localeFallback', () => {
  let app: TestApp;
  let hello: Doc;
  const get = (path: string) => app.request().get(`/api/bag${path}`);

  beforeAll(async () => {
    app = await setupStrapi({ env: { GRAPHQL: 'after' }, config: { content: { localeFallback: true } } });
    await addLocales(app.strapi, [FR, DE]);
    hello = (await createDocument(app.strapi, ARTICLE, { title: 'Hello', slug: 'hello' })) as Doc;
    await translate(app.strapi, ARTICLE, hello.documentId, DE.code, { title: 'Hallo', slug: 'hallo' });
    await createDocument(app.strapi, PAGE, { title: 'About', slug: 'about' });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('serves the default locale’s published version of a slug the locale does not have, and says so', async () => {
    const before = (await get('/articles/hello').expect(200)).body.data.views as number;
    const fr = (await get('/articles/hello?locale=fr').expect(200)).body.data;
    expect(fr).toMatchObject({ documentId: hello.documentId, title: 'Hello', locale: 'en', views: before + 1 });
    expect(fr.localizations).toEqual([{ locale: 'de', slug: 'hallo' }]);
    expect((await get('/pages/about?locale=fr').expect(200)).body.data).toMatchObject({ title: 'About', locale: 'en', localizations: [] });
    // A version in the requested locale wins over the fallback.
    expect((await get('/articles/hallo?locale=de').expect(200)).body.data).toMatchObject({ title: 'Hallo', locale: 'de' });
    const gql = await graphql<{ bagArticle: Row }>(app, ARTICLE_QUERY, { slug: 'hello', locale: 'fr' });
    expect(gql.data!.bagArticle).toMatchObject({ title: 'Hello', locale: 'en', localizations: [{ locale: 'de', slug: 'hallo' }] });
  });

  it('never falls back for a slug the default locale lacks either, nor in lists', async () => {
    expect((await get('/articles/nothing?locale=fr').expect(404)).body.error.message).toBe('Article not found');
    expect((await get('/pages/nothing?locale=fr').expect(404)).body.error.message).toBe('Page not found');
    // The German slug is not looked up in another non-default locale.
    expect((await get('/articles/hallo?locale=fr').expect(404)).body.error.message).toBe('Article not found');
    expect((await get('/articles?locale=fr').expect(200)).body.data).toEqual([]);
    expect((await get('/pages?locale=fr').expect(200)).body.data).toEqual([]);
    expect((await get('/articles/hello?locale=xx').expect(400)).body.error).toMatchObject(UNKNOWN);
  });
});
