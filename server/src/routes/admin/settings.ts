/** Settings → CMS Bag: read needs `settings.read`, update `settings.update`. */
import { ADMIN_ACTIONS, requireAdmin } from '../../domain/admin-actions';
import * as shapes from '../../domain/shapes/admin';
import { jsonBody, type PluginRoute } from '../types';

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
    request: jsonBody(shapes.settingsBody),
    response: shapes.settingsResponse,
    config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsUpdate)] },
  },
];

export default routes;
