/**
 * The operation limits the plugin puts on GraphQL operations that touch its types (docs/graphql.md, "Operation
 * limits"): at most `graphql.maxRootFields` root fields of the plugin, the host's `depthLimit` or 10 levels, a cost
 * bound, all refused before any resolver runs; and one view per document per operation, however many aliases read it.
 * The host's own `depthLimit` is left unset here (GRAPHQL_DEPTH_LIMIT=unset) so that the plugin's limit is what refuses.
 */
import { ARTICLE, createArticle } from '../helpers/comments';
import { createDocument } from '../helpers/fixtures';
import { graphql, GRAPHQL_ORDERS, type GraphqlResponse } from '../helpers/graphql';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const PAGE = `${PLUGIN}.page`;
const CATEGORY = `${PLUGIN}.category`;

/** `count` aliases of one root field, `a0: field … a1: field …`. */
const aliases = (count: number, field: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ')} }`;

/**
 * A query `depth` levels deep (graphql-depth-limit's measure: a root field holding only scalars is 0 deep, and each
 * selection set below it adds one): a category, its articles, their category, … one of each, a scalar at the bottom.
 */
const nested = (depth: number) => {
  let selection = 'slug';
  for (let level = depth - 1; level >= 1; level -= 1) {
    const field = level % 2 === 1 ? 'articles(pagination: { limit: 1 })' : 'category';
    selection = `${field} { slug ${selection} }`;
  }
  return `{ cmsPluginBagCategories(pagination: { limit: 1 }) { slug ${selection} } }`;
};

/** The validation error the host's Apollo server answers with: HTTP 400, nothing resolved. */
const expectRefused = (res: GraphqlResponse, message: RegExp) => {
  expect(res.status).toBe(400);
  expect(res.data).toBeUndefined();
  expect(res.errors).toHaveLength(1);
  expect(res.errors![0].message).toMatch(message);
  expect(res.errors![0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
};

describe.each(GRAPHQL_ORDERS)('GraphQL operation limits of cms-plugin-bag (GraphQL plugin %s it)', (order) => {
  let app: TestApp;
  let article: { documentId: string; slug: string };
  let page: { documentId: string; slug: string };

  beforeAll(async () => {
    app = await setupStrapi({ env: { GRAPHQL: order, GRAPHQL_DEPTH_LIMIT: 'unset' } });
    const created = await createArticle(app.strapi);
    article = { documentId: created.documentId, slug: created.slug as string };
    const createdPage = await createDocument(app.strapi, PAGE, { title: 'Limits page', slug: `limits-page-${order}` });
    page = { documentId: createdPage.documentId, slug: createdPage.slug as string };
    // A chain deep enough for the depth tests: a category holding the article, which points back to it.
    const category = await createDocument(app.strapi, CATEGORY, { title: 'Limits', slug: `limits-${order}` });
    await app.strapi.documents(ARTICLE as never).update({ documentId: article.documentId, data: { category: category.documentId } } as never);
    await app.strapi.documents(ARTICLE as never).publish({ documentId: article.documentId } as never);
  });
  afterAll(async () => {
    await app.stop();
  });

  const viewsOf = async (uid: string, documentId: string) =>
    ((await app.strapi.documents(uid as never).findOne({ documentId, status: 'published' } as never)) as unknown as { views: number }).views;
  const articleField = () => `bagArticle(slug: "${article.slug}") { views }`;

  it('refuses 2,000 aliases of bagArticle before resolving any: no view counted', async () => {
    const before = await viewsOf(ARTICLE, article.documentId);
    const res = await graphql(app, aliases(2000, articleField()));
    expectRefused(res, /^Operation has 2000 root fields of cms-plugin-bag; at most 20 are allowed$/);
    expect(await viewsOf(ARTICLE, article.documentId)).toBe(before);
  });

  it('counts one view per document for one operation, whatever the aliases; REST still counts every read', async () => {
    const before = await viewsOf(ARTICLE, article.documentId);
    const pageBefore = await viewsOf(PAGE, page.documentId);
    const query = `{ ${[0, 1, 2, 3, 4].map((i) => `a${i}: ${articleField()}`).join(' ')}
      p0: bagPage(slug: "${page.slug}") { views } p1: bagPage(slug: "${page.slug}") { views } }`;
    const res = await graphql<Record<string, { views: number }>>(app, query);
    expect(res.errors).toBeUndefined();
    // Every alias shows the count that includes the operation's one view.
    expect([0, 1, 2, 3, 4].map((i) => res.data![`a${i}`].views)).toEqual(Array(5).fill(before + 1));
    expect([res.data!.p0.views, res.data!.p1.views]).toEqual([pageBefore + 1, pageBefore + 1]);
    expect(await viewsOf(ARTICLE, article.documentId)).toBe(before + 1);
    expect(await viewsOf(PAGE, page.documentId)).toBe(pageBefore + 1);

    // The next operation counts again, and so does each REST read.
    expect((await graphql<Record<string, { views: number }>>(app, aliases(2, articleField()))).data!.a1.views).toBe(before + 2);
    expect((await app.request().get(`/api/bag/articles/${article.slug}`).expect(200)).body.data.views).toBe(before + 3);
    expect((await app.request().get(`/api/bag/articles/${article.slug}`).expect(200)).body.data.views).toBe(before + 4);
  });

  it('allows 20 root fields of the plugin and refuses 21, fragments and generated queries counted', async () => {
    const twenty = await graphql(app, aliases(20, articleField()));
    expect(twenty.status).toBe(200);
    expect(twenty.errors).toBeUndefined();
    expect(Object.keys(twenty.data!)).toHaveLength(20);

    const before = await viewsOf(ARTICLE, article.documentId);
    const mixed = `{ ${Array.from({ length: 10 }, (_, i) => `a${i}: ${articleField()}`).join(' ')} ...More }
      fragment More on Query { ${Array.from({ length: 11 }, (_, i) => `t${i}: cmsPluginBagTags { slug }`).join(' ')} }`;
    expectRefused(await graphql(app, mixed), /^Operation has 21 root fields of cms-plugin-bag; at most 20 are allowed$/);
    expect(await viewsOf(ARTICLE, article.documentId)).toBe(before);
  });

  it('refuses an operation 11 levels deep and answers one 10 levels deep', async () => {
    const ten = await graphql<{ cmsPluginBagCategories: Array<{ slug: string }> }>(app, nested(10));
    expect(ten.errors).toBeUndefined();
    expect(ten.data!.cmsPluginBagCategories.length).toBeGreaterThan(0);
    expectRefused(await graphql(app, nested(11)), /^Operation is 11 levels deep; at most 10 are allowed$/);
  });

  it('refuses a depth hidden in fragments', async () => {
    const query = `{ cmsPluginBagCategories { ...C } }
      fragment C on CmsPluginBagCategory { articles { category { articles { category { articles { category { articles { category { articles { category { articles { slug } } } } } } } } } } } }`;
    expectRefused(await graphql(app, query), /^Operation is 12 levels deep; at most 10 are allowed$/);
  });

  it('refuses an operation whose lists multiply beyond the cost bound, and answers a smaller page of it', async () => {
    const query = (limit: number) =>
      `{ cmsPluginBagCategories(pagination: { limit: ${limit} }) { slug articles(pagination: { limit: ${limit} }) { title slug summary content } } }`;
    // 1 + 100 categories × (slug + articles + 100 articles × 4 fields) = 40,201.
    expectRefused(await graphql(app, query(100)), /^Operation costs 40201; at most 20000 are allowed/);
    const small = await graphql(app, query(10));
    expect(small.errors).toBeUndefined();
  });

  it('leaves operations on other types alone', async () => {
    const res = await graphql(app, aliases(25, '__typename'));
    expect(res.errors).toBeUndefined();
    expect(Object.keys(res.data!)).toHaveLength(25);
  });
});

describe('GraphQL operation limits of cms-plugin-bag, configured, with the host depthLimit set', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({
      env: { GRAPHQL: 'after', GRAPHQL_DEPTH_LIMIT: '12' },
      config: { graphql: { maxRootFields: 2, maxCost: 100 } },
    });
  });
  afterAll(async () => {
    await app.stop();
  });

  it("follows the host's depthLimit: 12 levels answered, 13 refused", async () => {
    expect((await graphql(app, nested(12))).errors).toBeUndefined();
    const res = await graphql(app, nested(13));
    expect(res.status).toBe(400);
    expect(res.errors![0].extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
  });

  it('takes graphql.maxRootFields and graphql.maxCost from the configuration', async () => {
    expect((await graphql(app, aliases(2, 'cmsPluginBagTags(pagination: { limit: 5 }) { slug }'))).errors).toBeUndefined();
    expectRefused(await graphql(app, aliases(3, 'cmsPluginBagTags { slug }')), /^Operation has 3 root fields of cms-plugin-bag; at most 2 are allowed$/);
    // 1 + 50 tags × 2 fields = 101.
    expectRefused(await graphql(app, '{ cmsPluginBagTags(pagination: { limit: 50 }) { slug title } }'), /^Operation costs 101; at most 100 are allowed/);
  });
});
