/** The playground's example pages in headless Chromium: WebCrypto login, and the client bundle end to end. */
import type { Browser } from 'playwright-core';
import { newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { createDocument, createUser, type TestUser } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

describe('example pages in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let user: TestUser;
  let article: { documentId: string };

  beforeAll(async () => {
    [app, browser] = await startWithBrowser(() => setupStrapi());
    user = await createUser(app.strapi);
    article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Example article', slug: 'example-article', summary: 'Read me' });
    const menu = await createDocument(app.strapi, `${PLUGIN}.menu`, { title: 'Main', slug: 'main' });
    const parent = await createDocument(app.strapi, `${PLUGIN}.menu-item`, { title: 'Docs', url: '/docs', menu: menu.documentId });
    await createDocument(app.strapi, `${PLUGIN}.menu-item`, { title: 'Client', url: '/docs/client', menu: menu.documentId, parent: parent.documentId });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('serves the client bundle to the pages as a JavaScript module, and the favicon browsers ask for', async () => {
    const res = await app.request().get('/cms-bag-client.mjs').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.text).toContain('export');
    expect(res.text).toContain('createClient');
    // The host's favicon middleware answers 500 when the app has no favicon.png.
    expect((await app.request().get('/favicon.ico').expect(200)).headers['content-type']).toBe('image/x-icon');
  });

  it('crypto-login.html encrypts the password with crypto.subtle and logs in with encryptedPassword only', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/crypto-login.html`);
    await page.getByLabel('Username or e-mail').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/cms-plugin-bag/auth/login')),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    const sent = JSON.parse(request.postData() ?? '{}');
    expect(Object.keys(sent).sort()).toEqual(['encryptedPassword', 'identifier']);
    expect(request.postData()).not.toContain(user.password);

    await page.getByText(`Logged in as ${user.username}`).waitFor();
    expect(await page.locator('#result').getAttribute('data-status')).toBe('200');
    await screenshot(page, 'crypto-login');
    await page.context().close();
  });

  it('example.html logs in, shows the menu tree and the article, posts a comment and logs out', async () => {
    const page = await newPage(browser);
    await page.goto(`${app.url}/example.html?view=account`);
    await page.locator('#menu > li > ul > li', { hasText: 'Client' }).waitFor();
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(`Logged in as ${user.username}`).waitFor();
    expect(await page.evaluate(() => Boolean(localStorage.getItem('cms-bag:jwt') && localStorage.getItem('cms-bag:refreshToken')))).toBe(true);

    await page.goto(`${app.url}/example.html?article=example-article`);
    await page.getByRole('heading', { name: 'Example article' }).waitFor();
    await page.getByPlaceholder('Write a comment').fill('Posted from Chromium');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.getByText('Thanks! Your comment is waiting for moderation.').waitFor();
    const documentId = await page.locator('#comment-status').getAttribute('data-document-id');
    await screenshot(page, 'example-page');

    const stored = await app.strapi.documents(`${PLUGIN}.comment` as never).findOne({ documentId: documentId!, populate: ['author', 'article'] } as never);
    expect(stored).toMatchObject({ content: 'Posted from Chromium', status: 'pending', author: { id: user.id }, article: { documentId: article.documentId } });

    await page.getByRole('link', { name: `Account (${user.username})` }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('Not logged in').waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('cms-bag:jwt'), localStorage.getItem('cms-bag:refreshToken')])).toEqual([null, null]);
    await page.context().close();
  });

  it('example.html searches as the user types: results link to the article, matches in <mark>, markup of the text escaped', async () => {
    await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Narwhal <i>tusks</i>', slug: 'narwhal-tusks', summary: 'A narwhal far away.' });
    const page = await newPage(browser);
    await page.goto(`${app.url}/example.html`);
    await page.locator('#articles li', { hasText: 'Example article' }).waitFor();
    expect(await page.locator('#feed-rss').getAttribute('href')).toBe(`${app.url}/api/bag/feeds/articles.rss`);
    expect(await page.locator('#sitemap').getAttribute('href')).toBe(`${app.url}/api/bag/sitemap.xml`);
    expect(await page.locator('link[rel="alternate"][type="application/atom+xml"]').getAttribute('href')).toBe(`${app.url}/api/bag/feeds/articles.atom`);

    await page.getByLabel('Search articles').pressSequentially('narwhal');
    const result = page.locator('#search-results li');
    await result.first().waitFor();
    expect(await result.count()).toBe(1);
    expect(await result.locator('a mark').textContent()).toBe('Narwhal');
    expect(await result.locator('a').textContent()).toBe('Narwhal <i>tusks</i>');
    expect(await result.locator('i').count()).toBe(0);
    expect(await result.locator('p mark').textContent()).toBe('narwhal');
    expect(await result.locator('a').getAttribute('href')).toBe('/example.html?article=narwhal-tusks');
    expect(await page.locator('#search-status').textContent()).toBe('1 found');
    await screenshot(page, 'example-search');

    await page.getByLabel('Search articles').fill('nothingmatchesthis');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Nothing found.').waitFor();
    expect(await result.count()).toBe(0);
    await page.context().close();
  });

  it('example.html asks for an image captcha when the login captcha is on', async () => {
    await app.strapi.plugin('cms-plugin-bag').service('settings').update({ login: { captcha: { enabled: true, type: 'image' } } });
    try {
      const page = await newPage(browser);
      await page.goto(`${app.url}/example.html?view=account`);
      await page.getByLabel('Username or e-mail').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('Captcha code is required').waitFor();
      await page.locator('#captcha-image svg').waitFor();
      expect(await page.getByLabel('Code', { exact: true }).isVisible()).toBe(true);
      await page.context().close();
    } finally {
      await app.strapi.plugin('cms-plugin-bag').service('settings').update({ login: { captcha: { enabled: false } } });
    }
  });
});
