/** Published content under `/api/bag`: articles, pages, menus, banners, categories, tags. */
import type { z } from 'zod/v4';
import type { pagination, publicAuthor } from '../../server/src/domain/shapes/common';
import type * as shapes from '../../server/src/domain/shapes/content';
import { withQuery, type Query } from './query';
import type { Session } from './session';

export type Pagination = z.infer<typeof pagination>;
/** A user as every route under `/api/bag` shows one. */
export type Author = z.infer<typeof publicAuthor>;
export type Article = z.infer<typeof shapes.article>;
export type Page = z.infer<typeof shapes.page>;
export type MenuItem = shapes.MenuItemNode;
export type Menu = z.infer<typeof shapes.menu>;
export type Banner = z.infer<typeof shapes.banner>;
export type Category = shapes.CategoryNode;
export type Tag = z.infer<typeof shapes.tag>;

export function contentCalls({ request }: Session) {
  return {
    articles: {
      list: (query?: Query) => request<z.infer<typeof shapes.articleList>>(withQuery('/api/bag/articles', query)),
      get: (slug: string) => request<z.infer<typeof shapes.articleDetail>>(`/api/bag/articles/${encodeURIComponent(slug)}`),
    },
    pages: {
      list: (query?: Query) => request<z.infer<typeof shapes.pageList>>(withQuery('/api/bag/pages', query)),
      get: (slug: string) => request<z.infer<typeof shapes.pageDetail>>(`/api/bag/pages/${encodeURIComponent(slug)}`),
    },
    menus: {
      get: (slug: string) => request<z.infer<typeof shapes.menuDetail>>(`/api/bag/menus/${encodeURIComponent(slug)}`),
    },
    banners: {
      list: (group?: string) =>
        request<z.infer<typeof shapes.bannerList>>(group ? `/api/bag/banners/${encodeURIComponent(group)}` : '/api/bag/banners'),
    },
    categories: {
      list: () => request<z.infer<typeof shapes.categoryList>>('/api/bag/categories'),
    },
    tags: {
      list: () => request<z.infer<typeof shapes.tagList>>('/api/bag/tags'),
    },
  };
}
