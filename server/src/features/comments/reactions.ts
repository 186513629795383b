/**
 * Likes on comments (the `comment-feedback` controller's like and unlike): one per voter (features/comments/voter-key.ts) per comment, kept as rows of the internal
 * `comment-reaction` type with a unique (comment, voter) index, and counted in the comment's `likes` column.
 *
 * `likes` always equals the number of rows: the row is inserted (or deleted) and the counter moved by one in the
 * same transaction, and only when the insert (or delete) changed a row. Concurrent likes by one voter meet at the
 * unique index (INSERT … ON CONFLICT DO NOTHING: the losers insert nothing and count nothing), on one instance or
 * several sharing the database. The query builder is used instead of the Document Service because the counter
 * must move atomically with the row (`likes = likes + 1`), which the Document Service cannot express; that SQL is
 * in features/comments/comment-feedback.data.ts.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { forbidden } from '../../platform/errors';
import { getService } from '../../platform/get-service';
import { deleteReactionRows, setLikeRow } from './comment-feedback.data';
import { visibleCommentOr404 } from './visibility';
import { voterKey, type Voter } from './voter-key';
import type { Identifier } from './comment-vocabulary';

export interface LikeState {
  id: number;
  documentId: string;
  likes: number;
  liked: boolean;
}

const commentReactions = ({ strapi }: { strapi: Core.Strapi }) => {
  /** Refuses a like or an unlike the configuration does not allow (docs/comments.md#likes-and-reports: 404 when off, 403 for a guest when guests may not). */
  const assertAllowed = (config: PluginConfig, voter: Voter) => {
    if (!config.comments.reactions.enabled) throw new errors.NotFoundError('Reactions are disabled');
    if (!voter.user && !config.comments.reactions.guests) throw forbidden('Log in to like comments');
  };

  /** Adds (`liked`) or removes the voter's like and moves the counter only when a row changed; one transaction. */
  const setLike = async (identifier: Identifier | undefined, voter: Voter, config: PluginConfig, liked: boolean): Promise<LikeState> => {
    assertAllowed(config, voter);
    const target = await visibleCommentOr404(strapi, identifier);
    const key = voterKey(strapi, voter);
    const likes = await setLikeRow(strapi, target.id, key, liked, () => new Date(getService(strapi, 'clock').now()));
    await getService(strapi, 'cache-versions').invalidate('comments');
    return { id: target.id, documentId: target.documentId, likes, liked };
  };

  return {
    like: (identifier: Identifier | undefined, voter: Voter, config: PluginConfig) => setLike(identifier, voter, config, true),
    unlike: (identifier: Identifier | undefined, voter: Voter, config: PluginConfig) => setLike(identifier, voter, config, false),

    /** Deletes the likes of comments that are being deleted. */
    async deleteForComments(commentIds: number[]): Promise<void> {
      await deleteReactionRows(strapi, commentIds);
    },
  };
};

export type CommentReactionsService = ReturnType<typeof commentReactions>;
export default commentReactions;
