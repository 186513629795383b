/** `GET /api/bag/search` (docs/search.md): full-text search over published articles, for everyone. */
import * as shapes from './search.shapes';
import { CONTENT_CACHE, type PluginRoute, type RouteModule } from '../../platform/route-types';

const routes: PluginRoute[] = [
  {
    method: 'GET',
    path: '/bag/search',
    handler: 'search.find',
    request: shapes.searchRequest,
    response: shapes.searchResult,
    cache: CONTENT_CACHE,
    config: { prefix: '' },
  },
  {
    method: 'GET',
    path: '/bag/search/suggest',
    handler: 'search.suggest',
    request: shapes.suggestRequest,
    response: shapes.suggestResult,
    cache: CONTENT_CACHE,
    config: { prefix: '' },
  },
];

const handlers = routes.map((route) => route.handler);

const search: RouteModule = { routes, grants: { public: handlers, authenticated: handlers } };

export default search;
