/**
 * Abuse reports on comments (the `comment-feedback` controller's report): one per voter (features/comments/voter-key.ts) per comment, kept as rows of the internal
 * `comment-report` type with a unique (comment, voter) index and counted in the comment's private `reportCount`.
 * The row, the counter and the threshold check share one transaction, so `reportCount` equals the number of rows
 * and the comment goes back to `pending` exactly once, at the report that reaches `comments.reports.threshold`
 * (a conditional `UPDATE … WHERE status = 'approved'`), however many arrive at once on however many instances.
 * The SQL is in features/comments/comment-feedback.data.ts.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { forbidden } from '../../platform/errors';
import { getService } from '../../platform/get-service';
import { voterKey, type Voter } from './voter-key';
import type { Identifier, ReportInput } from './comment-vocabulary';
import { toIso } from '../../platform/time';
import { clearReportRows, deleteReportRows, deleteVoterReportRows, insertReportRow, reportRows } from './comment-feedback.data';
import { visibleCommentOr404 } from './visibility';
import type { z } from 'zod/v4';
import type { moderationReport } from './admin-comments.shapes';

export interface ReportState {
  id: number;
  documentId: string;
  reported: true;
}

/** A report as moderators see it: never the voter key. */
export type ModerationReport = z.infer<typeof moderationReport>;

const commentReports = ({ strapi }: { strapi: Core.Strapi }) => {
  return {
    /** Records the voter's report (a repeat changes nothing) and sends the comment back to `pending` at the threshold. */
    async report(identifier: Identifier | undefined, voter: Voter, input: ReportInput, config: PluginConfig): Promise<ReportState> {
      if (!config.comments.reports.enabled) throw new errors.NotFoundError('Reports are disabled');
      if (!voter.user && !config.comments.reports.guests) throw forbidden('Log in to report comments');
      const target = await visibleCommentOr404(strapi, identifier);
      const key = voterKey(strapi, voter);
      const now = new Date(getService(strapi, 'clock').now());
      const first = await insertReportRow(strapi, { commentId: target.id, voter: key, input, now, threshold: config.comments.reports.threshold });
      if (first) getService(strapi, 'comment-events').reported([target.documentId]);
      await getService(strapi, 'cache-versions').invalidate('comments');
      return { id: target.id, documentId: target.documentId, reported: true };
    },

    /** The reports on each of the given comments, oldest first, in one query per chunk of ids. */
    async forComments(commentIds: number[]): Promise<Map<number, ModerationReport[]>> {
      const byComment = new Map<number, ModerationReport[]>();
      for (const row of await reportRows(strapi, commentIds)) {
        const list = byComment.get(Number(row.comment)) ?? [];
        list.push({ reason: String(row.reason), details: row.details === null || row.details === undefined ? null : String(row.details), createdAt: toIso(row.createdAt) });
        byComment.set(Number(row.comment), list);
      }
      return byComment;
    },

    /**
     * A moderator approved these comments: their reports are settled, so they are deleted and `reportCount` goes
     * back to 0; the threshold counts new reports only. One transaction per chunk.
     */
    async clearForDocuments(documentIds: string[]): Promise<void> {
      await clearReportRows(strapi, documentIds);
      await getService(strapi, 'cache-versions').invalidate('comments');
    },

    /**
     * A deleted account's reports go, and come off the comments' `reportCount` (features/accounts/user-revocation.ts: every
     * path that deletes a user). A comment the reports sent back to `pending` stays there for a moderator.
     */
    async forgetUsers(...userIds: number[]): Promise<void> {
      const voters = userIds.map((id) => voterKey(strapi, { user: { id }, client: { ip: '', userAgent: '' } }));
      await deleteVoterReportRows(strapi, voters);
    },

    /** Deletes the reports of comments that are being deleted. */
    async deleteForComments(commentIds: number[]): Promise<void> {
      await deleteReportRows(strapi, commentIds);
    },
  };
};

export type CommentReportsService = ReturnType<typeof commentReports>;
export default commentReports;
