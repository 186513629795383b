/** View counters of articles and pages (document-middlewares/view-counts.ts keeps editors from overwriting them). */
import type { Core, UID } from '@strapi/strapi';
import { tableOf } from '../../utils/columns';

const views = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Adds one view to every row of the document (draft and published of every locale, so a later publish, which
   * copies the draft over the published row, keeps the count) and returns the new count: the highest of the rows (one
   * counter per document; a locale added later starts lower), null when the document has no row.
   */
  async increment(uid: UID.ContentType, documentId: string): Promise<number | null> {
    const { table, column } = tableOf(strapi, uid);
    const viewsColumn = column('views');
    const knex = strapi.db.connection;
    // The Document Service can only read-then-write; one UPDATE … SET views = views + 1 is atomic under concurrency.
    let rows: Record<string, unknown>[];
    if (strapi.db.dialect.client === 'postgres') {
      // The document's rows locked in id order first (FOR UPDATE … ORDER BY id): concurrent reads of one document
      // queue on its first row instead of deadlocking (a plain UPDATE of several rows can visit them in different
      // orders as their versions move, and PostgreSQL then aborts one after deadlock_timeout).
      const schema = strapi.db.getSchemaName();
      const qualified = schema ? `${schema}.${table}` : table;
      const result = await knex.raw(
        'UPDATE ?? SET ?? = ?? + 1 WHERE id IN (SELECT id FROM ?? WHERE ?? = ? ORDER BY id FOR UPDATE) RETURNING ??',
        [qualified, viewsColumn, viewsColumn, qualified, column('documentId'), documentId, viewsColumn],
      );
      rows = result.rows;
    } else {
      rows = await knex(table).where(column('documentId'), documentId).increment(viewsColumn, 1).returning([viewsColumn]);
    }
    if (rows.length === 0) return null;
    return Math.max(...rows.map((row) => Number(row[viewsColumn])));
  },
});

export type ViewsService = ReturnType<typeof views>;
export default views;
