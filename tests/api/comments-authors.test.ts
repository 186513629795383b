/**
 * Authors, threads and moderation rules: edit, delete (tombstones), "my comments", the rules on submit and edit,
 * Markdown in nodes, pins and closed threads (admin routes, `closeAfter`).
 */
import { adminToken, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { ARTICLE, COMMENT, adminTokenWithRole, createArticle } from '../helpers/comments';
import { setupStrapi, type TestApp } from '../helpers/strapi';

type Node = { documentId: string; content: string; children: Node[]; [key: string]: unknown };

describe('comments: authors, threads and moderation rules', () => {
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let adaJwt: string;
  let bobJwt: string;
  let admin: string;

  const post = (body: Record<string, unknown>, token?: string) => {
    const req = app.request().post('/api/bag/comments');
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send(body);
  };
  const edit = (id: string, content: unknown, token?: string) => {
    const req = app.request().put(`/api/bag/comments/${id}`);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send({ content });
  };
  const remove = (id: string, token?: string) => {
    const req = app.request().delete(`/api/bag/comments/${id}`);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req;
  };
  const mine = (token: string, query = '') => app.request().get(`/api/bag/comments/mine${query}`).set('Authorization', `Bearer ${token}`);
  const tree = (id: string) => app.request().get(`/api/bag/articles/${id}/comments`);
  const page = (id: string, query: string) => app.request().get(`/api/bag/articles/${id}/comments?${query}`);
  const setStatus = (documentIds: string[], status: string) =>
    app.request().put('/cms-plugin-bag/comments/status').set('Authorization', `Bearer ${admin}`).send({ documentIds, status });
  const settings = (body: unknown) => app.request().put('/cms-plugin-bag/settings').set('Authorization', `Bearer ${admin}`).send(body as object);
  const pin = (documentId: string, pinned: unknown, token = admin) =>
    app.request().put(`/cms-plugin-bag/comments/${documentId}/pin`).set('Authorization', `Bearer ${token}`).send({ pinned });
  const close = (documentId: string, closed: unknown, token = admin) =>
    app.request().put(`/cms-plugin-bag/articles/${documentId}/comments`).set('Authorization', `Bearer ${token}`).send({ closed });
  const stored = (documentId: string) =>
    app.strapi.db.query(COMMENT as never).findOne({ where: { documentId }, populate: ['author'] });
  const clock = () => app.strapi.plugin('cms-plugin-bag').service('clock') as { now: () => number };

  const approved = async (article: string, content: string, token?: string, parent?: string) => {
    const res = await post({ content, article, ...(parent ? { parent } : {}) }, token).expect(201);
    await setStatus([res.body.data.documentId], 'approved').expect(200);
    return res.body.data.documentId as string;
  };

  beforeAll(async () => {
    app = await setupStrapi({
      config: { comments: { editWindow: '15m' }, rateLimit: { comment: { interval: '1m', max: 100_000 } } },
    });
    ada = await createUser(app.strapi);
    bob = await createUser(app.strapi);
    adaJwt = jwtFor(app.strapi, ada);
    bobJwt = jwtFor(app.strapi, bob);
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await settings({ comments: { autoApprove: false, moderation: { blockedWords: [], holdWords: [], maxLinks: 2, trustApproved: false } } }).expect(200);
  });

  describe('editing', () => {
    it('lets the author edit within the window: editedAt shown, an approved comment back to pending', async () => {
      const article = await createArticle(app.strapi);
      const id = await approved(article.documentId, 'Frist!', adaJwt);
      const res = await edit(id, 'First!', adaJwt).expect(200);
      expect(Object.keys(res.body.data).sort()).toEqual(['content', 'createdAt', 'documentId', 'editedAt', 'id', 'status']);
      expect(res.body.data).toMatchObject({ documentId: id, content: 'First!', status: 'pending' });
      expect(Date.parse(res.body.data.editedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.data.createdAt));
      expect((await tree(article.documentId).expect(200)).body.data).toEqual([]);
      await setStatus([id], 'approved').expect(200);
      const [node] = (await tree(article.documentId).expect(200)).body.data;
      expect(node).toMatchObject({ content: 'First!', editedAt: res.body.data.editedAt, deleted: false, pinned: false });
    });

    it('keeps an edited comment approved with autoApprove or trustApproved, and the rules apply to the new text', async () => {
      const article = await createArticle(app.strapi);
      const id = await approved(article.documentId, 'Good post', adaJwt);
      await settings({ comments: { moderation: { trustApproved: true, holdWords: ['casino'] } } }).expect(200);
      expect((await edit(id, 'Great post', adaJwt).expect(200)).body.data.status).toBe('approved');
      expect((await edit(id, 'Great CASINO post', adaJwt).expect(200)).body.data.status).toBe('pending');
      await settings({ comments: { autoApprove: true, moderation: { trustApproved: false, blockedWords: ['viagra'] } } }).expect(200);
      expect((await edit(id, 'Nice', adaJwt).expect(200)).body.data.status).toBe('approved');
      expect((await edit(id, 'Cheap Viagra', adaJwt).expect(200)).body.data.status).toBe('rejected');
      expect((await stored(id)).status).toBe('rejected');
    });

    it('refuses after the window, another user, a guest, an unknown id and a bad body', async () => {
      const article = await createArticle(app.strapi);
      const id = await approved(article.documentId, 'Mine', adaJwt);
      const guestComment = (await post({ content: 'by a guest', article: article.documentId }).expect(201)).body.data.documentId;
      const forbidden = await edit(id, 'Yours now', bobJwt).expect(403);
      expect(forbidden.body.error.message).toBe("Cannot edit another user's comment");
      expect((await edit(guestComment, 'claimed', adaJwt).expect(403)).body.error.message).toBe("Cannot edit another user's comment");
      await edit(id, 'no token').expect(401);
      expect((await edit('nonexistent0000000000000', 'x', adaJwt).expect(404)).body.error.message).toBe('Comment not found');
      expect((await edit(id, '   ', adaJwt).expect(400)).body.error.details.errors[0].path).toEqual(['content']);
      const created = Date.parse((await stored(id)).createdAt);
      jest.spyOn(clock(), 'now').mockReturnValue(created + 15 * 60_000 + 1000);
      expect((await edit(id, 'too late', adaJwt).expect(403)).body.error.message).toBe('Edit window has passed');
      expect((await stored(id)).content).toBe('Mine');
    });
  });

  describe('deleting', () => {
    it('leaves a tombstone where approved replies hang, and removes a comment without', async () => {
      const article = await createArticle(app.strapi);
      const root = await approved(article.documentId, 'Root by ada with a [link](https://example.com)', adaJwt);
      const reply = await approved(article.documentId, 'Reply by bob', bobJwt, root);
      const lone = await approved(article.documentId, 'Lone comment', adaJwt);
      expect((await remove(root, bobJwt).expect(403)).body.error.message).toBe("Cannot delete another user's comment");
      await remove(root).expect(401);
      expect((await remove(root, adaJwt).expect(200)).body).toEqual({ message: 'Comment deleted' });
      await remove(lone, adaJwt).expect(200);

      const res = await tree(article.documentId).expect(200);
      expect(res.body.data).toHaveLength(1);
      const [tombstone] = res.body.data as Node[];
      expect(tombstone).toMatchObject({ documentId: root, deleted: true, content: '', contentHtml: '', author: null });
      expect(tombstone.children.map((node) => node.documentId)).toEqual([reply]);
      const row = await stored(root);
      expect(row).toMatchObject({ content: '', deleted: true, ip: null, userAgent: null, author: null });
      expect(await stored(lone)).toBeNull();
      // The tombstone is gone for its author, and a second delete is a 404.
      expect((await mine(adaJwt).expect(200)).body.data.map((c: { documentId: string }) => c.documentId)).not.toContain(root);
      await remove(root, adaJwt).expect(404);
      // Pages show it too, with the same keys.
      const paged = await page(article.documentId, 'pagination[pageSize]=5').expect(200);
      expect(paged.body.data[0]).toMatchObject({ documentId: root, deleted: true, content: '', contentHtml: '', author: null, replyCount: 1 });
    });
  });

  describe('my comments', () => {
    it('lists the account’s comments in every status, newest first, with their article', async () => {
      const user = await createUser(app.strapi);
      const token = jwtFor(app.strapi, user);
      const article = await createArticle(app.strapi);
      const first = (await post({ content: 'one', article: article.documentId }, token).expect(201)).body.data.documentId;
      const second = await approved(article.documentId, 'two', token);
      const third = (await post({ content: 'three', article: article.documentId }, token).expect(201)).body.data.documentId;
      await setStatus([third], 'rejected').expect(200);
      await post({ content: 'not mine', article: article.documentId }, bobJwt).expect(201);

      const res = await mine(token).expect(200);
      expect(res.body.data.map((c: { documentId: string; status: string }) => [c.documentId, c.status])).toEqual([
        [third, 'rejected'],
        [second, 'approved'],
        [first, 'pending'],
      ]);
      expect(Object.keys(res.body.data[0]).sort()).toEqual(['article', 'content', 'createdAt', 'documentId', 'editedAt', 'status']);
      expect(res.body.data[0].article).toEqual({ documentId: article.documentId, slug: article.slug, title: article.title });
      expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
      const second_page = await mine(token, '?pagination[page]=2&pagination[pageSize]=2').expect(200);
      expect(second_page.body.data.map((c: { documentId: string }) => c.documentId)).toEqual([first]);
      await mine(token, '?pagination[pageSize]=0').expect(400);
      await app.request().get('/api/bag/comments/mine').expect(401);
    });
  });

  describe('moderation rules', () => {
    it('rejects blocked words, holds hold words and links even with autoApprove, whole words in any case and script', async () => {
      const article = await createArticle(app.strapi);
      await settings({
        comments: { autoApprove: true, moderation: { blockedWords: ['viagra', 'казино'], holdWords: ['café', '赌博'], maxLinks: 1 } },
      }).expect(200);
      const status = async (content: string) => (await post({ content, article: article.documentId }).expect(201)).body.data.status;
      expect(await status('Buy VIAGRA now')).toBe('rejected');
      expect(await status('Лучшее Казино')).toBe('rejected');
      expect(await status('Un CAFÉ ?')).toBe('pending');
      expect(await status('这是赌博网站')).toBe('pending');
      expect(await status('two links https://a.example https://b.example')).toBe('pending');
      expect(await status('cafés and viagras and казиноонлайн, one link https://a.example')).toBe('approved');
    });

    it('approves a signed-in author who has an approved comment with trustApproved, never a guest', async () => {
      const article = await createArticle(app.strapi);
      const user = await createUser(app.strapi);
      const token = jwtFor(app.strapi, user);
      await settings({ comments: { moderation: { trustApproved: true } } }).expect(200);
      expect((await post({ content: 'first', article: article.documentId }, token).expect(201)).body.data.status).toBe('pending');
      await approved(article.documentId, 'approved one', token);
      expect((await post({ content: 'again', article: article.documentId }, token).expect(201)).body.data.status).toBe('approved');
      expect((await post({ content: 'guest', article: article.documentId }).expect(201)).body.data.status).toBe('pending');
    });

    it('refuses bad rules in the settings with a 400 naming the field', async () => {
      const res = await settings({ comments: { moderation: { maxLinks: -1 } } }).expect(400);
      expect(res.body.error.details.errors[0].path).toEqual(['comments', 'moderation', 'maxLinks']);
      await settings({ comments: { moderation: { blockedWords: 'spam' } } }).expect(400);
    });
  });

  describe('Markdown', () => {
    it('gives every node contentHtml, links with rel and no raw HTML; content stays the text sent', async () => {
      const article = await createArticle(app.strapi);
      const text = '**bold** <script>alert(1)</script> [x](javascript:alert(1)) https://example.com';
      await approved(article.documentId, text, adaJwt);
      const [node] = (await tree(article.documentId).expect(200)).body.data;
      expect(node.content).toBe(text);
      expect(node.contentHtml).toBe(
        '<p><strong>bold</strong> &lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1)) ' +
          '<a href="https://example.com" rel="nofollow ugc noopener">https://example.com</a></p>\n'
      );
      const [paged] = (await page(article.documentId, 'pagination[pageSize]=5').expect(200)).body.data;
      expect(paged.contentHtml).toBe(node.contentHtml);
    });
  });

  describe('comments stored before contentHtml existed', () => {
    it('are rendered when read', async () => {
      const article = await createArticle(app.strapi);
      const id = await approved(article.documentId, 'placeholder');
      await app.strapi.db.query(COMMENT as never).update({ where: { documentId: id }, data: { content: 'old *text*', contentHtml: null } });
      const [node] = (await tree(article.documentId).expect(200)).body.data;
      expect(node.contentHtml).toBe('<p>old <em>text</em></p>\n');
    });
  });

  describe('pins', () => {
    it('puts pinned roots first in the tree and in pages, most recently pinned first, across cursor pages', async () => {
      const article = await createArticle(app.strapi);
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push(await approved(article.documentId, `root ${i}`));
      const reply = await approved(article.documentId, 'a reply', undefined, ids[0]);
      const now = Date.now();
      jest.spyOn(clock(), 'now').mockReturnValue(now);
      expect((await pin(ids[1], true).expect(200)).body).toEqual({ data: { documentId: ids[1], pinned: true } });
      jest.spyOn(clock(), 'now').mockReturnValue(now + 1000);
      await pin(ids[3], true).expect(200);
      expect((await pin(reply, true).expect(400)).body.error.message).toBe('Only top-level comments can be pinned');
      await pin('nonexistent0000000000000', true).expect(404);
      await pin(ids[0], 'yes').expect(400);

      const order = (await tree(article.documentId).expect(200)).body.data.map((node: Node) => node.documentId);
      expect(order).toEqual([ids[3], ids[1], ids[0], ids[2], ids[4]]);
      const pinnedFlags = (await tree(article.documentId).expect(200)).body.data.map((node: Node) => node.pinned);
      expect(pinnedFlags).toEqual([true, true, false, false, false]);

      // Pages of one: the walk goes through the pinned roots, then the rest newest first, each once.
      const walked: string[] = [];
      let after: string | null = null;
      do {
        const res: { body: { data: Node[]; meta: { pagination: { next: string | null } } } } = await page(
          article.documentId,
          `pagination[pageSize]=1${after ? `&after=${after}` : ''}`
        ).expect(200);
        walked.push(...res.body.data.map((node) => node.documentId));
        after = res.body.meta.pagination.next;
      } while (after);
      expect(walked).toEqual([ids[3], ids[1], ids[4], ids[2], ids[0]]);

      // A first page that holds the pinned roots and some of the rest, in each sort; then its cursor goes on.
      const firstPage = async (query: string) => {
        const res = await page(article.documentId, `pagination[pageSize]=3&${query}`).expect(200);
        return { ids: res.body.data.map((node: Node) => node.documentId), next: res.body.meta.pagination.next as string };
      };
      const newest = await firstPage('sort=createdAt:desc');
      expect(newest.ids).toEqual([ids[3], ids[1], ids[4]]);
      const rest = await page(article.documentId, `pagination[pageSize]=3&sort=createdAt:desc&after=${newest.next}`).expect(200);
      expect(rest.body.data.map((node: Node) => node.documentId)).toEqual([ids[2], ids[0]]);
      expect((await firstPage('sort=createdAt:asc')).ids).toEqual([ids[3], ids[1], ids[0]]);
      expect((await firstPage('sort=top')).ids).toEqual([ids[3], ids[1], ids[4]]);

      await pin(ids[3], false).expect(200);
      expect((await tree(article.documentId).expect(200)).body.data[0].documentId).toBe(ids[1]);
    });
  });

  describe('closed threads', () => {
    it('closes and reopens a thread: 403 on a new comment, reading unchanged, meta.closed on pages of roots and of replies', async () => {
      const article = await createArticle(app.strapi);
      const root = await approved(article.documentId, 'before closing');
      await approved(article.documentId, 'a reply', undefined, root);
      const replies = () => app.request().get(`/api/bag/comments/${root}/replies?pagination[pageSize]=5`).expect(200);
      expect((await replies()).body.meta.closed).toBeUndefined();
      expect((await close(article.documentId, true).expect(200)).body).toEqual({ data: { documentId: article.documentId, closed: true } });
      expect((await replies()).body.meta.closed).toBe(true);
      const refused = await post({ content: 'late', article: article.documentId }).expect(403);
      expect(refused.body.error.message).toBe('Comments are closed for this article');
      expect((await tree(article.documentId).expect(200)).body.data).toHaveLength(1);
      expect((await page(article.documentId, 'pagination[pageSize]=5').expect(200)).body.meta.closed).toBe(true);
      await close(article.documentId, false).expect(200);
      await post({ content: 'open again', article: article.documentId }).expect(201);
      expect((await page(article.documentId, 'pagination[pageSize]=5').expect(200)).body.meta.closed).toBeUndefined();
      expect((await replies()).body.meta.closed).toBeUndefined();
      await close('nonexistent0000000000000', true).expect(404);
      await close(article.documentId, 'no').expect(400);
    });

    it('closes threads of articles older than closeAfter', async () => {
      const article = await createArticle(app.strapi);
      await app.strapi.db.query(ARTICLE as never).updateMany({
        where: { documentId: article.documentId },
        data: { createdAt: new Date(Date.now() - 40 * 86400_000) },
      });
      await post({ content: 'still open', article: article.documentId }).expect(201);
      const settingsService = app.strapi.plugin('cms-plugin-bag').service('settings') as { get: () => Promise<any> };
      const real = await settingsService.get();
      jest.spyOn(settingsService, 'get').mockResolvedValue({ ...real, comments: { ...real.comments, closeAfter: 30 * 86400 } });
      expect((await post({ content: 'too old', article: article.documentId }).expect(403)).body.error.message).toBe(
        'Comments are closed for this article'
      );
      const fresh = await createArticle(app.strapi);
      await post({ content: 'fresh', article: fresh.documentId }).expect(201);
    });

    it('needs the Moderate comments permission for pins and closing', async () => {
      const article = await createArticle(app.strapi);
      const id = await approved(article.documentId, 'x');
      const editor = await adminTokenWithRole(app, 'strapi-editor');
      await pin(id, true, editor).expect(403);
      await close(article.documentId, true, editor).expect(403);
      await app.request().put(`/cms-plugin-bag/comments/${id}/pin`).send({ pinned: true }).expect(401);
    });
  });
});
