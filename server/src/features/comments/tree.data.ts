/** The SQL of an article's whole approved tree (features/comments/tree.ts): its shape, then the shown comments' nodes. */
import type { Core } from '@strapi/strapi';
import { commentSchema, publicNodeColumns, type RawRow } from './tables.data';

/** Of the comments `ids` (of one article), the ones still there, every status: `id`, `status`, `parentId`. */
export const treeShapeRows = async (strapi: Core.Strapi, ids: number[]): Promise<RawRow[]> => {
  const knex = strapi.db.connection;
  const s = commentSchema(strapi);
  return knex(`${s.comments} as c`)
    .leftJoin(`${s.parentLink.table} as p`, `p.${s.parentLink.comment}`, 'c.id')
    .whereIn('c.id', ids)
    .select({ id: 'c.id', status: `c.${s.commentColumn('status')}`, parentId: `p.${s.parentLink.target}` });
};

/** The public node columns of those of `ids` that are approved (a comment rejected or deleted since is left out). */
export const approvedNodeRows = async (strapi: Core.Strapi, ids: number[]): Promise<RawRow[]> => {
  const knex = strapi.db.connection;
  const s = commentSchema(strapi);
  return knex(`${s.comments} as c`)
    .leftJoin(`${s.authorLink.table} as al`, `al.${s.authorLink.comment}`, 'c.id')
    .leftJoin(`${s.users} as u`, 'u.id', `al.${s.authorLink.target}`)
    .whereIn('c.id', ids)
    // Re-checked: a comment rejected or deleted since the shape was read is not shown.
    .where(`c.${s.commentColumn('status')}`, 'approved')
    .select(publicNodeColumns(s));
};
