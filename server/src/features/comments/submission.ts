/**
 * `POST /api/bag/comments` and GraphQL `bagCreateComment`: a checked body becomes a stored comment. Half of what
 * happens to it runs in the Document Service middlewares (document-middlewares/): the moderation status from the
 * Content Manager (comment-status.ts), the client's IP and User-Agent (comment-client-info.ts) and the e-mail
 * notifications (comment-notifications.ts); their module comment lists the rest.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import type { CommentInput, CommentStatus, Identifier } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { toIso } from '../../platform/time';
import { findVisibleComment } from './tables.data';
import { forbidden } from '../../platform/errors';
import { findPublishedArticle } from './articles';
import { admission } from './admission';
import { closing } from './closing';
import { getService } from '../../platform/get-service';
import type { z } from 'zod/v4';
import type { createdComment } from './comments.shapes';
import { commentWithArticle } from './submission.data';

const COMMENT = uid('comment');

export type CreatedComment = z.infer<typeof createdComment>;

const sameUser = (user: { id: number; documentId: string }, identifier: Identifier) =>
  typeof identifier === 'number' ? identifier === user.id : identifier === user.documentId;

export const submission = (strapi: Core.Strapi) => {
  const part = {
    /**
     * A comment of the given article that the public tree shows (features/comments/visibility.ts), else 400
     * `Parent comment not found`, so a reply cannot confirm that a hidden comment exists.
     */
    async findApprovedParent(identifier: Identifier, articleDocumentId: string) {
      const notFound = () => new errors.ValidationError('Parent comment not found');
      const visible = await findVisibleComment(strapi, identifier);
      if (!visible) throw notFound();
      const parent = await commentWithArticle(strapi, visible.id);
      if (!parent || parent.article?.documentId !== articleDocumentId) throw notFound();
      return { id: parent.id, documentId: parent.documentId };
    },

    /**
     * A checked body (features/comments/comments.shapes.ts commentBodyFor) submitted under the current settings. `user` is the token's user (null
     * for a guest); the flood limit is the caller's (a route or resolver middleware), as it counts requests.
     */
    async submit(input: CommentInput, user: { id: number; documentId: string } | null, config: PluginConfig): Promise<CreatedComment> {
      if (input.author !== undefined && (!user || !sameUser(user, input.author))) {
        throw forbidden('Cannot comment on behalf of another user');
      }
      const article = await findPublishedArticle(strapi, input.article);
      await closing(strapi).assertOpen(article.documentId, config);
      const parent = input.parent === undefined ? null : await part.findApprovedParent(input.parent, article.documentId);
      const status = await admission(strapi).statusFor(input.content, user?.id ?? null, config);
      // The Document Service middlewares run around this create (see the module comment).
      const created = await strapi.documents(COMMENT).create({
        data: {
          content: input.content,
          status,
          isAdmin: false,
          // A document without a default-locale version is linked in the locale it has (the host's relation
          // lookup would otherwise look for the default locale's version).
          article: (article.locale === undefined ? article.documentId : { documentId: article.documentId, locale: article.locale }) as never,
          parent: parent?.documentId ?? null,
          author: user?.documentId ?? null,
        },
      });
      return {
        id: created.id as number,
        documentId: created.documentId,
        content: created.content as string,
        status: created.status as CommentStatus,
        createdAt: toIso(created.createdAt),
        isAdmin: Boolean(created.isAdmin),
        parent,
        article: { id: article.id, documentId: article.documentId },
      };
    },
  };
  return part;
};
