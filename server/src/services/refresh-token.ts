/**
 * The plugin's refresh tokens: 256 random bits (Base64url), stored only as SHA-256 with the user, expiry, client IP
 * and User-Agent. A refresh gives a new access token and keeps the refresh token; logout deletes it.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { PluginConfig } from '../config/schema';
import type { ClientInfo } from '../utils/client';
import { getService } from '../utils/get-service';
import { uid } from '../utils/plugin-id';
import { sha256 } from '../utils/secret-hash';

const UID = uid('refresh-token');
const USER_UID = 'plugin::users-permissions.user';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const REFRESH_ERRORS = {
  missing: 'Missing refresh token',
  invalid: 'Invalid refresh token',
  expired: 'Refresh token expired',
  blocked: 'Your account has been blocked by an administrator',
} as const;

interface TokenRow {
  id: number;
  userId: number;
  expiresAt: string | number;
}

const refreshToken = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Issues a refresh token for `userId`; returns the token itself (the only time it exists in clear). */
  async issue(userId: number, client: ClientInfo, config: PluginConfig): Promise<string> {
    const clock = getService(strapi, 'clock');
    const token = clock.randomBytes(32).toString('base64url');
    await strapi.db.query(UID).create({
      data: {
        tokenHash: sha256(token),
        userId,
        expiresAt: clock.now() + config.auth.refreshToken.expiresIn * 1000,
        ip: client.ip,
        userAgent: client.userAgent,
      },
    });
    await this.purgeExpired();
    return token;
  },

  /** The user a live refresh token belongs to; throws the contract's 400s otherwise (and drops dead tokens). */
  async userOf(token: string): Promise<{ id: number }> {
    if (!TOKEN_PATTERN.test(token)) throw new errors.ValidationError(REFRESH_ERRORS.invalid);
    const row = (await strapi.db.query(UID).findOne({ where: { tokenHash: sha256(token) } })) as TokenRow | null;
    if (!row) throw new errors.ValidationError(REFRESH_ERRORS.invalid);

    if (Number(row.expiresAt) <= getService(strapi, 'clock').now()) {
      await strapi.db.query(UID).delete({ where: { id: row.id } });
      throw new errors.ValidationError(REFRESH_ERRORS.expired);
    }
    const user = await strapi.db.query(USER_UID).findOne({ where: { id: row.userId }, select: ['id', 'blocked'] });
    if (!user) {
      await strapi.db.query(UID).delete({ where: { id: row.id } });
      throw new errors.ValidationError(REFRESH_ERRORS.invalid);
    }
    if (user.blocked === true) {
      await this.revokeUser(row.userId);
      throw new errors.ValidationError(REFRESH_ERRORS.blocked);
    }
    return { id: row.userId };
  },

  /** Deletes the token if it exists; an unknown or malformed token is not an error (RFC 7009). */
  async revoke(token: string): Promise<void> {
    await strapi.db.query(UID).deleteMany({ where: { tokenHash: sha256(token) } });
  },

  /** Deletes every refresh token of these users. */
  async revokeUser(...userIds: number[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const { count } = await strapi.db.query(UID).deleteMany({ where: { userId: { $in: userIds } } });
    return count;
  },

  async purgeExpired(): Promise<number> {
    const { count } = await strapi.db.query(UID).deleteMany({ where: { expiresAt: { $lte: getService(strapi, 'clock').now() } } });
    return count;
  },
});

export type RefreshTokenService = ReturnType<typeof refreshToken>;
export default refreshToken;
