/**
 * The status a comment's text earns when it is submitted or edited: the moderation rules first (a blocked word
 * rejects; a hold word or too many links holds, even with `autoApprove`), then `autoApprove`, then `trustApproved`
 * (a signed-in author with an approved comment), else `pending`.
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import type { CommentStatus } from './comment-vocabulary';
import { applyRules } from './moderation-rules';
import { countApprovedOfAuthor } from './admission.data';

export const admission = (strapi: Core.Strapi) => ({
  async statusFor(content: string, authorId: number | null, config: PluginConfig, exceptId?: number): Promise<CommentStatus> {
    const verdict = applyRules(config.comments.moderation, content);
    if (verdict) return verdict;
    if (config.comments.autoApprove) return 'approved';
    if (config.comments.moderation.trustApproved && authorId !== null) {
      const approved = await countApprovedOfAuthor(strapi, authorId, exceptId);
      if (approved > 0) return 'approved';
    }
    return 'pending';
  },
});
