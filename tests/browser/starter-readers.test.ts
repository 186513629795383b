/**
 * Readers in the blog starter (docs/starter.md#views, docs/readers.md), in headless Chromium: the server's JSON-LD
 * (BlogPosting, BreadcrumbList) in the article's head, server-rendered; related and most read articles under it;
 * comment counts on the article cards; the view beacon sent for a copy a cache kept, not for a fresh render.
 */
import type { Browser, Request } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { createDocument } from '../helpers/fixtures';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';
import { freePort, startStarter, type StarterServer, stopStarterRun } from '../helpers/starter';

const ARTICLE = `${PLUGIN}.article`;
const TAG = `${PLUGIN}.tag`;

describe('readers in the blog starter', () => {
  let app: TestApp;
  let site: StarterServer;
  let browser: Browser;

  beforeAll(async () => {
    const sitePort = await freePort();
    [app, browser] = await Promise.all([
      setupStrapi({ env: { SITE_URL: `http://127.0.0.1:${sitePort}` }, config: { site: { url: `http://127.0.0.1:${sitePort}`, title: 'Starter news' } } }),
      launchBrowser(),
    ]);
    const tag = await createDocument(app.strapi, TAG, { title: 'Oceans', slug: 'oceans' });
    await createDocument(app.strapi, ARTICLE, { title: 'Tides explained', slug: 'tides', summary: 'Moon and sea.', tags: [tag.documentId] });
    await createDocument(app.strapi, ARTICLE, { title: 'Currents', slug: 'currents', summary: 'Rivers in the sea.', tags: [tag.documentId] });
    site = await startStarter(app.url, { port: sitePort });
  }, 180_000);
  afterAll(async () => {
    await stopStarterRun({ site, browser, app });
  });

  it('puts the server JSON-LD in the head and shows related and most read articles', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      expect((await page.goto(`${site.url}/articles/tides`))!.status()).toBe(200);
      const ld = await page.evaluate(() =>
        Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map((script) => JSON.parse(script.textContent ?? '{}'))
      );
      expect(ld.map((item) => item['@type'])).toEqual(['BlogPosting', 'BreadcrumbList']);
      expect(ld[0]).toMatchObject({ headline: 'Tides explained', url: `${site.url}/articles/tides`, publisher: { name: 'Starter news' } });
      expect(await page.locator('[data-related] h3').allTextContents()).toEqual(['Currents']);
      // Read once by the render above (the server's read, User-Agent `node`): it is this week's most read but itself,
      // so the list holds the others read this week (none yet).
      expect(await page.locator('[data-popular]').count()).toBe(0);
      expect((await page.goto(`${site.url}/articles/currents`))!.status()).toBe(200);
      expect(await page.locator('[data-popular] a').allTextContents()).toEqual(['Tides explained']);
    } finally {
      await context.close();
    }
  });

  it('shows comment counts on the article cards', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/blog`);
      const counts = await page.locator('.card [data-comment-count]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-comment-count')));
      expect(counts.length).toBeGreaterThanOrEqual(2);
      expect(new Set(counts)).toEqual(new Set(['0']));
    } finally {
      await context.close();
    }
  });

  it('sends the view beacon for a copy a cache kept, not for a fresh render', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const beacons: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/bag/views')) beacons.push(request);
    });
    try {
      await page.goto(`${site.url}/articles/tides`);
      await page.locator('[data-view-beacon]').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      expect(beacons).toHaveLength(0);
      // The same page, as a cache would hand it out a minute later: the browser's clock a minute ahead.
      await page.clock.install({ time: Date.now() + 60_000 });
      const sent = page.waitForRequest((request) => request.url() === `${app.url}/api/bag/views`);
      await page.reload();
      const request = await sent;
      expect(request.method()).toBe('POST');
      expect(JSON.parse(request.postData() ?? '{}')).toEqual({ type: 'article', slug: 'tides', locale: 'en' });
    } finally {
      await context.close();
    }
  });
});
