/** View counters of articles and pages (document-middlewares/view-counts.ts keeps editors from overwriting them). */
import type { Core, UID } from '@strapi/strapi';
import { tableOf } from '../utils/columns';

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
