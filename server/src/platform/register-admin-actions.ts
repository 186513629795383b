/** Registers the admin panel permissions the admin routes require, named in platform/admin-actions.ts (Settings → Administration Panel → Roles → Plugins → CMS Bag). */
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from './plugin-id';

export const registerAdminActions = async (strapi: Core.Strapi) => {
  await strapi
    .service('admin::permission')
    .actionProvider.registerMany([
      { section: 'plugins', displayName: 'Read settings', uid: 'settings.read', subCategory: 'settings', pluginName: PLUGIN_ID },
      { section: 'plugins', displayName: 'Update settings', uid: 'settings.update', subCategory: 'settings', pluginName: PLUGIN_ID },
      { section: 'plugins', displayName: 'Moderate comments', uid: 'comments.moderate', subCategory: 'comments', pluginName: PLUGIN_ID },
      { section: 'plugins', displayName: 'Import content', uid: 'import.content', subCategory: 'import', pluginName: PLUGIN_ID },
      { section: 'plugins', displayName: 'Send newsletters', uid: 'newsletters.send', subCategory: 'newsletters', pluginName: PLUGIN_ID },
    ]);
};
