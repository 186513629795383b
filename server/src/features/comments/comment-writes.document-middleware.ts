/**
 * What every write of a comment gets, however it is made through the Document Service (this plugin's routes, the
 * Content Manager, GraphQL, another plugin's code): one rule per function, in the order document-middlewares/index.ts
 * runs them, each around the next. A call about another content type goes through untouched.
 */
import { AsyncLocalStorage } from 'async_hooks';
import type { Core, Modules } from '@strapi/strapi';
import type { CommentStatus } from './comment-vocabulary';
import { clientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { uid } from '../../platform/plugin-id';
import { rowIdsOf } from './bookkeeping.data';
import { mayNotModerate, permittedCommentStatus } from './content-manager-comment-status.middleware';
import { renderCommentMarkdown } from './markdown';

type Middleware = Modules.Documents.Middleware.Middleware;
type Context = Parameters<Middleware>[0];
type Params = { documentId?: string; data?: Record<string, unknown> };

const COMMENT = uid('comment');

const quiet = new AsyncLocalStorage<boolean>();

/**
 * Runs `write` with no notification mail and no webhook event for the comments it writes: comments moved in from
 * another system were written and read long ago (docs/import.md).
 */
export const quietCommentWrites = <T>(write: () => Promise<T>): Promise<T> => quiet.run(true, write);

/** The call's parameters when it is about comments, else undefined (the rule lets it through untouched). */
const commentParams = (context: Context): Params | undefined =>
  context.uid === COMMENT ? (context.params as Params) : undefined;

/**
 * A moderation status sent through the Content Manager is saved if the admin's role may write it (see
 * content-manager-comment-status.middleware.ts, which takes it out of the request body first). Approving and the
 * site's badge are moderation: a comment an administrator without *Moderate comments* creates, clones or updates is
 * stored `pending` with `isAdmin` false, whatever the role's field permissions (docs/comments.md#choices-request-data-the-content-manager-deletion).
 */
export const commentStatus =
  (strapi: Core.Strapi): Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params || (context.action !== 'create' && context.action !== 'update' && context.action !== 'clone')) return next();
    const request = strapi.requestContext.get();
    if (params.data && context.action !== 'clone') {
      const moderationStatus = await permittedCommentStatus(strapi, request, context.action, params.documentId);
      if (moderationStatus) params.data.status = moderationStatus;
    }
    if (mayNotModerate(request)) params.data = { ...params.data, status: 'pending', isAdmin: false };
    return next();
  };

/**
 * A comment created during an HTTP request gets that request's client IP and User-Agent (whatever the data said),
 * and an update never changes them: they record the submission. Outside a request (seed scripts, migrations) the
 * data is stored as given.
 */
export const commentClientInfo =
  (strapi: Core.Strapi): Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params?.data) return next();
    const request = strapi.requestContext.get();
    if (request && context.action === 'create') {
      Object.assign(params.data, clientInfo(request));
    } else if (request && context.action === 'update') {
      delete params.data.ip;
      delete params.data.userAgent;
    }
    return next();
  };

/**
 * A comment's `contentHtml` is rendered once, whenever its `content` is written, so reads never run the renderer; a
 * value sent for it is never kept.
 */
export const commentMarkdown =
  (): Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (params?.data && (context.action === 'create' || context.action === 'update')) {
      delete params.data.contentHtml;
      if (typeof params.data.content === 'string') params.data.contentHtml = renderCommentMarkdown(params.data.content);
    }
    return next();
  };

/** Likes and reports are rows keyed by comment id (no relation), so they go explicitly with their comments. */
export const forgetFeedback = async (strapi: Core.Strapi, commentIds: number[]) => {
  await getService(strapi, 'comment-reactions').deleteForComments(commentIds);
  await getService(strapi, 'comment-reports').deleteForComments(commentIds);
};

/**
 * Deleting a comment moves its replies up to its parent (or makes them roots), so no one else's text is lost, and
 * deletes its likes and reports.
 */
export const commentDelete =
  (strapi: Core.Strapi): Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params?.documentId || context.action !== 'delete') return next();
    await getService(strapi, 'comments').reparentChildren(params.documentId);
    const ids = await rowIdsOf(strapi, params.documentId);
    const result = await next();
    await forgetFeedback(strapi, ids);
    return result;
  };

/**
 * A comment written approved or pending starts its e-mail notifications (notifications/), and an update approving it
 * notifies the parent's author. A document delete has nothing to notify.
 */
export const commentNotifications =
  (strapi: Core.Strapi): Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params || (context.action === 'delete' && params.documentId) || quiet.getStore()) return next();
    const notify = await getService(strapi, 'comment-notifications').beforeWrite(context.action, params);
    const result = await next();
    notify(result);
    return result;
  };

const EVENT_STATUSES: readonly unknown[] = ['approved', 'rejected'];

/**
 * Comment webhooks and follower mails (events.ts): created, moved to approved or rejected by an update, or deleted
 * (its payload is read before the row goes).
 */
export const commentEvents =
  (strapi: Core.Strapi): Middleware =>
  async (context, next) => {
    const params = commentParams(context);
    if (!params || quiet.getStore()) return next();
    const events = getService(strapi, 'comment-events');
    if (context.action === 'delete') {
      if (!params.documentId) return next();
      const emit = await events.beforeDelete([params.documentId]);
      const result = await next();
      emit();
      return result;
    }
    const status = params.data?.status;
    const changing =
      context.action === 'update' && params.documentId && EVENT_STATUSES.includes(status)
        ? await events.notYet([params.documentId], status as CommentStatus)
        : [];
    const result = await next();
    const written = (result ?? {}) as { documentId?: unknown; status?: unknown };
    if (context.action === 'create' && typeof written.documentId === 'string') {
      events.created(written.documentId, written.status as CommentStatus);
    } else if (context.action === 'update' && changing.length > 0 && written.status === status) {
      events.statusChanged(changing, status as CommentStatus);
    }
    return result;
  };
