/**
 * The response cache (docs/caching.md): its version table, the Query Engine lifecycles that raise the versions on
 * every write to a watched model (platform/cache-scopes.ts), and the middleware, mounted here (bootstrap) so that it
 * runs after the app's own middlewares (security headers, CORS, query parsing) and before the router.
 */
import type { Core } from '@strapi/strapi';
import { WATCHED, scopesOf } from '../../platform/cache-scopes';
import responseCache from './response-cache.middleware';
import type { routes as contentApiRoutes } from '../../routes/content-api';
import { getService } from '../../platform/get-service';

const WRITES = ['afterCreate', 'afterCreateMany', 'afterUpdate', 'afterUpdateMany', 'afterDelete', 'afterDeleteMany'] as const;

/** `routes`: the content API's route table, handed in by the wiring (bootstrap/index.ts), which this feature does not import. */
export const startResponseCache = async (strapi: Core.Strapi, routes: typeof contentApiRoutes) => {
  const versions = getService(strapi, 'cache-versions');
  await versions.init();
  const raise = async (event: { model: { uid: string } }) => {
    await versions.invalidate(...scopesOf(event.model.uid));
  };
  strapi.db.lifecycles.subscribe({
    models: Object.keys(WATCHED),
    ...Object.fromEntries(WRITES.map((action) => [action, raise])),
  } as never);
  // The routes that declare a cache behaviour (platform/route-types.ts); no other answer is kept.
  getService(strapi, 'response-cache').declare(routes.flatMap(({ handler, cache }) => (cache ? [{ handler, cache }] : [])));
  strapi.server.use(responseCache({ strapi }));
};
