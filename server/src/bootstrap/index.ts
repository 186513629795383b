/**
 * bootstrap(): start-up work once the database is up, each step in its feature or the platform: indexes
 * (platform/indexes.ts), room on PostgreSQL's pages for the view counters (content/room-for-views.ts), admin panel
 * actions (platform/register-admin-actions.ts), the search index and its triggers (search/search-index.ts; large
 * builds go on in the background), first-start Users & Permissions grants (the route modules name them; the
 * permissions service applies them), refresh-token revocation on user changes (accounts/user-revocation.ts) and
 * access tokens with the host's sessions (accounts/session-revocation.ts), the owner's mail on a password change
 * (accounts/password-alerts.ts), the locale list's refresh, the comment webhook events (comments/events.ts), the
 * purge timer and the daily view counts' pruning (readers), the background rendering of older comments' HTML
 * (comments/comment-html.ts), the Content Manager's configurations showing comments by their text
 * (comments/comment-main-field.ts), and the newsletters' delivery loop (newsletters/newsletters.bootstrap.ts).
 */
import type { Core } from '@strapi/strapi';
import { defaultGrants, routes as contentApiRoutes } from '../routes/content-api';
import { getService } from '../platform/get-service';
import { registerAdminActions } from '../platform/register-admin-actions';
import { startCommentHtmlBackfill, showCommentsByText } from '../features/comments';
import { ensureIndexes } from '../platform/indexes';
import { countRoles } from '../platform/permissions.data';
import { ensureRoomForViews } from '../features/content';
import { startResponseCache } from '../features/cache';
import { ensureSearchIndex } from '../features/search';
import { startNewsletters } from '../features/newsletters';
import { revokeTokensWithHostSessions, revokeTokensOnUserChanges, alertOnPasswordChanges } from '../features/accounts';

/**
 * On a fresh database this plugin may bootstrap before users-permissions (plugins declared in config/plugins.ts
 * come first). Granting before it would create its roles ourselves or make it skip its own default permissions
 * (it only creates them when the permission table is empty), so let it initialize first with its own idempotent
 * initializer; its bootstrap then finds the roles and permissions in place and leaves them as they are.
 */
const ensureUsersPermissionsInitialized = async (strapi: Core.Strapi) => {
  const roles = await countRoles(strapi);
  if (roles === 0) await strapi.plugin('users-permissions').service('users-permissions').initialize();
};

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  await ensureIndexes(strapi);
  await ensureRoomForViews(strapi);
  await ensureSearchIndex(strapi);
  getService(strapi, 'crypto').init();
  await registerAdminActions(strapi);
  await showCommentsByText(strapi);
  getService(strapi, 'comment-events').register();
  await ensureUsersPermissionsInitialized(strapi);
  await getService(strapi, 'permissions').grantDefaults(defaultGrants);
  revokeTokensOnUserChanges(strapi);
  revokeTokensWithHostSessions(strapi);
  alertOnPasswordChanges(strapi);
  await startResponseCache(strapi, contentApiRoutes);
  // A locale created or deleted here is known (or refused) at once; other instances re-read within seconds.
  strapi.db.lifecycles.subscribe({
    models: ['plugin::i18n.locale'],
    afterCreate: () => getService(strapi, 'locales').forget(),
    afterDelete: () => getService(strapi, 'locales').forget(),
  });
  getService(strapi, 'purge').start(getService(strapi, 'settings').file().rateLimit.purgeInterval);
  // Daily view counts past `views.retention` (docs/readers.md), on the purge's interval.
  getService(strapi, 'readers').start(getService(strapi, 'settings').file().rateLimit.purgeInterval);
  startCommentHtmlBackfill(strapi);
  startNewsletters(strapi);
};

export default bootstrap;
