/** Published content under `/api/bag`: articles, pages, menus, banners, categories, tags. */
import type { z } from 'zod/v4';
import type { pagination, publicAuthor } from '../../server/src/domain/shapes/common';
import type * as shapes from '../../server/src/domain/shapes/content';
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

  return {
    articles: {
      list: (query?: ListQuery) => request<z.infer<typeof shapes.articleList>>(list('/api/bag/articles', query)),
      get: (articleSlug: string, options?: ReadOptions) => request<{ data: ArticleDetail }>(slug('/api/bag/articles', articleSlug, options)),
    },
    pages: {
      list: (query?: ListQuery) => request<z.infer<typeof shapes.pageList>>(list('/api/bag/pages', query)),
      get: (pageSlug: string, options?: ReadOptions) => request<{ data: PageDetail }>(slug('/api/bag/pages', pageSlug, options)),
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
  };
}
