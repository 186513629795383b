/** The published versions of an article, as a newsletter mail and the first-publication check read them. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const ARTICLE = uid('article');

export interface PublishedArticle {
  documentId: string;
  locale: string;
  slug: string;
  title: string;
  summary: string | null;
  content: string | null;
  cover: { url: string } | null;
  category: { documentId: string } | null;
}

/** Every published locale of the article (none: not published, or no such article). */
export const publishedVersions = (strapi: Core.Strapi, documentId: string): Promise<PublishedArticle[]> =>
  strapi.db.query(ARTICLE).findMany({
    where: { documentId, publishedAt: { $notNull: true } },
    select: ['documentId', 'locale', 'slug', 'title', 'summary', 'content'],
    populate: { cover: { select: ['url'] }, category: { select: ['documentId'] } },
  }) as Promise<PublishedArticle[]>;

/** How many published rows the article has (0 before its first publication). */
export const countPublished = (strapi: Core.Strapi, documentId: string): Promise<number> =>
  strapi.db.query(ARTICLE).count({ where: { documentId, publishedAt: { $notNull: true } } });

/** Whether any row of the article exists (draft or published). */
export const articleExists = async (strapi: Core.Strapi, documentId: string): Promise<boolean> =>
  (await strapi.db.query(ARTICLE).count({ where: { documentId } })) > 0;
