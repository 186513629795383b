/** Shortcuts for the like and report tests: one-comment threads, and the stored reaction and report rows. */
import type { Core } from '@strapi/strapi';
import { COMMENT, createArticle, seedComments } from './comments';
import { PLUGIN } from './strapi';

export const REACTION = `${PLUGIN}.comment-reaction`;
export const REPORT = `${PLUGIN}.comment-report`;

/** A published article with one comment of the given status (approved by default); returns both. */
export async function commentOnArticle(strapi: Core.Strapi, status: 'pending' | 'approved' | 'rejected' = 'approved') {
  const article = await createArticle(strapi);
  const [id] = await seedComments(strapi, article.documentId, [{ content: `comment ${status}`, status, parentIndex: null }]);
  const row = await strapi.db.query(COMMENT as never).findOne({ where: { id }, select: ['id', 'documentId'] });
  return { article, comment: { id, documentId: String(row.documentId) } };
}

/** The comment's stored counters, read from the database. */
export async function counters(strapi: Core.Strapi, id: number) {
  const row = await strapi.db.query(COMMENT as never).findOne({ where: { id }, select: ['likes', 'reportCount', 'status'] });
  return { likes: Number(row.likes), reportCount: Number(row.reportCount), status: String(row.status) };
}

export const reactionRows = (strapi: Core.Strapi, commentId: number) =>
  strapi.db.query(REACTION as never).findMany({ where: { comment: commentId } }) as Promise<Array<{ comment: number; voter: string }>>;

export const reportRows = (strapi: Core.Strapi, commentId: number) =>
  strapi.db.query(REPORT as never).findMany({ where: { comment: commentId } }) as Promise<
    Array<{ comment: number; voter: string; reason: string; details: string | null }>
  >;
