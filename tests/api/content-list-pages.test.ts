/**
 * The article list at any size (docs/content.md#how-it-behaves): a page past the middle is read in the reversed order
 * from the end and put back in order, and must hold exactly what the forward read holds, for every page, with ties of
 * the sort keys, NULLs, filters and both kinds of pagination; and the total of a list without filters is kept per
 * type and locale until the content changes, so it follows every kind of write at once.
 */
import { createDocument } from '../helpers/fixtures';
import { addLocales, EXTRA_LOCALES } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const CATEGORY = `${PLUGIN}.category`;
const COUNT = 23;

type Doc = { id: number; documentId: string };

describe('article list pages past the middle, and the kept total', () => {
  let app: TestApp;
  const docs: Doc[] = [];
  const get = (path: string) => app.request().get(`/api/bag${path}`);

  /** The statements a request ran on the article table, with their bindings. */
  const statementsOf = async (path: string) => {
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const listener = (query: { sql: string; bindings?: unknown[] }) => {
      if (/bag_articles\b/.test(query.sql)) seen.push({ sql: query.sql, bindings: query.bindings ?? [] });
    };
    app.strapi.db.connection.on('query', listener);
    try {
      const res = await get(path).expect(200);
      return { body: res.body, seen };
    } finally {
      app.strapi.db.connection.removeListener('query', listener);
    }
  };

  beforeAll(async () => {
    app = await setupStrapi({ config: { cache: { enabled: false } } });
    const { strapi } = app;
    await addLocales(strapi, EXTRA_LOCALES.filter((locale) => locale.code === 'fr'));
    const tech = (await createDocument(strapi, CATEGORY, { title: 'Tech', slug: 'tech' })) as Doc;
    for (let n = 0; n < COUNT; n += 1) {
      // Ties everywhere: four titles, three publication times, every third one on top, every other one without a summary.
      const doc = (await createDocument(strapi, ARTICLE, {
        title: `T${n % 4}`,
        slug: `list-${n}`,
        isTop: n % 3 === 0,
        summary: n % 2 === 0 ? null : `S${n % 5}`,
        ...(n % 2 === 0 ? { category: tech.documentId } : {}),
      })) as Doc;
      docs.push(doc);
      await strapi.db
        .query(ARTICLE as never)
        .updateMany({ where: { documentId: doc.documentId, publishedAt: { $notNull: true } }, data: { publishedAt: new Date(Date.UTC(2024, 0, 1 + (n % 3))) } });
    }
    await createDocument(strapi, ARTICLE, { title: 'Draft', slug: 'list-draft' }, { publish: false });
  });

  afterAll(async () => {
    await app.stop();
  });

  const SORTS = ['', '&sort=title:asc', '&sort=summary:desc', '&sort[0]=title:desc&sort[1]=summary:asc', '&sort=publishedAt:asc', '&sort=isTop:asc,title:asc'];
  const FILTERS = ['', '&filters[category][slug][$eq]=tech', '&filters[title][$in][0]=T1&filters[title][$in][1]=T2'];

  it.each(SORTS.flatMap((sort) => FILTERS.map((filter) => [sort || '(default order)', filter || '(no filter)', sort, filter])))(
    'sort %s, filter %s: every page equals the forward read, by page and by start/limit',
    async (_sortName, _filterName, sort, filter) => {
      const all = await get(`/articles?pagination[pageSize]=100${sort}${filter}`).expect(200);
      const order = (all.body.data as { slug: string }[]).map((article) => article.slug);
      const total = all.body.meta.pagination.total as number;
      expect(order).toHaveLength(total);
      expect(total).toBeGreaterThan(3);
      for (const pageSize of [4, 5]) {
        const pageCount = Math.ceil(total / pageSize);
        for (let page = 1; page <= pageCount + 1; page += 1) {
          const res = await get(`/articles?pagination[page]=${page}&pagination[pageSize]=${pageSize}${sort}${filter}`).expect(200);
          expect({ page, slugs: res.body.data.map((article: { slug: string }) => article.slug) }).toEqual({
            page,
            slugs: order.slice((page - 1) * pageSize, page * pageSize),
          });
          expect(res.body.meta.pagination).toEqual({ page, pageSize, pageCount, total });
        }
      }
      for (const start of [total - 1, total - 3, Math.floor(total / 2), total]) {
        const res = await get(`/articles?pagination[start]=${start}&pagination[limit]=3${sort}${filter}`).expect(200);
        expect({ start, slugs: res.body.data.map((article: { slug: string }) => article.slug) }).toEqual({ start, slugs: order.slice(start, start + 3) });
      }
    }
  );

  it('reads the last page with an offset counted from the end, not past every row before it', async () => {
    const { body, seen } = await statementsOf(`/articles?pagination[page]=6&pagination[pageSize]=4`);
    expect(body.data).toHaveLength(COUNT - 20);
    const offsets = seen.filter((s) => /\boffset\b/i.test(s.sql)).map((s) => Number(s.bindings[s.bindings.length - 1]));
    expect(seen.length).toBeGreaterThan(0);
    for (const offset of offsets) expect(offset).toBeLessThan(COUNT / 2);
  });

  it('counts a list without filters once per content version, and follows a publish, an unpublish, a delete and a Query Engine write', async () => {
    // The list's total (its articles counted); the page's comment counts (`commentCount`) are another statement.
    const countsIn = (seen: { sql: string }[]) => seen.filter((s) => /count\(/i.test(s.sql) && !/bag_comments/.test(s.sql)).length;
    const total = async () => {
      const { body, seen } = await statementsOf('/articles?pagination[pageSize]=2');
      return { total: body.meta.pagination.total as number, counts: countsIn(seen) };
    };
    const first = await total();
    expect(first.total).toBe(COUNT);
    expect(await total()).toEqual({ total: COUNT, counts: 0 });
    // A filtered list is still counted every time.
    expect(countsIn((await statementsOf('/articles?filters[title][$eq]=T1')).seen)).toBe(1);

    const documents = app.strapi.documents(ARTICLE as never);
    await createDocument(app.strapi, ARTICLE, { title: 'New', slug: 'list-new' });
    expect((await total()).total).toBe(COUNT + 1);
    await documents.unpublish({ documentId: docs[0].documentId } as never);
    expect((await total()).total).toBe(COUNT);
    await documents.delete({ documentId: docs[1].documentId } as never);
    expect((await total()).total).toBe(COUNT - 1);
    await app.strapi.db.query(ARTICLE as never).deleteMany({ where: { documentId: docs[2].documentId, publishedAt: { $notNull: true } } });
    expect((await total()).total).toBe(COUNT - 2);
    // Another locale's list has its own total.
    expect((await get('/articles?locale=fr').expect(200)).body.meta.pagination.total).toBe(0);
    await documents.update({ documentId: docs[3].documentId, locale: 'fr', data: { title: 'Fr', slug: 'list-fr' } } as never);
    await documents.publish({ documentId: docs[3].documentId, locale: 'fr' } as never);
    expect((await get('/articles?locale=fr').expect(200)).body.meta.pagination.total).toBe(1);
    expect((await total()).total).toBe(COUNT - 2);
  });
});
