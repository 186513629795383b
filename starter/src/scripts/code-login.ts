/**
 * Signing in without a password (docs/accounts.md, login by code): a code e-mailed for `login-code`, then
 * `POST /auth/login-code`; an account with a second factor answers the challenge, which the page's second-step form
 * finishes. Also the passkey sign-in button (the passkey library loads only when it is pressed).
 */
import type { browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
type Strings = Record<string, string>;

export function codeLogin(
  client: Client,
  s: Strings,
  fail: (error: unknown) => unknown,
  say: (text: string) => void,
  done: (result: unknown) => Promise<void>,
) {
  const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
  const form = $<HTMLFormElement>('code-login-form');
  const email = $<HTMLInputElement>('code-login-email');
  const send = async () => {
    if (!email.reportValidity()) return;
    try {
      await client.sendCode(email.value, 'login-code');
      say(s.codeSent);
      $('code-login-rest').hidden = false;
      $<HTMLInputElement>('code-login-code').required = true;
      $('code-login-code').focus();
    } catch (error) {
      fail(error);
    }
  };
  $('code-login-send').addEventListener('click', send);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if ($('code-login-rest').hidden) return send();
    try {
      const result = await client.loginWithCode(email.value, $<HTMLInputElement>('code-login-code').value.trim());
      form.reset();
      $('code-login-rest').hidden = true;
      await done(result);
    } catch (error) {
      fail(error);
      $('code-login-code').focus();
    }
  });
  $('passkey-login').addEventListener('click', async () => {
    try {
      await done(await client.passkeys.login());
    } catch (error) {
      fail(error);
    }
  });
}
