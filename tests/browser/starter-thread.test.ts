/**
 * The blog starter's comment thread (docs/starter.md#the-comment-thread) in headless Chromium at 390 and 1280 px:
 * Edit only within the edit window and a refused edit told beside the comment, likes and reports for a signed-in
 * reader (a sign-in link otherwise), following the thread by mail, busy buttons and translated refusals, and the
 * author's own comments waiting for moderation (docs/comments.md).
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';
import { startStarter, type StarterServer, stopStarterRun } from '../helpers/starter';
import { createDocument, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const ARTICLE = `${PLUGIN}.article`;
const COMMENT = `${PLUGIN}.comment`;
const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const PATH = '/articles/demo-article-1';

describe('the starter’s comment thread (docs/starter.md#the-comment-thread)', () => {
  let app: TestApp;
  let site: StarterServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let article: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      // An edit window other than the default 15 minutes: the starter must use the server's (meta.editWindow).
      setupStrapi({ seed: true, env: smtp.env, config: { rateLimit: { enabled: false }, comments: { autoApprove: false, editWindow: '10m' } } }),
      launchBrowser(),
    ]);
    const found = await app.strapi.documents(ARTICLE as never).findMany({ filters: { slug: 'demo-article-1' }, locale: 'en', status: 'published' } as never);
    article = (found[0] as { documentId: string }).documentId;
    site = await startStarter(app.url);
  }, 180_000);
  afterAll(async () => {
    await stopStarterRun({ site, browser, app, smtp });
  });

  /** The article page, signed in as `user` (the client's stored jwt) or signed out. */
  const open = async (viewport: { width: number; height: number }, user?: TestUser, path = PATH) => {
    const context = await browser.newContext({ viewport });
    if (user) await context.addInitScript((jwt) => localStorage.setItem('cms-bag:jwt', jwt), jwtFor(app.strapi, user));
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${site.url}${path}`);
    return page;
  };
  const approved = async (content: string, author?: TestUser) =>
    (await createDocument(app.strapi, COMMENT, { content, status: 'approved', article, ...(author ? { author: author.id } : {}) })) as { id: number; documentId: string };
  const age = (documentId: string, minutes: number) =>
    app.strapi.db.query(COMMENT as never).update({ where: { documentId }, data: { createdAt: new Date(Date.now() - minutes * 60_000) } });
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const inView = (page: Page, selector: string) =>
    page.locator(selector).evaluate((node) => {
      const box = node.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });

  it.each([MOBILE, DESKTOP])('offers Edit only within the edit window and tells a refused edit beside the comment (%o)', async (viewport) => {
    const user = await createUser(app.strapi);
    const fresh = await approved(`Fresh at ${viewport.width}`, user);
    const old = await approved(`Old at ${viewport.width}`, user);
    await age(old.documentId, 20);
    const page = await open(viewport, user);
    const freshItem = page.locator(`#comment-${fresh.documentId}`);
    await freshItem.getByRole('button', { name: `Edit: Fresh at ${viewport.width}` }).waitFor();
    expect(await page.locator(`#comment-${old.documentId}`).getByRole('button', { name: /^Edit:/ }).count()).toBe(0);
    expect(await page.locator(`#comment-${old.documentId}`).getByRole('button', { name: /^Delete:/ }).count()).toBe(1);

    await freshItem.getByRole('button', { name: /^Edit:/ }).click();
    await page.getByLabel('Edit your comment').fill('Too late now');
    await age(fresh.documentId, 20); // the window closes while the form is open: the server refuses
    await freshItem.getByRole('button', { name: 'Save' }).click();
    const alert = freshItem.locator('.comment-error[role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('The time to edit this comment is over.');
    expect(await alert.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await inView(page, `#comment-${fresh.documentId} .comment-error`)).toBe(true);
    expect(await freshItem.getByRole('button', { name: /^Edit:/ }).count()).toBe(0);
    expect(await page.locator('#comment-status').textContent()).not.toContain('Edit window');
    await page.context().close();
  });

  it('gives a signed-out reader a link to sign in, and a signed-in one Like (aria-pressed, count) and Report with a reason', async () => {
    const other = await createUser(app.strapi);
    const theirs = await approved('Worth a like', other);
    const guest = await open(MOBILE);
    await guest.getByRole('link', { name: 'Sign in to like, report or follow comments' }).waitFor();
    expect(await guest.getByRole('link', { name: 'Sign in to like, report or follow comments' }).getAttribute('href')).toBe('/account');
    expect(await guest.locator('button.like, button.report, #follow:visible').count()).toBe(0);
    await guest.context().close();

    const reader = await createUser(app.strapi);
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await open(viewport, reader);
      const item = page.locator(`#comment-${theirs.documentId}`);
      const like = item.locator('button.like');
      await like.waitFor();
      expect(await page.getByRole('link', { name: /^Sign in to like/ }).isVisible()).toBe(false);
      expect(await like.getAttribute('aria-pressed')).toBe('false');
      await like.click();
      await item.locator('button.like[aria-pressed="true"]').waitFor();
      expect(await like.textContent()).toBe('Like (1)');
      await page.locator('#comment-status', { hasText: 'You like this comment.' }).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await like.click();
      await item.locator('button.like[aria-pressed="false"]').waitFor();
      expect(await like.textContent()).toBe('Like (0)');
      await page.context().close();
    }
    const row = async () => (await app.strapi.db.query(COMMENT as never).findOne({ where: { documentId: theirs.documentId } })) as { likes: number; reportCount: number };
    expect((await row()).likes).toBe(0);

    const page = await open(MOBILE, reader);
    const item = page.locator(`#comment-${theirs.documentId}`);
    await item.getByRole('button', { name: 'Report' }).click();
    const reason = page.getByLabel('Why report this comment?');
    expect(await reason.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await reason.locator('option').allTextContents()).toEqual(['Spam', 'Abuse', 'Off topic', 'Other']);
    await reason.selectOption('abuse');
    await page.getByRole('button', { name: 'Send report' }).click();
    await page.locator('#comment-status[role="status"]', { hasText: 'Thank you: the comment was reported to the moderators.' }).waitFor();
    expect((await row()).reportCount).toBe(1);
    expect(await fitsWidth(page)).toBe(true);
    await page.context().close();
  });

  it('offers Edit for the window the server reports (10 minutes here), not an assumed 15', async () => {
    const user = await createUser(app.strapi);
    const inside = await approved('Nine minutes old', user);
    const outside = await approved('Twelve minutes old', user);
    await age(inside.documentId, 9);
    await age(outside.documentId, 12);
    const page = await open(DESKTOP, user);
    await page.locator(`#comment-${inside.documentId}`).getByRole('button', { name: 'Edit: Nine minutes old' }).waitFor();
    await page.locator(`#comment-${outside.documentId}`).getByRole('button', { name: /^Delete:/ }).waitFor();
    expect(await page.locator(`#comment-${outside.documentId}`).getByRole('button', { name: /^Edit:/ }).count()).toBe(0);
    await page.context().close();
  });

  it('shows like counts from the first render, and a signed-in reader’s own likes pressed before any click', async () => {
    const [reader, other] = [await createUser(app.strapi), await createUser(app.strapi)];
    const comment = await approved('Liked twice');
    for (const user of [reader, other]) {
      await app.request().post(`/api/bag/comments/${comment.documentId}/like`).set('Authorization', `Bearer ${jwtFor(app.strapi, user)}`).expect(200);
    }
    // Without JavaScript: the count is in the server's HTML.
    const html = await (await fetch(`${site.url}${PATH}`)).text();
    expect(html).toMatch(new RegExp(`id="comment-${comment.documentId}"[^]*?<span class="likes">2 likes</span>`));
    const guest = await open(MOBILE);
    expect(await guest.locator(`#comment-${comment.documentId} > header .likes`).textContent()).toBe('2 likes');
    await guest.context().close();

    const page = await open(MOBILE, reader);
    const like = page.locator(`#comment-${comment.documentId} button.like`);
    await like.waitFor();
    expect([await like.textContent(), await like.getAttribute('aria-pressed')]).toEqual(['Like (2)', 'true']);
    await like.click();
    await page.locator(`#comment-${comment.documentId} button.like[aria-pressed="false"]`).waitFor();
    expect(await like.textContent()).toBe('Like (1)');
    expect(await page.locator(`#comment-${comment.documentId} > header .likes`).textContent()).toBe('1 like');
    await page.context().close();
  });

  it('reads the thread a page at a time: more comments and more replies by keyboard, focus on what appeared', async () => {
    const slug = `long-thread-${Date.now()}`;
    const long = (await createDocument(app.strapi, ARTICLE, { title: 'A long thread', slug, content: 'Many comments.', locale: 'en' })) as { documentId: string };
    const comment = (content: string, parent?: number) =>
      createDocument(app.strapi, COMMENT, { content, status: 'approved', article: long.documentId, ...(parent ? { parent } : {}) }) as Promise<{ id: number; documentId: string }>;
    const first = await comment('Root 0');
    const replies = [];
    for (let i = 0; i < 5; i += 1) replies.push(await comment(`Reply ${i}`, first.id));
    for (let i = 1; i <= 11; i += 1) await comment(`Root ${i}`);

    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await open(viewport, undefined, `/articles/${slug}`);
      const roots = page.locator('#comment-list > li.comment');
      // Newest first, ten a page: Root 11 … Root 2.
      expect(await roots.count()).toBe(10);
      expect(await roots.first().locator('.content').textContent()).toContain('Root 11');
      const more = page.getByRole('button', { name: 'Show more comments' });
      await more.focus();
      await page.keyboard.press('Enter');
      await page.locator('#comment-status', { hasText: '2 more comments shown.' }).waitFor();
      expect(await roots.count()).toBe(12);
      expect(await page.evaluate(() => document.activeElement?.querySelector('.content')?.textContent?.trim())).toBe('Root 1');
      expect(await more.count()).toBe(0);

      // Root 0 shows its first three replies (oldest first) and a button for the other two.
      const item = page.locator(`#comment-${first.documentId}`);
      expect(await item.locator(':scope > ol.replies > li.comment').count()).toBe(3);
      const moreReplies = item.getByRole('button', { name: 'Show 2 more replies' });
      expect(await moreReplies.getAttribute('aria-controls')).toBe(`replies-${first.documentId}`);
      await moreReplies.focus();
      await page.keyboard.press('Enter');
      await page.locator('#comment-status', { hasText: '2 more replies shown.' }).waitFor();
      expect((await item.locator(':scope > ol.replies > li.comment .content').allTextContents()).map((text) => text.trim())).toEqual(replies.map((_, i) => `Reply ${i}`));
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(`comment-${replies[3].documentId}`);
      expect(await item.locator('button.more-replies').count()).toBe(0);
      expect(await fitsWidth(page)).toBe(true);
      await page.context().close();
    }
  });

  it('follows the thread by mail with the state shown, kept after a reload', async () => {
    const reader = await createUser(app.strapi);
    const page = await open(DESKTOP, reader);
    const follow = page.locator('#follow');
    await page.locator('#follow-state', { hasText: 'You do not follow this thread.' }).waitFor();
    expect(await follow.getAttribute('aria-pressed')).toBe('false');
    await follow.click();
    await page.locator('#comment-status', { hasText: 'You now follow this thread by e-mail.' }).waitFor();
    expect(await follow.getAttribute('aria-pressed')).toBe('true');
    expect(await follow.textContent()).toBe('Stop following');
    await page.reload();
    await page.locator('#follow-state', { hasText: 'You get an e-mail for each new comment here.' }).waitFor();
    expect(await page.locator('#follow').getAttribute('aria-pressed')).toBe('true');
    await page.context().close();
  });

  it('disables a busy button with a busy text and translates refusals, never the server’s text (en and fr)', async () => {
    const page = await open(MOBILE);
    let answer: { status: number; message: string } = { status: 429, message: 'Too many requests, please try again later.' };
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/bag/comments', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      await route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify({ data: null, error: { status: answer.status, name: 'Error', message: answer.message } }) });
    });
    await page.getByLabel('Your comment (Markdown)').fill('Hello');
    const submit = page.locator('#comment-form button[type="submit"]');
    await submit.click();
    await page.locator('#comment-form button[type="submit"][aria-busy="true"]:disabled', { hasText: 'Sending…' }).waitFor();
    release();
    await page.locator('#comment-status', { hasText: 'You are posting too fast. Please wait a moment and try again.' }).waitFor();
    expect(await submit.isDisabled()).toBe(false);
    expect(await submit.textContent()).toBe('Post comment');
    answer = { status: 403, message: 'Comments are closed for this article' };
    await submit.click();
    await page.locator('#comment-status', { hasText: 'Comments are closed for this article.' }).waitFor();
    expect(await page.locator('#comment-status').textContent()).not.toContain('Comments are closed for this article ');
    await page.context().close();

    const french = await open(MOBILE, undefined, '/fr/articles/article-de-demonstration-1');
    await french.route('**/api/bag/comments', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials' } }) })
        : route.continue()
    );
    await french.getByLabel('Votre commentaire (Markdown)').fill('Bonjour');
    await french.getByRole('button', { name: 'Publier le commentaire' }).click();
    await french.locator('#comment-status', { hasText: 'Votre session a pris fin. Reconnectez-vous.' }).waitFor();
    expect(await french.locator('#comment-status').textContent()).not.toMatch(/credentials/i);
    await french.context().close();
  });

  it('shows the signed-in author their comments waiting for moderation, marked so, and nobody else', async () => {
    const author = await createUser(app.strapi);
    const page = await open(MOBILE, author);
    await page.locator('#follow-state', { hasText: 'You do not follow this thread.' }).waitFor();
    await page.getByLabel('Your comment (Markdown)').fill('Awaiting the moderators');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.locator('#comment-status', { hasText: 'Thanks! Your comment is waiting for moderation.' }).waitFor();
    const mine = page.locator('li.comment.pending', { hasText: 'Awaiting the moderators' });
    await mine.locator('.pending-mark', { hasText: 'Waiting for moderation' }).waitFor();
    await page.reload();
    await page.locator('li.comment.pending', { hasText: 'Awaiting the moderators' }).locator('.pending-mark', { hasText: 'Waiting for moderation' }).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.context().close();

    const someone = await createUser(app.strapi);
    const other = await open(MOBILE, someone);
    await other.locator('#follow-state', { hasText: 'You do not follow this thread.' }).waitFor();
    expect(await other.getByText('Awaiting the moderators').count()).toBe(0);
    await other.context().close();
  });
});
