/** Admin panel permissions the plugin registers (Settings → Administration Panel → Roles → Plugins → CMS Bag). */
import { PLUGIN_ID } from './plugin-id';

export const ADMIN_ACTIONS = {
  settingsRead: `plugin::${PLUGIN_ID}.settings.read`,
  settingsUpdate: `plugin::${PLUGIN_ID}.settings.update`,
  commentsModerate: `plugin::${PLUGIN_ID}.comments.moderate`,
} as const;

/** Route policy: the admin user's role must hold every one of `actions`. */
export const requireAdmin = (...actions: string[]) => ({ name: 'admin::hasPermissions', config: { actions } });
