/** The playground example's account view (example.html?view=account) in headless Chromium: sessions with revoke, e-mail change, delete. */
import type { Browser } from 'playwright-core';
import { newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { createUser } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { PLUGIN, setupStrapi, type TestApp } from '../helpers/strapi';

const TOKEN_UID = `${PLUGIN}.refresh-token`;

describe('example.html account page in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await startWithBrowser(() =>
      setupStrapi({ env: smtp.env, config: { rateLimit: { enabled: false }, account: { signInAlerts: false } } })
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.stop();
  });

  it('lists the sessions and ends one, changes the e-mail with the mailed code, and deletes the account', async () => {
    const user = await createUser(app.strapi);
    // A session elsewhere, for the page to list and end.
    const elsewhere = await app
      .request()
      .post('/api/cms-plugin-bag/auth/login')
      .set('User-Agent', 'Elsewhere-Phone/1')
      .send({ identifier: user.email, password: user.password })
      .expect(200);

    const page = await newPage(browser);
    page.on('dialog', (dialog) => dialog.accept());
    await page.goto(`${app.url}/example.html?view=account`);
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(`Logged in as ${user.username}`).waitFor();

    await page.locator('#sessions li', { hasText: 'Elsewhere-Phone/1' }).waitFor();
    await page.locator('#sessions li', { hasText: '(this browser)' }).waitFor();
    await screenshot(page, 'example-account');
    await page.locator('#sessions li', { hasText: 'Elsewhere-Phone/1' }).getByRole('button', { name: 'Sign out' }).click();
    await page.locator('#sessions li', { hasText: 'Elsewhere-Phone/1' }).waitFor({ state: 'detached' });
    const refused = await app.request().post('/api/cms-plugin-bag/auth/refresh-token').send({ refreshToken: elsewhere.body.refreshToken });
    expect(refused.body.error.message).toBe('Invalid refresh token');

    const newEmail = `browser-${Date.now()}@example.com`;
    await page.getByLabel('New e-mail').fill(newEmail);
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Send a code to the new address' }).click();
    await page.getByLabel('Six digits mailed to the new address').fill(await smtp.nextCode(newEmail));
    await page.getByRole('button', { name: 'Confirm the new address' }).click();
    await page.getByText(`Your address is now ${newEmail}.`).waitFor();
    expect((await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: user.id } })).email).toBe(newEmail);

    await page.getByLabel('Password to delete').fill(user.password);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Your account was deleted. Not logged in').waitFor();
    expect(await page.locator('#account-page').isHidden()).toBe(true);
    expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { id: user.id } })).toBe(0);
    expect(await app.strapi.db.query(TOKEN_UID).count({ where: { userId: user.id } })).toBe(0);
    await page.context().close();
  });
});
