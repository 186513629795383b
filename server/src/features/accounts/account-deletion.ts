/**
 * "Delete my account" (`account.deletion.*`): after re-authentication (the password, or an e-mail code sent to the
 * account for accounts that sign in without one), the account's comments are anonymized (no author, no IP or
 * User-Agent) or deleted (replies by others move up to the deleted comment's parent, see
 * features/comments/comment-writes.document-middleware.ts (`commentDelete`)), its likes (the comments' counters follow), reports and followed threads go, and the user is
 * removed through the host's user service (which ends its host sessions; the user lifecycle ends the plugin's).
 */
import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../platform/config/schema';
import { forbidden } from '../../platform/errors';
import { uid } from '../../platform/plugin-id';
import type { DeleteAccountBody } from './account.shapes';
import { setLikeRow, voterKey } from '../comments';
import { getService } from '../../platform/get-service';
import type { UserRow } from './account.service';
import type { Requester } from './reauthentication';
import { anonymizeComment, commentIdsOfAuthor, likedCommentsOf } from './account-comments.data';

const COMMENT = uid('comment');
export const DELETION_DISABLED = 'Account deletion is disabled';

const accountDeletion = ({ strapi }: { strapi: Core.Strapi }) => ({
  assertEnabled(config: PluginConfig): void {
    if (!config.account.deletion.enabled) throw forbidden(DELETION_DISABLED);
  },

  async delete(user: UserRow, body: DeleteAccountBody, requester: Requester, config: PluginConfig): Promise<void> {
    this.assertEnabled(config);
    await getService(strapi, 'reauthentication').confirm(user, body, requester, config, { codePurpose: 'delete' });
    // An account with TOTP on proves the second factor too.
    await getService(strapi, 'mfa').requireSecondFactor(user.id, body.mfaCode, requester);

    const voter = voterKey(strapi, { user, client: requester.client });
    const likes = await likedCommentsOf(strapi, voter);
    const now = () => new Date(getService(strapi, 'clock').now());
    for (const like of likes) await setLikeRow(strapi, like.comment, voter, false, now);
    await getService(strapi, 'comment-reports').forgetUsers(user.id);

    const comments = await commentIdsOfAuthor(strapi, user.id);
    if (config.account.deletion.comments === 'delete') {
      for (const comment of comments) await strapi.documents(COMMENT).delete({ documentId: comment.documentId });
    } else {
      for (const comment of comments) {
        await anonymizeComment(strapi, comment.id);
      }
    }

    await getService(strapi, 'comment-followers').forgetUser(user.id);
    await getService(strapi, 'email-change').forget(user.id);
    await getService(strapi, 'sign-in-alerts').forget(user.id);
    await getService(strapi, 'refresh-token').endAll(user.id);
    await strapi.plugin('users-permissions').service('user').remove({ id: user.id });
    await getService(strapi, 'cache-versions').invalidate('comments');
  },
});

export type AccountDeletionService = ReturnType<typeof accountDeletion>;
export default accountDeletion;
