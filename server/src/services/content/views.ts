/** View counters of articles and pages (document-middlewares/view-counts.ts keeps editors from overwriting them). */
import type { Core, UID } from '@strapi/strapi';
import { uid } from '../../domain/plugin-id';
import { MOST_READ_SIZE } from '../../domain/shapes/places';
import { addViews } from '../../repositories/content/views';
import { getService } from '../get-service';
import { viewBatches } from './view-batches';

const views = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Counts one read of the document on all its rows and returns the new count, null when the document has no row
   * (reads of one document in the same turn of the event loop share one write: view-batches.ts).
   */
  increment: viewBatches<UID.ContentType>((model, documentId, count) => addViews(strapi, model, documentId, count)),

  /**
   * The homepage widget "Most read": the articles of a locale with the most views, most first, in one Document
   * Service query on the draft rows (every document has one, published or not; views are kept on all its rows).
   */
  async mostRead(requestedLocale: string | undefined) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const rows = (await strapi.documents(uid('article')).findMany({
      locale,
      status: 'draft',
      fields: ['title', 'views'],
      sort: [{ views: 'desc' }, { id: 'asc' }],
      limit: MOST_READ_SIZE,
    } as never)) as unknown as { documentId: string; title: string; views: number | null }[];
    return {
      data: rows.map((row) => ({ documentId: row.documentId, title: row.title, views: Number(row.views ?? 0) })),
      meta: { locale },
    };
  },
});

export type ViewsService = ReturnType<typeof views>;
export default views;
