import { adminLogin, createAdminWithRole, createRoleWith } from '../helpers/admin';
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { ARTICLE, COMMENT, adminTokenWithRole, createArticle, seedComments } from '../helpers/comments';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const UA = 'CommentTestBrowser/1.0 (unique-ua-marker)';
const NODE_KEYS = ['author', 'children', 'content', 'contentHtml', 'createdAt', 'deleted', 'documentId', 'editedAt', 'id', 'isAdmin', 'pinned'];
const MAX_LENGTH = 200;

type Node = { id: number; documentId: string; content: string; children: Node[]; [key: string]: unknown };

describe('comments', () => {
  let app: TestApp;
  let user: TestUser;
  let other: TestUser;
  let jwt: string;
  let admin: string;

  const post = (body: Record<string, unknown>, token?: string) => {
    const req = app.request().post('/api/bag/comments').set('User-Agent', UA);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send(body);
  };
  const list = (id: string | number) => app.request().get(`/api/bag/articles/${id}/comments`);
  const stored = (documentId: string) =>
    app.strapi.db.query(COMMENT as never).findOne({ where: { documentId }, populate: ['author', 'article', 'parent'] });
  const setStatus = (documentIds: string[], status: string) =>
    app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status });
  /** Posts a comment and approves it through the admin API. */
  const approvedComment = async (body: Record<string, unknown>) => {
    const res = await post(body).expect(201);
    await setStatus([res.body.data.documentId], 'approved').expect(200);
    return res.body.data as { id: number; documentId: string };
  };

  beforeAll(async () => {
    app = await setupStrapi({ config: { comments: { maxLength: MAX_LENGTH }, rateLimit: { comment: { interval: '1m', max: 100_000 } } } });
    user = await createUser(app.strapi);
    other = await createUser(app.strapi);
    jwt = jwtFor(app.strapi, user);
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  describe('submission', () => {
    it('accepts a guest comment as pending and answers with exactly the documented fields', async () => {
      const article = await createArticle(app.strapi);
      const res = await post({ content: '  Hello from a guest  ', article: article.documentId }).expect(201);
      expect(Object.keys(res.body.data).sort()).toEqual(['article', 'content', 'createdAt', 'documentId', 'id', 'isAdmin', 'parent', 'status']);
      expect(res.body.data).toMatchObject({ content: 'Hello from a guest', status: 'pending', isAdmin: false, parent: null });
      expect(res.body.data.article.documentId).toBe(article.documentId);
      const row = await stored(res.body.data.documentId);
      expect(row.author).toBeNull();
      expect(row.article.documentId).toBe(article.documentId);
    });

    it('stores and serves content as given, markup included, for front ends to render as text (docs/comments.md)', async () => {
      const article = await createArticle(app.strapi);
      const markup = `<img src=x onerror="alert('x')"> &amp; <script>alert(1)</script>\nline 2`;
      const res = await post({ content: markup, article: article.documentId }).expect(201);
      expect(res.body.data.content).toBe(markup);
      await setStatus([res.body.data.documentId], 'approved').expect(200);
      expect((await list(article.documentId).expect(200)).body.data[0].content).toBe(markup);
      expect((await stored(res.body.data.documentId)).content).toBe(markup);
    });

    it('binds the comment to the Bearer token user, and accepts the user naming itself by documentId or id', async () => {
      const article = await createArticle(app.strapi);
      for (const author of [undefined, user.documentId, user.id]) {
        const res = await post({ content: 'Mine', article: article.documentId, author }, jwt).expect(201);
        expect((await stored(res.body.data.documentId)).author.id).toBe(user.id);
      }
    });

    it('refuses a guest or a user commenting on behalf of another user', async () => {
      const article = await createArticle(app.strapi);
      const before = await app.strapi.db.query(COMMENT as never).count();
      for (const res of [
        await post({ content: 'x', article: article.documentId, author: user.documentId }),
        await post({ content: 'x', article: article.documentId, author: user.id }),
        await post({ content: 'x', article: article.documentId, author: other.documentId }, jwt),
        await post({ content: 'x', article: article.documentId, author: other.id }, jwt),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error).toMatchObject({ name: 'ForbiddenError', message: 'Cannot comment on behalf of another user' });
      }
      expect(await app.strapi.db.query(COMMENT as never).count()).toBe(before);
    });

    it('ignores status, isAdmin, ip and userAgent in the body and records the client as the server sees it', async () => {
      const article = await createArticle(app.strapi);
      const res = await post({
        content: 'Sneaky',
        article: article.documentId,
        status: 'approved',
        isAdmin: true,
        ip: '6.6.6.6',
        userAgent: 'Forged/1.0',
      }).expect(201);
      expect(res.body.data).toMatchObject({ status: 'pending', isAdmin: false });
      const row = await stored(res.body.data.documentId);
      expect(row).toMatchObject({ status: 'pending', isAdmin: false, userAgent: UA });
      expect(row.ip).toMatch(/127\.0\.0\.1$/);
    });

    it('truncates a very long User-Agent', async () => {
      const article = await createArticle(app.strapi);
      const res = await app.request().post('/api/bag/comments').set('User-Agent', 'A'.repeat(5000))
        .send({ content: 'long ua', article: article.documentId }).expect(201);
      expect((await stored(res.body.data.documentId)).userAgent).toHaveLength(512);
    });

    it('validates content, article and identifiers with 400s naming the field', async () => {
      const article = await createArticle(app.strapi);
      const cases: [Record<string, unknown>, string][] = [
        [{ article: article.documentId }, 'content'],
        [{ content: '   ', article: article.documentId }, 'content'],
        [{ content: 42, article: article.documentId }, 'content'],
        [{ content: 'x'.repeat(MAX_LENGTH + 1), article: article.documentId }, 'content'],
        [{ content: 'ok' }, 'article'],
        [{ content: 'ok', article: { $ne: null } }, 'article'],
        [{ content: 'ok', article: article.documentId, parent: ['x'] }, 'parent'],
      ];
      for (const [body, field] of cases) {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.body.error.name).toBe('ValidationError');
        expect(res.body.error.details.errors[0].path).toEqual([field]);
      }
      await post({ content: 'x'.repeat(MAX_LENGTH), article: article.documentId }).expect(201);
    });

    it('refuses an unknown or unpublished article with 404 and accepts a numeric id', async () => {
      const draft = await createArticle(app.strapi, { publish: false });
      for (const target of ['nosuchdocument000000000', 999_999, draft.documentId, draft.id]) {
        const res = await post({ content: 'x', article: target });
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe('Article not found');
      }
      const published = await createArticle(app.strapi);
      const res = await post({ content: 'by id', article: published.id }).expect(201);
      expect(res.body.data.article.documentId).toBe(published.documentId);
    });

    it('refuses a parent that is pending, rejected, missing or on another article', async () => {
      const article = await createArticle(app.strapi);
      const elsewhere = await createArticle(app.strapi);
      const pending = (await post({ content: 'pending', article: article.documentId }).expect(201)).body.data;
      const rejected = (await post({ content: 'rejected', article: article.documentId }).expect(201)).body.data;
      await setStatus([rejected.documentId], 'rejected').expect(200);
      const foreign = await approvedComment({ content: 'elsewhere', article: elsewhere.documentId });
      for (const parent of [pending.documentId, rejected.documentId, 'missing000000000000000', foreign.documentId, foreign.id]) {
        const res = await post({ content: 'reply', article: article.documentId, parent });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe('Parent comment not found');
      }
      const approved = await approvedComment({ content: 'approved', article: article.documentId });
      const reply = await post({ content: 'reply', article: article.documentId, parent: approved.id }).expect(201);
      expect(reply.body.data.parent).toEqual({ id: approved.id, documentId: approved.documentId });
    });

    it('refuses an approved parent in a hidden thread (an ancestor not approved) as if it did not exist', async () => {
      const article = await createArticle(app.strapi);
      const [, underRejected, , underPending] = await seedComments(app.strapi, article.documentId, [
        { content: 'rejected root', status: 'rejected', parentIndex: null },
        { content: 'approved reply under it', status: 'approved', parentIndex: 0 },
        { content: 'pending root', status: 'pending', parentIndex: null },
        { content: 'approved reply under the pending one', status: 'approved', parentIndex: 2 },
      ]);
      const hidden = await app.strapi.db.query(COMMENT as never).findMany({ where: { id: { $in: [underRejected, underPending] } }, select: ['id', 'documentId'] });
      for (const parent of [...hidden.map((row: { id: number }) => row.id), ...hidden.map((row: { documentId: string }) => row.documentId)]) {
        const res = await post({ content: 'reply', article: article.documentId, parent });
        expect({ parent, status: res.status, message: res.body.error?.message }).toEqual({ parent, status: 400, message: 'Parent comment not found' });
      }
      expect(await app.strapi.db.query(COMMENT as never).count({ where: { content: 'reply', article: { documentId: article.documentId } } })).toBe(0);
    });

    it('starts comments approved when an administrator turns on comments.autoApprove', async () => {
      const article = await createArticle(app.strapi);
      const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
      await settings.update({ comments: { autoApprove: true } });
      try {
        const res = await post({ content: 'auto', article: article.documentId }).expect(201);
        expect(res.body.data.status).toBe('approved');
        expect((await list(article.documentId).expect(200)).body.meta.total).toBe(1);
      } finally {
        await settings.update({ comments: { autoApprove: false } });
      }
    });
  });

  describe('the public tree', () => {
    it('lists nothing pending until an administrator approves it through the admin API', async () => {
      const article = await createArticle(app.strapi);
      const created = (await post({ content: 'wait for me', article: article.documentId }).expect(201)).body.data;
      expect((await list(article.documentId).expect(200)).body).toEqual({ data: [], meta: { total: 0 } });
      const res = await setStatus([created.documentId, 'unknowndocument000000000'], 'approved').expect(200);
      expect(res.body).toEqual({ data: { updated: 1 } });
      const after = (await list(article.documentId).expect(200)).body;
      expect(after.meta.total).toBe(1);
      expect(after.data[0].documentId).toBe(created.documentId);
    });

    it('nests a 5-deep thread, orders siblings by creation and shows only public fields', async () => {
      const article = await createArticle(app.strapi);
      const first = await approvedComment({ content: 'root 1', article: article.documentId });
      const second = await approvedComment({ content: 'root 2', article: article.documentId });
      let parent = first;
      const chain = [first];
      for (let depth = 2; depth <= 5; depth += 1) {
        parent = await approvedComment({ content: `depth ${depth}`, article: article.documentId, parent: parent.documentId });
        chain.push(parent);
      }
      const sibling = await approvedComment({ content: 'second reply to root 1', article: article.documentId, parent: first.documentId });
      const byUser = (await post({ content: 'user reply', article: article.documentId, parent: second.documentId }, jwt).expect(201)).body.data;
      await setStatus([byUser.documentId], 'approved').expect(200);

      const res = await list(article.documentId).expect(200);
      expect(res.body.meta.total).toBe(8);
      const roots: Node[] = res.body.data;
      expect(roots.map((n) => n.content)).toEqual(['root 1', 'root 2']);
      expect(roots[0].children.map((n) => n.documentId)).toEqual([chain[1].documentId, sibling.documentId]);
      let node = roots[0];
      for (let depth = 2; depth <= 5; depth += 1) {
        node = node.children[0];
        expect(node.content).toBe(`depth ${depth}`);
      }
      expect(node.children).toEqual([]);

      const stack = [...roots];
      while (stack.length) {
        const current = stack.pop()!;
        expect(Object.keys(current).sort()).toEqual(NODE_KEYS);
        stack.push(...current.children);
      }
      expect(roots[1].children[0].author).toEqual({ id: user.id, documentId: user.documentId, username: user.username });
      expect(roots[0].author).toBeNull();
    });

    it('hides approved replies under a rejected or pending comment, at any depth', async () => {
      const article = await createArticle(app.strapi);
      const root = await approvedComment({ content: 'root', article: article.documentId });
      const bad = await approvedComment({ content: 'bad', article: article.documentId, parent: root.documentId });
      const reply = await approvedComment({ content: 'reply to bad', article: article.documentId, parent: bad.documentId });
      await approvedComment({ content: 'deeper', article: article.documentId, parent: reply.documentId });
      expect((await list(article.documentId).expect(200)).body.meta.total).toBe(4);

      await setStatus([bad.documentId], 'rejected').expect(200);
      let res = await list(article.documentId).expect(200);
      expect(res.body.meta.total).toBe(1);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0].children).toEqual([]);

      await setStatus([bad.documentId], 'pending').expect(200);
      res = await list(article.documentId).expect(200);
      expect(res.body.meta.total).toBe(1);
    });

    it('reads a thread of thousands: its ids in one statement, its shape in slices, branches hidden across slices', async () => {
      const article = await createArticle(app.strapi);
      // Threads of three (a root, its reply, the reply's reply); one comment in a thousand pending.
      const COUNT = 4_600;
      const parentIndex = (i: number) => (i % 3 === 0 ? null : i - 1);
      const rows = Array.from({ length: COUNT }, (_, i) => ({
        content: `c${i}`,
        status: i % 1000 === 500 ? ('pending' as const) : ('approved' as const),
        parentIndex: parentIndex(i),
      }));
      await seedComments(app.strapi, article.documentId, rows);
      const shown = (i: number): boolean => rows[i].status === 'approved' && (parentIndex(i) === null || shown(parentIndex(i)!));
      const expected = rows.map((_, i) => i).filter(shown);

      const statements: { sql: string; bindings: unknown[] }[] = [];
      const listener = (query: { sql: string; bindings: unknown[] }) => statements.push(query);
      app.strapi.db.connection.on('query', listener);
      let res;
      try {
        res = await list(article.documentId).expect(200);
      } finally {
        app.strapi.db.connection.removeListener('query', listener);
      }
      expect(res.body.meta.total).toBe(expected.length);
      const roots: Node[] = res.body.data;
      expect(roots.map((node) => node.content)).toEqual(expected.filter((i) => parentIndex(i) === null).map((i) => `c${i}`));
      for (const root of roots) {
        const i = Number(root.content.slice(1));
        const reply = i + 1 < COUNT && parentIndex(i + 1) === i && shown(i + 1);
        expect(root.children.map((node) => node.content)).toEqual(reply ? [`c${i + 1}`] : []);
      }
      const linkReads = statements.filter((statement) => /comments_article_lnk/.test(statement.sql));
      expect(linkReads).toHaveLength(1);
      expect(linkReads[0].sql).toMatch(/group_concat|string_agg/i);
      const shapeReads = statements.filter((statement) => /comments_parent_lnk/.test(statement.sql));
      expect(shapeReads).toHaveLength(Math.ceil(COUNT / 2000));
      for (const statement of shapeReads) expect(statement.bindings.length).toBeLessThanOrEqual(2000);
    });

    it('never shows the IP, the User-Agent, an e-mail or the status in public responses', async () => {
      const article = await createArticle(app.strapi);
      const created = await post({ content: 'private bits', article: article.documentId }, jwt).expect(201);
      await setStatus([created.body.data.documentId], 'approved').expect(200);
      const row = await stored(created.body.data.documentId);
      expect(row.ip).toBeTruthy();
      const listed = await list(article.documentId).expect(200);
      for (const text of [JSON.stringify(created.body), listed.text]) {
        expect(text).not.toContain(UA);
        expect(text).not.toContain(row.ip);
        expect(text).not.toContain(user.email);
        expect(text).not.toMatch(/"(ip|userAgent|email)"/);
      }
      expect(listed.text).not.toContain('"status"');
    });

    it('answers 404 for an unknown or unpublished article and accepts the numeric id', async () => {
      const draft = await createArticle(app.strapi, { publish: false });
      for (const id of ['nosuchdocument000000000', '999999', draft.documentId, String(draft.id), 'bad%20id']) {
        const res = await list(id);
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe('Article not found');
      }
      const article = await createArticle(app.strapi);
      await approvedComment({ content: 'by id', article: article.documentId });
      expect((await list(article.id).expect(200)).body.meta.total).toBe(1);
    });

    it('keeps the thread when the article is edited and re-published', async () => {
      const article = await createArticle(app.strapi);
      const root = await approvedComment({ content: 'before edit', article: article.documentId });
      await approvedComment({ content: 'reply before edit', article: article.documentId, parent: root.documentId });

      const documents = app.strapi.documents(ARTICLE as never);
      for (let round = 1; round <= 2; round += 1) {
        await documents.update({ documentId: article.documentId, data: { title: `Edited ${round}` } as never });
        await documents.publish({ documentId: article.documentId });
      }
      const published = (await documents.findOne({ documentId: article.documentId, status: 'published' }))!;
      const draft = (await documents.findOne({ documentId: article.documentId, status: 'draft' }))!;
      expect(published.id).not.toBe(article.id);
      // What the relation points to now: the draft row and the new published row of the same document.
      const linked = await app.strapi.db.query(ARTICLE as never).findMany({ where: { comments: { documentId: root.documentId } }, select: ['id'] });
      expect(linked.map((row: { id: number }) => row.id).sort()).toEqual([draft.id, published.id].sort());

      await documents.unpublish({ documentId: article.documentId });
      expect((await list(article.documentId)).status).toBe(404);
      await documents.publish({ documentId: article.documentId });

      const republished = (await documents.findOne({ documentId: article.documentId, status: 'published' }))!;
      for (const id of [article.documentId, republished.id]) {
        const res = await list(id).expect(200);
        expect(res.body.meta.total).toBe(2);
        expect(res.body.data[0].children[0].content).toBe('reply before edit');
      }
      await post({ content: 'after edit', article: article.documentId, parent: root.documentId }).expect(201);
      const moderation = await app.request().get(`/cms-plugin-bag/comments?article=${article.documentId}`)
        .set('Authorization', `Bearer ${admin}`).expect(200);
      expect(moderation.body.meta.pagination.total).toBe(3);
    });

    it('lists a 5,000-deep reply chain (deeper than JSON.stringify can write)', async () => {
      const article = await createArticle(app.strapi);
      const depth = 5000;
      await seedComments(app.strapi, article.documentId,
        Array.from({ length: depth }, (_, i) => ({ content: `level ${i}`, parentIndex: i === 0 ? null : i - 1 })));
      const res = await list(article.documentId).expect(200);
      expect(res.body.meta.total).toBe(depth);
      let node: Node = res.body.data[0];
      let levels = 1;
      while (node.children.length) {
        expect(node.children).toHaveLength(1);
        node = node.children[0];
        levels += 1;
      }
      expect(levels).toBe(depth);
      expect(node.content).toBe(`level ${depth - 1}`);
    });

    it('lists a 10,000-comment article', async () => {
      const article = await createArticle(app.strapi);
      const rows = Array.from({ length: 10_000 }, (_, i) => ({
        content: `comment ${i}`,
        parentIndex: i < 100 ? null : i % 100,
        status: (i % 10 === 9 ? 'pending' : 'approved') as 'pending' | 'approved',
      }));
      await seedComments(app.strapi, article.documentId, rows);
      const res = await list(article.documentId).expect(200);
      // Roots 0..99 minus the pending ones (9, 19, …); replies under a pending root are hidden with it.
      const visibleRoots = 90;
      expect(res.body.data).toHaveLength(visibleRoots);
      const expected = rows.filter((row, i) => row.status === 'approved' && (i < 100 || rows[i % 100].status === 'approved')).length;
      expect(res.body.meta.total).toBe(expected);
    });
  });

  describe('moderation API', () => {
    it('lists with filters, pending first then newest, with the private fields for moderators', async () => {
      const article = await createArticle(app.strapi);
      const a = (await post({ content: 'old pending', article: article.documentId }, jwt).expect(201)).body.data;
      const b = await approvedComment({ content: 'approved', article: article.documentId });
      const c = (await post({ content: 'new pending', article: article.documentId, parent: b.documentId }).expect(201)).body.data;
      const auth = { Authorization: `Bearer ${admin}` };

      const res = await app.request().get(`/cms-plugin-bag/comments?article=${article.documentId}`).set(auth).expect(200);
      expect(res.body.data.map((x: { documentId: string }) => x.documentId)).toEqual([c.documentId, a.documentId, b.documentId]);
      expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
      const first = res.body.data[1];
      expect(Object.keys(first).sort()).toEqual(
        ['article', 'author', 'content', 'createdAt', 'documentId', 'id', 'ip', 'isAdmin', 'likes', 'parent', 'pinned', 'reportCount', 'reports', 'status', 'userAgent'].sort()
      );
      expect(first).toMatchObject({
        status: 'pending',
        userAgent: UA,
        author: { id: user.id, documentId: user.documentId, username: user.username, email: user.email },
        article: { documentId: article.documentId, title: article.title, slug: article.slug, closed: false },
        parent: null,
      });
      expect(first.ip).toMatch(/127\.0\.0\.1$/);
      expect(res.body.data[0].parent).toEqual({ documentId: b.documentId });

      const pendingOnly = await app.request().get(`/cms-plugin-bag/comments?article=${article.documentId}&status=pending&page=2&pageSize=1`)
        .set(auth).expect(200);
      expect(pendingOnly.body.data.map((x: { documentId: string }) => x.documentId)).toEqual([a.documentId]);
      expect(pendingOnly.body.meta.pagination).toEqual({ page: 2, pageSize: 1, pageCount: 2, total: 2 });

      for (const query of ['status=spam', 'page=0', 'pageSize=1000']) {
        const bad = await app.request().get(`/cms-plugin-bag/comments?${query}`).set(auth);
        expect(bad.status).toBe(400);
      }
      for (const body of [{ documentIds: [], status: 'approved' }, { documentIds: [a.documentId], status: 'spam' }, { status: 'approved' }]) {
        await app.request().put('/cms-plugin-bag/comments/status').set(auth).send(body).expect(400);
      }
    });

    it('shows commenters\' e-mails only to admin roles that may read them on users in the Content Manager', async () => {
      const article = await createArticle(app.strapi);
      const created = (await post({ content: 'who wrote me', article: article.documentId }, jwt).expect(201)).body.data;
      const USER = 'plugin::users-permissions.user';
      const readUsers = (fields: string[]) => ({ action: 'plugin::content-manager.explorer.read', subject: USER, fields });
      const tokenFor = async (name: string, permissions: (string | ReturnType<typeof readUsers>)[]) =>
        adminLogin(app, await createAdminWithRole(app, await createRoleWith(app, name, permissions), `${name.toLowerCase().replace(/ /g, '-')}@example.com`));
      const MODERATE = 'plugin::cms-plugin-bag.comments.moderate';
      const roles = {
        moderatorOnly: await tokenFor('Email test moderator', [MODERATE]),
        readsUsernames: await tokenFor('Email test username reader', [MODERATE, readUsers(['username'])]),
        readsUsers: await tokenFor('Email test user reader', [MODERATE, readUsers(['username', 'email'])]),
      };
      const authorOf = async (token: string) => {
        const res = await app.request().get(`/cms-plugin-bag/comments?article=${article.documentId}`).set('Authorization', `Bearer ${token}`).expect(200);
        const row = res.body.data.find((x: { documentId: string }) => x.documentId === created.documentId);
        return { author: row.author, text: JSON.stringify(res.body) };
      };
      const withoutEmail = { id: user.id, documentId: user.documentId, username: user.username };
      for (const token of [roles.moderatorOnly, roles.readsUsernames]) {
        const { author, text } = await authorOf(token);
        expect(author).toEqual(withoutEmail);
        expect(text).not.toContain(user.email);
      }
      expect((await authorOf(roles.readsUsers)).author).toEqual({ ...withoutEmail, email: user.email });
      expect((await authorOf(admin)).author).toEqual({ ...withoutEmail, email: user.email });
    });

    it('replies as the site: isAdmin, approved at once, under the comment, on its article', async () => {
      const article = await createArticle(app.strapi);
      const root = await approvedComment({ content: 'question', article: article.documentId });
      const auth = { Authorization: `Bearer ${admin}` };
      const res = await app.request().post(`/cms-plugin-bag/comments/${root.documentId}/reply`).set(auth)
        .send({ content: 'Official answer', isAdmin: false, status: 'pending' }).expect(200);
      expect(res.body.data).toMatchObject({
        content: 'Official answer',
        isAdmin: true,
        status: 'approved',
        author: null,
        parent: { documentId: root.documentId },
        article: { documentId: article.documentId },
      });
      const tree = (await list(article.documentId).expect(200)).body;
      expect(tree.data[0].children[0]).toMatchObject({ content: 'Official answer', isAdmin: true, author: null });

      await app.request().post('/cms-plugin-bag/comments/missing000000000000000/reply').set(auth).send({ content: 'x' }).expect(404);
      await app.request().post(`/cms-plugin-bag/comments/${root.documentId}/reply`).set(auth).send({ content: '' }).expect(400);
    });

    it('refuses admins without the moderation permission and requests without an admin token', async () => {
      const article = await createArticle(app.strapi);
      const created = (await post({ content: 'mod me', article: article.documentId }).expect(201)).body.data;
      const editor = await adminTokenWithRole(app, 'strapi-editor');
      const calls = (token?: string) => {
        const auth = (req: ReturnType<ReturnType<TestApp['request']>['get']>) => (token ? req.set('Authorization', `Bearer ${token}`) : req);
        return [
          auth(app.request().get('/cms-plugin-bag/comments')),
          auth(app.request().put('/cms-plugin-bag/comments/status')).send({ documentIds: [created.documentId], status: 'approved' }),
          auth(app.request().post(`/cms-plugin-bag/comments/${created.documentId}/reply`)).send({ content: 'x' }),
        ];
      };
      for (const res of await Promise.all(calls(editor))) expect(res.status).toBe(403);
      for (const res of await Promise.all(calls(jwt))) expect(res.status).toBe(401);
      for (const res of await Promise.all(calls())) expect(res.status).toBe(401);
      expect((await stored(created.documentId)).status).toBe('pending');
    });
  });

  describe('deletion', () => {
    it('moves the replies of a deleted comment up to its parent', async () => {
      const article = await createArticle(app.strapi);
      const root = await approvedComment({ content: 'root', article: article.documentId });
      const middle = await approvedComment({ content: 'middle', article: article.documentId, parent: root.documentId });
      await approvedComment({ content: 'leaf 1', article: article.documentId, parent: middle.documentId });
      await approvedComment({ content: 'leaf 2', article: article.documentId, parent: middle.documentId });

      await app.strapi.documents(COMMENT as never).delete({ documentId: middle.documentId });
      let tree = (await list(article.documentId).expect(200)).body;
      expect(tree.meta.total).toBe(3);
      expect(tree.data).toHaveLength(1);
      expect(tree.data[0].children.map((n: Node) => n.content)).toEqual(['leaf 1', 'leaf 2']);

      await app.strapi.documents(COMMENT as never).delete({ documentId: root.documentId });
      tree = (await list(article.documentId).expect(200)).body;
      expect(tree.data.map((n: Node) => n.content)).toEqual(['leaf 1', 'leaf 2']);
    });

    it('deletes the comments of a deleted article, and only those', async () => {
      const article = await createArticle(app.strapi);
      const kept = await createArticle(app.strapi);
      const root = await approvedComment({ content: 'doomed', article: article.documentId });
      await post({ content: 'doomed reply', article: article.documentId, parent: root.documentId }).expect(201);
      const survivor = await approvedComment({ content: 'survivor', article: kept.documentId });

      await app.strapi.documents(ARTICLE as never).delete({ documentId: article.documentId });
      const remaining = await app.strapi.db.query(COMMENT as never).findMany({ where: { content: { $in: ['doomed', 'doomed reply', 'survivor'] } } });
      expect(remaining.map((row: { documentId: string }) => row.documentId)).toEqual([survivor.documentId]);
    });
  });

  it('lets a moderator change the status in the Content Manager, but not the recorded IP or User-Agent', async () => {
    const article = await createArticle(app.strapi);
    const created = (await post({ content: 'edit me', article: article.documentId }).expect(201)).body.data;
    const before = await stored(created.documentId);
    await app.request()
      .put(`/content-manager/collection-types/${COMMENT}/${created.documentId}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ content: 'edit me', status: 'approved', ip: '6.6.6.6', userAgent: 'Edited/1.0' })
      .expect(200);
    expect(await stored(created.documentId)).toMatchObject({ status: 'approved', ip: before.ip, userAgent: UA });
    const shown = await app.request()
      .get(`/content-manager/collection-types/${COMMENT}/${created.documentId}`)
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(shown.body.data).toMatchObject({ status: 'approved', ip: before.ip, userAgent: UA });
    const listed = await app.request()
      .get(`/content-manager/collection-types/${COMMENT}?filters[documentId][$eq]=${created.documentId}`)
      .set('Authorization', `Bearer ${admin}`)
      .expect(200);
    expect(listed.body.results).toEqual([expect.objectContaining({ documentId: created.documentId, status: 'approved' })]);
    expect((await list(article.documentId).expect(200)).body.meta.total).toBe(1);

    await app.request()
      .put(`/content-manager/collection-types/${COMMENT}/${created.documentId}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ content: 'edit me', status: 'rejected' })
      .expect(200);
    expect((await stored(created.documentId)).status).toBe('rejected');
    expect((await list(article.documentId).expect(200)).body.meta.total).toBe(0);
  });

  it('creates a comment in the Content Manager with its status and the request recorded', async () => {
    const article = await createArticle(app.strapi);
    const res = await app.request()
      .post(`/content-manager/collection-types/${COMMENT}`)
      .set('Authorization', `Bearer ${admin}`)
      .set('User-Agent', UA)
      .send({ content: 'from the back office', status: 'approved', isAdmin: true, article: { connect: [{ documentId: article.documentId }] }, ip: '6.6.6.6' })
      .expect(201);
    const row = await stored(res.body.data.documentId);
    expect(row).toMatchObject({ status: 'approved', isAdmin: true, userAgent: UA });
    expect(row.ip).toMatch(/127\.0\.0\.1$/);
    const tree = (await list(article.documentId).expect(200)).body;
    expect(tree.data.map((node: Node) => node.content)).toEqual(['from the back office']);
  });

  describe('field-level permissions of admin roles in the Content Manager', () => {
    const CM = `/content-manager/collection-types/${COMMENT}`;
    const ALL_FIELDS = ['content', 'status', 'article', 'author', 'parent', 'children', 'ip', 'userAgent', 'isAdmin'];
    const WITHOUT_STATUS = ALL_FIELDS.filter((field) => field !== 'status');
    const cm = (action: string, fields: string[]) => ({ action: `plugin::content-manager.explorer.${action}`, subject: COMMENT, fields });
    /** A new admin user holding only a new role with these Content Manager permissions on comments. */
    const tokenFor = async (name: string, permissions: (ReturnType<typeof cm> | string)[]) => {
      const roleId = await createRoleWith(app, name, permissions);
      return adminLogin(app, await createAdminWithRole(app, roleId, `${name.toLowerCase().replace(/ /g, '-')}@example.com`));
    };
    let contentEditor: string;
    let moderator: string;

    beforeAll(async () => {
      contentEditor = await tokenFor('Comment content editor', [cm('read', WITHOUT_STATUS), cm('update', ['content']), cm('create', ['content', 'article'])]);
      // Approving needs the plugin's Moderate comments too (tests/api/comments-content-manager.test.ts).
      moderator = await tokenFor('Comment moderator', [cm('read', ALL_FIELDS), cm('update', ['content', 'status']), 'plugin::cms-plugin-bag.comments.moderate']);
    });

    it('does not let a role allowed to update only content change the status, and saves its content', async () => {
      const article = await createArticle(app.strapi);
      const created = (await post({ content: 'before', article: article.documentId }).expect(201)).body.data;
      await app.request().put(`${CM}/${created.documentId}`).set('Authorization', `Bearer ${contentEditor}`).send({ content: 'after', status: 'approved' }).expect(200);
      expect(await stored(created.documentId)).toMatchObject({ content: 'after', status: 'pending' });
      expect((await list(article.documentId).expect(200)).body.meta.total).toBe(0);
    });

    it('does not let a role create a comment with a status when its create permission leaves status out', async () => {
      const article = await createArticle(app.strapi);
      const res = await app.request()
        .post(CM)
        .set('Authorization', `Bearer ${contentEditor}`)
        .send({ content: 'created by an editor', status: 'approved', article: { connect: [{ documentId: article.documentId }] } })
        .expect(201);
      expect((await stored(res.body.data.documentId)).status).toBe('pending');
    });

    it('never shows the status to a role without read permission on it: list, edit view, save answer', async () => {
      const article = await createArticle(app.strapi);
      const created = await approvedComment({ content: 'secret status', article: article.documentId });
      const auth = { Authorization: `Bearer ${contentEditor}` };
      const shown = await app.request().get(`${CM}/${created.documentId}`).set(auth).expect(200);
      expect(shown.body.data).toMatchObject({ documentId: created.documentId, content: 'secret status' });
      expect(shown.body.data).not.toHaveProperty('status');
      const listed = await app.request().get(`${CM}?filters[documentId][$eq]=${created.documentId}`).set(auth).expect(200);
      expect(listed.body.results).toHaveLength(1);
      expect(listed.body.results[0]).not.toHaveProperty('status');
      const saved = await app.request().put(`${CM}/${created.documentId}`).set(auth).send({ content: 'still secret' }).expect(200);
      expect(saved.body.data).toMatchObject({ content: 'still secret' });
      expect(saved.body.data).not.toHaveProperty('status');
    });

    it('lets a role allowed to update status change it, and shows it to a role allowed to read it', async () => {
      const article = await createArticle(app.strapi);
      const created = (await post({ content: 'moderate me', article: article.documentId }).expect(201)).body.data;
      const auth = { Authorization: `Bearer ${moderator}` };
      const saved = await app.request().put(`${CM}/${created.documentId}`).set(auth).send({ content: 'moderate me', status: 'approved' }).expect(200);
      expect(saved.body.data).toMatchObject({ status: 'approved' });
      expect((await stored(created.documentId)).status).toBe('approved');
      const listed = await app.request().get(`${CM}?filters[documentId][$eq]=${created.documentId}`).set(auth).expect(200);
      expect(listed.body.results).toEqual([expect.objectContaining({ status: 'approved' })]);
    });
  });

  it('keeps the comments of a deleted user, without an author', async () => {
    const article = await createArticle(app.strapi);
    const leaving = await createUser(app.strapi);
    const created = (await post({ content: 'bye', article: article.documentId }, jwtFor(app.strapi, leaving)).expect(201)).body.data;
    await setStatus([created.documentId], 'approved').expect(200);
    await app.strapi.plugin('users-permissions').service('user').remove({ id: leaving.id });
    const res = await list(article.documentId).expect(200);
    expect(res.body.data).toEqual([expect.objectContaining({ documentId: created.documentId, author: null })]);
  });

  it('makes ip and userAgent read-only in the Content Manager edit view', async () => {
    const configuration = await app.strapi.plugin('content-manager').service('content-types').findConfiguration({ uid: COMMENT });
    expect(configuration.metadatas.ip.edit.editable).toBe(false);
    expect(configuration.metadatas.userAgent.edit.editable).toBe(false);
    expect(configuration.metadatas.status.edit.editable).toBe(true);
  });
});
