/** The index DDL of platform/indexes.ts: which indexes a table has, and one CREATE INDEX. */
import type { Core } from '@strapi/strapi';

/** The table of a content type named inside the plugin, or of a host model's uid (`admin::session`). */
export const tableOfType = (strapi: Core.Strapi, type: string): string =>
  strapi.db.metadata.get(type.includes('::') ? type : `plugin::cms-plugin-bag.${type}`).tableName;

/** Whether the table has an index of that name. */
export const hasIndex = async (strapi: Core.Strapi, tableName: string, name: string): Promise<boolean> =>
  (await strapi.db.dialect.schemaInspector.getIndexes(tableName)).some((index) => index.name === name);

/**
 * `CREATE INDEX IF NOT EXISTS` with quoted identifiers is the same statement on both databases (knex's `??`
 * quotes per dialect and splits `schema.table`); the schema builder cannot express a descending column.
 * IF NOT EXISTS also covers two instances starting at once against one database. `columns`: each optionally
 * followed by ` desc`; `publishedOnly`: a partial index of the rows with a `published_at`; `hash`: `USING hash` on
 * PostgreSQL (SQLite has B-trees only, with no key size limit).
 */
export const createIndex = async (strapi: Core.Strapi, name: string, tableName: string, columns: string[], publishedOnly: boolean, hash = false): Promise<void> => {
  const schema = strapi.db.getSchemaName();
  const parts = columns.map((column) => column.split(' '));
  const list = parts.map(([, order]) => (order === 'desc' ? '?? DESC' : '??')).join(', ');
  const where = publishedOnly ? ' WHERE ?? IS NOT NULL' : '';
  const using = hash && strapi.db.dialect.client === 'postgres' ? ' USING hash' : '';
  await strapi.db.connection.raw(`CREATE INDEX IF NOT EXISTS ?? ON ??${using} (${list})${where}`, [
    name,
    schema ? `${schema}.${tableName}` : tableName,
    ...parts.map(([column]) => column),
    ...(publishedOnly ? ['published_at'] : []),
  ]);
};
