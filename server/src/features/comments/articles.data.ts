/** The article rows a comment route names (features/comments/articles.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const ARTICLE = uid('article');

/** The documentId of the article row `id` (draft or published, any locale). */
export const documentIdOfArticleRow = async (strapi: Core.Strapi, id: number): Promise<string | undefined> => {
  const row = await strapi.db.query(ARTICLE).findOne({ select: ['documentId'], where: { id } });
  return row?.documentId;
};

/** The document's first published row in any locale. */
export const firstPublishedRow = (strapi: Core.Strapi, documentId: string) =>
  strapi.db.query(ARTICLE).findOne({
    select: ['id', 'documentId', 'locale'],
    where: { documentId, publishedAt: { $notNull: true } },
    orderBy: { id: 'asc' },
  }) as Promise<{ id: number; documentId: string; locale: string } | null>;
