/**
 * Likes on comments (the `comment-feedback` controller's like and unlike): one per voter (utils/voter-key.ts) per comment, kept as rows of the internal
 * `comment-reaction` type with a unique (comment, voter) index, and counted in the comment's `likes` column.
 *
 * `likes` always equals the number of rows: the row is inserted (or deleted) and the counter moved by one in the
 * same transaction, and only when the insert (or delete) changed a row. Concurrent likes by one voter meet at the
 * unique index (INSERT … ON CONFLICT DO NOTHING: the losers insert nothing and count nothing), on one instance or
 * several sharing the database. The query builder is used instead of the Document Service because the counter
 * must move atomically with the row (`likes = likes + 1`), which the Document Service cannot express.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Knex } from 'knex';
import type { PluginConfig } from '../../config/schema';
import { tableOf } from '../../utils/columns';
import { forbidden } from '../../utils/errors';
import { getService } from '../get-service';
import { inChunks } from '../../repositories/chunks';
import { visibleCommentOr404 } from './visibility';
import { uid } from '../../domain/plugin-id';
import { voterKey, type Voter } from '../../utils/voter-key';
import type { Identifier } from '../../domain/comments';

const COMMENT = uid('comment');
const REACTION = uid('comment-reaction');

export interface LikeState {
  id: number;
  documentId: string;
  likes: number;
  liked: boolean;
}

const commentReactions = ({ strapi }: { strapi: Core.Strapi }) => {
  const names = () => {
    const reactions = tableOf(strapi, REACTION);
    const comments = tableOf(strapi, COMMENT);
    return {
      reactions: reactions.table,
      comment: reactions.column('comment'),
      voter: reactions.column('voter'),
      createdAt: reactions.column('createdAt'),
      updatedAt: reactions.column('updatedAt'),
      comments: comments.table,
      likes: comments.column('likes'),
    };
  };

  /** Refuses a like or an unlike the configuration does not allow (see the README for the statuses). */
  const assertAllowed = (config: PluginConfig, voter: Voter) => {
    if (!config.comments.reactions.enabled) throw new errors.NotFoundError('Reactions are disabled');
    if (!voter.user && !config.comments.reactions.guests) throw forbidden('Log in to like comments');
  };

  /** Adds (`liked`) or removes the voter's like and moves the counter only when a row changed; one transaction. */
  const setLike = async (identifier: Identifier | undefined, voter: Voter, config: PluginConfig, liked: boolean): Promise<LikeState> => {
    assertAllowed(config, voter);
    const target = await visibleCommentOr404(strapi, identifier);
    const key = voterKey(strapi, voter);
    const n = names();
    const likes = await strapi.db.connection.transaction(async (trx: Knex.Transaction) => {
      let changed: boolean;
      if (liked) {
        const now = new Date(getService(strapi, 'clock').now());
        const inserted = await trx(n.reactions)
          .insert({ [n.comment]: target.id, [n.voter]: key, [n.createdAt]: now, [n.updatedAt]: now })
          .onConflict([n.comment, n.voter])
          .ignore()
          .returning('id');
        changed = inserted.length > 0;
      } else {
        changed = (await trx(n.reactions).where({ [n.comment]: target.id, [n.voter]: key }).delete()) > 0;
      }
      const row = trx(n.comments).where('id', target.id);
      const updated: Array<Record<string, unknown>> = changed
        ? await row.update({ [n.likes]: trx.raw(`COALESCE(??, 0) ${liked ? '+' : '-'} 1`, [n.likes]) }, [n.likes])
        : await row.select(n.likes);
      // Deleted since it was found: roll the reaction back rather than leave a row no comment counts.
      if (updated.length === 0) throw new errors.NotFoundError('Comment not found');
      return Number(updated[0][n.likes] ?? 0);
    });
    return { id: target.id, documentId: target.documentId, likes, liked };
  };

  return {
    like: (identifier: Identifier | undefined, voter: Voter, config: PluginConfig) => setLike(identifier, voter, config, true),
    unlike: (identifier: Identifier | undefined, voter: Voter, config: PluginConfig) => setLike(identifier, voter, config, false),

    /** Deletes the likes of comments that are being deleted. */
    async deleteForComments(commentIds: number[]): Promise<void> {
      const n = names();
      await inChunks(commentIds, (chunk) => strapi.db.connection(n.reactions).whereIn(n.comment, chunk).delete());
    },
  };
};

export type CommentReactionsService = ReturnType<typeof commentReactions>;
export default commentReactions;
