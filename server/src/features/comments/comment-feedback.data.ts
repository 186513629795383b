/**
 * The SQL of likes and reports (features/comments/reactions.ts, reports.ts): their rows and the comment's counters.
 *
 * A like: the row is inserted (or deleted) and `likes` moved by one in the same transaction, and only when the
 * insert (or delete) changed a row. Concurrent likes by one voter meet at the unique (comment, voter) index
 * (INSERT … ON CONFLICT DO NOTHING: the losers insert nothing and count nothing). A report: the row, `reportCount`
 * and the threshold check share one transaction (a conditional `UPDATE … WHERE status = 'approved'`). The query
 * builder is used instead of the Document Service because the counters must move atomically with the rows.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import type { ReportInput } from './comment-vocabulary';
import { inChunks } from '../../platform/chunks';
import { reactionTables, reportTables, type RawRow } from './tables.data';

/**
 * Adds (`liked`, with `now` as its timestamps) or removes the voter's like on the comment and moves the counter
 * only when a row changed; one transaction. Returns the comment's `likes`; 404 (and nothing kept) when the comment
 * was deleted meanwhile.
 */
export const setLikeRow = async (strapi: Core.Strapi, commentId: number, voter: string, liked: boolean, now: () => Date): Promise<number> => {
  const n = reactionTables(strapi);
  return strapi.db.connection.transaction(async (trx: Knex.Transaction) => {
    let changed: boolean;
    if (liked) {
      const at = now();
      const inserted = await trx(n.reactions)
        .insert({ [n.comment]: commentId, [n.voter]: voter, [n.createdAt]: at, [n.updatedAt]: at })
        .onConflict([n.comment, n.voter])
        .ignore()
        .returning('id');
      changed = inserted.length > 0;
    } else {
      changed = (await trx(n.reactions).where({ [n.comment]: commentId, [n.voter]: voter }).delete()) > 0;
    }
    const row = trx(n.comments).where('id', commentId);
    const updated: Array<Record<string, unknown>> = changed
      ? await row.update({ [n.likes]: trx.raw(`COALESCE(??, 0) ${liked ? '+' : '-'} 1`, [n.likes]) }, [n.likes])
      : await row.select(n.likes);
    // Deleted since it was found: roll the reaction back rather than leave a row no comment counts.
    if (updated.length === 0) throw new errors.NotFoundError('Comment not found');
    return Number(updated[0][n.likes] ?? 0);
  });
};

/** Deletes the likes of the given comments, in chunks. */
export const deleteReactionRows = async (strapi: Core.Strapi, commentIds: number[]): Promise<void> => {
  const n = reactionTables(strapi);
  await inChunks(commentIds, (chunk) => strapi.db.connection(n.reactions).whereIn(n.comment, chunk).delete());
};

/**
 * Records the voter's report (a repeat changes nothing), counts it, and sends the comment back to `pending` when
 * `reportCount` reaches `threshold`; one transaction. 404 (and nothing kept) when the comment was deleted meanwhile.
 * True when this was the voter's first report of the comment.
 */
export const insertReportRow = async (
  strapi: Core.Strapi,
  report: { commentId: number; voter: string; input: ReportInput; now: Date; threshold: number }
): Promise<boolean> => {
  const { commentId, voter, input, now, threshold } = report;
  const n = reportTables(strapi);
  return strapi.db.connection.transaction(async (trx: Knex.Transaction) => {
    const inserted = await trx(n.reports)
      .insert({
        [n.comment]: commentId,
        [n.voter]: voter,
        [n.reason]: input.reason,
        [n.details]: input.details ?? null,
        [n.createdAt]: now,
        [n.updatedAt]: now,
      })
      .onConflict([n.comment, n.voter])
      .ignore()
      .returning('id');
    if (inserted.length === 0) return false;
    const updated: Array<Record<string, unknown>> = await trx(n.comments)
      .where('id', commentId)
      .update({ [n.reportCount]: trx.raw('COALESCE(??, 0) + 1', [n.reportCount]) }, [n.reportCount]);
    if (updated.length === 0) throw new errors.NotFoundError('Comment not found');
    if (Number(updated[0][n.reportCount]) >= threshold) {
      await trx(n.comments)
        .where('id', commentId)
        .andWhere(n.status, 'approved')
        .update({ [n.status]: 'pending', [n.commentUpdatedAt]: now });
    }
    return true;
  });
};

/** The report rows (`comment`, `reason`, `details`, `createdAt`) of the given comments, oldest first per chunk of ids. */
export const reportRows = async (strapi: Core.Strapi, commentIds: number[]): Promise<RawRow[]> => {
  const n = reportTables(strapi);
  const all: RawRow[] = [];
  await inChunks(commentIds, async (chunk) => {
    const rows: RawRow[] = await strapi.db
      .connection(n.reports)
      .whereIn(n.comment, chunk)
      .orderBy(n.createdAt, 'asc')
      .orderBy('id', 'asc')
      .select({ comment: n.comment, reason: n.reason, details: n.details, createdAt: n.createdAt });
    all.push(...rows);
  });
  return all;
};

/** Deletes the reports of the comments with these documentIds and sets their `reportCount` to 0; one transaction per chunk. */
export const clearReportRows = async (strapi: Core.Strapi, documentIds: string[]): Promise<void> => {
  const n = reportTables(strapi);
  await inChunks(documentIds, (chunk) =>
    strapi.db.connection.transaction(async (trx: Knex.Transaction) => {
      const ids = (await trx(n.comments).whereIn(n.documentId, chunk).select('id')).map((row: { id: number }) => row.id);
      // Counter first: its row locks make a report being recorded meanwhile either finish before (its row is then
      // deleted below) or count after (its row, not yet visible here, stays and counts 1), never half of each.
      await trx(n.comments).whereIn('id', ids).update({ [n.reportCount]: 0 });
      await trx(n.reports).whereIn(n.comment, ids).delete();
    })
  );
};

/** Deletes the reports of the given comments, in chunks. */
export const deleteReportRows = async (strapi: Core.Strapi, commentIds: number[]): Promise<void> => {
  const n = reportTables(strapi);
  await inChunks(commentIds, (chunk) => strapi.db.connection(n.reports).whereIn(n.comment, chunk).delete());
};

/**
 * Deletes the reports made by these voters and takes each off its comment's `reportCount`; one transaction per chunk
 * of voters. The counter moves by the rows deleted (not a recount), so reports recorded meanwhile by others still count.
 */
export const deleteVoterReportRows = async (strapi: Core.Strapi, voters: string[]): Promise<void> => {
  const n = reportTables(strapi);
  // The host's transaction (joined when the user is deleted inside one, as the Content Manager does).
  await inChunks(voters, (chunk) =>
    strapi.db.transaction(async ({ trx }: { trx: Knex.Transaction }) => {
      const rows: Array<{ id: number; comment: number }> = await trx(n.reports).whereIn(n.voter, chunk).select({ id: 'id', comment: n.comment });
      if (rows.length === 0) return;
      const perComment = new Map<number, number>();
      for (const row of rows) perComment.set(Number(row.comment), (perComment.get(Number(row.comment)) ?? 0) + 1);
      const byCount = new Map<number, number[]>();
      for (const [comment, count] of perComment) byCount.set(count, [...(byCount.get(count) ?? []), comment]);
      for (const [count, comments] of byCount) {
        await inChunks(comments, (ids) =>
          trx(n.comments)
            .whereIn('id', ids)
            .update({ [n.reportCount]: trx.raw('CASE WHEN COALESCE(??, 0) > ? THEN ?? - ? ELSE 0 END', [n.reportCount, count, n.reportCount, count]) })
        );
      }
      await inChunks(rows.map((row) => row.id), (ids) => trx(n.reports).whereIn('id', ids).delete());
    })
  );
};

/** Of the given comments, the ids the voter likes: one statement, for a signed-in reader's page (thread-viewer.ts). */
export const likedByVoter = async (strapi: Core.Strapi, commentIds: number[], voter: string): Promise<Set<number>> => {
  const n = reactionTables(strapi);
  const liked = new Set<number>();
  await inChunks(commentIds, async (chunk) => {
    const rows: RawRow[] = await strapi.db.connection(n.reactions).select(n.comment).where(n.voter, voter).whereIn(n.comment, chunk);
    for (const row of rows) liked.add(Number(row[n.comment]));
  });
  return liked;
};
