/** View counters of articles and pages (features/content/view-counts.document-middleware.ts keeps editors from overwriting them). */
import type { Core, UID } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import { MOST_READ_SIZE } from '../admin-places';
import { addViews, currentViews } from './views.data';
import type { PermissionChecker } from '../../platform/permission-checker';
import { getService } from '../../platform/get-service';
import { viewBatches } from './view-batches';

const KIND: Record<string, 'article' | 'page'> = { [uid('article')]: 'article', [uid('page')]: 'page' };

/** The UTC day of `ms`, as the daily counts name it (`YYYY-MM-DD`). */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const views = ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * Counts one read of the document on all its rows and returns the new count, null when the document has no row
   * (reads of one document in the same turn of the event loop share one write: view-batches.ts).
   */
  increment: viewBatches<UID.ContentType>(async (model, documentId, count, locales) => {
    const total = await addViews(strapi, model, documentId, count, { kind: KIND[model] ?? 'article', day: dayOf(getService(strapi, 'clock').now()), locales });
    // Popular articles follow the counts within a minute (features/readers).
    if (total !== null) getService(strapi, 'readers').viewsCounted();
    return total;
  }),

  /** The document's count without counting this read (a crawler's: docs/readers.md#what-counts). */
  current: (model: UID.ContentType, documentId: string) => currentViews(strapi, model, documentId),

  /**
   * The homepage widget "Most read": the published articles of a locale with the most views, most first, in one
   * Document Service query through the admin's Content Manager permissions (conditions, locales and fields, as its
   * own "Last edited entries" does): a draft's title never shows, nor an article the role may not read. A title
   * the role may not read shows as the documentId, as the host's widgets do.
   */
  async mostRead(requestedLocale: string | undefined, checker: PermissionChecker, period?: '1d' | '7d' | '30d') {
    const { locale } = await getService(strapi, 'locales').resolve(requestedLocale);
    // With `period`: the articles read most in the last days (features/readers, the daily counts), then as below.
    const ranked = period ? await getService(strapi, 'readers').ranking(period, locale, MOST_READ_SIZE * 3) : undefined;
    const query = await checker.sanitizedQuery.read({
      locale,
      status: 'published',
      fields: ['title', 'views'],
      ...(ranked ? { filters: { documentId: { $in: ranked.map((row) => row.documentId) } } } : { sort: [{ views: 'desc' }, { id: 'asc' }], limit: MOST_READ_SIZE }),
    });
    let rows = (await strapi.documents(uid('article')).findMany(query as never)) as unknown as { documentId: string; title?: string; views?: number | null }[];
    if (ranked) {
      const byDocument = new Map(rows.map((row) => [row.documentId, row]));
      rows = ranked.flatMap((row) => { const found = byDocument.get(row.documentId); return found ? [{ ...found, views: row.score }] : []; }).slice(0, MOST_READ_SIZE);
    }
    return {
      data: rows.map((row) => ({ documentId: row.documentId, title: row.title ?? row.documentId, views: Number(row.views ?? 0) })),
      meta: { locale, ...(period ? { period } : {}) },
    };
  },
});

export type ViewsService = ReturnType<typeof views>;
export default views;
