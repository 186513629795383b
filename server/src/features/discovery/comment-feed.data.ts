/** The article rows the comment feed reads (features/discovery/comment-feed.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const ARTICLE = uid('article');

/** The article row `id` (draft or published, any locale): its documentId. */
export const articleRowById = (strapi: Core.Strapi, id: number | undefined) =>
  strapi.db.query(ARTICLE).findOne({ select: ['documentId'], where: { id } }) as Promise<{ documentId: string }>;

/** The document's first published row in any locale: its title, slug and locale. */
export const firstPublishedArticle = (strapi: Core.Strapi, documentId: string) =>
  strapi.db.query(ARTICLE).findOne({
    select: ['title', 'slug', 'locale'],
    where: { documentId, publishedAt: { $notNull: true } },
    orderBy: { id: 'asc' },
  }) as Promise<{ title: string; slug: string; locale: string } | null>;
