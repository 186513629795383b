/** Visible comment counts for many articles at once (part of the `comment-threads` service). */
import type { Core } from '@strapi/strapi';
import type { Identifier } from './comment-vocabulary';
import { visibleCountRows } from './counts.data';

export const counts = (strapi: Core.Strapi) => ({
    /**
     * Visible comments (approved, every ancestor approved: what the full tree's meta.total counts) per published
     * article, in ONE statement (features/comments/counts.data.ts). Keys are the ids as given; an unknown or
     * unpublished article counts 0.
     */
    async counts(articles: { key: string; id: Identifier }[]): Promise<Record<string, number>> {
      const documentIds = articles.flatMap(({ id }) => (typeof id === 'string' ? [id] : []));
      const numericIds = articles.flatMap(({ id }) => (typeof id === 'number' ? [id] : []));
      const rows = await visibleCountRows(strapi, documentIds, numericIds);
      const byDocument = new Map<string, number>();
      const byRow = new Map<number, number>();
      for (const row of rows) {
        byDocument.set(String(row.document_id), Number(row.count));
        byRow.set(Number(row.id), Number(row.count));
      }
      const data: Record<string, number> = {};
      for (const { key, id } of articles) data[key] = (typeof id === 'number' ? byRow.get(id) : byDocument.get(id)) ?? 0;
      return data;
    },
});
