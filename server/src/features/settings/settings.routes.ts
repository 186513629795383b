/** Settings → CMS Bag: read needs `settings.read`, update `settings.update`. */
import { ADMIN_ACTIONS, requireAdmin } from '../../platform/admin-actions';
import * as shapes from '../../platform/config/settings.shapes';
import type { PluginRoute } from '../../platform/route-types';

const routes: PluginRoute[] = [
  {
    method: 'GET',
    path: '/settings',
    handler: 'admin-settings.find',
    response: shapes.settingsResponse,
    config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsRead)] },
  },
  {
    method: 'PUT',
    path: '/settings',
    handler: 'admin-settings.update',
    request: shapes.settingsUpdateRequest,
    response: shapes.settingsResponse,
    config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsUpdate)] },
  },
];

export default routes;
