// An article: found by its slug (an old slug is followed to the current one), its languages, its comment thread.
import { $, client, el, errorText, formatDate, link, locale, params, paths } from './site.js';
import { showThread } from './thread.js';

export async function showArticle() {
  const slug = params.get('article');
  let answer;
  try {
    answer = await client.articles.get(slug, { locale });
  } catch (error) {
    $('article-title').textContent = errorText(error); // 404 "Article not found"
    $('thread').hidden = true;
    return;
  }
  const { data: article, redirect } = answer;

  // The slug was an old one: the server answered 301 to the current slug and the client followed it. The address
  // bar gets the current one, so a bookmark or a shared link uses it from now on.
  if (redirect) {
    history.replaceState(null, '', paths.article(redirect.slug, locale ? redirect.locale : undefined));
    $('moved').textContent = `This article moved: “${redirect.from}” is now “${redirect.slug}”.`;
    $('moved').hidden = false;
  }

  document.title = `${article.title} — cms-plugin-bag example`;
  document.documentElement.lang = article.locale;
  $('article-title').textContent = article.title;
  showMeta(article);
  showLocales(article);
  $('article-summary').textContent = article.summary ?? '';
  // Plain text, paragraph by paragraph: a real site renders the editor's format with its own sanitizer.
  $('article-content').replaceChildren(...(article.content ?? '').split(/\n{2,}/).filter(Boolean).map((text) => el('p', text)));
  await showThread(article);
}

/** Date, category, tags, author and the view count the detail answer carries (this read included). */
function showMeta(article) {
  const meta = $('article-meta');
  meta.replaceChildren(formatDate(article.publishedAt ?? article.createdAt));
  if (article.author) meta.append(` · by ${article.author.username}`);
  if (article.category) meta.append(' · ', link(article.category.title, paths.list({ category: article.category.slug })));
  for (const tag of article.tags ?? []) meta.append(' ', link(`#${tag.title}`, paths.list({ tag: tag.slug }), { className: 'tag' }));
  if (article.views !== undefined) meta.append(' · ', el('span', `${article.views} view${article.views === 1 ? '' : 's'}`, { id: 'views' }));
}

/**
 * The locale switch: the version shown and its other published locales (`localizations`, each with its own slug),
 * also as `<link rel="alternate" hreflang>` for search engines.
 */
function showLocales(article) {
  const versions = [{ locale: article.locale, slug: article.slug }, ...article.localizations].sort((a, b) => a.locale.localeCompare(b.locale));
  $('locales').hidden = versions.length < 2;
  $('locales').replaceChildren(
    ...versions.map((version) => {
      if (version.locale === article.locale) return el('strong', version.locale, { ariaCurrent: 'page', lang: version.locale });
      return link(version.locale, paths.article(version.slug, version.locale), { hreflang: version.locale, lang: version.locale });
    })
  );
  for (const version of article.localizations) {
    document.head.append(el('link', undefined, { rel: 'alternate', hreflang: version.locale, href: new URL(paths.article(version.slug, version.locale), location.href).href }));
  }
}
