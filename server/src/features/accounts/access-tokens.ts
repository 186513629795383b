/**
 * An access token dies with its session (docs/accounts.md#access-tokens-end-with-their-session): checked on every
 * request that the host's users-permissions strategy authenticated (access-tokens.register.ts), after the host has verified
 * the jwt's signature and expiry.
 *
 * - 'refresh' mode: every access token names its host session (`sessionId`); it is refused once that session row is
 *   gone. Every revocation deletes the host sessions (and their rotated ancestors: features/accounts/session-revocation.ts).
 * - legacy mode, a jwt of this plugin (`bagSession`, the refresh token row it came from): refused once that row is
 *   gone or expired.
 * - legacy mode, any other jwt (the host's own login, reset, change-password, provider callback): refused when it was
 *   issued before the account's last account-wide sign-out (`bag_token_epochs.valid_after`). The issue instant is the
 *   `bagIssuedAt` claim (milliseconds) the plugin adds to every jwt the host signs, or, for a jwt signed without it,
 *   the start of its `iat` second: such a jwt issued in the same second after the event is refused too.
 *
 * Cost: one indexed read (a primary key, `strapi_sessions.session_id` or `bag_token_epochs.user_id`), and nothing
 * while the answer is known: a known-good answer is kept per instance under the version of the `sessions` scope
 * (features/cache/cache-versions.ts), which every revocation raises once it has committed, on any instance. Reading
 * that version is the one SELECT a turn's requests share (shared-reads.ts).
 */
import type { Core } from '@strapi/strapi';
import { deleteTokenEpochsOf, raiseTokenEpoch, tokenEpochOf } from './token-epochs.data';
import { hostSessionRow } from './host-sessions.data';
import { ownerAndExpiryOf } from './refresh-token.data';
import { currentTransaction, keptByVersion } from '../cache';
import { getService } from '../../platform/get-service';
import { SESSION_CLAIM } from './refresh-token';

/** The claim (milliseconds since the epoch) the plugin adds to every legacy jwt the host's jwt service signs. */
export const ISSUED_CLAIM = 'bagIssuedAt';
/** Known answers kept per instance (sessions and accounts); the oldest goes first. */
const KNOWN_LIMIT = 10_000;

export interface AccessClaims {
  sessionId?: unknown;
  iat?: unknown;
  [claim: string]: unknown;
}

/** The claims of a jwt the host has already verified (only read, never trusted for a signature). */
export const claimsOf = (token: string): AccessClaims | null => {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as AccessClaims) : null;
  } catch {
    return null;
  }
};

const accessTokens = ({ strapi }: { strapi: Core.Strapi }) => {
  const refreshMode = () => strapi.config.get<string>('plugin::users-permissions.jwtManagement', 'legacy-support') === 'refresh';
  const now = () => getService(strapi, 'clock').now();
  // Sessions: the expiry (ms) of a live one; accounts: their `validAfter` (0 for none). Misses are not kept.
  const known = keptByVersion<number>(strapi, KNOWN_LIMIT, ['sessions']);

  /** `read()`'s answer, or the one kept under the current `sessions` version. */
  const lookup = async (key: string, read: () => Promise<number | undefined>): Promise<number | undefined> => {
    // The versions unreadable (an outage): the row is read, and what it says is not kept.
    const version = await known.version().catch(() => undefined);
    const kept = version === undefined ? undefined : known.get(version, key);
    if (kept !== undefined) return kept;
    const value = await read();
    if (value !== undefined && version !== undefined) known.set(version, key, value);
    return value;
  };

  const hostSessionAlive = (sessionId: string) =>
    lookup(`h:${sessionId}`, async () => {
      const row = await hostSessionRow(strapi, sessionId);
      return row ? Number.MAX_SAFE_INTEGER : undefined;
    });

  const sessionExpiry = (rowId: number, userId: number) =>
    lookup(`s:${rowId}`, async () => {
      const row = await ownerAndExpiryOf(strapi, rowId);
      return row && Number(row.userId) === userId ? Number(row.expiresAt) : undefined;
    });

  const validAfter = async (userId: number) =>
    (await lookup(`u:${userId}`, async () => {
      const row = await tokenEpochOf(strapi, userId);
      return row ? Number(row.validAfter) : 0;
    })) ?? 0;

  return {
    /** Whether a jwt the host accepted for `userId` still stands (its session lives, or it postdates the account's sign-out). */
    async accepts(claims: AccessClaims, userId: number): Promise<boolean> {
      if (refreshMode()) {
        const { sessionId } = claims;
        return typeof sessionId === 'string' && (await hostSessionAlive(sessionId)) !== undefined;
      }
      const row = claims[SESSION_CLAIM];
      if (row !== undefined) {
        if (typeof row !== 'number' || !Number.isSafeInteger(row)) return false;
        const expiry = await sessionExpiry(row, userId);
        return expiry !== undefined && expiry > now();
      }
      const issued = claims[ISSUED_CLAIM];
      const issuedAt = typeof issued === 'number' ? issued : typeof claims.iat === 'number' ? claims.iat * 1000 : 0;
      return issuedAt >= (await validAfter(userId));
    },

    /**
     * An account-wide sign-out of these accounts: every jwt without a session issued until now is refused from now on
     * (a plugin jwt goes with its session row, which the caller deletes). Recorded before it returns, on every instance.
     */
    async endBefore(...userIds: number[]): Promise<void> {
      if (userIds.length === 0) return;
      const at = now();
      const trx = await currentTransaction(strapi);
      for (const userId of new Set(userIds)) await raiseTokenEpoch(strapi, userId, at, trx);
      await this.revoked();
    },

    /** Sessions ended (rows deleted, epochs raised): every instance forgets what it knew of them. */
    async revoked(): Promise<void> {
      await getService(strapi, 'cache-versions').invalidate('sessions');
    },

    /** A deleted account's epoch row goes with it. */
    async forgetUser(...userIds: number[]): Promise<void> {
      if (userIds.length > 0) await deleteTokenEpochsOf(strapi, userIds);
    },
  };
};

export type AccessTokensService = ReturnType<typeof accessTokens>;
export default accessTokens;
