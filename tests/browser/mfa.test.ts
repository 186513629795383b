/**
 * The example page's Security section in Chromium: TOTP enrolment from the QR code's secret and a passkey on the
 * DevTools virtual authenticator (WebAuthn.addVirtualAuthenticator through playwright-core's CDP session; it verifies
 * the user, as the passkey must), added with the password and a second-factor code, then a login with each. The page is opened at `localhost` (WebAuthn needs a domain, not an IP address), which is the
 * site URL the relying party comes from.
 */
import type { Browser } from 'playwright-core';
import { TOTP } from 'otpauth';
import { newPage, screenshot, startWithBrowser } from '../helpers/browser';
import { createUser, type TestUser } from '../helpers/fixtures';
import { setupStrapi, type TestApp } from '../helpers/strapi';

describe('second factors on the example page', () => {
  let app: TestApp;
  let browser: Browser;
  let user: TestUser;
  let site: string;

  beforeAll(async () => {
    [app, browser] = await startWithBrowser(() => setupStrapi({ config: { rateLimit: { enabled: false } } }));
    user = await createUser(app.strapi);
    site = app.url.replace('127.0.0.1', 'localhost');
    // The port is known once the server listens: the site URL (and so the passkeys' relying party) follows it.
    const settings = app.strapi.plugin('cms-plugin-bag').service('settings');
    const get = settings.get.bind(settings);
    jest.spyOn(settings, 'get').mockImplementation(async () => {
      const config = await get();
      return { ...config, site: { ...config.site, url: site } };
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('enrols an authenticator app and a passkey, then signs in with each', async () => {
    const page = await newPage(browser);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    await page.goto(`${site}/example.html?view=account`);
    const logIn = async () => {
      await page.getByLabel('Username or e-mail').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log in' }).click();
    };
    await logIn();
    await page.getByText(`Logged in as ${user.username}`).waitFor();

    await page.getByLabel('Confirm it is you').fill(user.password);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('#totp-qr svg').waitFor();
    const secret = (await page.locator('#totp-secret').textContent()) ?? '';
    const code = (offset: number) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offset });
    await page.getByLabel('Code from the app').fill(code(0));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').nth(9).waitFor();
    await page.getByText('Authenticator app on (10 recovery codes left)').waitFor();
    await screenshot(page, 'mfa-totp-enrolled');

    // Adding a passkey asks for the owner: the password and, with the app on, a code (here a recovery code, since
    // this time step's TOTP code went to the enrolment and the next one is kept for the login below).
    const recoveryCode = (await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').first().textContent()) ?? '';
    await page.getByLabel('Confirm it is you').fill(user.password);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Two-factor code required').waitFor();
    await page.getByLabel('Authenticator or recovery code').fill(recoveryCode);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('list', { name: 'Passkeys' }).getByText('This device').waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('Not logged in').waitFor();
    await logIn();
    await page.getByLabel('Two-factor code').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('cms-bag:jwt'))).toBeNull();
    // The next time step (one step of drift is accepted): the enrolment used this one.
    await page.getByLabel('Two-factor code').fill(code(30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(`Logged in as ${user.username}`).waitFor();

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('Not logged in').waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText(`Logged in as ${user.username}`).waitFor();
    await screenshot(page, 'mfa-passkey-login');
    await page.context().close();
  });
});
