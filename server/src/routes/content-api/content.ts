/** `/api/bag/…`: published content for everyone; only published documents are ever returned. */
import type { z } from 'zod/v4';
import * as shapes from '../../domain/shapes/content';
import type { Handler, PluginRoute, RouteModule } from '../types';

const get = (path: string, handler: Handler, response: z.ZodType, request?: PluginRoute['request']): PluginRoute => ({
  method: 'GET',
  path: `/bag${path}`,
  handler,
  ...(request ? { request } : {}),
  response,
  config: { prefix: '' },
});

const list = { query: shapes.listQuery };
const bySlug = { params: shapes.slugParams, query: shapes.localeQuery };
const inLocale = { query: shapes.localeQuery };

const routes = [
  get('/articles', 'article.find', shapes.articleList, list),
  get('/articles/:slug', 'article.findOne', shapes.articleDetail, bySlug),
  get('/pages', 'page.find', shapes.pageList, list),
  get('/pages/:slug', 'page.findOne', shapes.pageDetail, bySlug),
  get('/banners', 'banner.find', shapes.bannerList, inLocale),
  get('/banners/:group', 'banner.findByGroup', shapes.bannerList, { params: shapes.groupParams, ...inLocale }),
  get('/categories', 'category.find', shapes.categoryList, inLocale),
  get('/tags', 'tag.find', shapes.tagList, inLocale),
  get('/menus/:slug', 'menu.findOne', shapes.menuDetail, bySlug),
];

const handlers = routes.map((route) => route.handler);

const content: RouteModule = { routes, grants: { public: handlers, authenticated: handlers } };

export default content;
