/**
 * "Where you're signed in": the account's sessions are its live refresh tokens (in both `jwtManagement` modes), read
 * from the database, so every instance sharing it lists the same ones. The current session is the one the request's
 * Bearer jwt came from: named by the plugin's legacy jwt (`bagSession`) or, in 'refresh' mode, by the host session
 * of its access token. A jwt from the host's own login names none of the plugin's sessions.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { Session } from './account.shapes';
import { getService } from '../../platform/get-service';
import type { SessionRow } from './refresh-token';

export const SESSION_NOT_FOUND = 'Session not found';

/** What names the request's session: the plugin's row id (legacy jwt) or the host's session id ('refresh' mode). */
export interface CurrentSession {
  row?: number;
  hostSession?: string;
}

const iso = (value: string | number | Date | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value).toISOString();

export const sessionView = (row: SessionRow, current: number | undefined): Session => ({
  id: row.id,
  createdAt: iso(row.createdAt)!,
  lastUsedAt: iso(row.lastUsedAt),
  expiresAt: iso(row.expiresAt)!,
  ip: row.ip ?? null,
  userAgent: row.userAgent ?? null,
  current: row.id === current,
});

const sessions = ({ strapi }: { strapi: Core.Strapi }) => {
  const tokens = () => getService(strapi, 'refresh-token');

  /** The row id of the request's session, if it is one of the account's. */
  const currentRow = async (userId: number, current: CurrentSession): Promise<number | undefined> => {
    if (current.hostSession) return tokens().rowOfHostSession(userId, current.hostSession);
    return current.row;
  };

  return {
    async list(userId: number, current: CurrentSession): Promise<Session[]> {
      const id = await currentRow(userId, current);
      return (await tokens().list(userId)).map((row) => sessionView(row, id));
    },

    /** Ends one session of the account: `Session not found` for an unknown id or another account's. */
    async revoke(userId: number, id: string): Promise<void> {
      const rowId = /^\d{1,15}$/.test(id) ? Number(id) : undefined;
      if (rowId === undefined || !(await tokens().revokeSession(userId, rowId))) throw new errors.NotFoundError(SESSION_NOT_FOUND);
    },

    /** Ends every session of the account but the current one; how many ended. */
    async revokeOthers(userId: number, current: CurrentSession): Promise<number> {
      return tokens().revokeOthers(userId, await currentRow(userId, current), current.hostSession);
    },
  };
};

export type SessionsService = ReturnType<typeof sessions>;
export default sessions;
