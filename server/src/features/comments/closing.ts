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
import { articleExists, closedFlagOf, createThreadFlag, earliestOfArticle, updateClosedFlag } from './closing.data';

const ARTICLE = uid('article');

export const closing = (strapi: Core.Strapi) => {
  const part = {
    /** Closed by an administrator. */
    async closedByAdmin(articleDocumentId: string): Promise<boolean> {
      return closedFlagOf(strapi, articleDocumentId);
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
      const first = await earliestOfArticle(strapi, articleDocumentId, field);
      if (!first) return false;
      return getService(strapi, 'clock').now() - new Date(first as string | number | Date).getTime() > closeAfter * 1000;
    },

    /** 403 `Comments are closed for this article` on a closed thread. */
    async assertOpen(articleDocumentId: string, config: PluginConfig): Promise<void> {
      if (await part.isClosed(articleDocumentId, config)) throw forbidden('Comments are closed for this article');
    },

    /** Closes or reopens an article document's thread (any of its rows, any status, may be named). */
    async setClosed(articleDocumentId: string, closed: boolean): Promise<{ documentId: string; closed: boolean }> {
      if (!(await articleExists(strapi, articleDocumentId))) throw new errors.NotFoundError('Article not found');
      if ((await updateClosedFlag(strapi, articleDocumentId, closed)) === 0) {
        try {
          await createThreadFlag(strapi, articleDocumentId, closed);
        } catch (error) {
          // The unique article: a concurrent first close created the row first; this call's state is written over it.
          if ((await updateClosedFlag(strapi, articleDocumentId, closed)) === 0) throw error;
        }
      }
      return { documentId: articleDocumentId, closed };
    },
  };
  return part;
};
