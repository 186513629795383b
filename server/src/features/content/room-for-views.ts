/**
 * Room on PostgreSQL's pages for the view counters. Every detail read rewrites its document's rows (`views = views +
 * n`: features/content/views.data.ts). PostgreSQL writes a new version of each row; when the row's page has room for
 * it and no indexed column changed, the version stays on that page and no index is touched (a heap-only tuple).
 * PostgreSQL fills a table's pages to 100 % by default, so there was never room: every counted read added an entry to
 * each of the article table's eight indexes, and the reads of a popular document walked past thousands of dead
 * entries until autovacuum came by (docs/benchmark.md: a 304 of an article detail went from 0.72× to 0.79× of
 * `/_health`, and 0 of 14,316 updates were heap-only before, 39,989 of 39,992 after).
 *
 * The counted tables are told to leave a fifth of each page free, when they have no fillfactor of their own (an
 * operator's setting is kept). It applies to pages written from then on; a row moves to such a page at its first
 * update. SQLite rewrites a row in place and has no such setting.
 */
import type { Core } from '@strapi/strapi';
import { setFillFactor, storageOptionsOf } from './room-for-views.data';

/** Percent of each page PostgreSQL fills with new rows. */
export const FILL_FACTOR = 80;

/** The content types whose rows a read updates. */
const COUNTED = ['article', 'page'] as const;

export const ensureRoomForViews = async (strapi: Core.Strapi) => {
  if (strapi.db.dialect.client !== 'postgres') return;
  for (const { relname, reloptions } of await storageOptionsOf(strapi, COUNTED)) {
    if (reloptions?.some((option) => option.startsWith('fillfactor='))) continue;
    await setFillFactor(strapi, relname, FILL_FACTOR);
  }
};
