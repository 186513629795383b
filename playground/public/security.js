// The account view's "Security" section: the second step of a login, passkey sign-in, and for a signed-in account
// TOTP enrolment (QR code) and passkeys. The site's one client (site.js), so account.js and this see one session.
import { $, client, errorText } from './site.js';

let mfaToken;

const say = (text) => {
  $('security-status').textContent = text;
};
const failed = (error) => say(errorText(error));

async function showSettings() {
  const signedIn = (await client.isLoggedIn()) && (await client.me().catch(() => null));
  $('security-settings').hidden = !signedIn;
  if (!signedIn) return;
  const status = await client.mfa.status();
  $('totp-setup').hidden = status.totp;
  $('passkeys').replaceChildren(...status.passkeys.map((passkey) => Object.assign(document.createElement('li'), { textContent: passkey.name })));
  say(status.totp ? `Authenticator app on (${status.recoveryCodesLeft} recovery codes left)` : 'Authenticator app off');
}

// account.js shows the account after every login, logout and finished sign-in: the settings follow.
const signedIn = async () => document.dispatchEvent(new CustomEvent('bag:signed-in'));
document.addEventListener('bag:account-shown', () => showSettings().catch(failed));

document.addEventListener('bag:mfa-required', (event) => {
  mfaToken = event.detail.mfaToken;
  $('mfa-login').hidden = false;
  say('Enter the code from your authenticator app, or a recovery code.');
});

$('mfa-login').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await client.finishLogin(mfaToken, new FormData(event.target).get('code'));
    $('mfa-login').hidden = true;
    event.target.reset();
    await signedIn();
  } catch (error) {
    failed(error);
  }
});

$('passkey-login').addEventListener('click', async () => {
  try {
    await client.passkeys.login();
    await signedIn();
  } catch (error) {
    failed(error);
  }
});

$('totp-setup').addEventListener('click', async () => {
  try {
    const { qrSvg, secret } = await client.mfa.setup({ password: $('security-password').value });
    // The server's own QR code SVG.
    $('totp-qr').innerHTML = qrSvg;
    $('totp-secret').textContent = secret;
    $('totp-enrol').hidden = false;
    say('Scan the QR code, then enter the code the app shows.');
  } catch (error) {
    failed(error);
  }
});

$('totp-enable').addEventListener('click', async () => {
  try {
    const { recoveryCodes } = await client.mfa.enable($('totp-code').value);
    $('totp-enrol').hidden = true;
    $('recovery-codes').replaceChildren(...recoveryCodes.map((code) => Object.assign(document.createElement('li'), { textContent: code })));
    await showSettings();
  } catch (error) {
    failed(error);
  }
});

// Adding a passkey needs the owner: the password above and, with the authenticator app on, one of its codes.
$('passkey-add').addEventListener('click', async () => {
  try {
    const mfaCode = $('security-mfa-code').value.trim();
    await client.passkeys.register({ password: $('security-password').value, ...(mfaCode ? { mfaCode } : {}) }, 'This device');
    $('security-mfa-code').value = '';
    await showSettings();
  } catch (error) {
    failed(error);
  }
});
