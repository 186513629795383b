/** Menu test shortcuts: many menu items inserted in bulk, as a chain or as roots. */
import type { Core } from '@strapi/strapi';
import { PLUGIN } from './strapi';

const ITEM = `${PLUGIN}.menu-item`;

interface JoinTable {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

/**
 * Inserts `count` items in one menu (its row: one locale version) through knex (the Document Service would take minutes for 10,000), item i the
 * child of item i-1 (a chain) or all roots. Returns their ids in order.
 */
export async function insertMenuItems(
  strapi: Core.Strapi,
  menuDoc: { id: number },
  prefix: string,
  count: number,
  chain: boolean,
  /** The items' locale, that of the menu row; the host's default by default. */
  itemLocale?: string
) {
  const knex = strapi.db.connection;
  const meta = strapi.db.metadata.get(ITEM as never) as unknown as {
    tableName: string;
    attributes: Record<string, { joinTable?: JoinTable }>;
  };
  const now = new Date();
  // Written as the Document Service writes a localized type's rows: in the host's default locale.
  const locale: string = itemLocale ?? (await strapi.plugin('i18n').service('locales').getDefaultLocale());
  const rows = Array.from({ length: count }, (_, i) => ({
    document_id: `${prefix}${i}`.padEnd(24, 'x'),
    title: `${prefix}${i}`,
    url: `/${prefix}/${i}`,
    target: '_self',
    is_hot: false,
    order: 0,
    created_at: now,
    updated_at: now,
    published_at: now,
    locale,
  }));
  await knex.batchInsert(meta.tableName, rows, 500);
  const ids: number[] = (await knex(meta.tableName).select('id').where('title', 'like', `${prefix}%`).orderBy('id', 'asc')).map(
    (row: { id: number }) => row.id
  );
  const link = (name: string, pairs: [number, number][]) => {
    const table = meta.attributes[name].joinTable!;
    const linkRows = pairs.map(([from, to]) => ({ [table.joinColumn.name]: from, [table.inverseJoinColumn.name]: to }));
    return knex.batchInsert(table.name, linkRows, 500);
  };
  await link('menu', ids.map((id) => [id, menuDoc.id]));
  if (chain) await link('parent', ids.slice(1).map((id, i) => [id, ids[i]]));
  return ids;
}
