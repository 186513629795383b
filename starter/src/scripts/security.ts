/**
 * The account's authenticator app (docs/accounts.md#second-factors-totp-and-recovery-codes): set up with the
 * password (the server's QR code drawn at 200 px, the key as text), turn on with a code, the recovery codes to copy
 * or download, new codes, and off. Focus moves to what appeared; errors go through the page's `fail`.
 */
import type { browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
type Strings = Record<string, string>;

export function securitySection(client: Client, s: Strings, fail: (error: unknown) => unknown, say: (text: string) => void) {
  const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
  const value = (form: HTMLFormElement, name: string) => String(new FormData(form).get(name) ?? '');
  let codes: string[] = [];

  const refresh = async () => {
    const status = await client.mfa.status();
    $('totp-status').textContent = status.totp ? s.totpOn.replace('{n}', String(status.recoveryCodesLeft)) : s.totpOff;
    $('totp-setup-form').hidden = status.totp;
    $('totp-manage').hidden = !status.totp;
    if (status.totp) $('totp-enable-form').hidden = true;
    // The e-mail change and a new passkey ask for the current code only when the app is on.
    for (const field of document.querySelectorAll<HTMLElement>('[data-totp-only]')) {
      field.hidden = !status.totp;
      const input = field.querySelector('input');
      if (input) input.required = status.totp;
    }
  };

  const showCodes = (list: string[]) => {
    codes = list;
    $('recovery-codes').replaceChildren(...list.map((code) => Object.assign(document.createElement('li'), { textContent: code })));
    $('recovery').hidden = false;
    $('recovery-heading').focus();
  };

  const on = (id: string, handler: (form: HTMLFormElement) => Promise<void>) =>
    $<HTMLFormElement>(id).addEventListener('submit', async (event) => {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      try {
        await handler(form);
      } catch (error) {
        fail(error);
      }
    });

  on('totp-setup-form', async (form) => {
    const { qrSvg, secret } = await client.mfa.setup({ password: value(form, 'password') });
    form.reset();
    // The server's own SVG of the otpauth:// address; CSS draws it at 200 px.
    $('totp-qr').innerHTML = qrSvg;
    $('totp-qr').querySelector('svg')?.setAttribute('role', 'img');
    $('totp-qr').querySelector('svg')?.setAttribute('aria-label', s.scan);
    $('totp-secret').textContent = secret;
    $('totp-enable-form').hidden = false;
    $('totp-code').focus();
  });
  on('totp-enable-form', async (form) => {
    const { recoveryCodes } = await client.mfa.enable(value(form, 'code'));
    form.reset();
    $('totp-enable-form').hidden = true;
    await refresh();
    showCodes(recoveryCodes);
  });
  on('recovery-form', async (form) => {
    const { recoveryCodes } = await client.mfa.recoveryCodes(value(form, 'mfaCode'));
    form.reset();
    await refresh();
    showCodes(recoveryCodes);
  });
  on('totp-off-form', async (form) => {
    await client.mfa.disable({ password: value(form, 'password'), mfaCode: value(form, 'mfaCode') });
    form.reset();
    $('recovery').hidden = true;
    await refresh();
    say(s.totpDisabled);
    $('security-heading').tabIndex = -1;
    $('security-heading').focus();
  });
  $('recovery-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      say(s.copied);
    } catch (error) {
      fail(error);
    }
  });
  $('recovery-download').addEventListener('click', () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  });

  return refresh;
}
