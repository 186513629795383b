/** Visible comment counts for many articles at once (part of the `comment-threads` service). */
import type { Core } from '@strapi/strapi';
import type { Identifier } from './comment-vocabulary';
import { visibleCountRows } from './counts.data';

export const counts = (strapi: Core.Strapi) => ({
    /**
     * Visible comments (approved and not deleted, every ancestor approved) per published
     * article, in ONE statement (features/comments/counts.data.ts). Keys are the ids as given; an unknown or
     * unpublished article counts 0.
     */
    async counts(articles: { key: string; id: Identifier }[]): Promise<Record<string, number>> {
      const documentIds = articles.flatMap(({ id }) => (typeof id === 'string' ? [id] : []));
      const numericIds = articles.flatMap(({ id }) => (typeof id === 'number' ? [id] : []));
      // A string names a documentId or a slug (docs/readers.md#comment-counts): both are looked up.
      const rows = await visibleCountRows(strapi, documentIds, numericIds, documentIds);
      const byDocument = new Map<string, number>();
      const bySlug = new Map<string, number>();
      const byRow = new Map<number, number>();
      for (const row of rows) {
        byDocument.set(String(row.document_id), Number(row.count));
        if (row.slug !== null && row.slug !== undefined) bySlug.set(String(row.slug), Math.max(bySlug.get(String(row.slug)) ?? 0, Number(row.count)));
        byRow.set(Number(row.id), Number(row.count));
      }
      const data: Record<string, number> = {};
      for (const { key, id } of articles) data[key] = (typeof id === 'number' ? byRow.get(id) : (byDocument.get(id) ?? bySlug.get(id))) ?? 0;
      return data;
    },
});
