/**
 * register(): what must be in place before Strapi mounts routes and serves requests, each step in its feature or the
 * platform: the internal tables' models (models/), server middlewares (platform/, comments/unsubscribe-token, newsletters/newsletter-token), Document
 * Service middlewares (document-middlewares/ lists them), the Content Manager's comment status
 * (comments/content-manager-comment-status.middleware.ts), the host's auth routes (accounts/host-auth-routes.ts),
 * the access tokens' check (accounts/access-tokens.register.ts) and GraphQL (features/graphql/).
 */
import type { Core } from '@strapi/strapi';
import { documentMiddlewares } from '../document-middlewares';
import { registerGraphql } from '../features/graphql';
import {
  registerContentManagerCommentStatus,
  unsubscribeTokenMiddleware as unsubscribeToken,
} from '../features/comments';
import databaseUnavailable from '../platform/database-unavailable.middleware';
import nulGuard from '../platform/nul-guard.middleware';
import { internalModels } from '../models';
import { newsletterTokenMiddleware as newsletterToken } from '../features/newsletters';
import { checkAccessTokens, guardHostAuthRoutes } from '../features/accounts';
import { PLUGIN_ID } from '../platform/plugin-id';
import { uncheckedRoutes } from '../platform/request-check';
import { routes as adminRoutes } from '../routes/admin';
import { routes as contentApiRoutes } from '../routes/content-api';
import controllers from '../controllers';

/** Every route's action checks the request the route declares (platform/request-check.ts): a mismatch is a bug, found at start. */
const assertRequestsChecked = (strapi: Core.Strapi) => {
  const built = Object.fromEntries(Object.keys(controllers).map((name) => [name, strapi.plugin(PLUGIN_ID).controller(name) as Record<string, unknown>]));
  const unchecked = uncheckedRoutes([...contentApiRoutes, ...adminRoutes], built);
  if (unchecked.length > 0) throw new Error(`Routes whose action does not check the request they declare: ${unchecked.join(', ')}`);
};

const register = ({ strapi }: { strapi: Core.Strapi }) => {
  assertRequestsChecked(strapi);
  // Created and synced with the content types' tables in bootstrap (Strapi reads this registry there).
  for (const model of internalModels()) strapi.get('models').add(model);
  // Registered before the app's own middlewares are mounted, so it is the outermost one (see the module).
  strapi.server.use(databaseUnavailable({ strapi }));
  strapi.server.use(nulGuard({ strapi }));
  strapi.server.use(unsubscribeToken({ strapi }));
  strapi.server.use(newsletterToken({ strapi }));
  for (const middleware of documentMiddlewares(strapi)) strapi.documents.use(middleware);
  registerContentManagerCommentStatus(strapi);
  guardHostAuthRoutes(strapi);
  checkAccessTokens(strapi);
  registerGraphql(strapi);
};

export default register;
