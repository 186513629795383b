/**
 * The playground's example site (playground/public/example.html and its modules) in headless Chromium: the article
 * list with banners, categories, tags, search and pages; an article with its views, locale switch and comment thread
 * (post, moderation, reply, edit, delete, follow, closed); the account view from the navigation; an old slug
 * followed to the current one.
 */
import fs from 'fs';
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { createDocument, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { addLocales } from '../helpers/locales';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const ARTICLE = `${PLUGIN}.article`;

describe('the example site in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let user: TestUser;

  beforeAll(async () => {
    [app, browser] = await startWithBrowser(() => setupStrapi({ config: { rateLimit: { enabled: false } } }));
    await addLocales(app.strapi, [{ code: 'fr', name: 'French (fr)' }]);
    user = await createUser(app.strapi);
    const menu = await createDocument(app.strapi, `${PLUGIN}.menu`, { title: 'Main', slug: 'main' });
    await createDocument(app.strapi, `${PLUGIN}.menu-item`, { title: 'About', url: '/about', menu: menu.documentId });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const comments = () => app.strapi.plugin('cms-plugin-bag').service('comments');
  const approve = (documentId: string) => comments().setStatus([documentId], 'approved');

  /** Opens a view of the site and waits until it is drawn (`data-ready` on the body). */
  const open = async (page: Page, query = '') => {
    await page.goto(`${app.url}/example.html${query}`);
    await page.locator('body[data-ready]').waitFor();
  };
  const titles = (page: Page) => page.locator('#articles li h2').allTextContents();

  const logIn = async (page: Page) => {
    await open(page, '?view=account');
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(`Logged in as ${user.username}`).waitFor();
  };

  it('lists the articles with banners, categories, tags, search and pages', async () => {
    const news = await createDocument(app.strapi, `${PLUGIN}.category`, { title: 'News', slug: 'news' });
    const tech = await createDocument(app.strapi, `${PLUGIN}.category`, { title: 'Tech', slug: 'tech' });
    const ocean = await createDocument(app.strapi, `${PLUGIN}.tag`, { title: 'ocean', slug: 'ocean' });
    await createDocument(app.strapi, `${PLUGIN}.tag`, { title: 'unused', slug: 'unused' });
    await createDocument(app.strapi, `${PLUGIN}.banner`, { title: 'Second banner', group: 'home', order: 1 });
    await createDocument(app.strapi, `${PLUGIN}.banner`, { title: 'Welcome', subtitle: 'A demo site', link: '/example.html', group: 'home', order: 0 });
    await createDocument(app.strapi, `${PLUGIN}.banner`, { title: 'Blog header', group: 'blog', order: 0 });
    for (let n = 1; n <= 7; n += 1) {
      await createDocument(app.strapi, ARTICLE, {
        title: n === 6 ? 'Site article 6 about a narwhal' : `Site article ${n}`,
        slug: `site-article-${n}`,
        summary: `Summary ${n}`,
        category: (n <= 3 ? news : tech).documentId,
        tags: n === 2 || n === 6 ? [ocean.documentId] : [],
      });
    }

    const page = await newPage(browser, { reader: true });
    await open(page);
    expect(await page.locator('#menu a').allTextContents()).toEqual(['About']);
    expect(await page.locator('#banners li').allTextContents()).toEqual(['WelcomeA demo site', 'Second banner']);
    expect(await titles(page)).toEqual(['Site article 7', 'Site article 6 about a narwhal', 'Site article 5', 'Site article 4', 'Site article 3']);
    expect(await page.locator('#pagination').textContent()).toBe('PreviousPage 1 of 2Next');
    expect(await page.locator('#categories a').allTextContents()).toEqual(['News', 'Tech']);
    expect(await page.locator('#tags a').allTextContents()).toEqual(['#ocean', '#unused']);
    expect(await page.locator('#articles li', { hasText: 'Site article 2' }).count()).toBe(0);
    await screenshot(page, 'example-list');

    await page.locator('#pagination').getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/[?&]page=2/);
    await page.locator('body[data-ready]').waitFor();
    expect(await titles(page)).toEqual(['Site article 2', 'Site article 1']);
    expect(await page.locator('#pagination').textContent()).toBe('PreviousPage 2 of 2Next');

    await page.locator('#categories').getByRole('link', { name: 'News' }).click();
    await page.waitForURL(/\?category=news$/);
    await page.locator('body[data-ready]').waitFor();
    expect(await titles(page)).toEqual(['Site article 3', 'Site article 2', 'Site article 1']);
    expect(await page.locator('#list-filter').textContent()).toBe('Category: news · show all');
    expect(await page.locator('#categories a[aria-current="page"]').textContent()).toBe('News');
    expect(await page.locator('#pagination').textContent()).toBe('3 articles');

    await page.locator('#tags').getByRole('link', { name: '#ocean' }).click();
    await page.waitForURL(/\?tag=ocean$/);
    await page.locator('body[data-ready]').waitFor();
    expect(await titles(page)).toEqual(['Site article 6 about a narwhal', 'Site article 2']);

    // Search within the tag's articles (as the user types too: examples.test.ts).
    await page.getByLabel('Search articles').fill('narwhal');
    await page.getByRole('button', { name: 'Search' }).click();
    const hit = page.locator('#search-results li');
    await hit.first().waitFor();
    expect(await hit.count()).toBe(1);
    expect(new URL(page.url()).search).toBe('?tag=ocean&q=narwhal');
    expect(await hit.locator('a mark').textContent()).toBe('narwhal');
    expect(await hit.locator('a').getAttribute('href')).toBe('/example.html?article=site-article-6');
    await hit.locator('a').click();
    await page.getByRole('heading', { name: 'Site article 6 about a narwhal' }).waitFor();
    await page.context().close();
  });

  it('shows an article with its views and languages, and its thread: post, moderation, reply, edit, delete, follow, closed', async () => {
    const whales = await createDocument(app.strapi, ARTICLE, { title: 'Whales', slug: 'whales', summary: 'Big animals.', content: 'First paragraph.\n\nSecond paragraph.' });
    await app.strapi.documents(ARTICLE as never).update({ documentId: whales.documentId, locale: 'fr', data: { title: 'Baleines', slug: 'baleines' } } as never);
    await app.strapi.documents(ARTICLE as never).publish({ documentId: whales.documentId, locale: 'fr' } as never);
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: whales.documentId, locale: 'en' }, data: { views: 41 } });

    const page = await newPage(browser, { reader: true });
    page.on('dialog', (dialog) => dialog.accept());
    await logIn(page);
    await open(page, '?article=whales');
    await page.getByRole('heading', { name: 'Whales' }).waitFor();
    expect(await page.locator('#views').textContent()).toBe('42 views');
    expect(await page.locator('#article-content p').allTextContents()).toEqual(['First paragraph.', 'Second paragraph.']);
    expect(await page.locator('link[rel="alternate"][hreflang="fr"]').getAttribute('href')).toBe(`${app.url}/example.html?article=baleines&locale=fr`);

    // The locale switch, from the detail's localizations.
    await page.locator('#locales').getByRole('link', { name: 'fr' }).click();
    await page.getByRole('heading', { name: 'Baleines' }).waitFor();
    expect(new URL(page.url()).search).toBe('?article=baleines&locale=fr');
    expect(await page.locator('#locales strong').textContent()).toBe('fr');
    await page.locator('#locales').getByRole('link', { name: 'en' }).click();
    await page.getByRole('heading', { name: 'Whales' }).waitFor();
    await page.locator('body[data-ready]').waitFor();

    // Post: pending, shown to its author only until a moderator approves it.
    await page.getByLabel('Your comment').fill('What a **big** animal');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.getByText('Thanks! Your comment is waiting for moderation.').waitFor();
    const rootId = (await page.locator('#comment-status').getAttribute('data-document-id'))!;
    await page.locator(`#pending-comments li[data-comment-id="${rootId}"]`, { hasText: 'awaiting moderation' }).waitFor();
    expect(await page.locator('#comments li').count()).toBe(0);

    await approve(rootId);
    await open(page, '?article=whales');
    const root = page.locator(`#comment-${rootId}`);
    expect(await root.locator('.comment-body strong').textContent()).toBe('big');
    expect(await page.locator('#pending').isHidden()).toBe(true);
    expect(await page.locator('#comment-total').textContent()).toBe('1');

    // Reply, approved, nested under the root.
    await root.locator('> .actions').getByRole('button', { name: 'Reply' }).click();
    await page.getByLabel(`Reply to ${user.username}`).fill('A reply');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await page.getByText('Thanks! Your comment is waiting for moderation.').waitFor();
    const replyId = (await page.locator('#comment-status').getAttribute('data-document-id'))!;
    await page.locator(`#pending-comments li[data-comment-id="${replyId}"]`).waitFor();
    await approve(replyId);
    await open(page, '?article=whales');
    const reply = root.locator(`.replies #comment-${replyId}`);
    expect((await reply.locator('.comment-body').textContent())?.trim()).toBe('A reply');

    // Edit one's own: back to the moderators, then approved again and marked as edited.
    await reply.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit your comment').fill('An edited reply');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Comment updated; it is waiting for moderation again.').waitFor();
    await page.locator(`#pending-comments li[data-comment-id="${replyId}"]`, { hasText: 'An edited reply' }).waitFor();
    await reply.waitFor({ state: 'detached' });
    await approve(replyId);
    await open(page, '?article=whales');
    expect(await reply.locator('.comment-meta').textContent()).toContain('edited');
    expect((await reply.locator('.comment-body').textContent())?.trim()).toBe('An edited reply');

    // Follow the thread, then leave it.
    await page.getByRole('button', { name: 'Follow this thread' }).click();
    await page.getByRole('button', { name: 'Unfollow this thread' }).waitFor();
    const subscription = () =>
      app.request().get(`/api/bag/articles/${whales.documentId}/subscription`).set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`);
    expect((await subscription().expect(200)).body).toEqual({ subscribed: true });
    await screenshot(page, 'example-article');
    await page.getByRole('button', { name: 'Unfollow this thread' }).click();
    await page.getByRole('button', { name: 'Follow this thread' }).waitFor();
    expect((await subscription().expect(200)).body).toEqual({ subscribed: false });

    // Delete one's own: the root keeps its place for its reply; the reply goes.
    await root.locator('> .actions').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Your comment was deleted.').waitFor();
    await root.locator('> .comment-body', { hasText: 'This comment was deleted.' }).waitFor();
    await reply.getByRole('button', { name: 'Delete' }).click();
    await reply.waitFor({ state: 'detached' });

    // A closed thread: read as before (a page shows the first 3 replies of a root, the rest on demand), no form and
    // no reply button.
    const approvedComment = (data: Record<string, unknown>) =>
      createDocument(app.strapi, `${PLUGIN}.comment`, { status: 'approved', article: whales.documentId, ...data });
    const kept = await approvedComment({ content: 'Still readable' });
    for (let n = 1; n <= 4; n += 1) await approvedComment({ content: `Answer ${n}`, parent: kept.documentId });
    await comments().setClosed(whales.documentId, true);
    await open(page, '?article=whales');
    await page.getByText('Comments are closed for this article.').waitFor();
    const keptReplies = page.locator(`#comment-${kept.documentId} > .replies > li .comment-body`);
    expect(await keptReplies.allTextContents()).toEqual(['Answer 1\n', 'Answer 2\n', 'Answer 3\n']);
    expect(await page.locator('#comment').isHidden()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show 4 replies' }).click();
    await page.getByRole('button', { name: 'Show 4 replies' }).waitFor({ state: 'detached' });
    expect(await keptReplies.allTextContents()).toEqual(['Answer 1\n', 'Answer 2\n', 'Answer 3\n', 'Answer 4\n']);
    await page.context().close();
  });

  it('reaches the account view from the navigation: log in, sessions, export of the data', async () => {
    const page = await newPage(browser, { reader: true });
    await open(page);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(`Logged in as ${user.username}`).waitFor();
    await page.locator('#sessions li', { hasText: '(this browser)' }).waitFor();
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: `Account (${user.username})` }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).waitFor();

    await page.getByRole('button', { name: 'Download my data' }).click();
    await page.getByText('Your data is ready').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'my-account.json' }).click()]);
    expect(download.suggestedFilename()).toBe('my-account.json');
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(exported.user).toMatchObject({ username: user.username, email: user.email });

    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Articles' }).click();
    await page.locator('body[data-ready="list"]').waitFor();
    expect(await page.locator('#nav-account').textContent()).toBe(`Account (${user.username})`);
    await page.context().close();
  });

  it('follows an old slug to the current one and shows the current address', async () => {
    const moved = await createDocument(app.strapi, ARTICLE, { title: 'A moved article', slug: 'moved-before' });
    await app.strapi.documents(ARTICLE as never).update({ documentId: moved.documentId, data: { slug: 'moved-after' } } as never);
    await app.strapi.documents(ARTICLE as never).publish({ documentId: moved.documentId } as never);

    const page = await newPage(browser, { reader: true });
    await open(page, '?article=moved-before');
    await page.getByRole('heading', { name: 'A moved article' }).waitFor();
    expect(new URL(page.url()).search).toBe('?article=moved-after');
    expect(await page.locator('#moved').textContent()).toBe('This article moved: “moved-before” is now “moved-after”.');
    await page.context().close();
  });
});
