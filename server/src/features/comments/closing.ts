/**
 * Whether an article's thread takes new comments: closed by an administrator (the internal `comment-thread` type),
 * or by `comments.closeAfter` for articles first published longer ago (`firstPublishedAt` when the host keeps it,
 * else the document's creation, which precedes its first publication).
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { forbidden } from '../../platform/errors';
import { uid } from '../../platform/plugin-id';
import { getService } from '../../platform/get-service';

const THREAD = uid('comment-thread');
const ARTICLE = uid('article');

export const closing = (strapi: Core.Strapi) => {
  const part = {
    /** Closed by an administrator. */
    async closedByAdmin(articleDocumentId: string): Promise<boolean> {
      const row = await strapi.db.query(THREAD).findOne({ select: ['closed'], where: { article: articleDocumentId } });
      return Boolean(row?.closed);
    },

    /**
     * Closed by an administrator or by `closeAfter`. `closedByAdmin`: the administrator's flag when the caller read it
     * in its own statement (the thread pages do), else it is read here.
     */
    async isClosed(articleDocumentId: string, config: PluginConfig, closedByAdmin?: boolean): Promise<boolean> {
      if (closedByAdmin ?? (await part.closedByAdmin(articleDocumentId))) return true;
      const closeAfter = config.comments.closeAfter;
      if (!closeAfter) return false;
      const hasFirstPublished = Boolean(strapi.getModel(ARTICLE).attributes.firstPublishedAt);
      const field = hasFirstPublished ? 'firstPublishedAt' : 'createdAt';
      const row = await strapi.db.query(ARTICLE).findOne({
        select: [field],
        where: { documentId: articleDocumentId, [field]: { $notNull: true } },
        orderBy: { [field]: 'asc' },
      });
      if (!row?.[field]) return false;
      return getService(strapi, 'clock').now() - new Date(row[field]).getTime() > closeAfter * 1000;
    },

    /** 403 `Comments are closed for this article` on a closed thread. */
    async assertOpen(articleDocumentId: string, config: PluginConfig): Promise<void> {
      if (await part.isClosed(articleDocumentId, config)) throw forbidden('Comments are closed for this article');
    },

    /** Closes or reopens an article document's thread (any of its rows, any status, may be named). */
    async setClosed(articleDocumentId: string, closed: boolean): Promise<{ documentId: string; closed: boolean }> {
      const article = await strapi.db.query(ARTICLE).findOne({ select: ['documentId'], where: { documentId: articleDocumentId } });
      if (!article) throw new errors.NotFoundError('Article not found');
      const { count } = await strapi.db.query(THREAD).updateMany({ where: { article: articleDocumentId }, data: { closed } });
      if (count === 0) {
        try {
          await strapi.db.query(THREAD).create({ data: { article: articleDocumentId, closed } });
        } catch (error) {
          // The unique article: a concurrent first close created the row first; this call's state is written over it.
          const { count: updated } = await strapi.db.query(THREAD).updateMany({ where: { article: articleDocumentId }, data: { closed } });
          if (updated === 0) throw error;
        }
      }
      return { documentId: articleDocumentId, closed };
    },
  };
  return part;
};
