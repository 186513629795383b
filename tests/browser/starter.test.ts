/**
 * The blog starter (docs/starter.md) in headless Chromium at 390 and 1280 px, against the test Strapi with the
 * playground's demo content: server-rendered HTML with its head (title, description, canonical, hreflang, Open
 * Graph, JSON-LD), Markdown rendered, no horizontal scroll at 320 and 390 px, the 404 and error pages, old slugs
 * answered with a 301, the menus on the starter's routes, French chrome, the comment thread and search.
 */
import fs from 'fs';
import path from 'path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from '../helpers/browser';
import { PLAYGROUND, PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';
import { freePort, startStarter, type StarterServer, stopStarterRun } from '../helpers/starter';
import { TOTP } from 'otpauth';
import { createUser } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const ARTICLE = `${PLUGIN}.article`;
const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
// The cover's files, served by the playground from public/uploads while this file runs (removed after).
const UPLOADS = path.join(PLAYGROUND, 'public', 'uploads');
const COVER_FILES = ['whale.svg', 'small_whale.svg', 'medium_whale.svg', 'large_whale.svg'];
const COVER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 900"><rect width="1600" height="900" fill="#1d4f7a"/>' +
  '<ellipse cx="800" cy="520" rx="420" ry="150" fill="#c9dbe8"/><path d="M1180 500l220-140v300z" fill="#c9dbe8"/></svg>';

describe('the blog starter (docs/starter.md)', () => {
  let app: TestApp;
  let site: StarterServer;
  let browser: Browser;
  let smtp: TestSmtp;

  beforeAll(async () => {
    for (const file of COVER_FILES) fs.writeFileSync(path.join(UPLOADS, file), COVER_SVG);
    // The plugin's site.url is the starter's address, as under `npm run develop`: feeds and the sitemap link to it.
    const sitePort = await freePort();
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      setupStrapi({ seed: true, env: { ...smtp.env, SITE_URL: `http://127.0.0.1:${sitePort}` }, config: { rateLimit: { enabled: false }, comments: { autoApprove: true } } }),
      launchBrowser(),
    ]);
    const documents = app.strapi.documents(ARTICLE as never);
    const cover = await app.strapi.db.query('plugin::upload.file').create({
      data: {
        name: 'whale.svg', hash: 'whale', ext: '.svg', mime: 'image/svg+xml', size: 1, url: '/uploads/whale.svg', provider: 'local', width: 1600, height: 900,
        alternativeText: 'A whale breaching',
        formats: {
          small: { url: '/uploads/small_whale.svg', width: 500, height: 281 },
          medium: { url: '/uploads/medium_whale.svg', width: 750, height: 422 },
          large: { url: '/uploads/large_whale.svg', width: 1000, height: 563 },
        },
      },
    });
    const whales = await documents.create({
      data: { title: 'Whales', slug: 'whales-old', summary: 'Big animals of the ocean.', content: '## Where they live\n\nIn **every** ocean.\n\n<script>alert(1)</script>', cover: cover.id },
    } as never);
    await documents.publish({ documentId: whales.documentId } as never);
    await documents.update({ documentId: whales.documentId, data: { slug: 'whales' } } as never);
    await documents.publish({ documentId: whales.documentId } as never);
    site = await startStarter(app.url, { port: sitePort });
  }, 180_000);
  afterAll(async () => {
    await stopStarterRun({ site, browser, app, smtp });
    for (const file of COVER_FILES) fs.rmSync(path.join(UPLOADS, file), { force: true });
  });

  const open = async (viewport: { width: number; height: number }, path: string, options: { javaScript?: boolean } = {}) => {
    const context = await browser.newContext({ viewport, javaScriptEnabled: options.javaScript ?? true });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const response = await page.goto(`${site.url}${path}`);
    return { page, status: response!.status() };
  };
  const head = (page: Page) =>
    page.evaluate(() => {
      const meta = (selector: string) => document.querySelector(selector)?.getAttribute('content') ?? null;
      return {
        title: document.title,
        description: meta('meta[name="description"]'),
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
        hreflang: Array.from(document.querySelectorAll('link[rel="alternate"][hreflang]')).map((link) => `${link.getAttribute('hreflang')} ${link.getAttribute('href')}`),
        ogTitle: meta('meta[property="og:title"]'),
        ogUrl: meta('meta[property="og:url"]'),
        ogImage: meta('meta[property="og:image"]'),
        jsonLd: Array.from(document.querySelectorAll('script[type="application/ld+json"]')).map((script) => JSON.parse(script.textContent ?? '{}')),
      };
    });
  const noHorizontalScroll = async (page: Page) => {
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect({ width, ...sizes, fits: sizes.scroll <= sizes.inner }).toEqual({ width, ...sizes, fits: true });
    }
  };

  it('serves the home page with its head, banners, pinned and latest articles, without JavaScript', async () => {
    const { page, status } = await open(MOBILE, '/', { javaScript: false });
    expect(status).toBe(200);
    const meta = await head(page);
    expect(meta.title).toBe('CMS Bag Blog');
    expect(meta.description).toBe('News, technique and notes from the team.');
    expect(meta.canonical).toBe(`${site.url}/`);
    expect(meta.hreflang).toEqual([`en ${site.url}/`, `fr ${site.url}/fr`, `x-default ${site.url}/`]);
    expect(meta.ogUrl).toBe(`${site.url}/`);
    expect(meta.jsonLd[0]).toMatchObject({ '@type': 'WebSite', url: `${site.url}/` });
    expect(await page.locator('.banners li').allTextContents()).toEqual(['WelcomeA demo of cms-plugin-bag', 'Read the blogArticles, categories and tags']);
    expect(await page.locator('#pinned-heading + .cards h3').allTextContents()).toEqual(['Demo article 2', 'Demo article 1']);
    expect(await page.locator('#latest-heading + .cards h3').first().textContent()).toBe('Whales');
    // The seeded menu and banners lead to the starter's own routes, which answer.
    const links = await page.locator('nav.menu a, .banners a').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href')));
    expect(links).toEqual(['/', '/blog', '/about', 'https://github.com/strapi/strapi', '/', '/blog']);
    for (const path of ['/blog', '/about', '/blog/news', '/blog/tech/frontend']) {
      const answer = await fetch(`${site.url}${path}`);
      expect(`${path} ${answer.status}`).toBe(`${path} 200`);
    }
    await noHorizontalScroll(page);
    await page.context().close();
  });

  it('renders an article on the server: Markdown as HTML, sanitized, a responsive cover, JSON-LD Article; an old slug answers 301', async () => {
    const { page, status } = await open(DESKTOP, '/articles/whales', { javaScript: false });
    expect(status).toBe(200);
    const meta = await head(page);
    expect(meta).toMatchObject({ title: 'Whales · CMS Bag Blog', description: 'Big animals of the ocean.', canonical: `${site.url}/articles/whales`, ogTitle: 'Whales', ogImage: `${app.url}/uploads/whale.svg` });
    expect(meta.jsonLd[0]).toMatchObject({ '@type': 'BlogPosting', headline: 'Whales', url: `${site.url}/articles/whales` });
    expect(await page.locator('.prose h2').textContent()).toBe('Where they live');
    expect(await page.locator('.prose strong').textContent()).toBe('every');
    expect(await page.locator('.prose').textContent()).not.toContain('##');
    expect(await page.locator('.prose script').count()).toBe(0);
    const cover = page.locator('.cover img');
    expect(await cover.getAttribute('srcset')).toBe(
      `${app.url}/uploads/small_whale.svg 500w, ${app.url}/uploads/medium_whale.svg 750w, ${app.url}/uploads/large_whale.svg 1000w, ${app.url}/uploads/whale.svg 1600w`
    );
    expect(await cover.getAttribute('sizes')).toContain('46rem');
    expect(await cover.getAttribute('alt')).toBe('A whale breaching');
    expect(await cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await page.locator('article .meta').textContent()).toContain('1 min read');
    await page.context().close();

    const moved = await fetch(`${site.url}/articles/whales-old`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/articles/whales']);
    // The plugin's feed links to the starter's canonical pages (site.paths with {localePrefix}: English unprefixed).
    const feed = await (await fetch(`${app.url}/api/bag/feeds/articles.rss`)).text();
    const firstItem = /<item>[\s\S]*?<link>([^<]+)<\/link>/.exec(feed)![1];
    expect(firstItem).toBe(`${site.url}/articles/whales`);
    const followed = await fetch(firstItem, { redirect: 'manual' });
    expect(followed.status).toBe(200);
    const english = await fetch(`${site.url}/en/blog`, { redirect: 'manual' });
    expect([english.status, english.headers.get('location')]).toEqual([301, '/blog']);
  });

  it('answers an unknown address with a 404 page that leads home, and a failing Strapi with a friendly error page', async () => {
    const { page, status } = await open(MOBILE, '/articles/no-such-article');
    expect(status).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to the home page' }).getAttribute('href')).toBe('/');
    await page.context().close();

    // Strapi unreachable: a starter pointed at a closed port.
    const down = await startStarter('http://127.0.0.1:9');
    try {
      const context = await browser.newContext({ viewport: MOBILE });
      const errorPage = await context.newPage();
      const answer = await errorPage.goto(`${down.url}/fr/blog`);
      expect(answer!.status()).toBe(500);
      await errorPage.getByRole('heading', { level: 1, name: 'Un problème est survenu' }).waitFor();
      expect(await errorPage.getByRole('link', { name: 'Retour à l’accueil' }).getAttribute('href')).toBe('/fr');
      expect(await errorPage.locator('body').textContent()).not.toContain('Service Unavailable');
      await context.close();
    } finally {
      await down.stop();
    }
  });

  it('serves French pages with French chrome and hreflang links between the versions', async () => {
    const { page, status } = await open(MOBILE, '/fr/articles/article-de-demonstration-1', { javaScript: false });
    expect(status).toBe(200);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('nav.menu a').allTextContents()).toEqual(['Accueil', 'Blog', 'À propos']);
    expect(await page.getByRole('button', { name: 'Rechercher' }).count()).toBe(1);
    expect(await page.locator('.skip').textContent()).toBe('Aller au contenu');
    expect(await page.locator('article .meta').textContent()).toContain('min de lecture');
    const meta = await head(page);
    expect(meta.hreflang).toEqual([
      `fr ${site.url}/fr/articles/article-de-demonstration-1`,
      `en ${site.url}/articles/demo-article-1`,
      `x-default ${site.url}/articles/demo-article-1`,
    ]);
    await noHorizontalScroll(page);
    await screenshot(page, 'starter-article-fr-390');
    await page.context().close();
  });

  it('posts a comment and a reply from the article page, moving focus to what appeared and announcing it', async () => {
    const { page } = await open(MOBILE, '/articles/whales');
    await page.getByLabel('Your comment (Markdown)').fill('What a **big** animal');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await expectStatus(page, 'Your comment is published.');
    const posted = page.locator('li.comment', { hasText: 'What a big animal' });
    expect(await posted.locator('.content strong').textContent()).toBe('big');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('comment'))).toBe(true);

    await posted.getByRole('button', { name: 'Reply to guest' }).click();
    const reply = page.getByLabel('Your reply (Markdown)');
    expect(await reply.evaluate((node) => node === document.activeElement)).toBe(true);
    await reply.fill('A <b>reply</b>');
    await page.getByRole('button', { name: 'Post reply' }).click();
    await expectStatus(page, 'Your comment is published.');
    const shown = page.locator('li.comment li.comment', { hasText: 'A <b>reply</b>' });
    expect(await shown.locator('b').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('A <b>reply</b>');

    // The server's answer to an empty thread read again: both comments are in the HTML without JavaScript.
    const html = await (await fetch(`${site.url}/articles/whales`)).text();
    expect(html).toContain('What a <strong>big</strong> animal');
    await page.context().close();
  });

  it('lets a signed-in reader edit and delete their own comment, with focus in the form and the outcome announced', async () => {
    const user = await createUser(app.strapi);
    const { page } = await open(DESKTOP, '/account');
    await page.getByLabel('Username or e-mail').fill(user.username);
    await page.getByLabel('Password', { exact: true }).first().fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${user.username}`).waitFor();

    await page.goto(`${site.url}/articles/whales`);
    await page.getByLabel('Your comment (Markdown)').fill('Mine, first version');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await expectStatus(page, 'Your comment is published.');
    const mine = page.locator('li.comment', { hasText: 'Mine, first version' });
    await mine.getByRole('button', { name: 'Edit: Mine, first version' }).click();
    const editor = page.getByLabel('Edit your comment');
    expect(await editor.evaluate((node) => node === document.activeElement)).toBe(true);
    await editor.fill('Mine, *second* version');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, 'Your comment was updated.');
    const edited = page.locator('li.comment', { hasText: 'Mine, second version' });
    expect(await edited.locator('.content em').textContent()).toBe('second');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Mine, second version');
    // Someone else's comment has neither button.
    expect(await page.locator('li.comment', { hasText: 'What a big animal' }).getByRole('button', { name: /^(Edit|Delete):/ }).count()).toBe(0);

    page.once('dialog', (dialog) => dialog.accept());
    await edited.getByRole('button', { name: 'Delete: Mine, *second* version' }).click();
    await expectStatus(page, 'Your comment was deleted.');
    expect(await page.locator('li.comment', { hasText: 'Mine, second version' }).count()).toBe(0);
    await page.context().close();
  });

  it('searches on the server for ?q= and as the reader types', async () => {
    const { page, status } = await open(MOBILE, '/search?q=whales', { javaScript: false });
    expect(status).toBe(200);
    expect(await page.locator('#search-results a').first().getAttribute('href')).toBe('/articles/whales');
    expect(await page.locator('#search-results mark').first().textContent()).toMatch(/whales/i);
    await page.context().close();

    const typed = await open(DESKTOP, '/search');
    await typed.page.getByLabel('Search articles').first().fill('demo article');
    await typed.page.locator('#search-summary', { hasText: 'articles found' }).waitFor();
    expect(await typed.page.locator('#search-results li').count()).toBeGreaterThan(0);
    expect(new URL(typed.page.url()).searchParams.get('q')).toBe('demo article');
    await typed.page.context().close();
  });

  it('completes the search box as the reader types and shows the facets of the results (docs/search.md#suggest)', async () => {
    const { page } = await open(DESKTOP, '/search');
    const box = page.getByLabel('Search articles').first();
    await box.fill('wha');
    const suggestion = page.locator('#search-suggestions a', { hasText: 'Whales' });
    await suggestion.waitFor();
    expect(await suggestion.getAttribute('href')).toBe('/articles/whales');
    // Facets count categories over every hit: the demo articles are spread over several categories.
    await box.fill('demo article');
    await page.locator('#search-summary', { hasText: 'articles found' }).waitFor();
    const categories = page.locator('#search-facets section[data-facet="category"] li');
    await categories.first().waitFor();
    const counts = await page.locator('#search-facets section[data-facet="category"] .count').allTextContents();
    const total = Number((await page.locator('#search-summary').textContent())?.match(/\d+/)?.[0]);
    expect(counts.map(Number).reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(await page.locator('#search-suggestions a', { hasText: 'Demo article' }).count()).toBeGreaterThan(0);
    await page.context().close();
    // Rendered on the server too, without JavaScript.
    const server = await open(MOBILE, '/search?q=demo', { javaScript: false });
    expect(await server.page.locator('#search-facets section[data-facet="category"] li').count()).toBeGreaterThan(0);
    await server.page.context().close();
  });

  it('signs in on the account page with translated errors, lists the sessions, turns the authenticator app on and off', async () => {
    const user = await createUser(app.strapi);
    const { page } = await open(MOBILE, '/account');
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.getByLabel('Password', { exact: true }).first().fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The username or the password is wrong.' }).waitFor();
    await page.getByLabel('Password', { exact: true }).first().fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('who');
    await page.locator('#sessions li', { hasText: '(this browser)' }).waitFor();

    // The authenticator app: the QR code at 200 px, the codes shown with focus on them, then off with a recovery code.
    await page.locator('#totp-status', { hasText: 'Authenticator app off.' }).waitFor();
    await page.locator('#totp-setup-form').getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = page.locator('#totp-qr svg');
    await qr.waitFor();
    expect(await qr.evaluate((node) => Math.round(node.getBoundingClientRect().width))).toBe(200);
    const secret = (await page.locator('#totp-secret').textContent())!;
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('totp-code');
    await page.getByLabel('Code from the app', { exact: true }).fill(new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate());
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.locator('#recovery-codes li').first().waitFor();
    const codes = await page.locator('#recovery-codes li').allTextContents();
    expect(codes).toHaveLength(10);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('recovery-heading');
    await page.locator('#totp-status', { hasText: 'Authenticator app on: 10 recovery codes left.' }).waitFor();
    await noHorizontalScroll(page);
    await screenshot(page, 'starter-account-390');
    await page.locator('#totp-off-form').getByLabel('Password').fill('wrong-password');
    await page.locator('#totp-off-form').getByLabel('Current code from the app (or a recovery code)').fill(codes[0]);
    await page.getByRole('button', { name: 'Turn the authenticator app off' }).click();
    await page.getByRole('alert').filter({ hasText: 'The password is wrong.' }).waitFor();
    await page.locator('#totp-off-form').getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Turn the authenticator app off' }).click();
    await page.locator('#totp-status', { hasText: 'Authenticator app off.' }).waitFor();
    await page.context().close();

    const french = await open(MOBILE, '/fr/account');
    await french.page.getByLabel('Nom d’utilisateur ou e-mail').waitFor();
    expect(await french.page.getByRole('button', { name: 'Se connecter' }).count()).toBe(1);
    await french.page.context().close();
  });

  it('registers with the e-mailed code (the default register captcha) and is signed in', async () => {
    const { page } = await open(MOBILE, '/account');
    const email = `starter-reader-${Date.now()}@example.com`;
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByRole('status').filter({ hasText: 'A code was sent to your address.' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('register-code');
    await page.getByLabel('Code from the e-mail').fill(await smtp.nextCode(email));
    await page.getByLabel('Username', { exact: true }).fill('starter-reader');
    await page.locator('#register-password').fill('A-long-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Signed in as starter-reader').waitFor();
    await page.context().close();
  });

  it('lays out home, article, category and search at 390 and 1280 px (screenshots in docs/)', async () => {
    for (const [name, path] of [['home', '/'], ['article', '/articles/whales'], ['category', '/blog/news'], ['search', '/search?q=demo']]) {
      for (const viewport of [MOBILE, DESKTOP]) {
        const { page, status } = await open(viewport, path);
        expect(`${path} ${status}`).toBe(`${path} 200`);
        const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        expect(sizes.scroll).toBeLessThanOrEqual(sizes.inner);
        await screenshot(page, `starter-${name}-${viewport.width}`);
        await page.context().close();
      }
    }
  });
});

async function expectStatus(page: Page, text: string) {
  await page.locator('#comment-status', { hasText: text }).waitFor();
}
