/**
 * Abuse reports on comments (the `comment-feedback` controller's report): one per voter (utils/voter-key.ts) per comment, kept as rows of the internal
 * `comment-report` type with a unique (comment, voter) index and counted in the comment's private `reportCount`.
 * The row, the counter and the threshold check share one transaction, so `reportCount` equals the number of rows
 * and the comment goes back to `pending` exactly once, at the report that reaches `comments.reports.threshold`
 * (a conditional `UPDATE … WHERE status = 'approved'`), however many arrive at once on however many instances.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import type { PluginConfig } from '../../config/schema';
import { tableOf } from '../../utils/columns';
import { forbidden } from '../../utils/errors';
import { getService } from '../get-service';
import { uid } from '../../domain/plugin-id';
import { voterKey, type Voter } from '../../utils/voter-key';
import type { Identifier, ReportInput } from '../../domain/comments';
import { toIso } from '../../domain/time';
import { inChunks } from '../../repositories/chunks';
import { visibleCommentOr404 } from './visibility';

const COMMENT = uid('comment');
const REPORT = uid('comment-report');

export interface ReportState {
  id: number;
  documentId: string;
  reported: true;
}

/** A report as moderators see it: never the voter key. */
export interface ModerationReport {
  reason: string;
  details: string | null;
  createdAt: string;
}

const commentReports = ({ strapi }: { strapi: Core.Strapi }) => {
  const names = () => {
    const reports = tableOf(strapi, REPORT);
    const comments = tableOf(strapi, COMMENT);
    return {
      reports: reports.table,
      comment: reports.column('comment'),
      voter: reports.column('voter'),
      reason: reports.column('reason'),
      details: reports.column('details'),
      createdAt: reports.column('createdAt'),
      updatedAt: reports.column('updatedAt'),
      comments: comments.table,
      documentId: comments.column('documentId'),
      status: comments.column('status'),
      reportCount: comments.column('reportCount'),
      commentUpdatedAt: comments.column('updatedAt'),
    };
  };

  return {
    /** Records the voter's report (a repeat changes nothing) and sends the comment back to `pending` at the threshold. */
    async report(identifier: Identifier | undefined, voter: Voter, input: ReportInput, config: PluginConfig): Promise<ReportState> {
      if (!config.comments.reports.enabled) throw new errors.NotFoundError('Reports are disabled');
      if (!voter.user && !config.comments.reports.guests) throw forbidden('Log in to report comments');
      const target = await visibleCommentOr404(strapi, identifier);
      const key = voterKey(strapi, voter);
      const n = names();
      const now = new Date(getService(strapi, 'clock').now());
      await strapi.db.connection.transaction(async (trx: Knex.Transaction) => {
        const inserted = await trx(n.reports)
          .insert({
            [n.comment]: target.id,
            [n.voter]: key,
            [n.reason]: input.reason,
            [n.details]: input.details ?? null,
            [n.createdAt]: now,
            [n.updatedAt]: now,
          })
          .onConflict([n.comment, n.voter])
          .ignore()
          .returning('id');
        if (inserted.length === 0) return;
        const updated: Array<Record<string, unknown>> = await trx(n.comments)
          .where('id', target.id)
          .update({ [n.reportCount]: trx.raw('COALESCE(??, 0) + 1', [n.reportCount]) }, [n.reportCount]);
        if (updated.length === 0) throw new errors.NotFoundError('Comment not found');
        if (Number(updated[0][n.reportCount]) >= config.comments.reports.threshold) {
          await trx(n.comments)
            .where('id', target.id)
            .andWhere(n.status, 'approved')
            .update({ [n.status]: 'pending', [n.commentUpdatedAt]: now });
        }
      });
      return { id: target.id, documentId: target.documentId, reported: true };
    },

    /** The reports on each of the given comments, oldest first, in one query per chunk of ids. */
    async forComments(commentIds: number[]): Promise<Map<number, ModerationReport[]>> {
      const n = names();
      const byComment = new Map<number, ModerationReport[]>();
      await inChunks(commentIds, async (chunk) => {
        const rows: Array<Record<string, unknown>> = await strapi.db
          .connection(n.reports)
          .whereIn(n.comment, chunk)
          .orderBy(n.createdAt, 'asc')
          .orderBy('id', 'asc')
          .select({ comment: n.comment, reason: n.reason, details: n.details, createdAt: n.createdAt });
        for (const row of rows) {
          const list = byComment.get(Number(row.comment)) ?? [];
          list.push({ reason: String(row.reason), details: row.details === null || row.details === undefined ? null : String(row.details), createdAt: toIso(row.createdAt) });
          byComment.set(Number(row.comment), list);
        }
      });
      return byComment;
    },

    /**
     * A moderator approved these comments: their reports are settled, so they are deleted and `reportCount` goes
     * back to 0; the threshold counts new reports only. One transaction per chunk.
     */
    async clearForDocuments(documentIds: string[]): Promise<void> {
      const n = names();
      await inChunks(documentIds, (chunk) =>
        strapi.db.connection.transaction(async (trx: Knex.Transaction) => {
          const ids = (await trx(n.comments).whereIn(n.documentId, chunk).select('id')).map((row: { id: number }) => row.id);
          // Counter first: its row locks make a report being recorded meanwhile either finish before (its row is then
          // deleted below) or count after (its row, not yet visible here, stays and counts 1), never half of each.
          await trx(n.comments).whereIn('id', ids).update({ [n.reportCount]: 0 });
          await trx(n.reports).whereIn(n.comment, ids).delete();
        })
      );
    },

    /** Deletes the reports of comments that are being deleted. */
    async deleteForComments(commentIds: number[]): Promise<void> {
      const n = names();
      await inChunks(commentIds, (chunk) => strapi.db.connection(n.reports).whereIn(n.comment, chunk).delete());
    },
  };
};

export type CommentReportsService = ReturnType<typeof commentReports>;
export default commentReports;
