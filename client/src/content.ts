/** Published content under `/api/bag`: articles, pages, menus, banners, categories, tags. */
import type { z } from 'zod/v4';
import type { pagination, publicAuthor } from '../../server/src/platform/shapes/common';
import type * as shapes from '../../server/src/features/content/content.shapes';
import { localeQuery, type ReadOptions } from './locale';
import { withQuery, type Query } from './query';
import type { Session } from './session';

export type Pagination = z.infer<typeof pagination>;
/** A user as every route under `/api/bag` shows one. */
export type Author = z.infer<typeof publicAuthor>;
/** Another published locale of the same document, for hreflang links: its code and its slug there. */
export type Localization = z.infer<typeof shapes.localizations>[number];
/** What a detail read adds: the locale served (the default one when `content.localeFallback` served it), the others. */
export type Localized = Pick<ArticleDetail, 'locale' | 'localizations'>;
export type Article = z.infer<typeof shapes.article>;
export type ArticleDetail = z.infer<typeof shapes.articleDetail>['data'];
export type Page = z.infer<typeof shapes.page>;
export type PageDetail = z.infer<typeof shapes.pageDetail>['data'];
export type MenuItem = shapes.MenuItemNode;
/** `locale`: the locale of the menu served (the default locale's when `content.localeFallback` served it instead). */
export type Menu = z.infer<typeof shapes.menu>;
export type Banner = z.infer<typeof shapes.banner>;
export type Category = shapes.CategoryNode;
export type Tag = z.infer<typeof shapes.tag>;

/** One redirect of `GET /api/bag/redirects`. */
export type Redirect = z.infer<typeof shapes.redirectEntry>;
/** A detail asked for by an old slug: the slug asked for, the current one and its locale. */
export interface Moved {
  from: string;
  slug: string;
  locale: string;
}
/** schema.org JSON-LD of a detail (docs/readers.md#structured-data); null while the server's `site.url` is unset. */
export type JsonLd = Record<string, unknown>[] | null;
/** A detail answer; `redirect` when the slug asked for was an old one (the answer is the current document's). */
export type Detail<T> = { data: T; meta?: { jsonLd: JsonLd }; redirect?: Moved };
/** A popular article: as in lists, with its views in the period asked for. */
export type PopularArticle = Article & { periodViews: number };
/** `articles.popular`'s options (docs/readers.md#popular). */
export type PopularQuery = ReadOptions & { period?: '1d' | '7d' | '30d' | 'all'; limit?: number; category?: string };

/** Query parameters of the article and page lists, and the locale. */
export type ListQuery = Query & ReadOptions;

export function contentCalls({ request, locale: fallback }: Session) {
  /** `path` with the read's query and its locale (per call, else the client's default). */
  const read = (path: string, options: ReadOptions = {}, query: Query = {}) => withQuery(path, { ...query, ...localeQuery(fallback, options) });
  const list = (path: string, query: ListQuery = {}) => {
    const { locale, ...rest } = query;
    return read(path, { locale: locale as ReadOptions['locale'] }, rest);
  };
  const slug = (base: string, value: string, options?: ReadOptions) => read(`${base}/${encodeURIComponent(value)}`, options);
  /**
   * A detail by slug; an old slug's 301 is followed (by `fetch`) and told: `redirect` names the slug asked for and
   * the current one, so a front end can replace its URL. The server's 301 body also has the front-end path, but a
   * browser never shows a followed redirect's body, so the client tells what it can tell everywhere.
   */
  const detail = async <T extends { slug: string; locale: string }>(base: string, value: string, options?: ReadOptions): Promise<Detail<T>> => {
    const answer = await request<{ data: T }>(slug(base, value, options));
    return answer.data.slug === value ? answer : { ...answer, redirect: { from: value, slug: answer.data.slug, locale: answer.data.locale } };
  };

  return {
    articles: {
      list: (query?: ListQuery) => request<z.infer<typeof shapes.articleList>>(list('/api/bag/articles', query)),
      get: (articleSlug: string, options?: ReadOptions) => detail<ArticleDetail>('/api/bag/articles', articleSlug, options),
      /** The most read articles of a period (`GET /api/bag/articles/popular`, docs/readers.md#popular). */
      popular: ({ period, limit, category, ...options }: PopularQuery = {}) =>
        request<{ data: PopularArticle[] }>(read('/api/bag/articles/popular', options, { period, limit, category })),
      /** Articles related to this one by tags, category and words (docs/readers.md#related). */
      related: (articleSlug: string, { limit, ...options }: ReadOptions & { limit?: number } = {}) =>
        request<{ data: Article[] }>(read(`/api/bag/articles/${encodeURIComponent(articleSlug)}/related`, options, { limit })),
    },
    pages: {
      list: (query?: ListQuery) => request<z.infer<typeof shapes.pageList>>(list('/api/bag/pages', query)),
      get: (pageSlug: string, options?: ReadOptions) => detail<PageDetail>('/api/bag/pages', pageSlug, options),
    },
    menus: {
      get: (menuSlug: string, options?: ReadOptions) => request<{ data: Menu }>(slug('/api/bag/menus', menuSlug, options)),
    },
    banners: {
      /** Visible published banners, of one group when `group` is given. */
      list: (group?: string, options?: ReadOptions) =>
        request<z.infer<typeof shapes.bannerList>>(group ? slug('/api/bag/banners', group, options) : read('/api/bag/banners', options)),
    },
    categories: {
      list: (options?: ReadOptions) => request<z.infer<typeof shapes.categoryList>>(read('/api/bag/categories', options)),
    },
    tags: {
      list: (options?: ReadOptions) => request<z.infer<typeof shapes.tagList>>(read('/api/bag/tags', options)),
    },
    /** Every redirect (editors' ones and old slugs, front-end paths), for a front end that loads them at build time. */
    redirects: () => request<z.infer<typeof shapes.redirectList>>('/api/bag/redirects'),
  };
}
