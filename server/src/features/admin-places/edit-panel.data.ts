/** The SQL of the Content Manager side panel (features/admin-places/edit-panel.service.ts): one statement per panel. */
import type { Core, UID } from '@strapi/strapi';
import { commentIdsOfArticle, commentSchema, type RawRow } from '../comments';
import { tableOf } from '../../platform/columns';

export interface EditPanelRow {
  views: number;
  publishedSlug: string | null;
  comments: { pending: number; approved: number; rejected: number } | null;
  /** Pinned roots that are still shown (approved, not deleted); articles only. */
  pinned: number | null;
}

/**
 * One locale version of a document: its views (the highest of its rows), the published row's slug, and for articles
 * the document's comments by status, in one statement (two one-row derived tables). Null when the version has no row.
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
  const versions = knex(`${table} as r`)
    .where(`r.${column('documentId')}`, documentId)
    .where(`r.${column('locale')}`, locale)
    .select(knex.raw('count(*) as ??', ['versions']))
    .select(knex.raw('max(r.??) as ??', [column('views'), 'views']))
    .select(knex.raw('max(CASE WHEN r.?? IS NOT NULL THEN r.?? END) as ??', [column('publishedAt'), column('slug'), 'publishedSlug']))
    .as('v');
  const query = knex.from(versions).select('v.*');
  if (withComments) {
    // One pass over the article's comments, counted by status (a comment links to several rows of its article, so
    // the ids are taken once through IN rather than joined).
    const s = commentSchema(strapi);
    const status = `c.${s.commentColumn('status')}`;
    const byStatus = knex(`${s.comments} as c`).whereIn('c.id', commentIdsOfArticle(strapi, documentId));
    for (const name of ['pending', 'approved', 'rejected'] as const) {
      byStatus.select(knex.raw('coalesce(sum(CASE WHEN ?? = ? THEN 1 ELSE 0 END), 0) as ??', [status, name, name]));
    }
    byStatus.select(
      knex.raw('coalesce(sum(CASE WHEN ?? IS NOT NULL AND ?? = ? AND (?? IS NULL OR ?? = ?) THEN 1 ELSE 0 END), 0) as ??', [
        `c.${s.commentColumn('pinnedAt')}`,
        status,
        'approved',
        `c.${s.commentColumn('deleted')}`,
        `c.${s.commentColumn('deleted')}`,
        false,
        'pinned',
      ])
    );
    query.crossJoin(knex.raw('(?) as ??', [byStatus, 's'])).select('s.*');
  }
  const [row]: RawRow[] = await query;
  if (!row || Number(row.versions) === 0) return null;
  return {
    views: Number(row.views ?? 0),
    publishedSlug: row.publishedSlug == null ? null : String(row.publishedSlug),
    comments: withComments ? { pending: Number(row.pending), approved: Number(row.approved), rejected: Number(row.rejected) } : null,
    pinned: withComments ? Number(row.pinned) : null,
  };
};
