/**
 * The links newsletter mails carry, on this server's own URL from configuration (platform/server-url.ts), never from
 * a request. Confirmation: 32 random bytes, kept only as their SHA-256 (`confirmHash`), used once, expiring after
 * `newsletters.confirmWindow`. Unsubscribe: `<subscriber id>.<HMAC>` keyed with a secret that never reaches the
 * database (platform/secret-hash.ts), so nothing of it is stored; it names one address on one newsletter.
 */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { serverUrl, type ServerConfig } from '../../platform/server-url';
import { sameHash, secretHash, sha256 } from '../../platform/secret-hash';

export const INVALID_LINK = 'Invalid or expired link';

const UNSUBSCRIBE_TOKEN = /^(\d{1,12})\.([0-9a-f]{64})$/;
const CONFIRM_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const base = (strapi: Core.Strapi) => {
  const origin = serverUrl(strapi.config.get<ServerConfig>('server', {}));
  const prefix = strapi.config.get<string>('api.rest.prefix', '/api').replace(/\/+$/, '');
  return `${origin}${prefix}/bag/newsletters`;
};

export const newConfirmToken = () => {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
};

export const confirmUrl = (strapi: Core.Strapi, token: string) => `${base(strapi)}/confirm?token=${token}`;

/** The hash a confirmation token is kept as; a 400 for what cannot be one. */
export const confirmHashOf = (token: unknown): string => {
  if (typeof token !== 'string' || !CONFIRM_TOKEN.test(token)) throw new errors.ValidationError(INVALID_LINK);
  return sha256(token);
};

const signature = (strapi: Core.Strapi, subscriberId: number) => secretHash(strapi, 'newsletter-unsubscribe', String(subscriberId));

export const unsubscribeToken = (strapi: Core.Strapi, subscriberId: number) => `${subscriberId}.${signature(strapi, subscriberId)}`;

export const unsubscribeUrl = (strapi: Core.Strapi, subscriberId: number) => `${base(strapi)}/unsubscribe?token=${unsubscribeToken(strapi, subscriberId)}`;

/** The subscriber an unsubscribe token names, if this server signed it; else a 400. */
export const subscriberOfToken = (strapi: Core.Strapi, token: unknown): number => {
  const match = typeof token === 'string' ? UNSUBSCRIBE_TOKEN.exec(token) : null;
  if (!match || !sameHash(signature(strapi, Number(match[1])), match[2])) throw new errors.ValidationError(INVALID_LINK);
  return Number(match[1]);
};
