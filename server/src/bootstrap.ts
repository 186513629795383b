import type { Core } from '@strapi/strapi';
import { registerAdminActions } from './admin-actions';
import { ensureIndexes } from './indexes';
import { revokeTokensOnUserChanges } from './user-revocation';
import { getService } from './utils/get-service';

/**
 * On a fresh database this plugin may bootstrap before users-permissions (plugins declared in config/plugins.ts
 * come first). Granting before it would create its roles ourselves or make it skip its own default permissions
 * (it only creates them when the permission table is empty), so let it initialize first with its own idempotent
 * initializer; its bootstrap then finds the roles and permissions in place and leaves them as they are.
 */
const ensureUsersPermissionsInitialized = async (strapi: Core.Strapi) => {
  const roles = await strapi.db.query('plugin::users-permissions.role').count();
  if (roles === 0) await strapi.plugin('users-permissions').service('users-permissions').initialize();
};

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  await ensureIndexes(strapi);
  getService(strapi, 'crypto').init();
  await registerAdminActions(strapi);
  await ensureUsersPermissionsInitialized(strapi);
  await getService(strapi, 'permissions').grantDefaults();
  revokeTokensOnUserChanges(strapi);
  getService(strapi, 'purge').start(getService(strapi, 'settings').file().rateLimit.purgeInterval);
};

export default bootstrap;
