import { ADMIN_ACTIONS, requireAdmin } from '../../domain/admin-actions';
import type { PluginRoute } from '../types';

const routes: PluginRoute[] = [
  { method: 'GET', path: '/settings', handler: 'admin-settings.find', config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsRead)] } },
  { method: 'PUT', path: '/settings', handler: 'admin-settings.update', config: { policies: [requireAdmin(ADMIN_ACTIONS.settingsUpdate)] } },
];

export default routes;
