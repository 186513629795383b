/**
 * The plugin's admin pages in headless Chromium against a playground serving its built admin panel
 * (`npm run build:admin`): settings applied without a restart, moderation, a role without the permissions, and a
 * translated article in the Content Manager.
 */
import type { Browser, Page } from 'playwright-core';
import { adminLogin, createAdminWithRole, createRoleWith, type AdminCredentials } from '../helpers/admin';
import { adminUiLogin, newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { adminToken, createDocument, createUser, jwtFor } from '../helpers/fixtures';
import { addLocales, EXTRA_LOCALES } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const SUPER_ADMIN = { email: 'admin@example.com', password: 'Admin-password-1' };

describe('admin panel in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let editor: AdminCredentials;

  beforeAll(async () => {
    // Each test logs the admin in through the login form: more than the host's 5 admin logins per 5 minutes.
    [app, browser] = await startWithBrowser(() => setupStrapi({ serveAdmin: true, env: { ADMIN_RATE_LIMIT: 'false' } }));
    await adminToken(app);
    editor = await createAdminWithRole(app, 'strapi-editor', 'editor-browser@example.com');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const loggedIn = async (credentials = SUPER_ADMIN): Promise<Page> => {
    const page = await newPage(browser);
    await adminUiLogin(page, app.url, credentials);
    return page;
  };
  /** Settings → CMS Bag, reached as an editor would: the Settings page, then its link. */
  const openSettings = async (page: Page) => {
    await page.goto(`${app.url}/admin/settings`);
    await page.getByRole('link', { name: 'CMS Bag' }).click();
    await page.getByRole('heading', { name: 'CMS Bag settings' }).waitFor();
  };

  it('turns the login captcha on from Settings → CMS Bag, and login without a code is refused at once', async () => {
    const user = await createUser(app.strapi);
    const page = await loggedIn();
    await openSettings(page);

    const fingerprint = await app.strapi.plugin('cms-plugin-bag').service('crypto').publicKeyFingerprint();
    await page.getByText(fingerprint).waitFor();
    expect(await page.content()).not.toContain('PRIVATE KEY');

    const toggle = page.getByRole('checkbox', { name: 'Login captcha' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();
    await screenshot(page, 'settings-page');

    const effective = await app.strapi.plugin('cms-plugin-bag').service('settings').get();
    expect(effective.login.captcha.enabled).toBe(true);

    const res = await app
      .request()
      .post('/api/cms-plugin-bag/auth/login')
      .send({ identifier: user.email, password: user.password });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Captcha code is required');

    await page.reload();
    expect(await page.getByRole('checkbox', { name: 'Login captcha' }).isChecked()).toBe(true);
    await page.context().close();
  });

  it('offers the proof-of-work captcha type on Settings → CMS Bag and saves it', async () => {
    const page = await loggedIn();
    try {
      await openSettings(page);
      await page.getByRole('combobox', { name: 'Login captcha type' }).click();
      await page.getByRole('option', { name: 'Proof of work (computed by the browser)' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Settings saved').waitFor();
      expect((await app.strapi.plugin('cms-plugin-bag').service('settings').get()).login.captcha.type).toBe('pow');
    } finally {
      await page.context().close();
      await app.strapi.plugin('cms-plugin-bag').service('settings').update({ login: { captcha: { type: 'image' } } });
    }
  });

  it('turns newsletters off on Settings → CMS Bag: the public newsletter routes answer 404 at once', async () => {
    const page = await loggedIn();
    try {
      await openSettings(page);
      expect(await page.getByRole('checkbox', { name: 'Confirm subscriptions by e-mail' }).isChecked()).toBe(true);
      const toggle = page.getByRole('checkbox', { name: 'Newsletters', exact: true });
      expect(await toggle.isChecked()).toBe(true);
      await toggle.click({ force: true });
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Settings saved').waitFor();
      expect((await app.strapi.plugin('cms-plugin-bag').service('settings').get()).newsletters).toEqual({ ...app.strapi.plugin('cms-plugin-bag').service('settings').file().newsletters, enabled: false });
      const res = await app.request().get('/api/bag/newsletters').expect(404);
      expect(res.body.error.message).toBe('Newsletters are disabled');
    } finally {
      await page.context().close();
      await app.strapi.plugin('cms-plugin-bag').service('settings').update({ newsletters: { enabled: true } });
    }
  });

  it('approves a pending comment on the moderation page and it appears in the public tree', async () => {
    const author = await createUser(app.strapi);
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Moderated article', slug: 'moderated-article' });
    const comment = await createDocument(app.strapi, `${PLUGIN}.comment`, {
      content: 'Please approve me',
      status: 'pending',
      article: article.documentId,
      author: author.id,
      ip: '203.0.113.7',
      userAgent: 'BrowserTest/1.0',
    });
    const before = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    expect(before.body.data.map((node: { documentId: string }) => node.documentId)).not.toContain(comment.documentId);

    const page = await loggedIn();
    await page.goto(`${app.url}/admin`);
    await page.getByRole('link', { name: 'Comments' }).click();
    await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
    const row = page.locator(`tr[data-comment="${comment.documentId}"]`);
    await row.getByText('Please approve me').waitFor();
    await row.getByText('203.0.113.7').waitFor();
    await row.getByText('BrowserTest/1.0').waitFor();
    await screenshot(page, 'moderation-page');

    await row.getByRole('button', { name: 'Approve' }).click();
    await row.getByText('Approved').waitFor();

    const after = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    expect(after.body.data).toEqual([expect.objectContaining({ documentId: comment.documentId, content: 'Please approve me' })]);
    expect(JSON.stringify(after.body)).not.toContain('203.0.113.7');
    await page.context().close();
  });

  it('pins a root comment and closes its thread from the moderation page; the public thread follows', async () => {
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Pinned article', slug: 'pinned-article' });
    const older = await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'The answer everyone needs', status: 'approved', article: article.documentId });
    const newer = await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'A later remark', status: 'approved', article: article.documentId });
    const order = async () =>
      (await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200)).body.data.map((node: { documentId: string }) => node.documentId);
    expect(await order()).toEqual([older.documentId, newer.documentId]);

    const page = await loggedIn();
    await page.goto(`${app.url}/admin`);
    await page.getByRole('link', { name: 'Comments' }).click();
    await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
    const row = page.locator(`tr[data-comment="${newer.documentId}"]`);
    await row.getByText('A later remark').waitFor();
    await row.getByRole('button', { name: 'Pin', exact: true }).click();
    await row.getByText('Pinned', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Unpin' }).waitFor();
    expect(await order()).toEqual([newer.documentId, older.documentId]);

    await row.getByRole('button', { name: 'Close thread' }).click();
    await row.getByText('Thread closed', { exact: true }).first().waitFor();
    await row.getByRole('button', { name: 'Reopen thread' }).waitFor();
    await screenshot(page, 'moderation-pin-close');
    const refused = await app.request().post('/api/bag/comments').send({ content: 'late', article: article.documentId }).expect(403);
    expect(refused.body.error.message).toBe('Comments are closed for this article');

    await row.getByRole('button', { name: 'Reopen thread' }).click();
    await row.getByRole('button', { name: 'Close thread' }).waitFor();
    await app.request().post('/api/bag/comments').send({ content: 'welcome back', article: article.documentId }).expect(201);
    await page.context().close();
  });

  it('lists a reported comment under "Reported only" with its reason, likes and count; approving clears its reports', async () => {
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Reported article', slug: 'reported-article' });
    const comment = await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'Buy cheap watches', status: 'approved', article: article.documentId });
    const other = await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'A fine comment', status: 'approved', article: article.documentId });
    await app.request().post(`/api/bag/comments/${comment.documentId}/like`).expect(200);
    const reasons = [{ reason: 'spam', details: 'Advertising watches' }, { reason: 'off-topic' }, { reason: 'abuse' }];
    // Three reporters: reports need an account (comments.reports.guests is off by default).
    for (const body of reasons) {
      const reporter = `Bearer ${jwtFor(app.strapi, await createUser(app.strapi))}`;
      await app.request().post(`/api/bag/comments/${comment.documentId}/report`).set('Authorization', reporter).send(body).expect(200);
    }
    // The third report reached the threshold: the comment left the public tree and waits for moderation.
    const hidden = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    expect(hidden.body.data.map((node: { documentId: string }) => node.documentId)).toEqual([other.documentId]);

    const page = await loggedIn();
    await page.goto(`${app.url}/admin/plugins/cms-plugin-bag`);
    await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
    // The list of every status is on screen until the filtered one arrives: wait for that answer, then for the table.
    const filtered = page.waitForResponse((res) => res.url().includes('/cms-plugin-bag/comments?') && res.url().includes('reported=true'));
    await page.getByRole('button', { name: 'Reported only' }).click();
    const listed = (await (await filtered).json()) as { data: { documentId: string }[] };
    const ids = listed.data.map((item) => item.documentId);
    expect(ids).toContain(comment.documentId);
    expect(ids).not.toContain(other.documentId);
    await page.locator(`tr[data-comment="${other.documentId}"]`).waitFor({ state: 'detached' });
    const row = page.locator(`tr[data-comment="${comment.documentId}"]`);
    await row.getByText('Reported 3 times:').waitFor();
    await row.getByText(/spam — Advertising watches/).waitFor();
    await row.locator('[data-report-reason="off-topic"]').waitFor();
    expect(await row.locator('[data-likes]').textContent()).toBe('1');
    expect(await row.locator('[data-report-count]').textContent()).toBe('3');
    expect(await page.locator(`tr[data-comment="${other.documentId}"]`).count()).toBe(0);
    await screenshot(page, 'moderation-reported');

    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('No comments match these filters.').waitFor();
    const shown = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    expect(shown.body.data.map((node: { documentId: string }) => node.documentId).sort()).toEqual([comment.documentId, other.documentId].sort());
    const stored = await app.strapi.db.query(`${PLUGIN}.comment` as never).findOne({ where: { documentId: comment.documentId } });
    expect(stored).toMatchObject({ status: 'approved', reportCount: 0, likes: 1 });
    await page.context().close();
  });

  it('approves several comments at once and replies as the site with the isAdmin badge', async () => {
    const article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Busy article', slug: 'busy-article' });
    const comments: { documentId: string }[] = [];
    for (const content of ['First of many', 'Second of many']) {
      comments.push(await createDocument(app.strapi, `${PLUGIN}.comment`, { content, status: 'pending', article: article.documentId }));
    }

    const page = await loggedIn();
    await page.goto(`${app.url}/admin/plugins/cms-plugin-bag`);
    await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
    for (const comment of comments) {
      await page.locator(`tr[data-comment="${comment.documentId}"]`).getByRole('checkbox').click();
    }
    await page.getByRole('button', { name: 'Approve selected (2)' }).click();
    for (const comment of comments) {
      await page.locator(`tr[data-comment="${comment.documentId}"]`).getByText('Approved').waitFor();
    }

    await page.locator(`tr[data-comment="${comments[0].documentId}"]`).getByRole('button', { name: 'Reply as the site' }).click();
    await page.getByRole('dialog').getByRole('textbox').fill('Thanks, from the editors');
    await page.getByRole('button', { name: 'Publish reply' }).click();
    await page.getByText('Reply published').waitFor();

    const tree = await app.request().get(`/api/bag/articles/${article.documentId}/comments`).expect(200);
    expect(tree.body.meta.total).toBe(3);
    const first = tree.body.data.find((node: { documentId: string }) => node.documentId === comments[0].documentId);
    expect(first.children).toEqual([expect.objectContaining({ content: 'Thanks, from the editors', isAdmin: true })]);
    await page.context().close();
  });

  describe('with a second locale', () => {
    const ARTICLE = `${PLUGIN}.article`;
    /** An article published in en and in fr (the fr version added to the document, as the locale switcher does). */
    const translatedArticle = async (en: { title: string; slug: string }, fr: { title: string; slug: string }) => {
      const article = await createDocument(app.strapi, ARTICLE, en);
      const documents = app.strapi.documents(ARTICLE as never);
      await documents.update({ documentId: article.documentId, locale: 'fr', data: fr as never });
      await documents.publish({ documentId: article.documentId, locale: 'fr' });
      return article;
    };

    // A super admin of its own: the host limits admin logins per e-mail address (5 per 5 minutes).
    let translator: AdminCredentials;

    beforeAll(async () => {
      await addLocales(app.strapi, EXTRA_LOCALES.slice(0, 1));
      translator = await createAdminWithRole(app, 'strapi-super-admin', 'translator-browser@example.com');
    });

    it('shows the fr version of a translated article in the Content Manager, and the en version in en', async () => {
      const article = await translatedArticle(
        { title: 'Translated article', slug: 'translated-article' },
        { title: 'Article traduit', slug: 'article-traduit' }
      );
      const page = await loggedIn(translator);
      try {
        const editView = `${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.documentId}`;
        await page.goto(`${editView}?plugins[i18n][locale]=fr`);
        const title = page.locator('input[name="title"]');
        await title.waitFor();
        await page.getByRole('heading', { name: 'Article traduit' }).waitFor();
        // The locale switcher says which version this is.
        await page.getByRole('combobox').filter({ hasText: 'French (fr)' }).waitFor();
        expect(await title.inputValue()).toBe('Article traduit');
        expect(await page.locator('input[name="slug"]').inputValue()).toBe('article-traduit');
        await screenshot(page, 'content-manager-fr');

        await page.goto(`${editView}?plugins[i18n][locale]=en`);
        await page.getByRole('heading', { name: 'Translated article' }).waitFor();
        expect(await page.locator('input[name="title"]').inputValue()).toBe('Translated article');
      } finally {
        await page.context().close();
      }
    });

    it("lists a comment on a translated article under the default locale's title on the moderation page", async () => {
      const article = await translatedArticle(
        { title: 'Commented in English', slug: 'commented-in-english' },
        { title: 'Commenté en français', slug: 'commente-en-francais' }
      );
      const comment = await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'A comment on a translated article', status: 'pending', article: article.documentId });
      // A comment on another article, which the article filter must leave out.
      const elsewhere = await createDocument(app.strapi, ARTICLE, { title: 'Another article', slug: 'another-article' });
      await createDocument(app.strapi, `${PLUGIN}.comment`, { content: 'A comment elsewhere', status: 'pending', article: elsewhere.documentId });
      const page = await loggedIn(translator);
      try {
        await page.goto(`${app.url}/admin/plugins/cms-plugin-bag`);
        await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
        const row = page.locator(`tr[data-comment="${comment.documentId}"]`);
        await row.getByRole('link', { name: 'Commented in English' }).waitFor();
        expect(await row.getByText('Commenté en français').count()).toBe(0);

        expect(await page.locator('tr[data-comment]').count()).toBeGreaterThan(1);

        // The article filter keeps working on the document: only its comment is left.
        await row.getByRole('button', { name: 'Only this article' }).click();
        await page.getByRole('button', { name: 'Article: Commented in English' }).waitFor();
        await page.waitForFunction(() => document.querySelectorAll('tr[data-comment]').length === 1);
        await page.locator(`tr[data-comment="${comment.documentId}"]`).getByText('A comment on a translated article').waitFor();
      } finally {
        await page.context().close();
      }
    });
  });

  it('gives a role without the settings permission no settings link, no page and 403 from the API', async () => {
    const page = await loggedIn(editor);
    await page.goto(`${app.url}/admin/settings`);
    await page.getByRole('heading', { name: 'Settings' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'CMS Bag' }).count()).toBe(0);

    await page.goto(`${app.url}/admin/settings/cms-plugin-bag`);
    await page.getByText("You don't have the permissions to access that content").waitFor();
    expect(await page.getByRole('heading', { name: 'CMS Bag settings' }).count()).toBe(0);
    await screenshot(page, 'settings-no-permission');

    const token = await adminLogin(app, editor);
    await app.request().get('/cms-plugin-bag/settings').set('Authorization', `Bearer ${token}`).expect(403);
    await app
      .request()
      .put('/cms-plugin-bag/settings')
      .set('Authorization', `Bearer ${token}`)
      .send({ login: { captcha: { enabled: false } } })
      .expect(403);
    await page.context().close();
  });

  it('shows the moderation menu entry only to a role holding comments.moderate', async () => {
    const roleId = await createRoleWith(app, 'Moderator', ['plugin::cms-plugin-bag.comments.moderate']);
    const moderator = await createAdminWithRole(app, roleId, 'moderator-browser@example.com');
    const page = await loggedIn(moderator);
    await page.goto(`${app.url}/admin`);
    await page.getByRole('link', { name: 'Comments' }).waitFor();
    await page.goto(`${app.url}/admin/settings`);
    expect(await page.getByRole('link', { name: 'CMS Bag' }).count()).toBe(0);
    await page.context().close();

    const editorPage = await loggedIn(editor);
    await editorPage.goto(`${app.url}/admin`);
    await editorPage.getByRole('link', { name: 'Content Manager' }).waitFor();
    expect(await editorPage.getByRole('link', { name: 'Comments' }).count()).toBe(0);
    await editorPage.context().close();
  });
});
