/**
 * Mails the owner when an account's password is set (docs/accounts.md#credential-alerts): hooked on the users-permissions user's database
 * lifecycles, the one place every path goes through (the plugin's reset, the host's change-password and
 * reset-password, REST and GraphQL, the admin panel's Content Manager), so each change mails once. A request to a
 * reset route is a reset; any other change is a change.
 */
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { USER_UID } from '../../platform/uids';
import { getService } from '../../platform/get-service';
import { idsOfUsers } from './users.data';

interface LifecycleEvent {
  params: { where?: unknown; data?: Record<string, unknown> };
  state: Record<string, unknown>;
}

/** The plugin's `/auth/reset-password` and the host's (`/api/auth/reset-password`). */
const RESET_PATH = /\/auth\/reset-password\/?$/;

export const alertOnPasswordChanges = (strapi: Core.Strapi): (() => void) => {
  // The matched ids are read before the change (the `where` may name the old password hash or token).
  const remember = async (event: LifecycleEvent) => {
    if (event.params.data?.password === undefined) return;
    event.state.passwordChangedIds = await idsOfUsers(strapi, event.params.where as object);
  };
  const alert = (event: LifecycleEvent) => {
    const ids = event.state.passwordChangedIds as number[] | undefined;
    if (!ids?.length) return;
    const ctx = strapi.requestContext.get() as Context | undefined;
    const kind = ctx && RESET_PATH.test(ctx.path) ? 'password-reset' : 'password-changed';
    for (const id of ids) getService(strapi, 'credential-alerts').changed(id, kind);
  };

  return strapi.db.lifecycles.subscribe({
    models: [USER_UID],
    beforeUpdate: remember,
    beforeUpdateMany: remember,
    afterUpdate: alert,
    afterUpdateMany: alert,
  });
};
