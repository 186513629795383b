/**
 * Who a like or a report counts as: a user by account id, a guest by client address alone (IPv6 by /64, as the rate
 * limits count). Not the User-Agent: the client sets it freely, so one address could act as any number of guests
 * (fresh likes, or the report threshold reached alone). Stored only as an HMAC keyed with the host's secret (platform/secret-hash.ts), so the
 * database never holds an IP, and a leaked table cannot be matched against guessed addresses without the key.
 */
import type { Core } from '@strapi/strapi';
import { rateLimitAddress, type ClientInfo } from '../../platform/client';
import { secretHash } from '../../platform/secret-hash';

export interface Voter {
  /** The token's user, or null for a guest. */
  user: { id: number } | null;
  client: ClientInfo;
}

export const voterKey = (strapi: Core.Strapi, { user, client }: Voter): string =>
  user
    ? secretHash(strapi, 'comment-voter', 'user', String(user.id))
    : secretHash(strapi, 'comment-voter', 'guest', rateLimitAddress(client.ip));
