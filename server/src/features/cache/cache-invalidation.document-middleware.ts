/**
 * The response cache's coherence for Document Service writes (docs/caching.md): a write call (create, update,
 * delete, publish, unpublish, discardDraft, …) on any type runs with a set of touched scopes; the Query Engine
 * lifecycles of its rows (features/cache/response-cache.bootstrap.ts) add to it, and the scopes' versions are raised once when
 * the call returns, after its transaction has committed and before the caller sees the result. Outermost of the
 * plugin's Document Service middlewares, so the others' writes are covered too.
 */
import type { Core, Modules } from '@strapi/strapi';
import { scopesOf } from '../../platform/cache-scopes';
import { getService } from '../../platform/get-service';

const READS = new Set(['findOne', 'findFirst', 'findMany', 'count']);

export const cacheInvalidation =
  (strapi: Core.Strapi): Modules.Documents.Middleware.Middleware =>
  async (context, next) => {
    if (READS.has(context.action)) return next();
    return getService(strapi, 'cache-versions').around(() => next() as Promise<unknown>, [...scopesOf(context.uid)]) as never;
  };
