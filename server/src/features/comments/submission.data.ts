/** What a comment's submission reads (features/comments/submission.ts). */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const COMMENT = uid('comment');

/** The comment row `id` with its article's documentId (the relation links several rows of one document: any gives it). */
export const commentWithArticle = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(COMMENT).findOne({
    select: ['id', 'documentId'],
    where: { id },
    populate: { article: { select: ['documentId'] } },
  }) as Promise<{ id: number; documentId: string; article?: { documentId: string } | null } | null>;
