/**
 * Secondary indexes for the columns the plugin's public reads filter and sort by. Strapi already indexes
 * `document_id` (with locale and published_at) and both columns of every relation link table; these cover the rest.
 * Created at every bootstrap when missing, on SQLite and PostgreSQL alike. Strapi's schema sync only drops indexes
 * it declared itself, so these survive restarts; one dropped by a table rebuild comes back at the next start.
 * All names start with `bag_idx_` (the benchmark drops exactly those to show the query plans without them).
 */
import type { Core } from '@strapi/strapi';
import { createIndex, hasIndex, tableOfType } from './indexes.data';

interface IndexSpec {
  /** Content type, by its name inside the plugin (or a host model's uid, `admin::session`). */
  type: string;
  name: string;
  /** Database column names in index order, each optionally followed by ` desc`. */
  columns: string[];
  /** A partial index: only the published rows (`published_at IS NOT NULL`). */
  publishedOnly?: boolean;
  /** On PostgreSQL a hash index (equality only, no size limit on a key: a B-tree refuses one over about 2.7 KB). */
  hash?: boolean;
}

export const INDEXES: IndexSpec[] = [
  // The article list's default order as Strapi writes it (`is_top desc, published_at desc, id asc`, the id added
  // by Strapi as a tie-breaker), so a page is the first rows of a forward index scan: no sort, no full scan. Serves
  // reads without a locale (the host's own, other plugins').
  { type: 'article', name: 'bag_idx_articles_top_published', columns: ['is_top desc', 'published_at desc', 'id'] },
  // The same order within one locale, published rows only (the plugin's lists always name the locale): a page is
  // the first rows of a forward index scan, and a page past the middle the first rows of a backward one
  // (features/content/list-order.ts), with no walk over the drafts or the other locales' rows. In the index above
  // the drafts' NULLs sit at one end of each `is_top` group, so a backward read from that end on SQLite, or a
  // forward one on PostgreSQL (NULLs first in a descending column), walked every draft first.
  { type: 'article', name: 'bag_idx_articles_list', columns: ['locale', 'is_top desc', 'published_at desc', 'id'], publishedOnly: true },
  // Published-only counts and explicit date sorts.
  { type: 'article', name: 'bag_idx_articles_published', columns: ['published_at'] },
  { type: 'article', name: 'bag_idx_articles_slug', columns: ['slug', 'published_at'] },
  { type: 'page', name: 'bag_idx_pages_slug', columns: ['slug', 'published_at'] },
  { type: 'banner', name: 'bag_idx_banners_group', columns: ['group', 'published_at', 'order', 'id'] },
  { type: 'menu', name: 'bag_idx_menus_slug', columns: ['slug'] },
  { type: 'category', name: 'bag_idx_categories_slug', columns: ['slug'] },
  { type: 'tag', name: 'bag_idx_tags_slug', columns: ['slug'] },
  // A redirect by its `from` (an import's "exists", the uniqueness check, the loop check's walk: docs/import.md#measured).
  { type: 'redirect', name: 'bag_idx_redirects_from', columns: ['from'], hash: true },
  // Moderation lists and the approved-only comment tree filter by status and order by creation time.
  { type: 'comment', name: 'bag_idx_comments_status', columns: ['status', 'created_at'] },
  // A first page of roots reads the pinned ones first: a walk of the few pinned comments, not of every root.
  { type: 'comment', name: 'bag_idx_comments_pinned', columns: ['pinned_at'] },
  // Every request with a 'refresh'-mode jwt finds its host session by id (features/accounts/access-tokens.ts; the host's
  // own refresh and logout do too), and a session that ends takes the rows it was rotated from
  // (features/accounts/session-revocation.ts): the host declares neither index.
  { type: 'admin::session', name: 'bag_idx_sessions_session_id', columns: ['session_id'] },
  { type: 'admin::session', name: 'bag_idx_sessions_child_id', columns: ['child_id'] },
];

/** Creates every index of INDEXES its table lacks (platform/indexes.data.ts). */
export const ensureIndexes = async (strapi: Core.Strapi) => {
  for (const { type, name, columns, publishedOnly, hash } of INDEXES) {
    const tableName = tableOfType(strapi, type);
    if (await hasIndex(strapi, tableName, name)) continue;
    await createIndex(strapi, name, tableName, columns, Boolean(publishedOnly), Boolean(hash));
  }
};
