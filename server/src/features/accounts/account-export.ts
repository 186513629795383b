/**
 * "Export my data": everything the plugin keeps about the account, as one JSON document. Never a password hash, a
 * token, a code, a secret, or anything about another person (a like or report names only the comment).
 */
import type { Core } from '@strapi/strapi';
import type { AccountExport } from './account.shapes';
import type { ClientInfo } from '../../platform/client';
import { voterKey } from '../comments';
import { getService } from '../../platform/get-service';
import { sessionView } from './sessions';
import { commentsForExport, documentIdsOfComments, likesForExport, reportsForExport } from './account-comments.data';

const iso = (value: string | Date | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

const accountExport = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** `user` is the account as `/auth/me` shows it (the controller sanitizes it). */
  async export(user: { id: number }, shownUser: AccountExport['user'], client: ClientInfo): Promise<AccountExport> {
    const comments = await commentsForExport(strapi, user.id);

    const voter = voterKey(strapi, { user, client });
    const likes = await likesForExport(strapi, voter);
    const reports = await reportsForExport(strapi, voter);
    const ids = [...new Set([...likes, ...reports].map((row) => row.comment))];
    const documentIds = ids.length === 0 ? new Map<number, string>() : await documentIdsOfComments(strapi, ids);

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
      // The threads the account follows, then its newsletters (docs/accounts.md#export).
      subscriptions: [
        ...(await getService(strapi, 'comment-followers').followedBy(user.id)),
        ...(await getService(strapi, 'newsletter-subscriptions').exportOf(user.id)),
      ],
      mfa: await (async () => {
        const { totp, passkeys } = await getService(strapi, 'mfa').status(user.id);
        return { totp, passkeys: passkeys.map(({ name, createdAt }) => ({ name, createdAt })) };
      })(),
    };
  },
});

export type AccountExportService = ReturnType<typeof accountExport>;
export default accountExport;
