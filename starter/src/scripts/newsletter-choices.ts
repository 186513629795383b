/** Checkboxes for newsletters (the subscribe form and the account page share them; docs/starter.md#newsletters). */
import type { Newsletter } from 'cms-plugin-bag/client';

/** One `<li>` per newsletter: a labelled checkbox named `newsletters` with the slug as value, the description under it. */
export function newsletterChoices(list: HTMLElement, newsletters: Newsletter[], prefix: string, checked: (slug: string) => boolean = () => false) {
  list.replaceChildren(...newsletters.map((newsletter) => {
    const item = document.createElement('li');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.name = 'newsletters';
    box.value = newsletter.slug;
    box.id = `${prefix}-${newsletter.slug}`;
    box.defaultChecked = box.checked = checked(newsletter.slug);
    const label = document.createElement('label');
    label.htmlFor = box.id;
    label.textContent = newsletter.name;
    item.append(box, ' ', label);
    if (newsletter.description) {
      const about = document.createElement('small');
      about.id = `${box.id}-about`;
      about.textContent = newsletter.description;
      box.setAttribute('aria-describedby', about.id);
      item.append(about);
    }
    return item;
  }));
}

/** The slugs checked in a form. */
export const checkedSlugs = (form: HTMLFormElement) => new FormData(form).getAll('newsletters').map(String);
