/**
 * What each route reads from Strapi, on the server. `redirect` and `notFound` are answered by the page before any
 * HTML; anything else that fails (Strapi down, a 5xx) throws to the error page (src/pages/500.astro).
 */
import type { Article, ArticleDetail, Banner, Category, JsonLd, PageDetail, SearchResult, Tag } from 'cms-plugin-bag/client';
import { CmsBagError } from 'cms-plugin-bag/client';
import { articlePage, banners, chrome, cms, findCategory, orNull, pageParam, pinned, type Cms } from './cms';
import { LOCALES, localePath, type Locale, type Strings } from './i18n';
import { editorRedirect } from './redirects';
import type { Route } from './route';

export type Chrome = Awaited<ReturnType<typeof chrome>>;
type ListPage = Awaited<ReturnType<typeof articlePage>>;
export type Alternates = Partial<Record<Locale, string>>;

export type View =
  | { kind: 'home'; pinned: Article[]; latest: ListPage; banners: Banner[] }
  | { kind: 'list'; title: string; description: string; path: string; list: ListPage; page: number; banners: Banner[]; current: { category?: string; tag?: string }; alternates: Alternates }
  | { kind: 'article'; article: ArticleDetail; alternates: Alternates; jsonLd: JsonLd }
  | { kind: 'page'; page: PageDetail; alternates: Alternates }
  | { kind: 'search'; q: string; result: SearchResult | null; tooLong: boolean; page: number }
  | { kind: 'account' };

export type Loaded =
  | { status: 'ok'; chrome: Chrome; view: View }
  | { status: 'redirect'; to: string; code: number }
  | { status: 'gone' }
  | { status: 'notFound'; chrome: Chrome };

const everyLocale = (path: (locale: Locale) => string): Alternates => Object.fromEntries(LOCALES.map((code) => [code, path(code)]));
const fromLocalizations = (locale: Locale, slug: string, others: { locale: string; slug: string }[], base: string): Alternates => ({
  [locale]: localePath(locale, `${base}${encodeURIComponent(slug)}`),
  ...Object.fromEntries(others.filter((other) => (LOCALES as readonly string[]).includes(other.locale)).map((other) => [other.locale, localePath(other.locale as Locale, `${base}${encodeURIComponent(other.slug)}`)])),
});

/** The same category or tag (by documentId) in the other locales, for hreflang. */
async function taxonomyAlternates(locale: Locale, documentId: string, kind: 'categories' | 'tags'): Promise<Alternates> {
  const alternates: Alternates = {};
  await Promise.all(LOCALES.map(async (code) => {
    const client = cms(code);
    const nodes = kind === 'tags' ? (await client.tags.list()).data : flatten((await client.categories.list()).data);
    const same = nodes.find((node: { documentId: string }) => node.documentId === documentId) as { slug?: string | null } | undefined;
    if (same?.slug) alternates[code] = localePath(code, `/${kind}/${encodeURIComponent(same.slug)}`);
  }));
  return alternates[locale] ? alternates : { [locale]: localePath(locale, `/${kind}/`) };
}
const flatten = (nodes: Category[]): Category[] => nodes.flatMap((node) => [node, ...flatten(node.children ?? [])]);

export async function load(locale: Locale, route: Route, url: URL, t: Strings): Promise<Loaded> {
  const client = cms(locale);
  const site = await chrome(client);
  const notFound = async (): Promise<Loaded> => {
    const moved = await editorRedirect(client, url.pathname);
    if (!moved) return { status: 'notFound', chrome: site };
    return moved.to === null ? { status: 'gone' } : { status: 'redirect', to: moved.to, code: moved.status };
  };
  const page = pageParam(url);
  const list = async (title: string, description: string, path: string, filter: { category?: string; tag?: string }, alternates: Alternates): Promise<Loaded> => {
    const [answer, top] = await Promise.all([articlePage(client, page, filter), filter.category || filter.tag ? Promise.resolve([]) : banners(client, 'blog')]);
    return { status: 'ok', chrome: site, view: { kind: 'list', title, description, path, list: answer, page, banners: top, current: filter, alternates } };
  };

  switch (route.kind) {
    case 'home': {
      const [top, latest, home] = await Promise.all([pinned(client), articlePage(client, 1), banners(client, 'home')]);
      return { status: 'ok', chrome: site, view: { kind: 'home', pinned: top, latest, banners: home } };
    }
    case 'blog':
      return list(t.blog, t.blogDescription, localePath(locale, '/blog'), {}, everyLocale((code) => localePath(code, '/blog')));
    case 'category': {
      const category = findCategory(site.categories, route.slug);
      if (!category) return notFound();
      const path = localePath(locale, `/categories/${encodeURIComponent(route.slug)}`);
      return list(category.title, t.categoryDescription(category.title), path, { category: route.slug }, await taxonomyAlternates(locale, category.documentId, 'categories'));
    }
    case 'tag': {
      const tag = site.tags.find((entry: Tag) => entry.slug === route.slug);
      if (!tag) return notFound();
      const path = localePath(locale, `/tags/${encodeURIComponent(route.slug)}`);
      return list(`#${tag.title}`, t.tagDescription(tag.title), path, { tag: route.slug }, await taxonomyAlternates(locale, tag.documentId, 'tags'));
    }
    case 'article': {
      const found = await orNull(client.articles.get(route.slug));
      if (!found) return notFound();
      if (found.redirect) return { status: 'redirect', to: localePath(found.redirect.locale as Locale, `/articles/${encodeURIComponent(found.redirect.slug)}`), code: 301 };
      return { status: 'ok', chrome: site, view: { kind: 'article', article: found.data, alternates: fromLocalizations(locale, found.data.slug, found.data.localizations, '/articles/'), jsonLd: found.meta?.jsonLd ?? null } };
    }
    case 'page': {
      const found = await orNull(client.pages.get(route.slug));
      if (!found) return notFound();
      if (found.redirect) return { status: 'redirect', to: localePath(found.redirect.locale as Locale, `/${encodeURIComponent(found.redirect.slug)}`), code: 301 };
      return { status: 'ok', chrome: site, view: { kind: 'page', page: found.data, alternates: fromLocalizations(locale, found.data.slug, found.data.localizations, '/') } };
    }
    case 'search': {
      const q = (url.searchParams.get('q') ?? '').trim();
      const tooLong = q.length > 200;
      let result: SearchResult | null = null;
      if (q && !tooLong) {
        try {
          result = await search(client, q, page);
        } catch (error) {
          if (!(error instanceof CmsBagError && error.status === 400)) throw error;
        }
      }
      return { status: 'ok', chrome: site, view: { kind: 'search', q, result, tooLong, page } };
    }
    case 'account':
      return { status: 'ok', chrome: site, view: { kind: 'account' } };
    default:
      return notFound();
  }
}

const search = (client: Cms, q: string, page: number) => client.search(q, { page, pageSize: 10, facets: ['category', 'tag'] });
