/**
 * The plugin's refresh tokens: 256 random bits (Base64url), stored only as SHA-256 with the user, expiry, client IP
 * and User-Agent. A refresh gives a new access token and keeps the refresh token; logout deletes it.
 *
 * An access token is refused once its session is gone (access-tokens.ts): every deletion here says so to every instance.
 *
 * Access tokens follow the host's users-permissions `jwtManagement`:
 * - 'legacy-support' (the default): a jwt `{ id }` signed by the host's jwt service, living `auth.accessToken.expiresIn`;
 * - 'refresh': the host accepts only access tokens minted by its session manager, so each plugin refresh token is
 *   backed by one host session. The host's refresh token for that session is kept sealed (AES-256-GCM) under a key
 *   derived from the plugin's refresh token, which only the client holds: the database alone cannot open it. Each
 *   refresh rotates the host token (the host's idle window starts again) and asks the host for the access token.
 */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../../platform/config/schema';
import { REFRESH_ERRORS } from '../../platform/auth';
import type { ClientInfo } from '../../platform/client';
import { getService } from '../../platform/get-service';
import { sha256 } from '../../platform/secret-hash';
import {
  createToken,
  deleteTokens,
  hostSessionOfToken,
  liveSessionsOf,
  recordRotation,
  sessionsOfTokens,
  tokenByHash,
  tokenById,
  tokenOfHostSession,
  touchToken,
  type SessionRow,
  type TokenRow,
  type TokenWhere,
} from './refresh-token.data';
import { blockedStateOf } from './users.data';

export type { SessionRow } from './refresh-token.data';

const ORIGIN = 'users-permissions';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const IV_BYTES = 12;
/** The claim of a legacy-mode jwt naming the refresh token (session) it came from. */
export const SESSION_CLAIM = 'bagSession';
const TAG_BYTES = 16;

export interface Tokens {
  jwt: string;
  refreshToken: string;
}

interface HostSession {
  token: string;
  sessionId: string;
}

/** The key that seals a host refresh token: derived from the plugin's refresh token, never stored. */
const sealKey = (token: string) => Buffer.from(crypto.hkdfSync('sha256', token, 'cms-plugin-bag', 'host-session', 32));

const seal = (token: string, secret: string, iv: Buffer): string => {
  const cipher = crypto.createCipheriv('aes-256-gcm', sealKey(token), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
};

const unseal = (token: string, sealed: string): string | null => {
  const raw = Buffer.from(sealed, 'base64');
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealKey(token), raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
};

const refreshToken = ({ strapi }: { strapi: Core.Strapi }) => {
  const sessionMode = () => strapi.config.get<string>('plugin::users-permissions.jwtManagement', 'legacy-support') === 'refresh';
  const sessions = () => strapi.sessionManager(ORIGIN);
  const invalid = () => new errors.ValidationError(REFRESH_ERRORS.invalid);

  /** A host access token for a host refresh token; null when the host no longer honours the session. */
  const hostAccessToken = async (hostRefreshToken: string): Promise<string | null> => {
    const access = await sessions().generateAccessToken(hostRefreshToken);
    return 'error' in access ? null : access.token;
  };

  /** Ends the host sessions behind these rows (refresh mode). */
  const endHostSessions = async (rows: Pick<TokenRow, 'userId' | 'sessionId'>[]) => {
    if (!sessionMode()) return;
    for (const row of rows) if (row.sessionId) await sessions().revokeSessionById(String(row.userId), row.sessionId);
  };

  /** Rotations in flight in this process, by token row. */
  const rotations = new Map<number, Promise<string>>();

  /** An access token from the host session the row's token now stands for (rotated by another refresh), or null. */
  const rotatedByAnother = async (token: string, row: TokenRow): Promise<string | null> => {
    const current = await tokenById(strapi, row.id);
    if (!current || current.sessionId === row.sessionId || !current.hostToken) return null;
    const winner = unseal(token, current.hostToken);
    return winner ? hostAccessToken(winner) : null;
  };

  /**
   * Refresh mode: rotates the host session behind the token and records the new one. A token issued in legacy mode
   * has no host session to refresh, and the host may have ended the session (its own logout, its lifetimes): either
   * way this token is done, unless another refresh of it (another instance) rotated the session first.
   */
  const rotate = async (token: string, row: TokenRow): Promise<string> => {
    const hostToken = row.hostToken ? unseal(token, row.hostToken) : null;
    const rotated = hostToken ? ((await sessions().rotateRefreshToken(hostToken)) as HostSession | { error: string }) : null;
    const access = rotated && !('error' in rotated) ? await hostAccessToken(rotated.token) : null;
    if (!rotated || 'error' in rotated || !access) {
      // The host refuses a token already rotated: if another refresh recorded its rotation, answer from it.
      const fromWinner = hostToken ? await rotatedByAnother(token, row) : null;
      if (fromWinner) return fromWinner;
      await deleteWhere({ id: row.id, sessionId: row.sessionId });
      throw invalid();
    }
    // Conditional on the session rotated from: of two concurrent refreshes of this token, one records its rotation.
    const count = await recordRotation(strapi, row.id, row.sessionId, rotated.sessionId, sealFor(token, rotated.token));
    if (count === 1) return access;
    // The other one won. The host's rotation is not atomic, so ours may have made a second live session: end it,
    // unless the host gave both the same one, and answer from the winner's.
    const current = await tokenById(strapi, row.id);
    if (current?.sessionId !== rotated.sessionId) await sessions().revokeSessionById(String(row.userId), rotated.sessionId);
    const winner = current?.hostToken ? unseal(token, current.hostToken) : null;
    const winnerAccess = winner ? await hostAccessToken(winner) : null;
    if (!winnerAccess) throw invalid();
    return winnerAccess;
  };

  /** The host's jwt `{ id }` plus the session it came from (legacy mode). */
  const legacyJwt = (userId: number, sessionRow: number, config: PluginConfig): string =>
    strapi.plugin('users-permissions').service('jwt').issue({ id: userId, [SESSION_CLAIM]: sessionRow }, { expiresIn: config.auth.accessToken.expiresIn });

  const sealFor = (token: string, hostRefreshToken: string) =>
    seal(token, hostRefreshToken, getService(strapi, 'clock').randomBytes(IV_BYTES));

  /** Deletes the tokens matching `where` and, in refresh mode, ends the host sessions behind them. */
  const deleteWhere = async (where: TokenWhere): Promise<number> => {
    const rows = sessionMode() ? await sessionsOfTokens(strapi, where) : [];
    const count = await deleteTokens(strapi, where);
    await endHostSessions(rows);
    // Their access tokens die with them, on every instance (access-tokens.ts).
    if (count > 0) await getService(strapi, 'access-tokens').revoked();
    return count;
  };

  return {
    /**
     * A new access token and refresh token for `userId`; the only time the refresh token exists in clear. In legacy
     * mode the jwt names its session (`bagSession`, the row's id) so the session list can flag the current one; in
     * 'refresh' mode the host's access token names its host session.
     */
    async issue(userId: number, client: ClientInfo, config: PluginConfig): Promise<Tokens> {
      const clock = getService(strapi, 'clock');
      const token = clock.randomBytes(32).toString('base64url');
      let jwt: string | undefined;
      let host: HostSession | undefined;
      if (sessionMode()) {
        host = (await sessions().generateRefreshToken(String(userId), undefined, { type: 'refresh' })) as HostSession;
        const access = await hostAccessToken(host.token);
        if (!access) throw new errors.ApplicationError('Invalid credentials');
        jwt = access;
      }
      const now = clock.now();
      const row = await createToken(strapi, {
        tokenHash: sha256(token),
        userId,
        expiresAt: now + config.auth.refreshToken.expiresIn * 1000,
        lastUsedAt: now,
        ip: client.ip,
        userAgent: client.userAgent,
        sessionId: host?.sessionId ?? null,
        hostToken: host ? sealFor(token, host.token) : null,
      });
      jwt ??= legacyJwt(userId, row.id, config);
      await this.purgeExpired();
      return { jwt, refreshToken: token };
    },

    /** A new access token for a live refresh token; throws the 400s of docs/accounts.md#errors otherwise (and drops dead tokens). */
    async refresh(token: string, config: PluginConfig): Promise<string> {
      if (!TOKEN_PATTERN.test(token)) throw invalid();
      const row = await tokenByHash(strapi, sha256(token));
      if (!row) throw invalid();

      if (Number(row.expiresAt) <= getService(strapi, 'clock').now()) {
        await deleteWhere({ id: row.id });
        throw new errors.ValidationError(REFRESH_ERRORS.expired);
      }
      const user = await blockedStateOf(strapi, row.userId);
      if (!user) {
        await deleteWhere({ id: row.id });
        throw invalid();
      }
      if (user.blocked === true) {
        await this.revokeUser(row.userId);
        throw new errors.ValidationError(REFRESH_ERRORS.blocked);
      }

      await touchToken(strapi, row.id, getService(strapi, 'clock').now());
      if (!sessionMode()) return legacyJwt(row.userId, row.id, config);
      // Concurrent refreshes of one token in this process share one rotation of its host session.
      const pending = rotations.get(row.id);
      if (pending) return pending;
      const rotation = rotate(token, row).finally(() => rotations.delete(row.id));
      rotations.set(row.id, rotation);
      return rotation;
    },

    /** Deletes the token if it exists; an unknown or malformed token is not an error (RFC 7009). */
    async revoke(token: string): Promise<void> {
      await deleteWhere({ tokenHash: sha256(token) });
    },

    /** Deletes every refresh token of these users (and, in refresh mode, the host sessions behind them). */
    async revokeUser(...userIds: number[]): Promise<number> {
      if (userIds.length === 0) return 0;
      return deleteWhere({ userId: { $in: userIds } });
    },

    /**
     * Ends every session of these accounts: their refresh tokens and, in 'refresh' mode, every host session too (those
     * of the host's own login included); in legacy mode every jwt without a session issued until now is refused too.
     * Every access token issued before is refused from now on (access-tokens.ts).
     */
    async endAll(...userIds: number[]): Promise<void> {
      await this.revokeUser(...userIds);
      if (sessionMode()) for (const userId of userIds) await sessions().invalidateRefreshToken(String(userId));
      await getService(strapi, 'access-tokens').endBefore(...userIds);
    },

    /** The account's live sessions (refresh tokens not expired), newest first. */
    async list(userId: number): Promise<SessionRow[]> {
      return liveSessionsOf(strapi, userId, getService(strapi, 'clock').now());
    },

    /** The row id of the session a host session id belongs to ('refresh' mode), if it is one of the plugin's. */
    async rowOfHostSession(userId: number, sessionId: string): Promise<number | undefined> {
      const row = await tokenOfHostSession(strapi, userId, sessionId);
      return row?.id;
    },

    /** Ends one session of `userId`; false when it has no such session. */
    async revokeSession(userId: number, id: number): Promise<boolean> {
      return (await deleteWhere({ id, userId })) > 0;
    },

    /**
     * Ends every session of `userId` but `keep` (the request's, if it is one of the plugin's); how many of the
     * plugin's ended. The host's own sessions end too: in 'refresh' mode every live one but the request's
     * (`hostSession`); in legacy mode, when the request holds one of the plugin's sessions, every jwt without a
     * session issued until now (the host's own login has no session to name).
     */
    async revokeOthers(userId: number, keep: number | undefined, hostSession?: string): Promise<number> {
      const kept = keep === undefined ? null : await hostSessionOfToken(strapi, keep);
      const count = await deleteWhere(keep === undefined ? { userId } : { userId, id: { $ne: keep } });
      if (sessionMode()) {
        const spared = new Set([hostSession, kept?.sessionId].filter(Boolean));
        for (const live of (await sessions().listSessions(String(userId))) as { sessionId: string }[]) {
          if (!spared.has(live.sessionId)) await sessions().revokeSessionById(String(userId), live.sessionId);
        }
      } else if (keep !== undefined) {
        await getService(strapi, 'access-tokens').endBefore(userId);
      }
      return count;
    },

    /** Deletes refresh tokens past their expiry (and, in refresh mode, the host sessions behind them). */
    async purgeExpired(): Promise<number> {
      return deleteWhere({ expiresAt: { $lte: getService(strapi, 'clock').now() } });
    },
  };
};

export type RefreshTokenService = ReturnType<typeof refreshToken>;
export default refreshToken;
