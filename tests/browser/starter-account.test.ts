/**
 * The blog starter's account page (docs/starter.md) in Chromium, past what tests/browser/starter.test.ts covers:
 * signing in with an e-mailed code (docs/accounts.md, login by code), the e-mail change with the second factor, and
 * passkeys named, renamed, removed and signed in with (a DevTools virtual authenticator through playwright-core's CDP
 * session). The page is opened at `localhost` (WebAuthn needs a domain, not an IP address), the playground's SITE_URL,
 * so the passkeys' relying party is the starter's origin. Errors are translated sentences; focus moves to what appeared.
 */
import fs from 'fs';
import path from 'path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser';
import { AUTH, observeCaptchaTexts, setSettings } from '../helpers/auth';
import { createUser, jwtFor, type TestUser } from '../helpers/fixtures';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { ROOT, setupStrapi, type TestApp } from '../helpers/strapi';
import { freePort, startStarter, type StarterServer, stopStarterRun } from '../helpers/starter';
import { TOTP } from 'otpauth';

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const ASSETS = path.join(ROOT, 'starter', 'dist', 'client', '_astro');

describe("the blog starter's account page (docs/starter.md)", () => {
  let app: TestApp;
  let site: StarterServer;
  let browser: Browser;
  let smtp: TestSmtp;
  let origin: string;

  beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      // The demo content (seed) has the French locale the /fr/ pages read their menu in.
      setupStrapi({ seed: true, env: { ...smtp.env, SITE_URL: origin }, config: { rateLimit: { enabled: false }, account: { passwordless: { enabled: true } } } }),
      launchBrowser(),
    ]);
    site = await startStarter(app.url, { port });
  }, 180_000);
  afterAll(async () => {
    await stopStarterRun({ site, browser, app, smtp });
  });

  const open = async (viewport: { width: number; height: number }, address = '/account') => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${origin}${address}`);
    return page;
  };
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  const alert = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).waitFor();
  const signIn = async (page: Page, user: TestUser) => {
    await page.getByLabel('Username or e-mail').fill(user.email);
    await page.locator('#login-password').fill(user.password);
    await page.locator('#login-form').getByRole('button', { name: 'Sign in' }).click();
  };
  const api = async (user: TestUser, method: string, route: string, body?: object) => {
    const res = await fetch(`${app.url}${AUTH}${route}`, {
      method,
      headers: { Authorization: `Bearer ${jwtFor(app.strapi, user)}`, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('signs in with a code e-mailed for login-code, a wrong code answered with a translated sentence', async () => {
    const user = await createUser(app.strapi);
    const page = await open(MOBILE);
    await page.getByLabel('Your e-mail address').fill(user.email);
    await page.locator('#code-login-send').click();
    await status(page, 'A code was sent to your address.');
    expect(await focused(page)).toBe('code-login-code');
    const code = await smtp.nextCode(user.email);
    await page.locator('#code-login-code').fill(code === '000000' ? '111111' : '000000');
    await page.locator('#code-login-form').getByRole('button', { name: 'Sign in' }).click();
    await alert(page, 'That code is wrong or has expired.');
    expect(await focused(page)).toBe('code-login-code');
    await page.locator('#code-login-code').fill(code);
    await page.locator('#code-login-form').getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    expect(await focused(page)).toBe('who');
    await page.context().close();

    // French: the same form, its sentences translated.
    const french = await open(MOBILE, '/fr/account');
    await french.getByLabel('Votre adresse e-mail').fill((await createUser(app.strapi)).email);
    await french.locator('#code-login-send').click();
    await status(french, 'Un code a été envoyé à votre adresse.');
    await french.locator('#code-login-code').fill('000000');
    await french.locator('#code-login-form').getByRole('button', { name: 'Se connecter' }).click();
    await alert(french, 'Ce code est incorrect ou a expiré.');
    await french.context().close();
  });

  it('answers a wrong registration code as a wrong code, not as an image captcha to read again', async () => {
    const page = await open(MOBILE);
    const email = `starter-wrong-code-${Date.now()}@example.com`;
    await page.getByLabel('E-mail', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await status(page, 'A code was sent to your address.');
    const code = await smtp.nextCode(email);
    await page.locator('#register-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByLabel('Username', { exact: true }).fill('wrong-code-reader');
    await page.locator('#register-password').fill('A-long-password-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await alert(page, 'That code is wrong or has expired.');
    await page.context().close();
  });

  it('changes the e-mail address with the password and the second factor, confirmed by the code sent to the new one', async () => {
    const user = await createUser(app.strapi);
    const { secret } = await api(user, 'POST', '/mfa/totp/setup', { password: user.password });
    const { recoveryCodes } = await api(user, 'POST', '/mfa/totp/enable', { code: new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate() });
    const page = await open(DESKTOP);
    await signIn(page, user);
    await page.getByLabel('Code from your authenticator app (or a recovery code)', { exact: true }).fill(recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    await page.locator('#email-now', { hasText: user.email }).waitFor();

    const newEmail = `moved-${Date.now()}@example.com`;
    const form = page.locator('#email-form');
    await form.getByLabel('New e-mail address').fill(newEmail);
    await form.getByLabel('Password').fill('not-the-password');
    // TOTP is on: the form asks for its current code.
    await form.getByLabel('Current code from your authenticator app (or a recovery code)').fill(recoveryCodes[1]);
    await form.getByRole('button', { name: 'Send a code to the new address' }).click();
    await alert(page, 'The password is wrong.');
    await form.getByLabel('Password').fill(user.password);
    await form.getByLabel('Current code from your authenticator app (or a recovery code)').fill(recoveryCodes[1]);
    await form.getByRole('button', { name: 'Send a code to the new address' }).click();
    await status(page, `A code was sent to ${newEmail}.`);
    expect(await focused(page)).toBe('email-code');
    await page.locator('#email-code').fill(await smtp.nextCode(newEmail));
    await page.getByRole('button', { name: 'Confirm the new address' }).click();
    await status(page, `Your address is now ${newEmail}.`);
    expect(await focused(page)).toBe('email-heading');
    expect(await page.locator('#email-now').textContent()).toBe(`Your address: ${newEmail}`);
    expect((await api(user, 'GET', '/me')).email).toBe(newEmail);
    await page.context().close();
  });

  it('adds a named passkey (the library loaded only then), renames it, signs in with it and removes it', async () => {
    const user = await createUser(app.strapi);
    const page = await open(DESKTOP);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signIn(page, user);
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    await page.getByText('No passkey yet.').waitFor();

    // The chunk with the WebAuthn calls (the passkey library) is not loaded until a passkey is used.
    const library = fs.readdirSync(ASSETS).filter((file) => fs.readFileSync(path.join(ASSETS, file), 'utf8').includes('navigator.credentials'));
    expect(library).toHaveLength(1);
    const loaded = () => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()));
    expect(await loaded()).not.toContain(library[0]);

    const add = page.locator('#passkey-add-form');
    await add.getByLabel('Name of this passkey').fill('Work laptop');
    await add.getByLabel('Password').fill('not-the-password');
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    await alert(page, 'The password is wrong.');
    await add.getByLabel('Password').fill(user.password);
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    await status(page, 'The passkey “Work laptop” was added.');
    expect(await focused(page)).toBe('passkeys-heading');
    expect(await loaded()).toContain(library[0]);
    await page.locator('#passkeys li', { hasText: 'Work laptop' }).getByText('never used').waitFor();

    // Again with a code e-mailed for add-passkey instead of the password: the server accepts it, and this device,
    // which holds the passkey already, refuses; the browser's InvalidStateError becomes a sentence.
    await add.getByLabel('Name of this passkey').fill('Second');
    await page.getByRole('button', { name: 'No password? E-mail me a code instead' }).click();
    await status(page, 'A code was sent to your address. Type it instead of the password.');
    expect(await focused(page)).toBe('passkey-code');
    await page.locator('#passkey-code').fill(await smtp.nextCode(user.email));
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    await alert(page, 'This device already holds a passkey for your account.');

    await page.getByRole('button', { name: 'Rename “Work laptop”' }).click();
    const field = page.getByLabel('New name for “Work laptop”');
    expect(await field.evaluate((node) => node === document.activeElement)).toBe(true);
    await field.fill('Phone');
    await page.getByRole('button', { name: 'Save' }).click();
    await status(page, 'The passkey is now called “Phone”.');
    const rename = page.getByRole('button', { name: 'Rename “Phone”' });
    expect(await rename.evaluate((node) => node === document.activeElement)).toBe(true);
    expect((await api(user, 'GET', '/passkeys')).data.map((passkey: { name: string }) => passkey.name)).toEqual(['Phone']);

    // Signed out, the passkey signs in (both factors).
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await status(page, 'You are signed out.');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByText(`Signed in as ${user.username}`).waitFor();
    await page.locator('#passkeys li', { hasText: 'Phone' }).getByText(/last used/).waitFor();

    await page.getByRole('button', { name: 'Remove “Phone”' }).click();
    await status(page, 'The passkey “Phone” was removed.');
    expect(await focused(page)).toBe('passkeys-heading');
    await page.getByText('No passkey yet.').waitFor();
    expect((await api(user, 'GET', '/passkeys')).data).toEqual([]);
    await page.context().close();
  });

  describe('the captcha the server asks for (docs/starter.md#the-account-page)', () => {
    const USER_UID = 'plugin::users-permissions.user';
    afterEach(() => setSettings(app.strapi, { login: { captcha: { enabled: false, type: 'image' } }, register: { captcha: { enabled: true, type: 'email' } } }));

    it('registers with the image captcha: the SVG with another one on request, a wrong text told and a fresh image', async () => {
      const texts = observeCaptchaTexts(app.strapi);
      await setSettings(app.strapi, { register: { captcha: { enabled: true, type: 'image' } } });
      const page = await open(MOBILE);
      await page.locator('#register-captcha-image svg').waitFor();
      expect(await page.getByRole('button', { name: 'Send me a code' }).isVisible()).toBe(false);
      expect(await page.locator('#register-code').isVisible()).toBe(false);
      const drawn = texts.all().length;
      const fresh = page.waitForResponse((res) => res.url().endsWith('/auth/captcha-image'));
      await page.locator('#register-captcha').getByRole('button', { name: 'Another image' }).click();
      await fresh;
      expect(texts.all().length).toBe(drawn + 1);
      expect(await focused(page)).toBe('register-captcha-code');

      const name = `imagereader${Date.now()}`;
      await page.getByLabel('E-mail', { exact: true }).fill(`${name}@example.com`);
      await page.getByLabel('Username', { exact: true }).fill(name);
      await page.locator('#register-password').fill('A-long-password-1');
      await page.getByLabel('Characters in the image').last().fill(texts.last() === 'zzzz' ? 'yyyy' : 'zzzz');
      await page.getByRole('button', { name: 'Create account' }).click();
      await alert(page, 'Type the characters shown in the image.');
      await page.waitForFunction(() => document.activeElement?.id === 'register-captcha-code');
      expect(texts.all().length).toBe(drawn + 2);
      await page.locator('#register-captcha-code').fill(texts.last());
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(`Signed in as ${name}`).waitFor();
      expect(await app.strapi.db.query(USER_UID).count({ where: { username: name } })).toBe(1);
      await page.context().close();
    });

    it('signs in with a login captcha of e-mailed codes: the code goes to the address typed, a username is asked to be an address', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'email' } } });
      const user = await createUser(app.strapi);
      const page = await open(MOBILE);
      const send = page.locator('#login-form').getByRole('button', { name: 'Send me a code' });
      await send.waitFor();
      expect(await page.locator('#login-captcha-image').isVisible()).toBe(false);
      await page.getByLabel('Username or e-mail').fill(user.username);
      await send.click();
      await alert(page, 'Type your e-mail address (not your username) to get a code.');
      expect(await focused(page)).toBe('login-identifier');

      await page.getByLabel('Username or e-mail').fill(user.email);
      await page.locator('#login-password').fill(user.password);
      await send.click();
      await status(page, 'A code was sent to your address. It is valid for a few minutes.');
      expect(await focused(page)).toBe('login-code');
      const code = await smtp.nextCode(user.email);
      await page.locator('#login-form').getByLabel('Code from the e-mail').fill(code === '000000' ? '111111' : '000000');
      await page.locator('#login-form').getByRole('button', { name: 'Sign in' }).click();
      await alert(page, 'That code is wrong or has expired.');
      await page.locator('#login-form').getByLabel('Code from the e-mail').fill(code);
      await page.locator('#login-form').getByRole('button', { name: 'Sign in' }).click();
      await page.getByText(`Signed in as ${user.username}`).waitFor();
      await page.context().close();
    });

    it('registers and signs in with a proof of work solved in the browser, nothing to read or type', async () => {
      await setSettings(app.strapi, { login: { captcha: { enabled: true, type: 'pow' } }, register: { captcha: { enabled: true, type: 'pow' } } });
      const page = await open(DESKTOP);
      const name = `powreader${Date.now()}`;
      await page.getByLabel('Username', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Send me a code' }).isVisible()).toBe(false);
      expect(await page.locator('#register-captcha').isVisible()).toBe(false);
      await page.getByLabel('E-mail', { exact: true }).fill(`${name}@example.com`);
      await page.getByLabel('Username', { exact: true }).fill(name);
      await page.locator('#register-password').fill('A-long-password-1');
      const solved = page.waitForRequest((req) => req.url().endsWith('/auth/register') && /"key":"[0-9a-f]+","code":"\d+"/.test(req.postData() ?? ''));
      await page.getByRole('button', { name: 'Create account' }).click();
      await solved;
      await page.getByText(`Signed in as ${name}`).waitFor();
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByLabel('Username or e-mail').fill(name);
      await page.locator('#login-password').fill('A-long-password-1');
      expect(await page.locator('#login-captcha').isVisible()).toBe(false);
      await page.locator('#login-form').getByRole('button', { name: 'Sign in' }).click();
      await page.getByText(`Signed in as ${name}`).waitFor();
      await page.context().close();
    });
  });
});
