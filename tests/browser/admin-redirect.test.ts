/**
 * A slug changed in the Content Manager, as an editor does it (the host's Editor role, the edit view in headless
 * Chromium against the playground's built admin panel, `npm run build:admin`): the side panel warns that the old URL
 * will redirect, and once published the old slug answers the plugin's 301, which the example site follows.
 */
import type { Browser } from 'playwright-core';
import { createAdminWithRole, createRoleWith } from '../helpers/admin';
import { adminUiLogin, newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { adminToken, createDocument } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;

describe('a slug changed in the Content Manager redirects', () => {
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

  it('publishes the new slug; the old one answers 301 to it and the example site shows the new address', async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'Renamed by an editor', slug: 'before-the-rename', summary: 'Moved.' });
    // An editor of articles: the Content Manager's read, update and publish on the article type in the default
    // locale. (The host's own Editor role, as a fresh app seeds it, has no locale and no publish on this type.)
    const fields = ['title', 'slug', 'summary', 'content', 'cover', 'isTop', 'category', 'tags', 'author'];
    const roleId = await createRoleWith(
      app,
      'Article editor',
      ['read', 'update', 'publish'].map((action) => ({
        action: `plugin::content-manager.explorer.${action}`,
        subject: ARTICLE,
        locales: ['en'],
        ...(action === 'publish' ? {} : { fields }),
      }))
    );
    const editor = await createAdminWithRole(app, roleId, 'editor-redirect@example.com');

    const admin = await newPage(browser);
    try {
      await adminUiLogin(admin, app.url, editor);
      await admin.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.documentId}?plugins[i18n][locale]=en`);
      const slug = admin.locator('input[name="slug"]');
      await slug.waitFor();
      expect(await slug.inputValue()).toBe('before-the-rename');
      await slug.fill('after-the-rename');
      const panel = admin.locator('[data-panel="article"]');
      await panel.locator('[data-warning="slugChanged"]').getByText('the old URL will redirect').waitFor();
      await panel.locator('[data-seo]').scrollIntoViewIfNeeded();
      await screenshot(admin, 'admin-slug-redirect');

      const [published] = await Promise.all([
        admin.waitForResponse((res) => res.request().method() === 'POST' && res.url().includes(`/${article.documentId}/actions/publish`)),
        admin.getByRole('button', { name: 'Publish' }).click(),
      ]);
      expect(published.status()).toBe(200);
    } finally {
      await admin.context().close();
    }

    const moved = await app.request().get('/api/bag/articles/before-the-rename').expect(301);
    expect(moved.headers.location).toBe('/api/bag/articles/after-the-rename');
    expect(moved.body).toEqual({ data: null, redirect: { slug: 'after-the-rename', locale: 'en', path: '/articles/after-the-rename' } });

    const site = await newPage(browser);
    try {
      await site.goto(`${app.url}/example.html?article=before-the-rename`);
      await site.getByRole('heading', { name: 'Renamed by an editor' }).waitFor();
      expect(new URL(site.url()).search).toBe('?article=after-the-rename');
      await site.getByText('This article moved: “before-the-rename” is now “after-the-rename”.').waitFor();
    } finally {
      await site.context().close();
    }
  });
});
