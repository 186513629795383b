/** The response cache (docs/caching.md): stats need `settings.read`, clearing `settings.update`. */
import { ADMIN_ACTIONS, requireAdmin } from '../../platform/admin-actions';
import * as shapes from './admin-cache.shapes';
import type { PluginRoute } from '../../platform/route-types';

const routes: PluginRoute[] = [
  {
    method: 'GET',
    path: '/cache',
    handler: 'admin-cache.stats',
    response: shapes.cacheStatsResponse,
    config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsRead)] },
  },
  {
    method: 'POST',
    path: '/cache/clear',
    handler: 'admin-cache.clear',
    request: shapes.cacheClearRequest,
    response: shapes.cacheStatsResponse,
    config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsUpdate)] },
  },
];

export default routes;
