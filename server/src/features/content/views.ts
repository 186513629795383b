/** View counters of articles and pages (features/content/view-counts.document-middleware.ts keeps editors from overwriting them). */
import type { Core, UID } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { MOST_READ_SIZE } from '../admin-places';
import { addViews } from './views.data';
import type { PermissionChecker } from '../../platform/permission-checker';
import { getService } from '../../platform/get-service';
import { viewBatches } from './view-batches';

const views = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Counts one read of the document on all its rows and returns the new count, null when the document has no row
   * (reads of one document in the same turn of the event loop share one write: view-batches.ts).
   */
  increment: viewBatches<UID.ContentType>((model, documentId, count) => addViews(strapi, model, documentId, count)),

  /**
   * The homepage widget "Most read": the published articles of a locale with the most views, most first, in one
   * Document Service query through the admin's Content Manager permissions (conditions, locales and fields, as its
   * own "Last edited entries" does): a draft's title never shows, nor an article the role may not read. A title
   * the role may not read shows as the documentId, as the host's widgets do.
   */
  async mostRead(requestedLocale: string | undefined, checker: PermissionChecker) {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    const query = await checker.sanitizedQuery.read({
      locale,
      status: 'published',
      fields: ['title', 'views'],
      sort: [{ views: 'desc' }, { id: 'asc' }],
      limit: MOST_READ_SIZE,
    });
    const rows = (await strapi.documents(uid('article')).findMany(query as never)) as unknown as { documentId: string; title?: string; views?: number | null }[];
    return {
      data: rows.map((row) => ({ documentId: row.documentId, title: row.title ?? row.documentId, views: Number(row.views ?? 0) })),
      meta: { locale },
    };
  },
});

export type ViewsService = ReturnType<typeof views>;
export default views;
