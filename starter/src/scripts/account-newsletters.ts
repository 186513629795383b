/**
 * The account page's newsletters (docs/starter.md#newsletters): one checkbox per newsletter, checked for the
 * account's subscriptions, saved all at once (the server sets exactly the list sent, in the page's locale). The
 * section stays hidden when the site has no newsletter.
 */
import type { CmsBagClient } from 'cms-plugin-bag/client';
import { checkedSlugs, newsletterChoices } from './newsletter-choices';

type Strings = Record<string, string>;

/** Wires the form once; the function returned fills the section (after each sign-in). */
export function newslettersSection(client: CmsBagClient, s: Strings, locale: string, fail: (error: unknown) => void, say: (text: string) => void) {
  const $ = (id: string) => document.getElementById(id) as HTMLElement;
  const section = $('newsletters-section');
  const form = $('newsletters-form') as HTMLFormElement;
  const list = $('newsletters-choices');

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]') as HTMLButtonElement;
    button.disabled = true;
    try {
      const saved = await client.newsletters.setMine({ newsletters: checkedSlugs(form), locale });
      const mine = new Set(saved.map((subscription) => subscription.newsletter));
      for (const box of list.querySelectorAll<HTMLInputElement>('input[name=newsletters]')) box.checked = mine.has(box.value);
      say(mine.size ? s.newslettersSaved : s.newslettersSavedNone);
    } catch (error) {
      fail(error);
    } finally {
      button.disabled = false;
      button.focus();
    }
  });

  return async () => {
    // No newsletter, or newsletters turned off (the list answers 404): the section stays hidden, no error.
    const newsletters = await client.newsletters.list().catch(() => []);
    section.hidden = true;
    if (!newsletters.length) return;
    const chosen = new Set((await client.newsletters.mine()).map((subscription) => subscription.newsletter));
    newsletterChoices(list, newsletters, 'account-newsletter', (slug) => chosen.has(slug));
    section.hidden = false;
  };
}
