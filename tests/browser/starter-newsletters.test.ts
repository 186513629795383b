/**
 * The blog starter's newsletters (docs/starter.md#newsletters, docs/newsletters.md) in Chromium: a reader subscribes
 * by address on the home page (the server's message, the same whatever the address; the confirmation link mailed to
 * the SMTP sink; the page's locale sent; errors in the alert line; no horizontal scroll at 320 px), and a signed-in
 * member ticks newsletters on the account page, which GET /api/bag/newsletters/subscriptions then answers.
 */
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { createDocument, createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';
import { freePort, startStarter, type StarterServer, stopStarterRun } from '../helpers/starter';

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ACCEPTED = 'If the address can receive mail, a link to confirm the subscription is on its way.';

describe("the blog starter's newsletters (docs/starter.md#newsletters)", () => {
  let app: TestApp;
  let site: StarterServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let origin: string;
  const stamp = Date.now().toString(36);
  const weekly = { name: `Weekly ${stamp}`, slug: `weekly-${stamp}` };
  const releases = { name: `Releases ${stamp}`, slug: `releases-${stamp}` };

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      // The demo content (seed) has the French locale the /fr/ pages read their menu in.
      setupStrapi({ seed: true, env: { ...smtp.env, SITE_URL: origin }, config: { rateLimit: { enabled: false } } }),
      launchBrowser(),
    ]);
    for (const letter of [weekly, releases]) {
      await createDocument(app.strapi, `${PLUGIN}.newsletter`, { ...letter, description: `About ${letter.name}` });
    }
    site = await startStarter(app.url, { port });
  }, 180_000);
  afterAll(async () => {
    await stopStarterRun({ site, browser, app, smtp });
  });

  const open = async (viewport: { width: number; height: number }, address: string) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${origin}${address}`);
    return page;
  };
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).waitFor();
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  const subscriber = (email: string) =>
    app.strapi.db.query(`${PLUGIN}.newsletter-subscriber`).findOne({ where: { email } }) as Promise<{ locale: string } | null>;
  const mine = async (user: TestUser) => {
    const res = await fetch(`${app.url}/api/bag/newsletters/subscriptions`, { headers: { Authorization: `Bearer ${jwtFor(app.strapi, user)}` } });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Array<{ newsletter: string; locale: string }> };
    return data.filter((row) => row.newsletter === weekly.slug || row.newsletter === releases.slug).sort((a, b) => a.newsletter.localeCompare(b.newsletter));
  };

  it('subscribes a reader by address from the home page: errors announced, the server message shown, the link mailed', async () => {
    const page = await open(MOBILE, '/');
    const form = page.locator('#newsletter-form');
    await form.getByLabel(weekly.name).waitFor();
    expect(await fitsWidth(page)).toBe(true);

    // Nothing chosen: the alert says so and focus goes to the first choice.
    const email = `starter-reader-${stamp}@example.test`;
    await form.getByLabel('Your e-mail address').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await alert(page, 'Choose at least one newsletter.');
    expect(await focused(page)).toMatch(/^newsletter-choice-/);

    // By keyboard: space ticks the focused box, Enter in the address field sends the form.
    await form.getByLabel(weekly.name).focus();
    await page.keyboard.press('Space');
    expect(await form.getByLabel(weekly.name).isChecked()).toBe(true);
    await form.getByLabel('Your e-mail address').press('Enter');
    await status(page, ACCEPTED);
    expect(await page.locator('#newsletter-error').textContent()).toBe('');
    const mail = await smtp.nextMail(email);
    expect(mail.text).toMatch(/\/api\/bag\/newsletters\/confirm\?token=[^\s"<>&]+/);
    expect((await subscriber(email))?.locale).toBe('en');

    await page.setViewportSize({ width: 320, height: 700 });
    expect(await fitsWidth(page)).toBe(true);
    await page.context().close();
  });

  it('sends the French page’s locale and translates the form; a bad address is an announced error', async () => {
    const page = await open(DESKTOP, '/fr/');
    const form = page.locator('#newsletter-form');
    await form.getByLabel(releases.name).check();
    await form.getByLabel('Votre adresse e-mail').fill('not-an-address');
    await form.getByRole('button', { name: 'S’abonner' }).click();
    await alert(page, 'Vérifiez l’adresse e-mail et réessayez.');
    expect(await focused(page)).toBe('newsletter-email');

    const email = `starter-lecteur-${stamp}@example.test`;
    await form.getByLabel('Votre adresse e-mail').fill(email);
    await form.getByRole('button', { name: 'S’abonner' }).click();
    await status(page, ACCEPTED);
    await smtp.nextMail(email);
    expect((await subscriber(email))?.locale).toBe('fr');
    expect(await fitsWidth(page)).toBe(true);
    await page.context().close();
  });

  it("sets a member's newsletters on the account page, as GET /api/bag/newsletters/subscriptions then answers", async () => {
    const user = await createUser(app.strapi);
    const page = await open(DESKTOP, '/account');
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.locator('#login-password').fill(user.password);
    await page.locator('#login-form').getByRole('button', { name: 'Sign in' }).click();
    const form = page.locator('#newsletters-form');
    await form.getByLabel(weekly.name).waitFor();
    expect(await form.getByLabel(weekly.name).isChecked()).toBe(false);

    await form.getByLabel(weekly.name).check();
    await form.getByRole('button', { name: 'Save my newsletters' }).click();
    await status(page, 'Your newsletters were saved.');
    expect(await focused(page)).toBe('newsletters-save');
    expect(await mine(user)).toEqual([{ newsletter: weekly.slug, locale: 'en' }]);

    // A fresh page shows the saved state; the choice changes to the other newsletter.
    await page.reload();
    await form.getByLabel(weekly.name).waitFor();
    await page.waitForFunction((id) => (document.getElementById(id) as HTMLInputElement | null)?.checked === true, `account-newsletter-${weekly.slug}`);
    await form.getByLabel(weekly.name).uncheck();
    await form.getByLabel(releases.name).check();
    await form.getByRole('button', { name: 'Save my newsletters' }).click();
    await status(page, 'Your newsletters were saved.');
    expect(await mine(user)).toEqual([{ newsletter: releases.slug, locale: 'en' }]);

    // Nothing ticked: none left, and the page says so.
    await form.getByLabel(releases.name).uncheck();
    await form.getByRole('button', { name: 'Save my newsletters' }).click();
    await status(page, 'You no longer get any newsletter.');
    expect(await mine(user)).toEqual([]);
    await page.context().close();
  });
});
