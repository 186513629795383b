/** The PostgreSQL catalogue reads and the ALTER TABLE of the view counters' room (features/content/room-for-views.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { qualifiedTable } from '../../platform/prepared';

/** The tables of these content types (`article`, `page`) in the current schema, each with its storage options. */
export const storageOptionsOf = async (strapi: Core.Strapi, types: readonly string[]) => {
  const schema = strapi.db.getSchemaName() ?? null;
  const tables = types.map((type) => strapi.db.metadata.get(uid(type)).tableName);
  const { rows } = (await strapi.db.connection.raw(
    `SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relname = ANY(?) AND n.nspname = coalesce(?, current_schema())`,
    [tables, schema],
  )) as { rows: { relname: string; reloptions: string[] | null }[] };
  return rows;
};

/** Tells PostgreSQL to fill the table's new pages to `percent`. */
export const setFillFactor = async (strapi: Core.Strapi, table: string, percent: number): Promise<void> => {
  await strapi.db.connection.raw(`ALTER TABLE ${qualifiedTable(strapi, table)} SET (fillfactor = ${percent})`);
};
