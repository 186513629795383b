/** The moderation page: the list, status changes, replies as the site, and pins. */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { AdminListQuery, CommentStatus } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { toIso } from '../../platform/time';
import {
  adminComment,
  adminComments,
  adminListPage,
  pendingQueue,
  pinTarget,
  replyParent,
  setPinnedAt,
  updateStatuses,
  type StoredComment,
} from './moderation.data';
import { closedAmong } from './closing.data';
import { MODERATION_QUEUE_SIZE } from '../admin-places';
import { getService } from '../../platform/get-service';
import type { ModerationReport } from './reports';
import type { z } from 'zod/v4';
import type { moderatedComment } from './admin-comments.shapes';

const COMMENT = uid('comment');

export type AdminComment = z.infer<typeof moderatedComment>;

const toAdminComment = (row: StoredComment, showEmail: boolean, reports: ModerationReport[] = [], closed = new Set<string>()): AdminComment => ({
  id: row.id,
  documentId: row.documentId,
  content: row.content,
  status: row.status,
  isAdmin: Boolean(row.isAdmin),
  ip: row.ip ?? null,
  userAgent: row.userAgent ?? null,
  createdAt: toIso(row.createdAt),
  author: row.author
    ? {
        id: row.author.id,
        documentId: row.author.documentId,
        username: row.author.username,
        ...(showEmail ? { email: row.author.email } : {}),
      }
    : null,
  article: row.article
    ? { documentId: row.article.documentId, title: row.article.title, slug: row.article.slug, closed: closed.has(row.article.documentId) }
    : null,
  parent: row.parent ? { documentId: row.parent.documentId } : null,
  pinned: row.pinnedAt !== null && row.pinnedAt !== undefined,
  likes: Number(row.likes ?? 0),
  reportCount: Number(row.reportCount ?? 0),
  reports,
});

export const moderation = (strapi: Core.Strapi) => ({
    /** The homepage widget "Comments to moderate": the pending count and the newest pending comments, in one query. */
    async queue() {
      const locale = await getService(strapi, 'locales').defaultLocale();
      return pendingQueue(strapi, MODERATION_QUEUE_SIZE, locale);
    },

    /**
     * The moderation list: pending first, then newest first; `reported`: reported comments only, most reported first. `showEmails`: whether the admin may read users' e-mail addresses elsewhere (the Content
     * Manager); moderating comments alone does not make the commenters' addresses theirs to see.
     */
    async adminList(query: AdminListQuery, { showEmails }: { showEmails: boolean }) {
      const { total, ids } = await adminListPage(strapi, query);

      const rows: StoredComment[] = ids.length ? await adminComments(strapi, ids) : [];
      const byId = new Map(rows.map((row) => [row.id, row]));
      const reports = await getService(strapi, 'comment-reports').forComments(ids);
      const articles = [...new Set(rows.flatMap((row) => (row.article ? [row.article.documentId] : [])))];
      const closed = new Set<string>(articles.length ? await closedAmong(strapi, articles) : []);
      return {
        data: ids.flatMap((id) => (byId.has(id) ? [toAdminComment(byId.get(id)!, showEmails, reports.get(id), closed)] : [])),
        meta: {
          pagination: { page: query.page, pageSize: query.pageSize, pageCount: Math.ceil(total / query.pageSize), total },
        },
      };
    },

    /** Moves the given comments to `status`; returns how many exist and were updated. */
    async setStatus(documentIds: string[], status: CommentStatus): Promise<number> {
      const notifications = getService(strapi, 'comment-notifications');
      const approving = status === 'approved' ? await notifications.notApprovedYet(documentIds) : [];
      const events = getService(strapi, 'comment-events');
      const changing = await events.notYet(documentIds, status);
      // One statement for the whole selection; the moderation page sends a page of comments at a time.
      const count = await updateStatuses(strapi, documentIds, status, new Date(getService(strapi, 'clock').now()));
      // A moderator's approval settles the reports: the threshold counts new ones only.
      if (status === 'approved') await getService(strapi, 'comment-reports').clearForDocuments(documentIds);
      notifications.repliesApproved(approving);
      events.statusChanged(changing, status);
      return count;
    },

    /** Pins or unpins a root comment: pinned roots come first in trees and pages, most recently pinned first. */
    async pin(documentId: string, pinned: boolean): Promise<{ documentId: string; pinned: boolean }> {
      const row = await pinTarget(strapi, documentId);
      if (!row) throw new errors.NotFoundError('Comment not found');
      if (row.parent) throw new errors.ValidationError('Only top-level comments can be pinned');
      await setPinnedAt(strapi, row.id, pinned ? new Date(getService(strapi, 'clock').now()) : null);
      return { documentId, pinned };
    },

    /** A reply as the site: `isAdmin`, approved at once, under `documentId`, on the same article. */
    async adminReply(documentId: string, content: string): Promise<AdminComment> {
      const parent = await replyParent(strapi, documentId);
      if (!parent) throw new errors.NotFoundError('Comment not found');
      if (!parent.article) throw new errors.ValidationError('The comment is not attached to an article');
      const created = await strapi.documents(COMMENT).create({
        data: {
          content,
          status: 'approved',
          isAdmin: true,
          article: parent.article.documentId,
          parent: parent.documentId,
          author: null,
        },
      });
      const row = await adminComment(strapi, created.id);
      // A reply as the site has no author, so there is no e-mail to show or hide.
      return toAdminComment(row as StoredComment, false);
    },
});
