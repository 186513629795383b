/** `views` of article or page rows by id, for a cached list (middlewares/response-cache.ts): one SELECT. */
import type { Core } from '@strapi/strapi';
import { tableOf } from '../../utils/columns';

export const viewCounts = async (strapi: Core.Strapi, uid: string, ids: number[]): Promise<Map<number, number>> => {
  const { table, column } = tableOf(strapi, uid);
  const rows: Record<string, unknown>[] = await strapi.db
    .connection(table)
    .select({ id: 'id', views: column('views') })
    .whereIn('id', ids);
  return new Map(rows.map((row) => [Number(row.id), Number(row.views)]));
};
