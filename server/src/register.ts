import type { Core } from '@strapi/strapi';
import { registerContentManagerCommentStatus } from './content-manager-comment-status';
import { commentsDocumentMiddleware } from './document-middlewares/comments';
import databaseUnavailable from './middlewares/database-unavailable';
import { keepViewCounts } from './services/views';

/**
 * The plugin issues legacy jwts with its own refresh tokens. In users-permissions' `jwtManagement: 'refresh'`
 * mode the host accepts only access tokens bound to one of its own sessions, so the plugin's tokens would be
 * refused everywhere: refuse to start instead of failing on every request.
 */
const refuseRefreshMode = (strapi: Core.Strapi) => {
  const mode: string = strapi.config.get('plugin::users-permissions.jwtManagement', 'legacy-support');
  if (mode === 'refresh') {
    throw new Error(
      "cms-plugin-bag: users-permissions jwtManagement 'refresh' is not supported; the plugin issues its own refresh tokens. " +
        "Set jwtManagement to 'legacy-support' (the default) in config/plugins.ts."
    );
  }
};

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  refuseRefreshMode(strapi);
  // Registered before the app's own middlewares are mounted, so it is the outermost one (see the module).
  strapi.server.use(databaseUnavailable({ strapi }));
  strapi.documents.use(keepViewCounts);
  strapi.documents.use(commentsDocumentMiddleware(strapi));
  registerContentManagerCommentStatus(strapi);
};

export default register;
