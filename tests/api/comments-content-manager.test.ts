/**
 * Comments in the Content Manager (docs/comments.md#choices-request-data-the-content-manager-deletion):
 * shown by their text, never by their IP (lists, relation fields, the homepage's "Last edited entries", a
 * configuration an earlier release stored), and approving or the site's badge only for *Moderate comments*.
 */
import { ARTICLE, COMMENT, adminTokenWithRole, createArticle } from '../helpers/comments';
import { adminToken } from '../helpers/fixtures';
import { setupStrapi, type TestApp } from '../helpers/strapi';

const CM = `/content-manager/collection-types/${COMMENT}`;
const MAIN_FIELD_STORE = { type: 'plugin', name: 'content_manager' } as const;
const configurationKey = (uid: string) => `configuration_content_types::${uid}`;

interface Configuration {
  settings: { mainField: string; defaultSortBy: string; defaultSortOrder: string };
  metadatas: Record<string, { edit: { mainField?: string } }>;
  layouts: { list: string[] };
}

describe('comments in the Content Manager', () => {
  let app: TestApp;
  let admin: string;

  beforeAll(async () => {
    app = await setupStrapi();
    admin = await adminToken(app);
  });
  afterAll(async () => {
    await app.stop();
  });

  const configurationOf = async (uid: string): Promise<Configuration> =>
    (await app.request().get(`/content-manager/content-types/${uid}/configuration`).set('Authorization', `Bearer ${admin}`).expect(200)).body.data
      .contentType;
  const stored = async (documentId: string) =>
    (await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId } })) as { status: string; isAdmin: boolean; content: string };
  const connect = (documentId: string) => ({ connect: [{ documentId }] });

  describe('shows a comment by its text, never its IP', () => {
    it('in the list, its default sort and columns, and every relation field that points to comments', async () => {
      const comment = await configurationOf(COMMENT);
      expect(comment.settings).toMatchObject({ mainField: 'content', defaultSortBy: 'createdAt', defaultSortOrder: 'DESC' });
      expect(comment.layouts.list).toEqual(['id', 'content', 'status', 'article']);
      expect(comment.metadatas.parent.edit.mainField).toBe('content');
      expect(comment.metadatas.children.edit.mainField).toBe('content');
      expect((await configurationOf(ARTICLE)).metadatas.comments.edit.mainField).toBe('content');
    });

    it("in the homepage's Last edited entries", async () => {
      const article = await createArticle(app.strapi);
      const created = await app.request()
        .post(CM)
        .set('Authorization', `Bearer ${admin}`)
        .set('X-Forwarded-For', '203.0.113.45')
        .send({ content: 'Shown by its words', article: connect(article.documentId) })
        .expect(201);
      const recent = await app.request().get('/content-manager/homepage/recent-documents?action=update').set('Authorization', `Bearer ${admin}`).expect(200);
      const entry = (recent.body.data as { documentId: string; title: string }[]).find((item) => item.documentId === created.body.data.documentId);
      expect(entry?.title).toBe('Shown by its words');
      expect(JSON.stringify(recent.body)).not.toMatch(/127\.0\.0\.1|203\.0\.113\.45/);
    });

    it('also once a configuration stored by an earlier release named the IP', async () => {
      const store = app.strapi.store(MAIN_FIELD_STORE);
      const byIp = async (uid: string, change: (configuration: Configuration) => void) => {
        const value = (await store.get({ key: configurationKey(uid) })) as Configuration;
        change(value);
        await store.set({ key: configurationKey(uid), value });
      };
      await byIp(COMMENT, (configuration) => {
        configuration.settings = { ...configuration.settings, mainField: 'ip', defaultSortBy: 'ip', defaultSortOrder: 'ASC' };
        configuration.metadatas.parent.edit.mainField = 'ip';
        configuration.metadatas.children.edit.mainField = 'userAgent';
      });
      await byIp(ARTICLE, (configuration) => {
        configuration.metadatas.comments.edit.mainField = 'ip';
      });
      expect((await configurationOf(COMMENT)).settings.mainField).toBe('ip');

      const { databaseFile } = app;
      await app.stop({ keepDatabase: true });
      app = await setupStrapi({ databaseFile });
      admin = await adminToken(app);

      const comment = await configurationOf(COMMENT);
      expect(comment.settings).toMatchObject({ mainField: 'content', defaultSortBy: 'createdAt', defaultSortOrder: 'DESC' });
      expect(comment.metadatas.parent.edit.mainField).toBe('content');
      expect(comment.metadatas.children.edit.mainField).toBe('content');
      expect((await configurationOf(ARTICLE)).metadatas.comments.edit.mainField).toBe('content');
    });
  });

  describe('approving and the badge need Moderate comments', () => {
    it('an Author creates a comment that is pending and without the badge, whatever it sends', async () => {
      const author = await adminTokenWithRole(app, 'strapi-author');
      const article = await createArticle(app.strapi);
      const res = await app.request()
        .post(CM)
        .set('Authorization', `Bearer ${author}`)
        .send({ content: 'Official-looking', status: 'approved', isAdmin: true, article: connect(article.documentId) })
        .expect(201);
      expect(await stored(res.body.data.documentId)).toMatchObject({ status: 'pending', isAdmin: false });
      const tree = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
      expect(tree.body.data).toEqual([]);
    });

    it('an Editor (every Content Manager permission, not Moderate comments) cannot approve or badge by an update or a clone', async () => {
      const editor = await adminTokenWithRole(app, 'strapi-editor');
      const article = await createArticle(app.strapi);
      const create = async (data: Record<string, unknown>) =>
        (await app.request().post(CM).set('Authorization', `Bearer ${admin}`).send({ ...data, article: connect(article.documentId) }).expect(201)).body.data
          .documentId as string;
      const documentId = await create({ content: 'A reader wrote this' });

      await app.request().put(`${CM}/${documentId}`).set('Authorization', `Bearer ${editor}`).send({ content: 'Rewritten', status: 'approved', isAdmin: true }).expect(200);
      expect(await stored(documentId)).toMatchObject({ content: 'Rewritten', status: 'pending', isAdmin: false });

      // An approved comment with the badge, cloned with other words.
      const badged = await create({ content: 'The site says', status: 'approved', isAdmin: true });
      expect(await stored(badged)).toMatchObject({ status: 'approved', isAdmin: true });
      const clone = await app.request()
        .post(`${CM}/clone/${badged}`)
        .set('Authorization', `Bearer ${editor}`)
        .send({ content: 'The site says something else', status: 'approved', isAdmin: true })
        .expect(200);
      expect(await stored(clone.body.data.documentId)).toMatchObject({ content: 'The site says something else', status: 'pending', isAdmin: false });
      // Editing the badged comment takes it back to review, without the badge.
      await app.request().put(`${CM}/${badged}`).set('Authorization', `Bearer ${editor}`).send({ content: 'Edited by an editor' }).expect(200);
      expect(await stored(badged)).toMatchObject({ status: 'pending', isAdmin: false });
    });

    it('an administrator with Moderate comments keeps the status and the badge it sets', async () => {
      const article = await createArticle(app.strapi);
      const res = await app.request()
        .post(CM)
        .set('Authorization', `Bearer ${admin}`)
        .send({ content: 'From the site', status: 'approved', isAdmin: true, article: connect(article.documentId) })
        .expect(201);
      expect(await stored(res.body.data.documentId)).toMatchObject({ status: 'approved', isAdmin: true });
    });
  });
});
