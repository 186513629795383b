/**
 * A host session (`admin::session`, the Session Manager's rows) that ends takes its access tokens with it, on every
 * path: the plugin's revocations, the host's own logout and session routes, its password change, its clean-up of
 * expired sessions. In 'refresh' mode an access token names the session row it was minted from (access-tokens.ts),
 * and a refresh rotates the session (the old row stays, `rotated`, its `childId` naming the new one): an access token
 * minted before the refresh names the old row. So when a row is deleted, the rows it was rotated from go too (one
 * recursive SELECT over `child_id`), and every instance forgets what it knew of live sessions (the `sessions` scope).
 */
import type { Core } from '@strapi/strapi';
import { deleteHostSessions, HOST_SESSION_UID, hostSessionsMatching, rotatedAncestors } from './host-sessions.data';
import { currentTransaction } from '../cache';
import { getService } from '../../platform/get-service';

interface LifecycleEvent {
  params: { where?: unknown };
  state: Record<string, unknown>;
}

const ORIGIN = 'users-permissions';
/** Bound parameters per statement (SQLite allows 32766, PostgreSQL 65535). */
const CHUNK = 500;

/** The session ids these rows were rotated from, at any depth. */
const ancestorsOf = async (strapi: Core.Strapi, sessionIds: string[]): Promise<string[]> => {
  if (sessionIds.length > CHUNK) {
    const found: string[] = [];
    for (let start = 0; start < sessionIds.length; start += CHUNK) found.push(...(await ancestorsOf(strapi, sessionIds.slice(start, start + CHUNK))));
    const own = new Set(sessionIds);
    return [...new Set(found)].filter((id) => !own.has(id));
  }
  // Inside the delete's transaction when there is one (on SQLite its one connection is held by it).
  return rotatedAncestors(strapi, sessionIds, await currentTransaction(strapi));
};

export const revokeTokensWithHostSessions = (strapi: Core.Strapi): (() => void) => {
  // The matched rows are read before the delete (afterwards they are gone).
  // Only the content API's sessions: the admin panel's (origin `admin`) share the table and are left as they are.
  const remember = async (event: LifecycleEvent) => {
    const rows = await hostSessionsMatching(strapi, event.params.where as object);
    event.state.endedSessions = rows.filter((row) => row.origin === ORIGIN).map((row) => row.sessionId);
  };
  const ended = async (event: LifecycleEvent) => {
    const sessionIds = event.state.endedSessions as string[] | undefined;
    if (!sessionIds?.length) return;
    const ancestors = await ancestorsOf(strapi, sessionIds);
    // Runs this lifecycle again for them: their own ancestors are among these, so it stops there.
    for (let start = 0; start < ancestors.length; start += CHUNK) {
      await deleteHostSessions(strapi, ancestors.slice(start, start + CHUNK));
    }
    await getService(strapi, 'access-tokens').revoked();
  };
  return strapi.db.lifecycles.subscribe({
    models: [HOST_SESSION_UID],
    beforeDelete: remember,
    beforeDeleteMany: remember,
    afterDelete: ended,
    afterDeleteMany: ended,
  });
};
