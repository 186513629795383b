/** Search: what the wiring uses. */
export { ensureSearchIndex } from './search-index';
export { default as searchController } from './search.controller';
export { default as searchRoutes } from './search.routes';
export { default as searchService } from './search.service';
