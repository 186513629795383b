/**
 * Ends a user's sessions (refresh tokens, host sessions, and the access tokens issued before: access-tokens.ts) when
 * the user is blocked or gets a new password, and removes a deleted user's sessions, second factors, passkeys and
 * comment reports. Hooked on the
 * database lifecycles of the users-permissions user, so every path counts: the host's own endpoints, the admin
 * panel's Content Manager, and code calling the query engine or the Document Service.
 */
import type { Core } from '@strapi/strapi';
import { USER_UID } from '../../platform/uids';
import { getService } from '../../platform/get-service';
import { idsOfUsers } from './users.data';

interface LifecycleEvent {
  params: { where?: unknown; data?: Record<string, unknown> };
  state: Record<string, unknown>;
}

const revokes = (data: Record<string, unknown> | undefined) =>
  Boolean(data) && (data!.password !== undefined || data!.blocked === true);

export const revokeTokensOnUserChanges = (strapi: Core.Strapi): (() => void) => {
  // The matched ids are read before the change (after a delete they are gone).
  const remember = async (event: LifecycleEvent) => {
    event.state.revokeUserIds = await idsOfUsers(strapi, event.params.where as object);
  };
  const rememberOnChange = async (event: LifecycleEvent) => {
    if (revokes(event.params.data)) await remember(event);
  };
  // A new password or a block ends every session of the account, and every access token issued before it.
  const revoke = async (event: LifecycleEvent) => {
    const ids = event.state.revokeUserIds as number[] | undefined;
    if (ids?.length) await getService(strapi, 'refresh-token').endAll(...ids);
  };

  // A deleted account's sessions, second factors and token epoch go with it (its id could otherwise name a later
  // account's rows), and its reports come off the comments' `reportCount`; its access tokens name a user that is
  // gone, which the host refuses.
  const revokeAndForget = async (event: LifecycleEvent) => {
    const ids = event.state.revokeUserIds as number[] | undefined;
    if (!ids?.length) return;
    await getService(strapi, 'refresh-token').revokeUser(...ids);
    await getService(strapi, 'mfa').forgetUser(...ids);
    await getService(strapi, 'access-tokens').forgetUser(...ids);
    await getService(strapi, 'comment-reports').forgetUsers(...ids);
  };

  return strapi.db.lifecycles.subscribe({
    models: [USER_UID],
    beforeUpdate: rememberOnChange,
    beforeUpdateMany: rememberOnChange,
    beforeDelete: remember,
    beforeDeleteMany: remember,
    afterUpdate: revoke,
    afterUpdateMany: revoke,
    afterDelete: revokeAndForget,
    afterDeleteMany: revokeAndForget,
  });
};
