// The account view: log in (with an image captcha when the site asks for one), and for a signed-in user the
// self-service pieces: sessions, e-mail change, export, deletion. security.js adds the second factors.
import { isMfaChallenge } from '/cms-bag-client.mjs';
import { $, client, currentUser, el, errorText, showHeader } from './site.js';

let captchaKey;

export async function showAccountView() {
  setUpForms();
  await showAccount();
}

async function showCaptcha() {
  const { key, svg } = await client.getCaptcha();
  captchaKey = key;
  // The server's own SVG drawing of the code.
  $('captcha-image').innerHTML = svg;
  $('captcha').hidden = false;
}

/** Who is signed in; the account pieces for them. security.js listens for `bag:account-shown`. */
async function showAccount() {
  const me = await currentUser({ fresh: true });
  if (!(await client.isLoggedIn())) {
    $('account').textContent = 'Not logged in: comments are posted as a guest.';
  } else {
    $('account').textContent = me ? `Logged in as ${me.username}` : 'Session expired, please log in again.';
  }
  $('login').hidden = Boolean(me);
  $('logout').hidden = !me;
  $('account-page').hidden = !me;
  await Promise.all([showHeader(), me ? showSessions() : null]);
  document.dispatchEvent(new CustomEvent('bag:account-shown'));
}

/** Where the user is signed in, each session with its own button to end it. */
async function showSessions() {
  const sessions = await client.sessions();
  $('sessions').replaceChildren(
    ...sessions.map((session) => {
      const item = el('li');
      item.dataset.sessionId = String(session.id);
      item.append(el('span', `${session.userAgent || 'unknown device'} · ${session.ip || 'unknown IP'} · since ${new Date(session.createdAt).toLocaleString()}`));
      if (session.current) item.append(el('strong', ' (this browser)'));
      else {
        const button = el('button', 'Sign out', { type: 'button' });
        button.addEventListener('click', async () => {
          await client.revokeSession(session.id);
          await showSessions();
        });
        item.append(' ', button);
      }
      return item;
    })
  );
}

const accountStatus = (text) => {
  $('account-status').textContent = text;
};
const failed = (error) => accountStatus(errorText(error));

function setUpForms() {
  $('login').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const captcha = $('captcha').hidden ? {} : { key: captchaKey, code: form.get('code') };
    try {
      const result = await client.login({ identifier: form.get('identifier'), password: form.get('password'), ...captcha });
      $('captcha').hidden = true;
      // An account with a second factor: security.js asks for the code and finishes the login.
      if (isMfaChallenge(result)) {
        document.dispatchEvent(new CustomEvent('bag:mfa-required', { detail: result }));
        return;
      }
      event.target.reset();
      await showAccount();
    } catch (error) {
      $('account').textContent = errorText(error);
      // The captcha is on (or the last one was used up): show a fresh image and let the user try again.
      if (/captcha/i.test(errorText(error))) await showCaptcha();
    }
  });

  // security.js signed the user in (second factor or passkey).
  document.addEventListener('bag:signed-in', () => showAccount());

  $('logout').addEventListener('click', async () => {
    await client.logout();
    await showAccount();
  });

  $('revoke-others').addEventListener('click', async () => {
    try {
      const { revoked } = await client.revokeOtherSessions();
      accountStatus(`Signed out of ${revoked} other session(s).`);
      await showSessions();
    } catch (error) {
      failed(error);
    }
  });

  $('email-change').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try {
      await client.changeEmail({ email: form.get('email'), password: form.get('password') });
      $('email-confirm').hidden = false;
      accountStatus('A code was sent to the new address.');
    } catch (error) {
      failed(error);
    }
  });

  $('email-confirm').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const user = await client.confirmEmailChange(new FormData(event.target).get('code'));
      $('email-confirm').hidden = true;
      accountStatus(`Your address is now ${user.email}.`);
    } catch (error) {
      failed(error);
    }
  });

  // Everything the site keeps about the account, as a JSON file to save.
  $('export').addEventListener('click', async () => {
    try {
      const data = await client.exportAccount();
      const file = $('export-file');
      URL.revokeObjectURL(file.href);
      file.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      file.hidden = false;
      accountStatus('Your data is ready: save my-account.json.');
    } catch (error) {
      failed(error);
    }
  });

  $('delete-account').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!window.confirm('Delete your account for good?')) return;
    try {
      await client.deleteAccount({ password: new FormData(event.target).get('password') });
      await showAccount();
      $('account').textContent = `Your account was deleted. ${$('account').textContent}`;
    } catch (error) {
      failed(error);
    }
  });
}
