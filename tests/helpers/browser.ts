/**
 * Debian's Chromium (`apt-get install chromium`) driven by playwright-core: never a downloaded browser.
 * One browser per test file; each test gets its own context (cookies, localStorage), so sessions do not leak.
 */
import fs from 'fs';
import path from 'path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT, type TestApp } from './strapi';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');

// playwright's launch() gives every browser a fresh temporary user-data-dir and removes it on close.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}

/**
 * Starts Strapi and Chromium side by side. If either fails, the other is stopped before the error is rethrown, so a
 * failed setup leaves no browser or server behind to keep Jest from exiting.
 */
export async function startWithBrowser(start: () => Promise<TestApp>): Promise<[TestApp, Browser]> {
  const [app, browser] = await Promise.allSettled([start(), launchBrowser()]);
  if (app.status === 'fulfilled' && browser.status === 'fulfilled') return [app.value, browser.value];
  if (app.status === 'fulfilled') await app.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw app.status === 'rejected' ? app.reason : (browser as PromiseRejectedResult).reason;
}

/** A desktop browser's User-Agent: a reader (headless Chromium's own names it a crawler, whose reads count no view). */
export const READER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A page in a fresh context; console errors are collected for the failure message. `reader`: a reader's User-Agent. */
export async function newPage(browser: Browser, options: { locale?: string; reader?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    locale: options.locale ?? 'en-US',
    ...(options.reader ? { userAgent: READER_AGENT } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return page;
}

/** Saves a full-page PNG under tests/artifacts/ (git-ignored; CI keeps it as an artifact). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Logs into the admin panel through its own login form. */
export async function adminUiLogin(page: Page, baseUrl: string, credentials: { email: string; password: string }) {
  await page.goto(`${baseUrl}/admin/auth/login`);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => !url.pathname.includes('/auth/login'));
}
