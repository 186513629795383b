import type { Core } from '@strapi/strapi';
import { registerContentManagerCommentStatus } from './content-manager-comment-status';
import { commentsDocumentMiddleware } from './document-middlewares/comments';
import { registerGraphql } from './graphql';
import { guardHostAuthRoutes } from './host-auth-routes';
import databaseUnavailable from './middlewares/database-unavailable';
import nulGuard from './middlewares/nul-guard';
import unsubscribeToken from './middlewares/unsubscribe-token';
import { keepViewCounts } from './services/views';

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  // Registered before the app's own middlewares are mounted, so it is the outermost one (see the module).
  strapi.server.use(databaseUnavailable({ strapi }));
  strapi.server.use(nulGuard({ strapi }));
  strapi.server.use(unsubscribeToken({ strapi }));
  strapi.documents.use(keepViewCounts);
  strapi.documents.use(commentsDocumentMiddleware(strapi));
  registerContentManagerCommentStatus(strapi);
  guardHostAuthRoutes(strapi);
  registerGraphql(strapi);
};

export default register;
