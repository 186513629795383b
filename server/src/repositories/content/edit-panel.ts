/** The SQL of the Content Manager side panel (services/content/edit-panel.ts): one statement per panel. */
import type { Core, UID } from '@strapi/strapi';
import { commentIdsOfArticle, commentSchema, type RawRow } from '../comments/tables';
import { tableOf } from '../../utils/columns';

export interface EditPanelRow {
  views: number;
  publishedSlug: string | null;
  comments: { pending: number; approved: number; rejected: number } | null;
}

/**
 * One locale version of a document: its views (the highest of its rows), the published row's slug, and for articles
 * the document's comments by status as scalar subqueries of the same statement. Null when the version has no row.
 */
export const editPanelFigures = async (
  strapi: Core.Strapi,
  uid: UID.ContentType,
  documentId: string,
  locale: string,
  withComments: boolean
): Promise<EditPanelRow | null> => {
  const knex = strapi.db.connection;
  const { table, column } = tableOf(strapi, uid);
  const query = knex(`${table} as r`)
    .where(`r.${column('documentId')}`, documentId)
    .where(`r.${column('locale')}`, locale)
    .select(knex.raw('count(*) as ??', ['versions']))
    .select(knex.raw('max(r.??) as ??', [column('views'), 'views']))
    .select(knex.raw('max(CASE WHEN r.?? IS NOT NULL THEN r.?? END) as ??', [column('publishedAt'), column('slug'), 'publishedSlug']));
  if (withComments) {
    const s = commentSchema(strapi);
    for (const status of ['pending', 'approved', 'rejected'] as const) {
      const count = knex(`${s.comments} as c`)
        .count('*')
        .whereIn('c.id', commentIdsOfArticle(strapi, documentId))
        .where(`c.${s.commentColumn('status')}`, status);
      query.select(knex.raw('(?) as ??', [count, status]));
    }
  }
  const [row]: RawRow[] = await query;
  if (!row || Number(row.versions) === 0) return null;
  return {
    views: Number(row.views ?? 0),
    publishedSlug: row.publishedSlug == null ? null : String(row.publishedSlug),
    comments: withComments ? { pending: Number(row.pending), approved: Number(row.approved), rejected: Number(row.rejected) } : null,
  };
};
