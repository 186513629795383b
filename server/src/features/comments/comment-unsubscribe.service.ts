/**
 * Unsubscribe links: every notification mail carries a signed, expiring link that names the address only by a
 * keyed hash; following it (features/comments/comment-unsubscribe.controller.ts) stores the unsubscription.
 */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { serverUrl, type ServerConfig } from '../../platform/server-url';
import { getService } from '../../platform/get-service';
import { secretHash } from '../../platform/secret-hash';
import type { NotificationKind } from './notifications/templates';
import { hasUnsubscribed, recordUnsubscription } from './comment-unsubscribe.data';


/** `<kind>.<keyed hash of the address, hex>.<expiry, epoch seconds>.<HMAC-SHA-256, base64url>` */
const TOKEN_PATTERN = /^(reply|digest|follow)\.([0-9a-f]{64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
export const INVALID_UNSUBSCRIBE_LINK = 'Invalid unsubscribe link';
export const EXPIRED_UNSUBSCRIBE_LINK = 'Unsubscribe link expired';

export const unsubscribeLinks = (strapi: Core.Strapi) => {
  const settings = () => getService(strapi, 'settings').file().comments.notifications;
  const now = () => getService(strapi, 'clock').now();

  /** The configured secret, else a key derived from the users-permissions jwtSecret (as platform/secret-hash.ts). */
  const signingKey = (): Buffer => {
    const configured = settings().secret;
    return configured ? Buffer.from(configured, 'utf8') : Buffer.from(secretHash(strapi, 'comment-unsubscribe-key'), 'hex');
  };
  const lookupOf = (email: string) => secretHash(strapi, 'comment-unsubscribe', email.trim().toLowerCase());
  const signatureOf = (kind: NotificationKind, lookup: string, expires: string) =>
    crypto.createHmac('sha256', signingKey()).update(`unsubscribe:${kind}:${lookup}:${expires}`).digest('base64url');

  /** The link a mail carries: `GET` shows a confirmation, `POST` (RFC 8058 one-click) unsubscribes. */
  const unsubscribeUrl = (kind: NotificationKind, email: string): string => {
    const lookup = lookupOf(email);
    // A link lives as long as the mail may reasonably be acted on; one found later in an archive or a leaked log does nothing.
    const expires = String(Math.floor(now() / 1000) + settings().unsubscribeExpiresIn);
    // From configuration only: the request that caused the mail (its Host, X-Forwarded-*) never names the link's host.
    const origin = (settings().publicUrl ?? serverUrl(strapi.config.get<ServerConfig>('server', {}))).replace(/\/+$/, '');
    const prefix = strapi.config.get<string>('api.rest.prefix', '/api');
    const token = `${kind}.${lookup}.${expires}.${signatureOf(kind, lookup, expires)}`;
    return `${origin}${prefix}/bag/comments/unsubscribe?token=${token}`;
  };

  /** The kind and lookup a token names, if this server signed it and it has not expired; else a 400. */
  const verifyToken = (token: unknown): { kind: NotificationKind; lookup: string } => {
    const match = typeof token === 'string' ? TOKEN_PATTERN.exec(token) : null;
    if (!match) throw new errors.ValidationError(INVALID_UNSUBSCRIBE_LINK);
    const [, kind, lookup, expires, signature] = match as unknown as [string, NotificationKind, string, string, string];
    const expected = Buffer.from(signatureOf(kind, lookup, expires));
    if (!crypto.timingSafeEqual(expected, Buffer.from(signature))) throw new errors.ValidationError(INVALID_UNSUBSCRIBE_LINK);
    if (Number(expires) * 1000 <= now()) throw new errors.ValidationError(EXPIRED_UNSUBSCRIBE_LINK);
    return { kind, lookup };
  };

  const isUnsubscribed = (kind: NotificationKind, email: string) => hasUnsubscribed(strapi, lookupOf(email), kind);

  const part = {
    unsubscribeUrl,
    isUnsubscribed,

    /** What a link's token would unsubscribe from, changing nothing; a token not signed here or expired is a 400. */
    checkUnsubscribe(token: unknown): { kind: NotificationKind } {
      return { kind: verifyToken(token).kind };
    },

    /** Stores the unsubscription a link's token names; a token not signed here or expired is a 400. */
    async unsubscribe(token: unknown): Promise<{ kind: NotificationKind }> {
      const { kind, lookup } = verifyToken(token);
      if (!(await hasUnsubscribed(strapi, lookup, kind))) {
        try {
          await recordUnsubscription(strapi, lookup, kind);
        } catch (error) {
          // The unique (lookup, kind): the same link followed twice at once.
          if (!(await hasUnsubscribed(strapi, lookup, kind))) throw error;
        }
      }
      return { kind };
    },

  };
  return part;
};
