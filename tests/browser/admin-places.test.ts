/**
 * The plugin's places in Strapi's own screens, in headless Chromium against a playground serving its built admin
 * panel (`npm run build:admin`): the homepage widgets empty and with content, a role without *Moderate comments*
 * (no moderation widget), and the Content Manager side panel of an article with comments. Screenshots go to
 * tests/artifacts (docs/admin.md shows them).
 */
import type { Browser, Page } from 'playwright-core';
import { createAdminWithRole, createRoleWith, type AdminCredentials } from '../helpers/admin';
import { adminUiLogin, newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { adminToken, createDocument } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const SUPER_ADMIN = { email: 'admin@example.com', password: 'Admin-password-1' };
const ARTICLE = `${PLUGIN}.article`;
const COMMENT = `${PLUGIN}.comment`;

describe('homepage widgets and the edit-view side panel in a browser', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await startWithBrowser(() => setupStrapi({ serveAdmin: true, config: { site: { url: 'https://front.example' } } }));
    await adminToken(app);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const loggedIn = async (credentials: AdminCredentials = SUPER_ADMIN): Promise<Page> => {
    const page = await newPage(browser);
    await adminUiLogin(page, app.url, credentials);
    return page;
  };
  const setViews = (documentId: string, views: number) => app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId }, data: { views } });

  it('shows both widgets empty while no comment waits and no article exists', async () => {
    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin`);
      await page.getByText('Comments to moderate').waitFor();
      await page.getByText('No comment waits for moderation').waitFor();
      await page.getByText('Most read').waitFor();
      await page.getByText('No article yet').waitFor();
      await page.getByText('No article yet').scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-widgets-empty');
    } finally {
      await page.context().close();
    }
  });

  it('lists pending comments and the most read articles; each opens its page', async () => {
    const quiet = await createDocument(app.strapi, ARTICLE, { title: 'A quiet article', slug: 'a-quiet-article' });
    const popular = await createDocument(app.strapi, ARTICLE, { title: 'A popular article', slug: 'a-popular-article' });
    await setViews(quiet.documentId, 12);
    await setViews(popular.documentId, 340);
    const comments = [];
    for (const content of ['First comment waiting', 'Second comment waiting', 'Newest comment waiting']) {
      comments.push(await createDocument(app.strapi, COMMENT, { content, status: 'pending', article: popular.documentId }));
    }

    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin`);
      const queue = page.locator('[data-widget="moderation"]');
      await queue.getByText('3 comments waiting').waitFor();
      expect(await queue.locator('[data-queued]').evaluateAll((items) => items.map((item) => item.getAttribute('data-queued')))).toEqual(
        comments.map((comment) => comment.documentId).reverse()
      );
      const mostRead = page.locator('[data-widget="most-read"]');
      expect(await mostRead.getByRole('link').allTextContents()).toEqual(['A popular article', 'A quiet article']);
      await mostRead.getByText('340 views').waitFor();
      await queue.scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-widgets');

      await queue.getByRole('link', { name: 'Second comment waiting' }).click();
      await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
      await page.locator(`tr[data-comment="${comments[1].documentId}"][data-focused]`).waitFor();
      expect(await page.locator('tr[data-focused]').count()).toBe(1);

      await page.goto(`${app.url}/admin`);
      await page.locator('[data-widget="most-read"]').getByRole('link', { name: 'A popular article' }).click();
      await page.getByRole('heading', { name: 'A popular article' }).waitFor();
      expect(page.url()).toContain(`/content-manager/collection-types/${ARTICLE}/${popular.documentId}`);
    } finally {
      await page.context().close();
    }
  });

  it('shows no moderation widget to the Editor role (no Moderate comments)', async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'Read only', slug: 'read-only' });
    await createDocument(app.strapi, COMMENT, { content: 'Hidden from readers', status: 'pending', article: article.documentId });
    // The host's Editor role: the Content Manager on every type, none of the plugin's permissions; its read on
    // articles given the default locale, as an administrator sets it (Most read lists what the role may read).
    const editorReads = await app.strapi.db.query('admin::permission').findMany({
      where: { role: { code: 'strapi-editor' }, subject: ARTICLE, action: 'plugin::content-manager.explorer.read' },
    });
    for (const permission of editorReads) {
      await app.strapi.db.query('admin::permission').update({ where: { id: permission.id }, data: { properties: { ...permission.properties, locales: ['en'] } } });
    }
    const reader = await createAdminWithRole(app, 'strapi-editor', 'editor-widgets@example.com');
    const page = await loggedIn(reader);
    try {
      await page.goto(`${app.url}/admin`);
      await page.locator('[data-widget="most-read"]').waitFor();
      expect(await page.getByText('Comments to moderate').count()).toBe(0);
      // The pending comment is not in a moderation queue (the host's "Last edited entries" may list it by its text:
      // the role reads comments in the Content Manager).
      expect(await page.locator('[data-widget="moderation"], [data-queued]').count()).toBe(0);
      await page.locator('[data-widget="most-read"]').scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-widgets-no-moderation');
    } finally {
      await page.context().close();
    }
  });

  it('leaves the comments by status out of the panel for a role without Moderate comments, and keeps the thread', async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'Counts left out', slug: 'counts-left-out' });
    await createDocument(app.strapi, COMMENT, { content: 'Pending beside the panel', status: 'pending', article: article.documentId });
    const permissions = ['read', 'update'].map((action) => ({ action: `plugin::content-manager.explorer.${action}`, subject: ARTICLE, locales: ['en'] }));
    const editor = await createAdminWithRole(app, await createRoleWith(app, 'Article editor', permissions), 'panel-editor@example.com');
    const page = await loggedIn(editor);
    try {
      await page.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.documentId}?plugins[i18n][locale]=en`);
      const panel = page.locator('[data-panel="article"]');
      await panel.getByText('0 views').waitFor();
      await panel.locator('[data-thread="open"]').waitFor();
      expect(await panel.locator('[data-status]').count()).toBe(0);
      expect(await panel.getByRole('link', { name: 'Moderate this article’s comments' }).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('shows views, comments by status and the SEO preview beside an article, warns live, and links to its moderation', async () => {
    const article = await createDocument(app.strapi, ARTICLE, {
      title: 'An article whose title is far too long for the sixty characters of a search result',
      slug: 'side-panel-article',
    });
    await setViews(article.documentId, 77);
    for (const [content, status] of [
      ['Waiting on the panel article', 'pending'],
      ['Approved on the panel article', 'approved'],
      ['Also approved', 'approved'],
      ['Rejected on the panel article', 'rejected'],
    ]) {
      await createDocument(app.strapi, COMMENT, { content, status, article: article.documentId });
    }
    await createDocument(app.strapi, COMMENT, { content: 'On another article', status: 'pending', article: (await createDocument(app.strapi, ARTICLE, { title: 'Elsewhere', slug: 'elsewhere' })).documentId });

    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.documentId}?plugins[i18n][locale]=en`);
      const panel = page.locator('[data-panel="article"]');
      await panel.getByText('77 views').waitFor();
      await page.getByText('Readers and search').waitFor();
      expect(await panel.locator('[data-status]').allTextContents()).toEqual(['1 pending', '2 approved', '1 rejected']);
      expect(await panel.locator('[data-seo-url]').textContent()).toBe('https://front.example/articles/side-panel-article');
      expect(await panel.locator('[data-warning]').evaluateAll((items) => items.map((item) => item.getAttribute('data-warning')))).toEqual([
        'titleLong',
        'descriptionMissing',
      ]);
      await panel.getByText('The title is 82 characters long; search results show about 60').waitFor();

      await panel.getByRole('link', { name: 'Moderate this article’s comments' }).click();
      await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
      await page.getByRole('button', { name: /^Article: An article whose title/ }).waitFor();
      await page.waitForFunction(() => document.querySelectorAll('tr[data-comment]').length === 4);
      expect(await page.getByText('On another article').count()).toBe(0);

      // Back on the edit view: the preview follows the form as it is typed, before any save.
      await page.goBack();
      await panel.getByText('77 views').waitFor();
      await page.locator('input[name="slug"]').fill('side-panel-renamed');
      await panel.locator('[data-warning="slugChanged"]').getByText('The slug changed since publishing: the old URL will redirect').waitFor();
      expect(await panel.locator('[data-seo-url]').textContent()).toBe('https://front.example/articles/side-panel-renamed');
      await page.locator('textarea[name="summary"]').fill('A short summary for the search result.');
      await panel.locator('[data-seo-description]').getByText('A short summary for the search result.').waitFor();
      expect(await panel.locator('[data-warning="descriptionMissing"]').count()).toBe(0);
      await panel.locator('[data-seo]').scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-edit-panel');
    } finally {
      await page.context().close();
    }
  });
});
