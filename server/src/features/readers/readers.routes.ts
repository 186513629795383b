/**
 * The readers' routes (docs/readers.md). Listed before the content routes: `/bag/articles/popular` is this module's,
 * not an article with the slug `popular`.
 */
import { CONTENT_CACHE, rateLimited, type PluginRoute, type RouteModule } from '../../platform/route-types';
import * as shapes from './readers.shapes';
import { BEACON_BODY } from './beacon-body.middleware';


const routes: PluginRoute[] = [
  {
    method: 'POST',
    path: '/bag/views',
    handler: 'readers.view',
    request: shapes.beaconRequest,
    response: shapes.beaconResponse,
    config: { prefix: '', middlewares: [rateLimited('views'), BEACON_BODY] },
  },
  {
    method: 'GET',
    path: '/bag/articles/popular',
    handler: 'readers.popular',
    request: shapes.popularRequest,
    response: shapes.popularList,
    // `views`: raised at most every 60 seconds while views are counted, so the answer follows the counts.
    cache: { scopes: [...CONTENT_CACHE.scopes, 'comments', 'views'], views: { type: 'article', kind: 'list' } },
    config: { prefix: '' },
  },
  {
    method: 'GET',
    path: '/bag/articles/:slug/related',
    handler: 'readers.related',
    request: shapes.relatedRequest,
    response: shapes.relatedList,
    cache: { scopes: [...CONTENT_CACHE.scopes, 'comments'], views: { type: 'article', kind: 'list' } },
    config: { prefix: '' },
  },
];

const handlers = routes.map((route) => route.handler);

const readersRoutes: RouteModule = { routes, grants: { public: handlers, authenticated: handlers } };

export default readersRoutes;
