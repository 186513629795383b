/** Which rows a page of documents links through its relations and media fields: the link tables read by hand. */
import type { Core, UID } from '@strapi/strapi';

/**
 * One relation's link table as the host's metadata describes it: the owner's column, the target's column, the
 * column that orders a document's links (if any) and the fixed conditions of a shared table (a media field's name
 * and the owner's type in the upload plugin's morph table).
 */
export interface LinkTable {
  table: string;
  ownerColumn: string;
  targetColumn: string;
  orderColumn?: string;
  where?: Record<string, string>;
}

/** Owners one statement reads: its bound parameters stay under SQLite's limit (32,766) for any number of relations. */
const OWNER_CHUNK = 2_000;

interface LinkRow {
  rel: number | string;
  owner: number | string;
  target: number | string;
  ord: number | string | null;
  lid: number | string;
}

/**
 * For each link table (by its index in `tables`), each owner row's linked target row ids in link order (the order
 * column ascending, then the link's own id), read in one `UNION ALL` statement for all the tables (per 2,000 owners).
 * Each part starts from the link table's owner column, which the host indexes.
 */
export const readLinks = async (strapi: Core.Strapi, tables: LinkTable[], ownerIds: number[]): Promise<Map<number, number[]>[]> => {
  const links = tables.map(() => new Map<number, number[]>());
  if (tables.length === 0 || ownerIds.length === 0) return links;
  const knex = strapi.db.connection;
  const rows: LinkRow[] = [];
  const perStatement = Math.max(1, Math.floor(OWNER_CHUNK / tables.length));
  for (let at = 0; at < ownerIds.length; at += perStatement) {
    const owners = ownerIds.slice(at, at + perStatement);
    const parts = tables.map((link, index) => {
      const part = knex(link.table)
        .select({
          rel: knex.raw(String(index)),
          owner: link.ownerColumn,
          target: link.targetColumn,
          ord: link.orderColumn ? link.orderColumn : knex.raw('NULL'),
          lid: 'id',
        })
        .whereIn(link.ownerColumn, owners);
      for (const [column, value] of Object.entries(link.where ?? {})) part.where(column, value);
      return part;
    });
    const [first, ...rest] = parts;
    rows.push(...((rest.length ? await first.unionAll(rest) : await first) as LinkRow[]));
  }
  rows.sort((a, b) => Number(a.ord ?? 0) - Number(b.ord ?? 0) || Number(a.lid) - Number(b.lid));
  for (const row of rows) {
    const byOwner = links[Number(row.rel)];
    const owner = Number(row.owner);
    const list = byOwner.get(owner);
    if (list) list.push(Number(row.target));
    else byOwner.set(owner, [Number(row.target)]);
  }
  return links;
};

/** The rows of `target` (a content type or component) of these ids, with only the `select` columns when given. */
export const targetRows = (strapi: Core.Strapi, target: string, ids: number[], select: string[] | undefined) =>
  strapi.db.query(target as UID.Schema).findMany({ where: { id: { $in: ids } }, ...(select ? { select } : {}) }) as Promise<Record<string, unknown>[]>;
