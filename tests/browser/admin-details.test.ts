/**
 * The admin's details in headless Chromium against a playground serving its built admin panel
 * (`npm run build:admin`), as docs/admin.md describes them: counts read in the singular and the plural, the moderation
 * table's actions inside the table at 1280 px, the homepage widget's link scrolling to its comment, no deprecation
 * warning from the plugin's permission checks, and the French and Chinese translations an editor picks in their
 * profile. Screenshots go to tests/artifacts (docs/admin.md shows them).
 */
import fs from 'fs';
import path from 'path';
import type { Browser, Page } from 'playwright-core';
import TransportStream from 'winston-transport';
import { createAdminWithRole, type AdminCredentials } from '../helpers/admin';
import { adminUiLogin, screenshot, startWithBrowser } from '../helpers/browser';
import { adminToken, createDocument, createUser, jwtFor } from '../helpers/fixtures';
import { PLUGIN, ROOT, setupStrapi, type TestApp } from '../helpers/strapi';

const SUPER_ADMIN = { email: 'admin@example.com', password: 'Admin-password-1' };
const ARTICLE = `${PLUGIN}.article`;
const COMMENT = `${PLUGIN}.comment`;
const MODERATION = '/admin/plugins/cms-plugin-bag';
const LONG_TEXT =
  'A long comment that wraps over many lines in the moderation table, as real comments do when readers have a lot to say ' +
  'about an article: it goes on about the subject, quotes the article, adds a link or two and asks a question at the end. ';

/** The server log's warnings and errors while a test runs. */
class LogCapture extends TransportStream {
  lines: string[] = [];
  log(info: { level: string; message: unknown }, next: () => void) {
    this.lines.push(`[server ${info.level}] ${String(info.message)}`);
    next();
  }
}

/**
 * The plugin's own chunks in the playground's admin build: each keeps the name of the plugin's built chunk
 * (dist/admin/SettingsPage-<hash>.mjs becomes SettingsPage-<hash>-<hash>.js).
 */
const pluginChunks = () => {
  const names = fs
    .readdirSync(path.join(ROOT, 'dist', 'admin'))
    .filter((file) => /^[\w]+-[\w-]+\.mjs$/.test(file))
    .map((file) => file.replace(/\.mjs$/, '').replace(/[-]/g, '\\-'));
  return new RegExp(`/admin/(?:${names.join('|')})-[\\w-]+\\.js`);
};

describe('admin details in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  const serverLog = new LogCapture({ level: 'warn' });

  beforeAll(async () => {
    // Each test logs in through the login form: more than the host's 5 admin logins per 5 minutes.
    [app, browser] = await startWithBrowser(() => setupStrapi({ serveAdmin: true, env: { ADMIN_RATE_LIMIT: 'false' } }));
    await adminToken(app);
    app.strapi.log.add(serverLog);
  }, 120_000);
  afterAll(async () => {
    app?.strapi.log.remove(serverLog);
    await browser?.close();
    await app?.stop();
  });

  /** A logged-in page at the width of a laptop's screen. */
  const loggedIn = async (credentials: AdminCredentials = SUPER_ADMIN): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await adminUiLogin(page, app.url, credentials);
    return page;
  };

  /** One reader reports the comment (readers report what they see: an approved one), which then waits again. */
  const reportedOnce = async (documentId: string, reason: string) => {
    const reporter = `Bearer ${jwtFor(app.strapi, await createUser(app.strapi))}`;
    await app.request().post(`/api/bag/comments/${documentId}/report`).set('Authorization', reporter).send({ reason }).expect(200);
    await app.strapi.db.query(COMMENT as never).updateMany({ where: { documentId }, data: { status: 'pending' } });
  };

  // First in the file: its comment is the only one waiting.
  it('reads one comment, one report and one view in the singular (the translations’ plural forms)', async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'A single comment', slug: 'a-single-comment' });
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: article.documentId }, data: { views: 1 } });
    const comment = await createDocument(app.strapi, COMMENT, { content: 'The only one waiting', status: 'approved', article: article.documentId });
    await reportedOnce(comment.documentId, 'spam');

    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin`);
      const queue = page.locator('[data-widget="moderation"]');
      await queue.getByText('1 comment waiting', { exact: true }).waitFor();
      await page.locator('[data-widget="most-read"]').getByText('1 view', { exact: true }).waitFor();

      await queue.getByRole('link', { name: 'The only one waiting' }).click();
      await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
      await page.getByText('1 comment, pending first', { exact: true }).waitFor();
      await page.locator(`tr[data-comment="${comment.documentId}"]`).getByText('Reported once:', { exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('keeps every action button of a row inside the moderation table at 1280 px, with no horizontal scroll', async () => {
    const article = await createDocument(app.strapi, ARTICLE, {
      title: 'An article whose title is long enough to wrap in the moderation table',
      slug: 'a-long-titled-article',
    });
    const author = await createUser(app.strapi, { username: 'a-reader-with-a-rather-long-name' });
    const comment = await createDocument(app.strapi, COMMENT, {
      content: LONG_TEXT,
      status: 'approved',
      article: article.documentId,
      author: author.id,
      ip: '2001:db8:85a3:8d3:1319:8a2e:370:7348',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    });
    await reportedOnce(comment.documentId, 'off-topic');

    const page = await loggedIn();
    try {
      await page.goto(`${app.url}${MODERATION}`);
      const row = page.locator(`tr[data-comment="${comment.documentId}"]`);
      await row.getByRole('button', { name: 'Pin', exact: true }).waitFor();
      const layout = await page.evaluate(() => {
        const table = document.querySelector('table') as HTMLTableElement;
        // The table's visible box: its own box, clipped by every ancestor that clips or scrolls, and by the window.
        let [left, right] = [0, window.innerWidth];
        for (let el: HTMLElement | null = table; el; el = el.parentElement) {
          if (el === table || /auto|scroll|hidden|clip/.test(getComputedStyle(el).overflowX)) {
            const box = el.getBoundingClientRect();
            [left, right] = [Math.max(left, box.left), Math.min(right, box.right)];
          }
        }
        const cut = Array.from(document.querySelectorAll<HTMLElement>('tr[data-comment] button'))
          .filter((button) => {
            const box = button.getBoundingClientRect();
            return box.left < left - 0.5 || box.right > right + 0.5;
          })
          .map((button) => button.getAttribute('aria-label') || button.textContent);
        return { pageScroll: Math.max(0, document.documentElement.scrollWidth - window.innerWidth), cut };
      });
      expect(layout).toEqual({ pageScroll: 0, cut: [] });
      await screenshot(page, 'moderation-1280');
    } finally {
      await page.context().close();
    }
  });

  it("scrolls the moderation page to the comment a widget's link opened it on, and moves the focus there", async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'Busy thread', slug: 'busy-thread' });
    // The oldest of the widget's five, below four long ones: far down the page at 800 px.
    const target = await createDocument(app.strapi, COMMENT, { content: 'Look at me further down', status: 'pending', article: article.documentId });
    for (let n = 1; n <= 4; n += 1) {
      await createDocument(app.strapi, COMMENT, { content: `${n}. ${LONG_TEXT.repeat(4)}`, status: 'pending', article: article.documentId });
    }

    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin`);
      await page.locator('[data-widget="moderation"]').getByRole('link', { name: 'Look at me further down' }).click();
      const row = page.locator(`tr[data-comment="${target.documentId}"][data-focused]`);
      await row.waitFor();
      const inView = (selector: string) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      };
      const selector = `tr[data-comment="${target.documentId}"]`;
      // The row may move into view a moment after it mounts; no answer within 5 s is a failure.
      await page.waitForFunction(inView, selector, { timeout: 5_000 }).catch(() => undefined);
      expect(await page.evaluate(inView, selector)).toBe(true);
      expect(await page.evaluate(() => (document.activeElement?.closest('tr[data-comment]') as HTMLElement | null)?.dataset.comment)).toBe(
        target.documentId
      );
      await screenshot(page, 'moderation-linked-comment');
    } finally {
      await page.context().close();
    }
  });

  it("prints no deprecation warning from the plugin's pages, widgets and side panel as they check permissions", async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'Checked article', slug: 'checked-article' });
    await createDocument(app.strapi, COMMENT, { content: 'Waiting while permissions are checked', status: 'pending', article: article.documentId });
    serverLog.lines.length = 0;
    const nodeWarnings: string[] = [];
    const onWarning = (warning: Error) => nodeWarnings.push(`[node] ${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    // Each deprecation warning in the browser with the stack that printed it: the host's own components print some
    // (its settings and Content Manager screens); the ones whose stack runs through the plugin's chunks are the plugin's.
    const deprecations: { text: string; stack: string }[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await context.exposeFunction('reportDeprecation', (text: string, stack: string) => deprecations.push({ text, stack }));
    await context.addInitScript(() => {
      Error.stackTraceLimit = 100;
      const warn = console.warn.bind(console);
      console.warn = (...args: unknown[]) => {
        const text = args.map(String).join(' ');
        if (/deprecat/i.test(text)) (window as unknown as { reportDeprecation: (t: string, s: string) => void }).reportDeprecation(text, new Error().stack ?? '');
        warn(...args);
      };
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    try {
      await adminUiLogin(page, app.url, SUPER_ADMIN);
      await page.goto(`${app.url}/admin`);
      await page.locator('[data-widget="most-read"]').waitFor();
      await page.locator('[data-widget="moderation"]').waitFor();
      await page.goto(`${app.url}/admin/settings/cms-plugin-bag`);
      await page.getByRole('heading', { name: 'CMS Bag settings' }).waitFor();
      await page.getByRole('heading', { name: 'Comment webhooks' }).waitFor();
      await page.getByTestId('cache-card').waitFor();
      await page.goto(`${app.url}${MODERATION}`);
      await page.getByRole('heading', { name: 'Comment moderation' }).waitFor();
      await page.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.documentId}`);
      await page.locator('[data-panel="article"]').getByText('0 views').waitFor();
    } finally {
      process.off('warning', onWarning);
      await context.close();
    }
    const plugin = pluginChunks();
    expect(deprecations.filter(({ stack }) => plugin.test(stack)).map(({ text, stack }) => `${text}\n${stack}`)).toEqual([]);
    expect([...serverLog.lines, ...nodeWarnings].filter((line) => /deprecat/i.test(line))).toEqual([]);
  });

  describe('in French and in Chinese', () => {
    /** A super admin whose profile's interface language is `language`. */
    const adminSpeaking = async (language: string, email: string) => {
      const credentials = await createAdminWithRole(app, 'strapi-super-admin', email);
      await app.strapi.db.query('admin::user').update({ where: { email }, data: { preferedLanguage: language } });
      return credentials;
    };

    it('shows the plugin’s pages and widget in French to an editor whose profile language is French', async () => {
      const article = await createDocument(app.strapi, ARTICLE, { title: 'Article en français', slug: 'article-en-francais' });
      await createDocument(app.strapi, COMMENT, { content: 'Un commentaire en attente', status: 'pending', article: article.documentId });
      const page = await loggedIn(await adminSpeaking('fr', 'francais@example.com'));
      try {
        await page.goto(`${app.url}/admin`);
        await page.getByText('Commentaires à modérer').waitFor();
        await page.goto(`${app.url}${MODERATION}`);
        await page.getByRole('heading', { name: 'Modération des commentaires' }).waitFor();
        await page.getByRole('button', { name: 'Signalés seulement' }).waitFor();
        await screenshot(page, 'moderation-fr');
        await page.goto(`${app.url}/admin/settings/cms-plugin-bag`);
        await page.getByRole('heading', { name: 'Réglages de CMS Bag' }).waitFor();
        // The profile offers both languages the plugin is translated into.
        await page.goto(`${app.url}/admin/me`);
        await page.getByRole('combobox', { name: /Langue de l'interface|Interface language/ }).click();
        await page.getByRole('option', { name: 'Français' }).waitFor();
        await page.getByRole('option', { name: '中文 (简体)' }).waitFor();
      } finally {
        await page.context().close();
      }
    });

    it('shows the moderation page in Simplified Chinese to an editor whose profile language is zh-Hans', async () => {
      const page = await loggedIn(await adminSpeaking('zh-Hans', 'zhongwen@example.com'));
      try {
        await page.goto(`${app.url}${MODERATION}`);
        await page.getByRole('heading', { name: '评论审核' }).waitFor();
      } finally {
        await page.context().close();
      }
    });
  });
});
