/** Table and column names of a model from Strapi's metadata, for the few queries written by hand. */
import type { Core } from '@strapi/strapi';

export const tableOf = (strapi: Core.Strapi, uid: string) => {
  const meta = strapi.db.metadata.get(uid);
  return {
    table: meta.tableName,
    column: (attribute: string) => (meta.attributes[attribute] as { columnName?: string } | undefined)?.columnName ?? attribute,
  };
};
