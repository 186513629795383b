/** `views` of article or page rows by id, for a cached list (features/cache/response-cache.middleware.ts): one prepared SELECT. */
import type { Core } from '@strapi/strapi';
import { tableOf } from '../../platform/columns';
import { qualifiedTable, quoted, runPrepared } from '../../platform/prepared';

export const viewCounts = async (strapi: Core.Strapi, uid: string, ids: number[]): Promise<Map<number, number>> => {
  const { table, column } = tableOf(strapi, uid);
  // The ids as one parameter (a JSON array, a PostgreSQL array), so one statement serves every page size.
  const select = `SELECT id, ${quoted(column('views'))} AS views FROM ${qualifiedTable(strapi, table)} WHERE id`;
  const rows = await runPrepared(
    strapi,
    { sqlite: `${select} IN (SELECT value FROM json_each(?))`, postgres: `${select} = ANY($1::int[])` },
    [strapi.db.dialect.client === 'postgres' ? ids : JSON.stringify(ids)],
  );
  return new Map(rows.map((row) => [Number(row.id), Number(row.views)]));
};
