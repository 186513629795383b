/**
 * Newsletters in the admin panel (docs/newsletters.md#admin), in headless Chromium against a playground serving its
 * built admin panel: the newsletters page with a send running (held at the SMTP sink, so it stays running), its
 * progress bar and Cancel; the article's side panel with a test send and "sent on". Screenshots go to docs/.
 */
import path from 'path';
import type { Browser, Page } from 'playwright-core';
import { adminUiLogin, newPage, startWithBrowser } from '../helpers/browser';
import { adminToken, createDocument } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, ROOT, setupStrapi, type TestApp } from '../helpers/strapi';

const SUPER_ADMIN = { email: 'admin@example.com', password: 'Admin-password-1' };
const docsShot = (page: Page, name: string) => page.screenshot({ path: path.join(ROOT, 'docs', `${name}.png`), fullPage: true });

describe('newsletters in the admin panel', () => {
  let app: TestApp;
  let browser: Browser;
  let smtp: TestSmtp;
  let admin: string;
  let letter: { documentId: string; name: string };
  let article: { documentId: string; title: string };

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await startWithBrowser(() =>
      setupStrapi({ serveAdmin: true, env: smtp.env, config: { site: { url: 'https://front.example' }, newsletters: { batchSize: 1 } } })
    );
    admin = await adminToken(app);
    letter = await createDocument(app.strapi, `${PLUGIN}.newsletter`, { name: 'The Weekly', slug: 'the-weekly' }) as unknown as typeof letter;
    await app.strapi.db.query(`${PLUGIN}.newsletter-subscriber` as never).createMany({
      data: ['ann', 'bob', 'cy'].map((name) => ({ newsletter: letter.documentId, email: `${name}@example.test`, locale: 'en', state: 'active' })),
    });
    article = await createDocument(app.strapi, `${PLUGIN}.article`, { title: 'Spring issue', slug: 'spring-issue', content: 'Hello' }) as unknown as typeof article;
  }, 120_000);
  afterAll(async () => {
    smtp?.release();
    await browser?.close();
    await app?.stop();
    await smtp?.stop();
  });

  it('shows a running send with its progress bar and cancels it', async () => {
    smtp.hold();
    const page = await newPage(browser);
    try {
      const res = await app.request().post(`/cms-plugin-bag/newsletters/${letter.documentId}/sends`).set('Authorization', `Bearer ${admin}`).send({ article: article.documentId }).expect(201);
      await adminUiLogin(page, app.url, SUPER_ADMIN);
      await page.goto(`${app.url}/admin/plugins/cms-plugin-bag-newsletters`);
      const row = page.locator(`tr[data-send="${res.body.data.id}"]`);
      await row.waitFor();
      await row.getByRole('progressbar').waitFor();
      await row.getByText('0 of 3 sent, 0 failed').waitFor();
      await page.getByTestId('newsletter-subscribers').getByText('The Weekly').waitFor();
      await docsShot(page, 'newsletters-admin');
      await row.getByRole('button', { name: 'Cancel' }).click();
      await page.locator(`tr[data-send="${res.body.data.id}"][data-status="cancelled"]`).waitFor();
      expect(await row.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    } finally {
      smtp.release();
      await page.context().close();
    }
  });

  it("the article's side panel sends a test and says when the article was sent", async () => {
    const page = await newPage(browser);
    try {
      await adminUiLogin(page, app.url, SUPER_ADMIN);
      await page.goto(`${app.url}/admin/content-manager/collection-types/${PLUGIN}.article/${article.documentId}?plugins[i18n][locale]=en`);
      const panel = page.locator('[data-newsletter-panel]');
      await panel.waitFor();
      await panel.getByText(/The Weekly: sent on .* \(cancelled\)/).waitFor();
      await panel.getByLabel('Test send to').fill('editor@example.test');
      await panel.getByRole('button', { name: 'Send test' }).click();
      const mail = await smtp.nextMail('editor@example.test');
      expect(mail.subject).toBe('Spring issue');
      expect(await panel.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
      await panel.scrollIntoViewIfNeeded();
      await docsShot(page, 'newsletters-panel');
    } finally {
      await page.context().close();
    }
  });
});
