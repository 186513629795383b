/** View counters of articles and pages (document-middlewares/view-counts.ts keeps editors from overwriting them). */
import type { Core, UID } from '@strapi/strapi';
import { incrementViews } from '../../repositories/content/views';

const views = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Counts one read of the document on all its rows and returns the new count, null when the document has no row. */
  increment: (uid: UID.ContentType, documentId: string): Promise<number | null> => incrementViews(strapi, uid, documentId),
});

export type ViewsService = ReturnType<typeof views>;
export default views;
