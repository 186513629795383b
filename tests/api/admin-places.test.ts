/**
 * The admin routes of the plugin's places in Strapi's screens over HTTP (docs/admin.md): the homepage widgets
 * "Comments to moderate" and "Most read", and the Content Manager side panel; their answers and who may read them.
 */
import { adminLogin, createAdminWithRole, createRoleWith } from '../helpers/admin';
import { adminToken, createDocument } from '../helpers/fixtures';
import { addLocales } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;
const PAGE = `${PLUGIN}.page`;
const COMMENT = `${PLUGIN}.comment`;

describe('admin places API', () => {
  let app: TestApp;
  let token: string;

  beforeAll(async () => {
    app = await setupStrapi({ config: { site: { url: 'https://front.example', paths: { article: '/{locale}/blog/{slug}' } } } });
    token = await adminToken(app);
    await addLocales(app.strapi, [{ code: 'fr', name: 'French (fr)' }]);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const get = (path: string, bearer = token) => app.request().get(`/cms-plugin-bag${path}`).set('Authorization', `Bearer ${bearer}`);
  /** Sets a document's views on all its rows, as the counter keeps them. */
  const setViews = (uid: string, documentId: string, views: number) =>
    app.strapi.db.query(uid as never).updateMany({ where: { documentId }, data: { views } });

  describe('Comments to moderate', () => {
    it('answers an empty queue while nothing waits', async () => {
      const res = await get('/widgets/moderation').expect(200);
      expect(res.body).toEqual({ data: { pending: 0, newest: [] } });
    });

    it('counts every pending comment and lists the five newest with their article', async () => {
      const article = await createDocument(app.strapi, ARTICLE, { title: 'Queue article', slug: 'queue-article' });
      const pending: string[] = [];
      for (let i = 1; i <= 7; i += 1) {
        const comment = await createDocument(app.strapi, COMMENT, { content: `Waiting ${i}`, status: 'pending', article: article.documentId });
        pending.push(comment.documentId);
      }
      await createDocument(app.strapi, COMMENT, { content: 'Already approved', status: 'approved', article: article.documentId });
      await createDocument(app.strapi, COMMENT, { content: 'Already rejected', status: 'rejected', article: article.documentId });

      const res = await get('/widgets/moderation').expect(200);
      expect(res.body.data.pending).toBe(7);
      expect(res.body.data.newest.map((c: { documentId: string }) => c.documentId)).toEqual(pending.slice(2).reverse());
      expect(res.body.data.newest[0]).toEqual({
        documentId: pending[6],
        content: 'Waiting 7',
        createdAt: expect.any(String),
        article: { documentId: article.documentId, title: 'Queue article' },
      });
    });
  });

  describe('Most read', () => {
    it("lists the locale's ten most read articles, most first, and refuses an unknown locale", async () => {
      const articles = [];
      for (let i = 1; i <= 12; i += 1) {
        const article = await createDocument(app.strapi, ARTICLE, { title: `Read ${i}`, slug: `read-${i}` });
        await setViews(ARTICLE, article.documentId, 1000 + i * 10);
        articles.push(article);
      }
      const documents = app.strapi.documents(ARTICLE as never);
      await documents.update({ documentId: articles[0].documentId, locale: 'fr', data: { title: 'Lu un', slug: 'lu-un' } as never });
      await documents.publish({ documentId: articles[0].documentId, locale: 'fr' } as never);
      await setViews(ARTICLE, articles[0].documentId, 5000);

      const en = await get('/widgets/most-read').expect(200);
      expect(en.body.meta).toEqual({ locale: 'en' });
      expect(en.body.data).toHaveLength(10);
      expect(en.body.data[0]).toEqual({ documentId: articles[0].documentId, title: 'Read 1', views: 5000 });
      expect(en.body.data.slice(1).map((a: { title: string }) => a.title)).toEqual(['Read 12', 'Read 11', 'Read 10', 'Read 9', 'Read 8', 'Read 7', 'Read 6', 'Read 5', 'Read 4']);

      const fr = await get('/widgets/most-read?locale=fr').expect(200);
      expect(fr.body).toEqual({ data: [{ documentId: articles[0].documentId, title: 'Lu un', views: 5000 }], meta: { locale: 'fr' } });

      const unknown = await get('/widgets/most-read?locale=xx').expect(400);
      expect(unknown.body.error).toMatchObject({ name: 'ValidationError', message: 'Unknown locale supplied' });
    });

    it('lists published articles only: a draft, and a title changed since publishing, never show', async () => {
      const secret = await createDocument(app.strapi, ARTICLE, { title: 'Unannounced merger', slug: 'unannounced-merger' }, { publish: false });
      await setViews(ARTICLE, secret.documentId, 900_000);
      const renamed = await createDocument(app.strapi, ARTICLE, { title: 'Published title', slug: 'published-title' });
      await app.strapi.documents(ARTICLE as never).update({ documentId: renamed.documentId, locale: 'en', data: { title: 'Draft title, not yet public' } as never });
      await setViews(ARTICLE, renamed.documentId, 800_000);

      const res = await get('/widgets/most-read').expect(200);
      expect(res.body.data[0]).toEqual({ documentId: renamed.documentId, title: 'Published title', views: 800_000 });
      expect(JSON.stringify(res.body)).not.toMatch(/Unannounced merger|Draft title/);
    });
  });

  describe('edit-view side panel', () => {
    it("gives an article's views, comments by status, thread state, published slug and front-end URL template", async () => {
      const article = await createDocument(app.strapi, ARTICLE, { title: 'Panel article', slug: 'panel-article' });
      await setViews(ARTICLE, article.documentId, 42);
      const comments = [];
      for (const status of ['pending', 'approved', 'approved', 'rejected']) {
        comments.push(await createDocument(app.strapi, COMMENT, { content: `A ${status} comment`, status, article: article.documentId }));
      }
      // One approved root pinned, and the thread closed, by the moderation routes.
      await app.request().put(`/cms-plugin-bag/comments/${comments[1].documentId}/pin`).set('Authorization', `Bearer ${token}`).send({ pinned: true }).expect(200);
      await app.request().put(`/cms-plugin-bag/articles/${article.documentId}/comments`).set('Authorization', `Bearer ${token}`).send({ closed: true }).expect(200);
      // The slug changed in the draft after publishing: the published one stays what readers know.
      await app.strapi.documents(ARTICLE as never).update({ documentId: article.documentId, locale: 'en', data: { slug: 'panel-article-renamed' } as never });

      const res = await get(`/edit-panel/article/${article.documentId}?locale=en`).expect(200);
      expect(res.body).toEqual({
        data: {
          views: 42,
          comments: { pending: 1, approved: 2, rejected: 1 },
          thread: { pinned: 1, closed: true },
          publishedSlug: 'panel-article',
          urlTemplate: 'https://front.example/en/blog/{slug}',
        },
      });
    });

    it('gives a page its views and no comments; a draft never published has no published slug', async () => {
      const page = await createDocument(app.strapi, PAGE, { title: 'Panel page', slug: 'panel-page' }, { publish: false });
      const res = await get(`/edit-panel/page/${page.documentId}`).expect(200);
      expect(res.body.data).toEqual({ views: 0, comments: null, thread: null, publishedSlug: null, urlTemplate: 'https://front.example/{slug}' });
    });

    it('answers 400 for an unknown kind and 404 for a document without that locale', async () => {
      const kind = await get('/edit-panel/menu/abc').expect(400);
      expect(kind.body.error).toMatchObject({ name: 'ValidationError', message: 'kind must be one of article, page' });
      const missing = await get('/edit-panel/article/no-such-document').expect(404);
      expect(missing.body.error).toMatchObject({ name: 'NotFoundError', message: 'Document not found' });
    });
  });

  describe('permissions', () => {
    it('needs an admin session', async () => {
      await app.request().get('/cms-plugin-bag/widgets/moderation').expect(401);
      await app.request().get('/cms-plugin-bag/widgets/most-read').expect(401);
      await app.request().get('/cms-plugin-bag/edit-panel/article/abc').expect(401);
    });

    it('gives the moderation queue only to comments.moderate, and the rest only to Content Manager readers of the type', async () => {
      const article = await createDocument(app.strapi, ARTICLE, { title: 'Guarded article', slug: 'guarded-article' });
      const moderatorRole = await createRoleWith(app, 'Queue moderator', ['plugin::cms-plugin-bag.comments.moderate']);
      const moderator = await adminLogin(app, await createAdminWithRole(app, moderatorRole, 'queue-moderator@example.com'));
      await get('/widgets/moderation', moderator).expect(200);
      await get('/widgets/most-read', moderator).expect(403);
      await get(`/edit-panel/article/${article.documentId}`, moderator).expect(403);

      const readerRole = await createRoleWith(app, 'Article reader', [{ action: 'plugin::content-manager.explorer.read', subject: ARTICLE, locales: ['en', 'fr'] }]);
      const reader = await adminLogin(app, await createAdminWithRole(app, readerRole, 'article-reader@example.com'));
      await get('/widgets/moderation', reader).expect(403);
      await get('/widgets/most-read', reader).expect(200);
      // Comments by status are moderation: left out without Moderate comments; the thread's state stays.
      const panel = await get(`/edit-panel/article/${article.documentId}`, reader).expect(200);
      expect(panel.body.data).not.toHaveProperty('comments');
      expect(panel.body.data).toMatchObject({ views: 0, thread: { pinned: 0, closed: false }, publishedSlug: 'guarded-article' });
      await get('/edit-panel/page/any', reader).expect(403);
      const page = await createDocument(app.strapi, PAGE, { title: 'Guarded page', slug: 'guarded-page' });
      await get(`/edit-panel/page/${page.documentId}`, reader).expect(403);
    });

    it("answers an author's panel for its own documents only: 403 for another's and for one that does not exist", async () => {
      const others = await createDocument(app.strapi, ARTICLE, { title: 'Someone else’s article', slug: 'someone-elses-article' });
      await createDocument(app.strapi, COMMENT, { content: 'Waiting', status: 'pending', article: others.documentId });
      // As Strapi's Author role: its own articles only (the "Is creator" condition), in the default locale.
      const roles = app.strapi.service('admin::role');
      const ownArticles = await roles.create({ name: 'Own articles', description: 'Own articles' });
      await roles.assignPermissions(
        ownArticles.id,
        ['create', 'read', 'update'].map((action) => ({
          action: `plugin::content-manager.explorer.${action}`,
          subject: ARTICLE,
          conditions: ['admin::is-creator'],
          properties: { locales: ['en'] },
        }))
      );
      const author = await adminLogin(app, await createAdminWithRole(app, ownArticles.id, 'panel-author@example.com'));
      const own = await app.request()
        .post(`/content-manager/collection-types/${ARTICLE}`)
        .set('Authorization', `Bearer ${author}`)
        .send({ title: 'The author’s own', slug: 'the-authors-own' })
        .expect(201);

      const mine = await get(`/edit-panel/article/${own.body.data.documentId}`, author).expect(200);
      expect(mine.body.data).toEqual({ views: 0, thread: { pinned: 0, closed: false }, publishedSlug: null, urlTemplate: 'https://front.example/en/blog/{slug}' });
      const theirs = await get(`/edit-panel/article/${others.documentId}`, author).expect(403);
      const missing = await get('/edit-panel/article/nosuchdocument0000000000', author).expect(403);
      expect(missing.body).toEqual(theirs.body);
      expect(theirs.body.error).toMatchObject({ name: 'ForbiddenError', message: 'Forbidden' });
      // An administrator who may read every article still learns that a document does not exist.
      await get('/edit-panel/article/nosuchdocument0000000000').expect(404);

      // Most read: published articles the author may read (its own, once published), never another's draft.
      await setViews(ARTICLE, others.documentId, 700_000);
      const draftOfAnother = await createDocument(app.strapi, ARTICLE, { title: 'Another’s secret draft', slug: 'anothers-secret-draft' }, { publish: false });
      await setViews(ARTICLE, draftOfAnother.documentId, 990_000);
      const widget = await get('/widgets/most-read', author).expect(200);
      expect(widget.body).toEqual({ data: [], meta: { locale: 'en' } });
      await app.request()
        .post(`/content-manager/collection-types/${ARTICLE}/${own.body.data.documentId}/actions/publish?locale=en`)
        .set('Authorization', `Bearer ${token}`)
        .send({})
        .expect(200);
      expect((await get('/widgets/most-read', author).expect(200)).body.data).toEqual([{ documentId: own.body.data.documentId, title: 'The author’s own', views: 0 }]);
    });
  });
});
