/**
 * Search as you type on the search page: after a short pause the results of what is typed replace the list in
 * place (the server's `highlight` HTML: every character escaped, only `<mark>` added, docs/search.md), the address
 * follows (`?q=`), and the count is announced by the status line; the box completes as you type (published titles
 * from `GET /api/bag/search/suggest`, links under the box) and the facets (categories and tags counted over every
 * hit) follow the results. Submitting the form still loads the server's page.
 */
import { browserClient } from './api';

export function searchAsYouType(form: HTMLFormElement) {
  const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
  const summary = document.getElementById('search-summary')!;
  const results = document.getElementById('search-results')!;
  const s = JSON.parse(form.dataset.strings ?? '{}') as Record<string, string>;
  const base = form.dataset.articleBase as string;
  const pageBase = form.dataset.pageBase as string;
  const suggestions = document.getElementById('search-suggestions')!;
  const facets = document.getElementById('search-facets')!;
  let suggested = 0;

  /** Titles whose words start with the typed words, as links under the box (2–100 characters typed). */
  const complete = async (q: string) => {
    const ticket = ++suggested;
    if ([...q].length < 2 || [...q].length > 100) {
      suggestions.replaceChildren();
      suggestions.hidden = true;
      return;
    }
    try {
      const client = await browserClient(form.dataset.api as string, form.dataset.locale);
      const { data } = await client.suggest(q);
      if (ticket !== suggested) return;
      suggestions.replaceChildren(...data.map((row) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = row.type === 'page' ? `${pageBase}${encodeURIComponent(row.slug)}` : `${base}${encodeURIComponent(row.slug)}`;
        link.textContent = row.title;
        item.append(link);
        return item;
      }));
      suggestions.hidden = data.length === 0;
    } catch {
      // No completion on a failed request; the search itself goes on.
    }
  };

  /** The facets of the last results: a section per kind with each entry's title and count. */
  const showFacets = (counts: Partial<Record<'category' | 'tag', { title: string; count: number }[]>> | undefined) => {
    facets.replaceChildren(...(['category', 'tag'] as const).filter((name) => counts?.[name]?.length).map((name) => {
      const section = document.createElement('section');
      section.dataset.facet = name;
      const heading = document.createElement('h2');
      heading.textContent = s[name];
      const list = document.createElement('ul');
      list.append(...counts![name]!.map((entry) => {
        const item = document.createElement('li');
        const count = document.createElement('span');
        count.className = 'count';
        count.textContent = String(entry.count);
        item.append(`${entry.title} `, count);
        return item;
      }));
      section.append(heading, list);
      return section;
    }));
  };
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
    void complete(q);
    if (!q || q.length > 200) {
      results.replaceChildren();
      showFacets(undefined);
      summary.textContent = s.empty;
      return;
    }
    try {
      const client = await browserClient(form.dataset.api as string, form.dataset.locale);
      const { data, meta } = await client.search(q, { pageSize: 10, facets: ['category', 'tag'] });
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
      showFacets(meta.facets);
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
