/** The plugin's refresh token rows (features/accounts/refresh-token.ts): one per session, the token kept as SHA-256. */
import type { Core } from '@strapi/strapi';
import { uid } from '../../platform/plugin-id';

const UID = uid('refresh-token');

export interface TokenRow {
  id: number;
  userId: number;
  expiresAt: string | number;
  sessionId?: string | null;
  hostToken?: string | null;
}

/** A session as the account's session list reads it. */
export interface SessionRow {
  id: number;
  createdAt: string | Date;
  lastUsedAt: string | number | null;
  expiresAt: string | number;
  ip: string | null;
  userAgent: string | null;
  sessionId: string | null;
}

/** Which tokens a deletion takes: a Query Engine `where` on the token rows. */
export type TokenWhere = Record<string, unknown>;

export const tokenById = (strapi: Core.Strapi, id: number) => strapi.db.query(UID).findOne({ where: { id } }) as Promise<TokenRow | null>;

export const tokenByHash = (strapi: Core.Strapi, tokenHash: string) =>
  strapi.db.query(UID).findOne({ where: { tokenHash } }) as Promise<TokenRow | null>;

export const createToken = (
  strapi: Core.Strapi,
  data: {
    tokenHash: string;
    userId: number;
    expiresAt: number;
    lastUsedAt: number;
    ip: string | null;
    userAgent: string | null;
    sessionId: string | null;
    hostToken: string | null;
  },
) => strapi.db.query(UID).create({ data }) as Promise<TokenRow>;

/**
 * Records a rotation of the token's host session, only when the row still holds the session rotated from
 * (`fromSessionId`): 1 when this call recorded it, 0 when another rotation did first.
 */
export const recordRotation = async (strapi: Core.Strapi, id: number, fromSessionId: TokenRow['sessionId'], sessionId: string, hostToken: string) => {
  const { count } = await strapi.db.query(UID).updateMany({ where: { id, sessionId: fromSessionId }, data: { sessionId, hostToken } });
  return count;
};

export const touchToken = (strapi: Core.Strapi, id: number, lastUsedAt: number) => strapi.db.query(UID).updateMany({ where: { id }, data: { lastUsedAt } });

/** The user and host session of the tokens matching `where`. */
export const sessionsOfTokens = (strapi: Core.Strapi, where: TokenWhere) =>
  strapi.db.query(UID).findMany({ where, select: ['userId', 'sessionId'] }) as Promise<TokenRow[]>;

/** Deletes the tokens matching `where`; returns how many. */
export const deleteTokens = async (strapi: Core.Strapi, where: TokenWhere): Promise<number> => {
  const { count } = await strapi.db.query(UID).deleteMany({ where });
  return count;
};

/** The account's sessions still live at `now`, newest first. */
export const liveSessionsOf = (strapi: Core.Strapi, userId: number, now: number) =>
  strapi.db.query(UID).findMany({
    where: { userId, expiresAt: { $gt: now } },
    select: ['id', 'createdAt', 'lastUsedAt', 'expiresAt', 'ip', 'userAgent', 'sessionId'],
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  }) as Promise<SessionRow[]>;

/** The id of the account's token backed by that host session, if any. */
export const tokenOfHostSession = (strapi: Core.Strapi, userId: number, sessionId: string) =>
  strapi.db.query(UID).findOne({ where: { userId, sessionId }, select: ['id'] }) as Promise<Pick<TokenRow, 'id'> | null>;

/** The host session behind the token row `id`, if the row exists. */
export const hostSessionOfToken = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(UID).findOne({ where: { id }, select: ['sessionId'] }) as Promise<Pick<TokenRow, 'sessionId'> | null>;

/** The owner and expiry of the token row `id` (an access token naming it is checked against them). */
export const ownerAndExpiryOf = (strapi: Core.Strapi, id: number) =>
  strapi.db.query(UID).findOne({ where: { id }, select: ['userId', 'expiresAt'] }) as Promise<{ userId: number; expiresAt: string | number } | null>;
