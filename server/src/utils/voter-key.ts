/**
 * Who a like or a report counts as: a user by account id, a guest by client address (IPv6 by /64, as the rate
 * limits count) and User-Agent. Stored only as an HMAC keyed with the host's secret (utils/secret-hash.ts), so the
 * database never holds an IP, and a leaked table cannot be matched against guessed addresses without the key.
 */
import type { Core } from '@strapi/strapi';
import { rateLimitAddress, type ClientInfo } from './client';
import { secretHash } from './secret-hash';

export interface Voter {
  /** The token's user, or null for a guest. */
  user: { id: number } | null;
  client: ClientInfo;
}

export const voterKey = (strapi: Core.Strapi, { user, client }: Voter): string =>
  user
    ? secretHash(strapi, 'comment-voter', 'user', String(user.id))
    : secretHash(strapi, 'comment-voter', 'guest', rateLimitAddress(client.ip), client.userAgent);
