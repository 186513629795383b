/**
 * The plugin's own GraphQL queries and mutation with the host's GraphQL plugin loaded before and
 * after cms-plugin-bag: every answer compared with the REST route's answer for the same caller, the shared view
 * counter and flood counter, the comment rules of `POST /api/bag/comments`, and the Users & Permissions actions that gate each field.
 */
import type { Core } from '@strapi/strapi';
import { ARTICLE, COMMENT, createArticle, seedComments } from '../helpers/comments';
import { adminToken, createDocument, createUser, jwtFor, setPermission, type TestUser } from '../helpers/fixtures';
import { graphql, GRAPHQL_ORDERS, type GraphqlResponse } from '../helpers/graphql';
import { insertMenuItems } from '../helpers/menus';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const MAX_LENGTH = 60;
const FLOOD_MAX = 5;
const THREAD_PAGE_SIZE = 3;
const UA = 'GraphqlTestBrowser/1.0 (gql-ua-marker)';

const MEDIA = `{ id documentId name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata createdAt updatedAt publishedAt }`;
const TAXONOMY = `{ id documentId title slug description locale createdAt updatedAt publishedAt }`;
const ARTICLE_QUERY = `query Article($slug: String!, $locale: String) {
  bagArticle(slug: $slug, locale: $locale) {
    id documentId title slug summary content isTop views commentCount locale localizations { locale slug } createdAt updatedAt publishedAt
    cover ${MEDIA} category ${TAXONOMY} tags ${TAXONOMY} author { id documentId username }
  }
}`;
const PAGE_QUERY = `query Page($slug: String!) {
  bagPage(slug: $slug) { id documentId title slug content seoTitle seoKeywords seoDescription views locale localizations { locale slug } createdAt updatedAt publishedAt cover ${MEDIA} }
}`;
const MENU_QUERY = `query Menu($slug: String!) { bagMenu(slug: $slug) { id documentId title slug locale items } }`;
const NODE = `id documentId content createdAt isAdmin likes replyCount editedAt pinned deleted contentHtml author { id documentId username }`;
const THREAD_QUERY = `query Thread($article: ID!, $pageSize: Int, $after: String) {
  bagCommentThread(article: $article, pageSize: $pageSize, after: $after) {
    data { ${NODE} replies { ${NODE} } }
    meta { pagination { pageSize hasMore next } total }
  }
}`;
const CREATE_COMMENT = `mutation Create($data: BagCommentInput!) {
  bagCreateComment(data: $data) { id documentId content status createdAt isAdmin parent { id documentId } article { id documentId } }
}`;

/** REST bodies omit keys the GraphQL answer lists with null (an empty optional field). */
const withoutNulls = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
};

/** The one GraphQL error of a response, with its code and the message REST gives. */
const expectError = (res: GraphqlResponse, code: string, message: string) => {
  expect(res.errors).toHaveLength(1);
  expect(res.errors![0]).toMatchObject({ message, extensions: { code } });
};

type DeepNode = { title: string; children: DeepNode[]; [key: string]: unknown };
type Answer<K extends string> = Record<K, Record<string, unknown> | null>;

describe.each(GRAPHQL_ORDERS)('GraphQL queries of cms-plugin-bag (GraphQL plugin %s it)', (order) => {
  let app: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  let user: TestUser;
  let userJwt: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    app = await setupStrapi({
      env: { GRAPHQL: order, ...smtp.env },
      seed: true,
      config: {
        comments: { maxLength: MAX_LENGTH, notifications: { publicUrl: 'https://cms.example.test', replies: true } },
        rateLimit: { comment: { interval: '1m', max: FLOOD_MAX } },
      },
    });
    admin = await adminToken(app);
    user = await createUser(app.strapi);
    userJwt = jwtFor(app.strapi, user);
  });
  afterAll(async () => {
    await app.stop();
    await smtp.stop();
  });

  const rest = (path: string, token?: string) => {
    const req = app.request().get(path);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req;
  };
  const viewsOf = async (uid: string, documentId: string) =>
    ((await app.strapi.documents(uid as never).findOne({ documentId, status: 'published' } as never)) as unknown as { views: number }).views;
  const clearFloodCounters = () => app.strapi.db.query(`${PLUGIN}.rate-limit` as never).deleteMany({});
  const setStatus = (documentIds: string[], status: string) =>
    app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status }).expect(200);
  const settings = (strapi: Core.Strapi) => strapi.plugin('cms-plugin-bag').service('settings');

  describe('bagArticle', () => {
    let article: { documentId: string; slug: string };

    beforeAll(async () => {
      const cover = await app.strapi.db.query('plugin::upload.file').create({
        data: { name: 'gql.png', hash: 'gql_hash', ext: '.png', mime: 'image/png', size: 2.5, url: '/uploads/gql.png', provider: 'local', width: 8, height: 6 },
      });
      const category = await createDocument(app.strapi, `${PLUGIN}.category`, { title: 'GQL category', slug: 'gql-category', description: 'about' });
      const tag = await createDocument(app.strapi, `${PLUGIN}.tag`, { title: 'GQL tag', slug: 'gql-tag' });
      const created = await createDocument(app.strapi, ARTICLE, {
        title: 'GraphQL article',
        slug: `graphql-article-${order}`,
        summary: 'Read through GraphQL',
        content: '# Body',
        cover: cover.id,
        category: category.documentId,
        tags: [tag.documentId],
        author: user.documentId,
      });
      article = { documentId: created.documentId, slug: created.slug as string };
      // A draft change that is never published: neither API may show it.
      await app.strapi.documents(ARTICLE as never).update({ documentId: article.documentId, data: { title: 'Unpublished title' } } as never);
    });

    it.each([
      ['a guest', undefined],
      ['a user', 'user'],
    ])('answers %s what REST answers (published version, author without e-mail, cover, relations)', async (_who, who) => {
      const token = who ? userJwt : undefined;
      const gql = await graphql<Answer<'bagArticle'>>(app, ARTICLE_QUERY, { slug: article.slug }, token);
      expect(gql.errors).toBeUndefined();
      const body = (await rest(`/api/bag/articles/${article.slug}`, token).expect(200)).body.data;
      // The REST read came second: one more view.
      expect(body.views).toBe((gql.data!.bagArticle!.views as number) + 1);
      expect(withoutNulls({ ...gql.data!.bagArticle, views: body.views })).toEqual(withoutNulls(body));
      expect(body.title).toBe('GraphQL article');
      expect(body.author).toEqual({ id: user.id, documentId: user.documentId, username: user.username });
      expect(body.cover).toMatchObject({ url: '/uploads/gql.png', width: 8, height: 6 });
      expect(body.tags).toHaveLength(1);
    });

    it('counts a view per read, on the one counter REST counts on', async () => {
      const before = await viewsOf(ARTICLE, article.documentId);
      const seen: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await graphql<Answer<'bagArticle'>>(app, ARTICLE_QUERY, { slug: article.slug });
        seen.push(res.data!.bagArticle!.views as number);
      }
      expect(seen).toEqual([before + 1, before + 2, before + 3]);
      expect((await rest(`/api/bag/articles/${article.slug}`).expect(200)).body.data.views).toBe(before + 4);
      expect(await viewsOf(ARTICLE, article.documentId)).toBe(before + 4);
    });

    it('takes the default locale as an argument and answers the same article as without it', async () => {
      const res = await graphql<Answer<'bagArticle'>>(app, ARTICLE_QUERY, { slug: article.slug, locale: 'en' });
      expect(res.errors).toBeUndefined();
      expect(res.data!.bagArticle).toMatchObject({ documentId: article.documentId, title: 'GraphQL article' });
    });

    it('answers `Article not found` for an unknown slug and for a draft-only article, counting nothing', async () => {
      const draft = await createArticle(app.strapi, { publish: false });
      for (const slug of ['no-such-article', draft.slug as string]) {
        expect((await rest(`/api/bag/articles/${slug}`).expect(404)).body.error.message).toBe('Article not found');
        const res = await graphql<Answer<'bagArticle'>>(app, ARTICLE_QUERY, { slug });
        expectError(res, 'STRAPI_NOT_FOUND_ERROR', 'Article not found');
        expect(res.data!.bagArticle).toBeNull();
      }
      const row = await app.strapi.db.query(ARTICLE as never).findOne({ where: { documentId: draft.documentId } });
      expect(row.views).toBe(0);
    });

    it('has no e-mail on its author type: asking for it is refused by the schema', async () => {
      const res = await graphql(app, `query($slug: String!) { bagArticle(slug: $slug) { author { email } } }`, { slug: article.slug });
      expect(res.errors![0].message).toMatch(/Cannot query field "email" on type "BagAuthor"/);
    });

    it('is forbidden to a role whose article.findOne is revoked, as REST is, and counts no view', async () => {
      const before = await viewsOf(ARTICLE, article.documentId);
      await setPermission(app.strapi, 'public', `${PLUGIN}.article.findOne`, false);
      try {
        await rest(`/api/bag/articles/${article.slug}`).expect(403);
        const res = await graphql<Answer<'bagArticle'>>(app, ARTICLE_QUERY, { slug: article.slug });
        expectError(res, 'FORBIDDEN', 'Forbidden access');
        // The authenticated role keeps it.
        expect((await graphql<Answer<'bagArticle'>>(app, ARTICLE_QUERY, { slug: article.slug }, userJwt)).errors).toBeUndefined();
        expect(await viewsOf(ARTICLE, article.documentId)).toBe(before + 1);
      } finally {
        await setPermission(app.strapi, 'public', `${PLUGIN}.article.findOne`, true);
      }
      expect((await graphql(app, ARTICLE_QUERY, { slug: article.slug })).errors).toBeUndefined();
    });
  });

  describe('bagPage', () => {
    it('answers what REST answers and counts a view per read on the shared counter', async () => {
      const gql = await graphql<Answer<'bagPage'>>(app, PAGE_QUERY, { slug: 'about' });
      expect(gql.errors).toBeUndefined();
      const body = (await rest('/api/bag/pages/about').expect(200)).body.data;
      expect(body.views).toBe((gql.data!.bagPage!.views as number) + 1);
      expect(withoutNulls({ ...gql.data!.bagPage, views: body.views })).toEqual(withoutNulls(body));
      const again = await graphql<Answer<'bagPage'>>(app, PAGE_QUERY, { slug: 'about' });
      expect(again.data!.bagPage!.views).toBe(body.views + 1);
      expect(await viewsOf(`${PLUGIN}.page`, body.documentId)).toBe(body.views + 1);
    });

    it('answers `Page not found` for an unknown slug', async () => {
      expect((await rest('/api/bag/pages/nowhere').expect(404)).body.error.message).toBe('Page not found');
      expectError(await graphql(app, PAGE_QUERY, { slug: 'nowhere' }), 'STRAPI_NOT_FOUND_ERROR', 'Page not found');
    });

    it('is forbidden when page.findOne is revoked', async () => {
      await setPermission(app.strapi, 'public', `${PLUGIN}.page.findOne`, false);
      try {
        await rest('/api/bag/pages/about').expect(403);
        expectError(await graphql(app, PAGE_QUERY, { slug: 'about' }), 'FORBIDDEN', 'Forbidden access');
      } finally {
        await setPermission(app.strapi, 'public', `${PLUGIN}.page.findOne`, true);
      }
    });
  });

  describe('bagMenu', () => {
    it('answers the menu and the same item tree as REST', async () => {
      const gql = await graphql<Answer<'bagMenu'>>(app, MENU_QUERY, { slug: 'main' });
      expect(gql.errors).toBeUndefined();
      const body = (await rest('/api/bag/menus/main').expect(200)).body.data;
      expect(gql.data!.bagMenu).toEqual(body);
      const items = body.items as { title: string; children: { title: string; children: { title: string }[] }[] }[];
      expect(items.map((item) => item.title)).toEqual(['Home', 'Blog', 'About', 'GitHub']);
      expect(items[1].children[1].children[0].title).toBe('Frontend');
    });

    it('answers a 10,000-deep item chain as REST does', async () => {
      const deep = await app.strapi.documents(`${PLUGIN}.menu` as never).create({ data: { title: 'Deep', slug: 'deep' } as never });
      await insertMenuItems(app.strapi, deep as unknown as { id: number }, 'deep-', 10_000, true);
      const gql = await graphql<Answer<'bagMenu'>>(app, MENU_QUERY, { slug: 'deep' });
      expect(gql.status).toBe(200);
      expect(gql.errors).toBeUndefined();
      const body = (await rest('/api/bag/menus/deep').expect(200)).body.data;
      let node = (gql.data!.bagMenu!.items as DeepNode[])[0];
      let restNode = (body.items as DeepNode[])[0];
      let depth = 1;
      while (node.children.length > 0) {
        const { children, ...fields } = node;
        const { children: restChildren, ...restFields } = restNode;
        expect(fields).toEqual(restFields);
        expect(children).toHaveLength(restChildren.length);
        node = children[0];
        restNode = restChildren[0];
        depth += 1;
      }
      expect(depth).toBe(10_000);
      expect(node.title).toBe('deep-9999');
    });

    it('answers `Menu not found` for an unknown slug, and Forbidden when menu.findOne is revoked', async () => {
      expect((await rest('/api/bag/menus/nowhere').expect(404)).body.error.message).toBe('Menu not found');
      expectError(await graphql(app, MENU_QUERY, { slug: 'nowhere' }), 'STRAPI_NOT_FOUND_ERROR', 'Menu not found');
      await setPermission(app.strapi, 'public', `${PLUGIN}.menu.findOne`, false);
      try {
        await rest('/api/bag/menus/main').expect(403);
        expectError(await graphql(app, MENU_QUERY, { slug: 'main' }), 'FORBIDDEN', 'Forbidden access');
      } finally {
        await setPermission(app.strapi, 'public', `${PLUGIN}.menu.findOne`, true);
      }
    });
  });

  describe('bagCommentThread', () => {
    let article: { id: number; documentId: string };

    beforeAll(async () => {
      const created = await createArticle(app.strapi);
      article = { id: created.id as number, documentId: created.documentId };
      // 7 approved roots (one pending, hidden), replies under the first roots.
      await seedComments(app.strapi, article.documentId, [
        ...Array.from({ length: 7 }, (_, i) => ({ content: `root ${i}`, parentIndex: null })),
        { content: 'pending root', status: 'pending' as const, parentIndex: null },
        { content: 'reply a', parentIndex: 0 },
        { content: 'reply b', parentIndex: 0 },
        { content: 'reply c', parentIndex: 6 },
        { content: 'pending reply', status: 'pending' as const, parentIndex: 6 },
      ]);
    });

    const page = (variables: Record<string, unknown>, token?: string) =>
      graphql<{ bagCommentThread: { data: { content: string }[]; meta: { pagination: { next: string | null; hasMore: boolean } } } }>(
        app,
        THREAD_QUERY,
        variables,
        token
      );

    it('answers each page and its cursor as the REST paged thread does, to the last page', async () => {
      let after: string | undefined;
      const contents: string[] = [];
      for (let pages = 1; pages <= 10; pages += 1) {
        const gql = await page({ article: article.documentId, pageSize: THREAD_PAGE_SIZE, after });
        expect(gql.errors).toBeUndefined();
        const query = `pagination[pageSize]=${THREAD_PAGE_SIZE}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const body = (await rest(`/api/bag/articles/${article.documentId}/comments?${query}`).expect(200)).body;
        expect(withoutNulls(gql.data!.bagCommentThread)).toEqual(withoutNulls(body));
        contents.push(...body.data.map((node: { content: string }) => node.content));
        if (!body.meta.pagination.hasMore) break;
        after = gql.data!.bagCommentThread.meta.pagination.next!;
      }
      expect(contents).toEqual(['root 6', 'root 5', 'root 4', 'root 3', 'root 2', 'root 1', 'root 0']);
    });

    it('without pageSize answers the default page, as REST with a paging parameter; a numeric article id works too', async () => {
      const gql = await page({ article: String(article.id) });
      const body = (await rest(`/api/bag/articles/${article.id}/comments?sort=createdAt:desc`).expect(200)).body;
      expect(withoutNulls(gql.data!.bagCommentThread)).toEqual(withoutNulls(body));
      expect(body.data[0].replies.map((reply: { content: string }) => reply.content)).toEqual(['reply c']);
    });

    it('refuses what REST refuses, with its messages', async () => {
      expectError(await page({ article: article.documentId, after: 'forged.cursor' }), 'BAD_USER_INPUT', 'after is not a valid cursor');
      expect((await rest(`/api/bag/articles/${article.documentId}/comments?after=forged.cursor`).expect(400)).body.error.message).toBe(
        'after is not a valid cursor'
      );
      expectError(await page({ article: article.documentId, pageSize: 0 }), 'BAD_USER_INPUT', 'pagination.pageSize must be an integer from 1 to 100');
      const draft = await createArticle(app.strapi, { publish: false });
      expectError(await page({ article: draft.documentId }), 'STRAPI_NOT_FOUND_ERROR', 'Article not found');
      expectError(await page({ article: 'no/such' }), 'STRAPI_NOT_FOUND_ERROR', 'Article not found');
    });

    it('is forbidden when comment.findByArticle is revoked, to users-permissions roles and API tokens alike', async () => {
      const tokens = app.strapi.service('admin::api-token') as { create(data: Record<string, unknown>): Promise<{ accessKey: string }> };
      const threadOnly = await tokens.create({
        name: `thread-only-${order}`,
        type: 'custom',
        lifespan: null,
        permissions: [`${PLUGIN}.comment.findByArticle`],
      });
      expect((await page({ article: article.documentId }, threadOnly.accessKey)).errors).toBeUndefined();
      expectError(await graphql(app, MENU_QUERY, { slug: 'main' }, threadOnly.accessKey), 'FORBIDDEN', 'Forbidden access');
      await rest('/api/bag/menus/main', threadOnly.accessKey).expect(403);

      await setPermission(app.strapi, 'authenticated', `${PLUGIN}.comment.findByArticle`, false);
      try {
        await rest(`/api/bag/articles/${article.documentId}/comments?sort=top`, userJwt).expect(403);
        expectError(await page({ article: article.documentId }, userJwt), 'FORBIDDEN', 'Forbidden access');
        expect((await page({ article: article.documentId })).errors).toBeUndefined();
      } finally {
        await setPermission(app.strapi, 'authenticated', `${PLUGIN}.comment.findByArticle`, true);
      }
    });
  });

  describe('bagCreateComment', () => {
    beforeEach(async () => {
      await clearFloodCounters();
    });

    const create = (data: Record<string, unknown>, token?: string) =>
      graphql<{ bagCreateComment: Record<string, any> | null }>(app, CREATE_COMMENT, { data }, token);
    const rowOf = (documentId: string) =>
      app.strapi.db.query(COMMENT as never).findOne({ where: { documentId }, populate: { author: true, parent: true } });

    it('creates a guest comment pending, answering what REST answers, and records the client as the server sees it', async () => {
      const article = await createArticle(app.strapi);
      const res = await app
        .request()
        .post('/graphql')
        .set('User-Agent', UA)
        .send({ query: CREATE_COMMENT, variables: { data: { content: '  Hello from GraphQL  ', article: article.documentId } } })
        .expect(200);
      expect(res.body.errors).toBeUndefined();
      const created = res.body.data.bagCreateComment;
      const viaRest = (await app.request().post('/api/bag/comments').send({ content: 'Hello from REST', article: article.documentId }).expect(201)).body.data;
      expect(Object.keys(created).sort()).toEqual(Object.keys(viaRest).sort());
      expect(created).toMatchObject({ content: 'Hello from GraphQL', status: 'pending', isAdmin: false, parent: null });
      expect(created.article).toEqual(viaRest.article);
      const row = await rowOf(created.documentId);
      expect(row).toMatchObject({ status: 'pending', isAdmin: false, userAgent: UA, author: null });
      expect(row.ip).toMatch(/127\.0\.0\.1$/);
      // Pending: not in the thread.
      const thread = await graphql<{ bagCommentThread: { data: unknown[] } }>(app, THREAD_QUERY, { article: article.documentId });
      expect(thread.data!.bagCommentThread.data).toEqual([]);
    });

    it("makes the token's user the author, and a reply to an approved comment shows up in both threads once approved", async () => {
      const article = await createArticle(app.strapi);
      const root = (await create({ content: 'root', article: article.documentId }, userJwt)).data!.bagCreateComment!;
      expect((await rowOf(root.documentId)).author).toMatchObject({ id: user.id });
      await setStatus([root.documentId], 'approved');
      const reply = await create({ content: 'reply', article: String(article.id), parent: root.documentId });
      expect(reply.errors).toBeUndefined();
      expect(reply.data!.bagCreateComment!.parent).toEqual({ id: root.id, documentId: root.documentId });
      await setStatus([reply.data!.bagCreateComment!.documentId], 'approved');
      const gql = await graphql<{ bagCommentThread: unknown }>(app, THREAD_QUERY, { article: article.documentId });
      const body = (await rest(`/api/bag/articles/${article.documentId}/comments?sort=createdAt:desc`).expect(200)).body;
      expect(withoutNulls(gql.data!.bagCommentThread)).toEqual(withoutNulls(body));
      expect(body.data[0]).toMatchObject({ content: 'root', author: { id: user.id, username: user.username }, replyCount: 1 });
    });

    it('has no status, isAdmin or author input: the schema refuses them and nothing is created', async () => {
      const article = await createArticle(app.strapi);
      for (const extra of [{ status: 'approved' }, { isAdmin: true }, { author: user.documentId }]) {
        const res = await create({ content: 'forged', article: article.documentId, ...extra });
        expect(res.errors![0].message).toMatch(/is not defined by type "BagCommentInput"/);
      }
      expect(await app.strapi.db.query(COMMENT as never).count({ where: { content: 'forged' } })).toBe(0);
    });

    it('starts comments approved with comments.autoApprove', async () => {
      const article = await createArticle(app.strapi);
      await settings(app.strapi).update({ comments: { autoApprove: true } });
      try {
        const res = await create({ content: 'auto', article: article.documentId });
        expect(res.data!.bagCreateComment!.status).toBe('approved');
        const thread = await graphql<{ bagCommentThread: { data: { content: string }[] } }>(app, THREAD_QUERY, { article: article.documentId });
        expect(thread.data!.bagCommentThread.data.map((node) => node.content)).toEqual(['auto']);
      } finally {
        await settings(app.strapi).update({ comments: { autoApprove: false } });
      }
    });

    it('refuses what REST refuses, with its messages: too long, empty, unpublished or unknown article, hidden parent', async () => {
      const article = await createArticle(app.strapi);
      const draft = await createArticle(app.strapi, { publish: false });
      const other = await createArticle(app.strapi);
      const tooLong = 'x'.repeat(MAX_LENGTH + 1);
      expectError(await create({ content: tooLong, article: article.documentId }), 'BAD_USER_INPUT', `content must be at most ${MAX_LENGTH} characters`);
      expectError(await create({ content: '   ', article: article.documentId }), 'BAD_USER_INPUT', 'content must not be empty');
      expectError(await create({ content: 'to nowhere', article: draft.documentId }), 'STRAPI_NOT_FOUND_ERROR', 'Article not found');
      expectError(await create({ content: 'to nowhere', article: 'nosucharticle' }), 'STRAPI_NOT_FOUND_ERROR', 'Article not found');
      await clearFloodCounters();

      const pending = (await create({ content: 'pending parent', article: article.documentId })).data!.bagCreateComment!;
      const rejected = (await create({ content: 'rejected parent', article: article.documentId })).data!.bagCreateComment!;
      await setStatus([rejected.documentId], 'rejected');
      const elsewhere = (await create({ content: 'elsewhere', article: other.documentId })).data!.bagCreateComment!;
      await setStatus([elsewhere.documentId], 'approved');
      await clearFloodCounters();
      for (const parent of [pending.documentId, rejected.documentId, String(elsewhere.id), 'missingparent000']) {
        expectError(await create({ content: 'hidden-parent reply', article: article.documentId, parent }), 'BAD_USER_INPUT', 'Parent comment not found');
      }
      const stored = await app.strapi.db.query(COMMENT as never).count({ where: { content: { $in: [tooLong, 'to nowhere', 'hidden-parent reply'] } } });
      expect(stored).toBe(0);
    });

    it('counts against rateLimit.comment per client IP, on the counter REST counts on', async () => {
      const article = await createArticle(app.strapi);
      const viaGraphql = (i: number) =>
        app.request().post('/graphql').send({ query: CREATE_COMMENT, variables: { data: { content: `flood ${i}`, article: article.documentId } } });
      for (let i = 1; i <= FLOOD_MAX - 2; i += 1) expect((await viaGraphql(i).expect(200)).body.errors).toBeUndefined();
      await app.request().post('/api/bag/comments').send({ content: 'flood rest 1', article: article.documentId }).expect(201);
      await app.request().post('/api/bag/comments').send({ content: 'flood rest 2', article: article.documentId }).expect(201);

      const refused = await viaGraphql(FLOOD_MAX + 1);
      expectError({ status: refused.status, data: refused.body.data, errors: refused.body.errors }, 'STRAPI_RATE_LIMIT_ERROR', 'Too many requests, please try again later.');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      const restRefused = await app.request().post('/api/bag/comments').send({ content: 'flood rest 3', article: article.documentId });
      expect(restRefused.status).toBe(429);
      expect(await app.strapi.db.query(COMMENT as never).count({ where: { content: { $in: [`flood ${FLOOD_MAX + 1}`, 'flood rest 3'] } } })).toBe(0);
    });

    it('mails the parent author when a GraphQL reply is approved, as a REST reply would', async () => {
      const author = await createUser(app.strapi);
      const article = await createArticle(app.strapi);
      const root = (await create({ content: 'notify me', article: article.documentId }, jwtFor(app.strapi, author))).data!.bagCreateComment!;
      await setStatus([root.documentId], 'approved');
      const reply = (await create({ content: 'a GraphQL reply', article: article.documentId, parent: root.documentId }, userJwt)).data!.bagCreateComment!;
      await setStatus([reply.documentId], 'approved');
      const mail = await smtp.nextMail(author.email);
      expect(mail.subject).toBe('New reply to your comment');
      expect(mail.text).toContain('a GraphQL reply');
    });

    it('is forbidden to a role whose comment.create is revoked, and creates nothing', async () => {
      const article = await createArticle(app.strapi);
      await setPermission(app.strapi, 'public', `${PLUGIN}.comment.create`, false);
      try {
        await app.request().post('/api/bag/comments').send({ content: 'revoked', article: article.documentId }).expect(403);
        expectError(await create({ content: 'revoked', article: article.documentId }), 'FORBIDDEN', 'Forbidden access');
        expect((await create({ content: 'allowed', article: article.documentId }, userJwt)).errors).toBeUndefined();
      } finally {
        await setPermission(app.strapi, 'public', `${PLUGIN}.comment.create`, true);
      }
      expect(await app.strapi.db.query(COMMENT as never).count({ where: { content: 'revoked' } })).toBe(0);
    });
  });
});
