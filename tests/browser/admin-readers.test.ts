/**
 * Readers in the admin (docs/readers.md#in-the-admin), in headless Chromium against a playground serving its built
 * admin panel (`npm run build:admin`): the edit-view side panel draws the last 30 days of views, one bar per day; the
 * "Most read" widget switches between all time and the last 1, 7 and 30 days. Screenshots go to tests/artifacts
 * (docs/readers.md shows them).
 */
import type { Browser, Page } from 'playwright-core';
import { adminUiLogin, newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { adminToken, createDocument } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const SUPER_ADMIN = { email: 'admin@example.com', password: 'Admin-password-1' };
const ARTICLE = `${PLUGIN}.article`;
const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('readers in the admin, in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  const addDay = (document: string, daysAgo: number, views: number) =>
    app.strapi.db.connection('bag_view_days').insert({ kind: 'article', document, locale: 'en', day: dayOf(Date.now() - daysAgo * DAY_MS), views });

  beforeAll(async () => {
    [app, browser] = await startWithBrowser(() => setupStrapi({ serveAdmin: true, config: { site: { url: 'https://front.example' } } }));
    await adminToken(app);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const loggedIn = async (): Promise<Page> => {
    const page = await newPage(browser);
    await adminUiLogin(page, app.url, SUPER_ADMIN);
    return page;
  };

  it('draws the last 30 days of views in the side panel, one bar per day', async () => {
    const article = await createDocument(app.strapi, ARTICLE, { title: 'A charted article', slug: 'a-charted-article' });
    await addDay(article.documentId, 0, 12);
    await addDay(article.documentId, 3, 30);
    await addDay(article.documentId, 29, 5);
    await addDay(article.documentId, 40, 99);
    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin/content-manager/collection-types/${ARTICLE}/${article.documentId}?plugins[i18n][locale]=en`);
      const chart = page.locator('[data-panel="article"] [data-views-chart]');
      await chart.getByText('47 reads in 30 days').waitFor();
      const bars = chart.locator('rect[data-day]');
      expect(await bars.count()).toBe(30);
      const counts = await bars.evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('data-count'))));
      expect(counts[29]).toBe(12);
      expect(counts[26]).toBe(30);
      expect(counts[0]).toBe(5);
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(47);
      // The highest bar is the 30 views' day, the drawn heights follow the counts.
      const heights = await bars.evaluateAll((rects) => rects.map((rect) => Number(rect.getAttribute('height'))));
      expect(Math.max(...heights)).toBe(heights[26]);
      expect(heights[29]).toBeGreaterThan(heights[0]);
      expect(heights[10]).toBe(0);
      await chart.scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-readers-panel');
    } finally {
      await page.context().close();
    }
  });

  it('switches the Most read widget between all time, 1, 7 and 30 days', async () => {
    const today = await createDocument(app.strapi, ARTICLE, { title: 'Read today', slug: 'read-today' });
    const week = await createDocument(app.strapi, ARTICLE, { title: 'Read this week', slug: 'read-this-week' });
    const month = await createDocument(app.strapi, ARTICLE, { title: 'Read this month', slug: 'read-this-month' });
    await app.strapi.db.query(ARTICLE as never).updateMany({ where: { documentId: month.documentId }, data: { views: 5000 } });
    await addDay(today.documentId, 0, 8);
    await addDay(week.documentId, 4, 60);
    await addDay(month.documentId, 20, 900);
    const page = await loggedIn();
    try {
      await page.goto(`${app.url}/admin`);
      const widget = page.locator('[data-widget="most-read"]');
      const titles = () => widget.locator('ol').getByRole('link').allTextContents();
      await widget.getByText('5,000 views').waitFor();
      expect((await titles())[0]).toBe('Read this month');

      await widget.locator('[data-period="1d"]').click();
      await page.locator('[data-widget="most-read"][data-period-shown="1d"]').waitFor();
      // The charted article above was read 12 times today.
      expect(await titles()).toEqual(['A charted article', 'Read today']);
      await widget.getByText('8 views').waitFor();

      await widget.locator('[data-period="7d"]').click();
      await page.locator('[data-widget="most-read"][data-period-shown="7d"]').waitFor();
      expect(await titles()).toEqual(['Read this week', 'A charted article', 'Read today']);

      await widget.locator('[data-period="30d"]').click();
      await page.locator('[data-widget="most-read"][data-period-shown="30d"]').waitFor();
      expect(await titles()).toEqual(['Read this month', 'Read this week', 'A charted article', 'Read today']);
      expect(await widget.locator('[data-period="30d"]').getAttribute('aria-pressed')).toBe('true');
      await widget.scrollIntoViewIfNeeded();
      await screenshot(page, 'admin-readers-most-read');
    } finally {
      await page.context().close();
    }
  });
});
