/**
 * The account page (views/Account.astro): sign in and register with the captcha the server asks for now (an image, a
 * proof of work solved in the browser, or for register the e-mailed code, the default: scripts/captcha.ts,
 * docs/accounts.md) and the second factor when the account has one, sign in with an e-mailed code or a passkey, and signed in: sessions (end one, end the others),
 * the e-mail change, passkeys, newsletters, export, deletion, sign out. Every server
 * error becomes a translated sentence in the alert line; focus moves to what appeared.
 */
import { browserClient, errorMessage, errorStatus } from './api';
import { securitySection } from './security';
import { codeLogin } from './code-login';
import { emailSection } from './email-change';
import { passkeysSection } from './passkeys';
import { newslettersSection } from './account-newsletters';
import { captchaKinds, choose, imageCaptcha, powAnswer, type Choice } from './captcha';

type Strings = Record<string, string> & { errors: Record<string, string> };

export async function accountPage(root: HTMLElement) {
  const s = JSON.parse(root.dataset.strings ?? '{}') as Strings;
  const locale = root.dataset.locale ?? 'en';
  const client = await browserClient(root.dataset.api as string, locale);
  const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
  const status = $('account-status');
  const alert = $('account-error');
  const say = (text: string) => {
    status.textContent = text;
    alert.textContent = '';
  };
  /** `codeCaptcha`: the form's captcha is an e-mailed code, so a refused captcha means a wrong code. */
  const fail = (error: unknown, codeCaptcha = false) => {
    const code = errorStatus(error);
    const message = errorMessage(error);
    const e = s.errors;
    // The passkey library's errors (and the browser's) carry the WebAuthn DOMException's name.
    const name = error instanceof Error ? error.name : '';
    const text =
      name === 'NotAllowedError' || name === 'AbortError' ? e.passkeyCancelled
      : name === 'InvalidStateError' ? e.passkeyExists
      : name === 'NotSupportedError' || name === 'SecurityError' ? e.passkeyUnsupported
      : code === 0 ? e.network
      : code === 429 ? e.tooMany
      : code === 401 ? e.session
      : /passwordless login is disabled/i.test(message) ? e.passwordless
      : /two-factor code required/i.test(message) ? e.mfaRequired
      : /passkey not found/i.test(message) ? e.notFound
      : /passkey verification failed/i.test(message) ? e.passkeyFailed
      : /captcha/i.test(message) ? (codeCaptcha ? e.code : e.captcha)
      : /identifier or password/i.test(message) ? e.credentials
      : /already taken|already used|in use/i.test(message) ? e.taken
      : /password must|password.*(short|at least)/i.test(message) ? e.passwordRules
      : /password/i.test(message) ? e.password
      : /code/i.test(message) ? e.code
      : code === 400 ? e.invalid
      : e.unknown;
    alert.textContent = text;
    return message;
  };
  const form = (id: string) => $<HTMLFormElement>(id);
  const value = (f: HTMLFormElement, name: string) => String(new FormData(f).get(name) ?? '');
  const dates = new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });

  const loginImage = imageCaptcha(client, 'login', $<HTMLInputElement>('login-code'), (error) => fail(error));
  const registerImage = imageCaptcha(client, 'register', $<HTMLInputElement>('register-captcha-code'), (error) => fail(error));
  // Which captcha each form offers (asked once the page opens; the forms wait for it when sent).
  const kinds = captchaKinds(client).then(({ login, register }) => ({ login: choose(login), register: choose(register) }));
  /** What a form sends for its captcha: the image's key and text, a solved proof of work, or nothing. */
  const captchaFor = async (kind: Choice, image: typeof loginImage) =>
    image.shown() ? image.answer() : kind === 'pow' ? powAnswer(client, (text) => (status.textContent = text), s.checking) : {};

  const refreshSecurity = securitySection(client, s, (error) => fail(error), (text) => say(text));
  const refreshPasskeys = passkeysSection(client, s, locale, (error) => fail(error), (text) => say(text));
  const showEmail = emailSection(client, s, (error) => fail(error), (text) => say(text));
  const refreshNewsletters = newslettersSection(client, s, locale, (error) => fail(error), (text) => say(text));

  const showSessions = async () => {
    const sessions = await client.sessions();
    $('sessions').replaceChildren(...sessions.map((session) => {
      const item = document.createElement('li');
      item.dataset.sessionId = String(session.id);
      const text = document.createElement('span');
      text.textContent = `${session.userAgent || s.unknownDevice} · ${session.ip ?? ''} · ${s.since} ${dates.format(new Date(session.createdAt))}`;
      item.append(text);
      if (session.current) {
        const mark = document.createElement('strong');
        mark.textContent = ` (${s.thisBrowser})`;
        item.append(mark);
      } else {
        const end = document.createElement('button');
        end.type = 'button';
        end.className = 'secondary';
        end.textContent = s.endSession;
        end.addEventListener('click', async () => {
          try {
            await client.revokeSession(session.id);
            await showSessions();
            $('sessions-heading').focus();
          } catch (error) {
            fail(error);
          }
        });
        item.append(' ', end);
      }
      return item;
    }));
  };

  const show = async (focus = false) => {
    const me = (await client.isLoggedIn()) ? await client.me().catch(() => null) : null;
    alert.textContent = '';
    $('signed-out').hidden = Boolean(me);
    $('signed-in').hidden = !me;
    if (me) {
      $('who').textContent = s.signedInAs.replace('{name}', me.username);
      status.textContent = '';
      showEmail(me.email ?? '');
      // Focus goes to what appeared as soon as it appears; the sessions and second factors fill in below it.
      if (focus) {
        $('who').tabIndex = -1;
        $('who').focus();
      }
      await Promise.all([showSessions(), refreshSecurity(), refreshPasskeys(), refreshNewsletters()]).catch(fail);
    } else {
      status.textContent = '';
      if (focus) $('login-identifier').focus();
    }
  };

  let mfaToken: string | undefined;
  /** After a first step: the second-factor form when the account has one, else signed in. */
  const afterSignIn = async (result: unknown) => {
    if (result && typeof result === 'object' && 'mfaRequired' in result && result.mfaRequired) {
      mfaToken = (result as unknown as { mfaToken: string }).mfaToken;
      form('login-form').hidden = true;
      form('mfa-form').hidden = false;
      $('mfa-code').focus();
      return;
    }
    await show(true);
  };
  codeLogin(client, s, (error) => fail(error, true), (text) => say(text), afterSignIn);
  // A login captcha of e-mailed codes: the code goes to the address typed as the identifier (a username has none the
  // page may know).
  const loginByCode = () => {
    $('login-captcha-image').hidden = true;
    $('login-captcha-new').hidden = true;
    $('login-send').hidden = false;
    $('login-code-label').textContent = s.code;
    const input = $<HTMLInputElement>('login-code');
    Object.assign(input, { required: true, inputMode: 'numeric', autocomplete: 'one-time-code' });
    $('login-captcha').hidden = false;
  };
  $('login-send').addEventListener('click', async () => {
    const identifier = $<HTMLInputElement>('login-identifier');
    if (!identifier.value.includes('@')) {
      alert.textContent = s.errors.codeNeedsEmail;
      identifier.focus();
      return;
    }
    try {
      await client.sendCode(identifier.value.trim(), 'login');
      say(s.codeSent);
      $('login-code').focus();
    } catch (error) {
      fail(error);
    }
  });
  form('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = event.currentTarget as HTMLFormElement;
    const kind = (await kinds).login;
    try {
      const captcha = kind === 'email' ? { code: value(f, 'code') } : await captchaFor(kind, loginImage);
      const result = await client.login({ identifier: value(f, 'identifier'), password: value(f, 'password'), ...captcha } as never);
      if ('mfaRequired' in result && result.mfaRequired) {
        mfaToken = (result as { mfaToken: string }).mfaToken;
        f.hidden = true;
        form('mfa-form').hidden = false;
        $('mfa-code').focus();
        return;
      }
      f.reset();
      await show(true);
    } catch (error) {
      // The captcha is on (or the last one was used up): a fresh image to read.
      // (An image shown is used up by any attempt: a fresh one either way.)
      const asked = /captcha/i.test(fail(error, kind === 'email'));
      if (kind !== 'email' && (asked || loginImage.shown())) await loginImage.show(asked).catch(() => undefined);
    }
  });
  form('mfa-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await client.finishLogin(mfaToken as string, value(event.currentTarget as HTMLFormElement, 'code'));
      form('mfa-form').hidden = true;
      form('login-form').hidden = false;
      await show(true);
    } catch (error) {
      fail(error);
    }
  });

  $('register-send').addEventListener('click', async () => {
    const email = $<HTMLInputElement>('register-email');
    if (!email.reportValidity()) return;
    try {
      await client.sendCode(email.value);
      say(s.codeSent);
      $('register-rest').hidden = false;
      for (const id of ['register-code', 'register-username', 'register-password']) $<HTMLInputElement>(id).required = true;
      $('register-code').focus();
    } catch (error) {
      fail(error);
    }
  });
  form('register-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const f = event.currentTarget as HTMLFormElement;
    if ($('register-rest').hidden) return $('register-send').click();
    const kind = (await kinds).register;
    try {
      const captcha = kind === 'email' ? { code: value(f, 'code') } : await captchaFor(kind, registerImage);
      await client.register({ email: value(f, 'email'), username: value(f, 'username'), password: value(f, 'password'), ...captcha } as never);
      f.reset();
      await show(true);
    } catch (error) {
      const message = fail(error, kind === 'email');
      // An image is used up by any attempt: a fresh one to read.
      if (kind === 'image') await registerImage.show(/captcha/i.test(message)).catch(() => undefined);
    }
  });
  // Without an e-mailed code the whole form shows at once: the image to read, or nothing (a proof of work is solved
  // when the form is sent).
  void kinds.then(async ({ login, register }) => {
    if (login === 'image') await loginImage.show();
    if (login === 'email') loginByCode();
    if (register === 'email') return;
    $('register-send').hidden = true;
    $('register-code-field').hidden = true;
    $('register-rest').hidden = false;
    for (const id of ['register-username', 'register-password']) $<HTMLInputElement>(id).required = true;
    if (register === 'image') await registerImage.show();
  }).catch(() => undefined);

  $('logout').addEventListener('click', async () => {
    await client.logout().catch(() => undefined);
    await show(true);
    say(s.signedOut);
  });
  $('end-others').addEventListener('click', async () => {
    try {
      const { revoked } = await client.revokeOtherSessions();
      say(s.endedOthers.replace('{n}', String(revoked)));
      await showSessions();
    } catch (error) {
      fail(error);
    }
  });
  $('export').addEventListener('click', async () => {
    try {
      const data = await client.exportAccount();
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      link.download = 'my-account.json';
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      say(s.exportReady);
    } catch (error) {
      fail(error);
    }
  });
  form('delete-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!window.confirm(s.deleteConfirm)) return;
    try {
      await client.deleteAccount({ password: value(event.currentTarget as HTMLFormElement, 'password') });
      await show(true);
      say(s.deleted);
    } catch (error) {
      fail(error);
    }
  });

  await show();
}
