/** Discovery (docs/discovery.md) under `/api/bag/…`: feeds of the newest published articles and the sitemap. */
import type { z } from 'zod/v4';
import * as shapes from './feeds.shapes';
import { CONTENT_CACHE, type Handler, type PluginRoute, type RouteModule } from '../../platform/route-types';

const get = (path: string, handler: Handler, response: z.ZodType, request: PluginRoute['request']): PluginRoute => ({
  method: 'GET',
  path: `/bag${path}`,
  handler,
  request,
  response,
  cache: CONTENT_CACHE,
  config: { prefix: '' },
});

const feed = shapes.feedRequest;

const routes = [
  get('/feeds/articles.rss', 'feed.rss', shapes.rssDocument, feed),
  get('/feeds/articles.atom', 'feed.atom', shapes.atomDocument, feed),
  get('/feeds/articles.json', 'feed.json', shapes.jsonFeed, feed),
  get('/sitemap.xml', 'sitemap.index', shapes.sitemapDocument, shapes.sitemapRequest),
  get('/sitemap-news.xml', 'sitemap.news', shapes.sitemapDocument, shapes.sitemapRequest),
  // `:page` is the file name `<n>.xml` (a parameter cannot be followed by `.xml` in the host's OpenAPI paths).
  get('/sitemaps/:page', 'sitemap.page', shapes.sitemapDocument, shapes.sitemapPageRequest),
];

const handlers = routes.map((route) => route.handler);

const feeds: RouteModule = { routes, grants: { public: handlers, authenticated: handlers } };

export default feeds;
