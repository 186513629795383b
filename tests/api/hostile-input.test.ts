/**
 * Requests an attacker would send to the public GET routes: query shapes that would make the database do unbounded
 * work, and malformed values that used to end in a 500. Each must be a 4xx in the host's error shape; stored data
 * stays as it was.
 */
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

const expectHostError = (response: { status: number; body: ErrorBody }, status: number) => {
  expect({ status: response.status, name: response.body?.error?.name }).toEqual({
    status,
    name: status === 404 ? 'NotFoundError' : 'ValidationError',
  });
  expect(response.body.data).toBeNull();
  expect(response.body.error.status).toBe(status);
};

/** The attack from the issue: ten relation hops in the dotted form, which the query parser's depth limit misses. */
const DEEP_POPULATE = 'tags.articles.tags.articles.tags.articles.tags.articles.tags.articles.tags';
/** Ten to-one hops: only the depth cap stops these. */
const DEEP_FILTER = `filters[category]${'[parent]'.repeat(9)}[title][$contains]=x`;

describe('relation depth of list queries (content.maxRelationDepth)', () => {
  let app: TestApp;
  const get = (path: string) => app.request().get(path);

  beforeAll(async () => {
    app = await setupStrapi({ seed: true });
  });
  afterAll(() => app?.stop());

  it('refuses the issue\'s ten-hop dotted populate with 400 naming populate', async () => {
    const response = await get(`/api/bag/articles?pagination[pageSize]=1&fields[0]=slug&populate=${DEEP_POPULATE}`);
    expectHostError(response, 400);
    expect(response.body.error.details).toMatchObject({ param: 'populate', path: 'tags.articles' });
  });

  it.each([
    ['dotted populate, three hops', '/api/bag/articles?populate=category.parent.parent', 'populate'],
    ['populate array', '/api/bag/articles?populate[0]=tags&populate[1]=category.parent.parent', 'populate'],
    ['bracket populate', '/api/bag/articles?populate[category][populate][parent][populate][parent]=true', 'populate'],
    ['dotted inside brackets', '/api/bag/articles?populate[category][populate]=parent.parent', 'populate'],
    ['populate of a page', '/api/bag/pages?populate=cover.folder.parent', 'populate'],
    ['filters of a page', '/api/bag/pages?filters[cover][folder][parent][name][$eq]=x', 'filters'],
    ['filters', `/api/bag/articles?${DEEP_FILTER}`, 'filters'],
    ['filters, three hops', '/api/bag/articles?filters[category][parent][parent][slug][$eq]=x', 'filters'],
    ['filters under $or', '/api/bag/articles?filters[$or][0][category][parent][parent][slug]=x', 'filters'],
    ['filters inside a populate', '/api/bag/articles?populate[category][filters][parent][parent][slug]=x', 'populate'],
    ['dotted sort', '/api/bag/articles?sort=category.parent.parent.title:asc', 'sort'],
    ['sort object', '/api/bag/articles?sort[0][category][parent][parent][title]=asc', 'sort'],
  ])('refuses a %s deeper than 2 relations with 400 naming the parameter', async (_name, url, param) => {
    const response = await get(url);
    expectHostError(response, 400);
    expect(response.body.error.message).toContain(param);
    expect(response.body.error.details).toMatchObject({ param, maxRelationDepth: 2 });
  });

  it.each([
    ['to-many after to-many, dotted', '/api/bag/articles?populate=tags.articles', 'populate', 'tags.articles'],
    ['to-many after to-many, brackets', '/api/bag/articles?populate[tags][populate][articles]=true', 'populate', 'tags.articles'],
    ['to-many after a to-one', '/api/bag/articles?populate[category][populate][articles]=true', 'populate', 'category.articles'],
    ['every relation behind a relation', '/api/bag/articles?populate[category][populate]=*', 'populate', 'category.*'],
    ['filters through two to-many', '/api/bag/articles?filters[tags][articles][slug][$null]=false', 'filters', 'tags.articles'],
    ['filters through a to-one to a to-many', '/api/bag/articles?filters[category][articles][title][$containsi]=a', 'filters', 'category.articles'],
    ['filters inside a populate', '/api/bag/articles?populate[tags][filters][articles][slug]=x', 'populate', 'tags.articles'],
    ['dotted sort', '/api/bag/articles?sort=category.children.title:asc', 'sort', 'category.children'],
  ])('refuses a %s (content.nestedToMany) with 400 naming the parameter', async (_name, url, param, path) => {
    const response = await get(url);
    expectHostError(response, 400);
    expect(response.body.error.message).toBe(
      `Invalid ${param}: ${path} reaches a to-many relation through another relation, which content.nestedToMany does not allow`
    );
    expect(response.body.error.details).toMatchObject({ param, path, nestedToMany: false });
  });

  it.each([
    ['two populate hops', '/api/bag/articles?populate=category.parent'],
    ['two bracket populate hops', '/api/bag/articles?populate[category][populate][parent]=true'],
    ['a to-many first hop', '/api/bag/articles?populate[tags]=true&filters[tags][slug][$null]=false&sort=tags.title:asc'],
    ['two filter hops', '/api/bag/articles?filters[category][parent][slug][$null]=false'],
    ['a filter and a populate, two hops each', '/api/bag/articles?populate[category][populate]=parent&filters[category][parent][slug][$ne]=x'],
    ['a to-one sort two hops deep', '/api/bag/articles?sort=category.parent.title:asc'],
    ['a media populate on pages', '/api/bag/pages?populate=cover'],
  ])('serves %s', async (_name, url) => {
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body.data)).toBe(true);
  });
});

describe('a raised content.maxRelationDepth', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ config: { content: { maxRelationDepth: 3 } } });
  });
  afterAll(() => app?.stop());

  it('allows three hops and refuses four', async () => {
    expect((await app.request().get('/api/bag/articles?populate=category.parent.parent')).status).toBe(200);
    const refused = await app.request().get('/api/bag/articles?populate=category.parent.parent.parent');
    expectHostError(refused, 400);
    expect(refused.body.error.details).toMatchObject({ param: 'populate', maxRelationDepth: 3 });
  });
});

describe('content.nestedToMany: true', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await setupStrapi({ seed: true, config: { content: { maxRelationDepth: 3, nestedToMany: true } } });
  });
  afterAll(() => app?.stop());

  it('serves a to-many relation behind another one, within the depth cap', async () => {
    const served = await app.request().get('/api/bag/articles?populate[tags][populate][articles][fields][0]=slug');
    expect(served.status).toBe(200);
    const tagged = (served.body.data as { tags: { articles: { slug: string }[] }[] }[]).flatMap((article) => article.tags);
    expect(tagged.some((tag) => tag.articles.length > 0)).toBe(true);
    const refused = await app.request().get('/api/bag/articles?populate=tags.articles.tags.articles');
    expectHostError(refused, 400);
    expect(refused.body.error.details).toMatchObject({ param: 'populate', maxRelationDepth: 3 });
  });

  it('still refuses an author e-mail reached through nested lists', async () => {
    const response = await app.request().get('/api/bag/articles?populate[tags][populate][articles][populate][author][fields]=email');
    expectHostError(response, 400);
    expect(JSON.stringify(response.body)).not.toContain('@');
  });
});

describe('malformed input on every public GET route', () => {
  let app: TestApp;
  let articlesBefore: unknown[];
  const ARTICLE = `${PLUGIN}.article`;

  const snapshot = () => app.strapi.db.query(ARTICLE as never).findMany({ orderBy: { id: 'asc' } });

  beforeAll(async () => {
    app = await setupStrapi({ seed: true });
    articlesBefore = await snapshot();
  });
  afterAll(() => app?.stop());

  const LISTS = ['/api/bag/articles', '/api/bag/pages'];

  /** Query strings whose values cannot mean anything for the attribute: each is the caller's mistake. */
  const BAD_QUERIES = [
    'filters[views][$gt]=abc',
    'filters[views][$in][0]=1&filters[views][$in][1]=x',
    'filters[views][$between][0]=1&filters[views][$between][1]=zz',
    'filters[views][$eq]=1e400',
    'filters[views][$lt]=99999999999999999999999',
    'filters[id][$eq]=abc',
    'filters[publishedAt][$gt]=not-a-date',
    'filters[createdAt][$lte]=2024-13-45',
    'filters[title][$contains]=%00',
    'filters[title][$eq]=a%00b',
    'filters[slug][$in][0]=%00',
    'sort=title%00:asc',
    'populate=%00',
    'fields[0]=%00',
    'filters[title][$unknown]=x',
    'filters[$or]=x',
    'filters[$not]=x',
    'pagination[page]=abc',
    'pagination[pageSize]=-1',
    'pagination[start]=1.5',
  ];

  const cases = LISTS.flatMap((list) => BAD_QUERIES.map((query) => [list, query] as const));

  it.each(cases)('%s?%s → 400', async (list, query) => {
    expectHostError(await app.request().get(`${list}?${query}`), 400);
  });

  /** Path segments no document can have (a label, the path, the status). */
  const BAD_PATHS = [
    ['/api/bag/articles/%00', 400],
    ['/api/bag/articles/a%00b', 400],
    ['/api/bag/pages/%00', 400],
    ['/api/bag/menus/%00', 400],
    ['/api/bag/banners/%00', 400],
    ['/api/bag/articles/%00/comments', 400],
    ['/api/bag/articles/99999999999999999999/comments', 404],
    ['/api/bag/articles/-1/comments', 404],
    ['/api/bag/articles/1.5/comments', 404],
    ['/api/bag/articles/<5,000 characters>', 404],
    ['/api/bag/menus/<5,000 characters>', 404],
  ] as const;

  it.each(BAD_PATHS)('%s → %i', async (label, status) => {
    expectHostError(await app.request().get(label.replace('<5,000 characters>', 'x'.repeat(5000))), status);
  });

  /**
   * Routes that take no query parameters ignore them, hostile or not; a NUL character is refused anywhere in a URL
   * of the plugin's.
   */
  it.each(['/api/bag/banners', '/api/bag/banners/home', '/api/bag/categories', '/api/bag/tags', '/api/bag/menus/main'])(
    '%s ignores hostile query parameters and refuses a NUL character',
    async (path) => {
      for (const query of BAD_QUERIES) {
        const response = await app.request().get(`${path}?${query}`);
        const status = query.includes('%00') ? 400 : 200;
        expect({ query, status: response.status }).toEqual({ query, status });
      }
    }
  );

  it('refuses a NUL character in the URL of the plugin\'s other routes', async () => {
    expectHostError(await app.request().get('/api/cms-plugin-bag/auth/captcha-image?x=%00'), 400);
  });

  it.each([
    ['/api/bag/comments', () => ({ article: articlesBefore[0] && (articlesBefore[0] as { documentId: string }).documentId, content: 'a\u0000b' })],
    ['/api/bag/comments', () => ({ article: '99999999999999999999', content: 'hello' })],
    ['/api/cms-plugin-bag/auth/login', () => ({ identifier: 'a\u0000b', password: 'x' })],
    ['/api/cms-plugin-bag/auth/send-code', () => ({ identifier: 'a\u0000b@example.com' })],
  ])('POST %s with a body no row can hold → 400', async (path, body) => {
    expectHostError(await app.request().post(path).send(body()), 400);
  });

  it('left every article as it was', async () => {
    expect(await snapshot()).toEqual(articlesBefore);
  });
});
