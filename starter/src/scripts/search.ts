/**
 * Search as you type on the search page: after a short pause the results of what is typed replace the list in
 * place (the server's `highlight` HTML: every character escaped, only `<mark>` added, docs/search.md), the address
 * follows (`?q=`), and the count is announced by the status line. Submitting the form still loads the server's page.
 */
import { browserClient } from './api';

export function searchAsYouType(form: HTMLFormElement) {
  const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
  const summary = document.getElementById('search-summary')!;
  const results = document.getElementById('search-results')!;
  const s = JSON.parse(form.dataset.strings ?? '{}') as Record<string, string>;
  const base = form.dataset.articleBase as string;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;

  const show = async () => {
    const q = input.value.trim();
    const ticket = ++latest;
    const url = new URL(location.href);
    url.searchParams.delete('page');
    if (q) url.searchParams.set('q', q);
    else url.searchParams.delete('q');
    history.replaceState(null, '', url);
    if (!q || q.length > 200) {
      results.replaceChildren();
      summary.textContent = s.empty;
      return;
    }
    try {
      const client = await browserClient(form.dataset.api as string, form.dataset.locale);
      const { data, meta } = await client.search(q, { pageSize: 10 });
      if (ticket !== latest) return;
      results.replaceChildren(...data.map((hit) => {
        const item = document.createElement('li');
        const heading = document.createElement('h2');
        const link = document.createElement('a');
        link.href = `${base}${encodeURIComponent(hit.slug)}`;
        link.innerHTML = hit.highlight?.title ?? '';
        if (!hit.highlight?.title) link.textContent = hit.title;
        heading.append(link);
        item.append(heading);
        if (hit.highlight?.excerpt) {
          const excerpt = document.createElement('p');
          excerpt.innerHTML = hit.highlight.excerpt;
          item.append(excerpt);
        }
        return item;
      }));
      const total = meta.pagination.total;
      summary.textContent = total === 0 ? s.none : total === 1 ? s.one : s.count.replace('{n}', String(total));
      document.querySelector('.pagination')?.remove();
    } catch {
      // A failed request while typing leaves the last results; submitting the form shows the server's page.
    }
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(show, 250);
  });
}
