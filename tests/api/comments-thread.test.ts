/**
 * Paged comment threads (`/api/bag/articles/:id/comments?sort=…&pagination[pageSize]=…&after=…`), replies pages
 * (`/api/bag/comments/:id/replies`), counts for many articles (`/api/bag/comments/counts`) and the REST envelope
 * on POST /api/bag/comments. Real Strapi, real database (SQLite, or PostgreSQL with DATABASE_CLIENT=postgres).
 */
import { createClient, memoryStorage } from 'cms-plugin-bag/client';
import { adminToken, createUser, jwtFor } from '../helpers/fixtures';
import { COMMENT, createArticle, seedComments } from '../helpers/comments';
import { forRequests } from '../helpers/statements';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const UA = 'ThreadTestBrowser/1.0 (thread-ua-marker)';
const PAGE_SIZE = 4;
const MAX_PAGE_SIZE = 30;
const SHOWN_REPLIES = 2;
const ROOT_KEYS = ['author', 'content', 'contentHtml', 'createdAt', 'deleted', 'documentId', 'editedAt', 'id', 'isAdmin', 'likes', 'pinned', 'replies', 'replyCount'];
const REPLY_KEYS = ROOT_KEYS.filter((key) => key !== 'replies');

type Status = 'pending' | 'approved' | 'rejected';
type Node = { id: number; documentId: string; content: string; likes: number; replyCount: number; replies?: Node[]; [key: string]: unknown };
type Page = { data: Node[]; meta: { pagination: { pageSize: number; hasMore: boolean; next: string | null }; total: number } };

describe('paged comment threads', () => {
  let app: TestApp;
  let admin: string;

  const get = (path: string) => app.request().get(path);
  const rootsPage = (article: string, params: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
    return get(`/api/bag/articles/${article}/comments?${search}`);
  };
  const setStatus = (documentIds: string[], status: Status) =>
    app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status }).expect(200);
  const rowsOf = (ids: number[]) =>
    app.strapi.db.query(COMMENT as never).findMany({ where: { id: { $in: ids } }, select: ['id', 'documentId', 'createdAt', 'likes'] });
  const setColumn = (ids: number[], data: Record<string, unknown>) =>
    app.strapi.db.query(COMMENT as never).updateMany({ where: { id: { $in: ids } }, data });

  /** Walks every page with the cursor; fails on a page that is not 200. `between` runs after the first page. */
  const walk = async (article: string, sort: string | undefined, pageSize: number, between?: () => Promise<void>) => {
    const seen: Node[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await rootsPage(article, { sort, 'pagination[pageSize]': pageSize, after });
      expect(res.status).toBe(200);
      const body = res.body as Page;
      expect(body.data.length).toBeLessThanOrEqual(pageSize);
      expect(body.meta.pagination.pageSize).toBe(pageSize);
      seen.push(...body.data);
      pages += 1;
      if (pages === 1 && between) await between();
      if (!body.meta.pagination.hasMore) {
        expect(body.meta.pagination.next).toBeNull();
        return { seen, pages, last: body };
      }
      expect(typeof body.meta.pagination.next).toBe('string');
      after = body.meta.pagination.next!;
      if (pages > 100) throw new Error('cursor does not advance');
    }
  };

  beforeAll(async () => {
    app = await setupStrapi({
      config: {
        comments: { thread: { pageSize: PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE, replies: SHOWN_REPLIES } },
        rateLimit: { comment: { interval: '1m', max: 100_000 } },
      },
    });
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  /**
   * 13 approved roots, 3 pending and 2 rejected roots, with likes (ties included) and three roots sharing one
   * createdAt, so every sort needs its tie-breakers.
   */
  const seedRoots = async ({ replies = 0 }: { replies?: number } = {}) => {
    const article = await createArticle(app.strapi);
    const statuses: Status[] = [...Array(13).fill('approved'), 'pending', 'pending', 'pending', 'rejected', 'rejected'];
    // Interleave the hidden ones among the approved ones.
    const order = [0, 13, 1, 2, 16, 3, 4, 5, 14, 6, 7, 8, 17, 9, 10, 15, 11, 12];
    const rows: { content: string; status: Status; parentIndex: number | null }[] = [
      ...order.map((index) => ({ content: `root ${index}`, status: statuses[index], parentIndex: null })),
      // Optional bulk: approved replies under the first root (not roots themselves).
      ...Array.from({ length: replies }, (_, i) => ({ content: `filler ${i}`, status: 'approved' as Status, parentIndex: 0 })),
    ];
    const ids = await seedComments(app.strapi, article.documentId, rows);
    const likes = [3, 0, 5, 3, 1, 0, 3, 8, 2, 0, 5, 1, 0, 4, 3, 2, 0, 7];
    for (let i = 0; i < order.length; i += 1) await setColumn([ids[i]], { likes: likes[i] });
    const tied = new Date(Date.now() + 60_000);
    await setColumn([ids[3], ids[4], ids[5]], { createdAt: tied });
    const stored = await rowsOf(ids.slice(0, order.length));
    const approved = stored.filter((row: { id: number }) => rows[ids.indexOf(row.id)].status === 'approved');
    return { article, ids, rows, approved: approved as { id: number; documentId: string; createdAt: string; likes: number }[] };
  };

  const time = (row: { createdAt: string | Date }) => new Date(row.createdAt).getTime();
  const expectedOrder = (rows: { id: number; createdAt: string; likes: number }[], sort: string) =>
    [...rows]
      .sort((a, b) => {
        if (sort === 'top' && a.likes !== b.likes) return b.likes - a.likes;
        const byTime = time(a) - time(b) || a.id - b.id;
        return sort === 'createdAt:asc' ? byTime : -byTime;
      })
      .map((row) => row.id);

  describe('pages of roots', () => {
    /** The first page of an article's roots and the SQL knex sent while it was answered. */
    const firstPageWithStatements = async (article: string) => {
      const statements: string[] = [];
      const listener = (query: { sql: string }) => statements.push(query.sql);
      app.strapi.db.connection.on('query', listener);
      try {
        const body = (await rootsPage(article, { 'pagination[pageSize]': PAGE_SIZE }).expect(200)).body as Page;
        return { body, statements };
      } finally {
        app.strapi.db.connection.off('query', listener);
      }
    };

    it.each(['createdAt:desc', 'createdAt:asc', 'top'])('lists every approved root exactly once, in order, sorted by %s', async (sort) => {
      const { article, approved } = await seedRoots();
      const { seen, pages, last } = await walk(article.documentId, sort, PAGE_SIZE);
      expect(seen.map((node) => node.id)).toEqual(expectedOrder(approved, sort));
      expect(pages).toBe(Math.ceil(13 / PAGE_SIZE));
      expect(last.meta.total).toBe(13);
      for (const node of seen) {
        expect(Object.keys(node).sort()).toEqual(ROOT_KEYS);
        expect(node.likes).toBe(approved.find((row) => row.id === node.id)!.likes);
      }
    });

    it('pages the same through the status index (an article with most comments) and through its links', async () => {
      const threads = app.strapi.plugin('cms-plugin-bag').service('comment-threads');
      const maxId = async () => Number((await app.strapi.db.connection(app.strapi.db.metadata.get(COMMENT).tableName).max({ maxId: 'id' }))[0].maxId);
      const big = await seedRoots({ replies: (await maxId()) + 50 });
      const small = await seedRoots();
      expect(await threads.planOf(big.article.documentId)).toBe('index');
      expect(await threads.planOf(big.article.id)).toBe('index');
      expect(await threads.planOf(small.article.documentId)).toBe('links');
      for (const { article, approved } of [big, small]) {
        for (const sort of ['createdAt:desc', 'createdAt:asc', 'top']) {
          const { seen, last } = await walk(article.documentId, sort, 5);
          expect([sort, seen.map((node) => node.id)]).toEqual([sort, expectedOrder(approved, sort)]);
          expect(last.meta.total).toBe(13);
        }
      }
    });

    it('reads the pinned roots on a first page only when one of the article\'s comments is pinned', async () => {
      const { article, approved } = await seedRoots();
      const firstPage = async () => {
        const { body, statements } = await firstPageWithStatements(article.documentId);
        return { ids: body.data.map((node) => node.id), unions: statements.filter((sql) => /union all/i.test(sql)).length };
      };
      const newestFirst = expectedOrder(approved, 'createdAt:desc');
      expect(await firstPage()).toEqual({ ids: newestFirst.slice(0, PAGE_SIZE), unions: 0 });

      const oldest = newestFirst[newestFirst.length - 1];
      await setColumn([oldest], { pinnedAt: new Date() });
      expect(await firstPage()).toEqual({ ids: [oldest, ...newestFirst.slice(0, PAGE_SIZE - 1)], unions: 1 });
    });

    it('counts an article\'s roots once until a comment or the content changes, and follows moderation, a new root and a Query Engine write', async () => {
      const { article, approved } = await seedRoots();
      const total = async () => {
        const { body, statements } = await firstPageWithStatements(article.documentId);
        return { total: body.meta.total, counts: statements.filter((sql) => /^select count\(/i.test(sql.trim())).length };
      };
      expect((await total()).total).toBe(approved.length);
      expect(await total()).toEqual({ total: approved.length, counts: 0 });

      await setStatus([approved[0].documentId], 'rejected');
      expect(await total()).toEqual({ total: approved.length - 1, counts: 1 });
      await setStatus([approved[0].documentId], 'approved');
      expect((await total()).total).toBe(approved.length);
      // The helper links the new comment with knex, which no version follows; the Query Engine write after it is.
      const [added] = await seedComments(app.strapi, article.documentId, [{ content: 'one more root', status: 'approved', parentIndex: null }]);
      await setColumn([added], { status: 'approved' });
      expect((await total()).total).toBe(approved.length + 1);
      await setColumn([approved[1].id], { status: 'pending' });
      expect((await total()).total).toBe(approved.length);
      // A write to the content (another article) moves the version too: counted again, same total.
      await createArticle(app.strapi);
      expect(await total()).toEqual({ total: approved.length, counts: 1 });
    });

    it('defaults to newest first and comments.thread.pageSize when only one paging parameter is given', async () => {
      const { article, approved } = await seedRoots();
      const res = await rootsPage(article.documentId, { sort: '' }).expect(200);
      expect(res.body.data.map((node: Node) => node.id)).toEqual(expectedOrder(approved, 'createdAt:desc').slice(0, PAGE_SIZE));
      expect(res.body.meta).toEqual({ pagination: { pageSize: PAGE_SIZE, hasMore: true, next: expect.any(String) }, total: 13 });
      const uncounted = await rootsPage(article.documentId, { 'pagination[withCount]': 'false' }).expect(200);
      expect(uncounted.body.meta).toEqual({ pagination: { pageSize: PAGE_SIZE, hasMore: true, next: expect.any(String) } });
      expect(uncounted.body.data).toEqual(res.body.data);
      const byNumericId = await rootsPage(String(article.id), { 'pagination[pageSize]': 2 }).expect(200);
      expect(byNumericId.body.data.map((node: Node) => node.id)).toEqual(expectedOrder(approved, 'createdAt:desc').slice(0, 2));
    });

    it.each(['createdAt:desc', 'createdAt:asc'])(
      'keeps the cursor stable when comments are approved between pages (%s): no duplicates, no skipped older rows',
      async (sort) => {
        const { article, ids, rows, approved } = await seedRoots();
        const pendingIds = ids.filter((_, i) => rows[i].status === 'pending');
        const expected = expectedOrder(approved, sort);
        const firstPage = expected.slice(0, PAGE_SIZE);
        // A pending root that sorts after the first page; approving it must bring it into a later page.
        const pendingRows = await rowsOf(pendingIds);
        const cursorRow = approved.find((row) => row.id === firstPage[PAGE_SIZE - 1])!;
        const later = pendingRows.find((row: { createdAt: string }) =>
          sort === 'createdAt:desc' ? time(row) < time(cursorRow) : time(row) > time(cursorRow)
        )!;
        expect(later).toBeDefined();
        let fresh: { id: number } | undefined;

        const { seen } = await walk(article.documentId, sort, PAGE_SIZE, async () => {
          await setStatus([later.documentId], 'approved');
          const created = await app
            .request()
            .post('/api/bag/comments')
            .send({ content: 'brand new', article: article.documentId })
            .expect(201);
          await setStatus([created.body.data.documentId], 'approved');
          fresh = created.body.data;
        });
        const seenIds = seen.map((node) => node.id);
        expect(new Set(seenIds).size).toBe(seenIds.length);
        const [freshRow] = await rowsOf([fresh!.id]);
        // Newest first: the new comment sorts before the cursor and waits for a fresh walk. Oldest first: it is
        // after the cursor, so this walk reaches it.
        expect(seenIds).toEqual(expectedOrder(sort === 'createdAt:desc' ? [...approved, later] : [...approved, later, freshRow], sort));
        expect(seenIds.includes(fresh!.id)).toBe(sort === 'createdAt:asc');
      }
    );

    it('embeds the first replies oldest first with reply counts that skip pending and rejected branches', async () => {
      const article = await createArticle(app.strapi);
      const rows: { content: string; status?: Status; parentIndex: number | null }[] = [
        { content: 'root', parentIndex: null }, // 0
        { content: 'reply a', parentIndex: 0 }, // 1
        { content: 'reply b (pending)', status: 'pending', parentIndex: 0 }, // 2
        { content: 'reply c', parentIndex: 0 }, // 3
        { content: 'reply d (rejected)', status: 'rejected', parentIndex: 0 }, // 4
        { content: 'reply e', parentIndex: 0 }, // 5
        { content: 'a.1', parentIndex: 1 }, // 6
        { content: 'a.2 (pending)', status: 'pending', parentIndex: 1 }, // 7
        { content: 'a.3', parentIndex: 1 }, // 8
        { content: 'b.1 under a pending reply', parentIndex: 2 }, // 9
        { content: 'quiet root', parentIndex: null }, // 10
      ];
      const ids = await seedComments(app.strapi, article.documentId, rows);
      const res = await rootsPage(article.documentId, { sort: 'createdAt:asc' }).expect(200);
      expect(res.body.meta.total).toBe(2);
      const [root, quiet] = res.body.data as Node[];
      expect(root.id).toBe(ids[0]);
      expect(root.replyCount).toBe(3);
      expect(root.replies!.map((reply) => reply.id)).toEqual([ids[1], ids[3]]);
      expect(root.replies!.map((reply) => reply.replyCount)).toEqual([2, 0]);
      for (const reply of root.replies!) expect(Object.keys(reply).sort()).toEqual(REPLY_KEYS);
      expect(quiet).toMatchObject({ id: ids[10], replyCount: 0, replies: [] });
      // The full tree shows the same approved nodes.
      const tree = await get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
      expect(tree.body.meta.total).toBe(7);
    });

    it('keeps the full tree\'s nodes to the documented keys: likes are on paged nodes only', async () => {
      const article = await createArticle(app.strapi);
      const ids = await seedComments(app.strapi, article.documentId, [
        { content: 'root', parentIndex: null },
        { content: 'reply', parentIndex: 0 },
      ]);
      await setColumn([ids[1]], { likes: 7 });
      const tree = await get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
      expect(tree.body.data[0]).not.toHaveProperty('likes');
      expect(tree.body.data[0].children[0]).not.toHaveProperty('likes');
      const page = await get(`/api/bag/articles/${article.documentId}/comments?sort=top`).expect(200);
      expect(page.body.data[0].replies[0].likes).toBe(7);
    });

    it('answers 404 for an unknown or unpublished article, as the tree does', async () => {
      const draft = await createArticle(app.strapi, { publish: false });
      for (const id of [draft.documentId, 'nosuchdocument000000000', '999999']) {
        const res = await rootsPage(id, { 'pagination[pageSize]': 5 });
        expect(res.status).toBe(404);
        expect(res.body.error).toMatchObject({ status: 404, name: 'NotFoundError', message: 'Article not found' });
      }
    });

    it('refuses malformed paging parameters with 400 in the host error shape', async () => {
      const { article } = await seedRoots();
      const first = await rootsPage(article.documentId, { 'pagination[pageSize]': 2 }).expect(200);
      const cursor = first.body.meta.pagination.next as string;
      const [payload, mac] = cursor.split('.');
      const forged = Buffer.from(JSON.stringify(['d', 0, 1])).toString('base64url');
      const cases: [Record<string, string>, string][] = [
        [{ after: 'garbage' }, 'after'],
        [{ after: `${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}` }, 'after'],
        [{ after: `${forged}.${mac}` }, 'after'],
        [{ after: `${payload}.${mac}.x` }, 'after'],
        [{ after: cursor, sort: 'createdAt:asc' }, 'after'],
        [{ after: cursor, sort: 'top' }, 'after'],
        [{ 'pagination[pageSize]': '0' }, 'pagination.pageSize'],
        [{ 'pagination[pageSize]': String(MAX_PAGE_SIZE + 1) }, 'pagination.pageSize'],
        [{ 'pagination[pageSize]': 'ten' }, 'pagination.pageSize'],
        [{ 'pagination[pageSize]': '-1' }, 'pagination.pageSize'],
        [{ 'pagination[page]': '2' }, 'pagination.page'],
        [{ 'pagination[withCount]': 'yes' }, 'pagination.withCount'],
        [{ sort: 'likes:desc' }, 'sort'],
        [{ sort: 'createdAt' }, 'sort'],
      ];
      for (const [params, path] of cases) {
        const res = await rootsPage(article.documentId, params);
        expect([params, res.status]).toEqual([params, 400]);
        expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
        expect(res.body.error.details.errors[0].path).toEqual([path]);
      }
      // Repeated parameters are refused too, not read as arrays.
      const twice = await get(`/api/bag/articles/${article.documentId}/comments?sort=top&sort=top`);
      expect(twice.status).toBe(400);
      // As Strapi's clients write a sort: a one-element list.
      await get(`/api/bag/articles/${article.documentId}/comments?sort[0]=top`).expect(200);
      // The same cursor with its own sort still works.
      await rootsPage(article.documentId, { 'pagination[pageSize]': 2, after: cursor }).expect(200);
      await rootsPage(article.documentId, { 'pagination[pageSize]': String(MAX_PAGE_SIZE) }).expect(200);
    });

    it('never exposes ip, userAgent, reportCount or the author e-mail', async () => {
      const article = await createArticle(app.strapi);
      const user = await createUser(app.strapi);
      const root = await app.request().post('/api/bag/comments').set('User-Agent', UA)
        .set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).send({ content: 'mine', article: article.documentId }).expect(201);
      const reply = await app.request().post('/api/bag/comments').set('User-Agent', UA)
        .set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`)
        .send({ content: 'my reply', article: article.documentId, parent: root.body.data.documentId });
      // A reply to a pending comment is refused: approve first, then reply.
      expect(reply.status).toBe(400);
      await setStatus([root.body.data.documentId], 'approved');
      const approvedReply = await app.request().post('/api/bag/comments').set('User-Agent', UA)
        .set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`)
        .send({ content: 'my reply', article: article.documentId, parent: root.body.data.documentId }).expect(201);
      await setStatus([approvedReply.body.data.documentId], 'approved');
      await setColumn([root.body.data.id], { reportCount: 2 });

      const page = await rootsPage(article.documentId, { sort: 'top' }).expect(200);
      const replies = await get(`/api/bag/comments/${root.body.data.documentId}/replies`).expect(200);
      for (const res of [page, replies]) {
        const text = JSON.stringify(res.body);
        for (const secret of [UA, user.email, 'reportCount', '"ip"', 'userAgent', 'email', 'status']) expect(text).not.toContain(secret);
      }
      expect(page.body.data[0].author).toEqual({ id: user.id, documentId: user.documentId, username: user.username });
      expect(page.body.data[0].replies[0].author).toEqual({ id: user.id, documentId: user.documentId, username: user.username });
    });
  });

  describe('replies', () => {
    const seedThread = async (publish = true) => {
      const article = await createArticle(app.strapi, { publish });
      const rows: { content: string; status?: Status; parentIndex: number | null }[] = [
        { content: 'root', parentIndex: null }, // 0
        ...Array.from({ length: 7 }, (_, i) => ({ content: `reply ${i}`, parentIndex: 0 })), // 1..7
        { content: 'pending reply', status: 'pending', parentIndex: 0 }, // 8
        { content: 'reply 1.a', parentIndex: 2 }, // 9
        { content: 'reply 1.b (rejected)', status: 'rejected', parentIndex: 2 }, // 10
        { content: 'under pending', parentIndex: 8 }, // 11
        { content: 'pending root', status: 'pending', parentIndex: null }, // 12
        { content: 'under pending root', parentIndex: 12 }, // 13
      ];
      const ids = await seedComments(app.strapi, article.documentId, rows);
      return { article, ids };
    };

    it('pages through the approved direct replies oldest first with the cursor', async () => {
      const { ids } = await seedThread();
      const seen: Node[] = [];
      let after: string | undefined;
      for (let pages = 0; pages < 10; pages += 1) {
        const res = await get(`/api/bag/comments/${ids[0]}/replies?pagination[pageSize]=3${after ? `&after=${after}` : ''}`).expect(200);
        expect(res.body.meta.total).toBe(7);
        expect(res.body.data.length).toBeLessThanOrEqual(3);
        seen.push(...res.body.data);
        if (!res.body.meta.pagination.hasMore) break;
        after = res.body.meta.pagination.next;
      }
      expect(seen.map((node) => node.id)).toEqual(ids.slice(1, 8));
      expect(seen.map((node) => node.replyCount)).toEqual([0, 1, 0, 0, 0, 0, 0]);
      for (const node of seen) expect(Object.keys(node).sort()).toEqual(REPLY_KEYS);
    });

    it('finds the comment by documentId too and uses comments.thread.pageSize by default', async () => {
      const { ids } = await seedThread();
      const [root] = await rowsOf([ids[0]]);
      const res = await get(`/api/bag/comments/${root.documentId}/replies`).expect(200);
      expect(res.body.data.map((node: Node) => node.id)).toEqual(ids.slice(1, 1 + PAGE_SIZE));
      expect(res.body.meta.pagination).toEqual({ pageSize: PAGE_SIZE, hasMore: true, next: expect.any(String) });
      const nested = await get(`/api/bag/comments/${ids[2]}/replies`).expect(200);
      expect(nested.body.data.map((node: Node) => node.id)).toEqual([ids[9]]);
      expect(nested.body.meta).toEqual({ pagination: { pageSize: PAGE_SIZE, hasMore: false, next: null }, total: 1 });
    });

    it('answers 404 Comment not found for what the tree does not show', async () => {
      const { ids } = await seedThread();
      const draft = await seedThread(false);
      for (const id of [ids[8], ids[11], ids[12], ids[13], ids[10], draft.ids[0], 999_999, 'nosuchcomment', 'bad%20id']) {
        const res = await get(`/api/bag/comments/${id}/replies`);
        expect([id, res.status]).toEqual([id, 404]);
        expect(res.body.error).toMatchObject({ status: 404, name: 'NotFoundError', message: 'Comment not found' });
      }
    });

    it('refuses a malformed cursor, a cursor of a roots page and a sort other than oldest first', async () => {
      const { article, ids } = await seedThread();
      const roots = await rootsPage(article.documentId, { 'pagination[pageSize]': 1, sort: 'createdAt:desc' }).expect(200);
      for (const query of ['after=nope', `after=${roots.body.meta.pagination.next}`, 'sort=top', 'pagination[pageSize]=0']) {
        const res = await get(`/api/bag/comments/${ids[0]}/replies?${query}`);
        expect([query, res.status]).toEqual([query, 400]);
        expect(res.body.error.name).toBe('ValidationError');
      }
    });
  });

  describe('guests', () => {
    it("a guest's comment kept from an import shows `author: { username }` with the guest's name, no id; taken back, none", async () => {
      const article = await createArticle(app.strapi);
      const ids = await seedComments(app.strapi, article.documentId, [
        { content: 'a guest root', parentIndex: null },
        { content: 'a guest reply', parentIndex: 0 },
        { content: 'taken back', parentIndex: 0 },
        { content: 'under it', parentIndex: 2 },
      ]);
      await setColumn(ids.slice(0, 3), { authorName: 'Guest Gary' });
      await setColumn([ids[2]], { deleted: true, content: '' });
      const [root, reply, gone] = (await rowsOf(ids.slice(0, 3))).sort((a: { id: number }, b: { id: number }) => a.id - b.id) as { documentId: string }[];
      const byDocument = (nodes: Node[], documentId: string) => nodes.find((node) => node.documentId === documentId);

      const tree = (await get(`/api/bag/articles/${article.documentId}/comments`).expect(200)).body.data as (Node & { children: Node[] })[];
      expect(tree[0].author).toEqual({ username: 'Guest Gary' });
      expect(byDocument(tree[0].children, reply.documentId)?.author).toEqual({ username: 'Guest Gary' });
      expect(byDocument(tree[0].children, gone.documentId)?.author).toBeNull();

      const page = (await rootsPage(article.documentId, { 'pagination[pageSize]': 5 }).expect(200)).body as Page;
      expect(page.data.map((node) => [node.documentId, node.author])).toEqual([[root.documentId, { username: 'Guest Gary' }]]);
      const replies = (await get(`/api/bag/comments/${root.documentId}/replies`).expect(200)).body.data as Node[];
      expect(byDocument(replies, reply.documentId)?.author).toEqual({ username: 'Guest Gary' });
      expect(byDocument(replies, gone.documentId)?.author).toBeNull();
    });
  });

  describe('counts', () => {
    it('counts visible comments per article in one SQL statement, keyed as given', async () => {
      const busy = await createArticle(app.strapi);
      const quiet = await createArticle(app.strapi);
      const draft = await createArticle(app.strapi, { publish: false });
      const busyIds = await seedComments(app.strapi, busy.documentId, [
        { content: 'root', parentIndex: null },
        { content: 'reply', parentIndex: 0 },
        { content: 'pending reply', status: 'pending', parentIndex: 0 },
        { content: 'under pending', parentIndex: 2 },
        { content: 'rejected root', status: 'rejected', parentIndex: null },
        { content: 'under rejected', parentIndex: 4 },
        { content: 'deep', parentIndex: 1 },
        { content: 'second root', parentIndex: null },
      ]);
      await seedComments(app.strapi, draft.documentId, [{ content: 'on a draft', parentIndex: null }]);
      expect(busyIds).toHaveLength(8);

      const statements: string[] = [];
      const listener = forRequests((query: { sql: string }) => statements.push(query.sql));
      app.strapi.db.connection.on('query', listener);
      let res;
      try {
        const keys = [busy.documentId, String(busy.id), quiet.documentId, draft.documentId, 'nosuchdocument000000000', '999999', busy.documentId];
        res = await get(`/api/bag/comments/counts?articles=${keys.join(',')}`).expect(200);
      } finally {
        app.strapi.db.connection.off('query', listener);
      }
      expect(res.body).toEqual({
        data: {
          [busy.documentId]: 4,
          [String(busy.id)]: 4,
          [quiet.documentId]: 0,
          [draft.documentId]: 0,
          nosuchdocument000000000: 0,
          '999999': 0,
        },
      });
      expect(statements.filter((sql) => /bag_/.test(sql))).toHaveLength(1);
      // The same number the full tree reports.
      const tree = await get(`/api/bag/articles/${busy.documentId}/comments`).expect(200);
      expect(tree.body.meta.total).toBe(4);
    });

    it('follows moderation and re-publishing', async () => {
      const article = await createArticle(app.strapi);
      const ids = await seedComments(app.strapi, article.documentId, [
        { content: 'root', parentIndex: null },
        { content: 'reply', parentIndex: 0 },
      ]);
      const count = async () => (await get(`/api/bag/comments/counts?articles=${article.documentId}`).expect(200)).body.data[article.documentId];
      expect(await count()).toBe(2);
      const [root] = await rowsOf([ids[0]]);
      await setStatus([root.documentId], 'rejected');
      expect(await count()).toBe(0);
      await setStatus([root.documentId], 'approved');
      await app.strapi.documents('plugin::cms-plugin-bag.article' as never).publish({ documentId: article.documentId } as never);
      expect(await count()).toBe(2);
      await app.strapi.documents('plugin::cms-plugin-bag.article' as never).unpublish({ documentId: article.documentId } as never);
      expect(await count()).toBe(0);
    });

    it('answers when a racing edit left a parent cycle in the link table (a comment with two parents)', async () => {
      const article = await createArticle(app.strapi);
      const [, child, grandchild] = await seedComments(app.strapi, article.documentId, [
        { content: 'root', parentIndex: null },
        { content: 'child', parentIndex: 0 },
        { content: 'grandchild', parentIndex: 1 },
      ]);
      // Written straight into the link table: child's second parent is its own child, so root → child → grandchild → child …
      const link = (app.strapi.db.metadata.get(COMMENT as never).attributes as any).parent.joinTable;
      await app.strapi.db.connection(link.name).insert({ [link.joinColumn.name]: child, [link.inverseJoinColumn.name]: grandchild });
      const res = await get(`/api/bag/comments/counts?articles=${article.documentId}`).expect(200);
      expect(res.body).toEqual({ data: { [article.documentId]: 3 } });
    });

    it('refuses a missing, malformed or too long list with 400', async () => {
      const many = Array.from({ length: 101 }, (_, i) => `doc${i}`).join(',');
      const duplicates = Array.from({ length: 150 }, (_, i) => `doc${i % 100}`).join(',');
      for (const query of ['', 'articles=', 'articles=,,', `articles=${many}`, 'articles=a%20b', 'articles[x]=1']) {
        const res = await get(`/api/bag/comments/counts?${query}`);
        expect([query, res.status]).toEqual([query, 400]);
        expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
      }
      // 150 names but 100 different ones: allowed.
      const res = await get(`/api/bag/comments/counts?articles=${duplicates}`).expect(200);
      expect(Object.keys(res.body.data)).toHaveLength(100);
    });
  });

  describe('typed client', () => {
    it('pages roots and replies and reads counts', async () => {
      const article = await createArticle(app.strapi);
      const ids = await seedComments(app.strapi, article.documentId, [
        { content: 'first', parentIndex: null },
        { content: 'second', parentIndex: null },
        { content: 'reply', parentIndex: 0 },
      ]);
      const client = createClient({ baseUrl: app.url, storage: memoryStorage() });
      const first = await client.comments.page(article.documentId, { sort: 'createdAt:asc', pageSize: 1 });
      expect(first.data.map((node) => node.id)).toEqual([ids[0]]);
      expect(first.data[0].replies.map((node) => node.id)).toEqual([ids[2]]);
      const second = await client.comments.page(article.documentId, { sort: 'createdAt:asc', pageSize: 1, after: first.meta.pagination.next! });
      expect(second.data.map((node) => node.id)).toEqual([ids[1]]);
      expect(second.meta.pagination).toEqual({ pageSize: 1, hasMore: false, next: null });
      expect((await client.comments.replies(ids[0])).data.map((node) => node.id)).toEqual([ids[2]]);
      expect((await client.comments.counts([article.documentId, 'nosuchdocument000000000'])).data).toEqual({
        [article.documentId]: 3,
        nosuchdocument000000000: 0,
      });
    });
  });

  describe('a signed-in reader (docs/comments.md#paged-threads-counts-and-the-rest-envelope)', () => {
    it("adds the reader's liked and meta.editWindow to pages of roots and replies, and nothing to anonymous pages", async () => {
      const article = await createArticle(app.strapi);
      const ids = await seedComments(app.strapi, article.documentId, [
        { content: 'liked root', parentIndex: null },
        { content: 'other root', parentIndex: null },
        { content: 'liked reply', parentIndex: 0 },
        { content: 'other reply', parentIndex: 0 },
      ]);
      const reader = await createUser(app.strapi);
      const jwt = jwtFor(app.strapi, reader);
      for (const id of [ids[0], ids[2]]) await app.request().post(`/api/bag/comments/${id}/like`).set('Authorization', `Bearer ${jwt}`).expect(200);
      // Someone else's like counts but is not the reader's.
      const other = await createUser(app.strapi);
      await app.request().post(`/api/bag/comments/${ids[1]}/like`).set('Authorization', `Bearer ${jwtFor(app.strapi, other)}`).expect(200);

      const signedIn = await rootsPage(article.documentId, { sort: 'createdAt:asc' }).set('Authorization', `Bearer ${jwt}`).expect(200);
      expect(signedIn.headers['cache-control']).toBe('private, no-cache');
      expect(signedIn.body.meta.editWindow).toBe(15 * 60);
      expect(signedIn.body.data.map((node: Node) => [node.content, node.likes, node.liked])).toEqual([
        ['liked root', 1, true],
        ['other root', 1, false],
      ]);
      expect(signedIn.body.data[0].replies.map((node: Node) => [node.content, node.likes, node.liked])).toEqual([
        ['liked reply', 1, true],
        ['other reply', 0, false],
      ]);
      const replies = await get(`/api/bag/comments/${ids[0]}/replies`).set('Authorization', `Bearer ${jwt}`).expect(200);
      expect(replies.body.meta.editWindow).toBe(15 * 60);
      expect(replies.body.data.map((node: Node) => node.liked)).toEqual([true, false]);

      // The anonymous page after it (the cache on) is the anonymous shape: no reader's state.
      const anonymous = await rootsPage(article.documentId, { sort: 'createdAt:asc' }).expect(200);
      expect(anonymous.body.meta.editWindow).toBeUndefined();
      for (const node of anonymous.body.data) expect(Object.keys(node).sort()).toEqual(ROOT_KEYS);
      // The typed client sends the session's token: the reader's state comes with it.
      const storage = memoryStorage();
      await storage.set('jwt', jwt);
      const client = createClient({ baseUrl: app.url, storage });
      const page = await client.comments.page(article.documentId, { sort: 'createdAt:asc' });
      expect([page.meta.editWindow, page.data[0].liked]).toEqual([15 * 60, true]);
    });
  });

  describe('POST /api/bag/comments with the REST envelope', () => {
    it('accepts { data: { … } } and refuses data mixed with top-level fields', async () => {
      const article = await createArticle(app.strapi);
      const res = await app.request().post('/api/bag/comments').send({ data: { content: 'wrapped', article: article.documentId } }).expect(201);
      expect(res.body.data).toMatchObject({ content: 'wrapped', status: 'pending', article: { documentId: article.documentId } });
      const stored = await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: res.body.data.documentId } });
      expect(stored.content).toBe('wrapped');

      for (const body of [
        { data: { content: 'x', article: article.documentId }, content: 'y' },
        { data: { content: 'x' }, article: article.documentId },
        { data: 'content' },
        { data: null },
        { data: [{ content: 'x', article: article.documentId }] },
      ]) {
        const bad = await app.request().post('/api/bag/comments').send(body);
        expect([body, bad.status]).toEqual([body, 400]);
        expect(bad.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
      }
      // Inside the envelope the usual checks hold.
      const empty = await app.request().post('/api/bag/comments').send({ data: { content: ' ', article: article.documentId } });
      expect(empty.status).toBe(400);
      expect(empty.body.error.details.errors[0].path).toEqual(['content']);
    });
  });
});
