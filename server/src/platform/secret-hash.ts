/**
 * Keyed hashes for short secrets kept in the database (captcha texts, e-mail codes, looked-up addresses).
 * A plain SHA-256 of a 6-digit code falls to a million guesses offline; an HMAC keyed with the host's
 * users-permissions jwtSecret does not, since the key never reaches the database.
 */
import crypto from 'crypto';
import type { Core } from '@strapi/strapi';

const hmacKey = (strapi: Core.Strapi): Buffer => {
  const secret = strapi.config.get('plugin::users-permissions.jwtSecret') as string | undefined;
  if (!secret) throw new Error('cms-plugin-bag: users-permissions jwtSecret is not set');
  return crypto.createHash('sha256').update(`cms-plugin-bag:${secret}`).digest();
};

/** HMAC-SHA-256 (hex) of the parts, joined unambiguously. */
export const secretHash = (strapi: Core.Strapi, ...parts: string[]): string =>
  crypto.createHmac('sha256', hmacKey(strapi)).update(JSON.stringify(parts)).digest('hex');

/** Constant-time comparison of two hex digests. */
export const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && crypto.timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

/** SHA-256 (hex): enough for refresh tokens, which carry 256 bits of randomness themselves. */
export const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');
