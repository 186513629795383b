/**
 * Menus per locale (docs/content.md#locales): a host with en (default), fr and de, es added after the menus exist. Each locale
 * version of a menu (one shared slug) has its own items; linked articles and pages come in the menu's locale,
 * published only; a locale without the menu is 404, or the default locale's menu with `content.localeFallback`;
 * shared item attributes follow the host's i18n sync; GraphQL `bagMenu` answers what REST answers.
 */
import { graphql, type GraphqlResponse } from '../helpers/graphql';
import { addLocales, EXTRA_LOCALES } from '../helpers/locales';
import { insertMenuItems } from '../helpers/menus';
import { forRequests } from '../helpers/statements';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const MENU = `${PLUGIN}.menu`;
const ITEM = `${PLUGIN}.menu-item`;
const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const LATER = EXTRA_LOCALES.filter((locale) => locale.code === 'es');
const FIRST = EXTRA_LOCALES.filter((locale) => locale.code !== 'es');

const MENU_QUERY = `query Menu($slug: String!, $locale: String) { bagMenu(slug: $slug, locale: $locale) { id documentId title slug items } }`;

type Doc = { id: number; documentId: string; locale?: string };
interface Node {
  id: number;
  title: string;
  children: Node[];
  [key: string]: unknown;
}

/** Titles as nested [title, children] pairs. */
const shape = (nodes: Node[]): unknown[] => nodes.map((node) => (node.children.length ? [node.title, shape(node.children)] : node.title));
const find = (nodes: Node[], title: string): Node | undefined => {
  for (const node of nodes) {
    if (node.title === title) return node;
    const inner = find(node.children, title);
    if (inner) return inner;
  }
  return undefined;
};

describe('menus per locale', () => {
  let app: TestApp;
  let main: Doc;
  const items: Record<string, Doc> = {};
  const articles: Record<string, Doc> = {};
  let page: Doc;

  const get = (path: string) => app.request().get(`/api/bag${path}`);
  const documents = (uid: string) => app.strapi.documents(uid as never);
  const item = async (title: string, order: number, locale: string, parent?: Doc, extra: Record<string, unknown> = {}) =>
    (await documents(ITEM).create({
      locale,
      data: { title, url: `/${locale}/${title}`, order, menu: main.documentId, parent: parent?.documentId, ...extra } as never,
    } as never)) as Doc;
  /** The `locale` version of an existing item document. */
  const translate = async (of: Doc, title: string, locale: string, parent?: Doc, extra: Record<string, unknown> = {}) =>
    (await documents(ITEM).update({
      documentId: of.documentId,
      locale,
      data: { title, url: `/${locale}/${title}`, menu: main.documentId, parent: parent?.documentId, ...extra } as never,
    } as never)) as Doc;
  /** A document published in each locale of `titles`; `drafts` are versions created but never published. */
  const publishedIn = async (uid: string, titles: Record<string, string>, drafts: Record<string, string> = {}) => {
    let doc: Doc | undefined;
    for (const [locale, title] of Object.entries({ ...titles, ...drafts })) {
      const data = { title, slug: title.toLowerCase().replace(/ /g, '-') } as never;
      doc = doc
        ? ((await documents(uid).update({ documentId: doc.documentId, locale, data } as never)) as Doc)
        : ((await documents(uid).create({ locale, data } as never)) as Doc);
      if (titles[locale]) await documents(uid).publish({ documentId: doc.documentId, locale } as never);
    }
    return doc!;
  };

  beforeAll(async () => {
    app = await setupStrapi({ env: { GRAPHQL: 'after' } });
    await addLocales(app.strapi, FIRST);

    articles.both = await publishedIn(ARTICLE, { en: 'Article EN', fr: 'Article FR' });
    articles.frDraft = await publishedIn(ARTICLE, { en: 'Second EN' }, { fr: 'Second FR draft' });
    articles.enOnly = await publishedIn(ARTICLE, { en: 'Third EN' });
    page = await publishedIn(PAGE, { en: 'Page EN', fr: 'Page FR' });

    main = (await documents(MENU).create({ locale: 'en', data: { title: 'Main', slug: 'main' } as never } as never)) as Doc;
    await documents(MENU).update({ documentId: main.documentId, locale: 'fr', data: { title: 'Principal', slug: 'main' } as never } as never);

    items.home = await item('Home', 0, 'en', undefined, { article: articles.both.documentId, pages: [page.documentId] });
    items.blog = await item('Blog', 1, 'en', undefined, { article: articles.frDraft.documentId, isHot: true });
    items.news = await item('News', 0, 'en', items.blog);
    items.about = await item('About', 2, 'en', undefined, { article: articles.enOnly.documentId });

    items.accueil = await translate(items.home, 'Accueil', 'fr', undefined, { article: articles.both.documentId, pages: [page.documentId] });
    items.blogue = await translate(items.blog, 'Blogue', 'fr', undefined, { article: articles.frDraft.documentId });
    items.nouveautes = await item('Nouveautes', 0, 'fr', items.blog);
  });
  afterAll(async () => {
    await app.stop();
  });

  describe('with content.localeFallback off (the default)', () => {
    it('serves the default locale without `locale` and with locale=en: its own items, its locale named', async () => {
      const bare = (await get('/menus/main').expect(200)).body.data;
      const en = (await get('/menus/main?locale=en').expect(200)).body.data;
      expect(en).toEqual(bare);
      expect(en).toMatchObject({ documentId: main.documentId, title: 'Main', slug: 'main', locale: 'en' });
      expect(shape(en.items)).toEqual(['Home', ['Blog', ['News']], 'About']);
      expect(JSON.stringify(en)).not.toMatch(/Accueil|Blogue|Nouveautes|Principal/);
    });

    it('serves the fr version of the same slug with its own items only, each node in fr', async () => {
      const fr = (await get('/menus/main?locale=fr').expect(200)).body.data;
      expect(fr).toMatchObject({ documentId: main.documentId, title: 'Principal', slug: 'main', locale: 'fr' });
      expect(shape(fr.items)).toEqual(['Accueil', ['Blogue', ['Nouveautes']]]);
      expect(JSON.stringify(fr)).not.toMatch(/"(Home|Blog|News|About|Main)"/);
      const accueil = find(fr.items, 'Accueil')!;
      expect(accueil).toMatchObject({ documentId: items.home.documentId, locale: 'fr', url: '/fr/Accueil' });
      expect(accueil).not.toHaveProperty('localizations');
      // Shared attributes came from the en version when fr was created (the host's i18n sync).
      expect(find(fr.items, 'Blogue')).toMatchObject({ isHot: true, order: 1 });
    });

    it('links each item to the published version of the article or page in the menu’s locale', async () => {
      const en = (await get('/menus/main?locale=en').expect(200)).body.data;
      expect(find(en.items, 'Home')!.article).toMatchObject({ documentId: articles.both.documentId, title: 'Article EN', locale: 'en' });
      expect((find(en.items, 'Home')!.pages as Node[]).map((linked) => linked.title)).toEqual(['Page EN']);
      expect(find(en.items, 'Blog')!.article).toMatchObject({ title: 'Second EN', publishedAt: expect.any(String) });
      expect(find(en.items, 'About')!.article).toMatchObject({ title: 'Third EN' });

      const fr = (await get('/menus/main?locale=fr').expect(200)).body.data;
      expect(find(fr.items, 'Accueil')!.article).toMatchObject({
        documentId: articles.both.documentId,
        title: 'Article FR',
        locale: 'fr',
        publishedAt: expect.any(String),
      });
      expect((find(fr.items, 'Accueil')!.pages as Node[]).map((linked) => linked.title)).toEqual(['Page FR']);
      // Its fr version is a draft: shown as an unpublished document is, never the draft nor the en version.
      expect(find(fr.items, 'Blogue')!.article).toBeNull();
      expect(JSON.stringify(fr)).not.toMatch(/Article EN|Page EN|Second/);
    });

    it('has the Document Service link an fr item to the fr rows of an article, and refuse an article with no fr version', async () => {
      const meta = app.strapi.db.metadata.get(ITEM as never) as unknown as {
        attributes: { article: { joinTable: { name: string; joinColumn: { name: string }; inverseJoinColumn: { name: string } } } };
      };
      const { joinTable } = meta.attributes.article;
      const articleTable = (app.strapi.db.metadata.get(ARTICLE as never) as unknown as { tableName: string }).tableName;
      const linked = (await app.strapi.db
        .connection(`${joinTable.name} as l`)
        .join(`${articleTable} as a`, 'a.id', `l.${joinTable.inverseJoinColumn.name}`)
        .where(`l.${joinTable.joinColumn.name}`, items.accueil.id)
        .select('a.document_id as documentId', 'a.locale as locale', 'a.published_at as publishedAt')) as Record<string, unknown>[];
      expect(linked.length).toBe(2);
      expect(linked.every((row) => row.documentId === articles.both.documentId && row.locale === 'fr')).toBe(true);
      expect(linked.filter((row) => row.publishedAt).length).toBe(1);

      await expect(translate(items.about, 'A propos', 'fr', undefined, { article: articles.enOnly.documentId })).rejects.toThrow(
        `Document with id "${articles.enOnly.documentId}", locale "fr" not found`
      );
      const fr = (await get('/menus/main?locale=fr').expect(200)).body.data;
      expect(JSON.stringify(fr)).not.toContain('A propos');
    });

    it('answers 404 Menu not found for a locale without the menu, a locale added later and an unknown slug; 400 for an unknown locale', async () => {
      const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Menu not found' } };
      expect((await get('/menus/main?locale=de').expect(404)).body).toMatchObject(notFound);
      expect((await get('/menus/nope?locale=fr').expect(404)).body).toMatchObject(notFound);
      expect(await addLocales(app.strapi, LATER)).toEqual(['de', 'en', 'es', 'fr']);
      expect((await get('/menus/main?locale=es').expect(404)).body).toMatchObject(notFound);
      for (const query of ['locale=xx', 'locale=fr&locale=de', 'locale[fr]=1']) {
        const bad = await get(`/menus/main?${query}`).expect(400);
        expect(bad.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Unknown locale supplied' });
      }
    });

    it('keeps the en items untouched by fr edits, and applies a shared attribute (order) to every locale version', async () => {
      await documents(ITEM).update({ documentId: items.blog.documentId, locale: 'fr', data: { title: 'Blogue v2', url: '/fr/blogue' } as never } as never);
      await documents(ITEM).update({ documentId: items.home.documentId, locale: 'fr', data: { order: 9 } as never } as never);

      const en = (await get('/menus/main?locale=en').expect(200)).body.data;
      expect(find(en.items, 'Blog')).toMatchObject({ url: '/en/Blog' });
      expect(find(en.items, 'Home')).toMatchObject({ order: 9 });
      expect(shape(en.items)).toEqual([['Blog', ['News']], 'About', 'Home']);

      const fr = (await get('/menus/main?locale=fr').expect(200)).body.data;
      expect(shape(fr.items)).toEqual([['Blogue v2', ['Nouveautes']], 'Accueil']);
      expect(find(fr.items, 'Accueil')).toMatchObject({ order: 9 });

      await documents(ITEM).update({ documentId: items.home.documentId, locale: 'en', data: { order: 0 } as never } as never);
      expect(shape((await get('/menus/main?locale=fr').expect(200)).body.data.items)).toEqual(['Accueil', ['Blogue v2', ['Nouveautes']]]);
    });

    it('reads an fr menu with a fixed number of queries, however many items it has', async () => {
      const small = (await documents(MENU).create({ locale: 'fr', data: { title: 'Petit', slug: 'petit' } as never } as never)) as Doc;
      await insertMenuItems(app.strapi, small, 'petit-', 3, false, 'fr');
      const large = (await documents(MENU).create({ locale: 'fr', data: { title: 'Grand', slug: 'grand' } as never } as never)) as Doc;
      await insertMenuItems(app.strapi, large, 'grand-', 500, true, 'fr');
      const countQueries = async (slug: string) => {
        let queries = 0;
        const onQuery = forRequests(() => {
          queries += 1;
        });
        app.strapi.db.connection.on('query', onQuery);
        try {
          const res = await get(`/menus/${slug}?locale=fr`).expect(200);
          return { queries, data: res.body.data };
        } finally {
          app.strapi.db.connection.removeListener('query', onQuery);
        }
      };
      const smallRun = await countQueries('petit');
      const largeRun = await countQueries('grand');
      expect(smallRun.data.items).toHaveLength(3);
      expect(largeRun.data).toMatchObject({ locale: 'fr', items: [{ title: 'grand-0' }] });
      expect(largeRun.queries).toBe(smallRun.queries);
    });

    it('answers GraphQL bagMenu(slug, locale) as REST does', async () => {
      for (const locale of ['en', 'fr']) {
        const gql = await graphql<{ bagMenu: Record<string, unknown> }>(app, MENU_QUERY, { slug: 'main', locale });
        expect(gql.errors).toBeUndefined();
        const { locale: served, ...rest } = (await get(`/menus/main?locale=${locale}`).expect(200)).body.data;
        expect(served).toBe(locale);
        expect(gql.data!.bagMenu).toEqual(rest);
      }
      const expectError = (res: GraphqlResponse, code: string, message: string) => {
        expect(res.errors).toHaveLength(1);
        expect(res.errors![0]).toMatchObject({ message, extensions: { code } });
      };
      expectError(await graphql(app, MENU_QUERY, { slug: 'main', locale: 'de' }), 'STRAPI_NOT_FOUND_ERROR', 'Menu not found');
      expectError(await graphql(app, MENU_QUERY, { slug: 'main', locale: 'xx' }), 'BAD_USER_INPUT', 'Unknown locale supplied');
    });
  });

  describe('with content.localeFallback on', () => {
    beforeAll(async () => {
      await app.stop({ keepDatabase: true });
      app = await setupStrapi({ env: { GRAPHQL: 'after' }, config: { content: { localeFallback: true } }, databaseFile: app.databaseFile });
    });

    it('serves the default locale’s menu, saying `locale: en`, to a locale without it, the one added later included', async () => {
      const en = (await get('/menus/main?locale=en').expect(200)).body.data;
      expect(en.locale).toBe('en');
      for (const locale of ['es', 'de']) {
        const served = (await get(`/menus/main?locale=${locale}`).expect(200)).body.data;
        expect(served).toEqual(en);
      }
      const gql = await graphql<{ bagMenu: Record<string, unknown> }>(app, MENU_QUERY, { slug: 'main', locale: 'es' });
      expect(gql.errors).toBeUndefined();
      const { locale: _served, ...rest } = en;
      expect(gql.data!.bagMenu).toEqual(rest);
    });

    it('still serves a locale’s own version, and still answers 404 for a slug no locale has and 400 for an unknown locale', async () => {
      const fr = (await get('/menus/main?locale=fr').expect(200)).body.data;
      expect(fr).toMatchObject({ title: 'Principal', locale: 'fr' });
      expect(shape(fr.items)).toEqual(['Accueil', ['Blogue v2', ['Nouveautes']]]);
      // fr-only menu: no fallback the other way.
      expect((await get('/menus/petit?locale=fr').expect(200)).body.data.locale).toBe('fr');
      await get('/menus/petit?locale=es').expect(404);
      expect((await get('/menus/nope?locale=es').expect(404)).body.error.message).toBe('Menu not found');
      expect((await get('/menus/main?locale=xx').expect(400)).body.error.message).toBe('Unknown locale supplied');
    });
  });
});
