// The article list: banners, categories and tags to filter by, search, the list itself with its pages.
import { $, client, el, errorText, formatDate, link, locale, params, paths, renderTree } from './site.js';

const PAGE_SIZE = 5;
const BANNER_GROUP = 'home';

export async function showArticleList() {
  const filter = { category: params.get('category') || undefined, tag: params.get('tag') || undefined };
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  showFeedLinks(filter);
  setUpSearch(filter);
  await Promise.all([showBanners(), showCategories(filter), showTags(filter), showArticles(filter, page)]);
}

/** A group of banners (`GET /api/bag/banners/home`), in the editors' order. */
async function showBanners() {
  const { data: banners } = await client.banners.list(BANNER_GROUP, { locale });
  $('banners').replaceChildren(
    ...banners.map((banner) => {
      const item = el('li', undefined, { className: 'banner' });
      const title = banner.link ? link(banner.title, banner.link) : el('strong', banner.title);
      item.append(title);
      if (banner.subtitle) item.append(el('p', banner.subtitle));
      return item;
    })
  );
}

/** The category tree; each category filters the list, the current one is marked. */
async function showCategories(filter) {
  const { data: categories } = await client.categories.list({ locale });
  renderTree($('categories'), categories, (category) => {
    const item = el('li');
    const current = category.slug === filter.category;
    item.append(link(category.title, paths.list({ category: category.slug }), current ? { ariaCurrent: 'page' } : {}));
    return item;
  });
}

async function showTags(filter) {
  const { data: tags } = await client.tags.list({ locale });
  $('tags').replaceChildren(
    ...tags.map((tag) => {
      const item = el('li');
      item.append(link(`#${tag.title}`, paths.list({ tag: tag.slug }), tag.slug === filter.tag ? { ariaCurrent: 'page' } : {}));
      return item;
    })
  );
}

/** One page of the list (Strapi's REST filters and pagination), with each article's comment count. */
async function showArticles(filter, page) {
  const filters = {
    ...(filter.category ? { category: { slug: { $eq: filter.category } } } : {}),
    ...(filter.tag ? { tags: { slug: { $eq: filter.tag } } } : {}),
  };
  let answer;
  try {
    answer = await client.articles.list({ filters, sort: ['publishedAt:desc'], pagination: { page, pageSize: PAGE_SIZE }, locale });
  } catch (error) {
    $('articles').replaceChildren(el('li', errorText(error)));
    return;
  }
  const { data: articles, meta } = answer;
  const { data: counts } = articles.length ? await client.comments.counts(articles.map((article) => article.documentId)) : { data: {} };

  if (filter.category || filter.tag) {
    $('list-filter').replaceChildren(
      filter.category ? `Category: ${filter.category}` : `Tag: ${filter.tag}`,
      ' · ',
      link('show all', paths.list())
    );
    $('list-filter').hidden = false;
  }
  $('articles').replaceChildren(...(articles.length ? articles.map((article) => articleItem(article, counts[article.documentId] ?? 0)) : [el('li', 'No article here yet.')]));
  showPagination(filter, meta.pagination);
}

function articleItem(article, commentCount) {
  const item = el('li', undefined, { className: 'article' });
  item.dataset.slug = article.slug;
  const heading = el('h2');
  heading.append(link(article.title, paths.article(article.slug)));
  const meta = el('p', undefined, { className: 'meta' });
  meta.append(formatDate(article.publishedAt ?? article.createdAt));
  if (article.category) meta.append(' · ', link(article.category.title, paths.list({ category: article.category.slug })));
  for (const tag of article.tags ?? []) meta.append(' ', link(`#${tag.title}`, paths.list({ tag: tag.slug }), { className: 'tag' }));
  meta.append(` · ${commentCount} comment${commentCount === 1 ? '' : 's'}`);
  item.append(heading, meta);
  if (article.summary) item.append(el('p', article.summary));
  return item;
}

/** Previous / "Page n of m" / Next, from the list's `meta.pagination`. */
function showPagination(filter, { page, pageCount, total }) {
  const nav = $('pagination');
  if (pageCount <= 1) {
    nav.replaceChildren(el('span', `${total} article${total === 1 ? '' : 's'}`));
    return;
  }
  nav.replaceChildren(
    page > 1 ? link('Previous', paths.list({ ...filter, page: page - 1 }), { rel: 'prev' }) : el('span', 'Previous', { className: 'disabled' }),
    el('span', `Page ${page} of ${pageCount}`, { className: 'page' }),
    page < pageCount ? link('Next', paths.list({ ...filter, page: page + 1 }), { rel: 'next' }) : el('span', 'Next', { className: 'disabled' })
  );
}

/** Feeds and sitemap are links (readers and crawlers fetch them); the client builds their absolute URLs. */
function showFeedLinks(filter) {
  const types = { rss: 'application/rss+xml', atom: 'application/atom+xml', json: 'application/feed+json' };
  for (const [format, type] of Object.entries(types)) {
    const url = client.feedUrl(format, { locale, ...filter });
    $(`feed-${format}`).href = url;
    document.head.append(el('link', undefined, { rel: 'alternate', type, href: url, title: `Articles (${format})` }));
  }
  $('sitemap').href = client.sitemapUrl();
}

/**
 * Search as you type (the plugin's `GET /api/bag/search`), within the category or tag the list shows. Every answer
 * shows the latest query only (a slower earlier answer is dropped).
 */
function setUpSearch(filter) {
  let latest = 0;
  let timer;
  const run = async (q) => {
    const seq = ++latest;
    if (!q.trim()) {
      $('search-results').replaceChildren();
      $('search-status').textContent = '';
      return;
    }
    try {
      const { data: hits, meta } = await client.search(q, { ...filter, locale, pageSize: 10 });
      if (seq !== latest) return;
      // The address keeps the query, so a search can be reloaded or shared (`?q=` fills the box on load).
      history.replaceState(null, '', paths.list({ ...filter, q }));
      $('search-status').textContent = meta.pagination.total ? `${meta.pagination.total} found` : 'Nothing found.';
      $('search-results').replaceChildren(...hits.map(searchHit));
    } catch (error) {
      if (seq !== latest) return;
      $('search-results').replaceChildren();
      $('search-status').textContent = errorText(error);
    }
  };

  const form = $('search');
  form.elements.q.value = params.get('q') ?? '';
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    run(form.elements.q.value);
  });
  // Search as you type, once typing pauses.
  form.elements.q.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => run(form.elements.q.value), 250);
  });
  if (form.elements.q.value) run(form.elements.q.value);
}

function searchHit(hit) {
  const item = el('li');
  const title = link(undefined, paths.article(hit.slug));
  // innerHTML on purpose: the server HTML-escapes every character of the title and excerpt and adds only the
  // <mark>…</mark> around matches, so these strings hold no other markup.
  title.innerHTML = hit.highlight.title;
  const excerpt = el('p');
  excerpt.innerHTML = hit.highlight.excerpt;
  item.append(title, excerpt);
  return item;
}
