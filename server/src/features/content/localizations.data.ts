/**
 * A detail's other published locales. Every uncached detail read asks for them, so the statement is prepared
 * (platform/prepared.ts) rather than built by knex at each call, as the view count's is.
 */
import type { Core, UID } from '@strapi/strapi';
import { tableOf } from '../../platform/columns';
import { qualifiedTable, quoted, runPrepared } from '../../platform/prepared';

/** One of the document's other published locales, for hreflang links. */
export interface Localization {
  locale: string;
  slug: string;
}

/** The locale and slug of the document's published versions other than `locale`'s, by locale. */
export const publishedLocalizations = async (
  strapi: Core.Strapi,
  uid: UID.ContentType,
  documentId: string,
  locale: string,
): Promise<Localization[]> => {
  const { table, column } = tableOf(strapi, uid);
  const [localeColumn, slug, documentIdColumn, publishedAt] = ['locale', 'slug', 'documentId', 'publishedAt'].map((name) =>
    quoted(column(name)),
  );
  const select = `SELECT ${localeColumn} AS locale, ${slug} AS slug FROM ${qualifiedTable(strapi, table)}`;
  const order = `AND ${publishedAt} IS NOT NULL ORDER BY ${localeColumn} ASC`;
  const rows = await runPrepared(
    strapi,
    {
      sqlite: `${select} WHERE ${documentIdColumn} = ? AND ${localeColumn} <> ? ${order}`,
      postgres: `${select} WHERE ${documentIdColumn} = $1 AND ${localeColumn} <> $2 ${order}`,
    },
    [documentId, locale],
  );
  return rows.map((row) => ({ locale: String(row.locale), slug: String(row.slug) }));
};
