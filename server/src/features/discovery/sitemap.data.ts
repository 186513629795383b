/**
 * The sitemap's reads (docs/discovery.md#sitemap): the published rows of articles, pages, categories and tags, counted and read in
 * keyset-paged chunks by id together with the published locale versions of each row's document (hreflang
 * alternates), and the covers of a chunk's article rows. Published rows are those with `published_at` set: articles
 * and pages have a draft row (null) and a published row per published locale; categories and tags have no draft &
 * publish, so every row counts (the host sets `published_at` on each).
 *
 * knex rather than the Document Service: every locale at once, keyset paging by row id and only the columns a URL
 * needs, so 100,000 URLs cost a few hundred small statements and no entity objects.
 */
import type { Core } from '@strapi/strapi';
import { tableOf } from '../../platform/columns';

export interface AlternateRow {
  locale: string;
  slug: string;
}

export interface SitemapRow {
  id: number;
  documentId: string;
  locale: string;
  slug: string;
  updatedAt: unknown;
  /** The published versions of the row's document, itself included, in the code order of their locales. */
  versions: AlternateRow[];
}

export interface CoverRow {
  rowId: number;
  url: string;
}

interface MorphJoinTable {
  name: string;
  joinColumn: { name: string };
  morphColumn: { idColumn: { name: string }; typeColumn: { name: string } };
}

const FILE_UID = 'plugin::upload.file';

const schemaOf = (strapi: Core.Strapi, uid: string) => {
  const { table, column } = tableOf(strapi, uid);
  const meta = strapi.db.metadata.get(uid);
  const hasDraftAndPublish = Boolean((strapi.getModel(uid as never) as { options?: { draftAndPublish?: boolean } }).options?.draftAndPublish);
  return {
    table,
    id: column('id'),
    documentId: column('documentId'),
    locale: column('locale'),
    slug: column('slug'),
    updatedAt: column('updatedAt'),
    publishedAt: column('publishedAt'),
    hasDraftAndPublish,
    hasPublishedAt: Boolean(meta.attributes.publishedAt),
  };
};

const published = (strapi: Core.Strapi, uid: string) => {
  const s = schemaOf(strapi, uid);
  const query = strapi.db.connection(s.table);
  return { s, query: s.hasPublishedAt && s.hasDraftAndPublish ? query.whereNotNull(s.publishedAt) : query };
};

/** How many published rows (one URL each) the type has, but the `exclude`d ones. */
export const countPublished = async (strapi: Core.Strapi, uid: string, exclude: number[] = []): Promise<number> => {
  const { s, query } = published(strapi, uid);
  if (exclude.length > 0) query.whereNotIn(s.id, exclude);
  const row = (await query.count({ count: '*' }).first()) as { count: number | string } | undefined;
  return Number(row?.count ?? 0);
};

/** Locale codes compared by code unit: the same order on every database, whatever its collation. */
const byLocale = (a: AlternateRow, b: AlternateRow) => (a.locale < b.locale ? -1 : a.locale > b.locale ? 1 : 0);

/**
 * Up to `limit` published rows by id but the `exclude`d ones (redirected paths): after `afterId` (keyset), or, for the
 * first chunk of a sitemap page that starts inside the type, skipping `offset` rows; each with the published
 * versions of its document, in one statement: the chunk joined to its documents' published rows through the
 * host's `(document_id, locale, published_at)` index, one output row per version.
 *
 * Why the versions are not ordered by the statement: without table statistics (a table just bulk-loaded, before
 * autovacuum's first analyze) PostgreSQL estimates a thousand rows per document, and a sort over that estimate costs
 * enough to switch on its JIT compiler, ~200 ms per statement; a document's few versions are sorted here instead.
 */
export const publishedChunk = async (
  strapi: Core.Strapi,
  uid: string,
  { afterId, offset, limit, exclude = [] }: { afterId?: number; offset?: number; limit: number; exclude?: number[] }
): Promise<SitemapRow[]> => {
  const knex = strapi.db.connection;
  const { s, query } = published(strapi, uid);
  if (exclude.length > 0) query.whereNotIn(s.id, exclude);
  let chunk = query
    .select({ id: s.id, documentId: s.documentId, locale: s.locale, slug: s.slug, updatedAt: s.updatedAt })
    .orderBy(s.id, 'asc')
    .limit(limit);
  if (afterId !== undefined) chunk = chunk.where(s.id, '>', afterId);
  if (offset) chunk = chunk.offset(offset);
  const rows = (await knex
    .from(chunk.as('c'))
    .leftJoin({ v: s.table }, (join) => {
      join.on(`v.${s.documentId}`, 'c.documentId');
      if (s.hasPublishedAt && s.hasDraftAndPublish) join.andOnNotNull(`v.${s.publishedAt}`);
    })
    .select('c.id', 'c.documentId', 'c.locale', 'c.slug', 'c.updatedAt', { versionLocale: `v.${s.locale}`, versionSlug: `v.${s.slug}` })
    .orderBy('c.id', 'asc')) as (Omit<SitemapRow, 'versions'> & { versionLocale: string | null; versionSlug: string })[];
  const out: SitemapRow[] = [];
  let last: SitemapRow | undefined;
  for (const row of rows) {
    const id = Number(row.id);
    if (last?.id !== id) {
      last = { id, documentId: row.documentId, locale: row.locale, slug: row.slug, updatedAt: row.updatedAt, versions: [] };
      out.push(last);
    }
    if (row.versionLocale !== null) last.versions.push({ locale: row.versionLocale, slug: row.versionSlug });
  }
  for (const row of out) if (row.versions.length > 1) row.versions.sort(byLocale);
  return out;
};

export interface BoundaryRow {
  /** The row that ends a sitemap page. */
  id: number;
  /** Its position among the type's listed rows, from 1. */
  position: number;
}

/**
 * The rows of `uid` that end a sitemap page, in one statement: numbered by id among the type's listed rows
 * (published, not `exclude`d), those whose position plus `before` (the URLs of the types listed before it) is a
 * multiple of `pageSize`. Only ids and the publication column are read, so the scan can stay in an index.
 */
export const pageBoundaries = async (
  strapi: Core.Strapi,
  uid: string,
  { before, pageSize, exclude = [] }: { before: number; pageSize: number; exclude?: number[] }
): Promise<BoundaryRow[]> => {
  const knex = strapi.db.connection;
  const { s, query } = published(strapi, uid);
  if (exclude.length > 0) query.whereNotIn(s.id, exclude);
  const numbered = query.select({ id: s.id }).select(knex.raw('row_number() over (order by ?? asc) as position', [s.id]));
  const rows = (await knex
    .from(numbered.as('numbered'))
    .select('id', 'position')
    .whereRaw('(position + ?) % ? = 0', [before, pageSize])
    .orderBy('position')) as { id: number | string; position: number | string }[];
  return rows.map((row) => ({ id: Number(row.id), position: Number(row.position) }));
};

/**
 * The `field` file (first by order) of each row of `uid` with an id from `first` to `last`, through the upload
 * plugin's morph table: a chunk's covers as one range of the table's `related_id` index (drafts and rows the
 * chunk skips come along and go unused), where a list of the chunk's thousand ids made PostgreSQL check every link
 * row of the field against the list.
 */
export const filesOf = async (strapi: Core.Strapi, uid: string, field: string, { first, last }: { first: number; last: number }): Promise<CoverRow[]> => {
  const file = tableOf(strapi, FILE_UID);
  const { joinTable } = strapi.db.metadata.get(FILE_UID).attributes.related as unknown as { joinTable: MorphJoinTable };
  const link = joinTable.name;
  const relatedId = joinTable.morphColumn.idColumn.name;
  const relatedType = joinTable.morphColumn.typeColumn.name;
  const fileId = joinTable.joinColumn.name;
  const rows = (await strapi.db
    .connection(link)
    .join(file.table, `${file.table}.${file.column('id')}`, `${link}.${fileId}`)
    .select({ rowId: `${link}.${relatedId}`, url: `${file.table}.${file.column('url')}` })
    .where(`${link}.${relatedType}`, uid)
    .where(`${link}.field`, field)
    .whereBetween(`${link}.${relatedId}`, [first, last])
    .orderBy([`${link}.${relatedId}`, `${link}.order`])) as CoverRow[];
  const firstOf = new Map<number, CoverRow>();
  for (const row of rows) if (!firstOf.has(Number(row.rowId))) firstOf.set(Number(row.rowId), { rowId: Number(row.rowId), url: row.url });
  return [...firstOf.values()];
};
