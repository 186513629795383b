/**
 * The status a comment's text earns when it is submitted or edited: the moderation rules first (a blocked word
 * rejects; a hold word or too many links holds, even with `autoApprove`), then `autoApprove`, then `trustApproved`
 * (a signed-in author with an approved comment), else `pending`.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import type { CommentStatus } from './comment-vocabulary';
import { uid } from '../../platform/plugin-id';
import { applyRules } from './moderation-rules';

const COMMENT = uid('comment');

export const admission = (strapi: Core.Strapi) => ({
  async statusFor(content: string, authorId: number | null, config: PluginConfig, exceptId?: number): Promise<CommentStatus> {
    const verdict = applyRules(config.comments.moderation, content);
    if (verdict) return verdict;
    if (config.comments.autoApprove) return 'approved';
    if (config.comments.moderation.trustApproved && authorId !== null) {
      const approved = await strapi.db.query(COMMENT).count({
        where: { author: { id: authorId }, status: 'approved', deleted: { $ne: true }, ...(exceptId ? { id: { $ne: exceptId } } : {}) },
      });
      if (approved > 0) return 'approved';
    }
    return 'pending';
  },
});
