/**
 * "Export my data": everything the plugin keeps about the account, as one JSON document. Never a password hash, a
 * token, a code, a secret, or anything about another person (a like or report names only the comment).
 */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';
import type { AccountExport } from './account.shapes';
import type { ClientInfo } from '../../platform/client';
import { voterKey } from '../comments';
import { getService } from '../../platform/get-service';
import { sessionView } from './sessions';

const COMMENT = uid('comment');
const REACTION = uid('comment-reaction');
const REPORT = uid('comment-report');

interface CommentRow {
  id: number;
  documentId: string;
  content: string;
  status: string;
  createdAt: string | Date;
  ip: string | null;
  userAgent: string | null;
  article: { documentId: string; title: string } | null;
}

const iso = (value: string | Date | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

const accountExport = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** `user` is the account as `/auth/me` shows it (the controller sanitizes it). */
  async export(user: { id: number }, shownUser: AccountExport['user'], client: ClientInfo): Promise<AccountExport> {
    const comments = (await strapi.db.query(COMMENT).findMany({
      where: { author: { id: user.id } },
      select: ['id', 'documentId', 'content', 'status', 'createdAt', 'ip', 'userAgent'],
      populate: { article: { select: ['documentId', 'title'] } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    })) as CommentRow[];

    const voter = voterKey(strapi, { user, client });
    const likes = (await strapi.db.query(REACTION).findMany({ where: { voter }, select: ['comment', 'createdAt'] })) as {
      comment: number;
      createdAt: string | Date | null;
    }[];
    const reports = (await strapi.db.query(REPORT).findMany({ where: { voter }, select: ['comment', 'reason', 'details', 'createdAt'] })) as {
      comment: number;
      reason: string;
      details: string | null;
      createdAt: string | Date | null;
    }[];
    const ids = [...new Set([...likes, ...reports].map((row) => row.comment))];
    const documentIds = new Map<number, string>(
      ids.length === 0
        ? []
        : ((await strapi.db.query(COMMENT).findMany({ where: { id: { $in: ids } }, select: ['id', 'documentId'] })) as { id: number; documentId: string }[]).map(
            (row) => [row.id, row.documentId]
          )
    );

    const sessions = await getService(strapi, 'refresh-token').list(user.id);
    return {
      exportedAt: new Date(getService(strapi, 'clock').now()).toISOString(),
      user: shownUser,
      comments: comments.map((comment) => ({
        documentId: comment.documentId,
        content: comment.content,
        status: comment.status,
        createdAt: iso(comment.createdAt)!,
        article: comment.article ? { documentId: comment.article.documentId, title: comment.article.title } : null,
        ip: comment.ip ?? null,
        userAgent: comment.userAgent ?? null,
      })),
      likes: likes.map((like) => ({ comment: documentIds.get(like.comment) ?? null, createdAt: iso(like.createdAt) })),
      reports: reports.map((report) => ({
        comment: documentIds.get(report.comment) ?? null,
        reason: report.reason,
        details: report.details ?? null,
        createdAt: iso(report.createdAt),
      })),
      sessions: sessions.map((row) => {
        const { current: _current, ...rest } = sessionView(row, undefined);
        return rest;
      }),
      subscriptions: await getService(strapi, 'comment-followers').followedBy(user.id),
      mfa: await (async () => {
        const { totp, passkeys } = await getService(strapi, 'mfa').status(user.id);
        return { totp, passkeys: passkeys.map(({ name, createdAt }) => ({ name, createdAt })) };
      })(),
    };
  },
});

export type AccountExportService = ReturnType<typeof accountExport>;
export default accountExport;
