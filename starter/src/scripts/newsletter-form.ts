/**
 * The subscribe form (components/NewsletterForm.astro, docs/starter.md#newsletters): lists the newsletters, posts the
 * address, the choices and the page's locale, and shows the server's message, the same whatever the address. Errors
 * go to the alert line as translated sentences; focus goes to the field to fix.
 */
import { browserClient, errorStatus } from './api';
import { checkedSlugs, newsletterChoices } from './newsletter-choices';

type Strings = Record<'sending' | 'pickOne' | 'invalid' | 'tooMany' | 'network' | 'unknown', string>;

export async function newsletterForm(root: HTMLElement) {
  const s = JSON.parse(root.dataset.strings ?? '{}') as Strings;
  const locale = root.dataset.locale ?? 'en';
  const client = await browserClient(root.dataset.api as string, locale);
  const form = root.querySelector('form') as HTMLFormElement;
  const email = root.querySelector<HTMLInputElement>('input[type=email]') as HTMLInputElement;
  const status = root.querySelector('[role=status]') as HTMLElement;
  const alert = root.querySelector('[role=alert]') as HTMLElement;
  const list = root.querySelector('ul') as HTMLElement;

  const newsletters = await client.newsletters.list().catch(() => []);
  if (!newsletters.length) return;
  // A single newsletter comes checked: the address is all there is to give.
  newsletterChoices(list, newsletters, 'newsletter-choice', () => newsletters.length === 1);
  root.hidden = false;

  const fail = (text: string, focus: HTMLElement) => {
    status.textContent = '';
    alert.textContent = text;
    focus.focus();
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const chosen = checkedSlugs(form);
    if (!chosen.length) return fail(s.pickOne, list.querySelector('input') as HTMLElement);
    if (!email.value.trim() || !email.checkValidity()) return fail(s.invalid, email);
    const button = form.querySelector('button[type=submit]') as HTMLButtonElement;
    button.disabled = true;
    alert.textContent = '';
    status.textContent = s.sending;
    try {
      const { message } = await client.newsletters.subscribe({ email: email.value.trim(), newsletters: chosen, locale });
      status.textContent = message;
      form.reset();
    } catch (error) {
      const code = errorStatus(error);
      fail(code === 0 ? s.network : code === 429 ? s.tooMany : code === 400 ? s.invalid : s.unknown, code === 400 ? email : button);
    } finally {
      button.disabled = false;
    }
  });
}
