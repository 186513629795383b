/**
 * What the plugin keeps in memory per version stamp besides the response cache (features/cache/kept-by-version.ts):
 * the total of a list without filters, the sitemap's page boundaries and the total of an article's comment roots. Two instances (A, B) and the test file's own
 * instance on one PostgreSQL database, the response cache off on all three so every read reaches the plugin's code:
 * after each write on another instance (publish, unpublish, delete, Query Engine delete), A and B answer the exact
 * total and sitemap pages that hold exactly the rows an offset read gives; after each comment write on another
 * instance (moderation, a new root, a Query Engine write), the exact number of roots.
 */
import { createDocument } from '../helpers/fixtures';
import { COMMENT, createArticle, seedComments } from '../helpers/comments';
import { startTwoInstances, type Instance, type TwoInstances } from '../helpers/instances';
import { parseXml, text } from '../helpers/discovery';
import { PLUGIN, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const SITE = 'https://www.example.com';
const CONFIG = {
  cache: { enabled: false },
  site: { url: SITE, paths: { article: '/articles/{slug}', page: '/{slug}', category: '/categories/{slug}', tag: '/tags/{slug}' } },
  sitemap: { pageSize: 2 },
};

type Doc = { id: number; documentId: string };

describe('kept totals and sitemap boundaries across instances on one PostgreSQL database', () => {
  let setup: TestApp;
  let a: Instance;
  let b: Instance;
  let instances: TwoInstances;

  beforeAll(async () => {
    instances = await startTwoInstances({ config: CONFIG });
    ({ setup, a, b } = instances);
  }, 240_000);
  afterAll(() => instances?.stop());

  /** The published English articles' slugs in row-id order, read from the database. */
  const expected = async () => {
    const rows = (await setup.strapi.db.query(ARTICLE as never).findMany({
      select: ['slug'],
      where: { publishedAt: { $notNull: true }, locale: 'en' },
      orderBy: { id: 'asc' },
    })) as { slug: string }[];
    return rows.map((row) => row.slug);
  };

  const totalOn = async (on: Instance) => (await on.request().get('/api/bag/articles?pagination[pageSize]=1').expect(200)).body.meta.pagination.total as number;

  const sitemapOn = async (on: Instance) => {
    const index = parseXml((await on.request().get('/api/bag/sitemap.xml').expect(200)).text);
    const count = index.sitemapindex ? (index.sitemapindex.sitemap.length as number) : 1;
    const pages: string[][] = [];
    for (let n = 1; n <= count; n += 1) {
      const page = parseXml((await on.request().get(`/api/bag/sitemaps/${n}.xml`).expect(200)).text);
      pages.push((page.urlset.url ?? []).map((url: any) => text(url.loc).slice(`${SITE}/articles/`.length)));
    }
    return pages;
  };

  const split = (slugs: string[]) => Array.from({ length: Math.ceil(slugs.length / 2) }, (_, i) => slugs.slice(i * 2, i * 2 + 2));

  it('after every kind of write on another instance, both answer the exact total and exact sitemap pages', async () => {
    const docs: Doc[] = [];
    for (let n = 0; n < 7; n += 1) docs.push((await createDocument(setup.strapi, ARTICLE, { title: `K${n}`, slug: `kept-${n}` })) as Doc);
    const documents = setup.strapi.documents(ARTICLE as never);
    const writes: [string, () => Promise<unknown>][] = [
      ['publish', () => createDocument(setup.strapi, ARTICLE, { title: 'K7', slug: 'kept-7' })],
      ['unpublish', () => documents.unpublish({ documentId: docs[1].documentId } as never)],
      ['delete', () => documents.delete({ documentId: docs[3].documentId } as never)],
      ['publish again', () => documents.publish({ documentId: docs[1].documentId } as never)],
      [
        'Query Engine delete',
        () => setup.strapi.db.query(ARTICLE as never).deleteMany({ where: { documentId: docs[0].documentId, publishedAt: { $notNull: true } } }),
      ],
    ];
    for (const [name, write] of writes) {
      // Both instances hold the total and the boundaries of the content before the write.
      for (const on of [a, b]) {
        expect(await totalOn(on)).toBe((await expected()).length);
        await sitemapOn(on);
      }
      await write();
      const slugs = await expected();
      for (const on of [a, b]) {
        expect({ name, on: on.name, total: await totalOn(on) }).toEqual({ name, on: on.name, total: slugs.length });
        expect({ name, on: on.name, pages: await sitemapOn(on) }).toEqual({ name, on: on.name, pages: split(slugs) });
      }
    }
  });

  it('after every comment write on another instance, both answer the exact number of an article\'s roots', async () => {
    const article = await createArticle(setup.strapi);
    const ids = await seedComments(
      setup.strapi,
      article.documentId,
      Array.from({ length: 6 }, (_, i) => ({ content: `root ${i}`, status: i < 4 ? ('approved' as const) : ('pending' as const), parentIndex: null })),
    );
    // The helper links with knex, which no version follows: one Query Engine write after it.
    await setup.strapi.db.query(COMMENT as never).updateMany({ where: { id: { $in: ids } }, data: { likes: 0 } });
    const rootsOn = async (on: Instance) =>
      (await on.request().get(`/api/bag/articles/${article.documentId}/comments?pagination[pageSize]=2`).expect(200)).body.meta.total as number;
    const approvedRoots = () => setup.strapi.db.query(COMMENT as never).count({ where: { id: { $in: ids }, status: 'approved' } });
    const comments = setup.strapi.documents(COMMENT as never);
    const documentIdOf = async (id: number) => ((await setup.strapi.db.query(COMMENT as never).findOne({ where: { id } })) as { documentId: string }).documentId;
    const writes: [string, () => Promise<unknown>][] = [
      ['approve', async () => comments.update({ documentId: await documentIdOf(ids[4]), data: { status: 'approved' } } as never)],
      ['reject', async () => comments.update({ documentId: await documentIdOf(ids[0]), data: { status: 'rejected' } } as never)],
      ['Query Engine write', () => setup.strapi.db.query(COMMENT as never).updateMany({ where: { id: ids[5] }, data: { status: 'approved' } })],
      ['delete', async () => comments.delete({ documentId: await documentIdOf(ids[1]) } as never)],
    ];
    for (const [name, write] of writes) {
      for (const on of [a, b]) expect(await rootsOn(on)).toBe(await approvedRoots());
      await write();
      const want = await approvedRoots();
      for (const on of [a, b]) expect({ name, on: on.name, roots: await rootsOn(on) }).toEqual({ name, on: on.name, roots: want });
    }
  });
});
