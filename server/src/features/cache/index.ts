/** The response cache: what the wiring and other features use. */
export { default as adminCacheController } from './admin-cache.controller';
export { default as adminCacheRoutes } from './admin-cache.routes';
export { cacheInvalidation } from './cache-invalidation.document-middleware';
export { default as cacheVersionsService } from './cache-versions';
export { currentTransaction } from './versions.data';
export { keptByVersion } from './kept-by-version';
export { startResponseCache } from './response-cache.bootstrap';
export { default as responseCacheService } from './response-cache';
