/**
 * Changing the account's e-mail address (docs/accounts.md, e-mail change): the new address with the password (and
 * the current TOTP code when the authenticator app is on) sends a code to the new address; the code confirms it.
 * Nothing changes until then. Errors go through the page's `fail`; focus moves to what appeared.
 */
import type { browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
type Strings = Record<string, string>;

export function emailSection(client: Client, s: Strings, fail: (error: unknown) => unknown, say: (text: string) => void) {
  const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
  const request = $<HTMLFormElement>('email-form');
  const confirm = $<HTMLFormElement>('email-confirm-form');
  let pending = '';

  const show = (email: string) => {
    $('email-now').textContent = s.emailNow.replace('{email}', email);
  };

  request.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(request);
    const email = String(data.get('email') ?? '').trim();
    const mfaCode = String(data.get('mfaCode') ?? '').trim();
    try {
      await client.changeEmail({ email, password: String(data.get('password') ?? ''), ...(mfaCode ? { mfaCode } : {}) });
      pending = email;
      request.reset();
      confirm.hidden = false;
      say(s.emailCodeSent.replace('{email}', email));
      $('email-code').focus();
    } catch (error) {
      fail(error);
    }
  });
  confirm.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      const user = await client.confirmEmailChange(String(new FormData(confirm).get('code') ?? '').trim());
      confirm.reset();
      confirm.hidden = true;
      show(user.email ?? pending);
      say(s.emailChanged.replace('{email}', user.email ?? pending));
      $('email-heading').tabIndex = -1;
      $('email-heading').focus();
    } catch (error) {
      fail(error);
      $('email-code').focus();
    }
  });

  return show;
}
