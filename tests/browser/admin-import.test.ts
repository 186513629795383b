/**
 * The Import page (docs/import.md#admin) driven in headless Chromium against the playground's built admin panel
 * (`npm run build:admin`): WordPress's theme unit test export through a dry run (counts, nothing written) and a run
 * (progress to the end, counts, the skipped items and why). Screenshots go to docs/.
 */
import fs from 'fs';
import path from 'path';
import type { Browser } from 'playwright-core';
import { adminUiLogin, newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { adminToken } from '../helpers/fixtures';
import { PLUGIN, ROOT, setupStrapi, type TestApp } from '../helpers/strapi';

const WXR = path.join(ROOT, 'tests', 'fixtures', 'import', 'themeunittestdata.wordpress.xml');

describe('the Import page', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await startWithBrowser(() => setupStrapi({ serveAdmin: true, config: { site: { url: 'https://front.example' } } }));
    await adminToken(app);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('a dry run shows the counts and writes nothing; the run goes to 100% and lists what was skipped', async () => {
    const page = await newPage(browser);
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      await adminUiLogin(page, app.url, { email: 'admin@example.com', password: 'Admin-password-1' });
      await page.goto(`${app.url}/admin/plugins/cms-plugin-bag-import`);
      await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
      await page.locator('#import-file').setInputFiles(WXR);

      await page.getByRole('button', { name: 'Dry run' }).click();
      const report = page.locator('[data-import-status="done"]');
      await report.waitFor({ timeout: 60_000 });
      await report.getByText('Dry run: nothing was written').waitFor();
      expect(await report.locator('[data-count="articles"] td').nth(1).innerText()).toBe('58');
      expect(await report.locator('[data-count="pages"] td').nth(1).innerText()).toBe('21');
      expect(await app.strapi.documents(`${PLUGIN}.article` as never).count({} as never)).toBe(0);
      await screenshot(page, 'admin-import-dry-run');
      fs.copyFileSync(path.join(ROOT, 'tests', 'artifacts', 'admin-import-dry-run.png'), path.join(ROOT, 'docs', 'admin-import-dry-run.png'));

      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const run = page.locator('[data-import-status]').filter({ hasNotText: 'Dry run' });
      await run.getByRole('progressbar').waitFor();
      await page.locator('[data-import-status="done"]').filter({ hasNotText: 'Dry run' }).waitFor({ timeout: 240_000 });
      const done = page.locator('[data-import-status="done"]');
      expect(await done.locator('[data-count="articles"] td').nth(1).innerText()).toBe('58');
      expect(await done.locator('[data-count="comments"] td').nth(1).innerText()).toBe('24');
      await done.getByRole('heading', { name: /items skipped/ }).waitFor();
      await done.getByText('password-protected', { exact: true }).waitFor();
      await done.getByText('page comment', { exact: true }).first().waitFor();
      expect(await app.strapi.documents(`${PLUGIN}.article` as never).count({ status: 'published' } as never)).toBe(55);
      await screenshot(page, 'admin-import-run');
      fs.copyFileSync(path.join(ROOT, 'tests', 'artifacts', 'admin-import-run.png'), path.join(ROOT, 'docs', 'admin-import-run.png'));
    } finally {
      await page.context().close();
    }
  }, 360_000);
});
