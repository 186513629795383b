/** `/api/bag/…`: published content for everyone (CONTRACT.md §3, §4 "Content"). */
import type { Handler, PluginRoute, RouteModule } from '../types';

const get = (path: string, handler: Handler): PluginRoute => ({
  method: 'GET',
  path: `/bag${path}`,
  handler,
  config: { prefix: '' },
});

const routes = [
  get('/articles', 'article.find'),
  get('/articles/:slug', 'article.findOne'),
  get('/pages', 'page.find'),
  get('/pages/:slug', 'page.findOne'),
  get('/banners', 'banner.find'),
  get('/banners/:group', 'banner.findByGroup'),
  get('/categories', 'category.find'),
  get('/tags', 'tag.find'),
  get('/menus/:slug', 'menu.findOne'),
];

const handlers = routes.map((route) => route.handler);

const content: RouteModule = { routes, grants: { public: handlers, authenticated: handlers } };

export default content;
