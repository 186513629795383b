/** View counters of articles and pages. */
import type { Core, Modules, UID } from '@strapi/strapi';
import { tableOf } from '../utils/columns';

const COUNTED = new Set<string>(['plugin::cms-plugin-bag.article', 'plugin::cms-plugin-bag.page']);

/**
 * Document Service middleware: `views` is written by reads only. The Content Manager saves the whole form, with
 * `views` as it was when the editor opened it, and publishing copies the draft over the published row, so an
 * editor's save would otherwise undo every read counted while the form was open.
 */
export const keepViewCounts: Modules.Documents.Middleware.Middleware = async (context, next) => {
  const params = context.params as { data?: Record<string, unknown> };
  if (context.action === 'update' && COUNTED.has(context.uid) && params.data && 'views' in params.data) {
    const { views: _ignored, ...data } = params.data;
    context.params = { ...params, data } as typeof context.params;
  }
  return next();
};

const views = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Adds one view to every row of the document (draft and published, so a later publish, which copies the draft
   * over the published row, keeps the count) and returns the published row's new count.
   */
  async increment(uid: UID.ContentType, documentId: string): Promise<number | null> {
    const { table, column } = tableOf(strapi, uid);
    const viewsColumn = column('views');
    const publishedColumn = column('publishedAt');
    // The Document Service can only read-then-write; one UPDATE … SET views = views + 1 is atomic under concurrency.
    const rows: Record<string, unknown>[] = await strapi.db
      .connection(table)
      .where(column('documentId'), documentId)
      .increment(viewsColumn, 1)
      .returning([viewsColumn, publishedColumn]);
    const published = rows.find((row) => row[publishedColumn] !== null && row[publishedColumn] !== undefined) ?? rows[0];
    return published ? Number(published[viewsColumn]) : null;
  },
});

export type ViewsService = ReturnType<typeof views>;
export default views;
