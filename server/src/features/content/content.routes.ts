/** `/api/bag/…`: published content for everyone; only published documents are ever returned. */
import type { z } from 'zod/v4';
import * as shapes from './content.shapes';
import { COMMENTS_CACHE, CONTENT_CACHE, type Handler, type PluginRoute, type RouteCache, type RouteModule } from '../../platform/route-types';

const get = (path: string, handler: Handler, response: z.ZodType, request?: PluginRoute['request'], cache: RouteCache = CONTENT_CACHE): PluginRoute => ({
  method: 'GET',
  path: `/bag${path}`,
  handler,
  ...(request ? { request } : {}),
  response,
  cache,
  config: { prefix: '' },
});

/** Articles and pages show `views`: a detail counts the read, a list shows each row's count. */
const counted = (type: 'article' | 'page', kind: 'detail' | 'list'): RouteCache => ({ ...CONTENT_CACHE, views: { type, kind } });
/** Articles also show `commentCount` (docs/readers.md): a comment's write makes them stale. */
const withComments = (kind: 'detail' | 'list'): RouteCache => ({ ...COMMENTS_CACHE, views: { type: 'article', kind } });

const list = shapes.listRequest;
const bySlug = shapes.bySlugRequest;
const inLocale = shapes.inLocaleRequest;

const routes = [
  get('/articles', 'article.find', shapes.articleList, list, withComments('list')),
  get('/articles/:slug', 'article.findOne', shapes.articleDetail, bySlug, withComments('detail')),
  get('/pages', 'page.find', shapes.pageList, list, counted('page', 'list')),
  get('/pages/:slug', 'page.findOne', shapes.pageDetail, bySlug, counted('page', 'detail')),
  get('/banners', 'banner.find', shapes.bannerList, inLocale),
  get('/banners/:group', 'banner.findByGroup', shapes.bannerList, shapes.groupRequest),
  get('/categories', 'category.find', shapes.categoryList, inLocale),
  get('/tags', 'tag.find', shapes.tagList, inLocale),
  get('/menus/:slug', 'menu.findOne', shapes.menuDetail, bySlug),
  get('/redirects', 'redirect.find', shapes.redirectList),
];

const handlers = routes.map((route) => route.handler);

const content: RouteModule = { routes, grants: { public: handlers, authenticated: handlers } };

export default content;
