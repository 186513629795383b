/** Admin panel permissions the plugin registers (Settings → Administration Panel → Roles → Plugins → CMS Bag). */
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from './utils/plugin-id';

export const ADMIN_ACTIONS = {
  settingsRead: `plugin::${PLUGIN_ID}.settings.read`,
  settingsUpdate: `plugin::${PLUGIN_ID}.settings.update`,
  commentsModerate: `plugin::${PLUGIN_ID}.comments.moderate`,
} as const;

/** Route policy: the admin user's role must hold every one of `actions`. */
export const requireAdmin = (...actions: string[]) => ({ name: 'admin::hasPermissions', config: { actions } });

export const registerAdminActions = async (strapi: Core.Strapi) => {
  await strapi
    .service('admin::permission')
    .actionProvider.registerMany([
      { section: 'plugins', displayName: 'Read settings', uid: 'settings.read', subCategory: 'settings', pluginName: PLUGIN_ID },
      { section: 'plugins', displayName: 'Update settings', uid: 'settings.update', subCategory: 'settings', pluginName: PLUGIN_ID },
      { section: 'plugins', displayName: 'Moderate comments', uid: 'comments.moderate', subCategory: 'comments', pluginName: PLUGIN_ID },
    ]);
};
