/**
 * The search index (docs/search.md#start-up-build): created with its triggers when missing (a SQLite table rebuild by Strapi's schema
 * sync drops triggers; they come back here), and filled in for articles written before it existed. Over
 * BACKGROUND_THRESHOLD articles to index the build runs in the background with progress in the log, and bootstrap
 * returns at once; searches meanwhile answer from what is indexed.
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../platform/get-service';

export const ensureSearchIndex = async (strapi: Core.Strapi) => {
  await getService(strapi, 'search').ensureIndex();
};
