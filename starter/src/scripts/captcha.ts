/**
 * The captchas of the account page's sign-in and register forms (docs/starter.md#the-account-page): which kind the
 * server takes now comes from `GET /auth/captcha` (`client.captchaKinds()`, docs/accounts.md#captcha-rules), read
 * when the page opens, since an admin may switch it at any time. A proof of work is solved in the browser
 * (WebCrypto, `client.powCaptcha()`) when the form is sent, with nothing to read or type; an image captcha shows
 * the server's SVG with a button for another one; an e-mailed code keeps the register form's *Send me a code* step.
 */
import type { browserClient } from './api';

type Client = Awaited<ReturnType<typeof browserClient>>;
export type CaptchaKind = 'image' | 'pow' | 'email';
export type Choice = CaptchaKind | 'none';

/** The kind a form offers: none, else a proof of work (no effort asked) where WebCrypto exists, an image, a code. */
export const choose = (kinds: readonly CaptchaKind[]): Choice =>
  kinds.length === 0 ? 'none'
  : kinds.includes('pow') && globalThis.crypto?.subtle ? 'pow'
  : kinds.includes('image') ? 'image'
  : kinds.includes('email') ? 'email'
  : kinds[0];

/**
 * An image captcha in the block `${prefix}-captcha` (the SVG in `${prefix}-captcha-image`, the text typed in
 * `input`, a new one with `${prefix}-captcha-new`). `answer()` is what the form sends with it.
 */
export function imageCaptcha(client: Client, prefix: string, input: HTMLInputElement, onError: (error: unknown) => void) {
  const $ = (id: string) => document.getElementById(`${prefix}-${id}`) as HTMLElement;
  let key: string | undefined;
  const show = async (focus = false) => {
    const captcha = await client.getCaptcha();
    key = captcha.key;
    // The server's own SVG drawing of the characters.
    $('captcha-image').innerHTML = captcha.svg;
    $('captcha').hidden = false;
    input.required = true;
    input.value = '';
    if (focus) input.focus();
  };
  $('captcha-new').addEventListener('click', () => show(true).catch(onError));
  return {
    show,
    shown: () => !$('captcha').hidden,
    answer: () => ({ key, code: input.value.trim() }),
  };
}

/** The kinds login and register take; when the server cannot say, what the forms did before it could (a code to register). */
export const captchaKinds = (client: Client) =>
  client.captchaKinds().catch(() => ({ login: [] as CaptchaKind[], register: ['email'] as CaptchaKind[] }));

/** Solves a proof of work for the next request, telling the reader it is under way (`say`). */
export async function powAnswer(client: Client, say: (text: string) => void, checking: string) {
  say(checking);
  const answer = await client.powCaptcha();
  say('');
  return answer;
}
